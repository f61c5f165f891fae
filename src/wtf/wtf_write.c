/* wtf_write.c -- write the in-memory model as a .wtf-trace (format 10):
 * header, file header chunk, and one event chunk holding every event in
 * order with its own string table (docs/WTF.md ".wtf-json -> .wtf-trace"). */
#define _GNU_SOURCE
#include "wtf_buf.h"
#include "wtf_format.h"
#include "wtf_reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef w15_wtf_buf_t buf_t;
#define put w15_wtf_buf_add

static void put32(buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}

static void pad4(buf_t *b)
{
    static const uint8_t z[4];
    put(b, z, (4 - b->n % 4) % 4);
}

static uint32_t str_ord(buf_t *st, uint32_t *nstr, const char *s)
{
    if (!s)
        return W15_WTF_STR_NULL;
    if (!*s)
        return W15_WTF_STR_EMPTY;
    put(st, s, strlen(s) + 1);
    return (*nstr)++;
}

int w15_wtf_write(const w15_wtf_file_t *f, const char *path, char *err, size_t errlen)
{
    buf_t out = {0}, ev = {0}, st = {0};
    uint32_t nstr = 0;
    char hdr[512];
    const char *hj = f->header_json;
    if (!hj) {
        snprintf(hdr, sizeof hdr,
                 "{\"type\":\"file_header\",\"flags\":[\"has_high_resolution_times\"],\"timebase\":%.3f,"
                 "\"contextInfo\":{\"contextType\":\"script\",\"uri\":\"wip15\",\"title\":\"wip15 conversion\"},\"metadata\":{}}",
                 f->timebase);
        hj = hdr;
    }
    for (size_t i = 0; i < f->nevents; i++) {
        const w15_wtf_event_t *e = &f->events[i];
        int is_def = strcmp(e->def->name, W15_WTF_EV_DEFINE) == 0;
        put32(&ev, is_def ? 1u : e->def->wire);
        put32(&ev, e->time);
        for (uint32_t k = 0; k < e->def->nargs; k++) {
            const w15_wtf_value_t *v = &e->args[k];
            if (w15_wtf_type_is_array(v->type)) {
                put32(&ev, v->count);
                put(&ev, v->v.arr, (size_t)v->count * w15_wtf_type_elem_size(v->type));
                pad4(&ev);
            } else if (v->type == W15_WTF_T_ASCII || v->type == W15_WTF_T_UTF8 || v->type == W15_WTF_T_ANY) {
                put32(&ev, str_ord(&st, &nstr, v->v.s));
            } else if (v->type == W15_WTF_T_FLOAT32) {
                uint32_t u;
                memcpy(&u, &v->v.f, 4);
                put32(&ev, u);
            } else if (v->type == W15_WTF_T_INT8 || v->type == W15_WTF_T_INT16 || v->type == W15_WTF_T_INT32) {
                put32(&ev, (uint32_t)v->v.i);
            } else {
                put32(&ev, v->v.u);
            }
        }
    }
    size_t slen = st.n;
    pad4(&st);
    put32(&out, W15_WTF_MAGIC);
    put32(&out, W15_WTF_WRITER_VERSION);
    put32(&out, W15_WTF_FORMAT_VERSION);
    size_t hl = strlen(hj);
    put32(&out, 0);
    put32(&out, W15_WTF_CHUNK_FILE_HEADER);
    put32(&out, (uint32_t)(36 + ((hl + 3) & ~(size_t)3)));
    put32(&out, W15_WTF_STR_NULL);
    put32(&out, W15_WTF_STR_NULL);
    put32(&out, 1);
    put32(&out, W15_WTF_PART_FILE_HEADER);
    put32(&out, 0);
    put32(&out, (uint32_t)hl);
    put(&out, hj, hl);
    pad4(&out);
    uint64_t clen = 48u + (uint64_t)ev.n + st.n;
    int ok = !out.oom && !ev.oom && !st.oom;
    if (ok && clen > UINT32_MAX) {
        snprintf(err, errlen, "%s: more than 4 GiB of events do not fit one chunk", path);
        ok = 0;
        errno = 0;
    } else if (ok) {
        put32(&out, 1);
        put32(&out, W15_WTF_CHUNK_EVENT_DATA);
        put32(&out, (uint32_t)clen);
        put32(&out, f->nevents ? f->events[0].time : W15_WTF_STR_NULL);
        put32(&out, f->nevents ? f->events[f->nevents - 1].time : W15_WTF_STR_NULL);
        put32(&out, 2);
        put32(&out, W15_WTF_PART_BINARY_EVENTS);
        put32(&out, 0);
        put32(&out, (uint32_t)ev.n);
        put32(&out, W15_WTF_PART_STRING_TABLE);
        put32(&out, (uint32_t)ev.n);
        put32(&out, (uint32_t)slen);
        put(&out, ev.p, ev.n);
        put(&out, st.p, st.n);
        ok = !out.oom;
        if (!ok)
            snprintf(err, errlen, "%s: out of memory", path);
    } else {
        snprintf(err, errlen, "%s: out of memory", path);
    }
    free(ev.p);
    free(st.p);
    if (ok) {
        FILE *fp = fopen(path, "wb");
        int bad = !fp || fwrite(out.p, 1, out.n, fp) != out.n;
        if (fp && fclose(fp) != 0)
            bad = 1;
        if (bad) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            ok = 0;
        }
    }
    free(out.p);
    return ok ? 0 : -1;
}
