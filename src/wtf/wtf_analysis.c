/* wtf_analysis.c -- timeline and frame statistics (wtf_analysis.h). */
#define _GNU_SOURCE
#include "wtf_analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct stack {
    size_t *v;
    size_t n, cap;
} stack_t_;

typedef struct fev {
    uint32_t zone, number, t;
    int end;
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

int w15_timeline_build(const w15_wtf_file_t *f, w15_timeline_t *tl)
{
    memset(tl, 0, sizeof *tl);
    tl->file = f;
    uint32_t nz = f->nzones + 1;
    stack_t_ *st = calloc(nz, sizeof *st);
    size_t scap = 0, icap = 0, fcap = 0, nfev = 0;
    fev_t *fev = NULL;
    uint32_t last_t = 0;
    int rc = -1;
    if (!st)
        return -1;
    for (size_t i = 0; i < f->nevents; i++) {
        const w15_wtf_event_t *e = &f->events[i];
        const w15_wtf_def_t *d = e->def;
        const char *n = d->name;
        uint32_t z = e->zone < nz ? e->zone : 0;
        if (e->time > last_t)
            last_t = e->time;
        if (strncmp(n, "wtf.", 4) == 0) {
            if (strcmp(n, W15_WTF_EV_SCOPE_LEAVE) == 0) {
                if (!st[z].n)
                    continue;
                w15_scope_t *s = &tl->scopes[st[z].v[--st[z].n]];
                s->t1 = e->time >= s->t0 ? e->time : s->t0;
                s->closed = 1;
                if (st[z].n)
                    tl->scopes[st[z].v[st[z].n - 1]].child_us += s->t1 - s->t0;
                continue;
            }
            if (strcmp(n, W15_WTF_EV_FRAME_START) == 0 || strcmp(n, W15_WTF_EV_FRAME_END) == 0) {
                uint32_t num;
                if (w15_wtf_arg_u32(e, 0, &num) != 0)
                    continue; /* not a frame number: not a frame */
                if (grow((void **)&fev, &fcap, nfev + 1, sizeof *fev))
                    goto out;
                fev[nfev] = (fev_t){z, num, e->time, strcmp(n, W15_WTF_EV_FRAME_END) == 0, nfev, i};
                nfev++;
                continue;
            }
            if (strcmp(n, W15_WTF_EV_TIMESTAMP) == 0) {
                if (grow((void **)&tl->instants, &icap, tl->ninstants + 1, sizeof *tl->instants))
                    goto out;
                const char *nm = w15_wtf_arg_str(e, 0) ? w15_wtf_arg_str(e, 0) : "unnamed.instance";
                tl->instants[tl->ninstants++] = (w15_instant_t){nm, z, e->time};
                continue;
            }
            if (strcmp(n, W15_WTF_EV_SCOPE_ENTER) != 0)
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
            s->t0 = s->t1 = e->time;
            s->call = -1;
            s->ev = i;
            if (strcmp(n, W15_WTF_EV_SCOPE_ENTER) == 0) {
                s->name = w15_wtf_arg_str(e, 0) ? w15_wtf_arg_str(e, 0) : "unnamed.scope";
                s->kind = W15_SCOPE_GROUP;
            } else if (is_call_def(d)) {
                s->name = n;
                s->kind = W15_SCOPE_CALL;
                s->call = e->args[0].v.u;
            } else {
                s->name = n;
                s->kind = W15_SCOPE_GROUP;
            }
            st[z].v[st[z].n++] = tl->nscopes++;
        } else {
            if (grow((void **)&tl->instants, &icap, tl->ninstants + 1, sizeof *tl->instants))
                goto out;
            tl->instants[tl->ninstants++] = (w15_instant_t){n, z, e->time};
        }
    }
    /* open scopes end at the last time seen */
    for (size_t i = 0; i < tl->nscopes; i++)
        if (!tl->scopes[i].closed)
            tl->scopes[i].t1 = last_t >= tl->scopes[i].t0 ? last_t : tl->scopes[i].t0;
    /* frames: pair start/end by (zone, number); the last of each wins, as in
     * the loader; frames without both or with a start/end time of 0 dropped */
    sort(fev, nfev, sizeof *fev, cmp_fev);
    size_t frcap = 0;
    for (size_t i = 0; i < nfev;) {
        size_t j = i;
        uint32_t t0 = 0, t1 = 0;
        size_t e0 = 0, e1 = 0;
        while (j < nfev && fev[j].zone == fev[i].zone && fev[j].number == fev[i].number) {
            if (fev[j].end) {
                t1 = fev[j].t;
                e1 = fev[j].ev;
            } else {
                t0 = fev[j].t;
                e0 = fev[j].ev;
            }
            j++;
        }
        if (t0 && t1) {
            if (grow((void **)&tl->frames, &frcap, tl->nframes + 1, sizeof *tl->frames))
                goto out;
            tl->frames[tl->nframes++] = (w15_frame_t){fev[i].number, fev[i].zone, t0, t1 >= t0 ? t1 : t0, 0, e0, e1};
        }
        i = j;
    }
    sort(tl->frames, tl->nframes, sizeof *tl->frames, cmp_frame_time);
    /* calls per frame: call scopes of the zone entered between the frame's
     * start and end events (scopes are in file order) */
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
    rc = 0;
out:
    for (uint32_t z = 0; z < nz; z++)
        free(st[z].v);
    free(st);
    free(fev);
    if (rc)
        w15_timeline_free(tl);
    return rc;
}

void w15_timeline_free(w15_timeline_t *tl)
{
    free(tl->scopes);
    free(tl->frames);
    free(tl->instants);
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
    uint32_t dx = x->t1 - x->t0, dy = y->t1 - y->t0;
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

int w15_frame_stats(const w15_timeline_t *tl, uint32_t zone, w15_frame_stats_t *st)
{
    return w15_frame_stats_skip(tl, zone, 0, st);
}

int w15_frame_stats_skip(const w15_timeline_t *tl, uint32_t zone, size_t skip, w15_frame_stats_t *st)
{
    memset(st, 0, sizeof *st);
    if (!zone) {
        uint32_t nz = tl->file->nzones + 1;
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
