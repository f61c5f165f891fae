/* wtf_reader.c -- the in-memory model of a WTF trace and the .wtf-trace
 * (format 10) reader with framing validation (wtf_reader.h). */
#define _GNU_SOURCE
#include "wtf_reader.h"

#include "wtf_format.h"
#include "wtf_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
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

/* ----------------------------------------------------------- the reader -- */

typedef struct rd {
    const uint8_t *p;
    size_t n;
    const char *name;
    char *err;
    size_t errlen;
    w15_wtf_file_t *f;
} rd_t;

static w15_wtf_err_t rerr(rd_t *r, w15_wtf_err_t code, uint64_t off, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->err && r->errlen)
        snprintf(r->err, r->errlen, "%s: byte %llu: %s", r->name, (unsigned long long)off, msg);
    return code;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static w15_wtf_err_t read_header_chunk(rd_t *r, size_t off, size_t len, uint32_t nparts, size_t data)
{
    if (nparts != 1)
        return rerr(r, W15_WTF_E_CHUNK, off + 20, "expected 1 part in the file header chunk, found %u", nparts);
    uint32_t type = rd32(r->p + off + 24), poff = rd32(r->p + off + 28), plen = rd32(r->p + off + 32);
    if (type != W15_WTF_PART_FILE_HEADER)
        return rerr(r, W15_WTF_E_PART, off + 24, "expected part type 0x10000 (file header), found 0x%x", type);
    if (poff % 4 || (uint64_t)poff + plen > len - (data - off))
        return rerr(r, W15_WTF_E_PART, off + 28, "file header part (offset %u, length %u) outside its chunk of %zu bytes",
                    poff, plen, len);
    const char *js = (const char *)r->p + data + poff;
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, js, (int)plen) : NULL;
    enum json_tokener_error je = tok ? json_tokener_get_error(tok) : json_tokener_error_parse_eof;
    json_tokener_free(tok);
    if (!o || je != json_tokener_success) {
        json_object_put(o);
        return rerr(r, W15_WTF_E_HEADER, data + poff, "expected the file header JSON object, found text that does not parse");
    }
    json_object *tb;
    if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "timebase", &tb) ||
        !(json_object_is_type(tb, json_type_double) || json_object_is_type(tb, json_type_int))) {
        json_object_put(o);
        return rerr(r, W15_WTF_E_HEADER, data + poff, "expected a file header object with a numeric \"timebase\"");
    }
    json_object *ci;
    if (json_object_object_get_ex(o, "contextInfo", &ci) && ci) {
        json_object *ct;
        if (!json_object_is_type(ci, json_type_object) || !json_object_object_get_ex(ci, "contextType", &ct) ||
            strcmp(json_object_get_string(ct), "script") != 0) {
            json_object_put(o);
            return rerr(r, W15_WTF_E_HEADER, data + poff, "expected contextInfo.contextType \"script\"");
        }
    }
    r->f->timebase = json_object_get_double(tb);
    r->f->header_json = strndup(js, plen);
    json_object_put(o);
    return r->f->header_json ? W15_WTF_E_OK : W15_WTF_E_NOMEM;
}

/* Split a string table part into NUL-terminated strings. */
static w15_wtf_err_t read_strings(rd_t *r, size_t off, uint32_t len, char ***out, uint32_t *count)
{
    *out = NULL;
    *count = 0;
    if (!len)
        return W15_WTF_E_OK;
    char *s = w15_wtf_strdup(r->f, (const char *)r->p + off, len);
    if (!s)
        return W15_WTF_E_NOMEM;
    uint32_t n = 0;
    for (uint32_t i = 0; i < len; i++)
        n += s[i] == 0;
    if (s[len - 1] != 0)
        n++; /* last string without terminator */
    char **v = w15_wtf_alloc(r->f, (n ? n : 1) * sizeof *v);
    if (!v)
        return W15_WTF_E_NOMEM;
    uint32_t k = 0;
    for (uint32_t i = 0; i < len && k < n;) {
        v[k++] = s + i;
        i += (uint32_t)strlen(s + i) + 1;
    }
    *out = v;
    *count = k;
    return W15_WTF_E_OK;
}

static w15_wtf_err_t read_events(rd_t *r, size_t off, uint32_t len, char **strs, uint32_t nstr)
{
    size_t end = off + len, p = off;
    w15_wtf_value_t vals[64];
    while (p < end) {
        if (end - p < 8)
            return rerr(r, W15_WTF_E_EVENT, p, "expected an event header (8 bytes), found %zu bytes left in the event part",
                        end - p);
        uint32_t wire = rd32(r->p + p), time = rd32(r->p + p + 4);
        const w15_wtf_def_t *d = wire <= 0xFFFF ? r->f->by_wire[wire] : NULL;
        if (!d)
            return rerr(r, W15_WTF_E_EVENT, p, "expected a defined wire id, found %u (never defined by wtf.event#define)",
                        wire);
        size_t q = p + 8;
        if (d->nargs > 64)
            return rerr(r, W15_WTF_E_EVENT, p, "event \"%s\" has more than 64 arguments", d->name);
        for (uint32_t i = 0; i < d->nargs; i++) {
            w15_wtf_type_t t = d->arg[i].type;
            w15_wtf_value_t *v = &vals[i];
            memset(v, 0, sizeof *v);
            v->type = t;
            if (end - q < 4)
                return rerr(r, W15_WTF_E_EVENT, q, "expected argument %u (%s %s) of \"%s\", found the end of the event part",
                            i, w15_wtf_type_name(t), d->arg[i].name, d->name);
            uint32_t x = rd32(r->p + q);
            q += 4;
            if (w15_wtf_type_is_array(t)) {
                uint64_t bytes = (uint64_t)x * w15_wtf_type_elem_size(t);
                uint64_t padded = (bytes + 3u) & ~(uint64_t)3u;
                if (padded > end - q)
                    return rerr(r, W15_WTF_E_EVENT, q - 4, "array argument %s of \"%s\" has %u elements, more than the %zu bytes left",
                                d->arg[i].name, d->name, x, end - q);
                v->count = x;
                v->v.arr = w15_wtf_strdup(r->f, (const char *)r->p + q, (size_t)bytes);
                if (!v->v.arr)
                    return W15_WTF_E_NOMEM;
                q += (size_t)padded;
            } else if (t == W15_WTF_T_ASCII || t == W15_WTF_T_UTF8 || t == W15_WTF_T_ANY) {
                if (x == W15_WTF_STR_NULL)
                    v->v.s = NULL;
                else if (x == W15_WTF_STR_EMPTY)
                    v->v.s = "";
                else if (x >= nstr)
                    return rerr(r, W15_WTF_E_EVENT, q - 4, "expected a string ordinal below %u (the chunk's string table), found %u",
                                nstr, x);
                else
                    v->v.s = strs[x][0] ? strs[x] : NULL; /* as the loader: a stored "" reads as null */
            } else if (t == W15_WTF_T_FLOAT32) {
                memcpy(&v->v.f, &x, 4);
            } else if (t == W15_WTF_T_INT8) {
                v->v.i = (int8_t)(uint8_t)x;
            } else if (t == W15_WTF_T_INT16) {
                v->v.i = (int16_t)(uint16_t)x;
            } else if (t == W15_WTF_T_INT32) {
                v->v.i = (int32_t)x;
            } else if (t == W15_WTF_T_UINT8) {
                v->v.u = x & 0xFFu;
            } else if (t == W15_WTF_T_UINT16) {
                v->v.u = x & 0xFFFFu;
            } else if (t == W15_WTF_T_BOOL) {
                v->v.u = (x & 0xFFu) != 0;
            } else {
                v->v.u = x;
            }
        }
        w15_wtf_event_t *e = w15_wtf_add_event(r->f, d, time, vals);
        if (!e)
            return W15_WTF_E_NOMEM;
        e->offset = p;
        if (strcmp(d->name, W15_WTF_EV_DEFINE) == 0) {
            char msg[300];
            if (d->nargs < 5 || e->args[0].v.u == 0)
                return rerr(r, W15_WTF_E_EVENT, p, "wtf.event#define must define a wire id 1..65535");
            if (!e->args[3].v.s)
                return rerr(r, W15_WTF_E_EVENT, p, "wtf.event#define without a name");
            if (!w15_wtf_define(r->f, (uint16_t)e->args[0].v.u, (uint16_t)e->args[1].v.u, e->args[2].v.u, e->args[3].v.s,
                                e->args[4].v.s, msg, sizeof msg))
                return rerr(r, W15_WTF_E_EVENT, p, "%s", msg);
        } else {
            char msg[300];
            if (w15_wtf_apply_builtin(r->f, e, msg, sizeof msg) != 0)
                return rerr(r, W15_WTF_E_EVENT, p, "%s", msg);
        }
        p = q;
    }
    return W15_WTF_E_OK;
}

static w15_wtf_err_t read_event_chunk(rd_t *r, size_t off, size_t len, uint32_t nparts, size_t data)
{
    size_t datalen = len - (data - off);
    int nev = 0, nstrt = 0;
    size_t evoff = 0, stroff = 0;
    uint32_t evlen = 0, strlen_ = 0;
    for (uint32_t i = 0; i < nparts; i++) {
        size_t e = off + 24 + 12u * i;
        uint32_t type = rd32(r->p + e), poff = rd32(r->p + e + 4), plen = rd32(r->p + e + 8);
        if (poff % 4)
            return rerr(r, W15_WTF_E_PART, e + 4, "expected a part offset that is a multiple of 4, found %u", poff);
        if ((uint64_t)poff + plen > datalen)
            return rerr(r, W15_WTF_E_PART, e + 4, "part %u (offset %u, length %u) ends beyond its chunk (%zu bytes of part data)",
                        i, poff, plen, datalen);
        switch (type) {
        case W15_WTF_PART_BINARY_EVENTS:
            if (nev++)
                return rerr(r, W15_WTF_E_PART, e, "expected one event buffer part per chunk, found a second");
            if (plen % 4)
                return rerr(r, W15_WTF_E_PART, e + 8, "expected an event part length that is a multiple of 4, found %u", plen);
            evoff = data + poff;
            evlen = plen;
            break;
        case W15_WTF_PART_STRING_TABLE:
            if (nstrt++)
                return rerr(r, W15_WTF_E_PART, e, "expected at most one string table per chunk, found a second");
            stroff = data + poff;
            strlen_ = plen;
            break;
        case W15_WTF_PART_BINARY_RESOURCE:
        case W15_WTF_PART_STRING_RESOURCE:
            break;
        default:
            return rerr(r, W15_WTF_E_PART, e,
                        "expected part type 0x20002 (binary events), 0x30000 (strings) or 0x4000x (resource), found 0x%x", type);
        }
    }
    if (!nev)
        return rerr(r, W15_WTF_E_CHUNK, off, "expected an event buffer part (0x20002) in this event chunk, found none");
    char **strs;
    uint32_t nstr;
    w15_wtf_err_t e = read_strings(r, stroff, strlen_, &strs, &nstr);
    if (e != W15_WTF_E_OK)
        return e;
    return read_events(r, evoff, evlen, strs, nstr);
}

w15_wtf_err_t w15_wtf_read_mem(const uint8_t *data, size_t n, const char *name, int flags, w15_wtf_file_t **out,
                               char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    rd_t r = {data, n, name ? name : "(memory)", err, errlen, NULL};
    if (n < 12)
        return rerr(&r, W15_WTF_E_HEADER, 0, "expected a 12-byte header, found a %zu-byte file", n);
    if (rd32(data) != W15_WTF_MAGIC)
        return rerr(&r, W15_WTF_E_HEADER, 0, "expected magic 0xDEADBEEF, found 0x%08x%s", rd32(data),
                    rd32(data) == 0x184D2204u || memcmp(data, "WIP15", 5) == 0
                        ? " (a WIP15 call trace: read it with wip15 info, dump or stats)"
                        : "");
    if (rd32(data + 8) != W15_WTF_FORMAT_VERSION)
        return rerr(&r, W15_WTF_E_HEADER, 8, "expected format version 10, found %u", rd32(data + 8));
    r.f = w15_wtf_file_new(name);
    if (!r.f)
        return W15_WTF_E_NOMEM;
    w15_wtf_err_t e = W15_WTF_E_OK;
    /* wtf.event#define is built in at wire id 1 */
    if (!w15_wtf_define(r.f, 1, 0, 40, W15_WTF_EV_DEFINE,
                        "uint16 wireId, uint16 eventClass, uint32 flags, ascii name, ascii args", NULL, 0)) {
        e = W15_WTF_E_NOMEM;
        goto out;
    }
    size_t off = 12;
    uint32_t index = 0;
    while (off < n) {
        if (n - off < 24) {
            e = rerr(&r, W15_WTF_E_TRUNCATED, off, "expected a 24-byte chunk header, found %zu bytes after the last chunk", n - off);
            break;
        }
        uint32_t type = rd32(data + off + 4), len = rd32(data + off + 8), nparts = rd32(data + off + 20);
        if (len % 4) {
            e = rerr(&r, W15_WTF_E_CHUNK, off + 8, "expected a chunk length that is a multiple of 4, found %u", len);
            break;
        }
        if ((uint64_t)len < 24u + 12ull * nparts) {
            e = rerr(&r, W15_WTF_E_CHUNK, off + 8, "chunk length %u is smaller than its header and %u part entries", len, nparts);
            break;
        }
        if (len > n - off) {
            e = rerr(&r, W15_WTF_E_TRUNCATED, off + 8, "chunk of %u bytes but only %zu bytes left in the file", len, n - off);
            break;
        }
        size_t dataoff = off + 24 + 12u * nparts;
        if (index == 0 && type != W15_WTF_CHUNK_FILE_HEADER) {
            e = rerr(&r, W15_WTF_E_CHUNK, off + 4, "expected the first chunk to be a file header (type 1), found type %u", type);
            break;
        }
        if (type == W15_WTF_CHUNK_FILE_HEADER) {
            if (index != 0) {
                e = rerr(&r, W15_WTF_E_CHUNK, off + 4, "expected one file header chunk, at the start; found another");
                break;
            }
            e = read_header_chunk(&r, off, len, nparts, dataoff);
        } else if (type == W15_WTF_CHUNK_EVENT_DATA) {
            r.f->nchunks++;
            e = read_event_chunk(&r, off, len, nparts, dataoff);
        } else {
            e = rerr(&r, W15_WTF_E_CHUNK, off + 4, "expected chunk type 1 or 2, found %u", type);
        }
        if (e != W15_WTF_E_OK)
            break;
        off += len;
        index++;
    }
    if (e == W15_WTF_E_OK && index == 0)
        e = rerr(&r, W15_WTF_E_TRUNCATED, 12, "expected the file header chunk, found the end of the file");
    if (e == W15_WTF_E_TRUNCATED && (flags & W15_WTF_READ_LENIENT) && index > 0)
        e = W15_WTF_E_OK; /* keep the warning in err */
out:
    if (e != W15_WTF_E_OK) {
        w15_wtf_file_free(r.f);
        return e;
    }
    *out = r.f;
    return W15_WTF_E_OK;
}

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

w15_wtf_err_t w15_wtf_read(const char *path, int flags, w15_wtf_file_t **out, char *err, size_t errlen)
{
    uint8_t *data;
    size_t n;
    *out = NULL;
    w15_wtf_err_t e = w15_wtf_read_file(path, &data, &n, err, errlen);
    if (e != W15_WTF_E_OK)
        return e;
    e = w15_wtf_read_mem(data, n, path, flags, out, err, errlen);
    free(data);
    return e;
}

w15_wtf_err_t w15_wtf_read_any(const char *path, int flags, w15_wtf_file_t **out, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n >= 9 && strcmp(path + n - 9, ".wtf-json") == 0)
        return w15_wtf_json_read(path, out, err, errlen);
    return w15_wtf_read(path, flags, out, err, errlen);
}
