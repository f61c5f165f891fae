/* number.c -- shortest round-trip spelling of floats and doubles (see
 * number.h). */
#include "number.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
