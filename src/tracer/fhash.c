/* fhash.c -- fhash.h.  XXH3 from Debian's libxxhash header (inlined:
 * libwip15.so links no libxxhash); fhash_avx2.c is the same update
 * compiled for AVX2, chosen at run time (the digest does not depend on the
 * vector width: XXH3 is defined on 64-bit lanes). */
#include "fhash.h"
#include "wip15/cpu.h"

#include <stdlib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

struct w15_fhash {
    XXH3_state_t st;
};

#ifdef W15_FHASH_AVX2
void w15_fhash_update_avx2(void *st, const void *p, size_t n);
uint64_t w15_fhash_bytes_avx2(const void *p, size_t n);

static int have_avx2(void)
{
    static int avx2 = -1;
    if (avx2 < 0)
        avx2 = w15_cpu_avx2();
    return avx2;
}
#endif

w15_fhash_t *w15_fhash_new(void)
{
    w15_fhash_t *h = NULL;
    if (posix_memalign((void **)&h, 64, sizeof *h))
        return NULL;
    XXH3_INITSTATE(&h->st);
    XXH3_64bits_reset(&h->st);
    return h;
}

void w15_fhash_free(w15_fhash_t *h)
{
    free(h);
}

void w15_fhash_reset(w15_fhash_t *h)
{
    XXH3_64bits_reset(&h->st);
}

void w15_fhash_update(w15_fhash_t *h, const void *p, size_t n)
{
#ifdef W15_FHASH_AVX2
    if (have_avx2()) {
        w15_fhash_update_avx2(&h->st, p, n);
        return;
    }
#endif
    XXH3_64bits_update(&h->st, p, n);
}

uint64_t w15_fhash_bytes(const void *p, size_t n)
{
#ifdef W15_FHASH_AVX2
    /* below XXH3's 240-byte threshold it has no vector loop */
    if (n > 240 && have_avx2())
        return w15_fhash_bytes_avx2(p, n);
#endif
    return XXH3_64bits(p, n);
}

uint64_t w15_fhash_digest(const w15_fhash_t *h)
{
    return XXH3_64bits_digest(&h->st);
}
