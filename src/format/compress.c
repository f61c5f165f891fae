/* compress.c -- blob compression (LZ4 block, zlib) for the writer and
 * checked decompression for the reader. */
#include "internal.h"

#include <limits.h>
#include <lz4.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct w15_compressor {
    w15_comp_t method;
    int zlib_ready;
    z_stream zs;
    void *lz4_state; /* LZ4_sizeofState() bytes, reused for every blob */
};

w15_compressor_t *w15_compressor_new(w15_comp_t method, int level)
{
    w15_compressor_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->method = method;
    if (method == W15_COMP_LZ4) {
        c->lz4_state = malloc((size_t)LZ4_sizeofState());
        if (!c->lz4_state) {
            free(c);
            return NULL;
        }
    } else if (method == W15_COMP_ZLIB) {
        if (level < 1 || level > 9)
            level = 6;
        if (deflateInit(&c->zs, level) != Z_OK) {
            free(c);
            return NULL;
        }
        c->zlib_ready = 1;
    }
    return c;
}

void w15_compressor_free(w15_compressor_t *c)
{
    if (!c)
        return;
    if (c->zlib_ready)
        deflateEnd(&c->zs);
    free(c->lz4_state);
    free(c);
}

size_t w15_compress_bound(const w15_compressor_t *c, size_t n)
{
    switch (c->method) {
    case W15_COMP_LZ4:
        return n <= LZ4_MAX_INPUT_SIZE ? (size_t)LZ4_compressBound((int)n) : 0;
    case W15_COMP_ZLIB:
        return n <= UINT32_MAX ? (size_t)deflateBound((z_stream *)&c->zs, (uLong)n) : 0;
    default:
        return 0;
    }
}

size_t w15_compress(w15_compressor_t *c, const void *src, size_t n, void *dst, size_t cap)
{
    size_t out = 0;
    if (c->method == W15_COMP_LZ4) {
        if (n > LZ4_MAX_INPUT_SIZE)
            return 0;
        int dcap = cap > INT_MAX ? INT_MAX : (int)cap;
        int r = LZ4_compress_fast_extState(c->lz4_state, src, dst, (int)n, dcap, 1);
        out = r > 0 ? (size_t)r : 0;
    } else if (c->method == W15_COMP_ZLIB) {
        if (n > UINT32_MAX || deflateReset(&c->zs) != Z_OK)
            return 0;
        c->zs.next_in = (Bytef *)(uintptr_t)src;
        c->zs.avail_in = (uInt)n;
        c->zs.next_out = dst;
        c->zs.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
        if (deflate(&c->zs, Z_FINISH) != Z_STREAM_END)
            return 0;
        out = (size_t)c->zs.total_out;
    }
    return out < n ? out : 0;
}

/* The probe: four 2 KiB slices, one from the middle of each quarter of the
 * blob, compressed together; they must shrink by 1/256 or more.  (On the
 * 253 64 KiB tiles of glmark2-data's textures, all of which LZ4
 * compresses, four 1 KiB slices that had to shrink by 1/32 missed 17.) */
#define PROBE_MIN (32u << 10)
#define PROBE_SLICE 2048u

int w15_compress_probe(w15_compressor_t *c, const void *src, size_t n)
{
    if (c->method != W15_COMP_LZ4 || n < PROBE_MIN)
        return 1;
    char sample[4 * PROBE_SLICE], out[4 * PROBE_SLICE];
    size_t q = n / 4;
    for (size_t i = 0; i < 4; i++)
        memcpy(sample + i * PROBE_SLICE, (const char *)src + i * q + (q - PROBE_SLICE) / 2, PROBE_SLICE);
    int cap = (int)(sizeof sample - sizeof sample / 256);
    return LZ4_compress_fast_extState(c->lz4_state, sample, out, (int)sizeof sample, cap, 1) > 0;
}

uint64_t w15_max_expansion(unsigned method, uint32_t csize)
{
    switch (method) {
    case W15_COMP_NONE: return csize;
    case W15_COMP_ZLIB: return (uint64_t)csize * 1032 + 1024;
    case W15_COMP_LZ4: return (uint64_t)csize * 255 + 64;
    default: return 0;
    }
}

int w15_decompress(unsigned method, const uint8_t *src, uint32_t csize, uint8_t *dst, uint32_t size,
                   const char **why)
{
    switch (method) {
    case W15_COMP_NONE:
        if (csize != size) {
            *why = "stored size differs from size";
            return -1;
        }
        return 0;
    case W15_COMP_ZLIB: {
        uLongf dlen = size;
        uLong slen = csize;
        int r = uncompress2(dst, &dlen, src, &slen);
        if (r != Z_OK) {
            *why = r == Z_BUF_ERROR ? "zlib stream that does not end at the stated size"
                                    : "invalid or incomplete zlib stream";
            return -1;
        }
        if (dlen != size) {
            *why = "zlib stream decompresses to fewer bytes";
            return -1;
        }
        if (slen != csize) {
            *why = "bytes left over after the zlib stream";
            return -1;
        }
        return 0;
    }
    case W15_COMP_LZ4: {
        if (csize > INT_MAX || size > LZ4_MAX_INPUT_SIZE) {
            *why = "sizes beyond what an LZ4 block can hold";
            return -1;
        }
        int r = LZ4_decompress_safe((const char *)src, (char *)dst, (int)csize, (int)size);
        if (r < 0) {
            *why = "invalid LZ4 block (or one that decompresses to more bytes)";
            return -1;
        }
        if ((uint32_t)r != size) {
            *why = "LZ4 block decompresses to fewer bytes";
            return -1;
        }
        return 0;
    }
    default:
        *why = "unknown compression method";
        return -1;
    }
}
