/* burst.h -- the words of tapp's "burst" uploads (tapp.c writes them,
 * tcheck.c checks them): upload I, word K.  Vertex-like 32-byte records
 * (a counter, 20 constant bytes, two pseudo-random words): zstd -4 about
 * 2x, every 2 KiB sample compressible, different in every upload. */
#ifndef W15_TEST_BURST_H
#define W15_TEST_BURST_H
#include <stdint.h>
#define W15_BURST_HASH_(i, k) (((uint32_t)(i) * 2654435761u) ^ ((uint32_t)(k) * 40503u + 0x9e3779b9u))
#define W15_BURST_WORD(i, k)                                                     \
    (((k) & 7) == 0   ? ((uint32_t)(k) >> 3) + (uint32_t)(i)                     \
     : ((k) & 7) == 2 || ((k) & 7) == 3 ? 0x3f800000u                             \
     : ((k) & 7) >= 6 ? W15_BURST_HASH_(i, k) * 2246822519u                       \
                      : 0u)
#endif
