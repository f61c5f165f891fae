/* internal.h -- shared by the files of libwip15format; not installed. */
#ifndef W15_FORMAT_INTERNAL_H
#define W15_FORMAT_INTERNAL_H

#include "wip15/format.h"

#include <stdarg.h>

#define W15_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Set `err` (may be NULL): code, offset and a printf-formatted message. */
void w15_set_error(w15_error_t *err, w15_errcode_t code, uint64_t offset, const char *fmt, ...)
    W15_PRINTF(4, 5);

/* Little-endian loads from unaligned memory. */
static inline uint32_t w15_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t w15_le64(const uint8_t *p)
{
    return (uint64_t)w15_le32(p) | (uint64_t)w15_le32(p + 4) << 32;
}

/* The LZ4 frame dictionary ID that marks a data frame (bytes "W15D"):
 * writer.c writes large blobs in such frames, reader.c treats a compressed
 * stream whose last frame is one as cut (docs/FORMAT.md "Compressed
 * stream"). */
#define W15_DATA_FRAME_ID 0x44353157u

/* ---- compress.c: blob compression ---------------------------------- */

/* Compression state kept by a writer so that each blob does not pay for
 * allocating and initialising the compressor. */
typedef struct w15_compressor w15_compressor_t;

/* Create for `method` (zlib `level` 1..9).  NULL when out of memory. */
w15_compressor_t *w15_compressor_new(w15_comp_t method, int level);
void w15_compressor_free(w15_compressor_t *c);
/* Worst-case output size for `n` input bytes; 0 when `n` cannot be
 * compressed with this method (over LZ4's 2 GB input limit). */
size_t w15_compress_bound(const w15_compressor_t *c, size_t n);
/* Compress `n` bytes into `dst` (capacity `cap` >= the bound).  Returns the
 * compressed size, or 0 when compression failed or did not shrink the data
 * (the caller then stores the blob raw). */
size_t w15_compress(w15_compressor_t *c, const void *src, size_t n, void *dst, size_t cap);

/* A cheap guess whether `n` bytes at `src` are worth compressing: 0 when an
 * 8 KiB sample of them (LZ4 only, blobs of 32 KiB or more) does not shrink
 * by 1/256; 1 otherwise (then w15_compress decides). */
int w15_compress_probe(w15_compressor_t *c, const void *src, size_t n);

/* Largest decompressed size a compressed blob of `csize` bytes can have with
 * `method` (LZ4 < 255:1, deflate < 1032:1, plus slack). */
uint64_t w15_max_expansion(unsigned method, uint32_t csize);
/* Decompress exactly `size` bytes.  Returns 0, or -1 with a short reason
 * (static string) in *why. */
int w15_decompress(unsigned method, const uint8_t *src, uint32_t csize, uint8_t *dst, uint32_t size,
                   const char **why);

#endif
