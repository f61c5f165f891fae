/* app_common.h -- helpers shared by the wip15 end-to-end test programs.
 *
 * Every program defines APP_NAME before including this file, prints one
 * result line "APP_NAME: ok ..." on stdout and exits 0 when GL behaved as
 * expected, or prints "APP_NAME: FAIL ..." on stderr and exits 1.
 * Everything here is static: each program is one translation unit.
 *
 * The programs must be deterministic: the same calls with the same
 * arguments in the same order on every run, so that their trace dumps can
 * be compared with golden files (tests/apps/expected/).
 */
#ifndef W15_APP_COMMON_H
#define W15_APP_COMMON_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef APP_NAME
#error "define APP_NAME before including app_common.h"
#endif

/* Prints "APP_NAME: FAIL <message>" on stderr and exits 1. */
static inline void __attribute__((noreturn, format(printf, 1, 2))) app_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: FAIL ", APP_NAME);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

#define APP_CHECK(cond, ...)                                                   \
    do {                                                                       \
        if (!(cond))                                                           \
            app_fail(__VA_ARGS__);                                             \
    } while (0)

/* Pixel comparison with a tolerance per channel (llvmpipe rounds). */
static inline int app_near(const unsigned char *px, int r, int g, int b, int tol)
{
    return abs(px[0] - r) <= tol && abs(px[1] - g) <= tol && abs(px[2] - b) <= tol;
}

/* A deterministic texture: RGBA8 checker with a per-texel gradient. */
static inline void app_fill_texture(unsigned char *dst, int w, int h, int stride_px, int seed)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            unsigned char *p = dst + ((size_t)y * (size_t)stride_px + (size_t)x) * 4;
            int on = ((x / 4) + (y / 4) + seed) & 1;
            p[0] = (unsigned char)(on ? 255 : x * 255 / (w > 1 ? w - 1 : 1));
            p[1] = (unsigned char)(on ? 255 : y * 255 / (h > 1 ? h - 1 : 1));
            p[2] = (unsigned char)(seed * 37);
            p[3] = 255;
        }
    }
}

#endif
