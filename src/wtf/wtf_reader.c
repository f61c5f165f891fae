/* wtf_reader.c -- the .wtf-trace (format 10) reader with framing
 * validation (wtf_reader.h). */
#define _GNU_SOURCE
#include "wtf_reader.h"

#include "wtf_format.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
