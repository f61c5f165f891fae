/* spans_hash.h -- the XXH3-64 (seed 0) of the rows a read-back digest
 * covers (docs/FORMAT.md "wip15.spans"): `rows` rows of `span` bytes per
 * image, `images` images, the first row at p + first, the next ones
 * row_stride apart, images image_stride apart, hashed in that order as one
 * stream (one row: the same as XXH3_64bits of its bytes).  The tracer's
 * digests of bytes it holds and `wip15 replay --check` both hash with it,
 * so they hash the same bytes the same way.  Uses <xxhash.h> (define
 * XXH_INLINE_ALL before including this to have XXH3 inlined). */
#ifndef W15_SPANS_HASH_H
#define W15_SPANS_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <xxhash.h>

static inline uint64_t w15_rows_xxh3(const void *p, uint64_t first, uint64_t span, uint32_t rows,
                                     uint64_t row_stride, uint32_t images, uint64_t image_stride)
{
    const uint8_t *b = (const uint8_t *)p + first;
    if (rows == 1 && images == 1)
        return XXH3_64bits(b, (size_t)span);
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    for (uint32_t i = 0; i < images; i++)
        for (uint32_t r = 0; r < rows; r++)
            XXH3_64bits_update(&st, b + i * image_stride + r * row_stride, (size_t)span);
    return XXH3_64bits_digest(&st);
}

#endif
