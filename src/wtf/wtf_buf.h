/* wtf_buf.h -- the growable byte buffer both sides of src/wtf build their
 * output in: the in-process emitter (JSON strings, event and string-table
 * chunks) and the offline writer (a whole .wtf-trace image).
 *
 * Owns: nothing but this helper (header-only, so the emitter and the
 * offline code still never include each other).  May use: libc. */
#ifndef W15_WTF_BUF_H
#define W15_WTF_BUF_H

#include <stdlib.h>
#include <string.h>

typedef struct w15_wtf_buf {
    char *p;      /* malloc'd; NUL-terminated after its n bytes once any were added */
    size_t n, cap;
    int oom;      /* an allocation failed: later bytes are dropped, the caller says so once */
} w15_wtf_buf_t;

/* Append n bytes of s. */
static inline void w15_wtf_buf_add(w15_wtf_buf_t *b, const void *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap * 2 : 256;
        while (c < b->n + n + 1)
            c *= 2;
        char *q = realloc(b->p, c);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = c;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

#endif
