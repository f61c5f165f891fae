/* fhash_avx2.c -- w15_fhash_update for CPUs with AVX2 (fhash.c calls it
 * only on those).  Built with -mavx2 (src/tracer/CMakeLists.txt), on
 * x86-64 only.  Part of fhash.  May use nothing of the tracer.  Must
 * never use anything else of it. */
#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <stddef.h>
#include <xxhash.h>

void w15_fhash_update_avx2(void *st, const void *p, size_t n);
uint64_t w15_fhash_bytes_avx2(const void *p, size_t n);

void w15_fhash_update_avx2(void *st, const void *p, size_t n)
{
    XXH3_64bits_update((XXH3_state_t *)st, p, n);
}

uint64_t w15_fhash_bytes_avx2(const void *p, size_t n)
{
    return XXH3_64bits(p, n);
}
