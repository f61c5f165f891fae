/* bytes.h -- a byte builder for assembling WIP15 files by hand in the format
 * tests (independent of the writer); the checks are tests/check.h. */
#ifndef W15_TEST_BYTES_H
#define W15_TEST_BYTES_H

#include "check.h"
#include "wip15/format.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- byte builder --------------------------------------------------- */

typedef struct bb {
    uint8_t *p;
    size_t n, cap;
} bb_t;

static inline void bb_raw(bb_t *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}
static inline void bb_u8(bb_t *b, uint8_t v) { bb_raw(b, &v, 1); }
/* a list of literal bytes */
#define BB(b, ...)                                                                                 \
    do {                                                                                           \
        const uint8_t x_[] = {__VA_ARGS__};                                                        \
        bb_raw((b), x_, sizeof x_);                                                                \
    } while (0)
static inline void bb_u32(bb_t *b, uint32_t v)
{
    BB(b, (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24));
}
static inline void bb_str(bb_t *b, const char *s)
{
    bb_u32(b, (uint32_t)strlen(s));
    bb_raw(b, s, strlen(s));
}
/* header of version 0.0 / 0.0a */
static inline void bb_header00(bb_t *b, uint32_t maxf, uint32_t maxg)
{
    bb_raw(b, "WIP15_", 6);
    BB(b, 0, 0);
    bb_u32(b, maxf);
    bb_u32(b, maxg);
}
static inline void bb_header00a(bb_t *b, uint32_t maxf, uint32_t maxg)
{
    bb_raw(b, "WIP15_0.0a            ", 22);
    bb_u32(b, maxf);
    bb_u32(b, maxg);
}
/* OpDeclFunc with `nargs` types given as base,has_group,is_array triples */
static inline void bb_declfunc(bb_t *b, uint32_t idx, const char *name, const uint8_t res[3],
                               uint32_t nargs, const uint8_t (*args)[3])
{
    bb_u8(b, 0);
    bb_u32(b, idx);
    bb_str(b, name);
    bb_raw(b, res, 3);
    bb_u32(b, nargs);
    for (uint32_t i = 0; i < nargs; i++)
        bb_raw(b, args[i], 3);
}

#endif
