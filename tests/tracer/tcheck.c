/* tcheck.c -- reads a trace with the format library and prints facts the
 * runtime tests (run.sh) check:
 *   end END|TRUNCATED|ERROR <message>
 *   calls N / threads N / last NAME / frames N
 *   func NAME COUNT            (one line per function)
 *   seq-error ...              (a ThreadSwitch first_seq that is not the
 *                               number of calls seen on that thread)
 *   va-order-error ...         (glVertexAttrib4f(idx, tid_idx, i) not in order)
 *   shader-source <text>       (glShaderSource string, newlines as |)
 *   bufferdata <size> ok|bad   (the glBufferData blob round-trips the pattern)
 *   clearcolor R G B A
 *   readpixels <bytes>          (recorded, or read back and digested)
 *   getshaderiv <count>
 *   extra NAME on FUNC
 *   tracebegin <program> args=N
 *   pixels FUNC BYTES          (the Data argument of glTex*Image*, glReadPixels)
 *   ptrx FUNC PARAM VALUE      (each wip15.ptr entry)
 *   offset FUNC PARAM TARGET OFFSET (each wip15.offset entry; TARGET in hex)
 *   burst N ok|bad             (tapp burst: the N glBufferSubData blobs of
 *                               64 KiB, each the words of burst.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burst.h"
#include "wip15/format.h"

#define MAXF 8192
static uint64_t counts[MAXF];
static const char *names[MAXF];

typedef struct { uint64_t tid, seen; long va_next[16]; } thr_t;
static thr_t thr[256];
static int nthr;
static uint32_t bursts; /* glBufferSubData blobs of tapp burst seen */
static int burst_ok = 1;

static thr_t *get_thr(uint64_t tid)
{
    for (int i = 0; i < nthr; i++)
        if (thr[i].tid == tid)
            return &thr[i];
    if (nthr == 256)
        return &thr[255];
    thr[nthr].tid = tid;
    thr[nthr].seen = 0;
    memset(thr[nthr].va_next, 0, sizeof thr[nthr].va_next);
    return &thr[nthr++];
}

/* The size of a Data parameter's bytes: those recorded, or for read-back
 * data recorded as a digest only (wip15.digest), the size read back. */
static uint64_t data_size(w15_reader_t *r, const w15_call_t *c, uint32_t k)
{
    const w15_digest_entry_t *d;
    uint32_t n;
    w15_error_t err;
    if (c->args[k].v.data[0].size == 0 && w15_reader_digests(r, c, &d, &n, &err) == 0)
        for (uint32_t i = 0; i < n; i++)
            if (d[i].param == k)
                return d[i].size;
    return c->args[k].v.data[0].size;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: tcheck FILE\n");
        return 2;
    }
    w15_error_t err;
    w15_reader_t *r = w15_reader_open(argv[1], &err);
    if (!r) {
        printf("end ERROR %s\n", err.msg);
        return 1;
    }
    w15_op_t op;
    w15_next_t n;
    uint64_t calls = 0, frames = 0;
    thr_t *cur = NULL;
    const char *last = "";
    char lastbuf[256] = "";
    while ((n = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL) {
        if (n != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        const char *name = c->func->name;
        uint32_t fi = c->func->index;
        if (fi < MAXF) {
            counts[fi]++;
            names[fi] = name;
        }
        calls++;
        for (uint32_t i = 0; i < c->nextras; i++) {
            const w15_extra_t *x = &c->extras[i];
            printf("extra %.*s on %s\n", (int)x->name.len, x->name.ptr, name);
            if (x->name.len == 9 && !memcmp(x->name.ptr, "wip15.ptr", 9)) {
                const uint8_t *d = w15_reader_blob(r, &x->data, &err);
                for (uint32_t k = 0; d && k + 12 <= x->data.size; k += 12) {
                    uint32_t pi = (uint32_t)d[k] | (uint32_t)d[k + 1] << 8 | (uint32_t)d[k + 2] << 16 |
                                  (uint32_t)d[k + 3] << 24;
                    uint64_t pv = 0;
                    for (int b = 7; b >= 0; b--)
                        pv = pv << 8 | d[k + 4 + b];
                    printf("ptrx %s %u %llu\n", name, pi, (unsigned long long)pv);
                }
            }
        }
        const w15_offset_entry_t *oe;
        uint32_t noe;
        if (w15_reader_offsets(r, c, &oe, &noe, &err) == 0)
            for (uint32_t i = 0; i < noe; i++)
                printf("offset %s %u 0x%x %llu\n", name, oe[i].param, oe[i].target,
                       (unsigned long long)oe[i].offset);
        if (!strcmp(name, "wip15ThreadSwitch")) {
            cur = get_thr(c->args[0].v.u[0]);
            uint64_t first = c->args[2].v.u[0];
            if (first != cur->seen)
                printf("seq-error tid %llu first_seq %llu seen %llu\n", (unsigned long long)cur->tid,
                       (unsigned long long)first, (unsigned long long)cur->seen);
            continue;
        }
        if (!strcmp(name, "wip15TraceBegin")) {
            printf("tracebegin %.*s args=%u\n", (int)c->args[0].v.s[0].len, c->args[0].v.s[0].ptr,
                   c->args[1].count);
            continue;
        }
        if (!strncmp(name, "wip15", 5))
            continue; /* pseudo-calls take no sequence number */
        if (!cur) {
            printf("seq-error call %s before any ThreadSwitch\n", name);
            continue;
        }
        cur->seen++;
        snprintf(lastbuf, sizeof lastbuf, "%s", name);
        last = lastbuf;
        if (!strcmp(name, "eglSwapBuffers"))
            frames++;
        if (!strcmp(name, "glVertexAttrib4f")) {
            uint64_t idx = c->args[0].v.u[0];
            long i = (long)c->args[2].v.f[0];
            if (idx < 16) {
                if (i != (cur->va_next[idx] & 0xffffff)) /* the busy thread counts modulo 2^24 */
                    printf("va-order-error tid %llu idx %llu got %ld want %ld\n",
                           (unsigned long long)cur->tid, (unsigned long long)idx, i, cur->va_next[idx]);
                cur->va_next[idx] = i + 1;
            }
        }
        if (!strcmp(name, "glShaderSource") && c->args[2].count >= 1) {
            const w15_str_t *s = &c->args[2].v.s[0];
            printf("shader-source ");
            for (uint32_t k = 0; k < s->len; k++)
                putchar(s->ptr[k] == '\n' ? '|' : s->ptr[k]);
            putchar('\n');
        }
        if (!strcmp(name, "glBufferData") && c->args[2].type.base == W15_DATA) {
            const w15_blob_t *b = &c->args[2].v.data[0];
            const uint8_t *d = w15_reader_blob(r, b, &err);
            int ok = d && b->size == 4096;
            for (uint32_t k = 0; ok && k < b->size; k++)
                ok = d[k] == (uint8_t)(k * 7 + (k >> 5));
            printf("bufferdata %u %s\n", b->size, ok ? "ok" : "bad");
        }
        if (!strcmp(name, "glBufferSubData") && c->args[3].type.base == W15_DATA &&
            c->args[3].v.data[0].size == 65536) {
            const uint8_t *d = w15_reader_blob(r, &c->args[3].v.data[0], &err);
            for (uint32_t k = 0; d && burst_ok && k < 16384; k++) {
                uint32_t v;
                memcpy(&v, d + 4 * k, 4);
                burst_ok = v == W15_BURST_WORD(bursts, k);
            }
            burst_ok = burst_ok && d;
            bursts++;
        }
        if (!strcmp(name, "glClearColor"))
            printf("clearcolor %g %g %g %g\n", c->args[0].v.f[0], c->args[1].v.f[0], c->args[2].v.f[0],
                   c->args[3].v.f[0]);
        if (!strcmp(name, "glReadPixels") && c->args[6].type.base == W15_DATA)
            printf("readpixels %llu\n", (unsigned long long)data_size(r, c, 6));
        if (!strncmp(name, "glTex", 5) || !strcmp(name, "glReadPixels")) {
            for (uint32_t k = c->func->nargs; k-- > 0;) {
                if (c->args[k].type.base == W15_DATA && !c->args[k].type.is_array) {
                    printf("pixels %s %llu\n", name, (unsigned long long)data_size(r, c, k));
                    break;
                }
            }
        }
        if (!strcmp(name, "glGetShaderiv"))
            printf("getshaderiv %u\n", c->args[2].count);
    }
    if (bursts)
        printf("burst %u %s\n", bursts, burst_ok ? "ok" : "bad");
    for (uint32_t i = 0; i < MAXF; i++)
        if (counts[i])
            printf("func %s %llu\n", names[i], (unsigned long long)counts[i]);
    printf("calls %llu\nthreads %d\nframes %llu\nlast %s\n", (unsigned long long)calls, nthr,
           (unsigned long long)frames, last);
    if (n == W15_NEXT_END)
        printf("end END\n");
    else
        printf("end %s %s\n", n == W15_NEXT_TRUNCATED ? "TRUNCATED" : "ERROR", err.msg);
    w15_reader_close(r);
    return n == W15_NEXT_ERROR;
}
