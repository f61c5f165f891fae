/* arena.c -- per-call scratch memory of an executor.
 *
 * Owns: rp_arena_t.  One block that grows to the largest call seen (so a
 * replay in steady state allocates nothing per call); a call larger than
 * the block gets blocks of its own, freed at the reset.
 * May use: libc.  Must never: call GL.
 */
#include <stdlib.h>

#include "rp.h"

#define FIRST_CAP (64u << 10)

void *rp_arena_alloc(rp_arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->base) {
        a->base = aligned_alloc(16, FIRST_CAP);
        if (!a->base)
            return NULL;
        a->cap = FIRST_CAP;
    }
    if (a->cap - a->used >= n) {
        void *p = a->base + a->used;
        a->used += n;
        return p;
    }
    if (a->nbig == a->bigcap) {
        size_t c = a->bigcap ? a->bigcap * 2 : 8;
        uint8_t **b = realloc(a->big, c * sizeof *b);
        if (!b)
            return NULL;
        a->big = b, a->bigcap = c;
    }
    uint8_t *p = aligned_alloc(16, n ? n : 16);
    if (!p)
        return NULL;
    a->big[a->nbig++] = p;
    return p;
}

void rp_arena_reset(rp_arena_t *a)
{
    if (a->nbig) {
        size_t want = a->cap;
        for (size_t i = 0; i < a->nbig; i++)
            free(a->big[i]);
        a->nbig = 0;
        /* grow the main block so that such a call fits next time */
        while (want < (64u << 20) && want < a->used * 2 + (1u << 20))
            want *= 2;
        if (want != a->cap) {
            uint8_t *nb = aligned_alloc(16, want);
            if (nb) {
                free(a->base);
                a->base = nb, a->cap = want;
            }
        }
    }
    a->used = 0;
}

void rp_arena_free(rp_arena_t *a)
{
    rp_arena_reset(a);
    free(a->base);
    free(a->big);
    a->base = NULL, a->big = NULL, a->cap = a->used = 0, a->bigcap = 0;
}
