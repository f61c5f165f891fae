/* wtf_model.c -- the in-memory model of a WTF trace (wtf_model.h). */
#define _GNU_SOURCE
#include "wtf_model.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- types -- */

static const struct {
    const char *name;
    int arr;
    unsigned size;
} types[] = {
#define W15_X(e, s, arr, sz) {s, arr, sz},
    W15_WTF_TYPES(W15_X)
#undef W15_X
};

const char *w15_wtf_type_name(w15_wtf_type_t t)
{
    return t < W15_WTF_T__COUNT ? types[t].name : "?";
}

int w15_wtf_type_is_array(w15_wtf_type_t t)
{
    return t < W15_WTF_T__COUNT && types[t].arr;
}

unsigned w15_wtf_type_elem_size(w15_wtf_type_t t)
{
    return t < W15_WTF_T__COUNT ? types[t].size : 4;
}

int w15_wtf_type_parse(const char *s, size_t n, w15_wtf_type_t *t)
{
    for (unsigned i = 0; i < W15_WTF_T__COUNT; i++)
        if (strlen(types[i].name) == n && memcmp(types[i].name, s, n) == 0) {
            *t = (w15_wtf_type_t)i;
            return 0;
        }
    return -1;
}

static const char *const errmsg[] = {
#define W15_X(e, m) m,
    W15_WTF_ERRORS(W15_X)
#undef W15_X
};

const char *w15_wtf_strerror(w15_wtf_err_t e)
{
    return (unsigned)e < sizeof errmsg / sizeof errmsg[0] ? errmsg[e] : "unknown error";
}

/* ----------------------------------------------------------------- model -- */

typedef struct block {
    struct block *next;
    size_t used, cap;
    max_align_t data[];
} block_t;

w15_wtf_file_t *w15_wtf_file_new(const char *path)
{
    w15_wtf_file_t *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->by_wire = calloc(65536, sizeof *f->by_wire);
    f->path = strdup(path ? path : "");
    if (!f->by_wire || !f->path) {
        free(f->by_wire);
        free(f->path);
        free(f);
        return NULL;
    }
    return f;
}

void *w15_wtf_alloc(w15_wtf_file_t *f, size_t n)
{
    n = (n + 15u) & ~(size_t)15u;
    block_t *b = f->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        block_t *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        f->arena = b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *w15_wtf_strdup(w15_wtf_file_t *f, const char *s, size_t n)
{
    char *p = w15_wtf_alloc(f, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void w15_wtf_file_free(w15_wtf_file_t *f)
{
    if (!f)
        return;
    for (block_t *b = f->arena, *n; b; b = n) {
        n = b->next;
        free(b);
    }
    free(f->events);
    free(f->defs);
    free(f->zones);
    free(f->zone_by_id);
    free(f->by_wire);
    free(f->header_json);
    free(f->path);
    free(f);
}

const w15_wtf_def_t *w15_wtf_def_by_wire(const w15_wtf_file_t *f, uint16_t wire)
{
    return f->by_wire[wire];
}

const w15_wtf_def_t *w15_wtf_def_by_name(const w15_wtf_file_t *f, const char *name)
{
    for (uint32_t i = 0; i < f->ndefs; i++)
        if (strcmp(f->defs[i]->name, name) == 0)
            return f->defs[i];
    return NULL;
}

static int parse_args(w15_wtf_file_t *f, w15_wtf_def_t *d, const char *args, char *err, size_t errlen)
{
    d->nargs = 0;
    if (!args)
        return 0;
    /* count */
    uint32_t n = 1;
    for (const char *p = args; *p; p++)
        n += *p == ',';
    const char *p = args;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return 0;
    d->arg = w15_wtf_alloc(f, n * sizeof *d->arg);
    if (!d->arg)
        return -1;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *t = p;
        while (*p && *p != ' ' && *p != ',')
            p++;
        size_t tl = (size_t)(p - t);
        while (*p == ' ')
            p++;
        const char *nm = p;
        while (*p && *p != ',' && *p != ' ')
            p++;
        size_t nl = (size_t)(p - nm);
        while (*p == ' ')
            p++;
        w15_wtf_type_t ty;
        if (!tl || !nl || w15_wtf_type_parse(t, tl, &ty) != 0 || (*p && *p != ',')) {
            snprintf(err, errlen, "argument list \"%s\" of event \"%s\" does not parse (type name[, type name...])", args,
                     d->name);
            return -1;
        }
        d->arg[d->nargs].type = ty;
        d->arg[d->nargs].name = w15_wtf_strdup(f, nm, nl);
        d->nargs++;
        if (*p == ',')
            p++;
    }
    return 0;
}

const w15_wtf_def_t *w15_wtf_define(w15_wtf_file_t *f, uint16_t wire, uint16_t cls, uint32_t flags, const char *name,
                                    const char *args, char *err, size_t errlen)
{
    const w15_wtf_def_t *old = w15_wtf_def_by_name(f, name ? name : "");
    if (old) {
        f->by_wire[wire] = (w15_wtf_def_t *)old;
        return old;
    }
    w15_wtf_def_t *d = w15_wtf_alloc(f, sizeof *d);
    if (!d)
        return NULL;
    d->wire = wire;
    d->cls = cls;
    d->flags = flags;
    d->name = w15_wtf_strdup(f, name ? name : "", name ? strlen(name) : 0);
    d->args = args ? w15_wtf_strdup(f, args, strlen(args)) : NULL;
    if (!d->name || (args && !d->args) || parse_args(f, d, args, err, errlen) != 0)
        return NULL;
    if (f->ndefs == f->defs_cap) {
        uint32_t nc = f->defs_cap ? f->defs_cap * 2 : 64;
        w15_wtf_def_t **p = realloc(f->defs, nc * sizeof *p);
        if (!p)
            return NULL;
        f->defs = p;
        f->defs_cap = nc;
    }
    f->defs[f->ndefs++] = d;
    f->by_wire[wire] = d;
    return d;
}

w15_wtf_event_t *w15_wtf_add_event(w15_wtf_file_t *f, const w15_wtf_def_t *d, uint32_t time, const w15_wtf_value_t *args)
{
    if (f->nevents == f->events_cap) {
        size_t nc = f->events_cap ? f->events_cap * 2 : 1024;
        w15_wtf_event_t *p = realloc(f->events, nc * sizeof *p);
        if (!p)
            return NULL;
        f->events = p;
        f->events_cap = nc;
    }
    w15_wtf_event_t *e = &f->events[f->nevents];
    memset(e, 0, sizeof *e);
    e->def = d;
    e->time = time;
    e->zone = f->cur_zone;
    e->chunk = f->nchunks ? f->nchunks - 1 : 0;
    if (d->nargs) {
        e->args = w15_wtf_alloc(f, d->nargs * sizeof *e->args);
        if (!e->args)
            return NULL;
        memcpy(e->args, args, d->nargs * sizeof *e->args);
    }
    f->nevents++;
    return e;
}

const char *w15_wtf_arg_str(const w15_wtf_event_t *e, uint32_t i)
{
    if (i >= e->def->nargs)
        return NULL;
    w15_wtf_type_t t = e->def->arg[i].type;
    return t == W15_WTF_T_ASCII || t == W15_WTF_T_UTF8 || t == W15_WTF_T_ANY ? e->args[i].v.s : NULL;
}

int w15_wtf_arg_u32(const w15_wtf_event_t *e, uint32_t i, uint32_t *v)
{
    if (i >= e->def->nargs)
        return -1;
    w15_wtf_type_t t = e->def->arg[i].type;
    if (w15_wtf_type_is_array(t) || t == W15_WTF_T_ASCII || t == W15_WTF_T_UTF8 || t == W15_WTF_T_ANY ||
        t == W15_WTF_T_FLOAT32)
        return -1;
    *v = e->args[i].v.u;
    return 0;
}

#define arg_str w15_wtf_arg_str

int w15_wtf_apply_builtin(w15_wtf_file_t *f, w15_wtf_event_t *e, char *err, size_t errlen)
{
    const char *n = e->def->name;
    uint32_t id;
    if ((strcmp(n, W15_WTF_EV_ZONE_CREATE) == 0 || strcmp(n, W15_WTF_EV_ZONE_SET) == 0) && w15_wtf_arg_u32(e, 0, &id) != 0) {
        snprintf(err, errlen, "%s whose first argument is not an integer zone id", n);
        return -1;
    }
    if (strcmp(n, W15_WTF_EV_ZONE_CREATE) == 0) {
        if (f->nzones == f->zones_cap) {
            uint32_t nc = f->zones_cap ? f->zones_cap * 2 : 16;
            w15_wtf_zoneinfo_t *nz = realloc(f->zones, nc * sizeof *nz);
            if (!nz)
                return -1;
            f->zones = nz;
            f->zones_cap = nc;
        }
        w15_wtf_zoneinfo_t *z = &f->zones[f->nzones++];
        if (!f->zone_by_id && !(f->zone_by_id = calloc(65536, sizeof *f->zone_by_id)))
            return -1;
        z->id = id;
        if (z->id < 65536)
            f->zone_by_id[z->id] = f->nzones;
        const char *s;
        z->name = (s = arg_str(e, 1)) ? w15_wtf_strdup(f, s, strlen(s)) : NULL;
        z->type = (s = arg_str(e, 2)) ? w15_wtf_strdup(f, s, strlen(s)) : NULL;
        z->location = (s = arg_str(e, 3)) ? w15_wtf_strdup(f, s, strlen(s)) : NULL;
        e->zone = f->nzones; /* the zone it created */
    } else if (strcmp(n, W15_WTF_EV_ZONE_SET) == 0) {
        uint32_t found = 0;
        if (id < 65536)
            found = f->zone_by_id ? f->zone_by_id[id] : 0;
        else
            for (uint32_t i = f->nzones; i > 0 && !found; i--)
                if (f->zones[i - 1].id == id)
                    found = i;
        if (!found) {
            snprintf(err, errlen, "wtf.zone#set to zone %u, which no wtf.zone#create made", id);
            return -1;
        }
        f->cur_zone = found;
        e->zone = found;
    }
    return 0;
}

/* ------------------------------------------------------------ file bytes -- */

w15_wtf_err_t w15_wtf_read_file(const char *path, uint8_t **data, size_t *n, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return W15_WTF_E_IO;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *b = malloc(cap);
    for (;;) {
        if (!b) {
            fclose(fp);
            snprintf(err, errlen, "%s: out of memory", path);
            return W15_WTF_E_NOMEM;
        }
        size_t r = fread(b + len, 1, cap - len, fp);
        len += r;
        if (len < cap)
            break;
        uint8_t *nb = realloc(b, cap * 2);
        if (!nb)
            free(b);
        b = nb;
        cap *= 2;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(b);
        snprintf(err, errlen, "%s: read error", path);
        return W15_WTF_E_IO;
    }
    *data = b;
    *n = len;
    return W15_WTF_E_OK;
}
