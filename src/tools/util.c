/* util.c -- output, formatting and trace walking shared by the reading
 * commands (see util.h). */
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef W15_HAVE_APITABLE
#include "apitable.h"
#endif

/* ------------------------------------------------------------------ */
/* Output                                                              */

#define OUT_CAP 65536
static char out_buf[OUT_CAP];
static size_t out_len;
static int out_state; /* 0 ok, 1 pipe closed, 2 write error */
static int out_errno;

static void out_flush(void)
{
    size_t off = 0;
    while (off < out_len && out_state == 0) {
        ssize_t n = write(STDOUT_FILENO, out_buf + off, out_len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            out_errno = errno;
            out_state = errno == EPIPE ? 1 : 2;
            break;
        }
        off += (size_t)n;
    }
    out_len = 0;
}

void w15t_write(const void *p, size_t n)
{
    const char *s = p;
    if (out_state)
        return;
    while (n) {
        size_t room = OUT_CAP - out_len;
        if (room == 0) {
            out_flush();
            if (out_state)
                return;
            room = OUT_CAP;
        }
        size_t k = n < room ? n : room;
        memcpy(out_buf + out_len, s, k);
        out_len += k;
        s += k;
        n -= k;
    }
}

void w15t_puts(const char *s) { w15t_write(s, strlen(s)); }

void w15t_putc(char c)
{
    if (out_len == OUT_CAP)
        out_flush();
    if (out_state)
        return;
    out_buf[out_len++] = c;
}

void w15t_printf(const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        w15t_write(small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big)
        return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    w15t_write(big, (size_t)n);
    free(big);
}

void w15t_put_u64(uint64_t v)
{
    char b[24];
    char *e = b + sizeof b, *o = e;
    do {
        *--o = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    w15t_write(o, (size_t)(e - o));
}

void w15t_put_i64(int64_t v)
{
    if (v < 0) {
        w15t_putc('-');
        w15t_put_u64((uint64_t)0 - (uint64_t)v);
    } else {
        w15t_put_u64((uint64_t)v);
    }
}

void w15t_put_hex(uint64_t v)
{
    char b[24];
    char *e = b + sizeof b, *o = e;
    do {
        *--o = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    *--o = 'x';
    *--o = '0';
    w15t_write(o, (size_t)(e - o));
}

int w15t_out_stopped(void) { return out_state != 0; }

int w15t_out_finish(void)
{
    out_flush();
    if (out_state == 2) {
        fprintf(stderr, "wip15: write error on standard output: %s\n", strerror(out_errno));
        return 1;
    }
    return 0;
}

void w15t_err(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "wip15: %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ------------------------------------------------------------------ */
/* Floats                                                              */

/* Write the number -/+ d0.d1d2...d(n-1) x 10^x (dig has no trailing zeros)
 * as %g would with precision n: plain digits when -4 <= x < n, else
 * d.ddde+XX.  Where %g picks the exponent form for an integer (100 at one
 * digit is "1e+02"), the plain form is used when it is not longer. */
static void spell(char *buf, double v, int neg, const char *dig, int n, int x)
{
    char *o = buf;
    int expo = x < -4 || x >= n;
    if (expo && x >= 0 && x <= 20) {
        int elen = n + (n > 1) + 2 + (x >= 100 ? 3 : 2); /* d.ddd e+XX */
        if (x + 1 <= elen) {
            /* an integer: all its x+1 digits (exact, and more than
             * needed, so it reads back) */
            snprintf(buf, 40, "%.*g", x + 1, v);
            return;
        }
    }
    if (neg)
        *o++ = '-';
    if (expo) {
        *o++ = dig[0];
        if (n > 1) {
            *o++ = '.';
            memcpy(o, dig + 1, (size_t)n - 1);
            o += n - 1;
        }
        sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return;
    }
    if (x < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *o++ = '0';
        memcpy(o, dig, (size_t)n);
        o += n;
    } else {
        for (int i = 0; i <= x; i++)
            *o++ = i < n ? dig[i] : '0';
        if (n > x + 1) {
            *o++ = '.';
            memcpy(o, dig + x + 1, (size_t)(n - x - 1));
            o += n - x - 1;
        }
    }
    *o = 0;
}

/* Spell `full` (n digits, exponent x) correctly rounded to k < n digits
 * into buf; 1 when that reads back to the original value. */
static int try_digits(char *buf, double v, int neg, const char *full, int n, int x, int k,
                      int (*same)(const char *, const void *), const void *orig)
{
    char cand[24];
    int cx = x, cn = k;
    if (full[k] == '5' && k + 1 == n) {
        /* a tie in the max-digit decimal: the value itself may lie on
         * either side, so let printf round it to k digits */
        char t2[48];
        snprintf(t2, sizeof t2, "%.*e", k - 1, v);
        const char *q = t2 + neg;
        cn = 0;
        for (; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9')
                cand[cn++] = *q;
        cx = *q == 'e' ? atoi(q + 1) : x;
    } else {
        /* elsewhere rounding the rounded decimal again is exact */
        memcpy(cand, full, (size_t)k);
        if (full[k] >= '5') { /* round up, carrying */
            int i = k - 1;
            while (i >= 0 && cand[i] == '9')
                cand[i--] = '0';
            if (i >= 0) {
                cand[i]++;
            } else {
                cand[0] = '1';
                cn = 1;
                cx++;
            }
        }
    }
    while (cn > 1 && cand[cn - 1] == '0')
        cn--;
    spell(buf, v, neg, cand, cn, cx);
    return same(buf, orig);
}

/* Shortest spelling of a finite nonzero value: `max` significant digits
 * always read back (9 for float, 17 for double); take them from one
 * printf, then find the fewest digits whose correct rounding reads back
 * to the same bits (`same` parses and compares). */
static void shortest(char *buf, double v, int max, int (*same)(const char *, const void *),
                     const void *orig)
{
    char tmp[48], full[24];
    snprintf(tmp, sizeof tmp, "%.*e", max - 1, v);
    const char *p = tmp;
    int neg = *p == '-';
    if (neg)
        p++;
    int n = 0;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9')
            full[n++] = *p;
    int x = *p == 'e' ? atoi(p + 1) : 0;
    while (n > 1 && full[n - 1] == '0')
        n--;
    /* Reading back is monotonic in k (k+1 correctly rounded digits are
     * never farther from the value than k digits) except at powers of two,
     * where the gap below is half the gap above: there, and for the short
     * spellings of round numbers, try k = 1, 2, ... in turn; else bisect. */
    int e2;
    int pow2 = fabs(frexp(v, &e2)) == 0.5;
    int k = 1;
    for (; (k <= 2 || pow2) && k < n; k++)
        if (try_digits(buf, v, neg, full, n, x, k, same, orig))
            return;
    int lo = k, hi = n; /* smallest good k in [lo, hi]; n always reads back */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (try_digits(buf, v, neg, full, n, x, mid, same, orig))
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo < n)
        try_digits(buf, v, neg, full, n, x, lo, same, orig);
    else
        spell(buf, v, neg, full, n, x);
}

static int same_float(const char *s, const void *orig)
{
    float back = strtof(s, NULL);
    return memcmp(&back, orig, 4) == 0;
}

static int same_double(const char *s, const void *orig)
{
    double back = strtod(s, NULL);
    return memcmp(&back, orig, 8) == 0;
}

char *w15t_fmt_float(char *buf, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    const char *sign = (u >> 31) ? "-" : "";
    if (isnan(f)) {
        uint32_t payload = u & 0x7fffffu;
        if (payload == 0x400000u)
            sprintf(buf, "%snan", sign);
        else
            sprintf(buf, "%snan(0x%" PRIx32 ")", sign, payload);
        return buf;
    }
    if (isinf(f)) {
        sprintf(buf, "%sinf", sign);
        return buf;
    }
    if (f == 0.0f)
        strcpy(buf, (u >> 31) ? "-0" : "0");
    else if (f > -1e5f && f < 1e5f && (float)(int32_t)f == f)
        sprintf(buf, "%" PRId32, (int32_t)f); /* small integers: common; below
                                                  1e5 never longer than 1e+NN */
    else
        shortest(buf, (double)f, 9, same_float, &f);
    return buf;
}

char *w15t_fmt_double(char *buf, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    const char *sign = (u >> 63) ? "-" : "";
    if (isnan(d)) {
        uint64_t payload = u & 0xfffffffffffffull;
        if (payload == 0x8000000000000ull)
            sprintf(buf, "%snan", sign);
        else
            sprintf(buf, "%snan(0x%" PRIx64 ")", sign, payload);
        return buf;
    }
    if (isinf(d)) {
        sprintf(buf, "%sinf", sign);
        return buf;
    }
    if (d == 0.0)
        strcpy(buf, (u >> 63) ? "-0" : "0");
    else if (d > -1e5 && d < 1e5 && (double)(int64_t)d == d)
        sprintf(buf, "%" PRId64, (int64_t)d);
    else
        shortest(buf, d, 17, same_double, &d);
    return buf;
}

/* ------------------------------------------------------------------ */
/* Strings                                                             */

static const char hexd[] = "0123456789abcdef";

void w15t_put_cstring(const char *s, size_t n)
{
    w15t_putc('"');
    size_t run = 0; /* start of the current run of plain bytes */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char hx[4];
        switch (c) {
        case '\n': esc = "\\n"; break;
        case '\t': esc = "\\t"; break;
        case '\r': esc = "\\r"; break;
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        default:
            if (c < 0x20 || c > 0x7e) {
                hx[0] = '\\'; hx[1] = 'x'; hx[2] = hexd[c >> 4]; hx[3] = hexd[c & 15];
                w15t_write(s + run, i - run);
                w15t_write(hx, 4);
                run = i + 1;
            }
            continue;
        }
        w15t_write(s + run, i - run);
        w15t_puts(esc);
        run = i + 1;
    }
    w15t_write(s + run, n - run);
    w15t_putc('"');
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; min = 0x10000; }
    else return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

static int utf8_valid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = utf8_seq(u + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

void w15t_put_jstring(const char *s, size_t n)
{
    if (!utf8_valid(s, n)) {
        w15t_puts("{\"hex\":\"");
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)s[i];
            char hx[2] = {hexd[c >> 4], hexd[c & 15]};
            w15t_write(hx, 2);
        }
        w15t_puts("\"}");
        return;
    }
    w15t_putc('"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *esc = NULL;
        char u6[7];
        switch (c) {
        case '\n': esc = "\\n"; break;
        case '\t': esc = "\\t"; break;
        case '\r': esc = "\\r"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                memcpy(u6, "\\u00", 4);
                u6[4] = hexd[c >> 4]; u6[5] = hexd[c & 15]; u6[6] = 0;
                esc = u6;
            } else {
                continue;
            }
        }
        w15t_write(s + run, i - run);
        w15t_puts(esc);
        run = i + 1;
    }
    w15t_write(s + run, n - run);
    w15t_putc('"');
}

void w15t_put_jstr(const char *s) { w15t_put_jstring(s, strlen(s)); }

/* ------------------------------------------------------------------ */
/* Map                                                                 */

static size_t map_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k;
}

long w15t_map_get(const w15t_map_t *m, uint64_t key)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t i = map_hash(key) & mask;; i = (i + 1) & mask) {
        if (!m->vals[i])
            return -1;
        if (m->keys[i] == key)
            return (long)m->vals[i] - 1;
    }
}

static int map_grow(w15t_map_t *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    uint64_t *nk = calloc(ncap, sizeof *nk);
    uint32_t *nv = calloc(ncap, sizeof *nv);
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->vals[i])
            continue;
        size_t j = map_hash(m->keys[i]) & (ncap - 1);
        while (nv[j])
            j = (j + 1) & (ncap - 1);
        nk[j] = m->keys[i];
        nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return 0;
}

long w15t_map_put(w15t_map_t *m, uint64_t key, int *added)
{
    *added = 0;
    long got = w15t_map_get(m, key);
    if (got >= 0)
        return got;
    if (m->n >= UINT32_MAX - 1)
        return -1;
    if ((m->n + 1) * 2 > m->cap && map_grow(m) < 0)
        return -1;
    size_t mask = m->cap - 1;
    size_t i = map_hash(key) & mask;
    while (m->vals[i])
        i = (i + 1) & mask;
    m->keys[i] = key;
    m->vals[i] = (uint32_t)(m->n + 1);
    *added = 1;
    return (long)m->n++;
}

void w15t_map_free(w15t_map_t *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* Trace walking                                                       */

int w15t_open(w15t_trace_t *t, const char *cmd, const char *path)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    w15_error_t err;
    memset(&err, 0, sizeof err);
    t->r = w15_reader_open(path, &err);
    if (!t->r) {
        if (!cmd)
            return 1;
        if (err.msg[0])
            w15t_err(cmd, "%s", err.msg);
        else
            w15t_err(cmd, "%s: %s", path, w15_errcode_message(err.code));
        return 1;
    }
    t->hdr = *w15_reader_header(t->r);
    return 0;
}

void w15t_close(w15t_trace_t *t)
{
    w15_reader_close(t->r);
    w15t_map_free(&t->fmap);
    w15t_map_free(&t->gmap);
    free(t->finfo);
    free(t->gtable);
    memset(t, 0, sizeof *t);
}

static void fninfo_compute(w15t_fninfo_t *fi, const w15_func_t *f)
{
    memset(fi, 0, sizeof *fi);
    fi->table = -1;
    const char *name = f->name ? f->name : "";
    if (strncmp(name, "wip15", 5) == 0) {
        fi->kind = strcmp(name, "wip15ThreadSwitch") == 0 ? W15T_FN_THREAD_SWITCH : W15T_FN_PSEUDO;
        return;
    }
#ifdef W15_HAVE_APITABLE
    int idx = w15_func_lookup(name);
    if (idx >= 0) {
        fi->table = idx;
        fi->frame_end = (w15_funcs[idx].flags & W15_FN_FRAME_END) != 0;
    }
#endif
}

const w15t_fninfo_t *w15t_fninfo(w15t_trace_t *t, const w15_func_t *f)
{
    static w15t_fninfo_t fallback;
    int added;
    long i = w15t_map_put(&t->fmap, f->index, &added);
    if (i < 0) {
        fninfo_compute(&fallback, f);
        return &fallback;
    }
    if (added) {
        if ((size_t)i >= t->capfinfo) {
            size_t ncap = t->capfinfo ? t->capfinfo * 2 : 64;
            w15t_fninfo_t *n = realloc(t->finfo, ncap * sizeof *n);
            if (!n) {
                /* keep the map consistent: drop it and start over */
                w15t_map_free(&t->fmap);
                t->nfinfo = 0;
                fninfo_compute(&fallback, f);
                return &fallback;
            }
            t->finfo = n;
            t->capfinfo = ncap;
        }
        fninfo_compute(&t->finfo[i], f);
        t->nfinfo = (size_t)i + 1;
    }
    return &t->finfo[i];
}

/* A trace function can be re-declared with another name at the same index
 * (a reader keeps the last declaration): forget the cached record. */
static void fninfo_forget(w15t_trace_t *t, uint32_t index)
{
    long i = w15t_map_get(&t->fmap, index);
    if (i >= 0)
        fninfo_compute(&t->finfo[i], w15_reader_func(t->r, index));
}

static int32_t gtable_compute(w15t_trace_t *t, uint32_t group)
{
#ifdef W15_HAVE_APITABLE
    const w15_group_t *g = w15_reader_group(t->r, group);
    if (g && g->name)
        return w15_group_lookup(g->name);
#else
    (void)t;
    (void)group;
#endif
    return -1;
}

int32_t w15t_gtable(w15t_trace_t *t, uint32_t group)
{
    int added;
    long i = w15t_map_put(&t->gmap, group, &added);
    if (i < 0)
        return gtable_compute(t, group);
    if (added) {
        if ((size_t)i >= t->capgtable) {
            size_t ncap = t->capgtable ? t->capgtable * 2 : 64;
            int32_t *n = realloc(t->gtable, ncap * sizeof *n);
            if (!n) {
                w15t_map_free(&t->gmap);
                t->ngtable = 0;
                return gtable_compute(t, group);
            }
            t->gtable = n;
            t->capgtable = ncap;
        }
        t->gtable[i] = gtable_compute(t, group);
        t->ngtable = (size_t)i + 1;
    }
    return t->gtable[i];
}

uint64_t w15t_scalar_u64(const w15_value_t *v, int *ok)
{
    if (ok)
        *ok = 1;
    if (v->type.is_array || v->count < 1) {
        if (ok)
            *ok = 0;
        return 0;
    }
    switch (v->type.base) {
    case W15_UINT:
    case W15_PTR:
        return v->v.u[0];
    case W15_INT:
        return (uint64_t)v->v.i[0];
    case W15_BOOL:
        return v->v.b[0];
    default:
        if (ok)
            *ok = 0;
        return 0;
    }
}

w15_next_t w15t_next(w15t_trace_t *t, w15_op_t *op)
{
    w15_next_t k = w15_reader_next(t->r, op, &t->err);
    if (k == W15_NEXT_DECL_FUNC && op->func) {
        fninfo_forget(t, op->func->index);
    } else if (k == W15_NEXT_DECL_GROUP && op->group) {
        long i = w15t_map_get(&t->gmap, op->group->index);
        if (i >= 0)
            t->gtable[i] = gtable_compute(t, op->group->index);
    } else if (k == W15_NEXT_CALL) {
        const w15_call_t *c = op->call;
        const w15t_fninfo_t *fi = w15t_fninfo(t, c->func);
        if (fi->kind == W15T_FN_THREAD_SWITCH && c->func->nargs >= 1) {
            int ok;
            uint64_t tid = w15t_scalar_u64(&c->args[0], &ok);
            if (ok) {
                t->have_thread = 1;
                t->thread = tid;
            }
        }
    }
    return k;
}

/* ------------------------------------------------------------------ */
/* wip15.ptr                                                           */

static const uint8_t *extra_bytes(w15t_trace_t *t, const w15_blob_t *b, w15_error_t *err)
{
    if (b->method == W15_COMP_NONE && b->csize == b->size)
        return b->cdata;
    return w15_reader_blob(t->r, b, err);
}

int w15t_ptrs_load(w15t_trace_t *t, const w15_call_t *call, w15t_ptrs_t *p, w15_error_t *err)
{
    p->n = 0;
    for (uint32_t e = 0; e < call->nextras; e++) {
        const w15_extra_t *x = &call->extras[e];
        if (x->name.len != 9 || memcmp(x->name.ptr, "wip15.ptr", 9) != 0)
            continue;
        if (x->data.size % 12 != 0) {
            if (err) {
                err->code = W15_E_BAD_LENGTH;
                err->offset = x->data.offset;
                snprintf(err->msg, sizeof err->msg,
                         "%s: byte %" PRIu64 ": call %" PRIu64 " (%s): expected an extra wip15.ptr"
                         " of 12-byte entries, found %" PRIu32 " bytes",
                         t->path, x->data.offset, call->index, call->func->name, x->data.size);
            }
            return -1;
        }
        const uint8_t *d = extra_bytes(t, &x->data, err);
        if (!d)
            return -1;
        uint32_t cnt = x->data.size / 12;
        if (p->n + cnt > p->cap) {
            uint32_t ncap = p->n + cnt;
            uint32_t *np = realloc(p->param, ncap * sizeof *np);
            if (np)
                p->param = np;
            uint64_t *nv = realloc(p->value, ncap * sizeof *nv);
            if (nv)
                p->value = nv;
            if (!np || !nv) {
                if (err) {
                    err->code = W15_E_NOMEM;
                    snprintf(err->msg, sizeof err->msg, "out of memory");
                }
                return -1;
            }
            p->cap = ncap;
        }
        for (uint32_t i = 0; i < cnt; i++, d += 12) {
            uint32_t pi = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                          (uint32_t)d[3] << 24;
            uint64_t v = 0;
            for (int k = 7; k >= 0; k--)
                v = (v << 8) | d[4 + k];
            p->param[p->n] = pi;
            p->value[p->n] = v;
            p->n++;
        }
    }
    return 0;
}

uint64_t w15t_ptrs_find(const w15t_ptrs_t *p, uint32_t param, int *found)
{
    for (uint32_t i = 0; i < p->n; i++) {
        if (p->param[i] == param) {
            *found = 1;
            return p->value[i];
        }
    }
    *found = 0;
    return 0;
}

void w15t_ptrs_free(w15t_ptrs_t *p)
{
    free(p->param);
    free(p->value);
    memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------------ */
/* Enum names                                                          */

typedef struct sbuf {
    char *p;
    size_t cap, len;
    int cut;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->cut)
        return;
    if (b->len + n + 4 > b->cap) { /* keep room for "..." */
        memcpy(b->p + b->len, "...", 4);
        b->len += 3;
        b->cut = 1;
        return;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}


int w15t_enum_text(w15t_trace_t *t, uint32_t group, uint64_t value, char *buf, size_t cap)
{
    const w15_group_t *g = w15_reader_group(t->r, group);
    if (!g || cap < 64)
        return 0;
    sbuf_t sb = {buf, cap, 0, 0};
    buf[0] = 0;
    char hx[24];
    if (g->type == W15_GROUP_ENUM) {
        const char *name = NULL;
#ifdef W15_HAVE_APITABLE
        name = w15_group_enum_name((uint32_t)w15t_gtable(t, group), value, 0);
        /* gl.xml groups are incomplete: fall back to any enumerant of that
         * value, but not for small numbers, where names are ambiguous. */
        if (!name && value >= 0x100)
            name = w15_enum_name(W15_NO_GROUP, value, 0);
#endif
        if (name) {
            sb_add(&sb, name);
        } else {
            snprintf(hx, sizeof hx, "0x%" PRIx64, value);
            sb_add(&sb, hx);
        }
        return 1;
    }
    if (g->type != W15_GROUP_BITMASK)
        return 0;
#ifdef W15_HAVE_APITABLE
    int32_t gt = w15t_gtable(t, group);
    if (gt < 0)
        return 0;
    if (value == 0) {
        sb_add(&sb, "0");
        return 1;
    }
    const char *exact = w15_group_enum_name((uint32_t)gt, value, 0);
    if (exact) {
        sb_add(&sb, exact);
        return 1;
    }
    const w15_group_sig_t *gs = &w15_groups[gt];
    if (gs->first_enum > w15_nenums || gs->nenums > w15_nenums - gs->first_enum)
        return 0;
    uint64_t rest = value;
    int first = 1;
    for (uint32_t i = 0; i < gs->nenums && rest; i++) {
        const w15_enum_sig_t *e = &w15_enums[gs->first_enum + i];
        uint64_t ev = e->value;
        if (ev == 0 || (ev & (ev - 1)) != 0 || !(rest & ev))
            continue;
        if (!first)
            sb_add(&sb, " | ");
        sb_add(&sb, w15_str(e->name));
        first = 0;
        rest &= ~ev;
    }
    if (rest) {
        if (!first)
            sb_add(&sb, " | ");
        snprintf(hx, sizeof hx, "0x%" PRIx64, rest);
        sb_add(&sb, hx);
    }
    return 1;
#else
    (void)value;
    (void)hx;
    return 0;
#endif
}

/* ------------------------------------------------------------------ */
/* Attribute lists                                                     */

uint32_t w15t_attrib_api(w15t_trace_t *t, const w15_call_t *c, uint32_t arg)
{
#ifdef W15_HAVE_APITABLE
    const w15t_fninfo_t *fi = w15t_fninfo(t, c->func);
    if (fi->table < 0 || arg >= c->func->nargs)
        return 0;
    const w15_func_sig_t *fs = &w15_funcs[fi->table];
    if (fs->nparams != c->func->nargs)
        return 0; /* the trace's declaration is not this build's */
    const w15_param_sig_t *ps = &w15_params[fs->first_param + arg];
    const w15_value_t *v = &c->args[arg];
    /* glXChooseVisual's list has keys without values, so its length is a
     * helper's business; it is an attribute list all the same */
    int visual = arg == 2 && strcmp(c->func->name, "glXChooseVisual") == 0;
    if ((ps->len_op != W15_LEN_TERMINATED && !visual) || !v->type.is_array || v->type.has_group ||
        (v->type.base != W15_INT && v->type.base != W15_UINT))
        return 0;
    return fs->api & (W15_API_EGL | W15_API_GLX);
#else
    (void)t;
    (void)c;
    (void)arg;
    return 0;
#endif
}

#ifdef W15_HAVE_APITABLE
/* GLX error codes share the small values of the attribute tokens. */
static int is_error_name(const char *n)
{
    return strncmp(n, "GLX_BAD_", 8) == 0 || strcmp(n, "GLX_NO_EXTENSION") == 0;
}

/* Name of attribute key `value` among the enumerants defined for `api`
 * only (not an error code). */
static const char *api_enum_name(uint64_t value, uint32_t api)
{
    uint32_t lo = w15_enum_lower_bound(w15_all_enums, w15_nall_enums, value);
    for (; lo < w15_nall_enums && w15_all_enums[lo].value == value; lo++)
        if ((w15_all_enums[lo].api & api) && !is_error_name(w15_str(w15_all_enums[lo].name)))
            return w15_str(w15_all_enums[lo].name);
    return NULL;
}
#endif

void w15t_print_attribs(const w15_value_t *v, uint32_t api, const char *func,
                        const w15t_print_opts_t *o)
{
    uint32_t n = v->count;
    uint32_t shown = (!o->full && n > o->max_inline) ? o->head : n;
    /* glXChooseVisual's boolean attributes stand alone, without a value */
    int visual = func && strcmp(func, "glXChooseVisual") == 0;
    int key = 1;
    w15t_putc('{');
    for (uint32_t i = 0; i < shown && !w15t_out_stopped(); i++) {
        uint64_t x = v->type.base == W15_INT ? (uint64_t)v->v.i[i] : v->v.u[i];
        const char *name = NULL;
        if (i)
            w15t_puts(", ");
#ifdef W15_HAVE_APITABLE
        if (key && x != 0)
            name = api_enum_name(x, api);
#else
        (void)api;
#endif
        if (name)
            w15t_puts(name);
        else if (v->type.base == W15_INT)
            w15t_put_i64(v->v.i[i]);
        else
            w15t_put_u64(x);
        if (key && visual && (x == 1 || x == 4 || x == 5 || x == 6))
            continue; /* GLX_USE_GL, GLX_RGBA, GLX_DOUBLEBUFFER, GLX_STEREO */
        key = !key;
    }
    if (shown < n)
        w15t_printf("%s... (%" PRIu32 " elements)", shown ? ", " : "", n);
    w15t_putc('}');
}

/* ------------------------------------------------------------------ */
/* Value printing                                                      */

void w15t_print_opts_default(w15t_print_opts_t *o)
{
    o->full = 0;
    o->max_inline = 16;
    o->head = 8;
    o->blob_head = 4;
}

static const char *comp_lname(unsigned m)
{
    switch (m) {
    case W15_COMP_NONE: return "none";
    case W15_COMP_ZLIB: return "zlib";
    case W15_COMP_LZ4: return "lz4";
    default: return NULL;
    }
}

static void set_blob_err(w15t_trace_t *t, const w15_blob_t *b, w15_error_t *dst,
                         const w15_error_t *src)
{
    if (!dst)
        return;
    *dst = *src;
    if (!dst->msg[0])
        snprintf(dst->msg, sizeof dst->msg, "%s: byte %" PRIu64 ": %s", t->path, b->offset,
                 w15_errcode_message(src->code));
}

/* Leading bytes of a blob (decompressing it); NULL on a corrupt blob. */
static const uint8_t *blob_bytes(w15t_trace_t *t, const w15_blob_t *b, int *bad, w15_error_t *err)
{
    if (b->size == 0)
        return (const uint8_t *)"";
    if (b->method == W15_COMP_NONE && b->csize == b->size)
        return b->cdata;
    w15_error_t e;
    memset(&e, 0, sizeof e);
    const uint8_t *d = w15_reader_blob(t->r, b, &e);
    if (!d) {
        *bad = 1;
        set_blob_err(t, b, err, &e);
    }
    return d;
}

static void print_blob(w15t_trace_t *t, const w15_blob_t *b, const w15t_print_opts_t *o, int *bad,
                       w15_error_t *err)
{
    w15t_printf("<data %" PRIu32 " bytes", b->size);
    if (b->method != W15_COMP_NONE) {
        const char *m = comp_lname(b->method);
        if (m)
            w15t_printf(", %s %" PRIu32, m, b->csize);
        else
            w15t_printf(", method %u %" PRIu32, b->method, b->csize);
    }
    if (b->size) {
        const uint8_t *d = blob_bytes(t, b, bad, err);
        if (!d) {
            w15t_puts(", corrupt>");
            return;
        }
        uint32_t n = b->size < o->blob_head ? b->size : o->blob_head;
        w15t_putc(',');
        for (uint32_t i = 0; i < n; i++) {
            char hx[3] = {' ', hexd[d[i] >> 4], hexd[d[i] & 15]};
            w15t_write(hx, 3);
        }
        if (n < b->size)
            w15t_puts(" ...");
    }
    w15t_putc('>');
}

static void print_elem(w15t_trace_t *t, const w15_value_t *v, uint32_t i, const w15t_print_opts_t *o,
                       int *bad, w15_error_t *err)
{
    char fb[40];
    char eb[1024];
    switch (v->type.base) {
    case W15_UINT:
    case W15_INT: {
        uint64_t u = v->type.base == W15_UINT ? v->v.u[i] : (uint64_t)v->v.i[i];
        if (v->type.has_group && w15t_enum_text(t, v->group, u, eb, sizeof eb)) {
            w15t_puts(eb);
        } else if (v->type.base == W15_UINT) {
            w15t_put_u64(u);
        } else {
            w15t_put_i64(v->v.i[i]);
        }
        break;
    }
    case W15_PTR:
        if (v->type.has_group && w15t_enum_text(t, v->group, v->v.u[i], eb, sizeof eb))
            w15t_puts(eb);
        else if (v->v.u[i] == 0)
            w15t_puts("NULL");
        else
            w15t_put_hex(v->v.u[i]);
        break;
    case W15_BOOL:
        if (v->v.b[i] <= 1)
            w15t_puts(v->v.b[i] ? "true" : "false");
        else
            w15t_printf("%u", v->v.b[i]);
        break;
    case W15_FLOAT:
        w15t_puts(w15t_fmt_float(fb, v->v.f[i]));
        break;
    case W15_DOUBLE:
        w15t_puts(w15t_fmt_double(fb, v->v.d[i]));
        break;
    case W15_STRING:
        w15t_put_cstring(v->v.s[i].ptr, v->v.s[i].len);
        break;
    case W15_DATA:
        print_blob(t, &v->v.data[i], o, bad, err);
        break;
    case W15_FUNCPTR:
        w15t_puts("<funcptr>");
        break;
    default:
        w15t_puts("void");
        break;
    }
}

void w15t_print_value(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o, int *bad,
                      w15_error_t *err)
{
    if (!v->type.is_array) {
        if (v->type.base == W15_VOID || v->count == 0)
            w15t_puts(v->type.base == W15_FUNCPTR ? "<funcptr>" : "void");
        else
            print_elem(t, v, 0, o, bad, err);
        return;
    }
    uint32_t n = v->count;
    uint32_t shown = n;
    if (!o->full && n > o->max_inline)
        shown = o->head;
    w15t_putc('{');
    if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR) {
        w15t_printf("%" PRIu32 " elements}", n);
        return;
    }
    for (uint32_t i = 0; i < shown && !w15t_out_stopped(); i++) {
        if (i)
            w15t_puts(", ");
        print_elem(t, v, i, o, bad, err);
    }
    if (shown < n)
        w15t_printf("%s... (%" PRIu32 " elements)", shown ? ", " : "", n);
    w15t_putc('}');
}

/* JSON */

static void jprint_blob(w15t_trace_t *t, const w15_blob_t *b, const w15t_print_opts_t *o, int *bad,
                        w15_error_t *err)
{
    const char *m = comp_lname(b->method);
    w15t_printf("{\"size\":%" PRIu32 ",\"method\":", b->size);
    if (m)
        w15t_printf("\"%s\"", m);
    else
        w15t_printf("%u", b->method);
    w15t_printf(",\"stored\":%" PRIu32, b->csize);
    const uint8_t *d = b->size ? blob_bytes(t, b, bad, err) : (const uint8_t *)"";
    if (!d) {
        w15t_puts(",\"corrupt\":true}");
        return;
    }
    uint32_t n = b->size < o->blob_head ? b->size : o->blob_head;
    w15t_puts(",\"head\":\"");
    for (uint32_t i = 0; i < n; i++) {
        char hx[2] = {hexd[d[i] >> 4], hexd[d[i] & 15]};
        w15t_write(hx, 2);
    }
    w15t_puts("\"}");
}

static void jprint_named(uint64_t value, int is_signed, const char *name)
{
    if (is_signed)
        w15t_printf("{\"value\":%" PRId64 ",\"name\":", (int64_t)value);
    else
        w15t_printf("{\"value\":%" PRIu64 ",\"name\":", value);
    w15t_put_jstr(name);
    w15t_putc('}');
}

int w15t_print_pname_value(w15t_trace_t *t, const w15_call_t *c, uint32_t i, int json)
{
#ifdef W15_HAVE_APITABLE
    if (i == 0 || i >= c->func->nargs)
        return 0;
    const w15_value_t *pn = &c->args[i - 1], *v = &c->args[i];
    if (pn->type.is_array || !pn->type.has_group || pn->type.base != W15_UINT || pn->count != 1 ||
        v->type.is_array || v->type.has_group || v->count != 1)
        return 0;
    const w15_group_t *g = w15_reader_group(t->r, pn->group);
    if (!g || g->type != W15_GROUP_ENUM || pn->v.u[0] > UINT32_MAX ||
        !(w15_pname_flags((uint32_t)pn->v.u[0]) & W15_PNAME_ENUM_VALUED))
        return 0;
    uint64_t value;
    int is_signed = 0;
    switch (v->type.base) {
    case W15_UINT:
        value = v->v.u[0];
        break;
    case W15_INT:
        if (v->v.i[0] < 0)
            return 0;
        value = (uint64_t)v->v.i[0];
        is_signed = 1;
        break;
    case W15_FLOAT: /* glTexParameterf(t, GL_TEXTURE_MIN_FILTER, 9728.0f) */
        if (!(v->v.f[0] >= 0 && v->v.f[0] < 4294967296.0f) || v->v.f[0] != (float)(uint32_t)v->v.f[0])
            return 0;
        value = (uint32_t)v->v.f[0];
        break;
    default:
        return 0;
    }
    const char *name = w15_enum_name(W15_NO_GROUP, value, 0);
    if (!name)
        return 0;
    if (json)
        jprint_named(value, is_signed, name);
    else
        w15t_puts(name);
    return 1;
#else
    (void)t; (void)c; (void)i; (void)json;
    return 0;
#endif
}

static void jprint_elem(w15t_trace_t *t, const w15_value_t *v, uint32_t i,
                        const w15t_print_opts_t *o, int *bad, w15_error_t *err)
{
    char fb[40];
    char eb[1024];
    switch (v->type.base) {
    case W15_UINT:
    case W15_INT: {
        int sgn = v->type.base == W15_INT;
        uint64_t u = sgn ? (uint64_t)v->v.i[i] : v->v.u[i];
        if (v->type.has_group && w15t_enum_text(t, v->group, u, eb, sizeof eb))
            jprint_named(u, sgn, eb);
        else if (sgn)
            w15t_put_i64(v->v.i[i]);
        else
            w15t_put_u64(u);
        break;
    }
    case W15_PTR:
        if (v->type.has_group && w15t_enum_text(t, v->group, v->v.u[i], eb, sizeof eb))
            jprint_named(v->v.u[i], 0, eb);
        else if (v->v.u[i] == 0)
            w15t_puts("null");
        else
            w15t_printf("\"0x%" PRIx64 "\"", v->v.u[i]);
        break;
    case W15_BOOL:
        if (v->v.b[i] <= 1)
            w15t_puts(v->v.b[i] ? "true" : "false");
        else
            w15t_printf("%u", v->v.b[i]);
        break;
    case W15_FLOAT:
    case W15_DOUBLE:
        if (v->type.base == W15_FLOAT)
            w15t_fmt_float(fb, v->v.f[i]);
        else
            w15t_fmt_double(fb, v->v.d[i]);
        if (fb[0] == 'n' || fb[0] == 'i' || (fb[0] == '-' && (fb[1] == 'n' || fb[1] == 'i')))
            w15t_put_jstr(fb); /* JSON has no NaN or infinity: "nan", "-inf" */
        else
            w15t_puts(fb);
        break;
    case W15_STRING:
        w15t_put_jstring(v->v.s[i].ptr, v->v.s[i].len);
        break;
    case W15_DATA:
        jprint_blob(t, &v->v.data[i], o, bad, err);
        break;
    default:
        w15t_puts("null");
        break;
    }
}

void w15t_print_value_json(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o,
                           int *bad, w15_error_t *err)
{
    if (!v->type.is_array) {
        if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR || v->count == 0)
            w15t_puts("null");
        else
            jprint_elem(t, v, 0, o, bad, err);
        return;
    }
    w15t_putc('[');
    for (uint32_t i = 0; i < v->count && !w15t_out_stopped(); i++) {
        if (i)
            w15t_putc(',');
        if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR)
            w15t_puts("null");
        else
            jprint_elem(t, v, i, o, bad, err);
    }
    w15t_putc(']');
}

const char *w15t_version_name(unsigned v)
{
    switch (v) {
    case W15_VERSION_0_0: return "0.0";
    case W15_VERSION_0_0A: return "0.0a";
    default: return "?";
    }
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

int w15t_parse_u64(const char *s, uint64_t *v)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

int w15t_parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
    const char *dash = strchr(s, '-');
    if (!dash)
        return w15t_parse_u64(s, lo) == 0 ? (*hi = *lo, 0) : -1;
    char a[32], b[32];
    size_t la = (size_t)(dash - s), lb = strlen(dash + 1);
    if (la >= sizeof a || lb >= sizeof b || (la == 0 && lb == 0))
        return -1;
    memcpy(a, s, la);
    a[la] = 0;
    memcpy(b, dash + 1, lb + 1);
    *lo = 0;
    *hi = UINT64_MAX;
    if (la && w15t_parse_u64(a, lo) < 0)
        return -1;
    if (lb && w15t_parse_u64(b, hi) < 0)
        return -1;
    return *lo <= *hi ? 0 : -1;
}
