/* out.c -- the command's standard output (see out.h). */
#include "out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
