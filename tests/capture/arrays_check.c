/* arrays_check.c -- compares what a trace holds for each draw with what
 * tests/capture/arrays_egl.c says the draw reads.
 *
 *   arrays_check TRACE EXPECT_FILE
 *
 * Every draw call of the trace (glDraw*, glMultiDraw*, glArrayElement*) is
 * matched in order with a `draw` item of EXPECT_FILE (same function name).
 * The wip15ClientArray pseudo-calls just before it must be exactly the
 * expected `arr` items (as a set; the pointer is that of the
 * wip15ClientMemory they name plus their offset), and its wip15ClientMemory pseudo-calls
 * exactly the expected `mem` spans merged where they overlap or touch:
 * same addresses, same lengths, same bytes, in address order, no two
 * overlapping (memory shared by several arrays is recorded once).  No
 * other call may be preceded by these pseudo-calls.  A
 * wip15ClientMemorySame counts as the wip15ClientMemory it names: the
 * bytes of the trace's last wip15ClientMemory with that address and size,
 * whose XXH3-64 must be the digest it gives (EXPECT_FILE's `same N` after
 * a draw: N of its memory are named so).  Exit 0 and one "ok" line,
 * or 1 with what differs. */
#include "wip15/format.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct span {
    uint64_t lo, hi;
    uint8_t *bytes; /* hi - lo */
} span_t;

typedef struct arr {
    uint64_t v[8]; /* array index size type stride flags pointer divisor */
} arr_t;

typedef struct draw {
    char name[96];
    span_t *mem;
    size_t nmem;
    arr_t *arr;
    size_t narr;
    int same;       /* of its memory, how many a wip15ClientMemorySame names; -1 any */
} draw_t;

static int failures;

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("arrays_check: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (++failures > 20) {
        fprintf(stderr, "arrays_check: too many differences\n");
        exit(1);
    }
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "arrays_check: out of memory\n");
        exit(1);
    }
    return p;
}

static int cmp_span(const void *x, const void *y)
{
    const span_t *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}
static int cmp_arr(const void *x, const void *y)
{
    return memcmp(((const arr_t *)x)->v, ((const arr_t *)y)->v, sizeof(((const arr_t *)x)->v));
}

/* Sort and merge spans that overlap or touch (the bytes must agree). */
static size_t merge(span_t *s, size_t n, const char *what)
{
    if (!n)
        return 0;
    qsort(s, n, sizeof *s, cmp_span);
    size_t out = 0;
    for (size_t i = 1; i < n; i++) {
        span_t *c = &s[out];
        if (s[i].lo <= c->hi) {
            if (s[i].hi > c->hi) {
                c->bytes = xrealloc(c->bytes, (size_t)(s[i].hi - c->lo));
                memcpy(c->bytes + (c->hi - c->lo), s[i].bytes + (c->hi - s[i].lo), (size_t)(s[i].hi - c->hi));
                c->hi = s[i].hi;
            }
            free(s[i].bytes);
        } else {
            s[++out] = s[i];
        }
    }
    (void)what;
    return out + 1;
}

static int is_draw(const char *name)
{
    return !strncmp(name, "glDraw", 6) || !strncmp(name, "glMultiDraw", 11) || !strncmp(name, "glArrayElement", 14);
}

static draw_t *read_expect(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        exit(1);
    }
    draw_t *d = NULL;
    size_t nd = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        if (!strncmp(line, "draw ", 5)) {
            d = xrealloc(d, (nd + 1) * sizeof *d);
            memset(&d[nd], 0, sizeof *d);
            d[nd].same = -1;
            sscanf(line + 5, "%95s", d[nd].name);
            nd++;
        } else if (!nd) {
            fprintf(stderr, "arrays_check: %s: an item before the first draw\n", path);
            exit(1);
        } else if (!strncmp(line, "same ", 5)) {
            d[nd - 1].same = atoi(line + 5);
        } else if (!strncmp(line, "arr ", 4)) {
            draw_t *c = &d[nd - 1];
            c->arr = xrealloc(c->arr, (c->narr + 1) * sizeof *c->arr);
            arr_t *a = &c->arr[c->narr++];
            if (sscanf(line + 4, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64
                                 " %" SCNx64 " %" SCNx64,
                       &a->v[0], &a->v[1], &a->v[2], &a->v[3], &a->v[4], &a->v[5], &a->v[6], &a->v[7]) != 8) {
                fprintf(stderr, "arrays_check: bad line: %s", line);
                exit(1);
            }
            /* size and stride are Int in the trace: sign-extend 32 bits */
            a->v[2] = (uint64_t)(int64_t)(int32_t)a->v[2];
            a->v[4] = (uint64_t)(int64_t)(int32_t)a->v[4];
        } else if (!strncmp(line, "mem ", 4)) {
            draw_t *c = &d[nd - 1];
            uint64_t addr, len;
            int pos = 0;
            if (sscanf(line + 4, "%" SCNx64 " %" SCNx64 " %n", &addr, &len, &pos) != 2) {
                fprintf(stderr, "arrays_check: bad line: %s", line);
                exit(1);
            }
            c->mem = xrealloc(c->mem, (c->nmem + 1) * sizeof *c->mem);
            span_t *s = &c->mem[c->nmem++];
            s->lo = addr;
            s->hi = addr + len;
            s->bytes = xrealloc(NULL, (size_t)len);
            const char *h = line + 4 + pos;
            for (uint64_t i = 0; i < len; i++) {
                unsigned x;
                if (sscanf(h + 2 * i, "%2x", &x) != 1) {
                    fprintf(stderr, "arrays_check: short mem line\n");
                    exit(1);
                }
                s->bytes[i] = (uint8_t)x;
            }
        }
    }
    free(line);
    fclose(f);
    for (size_t i = 0; i < nd; i++) {
        d[i].nmem = merge(d[i].mem, d[i].nmem, "expected");
        if (d[i].narr)
            qsort(d[i].arr, d[i].narr, sizeof *d[i].arr, cmp_arr);
    }
    *n = nd;
    return d;
}

static void show_arr(const char *pre, const arr_t *a)
{
    fprintf(stderr, "  %s array 0x%" PRIx64 " index %" PRIu64 " size %" PRId64 " type 0x%" PRIx64 " stride %" PRId64
                    " flags %" PRIu64 " pointer 0x%" PRIx64 " divisor %" PRIu64 "\n",
            pre, a->v[0], a->v[1], (int64_t)a->v[2], a->v[3], (int64_t)a->v[4], a->v[5], a->v[6], a->v[7]);
}

static void compare(const draw_t *want, const char *name, uint64_t seq, span_t *mem, size_t nmem, arr_t *arr,
                    size_t narr)
{
    if (strcmp(want->name, name)) {
        bad("call %" PRIu64 ": %s, expected the draw %s", seq, name, want->name);
        return;
    }
    if (narr)
        qsort(arr, narr, sizeof *arr, cmp_arr);
    int arr_bad = narr != want->narr;
    for (size_t i = 0; !arr_bad && i < narr; i++)
        arr_bad = cmp_arr(&arr[i], &want->arr[i]) != 0;
    if (arr_bad) {
        bad("call %" PRIu64 " %s: wip15ClientArray differ (%zu recorded, %zu expected)", seq, name, narr, want->narr);
        for (size_t i = 0; i < narr; i++)
            show_arr("recorded", &arr[i]);
        for (size_t i = 0; i < want->narr; i++)
            show_arr("expected", &want->arr[i]);
    }
    if (nmem)
        qsort(mem, nmem, sizeof *mem, cmp_span);
    for (size_t i = 1; i < nmem; i++)
        if (mem[i].lo < mem[i - 1].hi)
            bad("call %" PRIu64 " %s: wip15ClientMemory [0x%" PRIx64 ", 0x%" PRIx64 ") and [0x%" PRIx64 ", 0x%" PRIx64
                ") overlap (recorded twice)",
                seq, name, mem[i - 1].lo, mem[i - 1].hi, mem[i].lo, mem[i].hi);
    int mem_bad = nmem != want->nmem;
    for (size_t i = 0; !mem_bad && i < nmem; i++)
        mem_bad = mem[i].lo != want->mem[i].lo || mem[i].hi != want->mem[i].hi;
    if (mem_bad) {
        bad("call %" PRIu64 " %s: wip15ClientMemory ranges differ", seq, name);
        for (size_t i = 0; i < nmem; i++)
            fprintf(stderr, "  recorded [0x%" PRIx64 ", 0x%" PRIx64 ") %" PRIu64 " bytes\n", mem[i].lo, mem[i].hi,
                    mem[i].hi - mem[i].lo);
        for (size_t i = 0; i < want->nmem; i++)
            fprintf(stderr, "  expected [0x%" PRIx64 ", 0x%" PRIx64 ") %" PRIu64 " bytes\n", want->mem[i].lo,
                    want->mem[i].hi, want->mem[i].hi - want->mem[i].lo);
        return;
    }
    for (size_t i = 0; i < nmem; i++)
        if (memcmp(mem[i].bytes, want->mem[i].bytes, (size_t)(mem[i].hi - mem[i].lo))) {
            size_t k = 0;
            while (mem[i].bytes[k] == want->mem[i].bytes[k])
                k++;
            bad("call %" PRIu64 " %s: wip15ClientMemory at 0x%" PRIx64 ": byte %zu is 0x%02x, the program had 0x%02x",
                seq, name, mem[i].lo, k, mem[i].bytes[k], want->mem[i].bytes[k]);
        }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: arrays_check TRACE EXPECT_FILE\n");
        return 2;
    }
    size_t nwant = 0;
    draw_t *want = read_expect(argv[2], &nwant);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open(argv[1], &err);
    if (!r) {
        fprintf(stderr, "arrays_check: %s\n", err.msg);
        return 1;
    }
    span_t *mem = NULL, *hist = NULL;
    arr_t *arr = NULL;
    size_t nmem = 0, narr = 0, capmem = 0, caparr = 0, ndraw = 0, totmem = 0, totarr = 0;
    size_t nhist = 0, caphist = 0, nsame = 0, dsame = 0;
    uint64_t totbytes = 0, seq = 0;
    w15_op_t op;
    w15_next_t n;
    while ((n = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL) {
        if (n != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        const char *name = c->func->name;
        if (!strcmp(name, "wip15ClientMemory")) {
            if (nmem == capmem)
                mem = xrealloc(mem, (capmem = capmem * 2 + 16) * sizeof *mem);
            const w15_blob_t *b = c->args[1].v.data;
            const uint8_t *bytes = b->size ? w15_reader_blob(r, b, &err) : (const uint8_t *)"";
            if (!bytes) {
                fprintf(stderr, "arrays_check: %s\n", err.msg);
                return 1;
            }
            span_t *s = &mem[nmem++];
            s->lo = c->args[0].v.u[0];
            s->hi = s->lo + b->size;
            s->bytes = xrealloc(NULL, b->size);
            memcpy(s->bytes, bytes, b->size);
            /* every wip15ClientMemory, for the wip15ClientMemorySame after it */
            if (nhist == caphist)
                hist = xrealloc(hist, (caphist = caphist * 2 + 16) * sizeof *hist);
            hist[nhist] = *s;
            hist[nhist].bytes = xrealloc(NULL, b->size);
            memcpy(hist[nhist++].bytes, bytes, b->size);
            continue;
        }
        if (!strcmp(name, "wip15ClientMemorySame")) {
            uint64_t lo = c->args[0].v.u[0], size = c->args[1].v.u[0], digest = c->args[2].v.u[0];
            const span_t *last = NULL;
            for (size_t i = nhist; i-- > 0 && !last;)
                if (hist[i].lo == lo && hist[i].hi - hist[i].lo == size)
                    last = &hist[i];
            if (!last) {
                bad("call %" PRIu64 ": wip15ClientMemorySame names %" PRIu64 " bytes at 0x%" PRIx64
                    " that no earlier wip15ClientMemory held", seq, size, lo);
                return 1;
            }
            if (XXH3_64bits(last->bytes, (size_t)size) != digest)
                bad("call %" PRIu64 ": wip15ClientMemorySame at 0x%" PRIx64 ": digest %016" PRIx64
                    " is not that of the bytes held there last", seq, lo, digest);
            if (nmem == capmem)
                mem = xrealloc(mem, (capmem = capmem * 2 + 16) * sizeof *mem);
            span_t *s = &mem[nmem++];
            s->lo = lo;
            s->hi = lo + size;
            s->bytes = xrealloc(NULL, (size_t)size);
            memcpy(s->bytes, last->bytes, (size_t)size);
            nsame++;
            dsame++;
            continue;
        }
        if (!strcmp(name, "wip15ClientArray")) {
            if (narr == caparr)
                arr = xrealloc(arr, (caparr = caparr * 2 + 16) * sizeof *arr);
            arr_t *a = &arr[narr++];
            if (c->func->nargs != 9) {
                bad("call %" PRIu64 ": wip15ClientArray has %u parameters, not 9", seq, c->func->nargs);
                return 1;
            }
            /* (array index size type stride flags memory offset divisor):
             * the pointer is `offset` bytes from the address of the draw's
             * wip15ClientMemory number `memory` (in the order written) */
            for (int i = 0; i < 6; i++)
                a->v[i] = c->args[i].v.u[0];
            uint64_t m = c->args[6].v.u[0];
            if (m >= nmem) {
                bad("call %" PRIu64 ": wip15ClientArray 0x%" PRIx64 " names wip15ClientMemory %" PRIu64
                    " of %zu", seq, a->v[0], m, nmem);
                a->v[6] = 0;
            } else {
                a->v[6] = mem[m].lo + (uint64_t)c->args[7].v.i[0];
            }
            a->v[7] = c->args[8].v.u[0];
            continue;
        }
        if (!strncmp(name, "wip15", 5))
            continue;
        if (is_draw(name)) {
            if (ndraw >= nwant)
                bad("call %" PRIu64 ": %s, more draws than the program made", seq, name);
            else
                compare(&want[ndraw], name, seq, mem, nmem, arr, narr);
            if (ndraw < nwant && want[ndraw].same >= 0 && (size_t)want[ndraw].same != dsame)
                bad("call %" PRIu64 " %s: %zu of its wip15ClientMemory named by wip15ClientMemorySame, expected %d",
                    seq, name, dsame, want[ndraw].same);
            ndraw++;
        } else if (nmem || narr) {
            bad("call %" PRIu64 ": %s follows %zu wip15ClientMemory and %zu wip15ClientArray (not a draw)", seq, name,
                nmem, narr);
        }
        totmem += nmem;
        totarr += narr;
        for (size_t i = 0; i < nmem; i++) {
            totbytes += mem[i].hi - mem[i].lo;
            free(mem[i].bytes);
        }
        nmem = narr = dsame = 0;
        seq++;
    }
    if (n != W15_NEXT_END)
        bad("%s", err.msg);
    if (ndraw < nwant)
        bad("%zu draws in the trace, the program made %zu (next: %s)", ndraw, nwant, want[ndraw].name);
    w15_reader_close(r);
    if (failures)
        return 1;
    printf("ok: %zu draws; %zu wip15ClientMemory (%" PRIu64 " bytes; %zu named again by wip15ClientMemorySame), "
           "%zu wip15ClientArray as expected\n", ndraw, totmem, totbytes, nsame, totarr);
    return 0;
}
