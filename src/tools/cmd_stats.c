/* cmd_stats.c -- `wip15 stats`: calls per function, frames, data bytes,
 * the trace's bytes by kind (call arguments, buffer and pixel data, client
 * arrays, mapped writes, read-backs, frame digests, ...) and threads of a
 * trace, in one streaming pass.  Memory grows with the number of distinct
 * functions and threads only. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apitable.h"
#include "args.h"
#include "commands.h"
#include "funcs.h"
#include "map.h"
#include "out.h"
#include "quote.h"
#include "walk.h"

static const char stats_usage[] =
    "usage: wip15 stats [--json] [--top N] FILE\n"
    "\n"
    "Count a WIP15 trace's calls per function (most called first), frames\n"
    "(calls that end a frame, such as glXSwapBuffers), calls per frame, data\n"
    "bytes per function (raw and as stored), the trace's bytes by kind (call\n"
    "arguments, buffer data, pixel data, client arrays, mapped writes,\n"
    "read-back digests and data, frame digests, other pseudo-calls,\n"
    "declarations) and calls per thread.\n"
    "\n"
    "Options:\n"
    "      --json    one JSON object instead of text (see docs/USAGE.md)\n"
    "      --top N   list only the N most called functions\n"
    "  -h, --help    show this help\n"
    "\n"
    "Exit status: 0 ok (a truncated trace is counted up to its last complete\n"
    "call, with a warning), 1 unreadable or corrupt trace, 2 usage error.\n";

typedef struct fstat_ {
    char *name;
    uint64_t calls;
    uint64_t raw, stored;
} fstat_t;

typedef struct tstat {
    uint64_t tid;
    uint64_t calls;
    char *name;
    uint32_t namelen;
} tstat_t;

/* Where a trace's bytes go: every byte of the (decompressed) WIP15 stream
 * is counted in exactly one kind.  A call's blobs (Data values) go to the
 * kind of their call (KIND_CALL_ARGS stays for the rest of the call); the
 * wip15.digest extra to KIND_READBACK_DIGESTS; pseudo-calls as a whole to
 * their kind. */
enum {
    KIND_CALL_ARGS,       /* real calls: arguments, results, extras, blobs of other calls */
    KIND_BUFFER_DATA,     /* blobs of buffer uploads (glBufferData, glBufferSubData, ...) */
    KIND_PIXEL_DATA,      /* blobs of pixel transfers from the program (textures, pixel maps) */
    KIND_CLIENT_ARRAYS,   /* wip15ClientMemory/ClientArray; index arrays of draws */
    KIND_MAPPED_WRITES,   /* wip15BufferWrite */
    KIND_READBACK_DIGESTS,/* the wip15.digest extras */
    KIND_READBACK_DATA,   /* read-back bytes kept by --readback-data */
    KIND_FRAME_DIGESTS,   /* wip15FrameDigest */
    KIND_OTHER_PSEUDO,    /* wip15TraceBegin, ThreadSwitch, ContextConfig, DrawableSize */
    KIND_DECLARATIONS,    /* the header, OpDeclFunc, OpDeclGroup */
    KIND_COUNT_
};

static const char *const kind_names[KIND_COUNT_] = {
    "call arguments", "buffer data", "pixel data", "client arrays", "mapped writes",
    "readback digests", "readback data", "frame digests", "other pseudo-calls", "declarations",
};

typedef struct kstat {
    uint64_t items;  /* calls, blobs or extras counted */
    uint64_t raw;    /* bytes with blobs decompressed */
    uint64_t stored; /* bytes in the WIP15 stream */
} kstat_t;

typedef struct stats {
    w15t_map_t fmap, tmap;
    fstat_t *f;
    size_t nf, capf;
    tstat_t *th;
    size_t nth, capth;
    uint64_t calls, pseudo, nothread_calls;
    uint64_t frames, frame_calls, fmin, fmax, fsum;
    uint64_t raw, stored;
    kstat_t kind[KIND_COUNT_];
    uint64_t stream; /* bytes of the WIP15 stream read */
    int oom;
} stats_t;

static void kind_add(stats_t *s, unsigned k, uint64_t items, uint64_t raw, uint64_t stored)
{
    s->kind[k].items += items;
    s->kind[k].raw += raw;
    s->kind[k].stored += stored;
}

/* The kind of a pseudo-call (by its entry in the generated table). */
static unsigned pseudo_kind(int32_t table)
{
    switch (table) {
    case W15F_wip15ClientMemory:
    case W15F_wip15ClientMemorySame:
    case W15F_wip15ClientArray:
        return KIND_CLIENT_ARRAYS;
    case W15F_wip15BufferWrite:
        return KIND_MAPPED_WRITES;
    case W15F_wip15FrameDigest:
        return KIND_FRAME_DIGESTS;
    default:
        return KIND_OTHER_PSEUDO;
    }
}

/* The kind of the blobs of a real call, from its table flags. */
static unsigned blob_kind(int32_t table)
{
    if (table < 0 || (uint32_t)table >= w15_nfuncs)
        return KIND_CALL_ARGS;
    uint32_t fl = w15_funcs[table].flags;
    if (fl & W15_FN_READBACK)
        return KIND_READBACK_DATA;
    if (fl & (W15_FN_PIXEL_UNPACK | W15_FN_PIXEL_PACK))
        return KIND_PIXEL_DATA;
    if (fl & W15_FN_UPLOAD)
        return KIND_BUFFER_DATA;
    if (fl & W15_FN_VERTEX_DRAW)
        return KIND_CLIENT_ARRAYS;
    return KIND_CALL_ARGS;
}

/* Bytes by kind of one call of `size` stream bytes. */
static void count_kinds(stats_t *s, const w15t_fninfo_t *fi, const w15_call_t *c, uint64_t size)
{
    if (fi->kind != W15T_FN_NORMAL) {
        uint64_t raw = size;
        for (uint32_t i = 0; i < c->func->nargs; i++)
            if (c->args[i].type.base == W15_DATA)
                for (uint32_t k = 0; k < c->args[i].count; k++)
                    raw += c->args[i].v.data[k].size - (uint64_t)c->args[i].v.data[k].csize;
        kind_add(s, pseudo_kind(fi->table), 1, raw, size);
        return;
    }
    unsigned bk = blob_kind(fi->table);
    uint64_t left = size, left_raw = size;
    for (uint32_t i = 0; i <= c->func->nargs; i++) {
        const w15_value_t *v = i < c->func->nargs ? &c->args[i] : c->result;
        if (!v || v->type.base != W15_DATA)
            continue;
        for (uint32_t k = 0; k < v->count; k++) {
            const w15_blob_t *b = &v->v.data[k];
            if (!b->size)
                continue;
            if (bk != KIND_CALL_ARGS) {
                kind_add(s, bk, 1, b->size, b->csize);
                left -= b->csize;
                left_raw -= b->csize;
            } else {
                left_raw += b->size - (uint64_t)b->csize;
            }
        }
    }
    for (uint32_t e = 0; e < c->nextras; e++) {
        const w15_extra_t *x = &c->extras[e];
        if (!w15_extra_is(x, W15_EXTRA_DIGEST))
            continue;
        /* name length, name, Data header (method, size, stored size), data;
         * items: the read-backs it summarises */
        uint64_t n = 4 + (uint64_t)x->name.len + W15_DATA_HEADER + x->data.csize;
        kind_add(s, KIND_READBACK_DIGESTS, x->data.size / W15_DIGEST_ENTRY_SIZE, n - x->data.csize + x->data.size,
                 n);
        left -= n;
        left_raw -= n;
    }
    kind_add(s, KIND_CALL_ARGS, 1, left_raw, left);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*p, ncap * elem);
    if (!n)
        return -1;
    memset((char *)n + *cap * elem, 0, (ncap - *cap) * elem);
    *p = n;
    *cap = ncap;
    return 0;
}

static fstat_t *func_entry(stats_t *s, const w15_func_t *f)
{
    int added;
    long i = w15t_map_put(&s->fmap, f->index, &added);
    if (i < 0 || grow((void **)&s->f, &s->capf, (size_t)i + 1, sizeof *s->f) < 0)
        return NULL;
    fstat_t *e = &s->f[i];
    if (added) {
        e->name = strdup(f->name ? f->name : "");
        s->nf = (size_t)i + 1;
    } else if (e->name && f->name && strcmp(e->name, f->name) != 0) {
        /* the index was declared again with another name (legal, rare):
         * the entry takes the newest name */
        free(e->name);
        e->name = strdup(f->name);
    }
    return e->name ? e : NULL;
}

static tstat_t *thread_entry(stats_t *s, uint64_t tid)
{
    int added;
    long i = w15t_map_put(&s->tmap, tid, &added);
    if (i < 0 || grow((void **)&s->th, &s->capth, (size_t)i + 1, sizeof *s->th) < 0)
        return NULL;
    if (added) {
        s->th[i].tid = tid;
        s->nth = (size_t)i + 1;
    }
    return &s->th[i];
}

static void add_blobs(const w15_value_t *v, uint64_t *raw, uint64_t *stored)
{
    if (v->type.base != W15_DATA)
        return;
    for (uint32_t i = 0; i < v->count; i++) {
        *raw += v->v.data[i].size;
        *stored += v->v.data[i].csize;
    }
}

static void count_call(stats_t *s, w15t_trace_t *t, const w15_call_t *c, uint64_t size)
{
    const w15t_fninfo_t *fi = w15t_fninfo(t, c->func);
    count_kinds(s, fi, c, size);
    uint64_t raw = 0, stored = 0;
    for (uint32_t i = 0; i < c->func->nargs; i++)
        add_blobs(&c->args[i], &raw, &stored);
    if (c->result)
        add_blobs(c->result, &raw, &stored);
    for (uint32_t e = 0; e < c->nextras; e++) {
        raw += c->extras[e].data.size;
        stored += c->extras[e].data.csize;
    }
    s->calls++;
    s->raw += raw;
    s->stored += stored;
    fstat_t *f = func_entry(s, c->func);
    if (f) {
        f->calls++;
        f->raw += raw;
        f->stored += stored;
    } else {
        s->oom = 1;
    }
    if (t->have_thread) {
        tstat_t *th = thread_entry(s, t->thread);
        if (!th) {
            s->oom = 1;
        } else {
            if (fi->kind == W15T_FN_NORMAL)
                th->calls++;
            if (fi->kind == W15T_FN_THREAD_SWITCH && c->func->nargs >= 4 &&
                c->args[3].type.base == W15_STRING && !c->args[3].type.is_array) {
                const w15_str_t *n = &c->args[3].v.s[0];
                if (n->len != th->namelen || !th->name || memcmp(n->ptr, th->name, n->len) != 0) {
                    char *copy = malloc(n->len + 1u);
                    if (copy) {
                        memcpy(copy, n->ptr, n->len);
                        copy[n->len] = 0;
                        free(th->name);
                        th->name = copy;
                        th->namelen = n->len;
                    }
                }
            }
        }
    } else if (fi->kind == W15T_FN_NORMAL) {
        s->nothread_calls++;
    }
    if (fi->kind != W15T_FN_NORMAL) {
        s->pseudo++;
        return;
    }
    s->frame_calls++;
    if (fi->frame_end) {
        if (s->frames == 0 || s->frame_calls < s->fmin)
            s->fmin = s->frame_calls;
        if (s->frame_calls > s->fmax)
            s->fmax = s->frame_calls;
        s->fsum += s->frame_calls;
        s->frames++;
        s->frame_calls = 0;
    }
}

static int by_calls(const void *a, const void *b)
{
    const fstat_t *x = a, *y = b;
    if (x->calls != y->calls)
        return x->calls < y->calls ? 1 : -1;
    return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void print_text(const stats_t *s, size_t top)
{
    w15t_printf("calls:            %" PRIu64 " (%" PRIu64 " pseudo-calls)\n", s->calls, s->pseudo);
    w15t_printf("frames:           %" PRIu64 "\n", s->frames);
    if (s->frames)
        w15t_printf("calls per frame:  mean %.1f, min %" PRIu64 ", max %" PRIu64 "\n",
                    (double)s->fsum / (double)s->frames, s->fmin, s->fmax);
    w15t_printf("after last frame: %" PRIu64 " calls\n", s->frame_calls);
    w15t_printf("data:             %" PRIu64 " bytes, %" PRIu64 " stored\n", s->raw, s->stored);

    w15t_puts("\nbytes by kind (of the WIP15 stream; raw: blobs decompressed):\n");
    w15t_printf("%-20s %10s %14s %14s %6s\n", "kind", "items", "raw bytes", "stored", "%");
    for (unsigned k = 0; k < KIND_COUNT_; k++) {
        const kstat_t *ks = &s->kind[k];
        double pct = s->stream ? 100.0 * (double)ks->stored / (double)s->stream : 0.0;
        w15t_printf("%-20s %10" PRIu64 " %14" PRIu64 " %14" PRIu64 " %6.2f\n", kind_names[k], ks->items,
                    ks->raw, ks->stored, pct);
    }
    w15t_printf("%-20s %10s %14s %14" PRIu64 "\n", "total", "", "", s->stream);

    w15t_puts("\nthreads:\n");
    w15t_printf("%12s  %-20s %s\n", "calls", "thread", "name");
    if (s->nothread_calls)
        w15t_printf("%12" PRIu64 "  %-20s\n", s->nothread_calls, "(none)");
    for (size_t i = 0; i < s->nth; i++) {
        const tstat_t *th = &s->th[i];
        char tid[24];
        snprintf(tid, sizeof tid, "%" PRIu64, th->tid);
        w15t_printf("%12" PRIu64 "  %-20s ", th->calls, tid);
        if (th->name)
            w15t_put_cstring(th->name, th->namelen);
        w15t_putc('\n');
    }

    w15t_puts("\nfunctions:\n");
    w15t_printf("%12s %6s %14s %14s  %s\n", "calls", "%", "data bytes", "stored", "function");
    for (size_t i = 0; i < s->nf && i < top && !w15t_out_stopped(); i++) {
        const fstat_t *f = &s->f[i];
        double pct = s->calls ? 100.0 * (double)f->calls / (double)s->calls : 0.0;
        w15t_printf("%12" PRIu64 " %6.2f %14" PRIu64 " %14" PRIu64 "  %s\n", f->calls, pct, f->raw,
                    f->stored, f->name);
    }
    if (top < s->nf)
        w15t_printf("%12s  (%zu more functions)\n", "...", s->nf - top);
}

static void print_json(const stats_t *s, size_t top, const char *path, w15_next_t k,
                       const char *msg)
{
    w15t_puts("{\"file\":");
    w15t_put_jstr(path);
    w15t_printf(",\"calls\":%" PRIu64 ",\"pseudo_calls\":%" PRIu64 ",\"frames\":%" PRIu64,
                s->calls, s->pseudo, s->frames);
    if (s->frames)
        w15t_printf(",\"calls_per_frame\":{\"mean\":%.3f,\"min\":%" PRIu64 ",\"max\":%" PRIu64 "}",
                    (double)s->fsum / (double)s->frames, s->fmin, s->fmax);
    else
        w15t_puts(",\"calls_per_frame\":null");
    w15t_printf(",\"calls_after_last_frame\":%" PRIu64 ",\"data_bytes\":%" PRIu64
                ",\"data_bytes_stored\":%" PRIu64 ",\"calls_without_thread\":%" PRIu64,
                s->frame_calls, s->raw, s->stored, s->nothread_calls);
    w15t_printf(",\"stream_bytes\":%" PRIu64 ",\"bytes_by_kind\":[", s->stream);
    for (unsigned k = 0; k < KIND_COUNT_; k++) {
        const kstat_t *ks = &s->kind[k];
        w15t_puts(k ? ",{\"kind\":" : "{\"kind\":");
        w15t_put_jstr(kind_names[k]);
        w15t_printf(",\"items\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"bytes_stored\":%" PRIu64 "}", ks->items,
                    ks->raw, ks->stored);
    }
    w15t_puts("]");
    w15t_puts(",\"threads\":[");
    for (size_t i = 0; i < s->nth; i++) {
        const tstat_t *th = &s->th[i];
        w15t_printf("%s{\"tid\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"name\":", i ? "," : "",
                    th->tid, th->calls);
        if (th->name)
            w15t_put_jstring(th->name, th->namelen);
        else
            w15t_puts("null");
        w15t_putc('}');
    }
    w15t_puts("],\"functions\":[");
    for (size_t i = 0; i < s->nf && i < top && !w15t_out_stopped(); i++) {
        const fstat_t *f = &s->f[i];
        w15t_puts(i ? ",{\"name\":" : "{\"name\":");
        w15t_put_jstr(f->name);
        w15t_printf(",\"calls\":%" PRIu64 ",\"data_bytes\":%" PRIu64 ",\"data_bytes_stored\":%" PRIu64
                    "}", f->calls, f->raw, f->stored);
    }
    w15t_printf("],\"complete\":%s,\"truncated\":%s,\"error\":", k == W15_NEXT_END ? "true" : "false",
                k == W15_NEXT_TRUNCATED ? "true" : "false");
    if (msg)
        w15t_put_jstr(msg);
    else
        w15t_puts("null");
    w15t_puts("}\n");
}

int cmd_stats(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_TOP };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"top", required_argument, NULL, OPT_TOP},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, ch;
    uint64_t top = UINT64_MAX;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_JSON:
            json = 1;
            break;
        case OPT_TOP:
            if (w15t_parse_u64(optarg, &top) < 0) {
                w15t_err("stats", "--top wants a number, not '%s'", optarg);
                return 2;
            }
            break;
        case 'h':
            fputs(stats_usage, stdout);
            return 0;
        default:
            fputs(stats_usage, stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        w15t_err("stats", "expected one FILE");
        fputs(stats_usage, stderr);
        return 2;
    }
    const char *path = argv[optind];
    w15t_trace_t t;
    if (w15t_open(&t, "stats", path))
        return 1;
    stats_t s;
    memset(&s, 0, sizeof s);
    w15_op_t op;
    w15_next_t k;
    w15_reader_stats_t rs;
    w15_reader_get_stats(t.r, &rs);
    kind_add(&s, KIND_DECLARATIONS, 0, rs.stream_bytes, rs.stream_bytes); /* the header */
    uint64_t pos = rs.stream_bytes;
    while ((k = w15t_next(&t, &op)) <= W15_NEXT_CALL) {
        w15_reader_get_stats(t.r, &rs);
        uint64_t size = rs.stream_bytes - pos;
        pos = rs.stream_bytes;
        if (k == W15_NEXT_CALL)
            count_call(&s, &t, op.call, size);
        else
            kind_add(&s, KIND_DECLARATIONS, 1, size, size);
    }
    s.stream = pos;
    const char *msg = (k == W15_NEXT_TRUNCATED || k == W15_NEXT_ERROR) ? t.err.msg : NULL;
    int rc = 0;
    if (s.oom) {
        w15t_err("stats", "out of memory");
        rc = 1;
    }
    if (s.nf)
        qsort(s.f, s.nf, sizeof *s.f, by_calls);
    size_t ntop = top > SIZE_MAX ? SIZE_MAX : (size_t)top;
    if (json)
        print_json(&s, ntop, path, k, msg);
    else
        print_text(&s, ntop);
    if (k == W15_NEXT_TRUNCATED) {
        w15t_out_finish();
        w15t_err("stats", "warning: %s", msg);
    } else if (k == W15_NEXT_ERROR) {
        w15t_out_finish();
        w15t_err("stats", "%s", msg);
        rc = 1;
    }
    for (size_t i = 0; i < s.nf; i++)
        free(s.f[i].name);
    for (size_t i = 0; i < s.nth; i++)
        free(s.th[i].name);
    free(s.f);
    free(s.th);
    w15t_map_free(&s.fmap);
    w15t_map_free(&s.tmap);
    w15t_close(&t);
    return rc;
}
