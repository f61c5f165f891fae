/* quote.c -- C and JSON string literals, hex bytes (see quote.h). */
#include "quote.h"

#include <string.h>

#include "out.h"

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

void w15t_put_hexbytes(const uint8_t *p, size_t n, char sep)
{
    for (size_t i = 0; i < n; i++) {
        char hx[3] = {sep, hexd[p[i] >> 4], hexd[p[i] & 15]};
        if (sep)
            w15t_write(hx, 3);
        else
            w15t_write(hx + 1, 2);
    }
}
