/* wtf_analysis.c -- timeline and frame statistics (wtf_analysis.h). */
#define _GNU_SOURCE
#include "wtf_analysis.h"

#include "wtf_format.h"
#include "wtf_json.h"

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef struct stack {
    size_t *v;
    size_t n, cap;
} stack_t_;

typedef struct fev {
    uint32_t zone, number;
    uint64_t t;
    int zero, end;      /* time 0 in its file; a frameEnd */
    size_t order, ev;
} fev_t;

/* qsort without the undefined behaviour of a NULL base when empty */
static void sort(void *p, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(p, n, size, cmp);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int is_call_def(const w15_wtf_def_t *d)
{
    return d->nargs == 1 && d->arg[0].type == W15_WTF_T_UINT32 && strcmp(d->arg[0].name, "call") == 0;
}

static int is_gpu_frame_def(const w15_wtf_def_t *d)
{
    return d->nargs == 1 && d->arg[0].type == W15_WTF_T_UINT32 && strcmp(d->arg[0].name, "frame") == 0 &&
           strcmp(d->name, W15_WTF_GPU_FRAME_EVENT) == 0;
}

static int cmp_fev(const void *a, const void *b)
{
    const fev_t *x = a, *y = b;
    if (x->zone != y->zone)
        return x->zone < y->zone ? -1 : 1;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_frame_time(const void *a, const void *b)
{
    const w15_frame_t *x = a, *y = b;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    if (x->zone != y->zone)
        return x->zone < y->zone ? -1 : 1;
    return x->number < y->number ? -1 : x->number > y->number;
}

static int name_eq(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

/* Zone numbers of file i (index + 1) -> timeline zone numbers: the first
 * file's as they are; a later file's zone joins the timeline zone of the same
 * name and id, else the first one of the same name not yet joined by this
 * file, else it is new.  Returns the map (nzones + 1 entries, [0] = 0) or
 * NULL when out of memory. */
static uint32_t *join_zones(w15_timeline_t *tl, uint32_t **ids, uint32_t *cap, const w15_wtf_file_t *f, int first)
{
    uint32_t *map = calloc((size_t)f->nzones + 1, sizeof *map);
    uint8_t *used = calloc((size_t)tl->nzones + f->nzones + 1, 1);
    if (!map || !used)
        goto fail;
    for (uint32_t k = 0; k < f->nzones; k++) {
        const w15_wtf_zoneinfo_t *zi = &f->zones[k];
        uint32_t j = 0;
        if (!first) {
            for (uint32_t z = 1; z <= tl->nzones && !j; z++)
                if (!used[z] && (*ids)[z - 1] == zi->id && name_eq(tl->zone_name[z - 1], zi->name))
                    j = z;
            for (uint32_t z = 1; z <= tl->nzones && !j; z++)
                if (!used[z] && name_eq(tl->zone_name[z - 1], zi->name))
                    j = z;
        }
        if (!j) {
            if (tl->nzones == *cap) {
                uint32_t nc = *cap ? *cap * 2 : 16;
                const char **nn = realloc(tl->zone_name, nc * sizeof *nn);
                if (!nn)
                    goto fail;
                tl->zone_name = nn;
                const char **nt = realloc(tl->zone_type, nc * sizeof *nt);
                if (!nt)
                    goto fail;
                tl->zone_type = nt;
                uint32_t *ni = realloc(*ids, nc * sizeof *ni);
                if (!ni)
                    goto fail;
                *ids = ni;
                *cap = nc;
            }
            tl->zone_name[tl->nzones] = zi->name;
            tl->zone_type[tl->nzones] = zi->type;
            (*ids)[tl->nzones] = zi->id;
            j = ++tl->nzones;
        }
        used[j] = 1;
        map[k + 1] = j;
    }
    free(used);
    return map;
fail:
    free(map);
    free(used);
    return NULL;
}

typedef struct gfr {
    uint32_t number;
    size_t scope;       /* index in tl->scopes */
} gfr_t;

static int cmp_gfr(const void *a, const void *b)
{
    const gfr_t *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return x->scope < y->scope ? -1 : x->scope > y->scope;
}

uint32_t w15_timeline_gpu_zone(const w15_timeline_t *tl, uint32_t zone)
{
    if (!zone || zone > tl->nzones || !tl->zone_name[zone - 1])
        return 0;
    const char *zn = tl->zone_name[zone - 1];
    size_t n = strlen(zn);
    uint32_t any = 0;
    for (uint32_t z = 1; z <= tl->nzones; z++) {
        const char *g = tl->zone_name[z - 1];
        if (z == zone || !g || strncmp(g, zn, n) != 0 || strcmp(g + n, " GPU") != 0)
            continue;
        if (tl->zone_type && tl->zone_type[z - 1] && strcmp(tl->zone_type[z - 1], "native_gpu") == 0)
            return z;
        if (!any)
            any = z;
    }
    return any;
}

/* GPU time of every frame: the closed GPU_FRAME scopes of the frame zone's
 * companion GPU zone, joined by frame number (the last scope of a number
 * wins).  Returns 0, or -1 when out of memory. */
static int gpu_times(w15_timeline_t *tl)
{
    size_t ng = 0;
    for (size_t i = 0; i < tl->nscopes; i++)
        ng += tl->scopes[i].kind == W15_SCOPE_GPU_FRAME && tl->scopes[i].closed;
    if (!ng || !tl->nframes)
        return 0;
    gfr_t *g = malloc(ng * sizeof *g);
    uint8_t *seen = calloc((size_t)tl->nzones + 1, 1);
    if (!g || !seen) {
        free(g);
        free(seen);
        return -1;
    }
    for (size_t k0 = 0; k0 < tl->nframes; k0++) {
        uint32_t z = tl->frames[k0].zone;
        if (z > tl->nzones || seen[z])
            continue;
        seen[z] = 1;
        uint32_t gz = w15_timeline_gpu_zone(tl, z);
        if (!gz)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < tl->nscopes; i++) {
            const w15_scope_t *s = &tl->scopes[i];
            if (s->zone == gz && s->kind == W15_SCOPE_GPU_FRAME && s->closed)
                g[n++] = (gfr_t){(uint32_t)s->frame, i};
        }
        sort(g, n, sizeof *g, cmp_gfr);
        for (size_t k = k0; k < tl->nframes && n; k++) {
            w15_frame_t *fr = &tl->frames[k];
            if (fr->zone != z)
                continue;
            /* the last entry with this number */
            size_t a = 0, b = n;
            while (a < b) {
                size_t m = (a + b) / 2;
                if (g[m].number <= fr->number)
                    a = m + 1;
                else
                    b = m;
            }
            if (!a || g[a - 1].number != fr->number)
                continue;
            const w15_scope_t *s = &tl->scopes[g[a - 1].scope];
            fr->gpu_us = (int64_t)(s->t1 - s->t0);
            fr->gpu_t0 = s->t0;
            fr->gpu_t1 = s->t1;
        }
    }
    free(g);
    free(seen);
    return 0;
}

/* The timeline of files[0..n) one after the other, file i's times shifted
 * by off[i] us (>= 0 after the shift; earlier times clamp at 0). */
static int build(const w15_wtf_file_t *const *files, const int64_t *off, size_t n, w15_timeline_t *tl)
{
    memset(tl, 0, sizeof *tl);
    tl->file = files[0];
    stack_t_ *st = NULL;
    uint32_t stcap = 0, zcap = 0, *ids = NULL, *map = NULL;
    size_t scap = 0, icap = 0, fcap = 0, nfev = 0, base = 0;
    fev_t *fev = NULL;
    uint64_t last_t = 0;
    int rc = -1;
    for (size_t fi = 0; fi < n; fi++) {
        const w15_wtf_file_t *f = files[fi];
        free(map);
        if (!(map = join_zones(tl, &ids, &zcap, f, fi == 0)))
            goto out;
        if (tl->nzones + 1 > stcap) {
            stack_t_ *ns = realloc(st, ((size_t)tl->nzones + 1) * sizeof *ns);
            if (!ns)
                goto out;
            memset(ns + stcap, 0, ((size_t)tl->nzones + 1 - stcap) * sizeof *ns);
            st = ns;
            stcap = tl->nzones + 1;
        }
        for (size_t i = 0; i < f->nevents; i++) {
            const w15_wtf_event_t *e = &f->events[i];
            const w15_wtf_def_t *d = e->def;
            const char *nm = d->name;
            uint32_t z = e->zone <= f->nzones ? map[e->zone] : 0;
            int64_t tt = (int64_t)e->time + off[fi];
            uint64_t t = tt > 0 ? (uint64_t)tt : 0;
            size_t gi = base + i;
            if (t > last_t)
                last_t = t;
            if (strncmp(nm, "wtf.", 4) == 0) {
                if (strcmp(nm, W15_WTF_EV_SCOPE_LEAVE) == 0) {
                    if (!st[z].n)
                        continue;
                    w15_scope_t *s = &tl->scopes[st[z].v[--st[z].n]];
                    s->t1 = t >= s->t0 ? t : s->t0;
                    s->closed = 1;
                    if (st[z].n)
                        tl->scopes[st[z].v[st[z].n - 1]].child_us += s->t1 - s->t0;
                    continue;
                }
                if (strcmp(nm, W15_WTF_EV_FRAME_START) == 0 || strcmp(nm, W15_WTF_EV_FRAME_END) == 0) {
                    uint32_t num;
                    if (w15_wtf_arg_u32(e, 0, &num) != 0)
                        continue; /* not a frame number: not a frame */
                    if (grow((void **)&fev, &fcap, nfev + 1, sizeof *fev))
                        goto out;
                    fev[nfev] = (fev_t){z, num, t, e->time == 0, strcmp(nm, W15_WTF_EV_FRAME_END) == 0, nfev, gi};
                    nfev++;
                    continue;
                }
                if (strcmp(nm, W15_WTF_EV_TIMESTAMP) == 0) {
                    if (grow((void **)&tl->instants, &icap, tl->ninstants + 1, sizeof *tl->instants))
                        goto out;
                    const char *in = w15_wtf_arg_str(e, 0) ? w15_wtf_arg_str(e, 0) : "unnamed.instance";
                    tl->instants[tl->ninstants++] = (w15_instant_t){in, z, t};
                    continue;
                }
                if (strcmp(nm, W15_WTF_EV_SCOPE_ENTER) != 0)
                    continue; /* other built-ins: definitions, zones, marks */
            }
            if (d->cls == 1) {
                if (grow((void **)&tl->scopes, &scap, tl->nscopes + 1, sizeof *tl->scopes) ||
                    grow((void **)&st[z].v, &st[z].cap, st[z].n + 1, sizeof *st[z].v))
                    goto out;
                w15_scope_t *s = &tl->scopes[tl->nscopes];
                memset(s, 0, sizeof *s);
                s->zone = z;
                s->depth = (uint32_t)st[z].n;
                s->t0 = s->t1 = t;
                s->call = -1;
                s->frame = -1;
                s->ev = gi;
                if (strcmp(nm, W15_WTF_EV_SCOPE_ENTER) == 0) {
                    s->name = w15_wtf_arg_str(e, 0) ? w15_wtf_arg_str(e, 0) : "unnamed.scope";
                    s->kind = W15_SCOPE_GROUP;
                } else if (is_call_def(d)) {
                    s->name = nm;
                    s->kind = W15_SCOPE_CALL;
                    s->call = e->args[0].v.u;
                } else if (is_gpu_frame_def(d)) {
                    s->name = nm;
                    s->kind = W15_SCOPE_GPU_FRAME;
                    s->frame = e->args[0].v.u;
                } else {
                    s->name = nm;
                    s->kind = W15_SCOPE_GROUP;
                }
                st[z].v[st[z].n++] = tl->nscopes++;
            } else {
                if (grow((void **)&tl->instants, &icap, tl->ninstants + 1, sizeof *tl->instants))
                    goto out;
                tl->instants[tl->ninstants++] = (w15_instant_t){nm, z, t};
            }
        }
        base += f->nevents;
    }
    uint32_t nz = tl->nzones + 1;
    /* open scopes end at the last time seen */
    for (size_t i = 0; i < tl->nscopes; i++)
        if (!tl->scopes[i].closed)
            tl->scopes[i].t1 = last_t >= tl->scopes[i].t0 ? last_t : tl->scopes[i].t0;
    /* frames: pair start/end by (zone, number); the last of each wins, as in
     * the loader; frames without both or with a start/end time of 0 (in its
     * file) dropped */
    sort(fev, nfev, sizeof *fev, cmp_fev);
    size_t frcap = 0;
    for (size_t i = 0; i < nfev;) {
        size_t j = i;
        uint64_t t0 = 0, t1 = 0;
        int have0 = 0, have1 = 0;
        size_t e0 = 0, e1 = 0;
        while (j < nfev && fev[j].zone == fev[i].zone && fev[j].number == fev[i].number) {
            if (fev[j].end) {
                t1 = fev[j].t;
                have1 = !fev[j].zero;
                e1 = fev[j].ev;
            } else {
                t0 = fev[j].t;
                have0 = !fev[j].zero;
                e0 = fev[j].ev;
            }
            j++;
        }
        if (have0 && have1) {
            if (grow((void **)&tl->frames, &frcap, tl->nframes + 1, sizeof *tl->frames))
                goto out;
            tl->frames[tl->nframes++] =
                (w15_frame_t){fev[i].number, fev[i].zone, t0, t1 >= t0 ? t1 : t0, 0, e0, e1, -1, 0, 0};
        }
        i = j;
    }
    sort(tl->frames, tl->nframes, sizeof *tl->frames, cmp_frame_time);
    /* calls per frame: call scopes of the zone entered between the frame's
     * start and end events (scopes are in file order, files in generation
     * order: a zone's events are in time order) */
    for (uint32_t z = 0; z < nz; z++) {
        size_t nc = 0;
        for (size_t i = 0; i < tl->nscopes; i++)
            nc += tl->scopes[i].zone == z && tl->scopes[i].kind == W15_SCOPE_CALL;
        if (!nc)
            continue;
        size_t *ix = malloc(nc * sizeof *ix);
        if (!ix)
            goto out;
        nc = 0;
        for (size_t i = 0; i < tl->nscopes; i++)
            if (tl->scopes[i].zone == z && tl->scopes[i].kind == W15_SCOPE_CALL)
                ix[nc++] = tl->scopes[i].ev;
        for (size_t k = 0; k < tl->nframes; k++) {
            w15_frame_t *fr = &tl->frames[k];
            if (fr->zone != z || fr->e1 < fr->e0)
                continue;
            size_t lo = 0, hi = nc;
            while (lo < hi) {
                size_t m = (lo + hi) / 2;
                if (ix[m] < fr->e0)
                    lo = m + 1;
                else
                    hi = m;
            }
            size_t a = lo;
            hi = nc;
            while (lo < hi) {
                size_t m = (lo + hi) / 2;
                if (ix[m] < fr->e1)
                    lo = m + 1;
                else
                    hi = m;
            }
            fr->ncalls = (uint32_t)(lo - a);
        }
        free(ix);
    }
    if (gpu_times(tl) != 0)
        goto out;
    rc = 0;
out:
    for (uint32_t z = 0; z < stcap; z++)
        free(st[z].v);
    free(st);
    free(fev);
    free(map);
    free(ids);
    if (rc)
        w15_timeline_free(tl);
    return rc;
}

int w15_timeline_build(const w15_wtf_file_t *f, w15_timeline_t *tl)
{
    int64_t off = 0;
    return build(&f, &off, 1, tl);
}

int w15_timeline_build_capture(const w15_wtf_capture_t *cap, w15_timeline_t *tl)
{
    if (!cap->nfiles) {
        memset(tl, 0, sizeof *tl);
        return -1;
    }
    return build((const w15_wtf_file_t *const *)cap->files, cap->offset_us, cap->nfiles, tl);
}

void w15_timeline_free(w15_timeline_t *tl)
{
    free(tl->scopes);
    free(tl->frames);
    free(tl->instants);
    free(tl->zone_name);
    free(tl->zone_type);
    memset(tl, 0, sizeof *tl);
}

double w15_percentile(const double *v, size_t n, double p)
{
    double r = ceil(p / 100.0 * (double)n);
    size_t k = r < 1 ? 0 : (size_t)r - 1;
    if (k >= n)
        k = n - 1;
    return v[k];
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_worst(const void *a, const void *b)
{
    const w15_frame_t *x = *(const w15_frame_t *const *)a, *y = *(const w15_frame_t *const *)b;
    uint64_t dx = x->t1 - x->t0, dy = y->t1 - y->t0;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

typedef struct ncs {
    const char *name;
    uint64_t dur, self;
} ncs_t;

static int cmp_ncs(const void *a, const void *b)
{
    return strcmp(((const ncs_t *)a)->name, ((const ncs_t *)b)->name);
}

static int cmp_fn(const void *a, const void *b)
{
    const w15_fn_stat_t *x = a, *y = b;
    if (x->total_us != y->total_us)
        return x->total_us > y->total_us ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The GPU fields of st, over st->frames (docs/WTF.md "GPU time in the
 * tools").  Returns 0, or -1 when out of memory. */
static int gpu_stats(const w15_timeline_t *tl, w15_frame_stats_t *st)
{
    st->gpu_zone = w15_timeline_gpu_zone(tl, st->zone);
    if (!st->gpu_zone)
        return 0;
    for (size_t i = 0; i < tl->nscopes; i++)
        st->gpu_scopes += tl->scopes[i].zone == st->gpu_zone && tl->scopes[i].kind == W15_SCOPE_GPU_FRAME &&
                          tl->scopes[i].closed;
    double *d = malloc((st->n ? st->n : 1) * sizeof *d), sum = 0;
    if (!d)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < st->n; i++)
        if (st->frames[i]->gpu_us >= 0) {
            d[n] = (double)st->frames[i]->gpu_us / 1000.0;
            sum += d[n++];
        }
    st->gpu_n = n;
    if (n) {
        sort(d, n, sizeof *d, cmp_dbl);
        st->gpu_mean_ms = sum / (double)n;
        st->gpu_median_ms = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0;
        st->gpu_p90_ms = w15_percentile(d, n, 90);
        st->gpu_p95_ms = w15_percentile(d, n, 95);
        st->gpu_p99_ms = w15_percentile(d, n, 99);
        st->gpu_max_ms = d[n - 1];
        st->gpu_min_ms = d[0];
    }
    free(d);
    return 0;
}

int w15_frame_stats(const w15_timeline_t *tl, uint32_t zone, w15_frame_stats_t *st)
{
    return w15_frame_stats_skip(tl, zone, 0, st);
}

int w15_frame_stats_skip(const w15_timeline_t *tl, uint32_t zone, size_t skip, w15_frame_stats_t *st)
{
    memset(st, 0, sizeof *st);
    if (!zone) {
        uint32_t nz = tl->nzones + 1;
        size_t *cnt = calloc(nz, sizeof *cnt), best = 0;
        if (!cnt)
            return -1;
        for (size_t i = 0; i < tl->nframes; i++)
            if (tl->frames[i].zone < nz)
                cnt[tl->frames[i].zone]++;
        for (uint32_t z = 0; z < nz; z++)
            if (cnt[z] > best) {
                best = cnt[z];
                zone = z;
            }
        free(cnt);
    }
    st->zone = zone;
    size_t n = 0;
    for (size_t i = 0; i < tl->nframes; i++)
        n += tl->frames[i].zone == zone;
    st->frames = malloc((n ? n : 1) * sizeof *st->frames);
    st->worst = malloc((n ? n : 1) * sizeof *st->worst);
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!st->frames || !st->worst || !d) {
        free(d);
        w15_frame_stats_free(st);
        return -1;
    }
    size_t seen = 0;
    for (size_t i = 0; i < tl->nframes; i++)
        if (tl->frames[i].zone == zone && seen++ >= skip)
            st->frames[st->n++] = &tl->frames[i];
    n = st->n;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        d[i] = (st->frames[i]->t1 - st->frames[i]->t0) / 1000.0;
        sum += d[i];
        st->worst[i] = st->frames[i];
    }
    if (n) {
        sort(d, n, sizeof *d, cmp_dbl);
        sort(st->worst, n, sizeof *st->worst, cmp_worst);
        st->mean_ms = sum / (double)n;
        st->median_ms = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0;
        st->p90_ms = w15_percentile(d, n, 90);
        st->p95_ms = w15_percentile(d, n, 95);
        st->p99_ms = w15_percentile(d, n, 99);
        st->max_ms = d[n - 1];
        st->min_ms = d[0];
        st->fps = st->mean_ms > 0 ? 1000.0 / st->mean_ms : 0;
        size_t k1 = (size_t)ceil((double)n * 0.01), k01 = (size_t)ceil((double)n * 0.001);
        double s1 = 0, s01 = 0;
        for (size_t i = 0; i < k1; i++)
            s1 += d[n - 1 - i];
        for (size_t i = 0; i < k01; i++)
            s01 += d[n - 1 - i];
        st->low1_fps = s1 > 0 ? 1000.0 / (s1 / (double)k1) : 0;
        st->low01_fps = s01 > 0 ? 1000.0 / (s01 / (double)k01) : 0;
        st->span_ms = (st->frames[n - 1]->t1 - st->frames[0]->t0) / 1000.0;
    }
    free(d);
    if (gpu_stats(tl, st) != 0) {
        w15_frame_stats_free(st);
        return -1;
    }
    /* per GL function, over every zone */
    size_t nc = 0;
    for (size_t i = 0; i < tl->nscopes; i++)
        nc += tl->scopes[i].kind == W15_SCOPE_CALL && tl->scopes[i].closed;
    ncs_t *c = malloc((nc ? nc : 1) * sizeof *c);
    if (!c) {
        w15_frame_stats_free(st);
        return -1;
    }
    nc = 0;
    for (size_t i = 0; i < tl->nscopes; i++) {
        const w15_scope_t *s = &tl->scopes[i];
        if (s->kind != W15_SCOPE_CALL || !s->closed)
            continue;
        uint64_t dur = s->t1 - s->t0;
        c[nc++] = (ncs_t){s->name, dur, dur > s->child_us ? dur - s->child_us : 0};
    }
    st->calls = nc;
    sort(c, nc, sizeof *c, cmp_ncs);
    st->fns = malloc((nc ? nc : 1) * sizeof *st->fns);
    if (!st->fns) {
        free(c);
        w15_frame_stats_free(st);
        return -1;
    }
    for (size_t i = 0; i < nc;) {
        w15_fn_stat_t *fs = &st->fns[st->nfns++];
        memset(fs, 0, sizeof *fs);
        fs->name = c[i].name;
        while (i < nc && strcmp(c[i].name, fs->name) == 0) {
            fs->count++;
            fs->total_us += c[i].dur;
            fs->self_us += c[i].self;
            i++;
        }
    }
    free(c);
    sort(st->fns, st->nfns, sizeof *st->fns, cmp_fn);
    return 0;
}

void w15_frame_stats_free(w15_frame_stats_t *st)
{
    free(st->frames);
    free(st->worst);
    free(st->fns);
    memset(st, 0, sizeof *st);
}

/* ------------------------------------------------------------ captures -- */

w15_wtf_err_t w15_wtf_read_any(const char *path, int flags, w15_wtf_file_t **out, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n >= 9 && strcmp(path + n - 9, ".wtf-json") == 0)
        return w15_wtf_json_read(path, out, err, errlen);
    return w15_wtf_read(path, flags, out, err, errlen);
}

static const char *const cap_exts[] = {".wtf-trace", ".wtf-json"};

/* The extension of `path` if it is one the tools read (then *stem = its
 * offset), else NULL. */
static const char *path_ext(const char *path, size_t *stem)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof cap_exts / sizeof cap_exts[0]; i++) {
        size_t e = strlen(cap_exts[i]);
        if (n > e && strcmp(path + n - e, cap_exts[i]) == 0) {
            *stem = n - e;
            return cap_exts[i];
        }
    }
    return NULL;
}

/* Parse a generation number: decimal digits s[0..n), no leading zero, >= 1.
 * Returns it, or 0. */
static uint32_t parse_gen(const char *s, size_t n)
{
    if (!n || n > 9 || s[0] == '0')
        return 0;
    uint32_t g = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        g = g * 10 + (uint32_t)(s[i] - '0');
    }
    return g;
}

/* Does path[0..stem) end with ".<g>"?  Returns g (and *stem0 = the offset of
 * the '.'), or 0. */
static uint32_t gen_suffix(const char *path, size_t stem, size_t *stem0)
{
    size_t i = stem;
    while (i > 0 && path[i - 1] >= '0' && path[i - 1] <= '9')
        i--;
    if (i == stem || i < 2 || path[i - 1] != '.' || path[i - 2] == '/')
        return 0;
    uint32_t g = parse_gen(path + i, stem - i);
    if (g)
        *stem0 = i - 1;
    return g;
}

/* The "generation" of the file header's metadata: 1 and *g, or 0 if absent. */
static int header_generation(const w15_wtf_file_t *f, int64_t *g)
{
    int found = 0;
    json_object *h = f->header_json ? json_tokener_parse(f->header_json) : NULL, *m, *x;
    if (h && json_object_is_type(h, json_type_object) && json_object_object_get_ex(h, "metadata", &m) &&
        json_object_is_type(m, json_type_object) && json_object_object_get_ex(m, "generation", &x) &&
        json_object_is_type(x, json_type_int)) {
        *g = json_object_get_int64(x);
        found = 1;
    }
    json_object_put(h);
    return found;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The generation numbers g >= 1 for which path[0..stem) ".<g>" ext exists
 * (a directory listing), ascending, in *out (malloc'd; NULL when none).
 * Returns the count, or -1 when out of memory. */
static ssize_t list_generations(const char *path, size_t stem, const char *ext, uint32_t **out)
{
    *out = NULL;
    size_t slash = stem;
    while (slash > 0 && path[slash - 1] != '/')
        slash--;
    char *dir = slash ? strndup(path, slash) : strdup(".");
    if (!dir)
        return -1;
    DIR *d = opendir(dir);
    free(dir);
    if (!d)
        return 0;
    const char *base = path + slash;
    size_t bn = stem - slash, en = strlen(ext), n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);
        if (len <= bn + 1 + en || strncmp(nm, base, bn) != 0 || nm[bn] != '.' || strcmp(nm + len - en, ext) != 0)
            continue;
        uint32_t g = parse_gen(nm + bn + 1, len - en - bn - 1);
        if (!g)
            continue;
        if (grow((void **)out, &cap, n + 1, sizeof **out)) {
            closedir(d);
            free(*out);
            *out = NULL;
            return -1;
        }
        (*out)[n++] = g;
    }
    closedir(d);
    sort(*out, n, sizeof **out, cmp_u32);
    return (ssize_t)n;
}

static char *gen_path(const char *path, size_t stem, uint32_t g, const char *ext)
{
    char *p = NULL;
    if (asprintf(&p, "%.*s.%u%s", (int)stem, path, g, ext) < 0)
        return NULL;
    return p;
}

static int cap_warn(w15_wtf_capture_t *cap, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cap_warn(w15_wtf_capture_t *cap, const char *fmt, ...)
{
    char *m = NULL;
    va_list ap;
    va_start(ap, fmt);
    int r = vasprintf(&m, fmt, ap);
    va_end(ap);
    if (r < 0)
        return -1;
    char **w = realloc(cap->warnings, (cap->nwarnings + 1) * sizeof *w);
    if (!w) {
        free(m);
        return -1;
    }
    cap->warnings = w;
    cap->warnings[cap->nwarnings++] = m;
    return 0;
}

static int cap_add(w15_wtf_capture_t *cap, w15_wtf_file_t *f, uint32_t gen, int64_t off)
{
    size_t n = cap->nfiles + 1;
    w15_wtf_file_t **fs = realloc(cap->files, n * sizeof *fs);
    if (fs)
        cap->files = fs;
    uint32_t *g = realloc(cap->gen, n * sizeof *g);
    if (g)
        cap->gen = g;
    int64_t *o = realloc(cap->offset_us, n * sizeof *o);
    if (o)
        cap->offset_us = o;
    if (!fs || !g || !o)
        return -1;
    cap->files[cap->nfiles] = f;
    cap->gen[cap->nfiles] = gen;
    cap->offset_us[cap->nfiles] = off;
    cap->nfiles = n;
    return 0;
}

void w15_wtf_capture_free(w15_wtf_capture_t *cap)
{
    for (size_t i = 0; i < cap->nfiles; i++)
        w15_wtf_file_free(cap->files[i]);
    for (size_t i = 0; i < cap->nwarnings; i++)
        free(cap->warnings[i]);
    free(cap->files);
    free(cap->gen);
    free(cap->offset_us);
    free(cap->warnings);
    memset(cap, 0, sizeof *cap);
}

#define OOM(e, n) (snprintf(e, n, "out of memory"), W15_WTF_E_NOMEM)

w15_wtf_err_t w15_wtf_capture_read(const char *path, int flags, w15_wtf_capture_t *cap, char *err, size_t errlen)
{
    memset(cap, 0, sizeof *cap);
    if (errlen)
        err[0] = 0;
    w15_wtf_file_t *f0;
    char msg[512];
    w15_wtf_err_t e = w15_wtf_read_any(path, flags & W15_WTF_READ_LENIENT, &f0, err, errlen);
    if (e != W15_WTF_E_OK)
        return e;
    if (cap_add(cap, f0, 0, 0) != 0) {
        w15_wtf_file_free(f0);
        w15_wtf_capture_free(cap);
        return OOM(err, errlen);
    }
    if (errlen && err[0] && cap_warn(cap, "%s", err) != 0)
        goto oom;
    if (errlen)
        err[0] = 0;
    size_t stem, stem0;
    const char *ext = path_ext(path, &stem);
    if (!ext)
        return W15_WTF_E_OK;
    uint32_t *gens = NULL;
    ssize_t ng;
    /* a later generation named: read alone */
    uint32_t g = gen_suffix(path, stem, &stem0);
    int64_t hg;
    if (g && (!header_generation(f0, &hg) || hg == g)) {
        char *p0 = NULL;
        if (asprintf(&p0, "%.*s%s", (int)stem0, path, ext) < 0)
            goto oom;
        int there = access(p0, F_OK) == 0;
        free(p0);
        if (there) {
            cap->named_gen = g;
            cap->gen[0] = g;
            if ((ng = list_generations(path, stem0, ext, &gens)) < 0)
                goto oom;
            cap->unread = (size_t)ng; /* generation 0 and the others, not the named one */
            free(gens);
            return W15_WTF_E_OK;
        }
    }
    if ((ng = list_generations(path, stem, ext, &gens)) < 0)
        goto oom;
    if (flags & W15_WTF_CAPTURE_SINGLE) {
        cap->unread = (size_t)ng;
        free(gens);
        return W15_WTF_E_OK;
    }
    uint32_t expect = 1, per_g = 0;
    int64_t per_off = 0;
    int stop = 0;
    for (ssize_t i = 0; i < ng; i++) {
        if (stop) {
            cap->unread++;
            continue;
        }
        g = gens[i];
        char *gp = gen_path(path, stem, g, ext);
        if (!gp)
            goto oom_gens;
        w15_wtf_file_t *f;
        e = w15_wtf_read_any(gp, flags & W15_WTF_READ_LENIENT, &f, msg, sizeof msg);
        if (e != W15_WTF_E_OK) {
            stop = 1;
            cap->unread++;
            int r = cap_warn(cap, "%s (generation %u and later not read)", msg, g);
            free(gp);
            if (r)
                goto oom_gens;
            continue;
        }
        if (msg[0] && cap_warn(cap, "%s", msg) != 0) {
            free(gp);
            w15_wtf_file_free(f);
            goto oom_gens;
        }
        int64_t off = llround((f->timebase - f0->timebase) * 1000.0);
        const char *why = NULL;
        char whybuf[160];
        if (header_generation(f, &hg) && hg != g) {
            snprintf(whybuf, sizeof whybuf, "its header says generation %lld, not %u", (long long)hg, g);
            why = whybuf;
        } else if (off <= 0) {
            snprintf(whybuf, sizeof whybuf, "its timebase %.3f is not after generation 0's (%.3f)", f->timebase, f0->timebase);
            why = whybuf;
        } else if (per_g && llabs(off - (int64_t)llround((double)per_off * g / per_g)) > 2 + (int64_t)g) {
            snprintf(whybuf, sizeof whybuf, "its timebase %.3f does not follow the rotation period of the generations before", f->timebase);
            why = whybuf;
        }
        int bad = why != NULL;
        if (bad)
            cap_warn(cap, "%s: %s: not part of this capture (generation %u and later not read)", gp, why, g);
        if (bad) {
            stop = 1;
            cap->unread++;
            free(gp);
            w15_wtf_file_free(f);
            continue;
        }
        if (!per_g) {
            per_g = g;
            per_off = off;
        }
        if (g != expect) {
            char *mp = gen_path(path, stem, expect, ext);
            int r = !mp;
            if (mp && g - expect == 1)
                r = cap_warn(cap, "%s not found: generation %u absent (no file is written for a period in which no thread had events; or it was deleted)", mp, expect);
            else if (mp)
                r = cap_warn(cap, "%s not found: generations %u-%u absent (no file is written for a period in which no thread had events; or they were deleted)", mp, expect, g - 1);
            free(mp);
            if (r) {
                free(gp);
                w15_wtf_file_free(f);
                goto oom_gens;
            }
        }
        free(gp);
        if (cap_add(cap, f, g, off) != 0) {
            w15_wtf_file_free(f);
            goto oom_gens;
        }
        expect = g + 1;
    }
    free(gens);
    return W15_WTF_E_OK;
oom_gens:
    free(gens);
oom:
    w15_wtf_capture_free(cap);
    return OOM(err, errlen);
}

void w15_wtf_capture_describe(const w15_wtf_capture_t *cap, char *buf, size_t n)
{
    if (!n)
        return;
    size_t k = (size_t)snprintf(buf, n, "%zu file%s (generation%s ", cap->nfiles, cap->nfiles == 1 ? "" : "s",
                                cap->nfiles == 1 ? "" : "s");
    for (size_t i = 0; i < cap->nfiles && k < n;) {
        size_t j = i;
        while (j + 1 < cap->nfiles && cap->gen[j + 1] == cap->gen[j] + 1)
            j++;
        if (j == i)
            k += (size_t)snprintf(buf + k, n - k, "%s%u", i ? ", " : "", cap->gen[i]);
        else
            k += (size_t)snprintf(buf + k, n - k, "%s%u-%u", i ? ", " : "", cap->gen[i], cap->gen[j]);
        i = j + 1;
    }
    if (k < n)
        snprintf(buf + k, n - k, ")");
}
