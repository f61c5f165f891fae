/* writer.c -- writes encoded operations to a WIP15 file.
 *
 * Data flow: the caller encodes operations into a w15_buf_t; submit copies
 * the committed part into `out` (the WIP15 stream staging buffer),
 * compressing the blobs on the way; a full `out` goes to the file, through
 * the LZ4 frame compressor when opts.stream_lz4 is set.  There is no system
 * call per submit unless `out` fills.
 *
 * With stream_lz4, a blob of 64 KiB or more that its own compression
 * does not shrink (incompressible data) is written in a *data frame*
 * (docs/FORMAT.md "Compressed stream"): the stream's LZ4 frame is
 * ended before it and a new one begun after it, so its bytes are neither
 * tried a second time nor checksummed nor copied: one writev(2) sends them
 * from the caller's buffer.  Blobs that did shrink go through the stream's
 * compression as well, which shrinks them again (repetitive data 4.5x,
 * images 14 %: docs/PERFORMANCE.md).
 *
 * With stream_zstd the stream goes through zstd frames instead, and an
 * incompressible blob of 64 KiB or more (a zstd probe of a sample does not
 * shrink) goes into a zstd data frame: the compressed frame ends, and a
 * frame of raw blocks carries the blob, sent from the caller's buffer.
 *
 * zstd workers (w15_writer_set_workers): zstd's own multithreaded mode,
 * which compresses jobs of JOB_SIZE in that many threads of its own while
 * the caller feeds it and writes what they produce.  The number changes
 * only between frames: the open frame ends first.  The zstd context
 * allocates through zalloc/zfree: once the crash path has begun, never
 * from malloc (a crash handler must not enter it: the crashed thread may
 * hold its lock) but from `arena`, address space reserved when workers
 * first start (pages are only touched if a crash uses them), and frees
 * nothing (blocks zstd gives back then are kept for writer_free).  zstd's
 * workers need new job buffers when every pooled one is in flight, so
 * the crash path's jobs may allocate. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createCCtx_advanced: zalloc/zfree below */
#include <zstd.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define OUT_CAP (1u << 20)          /* staging buffer */
#define JOB_SIZE (1u << 20)         /* zstd workers: input per job (zstd's default for level -4 is 2 MiB) */
#define ARENA_SIZE ((size_t)256 << 20) /* zstd's allocations in the crash path (reserved, not touched) */
#define SCRATCH_KEEP (16u << 20)    /* larger compression scratch is freed after use */

struct w15_writer {
    int fd;
    char *path;
    w15_writer_opts_t o;
    w15_compressor_t *comp; /* NULL when blobs are stored raw */

    uint8_t *out;
    size_t olen, ocap;
    uint8_t *scratch; /* for blobs whose compressed bound does not fit `out` */
    size_t scap;

    LZ4F_cctx *cctx; /* stream_lz4 only */
    int ended;       /* the crash path ended the frame (w15_writer_crash_end) */
    LZ4F_preferences_t prefs;
    uint8_t *zbuf;
    size_t zcap;
    uint8_t fhead[LZ4F_HEADER_SIZE_MAX]; /* the next stream frame's header */
    int in_df;       /* a data frame is open (the stream's frame has ended);
                        zstd: no compressed frame is open (the last frame
                        written is a data frame, or w15_writer_set_workers
                        ended the frame) */
    int incompressible; /* the last blob tried did not compress: probe the next */
    ZSTD_CCtx *zc;   /* stream_zstd only (then cctx is NULL) */
    ZSTD_CCtx *zprobe; /* stream_zstd: compresses the samples of large blobs */
    int zskip;       /* large blobs still to go before the next probe */
    int workers;     /* zstd: worker threads of the current frame (w15_writer_set_workers) */
    volatile int crashing; /* the crash path has begun: zalloc takes from the arena */
    uint8_t *arena;        /* ARENA_SIZE bytes (MAP_NORESERVE), or NULL */
    _Atomic size_t arena_used;
    void *unfreed[64];     /* malloc'ed blocks zstd freed in the crash path */
    _Atomic int nunfreed;  /* (freed by writer_free, which only tests reach) */

    int failed;
    w15_error_t ferr;
    w15_writer_stats_t st;
};

void w15_writer_opts_default(w15_writer_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->blob_method = W15_COMP_LZ4;
    o->zlib_level = 6;
    o->min_blob = 64;
    o->stream_lz4 = 0;
}

static int fail(w15_writer_t *w, w15_error_t *err, w15_errcode_t code, const char *fmt, ...)
    W15_PRINTF(4, 5);

static int fail(w15_writer_t *w, w15_error_t *err, w15_errcode_t code, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    w15_set_error(&w->ferr, code, w->st.stream_bytes, "%s: %s", w->path, what);
    w->failed = 1;
    if (err)
        *err = w->ferr;
    return -1;
}

/* writev(2) all of iov[0..n) (modified): retries on EINTR and short
 * writes, waits on EAGAIN. */
static int write_iov(w15_writer_t *w, struct iovec *iov, int n, w15_error_t *err)
{
    while (n > 0) {
        if (iov->iov_len == 0) {
            iov++;
            n--;
            continue;
        }
        ssize_t r = writev(w->fd, iov, n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd pfd = {.fd = w->fd, .events = POLLOUT};
                poll(&pfd, 1, -1);
                continue;
            }
            return fail(w, err, W15_E_IO, "cannot write at file byte %llu: %s",
                        (unsigned long long)w->st.file_bytes, strerror(errno));
        }
        if (r == 0)
            return fail(w, err, W15_E_IO, "cannot write at file byte %llu: write returned 0",
                        (unsigned long long)w->st.file_bytes);
        w->st.file_bytes += (uint64_t)r;
        for (size_t k = (size_t)r; k > 0;) {
            size_t t = k < iov->iov_len ? k : iov->iov_len;
            iov->iov_base = (uint8_t *)iov->iov_base + t;
            iov->iov_len -= t;
            k -= t;
            if (iov->iov_len == 0) {
                iov++;
                n--;
            }
        }
    }
    return 0;
}

static int write_all(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    struct iovec v = {(void *)(uintptr_t)p, n};
    return write_iov(w, &v, 1, err);
}

static int end_data_frame(w15_writer_t *w, w15_error_t *err);

/* The zstd context's allocator: malloc, but once the crash path has begun
 * the arena (a lock-free bump: NULL when it is spent or was never made),
 * and no free (the process is dying). */
static void *zalloc(void *opaque, size_t n)
{
    w15_writer_t *w = opaque;
    if (!w->crashing)
        return malloc(n);
    size_t k = (n + 63) & ~(size_t)63, at = atomic_fetch_add(&w->arena_used, k);
    return w->arena && at <= ARENA_SIZE && k <= ARENA_SIZE - at ? w->arena + at : NULL;
}

static void zfree(void *opaque, void *p)
{
    w15_writer_t *w = opaque;
    int in_arena = w->arena && (uint8_t *)p >= w->arena && (uint8_t *)p < w->arena + ARENA_SIZE;
    if (!p || in_arena)
        return;
    if (!w->crashing) {
        free(p);
        return;
    }
    int i = atomic_fetch_add(&w->nunfreed, 1);
    if (i < (int)(sizeof w->unfreed / sizeof w->unfreed[0]))
        w->unfreed[i] = p;
}

/* Bytes p[0..n) into the zstd frame, then (mode ZSTD_e_flush / _end)
 * everything zstd holds out to the file: the current block ended, or the
 * frame with its checksum.  `err` NULL: the crash path (write(2) only;
 * ZSTD_compressStream2 allocates nothing once the frame has begun). */
static int crash_write_fd(int fd, const uint8_t *p, size_t n);

static int zstd_push(w15_writer_t *w, const uint8_t *p, size_t n, ZSTD_EndDirective mode,
                     w15_error_t *err)
{
    ZSTD_inBuffer in = {p, n, 0};
    size_t left;
    do {
        ZSTD_outBuffer o = {w->zbuf, w->zcap, 0};
        left = ZSTD_compressStream2(w->zc, &o, &in, mode);
        if (ZSTD_isError(left))
            return err ? fail(w, err, W15_E_BAD_STREAM, "zstd compression failed: %s",
                              ZSTD_getErrorName(left))
                       : -1;
        if (o.pos && (err ? write_all(w, w->zbuf, o.pos, err) : crash_write_fd(w->fd, w->zbuf, o.pos)) != 0)
            return -1;
    } while (in.pos < in.size || (mode != ZSTD_e_continue && left != 0));
    return 0;
}

/* Send WIP15 stream bytes to the file (through the LZ4 frame, if any; an
 * open data frame ends first). */
static int push_stream(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    if (w->zc) {
        w->in_df = 0; /* a new compressed frame begins after a data frame */
        return zstd_push(w, p, n, ZSTD_e_continue, err);
    }
    if (!w->cctx)
        return write_all(w, p, n, err);
    if (w->in_df && end_data_frame(w, err) != 0)
        return -1;
    while (n > 0) {
        size_t chunk = n < w->ocap ? n : w->ocap;
        size_t r = LZ4F_compressUpdate(w->cctx, w->zbuf, w->zcap, p, chunk, NULL);
        if (LZ4F_isError(r))
            return fail(w, err, W15_E_BAD_STREAM, "LZ4 frame compression failed: %s",
                        LZ4F_getErrorName(r));
        if (r && write_all(w, w->zbuf, r, err) != 0)
            return -1;
        p += chunk;
        n -= chunk;
    }
    return 0;
}

static int drain(w15_writer_t *w, w15_error_t *err)
{
    if (w->olen == 0)
        return 0;
    size_t n = w->olen;
    w->olen = 0;
    return push_stream(w, w->out, n, err);
}

/* Append stream bytes: copied into `out`; large runs bypass it. */
static int out_put(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    w->st.stream_bytes += n;
    if (n <= w->ocap - w->olen) {
        if (n)
            memcpy(w->out + w->olen, p, n);
        w->olen += n;
        return 0;
    }
    if (drain(w, err) != 0)
        return -1;
    if (n >= w->ocap / 2)
        return push_stream(w, p, n, err);
    memcpy(w->out, p, n);
    w->olen = n;
    return 0;
}

/* A raw blob (header and bytes at `p`, n in all) into the stream: with
 * zstd, one of 4 KiB or more goes from the caller's buffer to the
 * compressor (which copies it into its window anyway), not through `out`. */
static int out_put_blob(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    if (!w->zc || n < (4u << 10))
        return out_put(w, p, n, err);
    w->st.stream_bytes += n;
    if (drain(w, err) != 0)
        return -1;
    return push_stream(w, p, n, err);
}

static void put_header(uint8_t *h, uint8_t method, uint32_t size, uint32_t csize)
{
    h[0] = method;
    for (int i = 0; i < 4; i++) {
        h[1 + i] = (uint8_t)(size >> (8 * i));
        h[5 + i] = (uint8_t)(csize >> (8 * i));
    }
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le32(uint8_t *p, uint32_t v)
{
    put_le(p, v, 4);
}

/* A data frame's header (docs/FORMAT.md "Compressed stream"): the LZ4
 * frame magic; FLG 0x61 (version 01, independent blocks, no block or
 * content checksum, a dictionary ID); BD 0x70 (blocks of up to 4 MiB); the
 * dictionary ID W15_DATA_FRAME_ID, "W15D", which marks it; the header
 * checksum byte ((XXH32 of FLG..dictionary ID, seed 0) >> 8 & 0xFF). */
#define DF_BLOCK (4u << 20)
#define ZDF_BLOCK (128u << 10) /* a zstd data frame's raw blocks (zstd's largest) */
#define DF_INLINE 128u /* staged stream bytes that go raw into an open data frame */
/* Smaller incompressible blobs stay in the stream: a repeat of one lies
 * within LZ4's 64 KiB window, which finds it (piglit's
 * texsubimage_array_pbo trace was 7 % larger with them in data frames). */
#define DF_MIN (64u << 10)
#define ZSKIP 15
static const uint8_t df_head[11] = {0x04, 0x22, 0x4D, 0x18, 0x61, 0x70, 'W', '1', '5', 'D', 0xE2};

static const uint8_t endmark[4];

/* End the open data frame: its end mark, then the header of the next
 * stream frame (compressed stream bytes follow). */
static int end_data_frame(w15_writer_t *w, w15_error_t *err)
{
    w->in_df = 0;
    size_t b = LZ4F_compressBegin(w->cctx, w->fhead, sizeof w->fhead, &w->prefs);
    if (LZ4F_isError(b))
        return fail(w, err, W15_E_BAD_STREAM, "cannot start the LZ4 frame: %s", LZ4F_getErrorName(b));
    struct iovec iov[2] = {{(void *)(uintptr_t)endmark, sizeof endmark}, {w->fhead, b}};
    return write_iov(w, iov, 2, err);
}

/* A raw block's header for k bytes: LZ4's 4 bytes (high bit: stored as
 * is) or zstd's 3 (size << 3, block type 0 = raw, the last-block bit).
 * Returns its length. */
static size_t raw_block_header(uint8_t *p, int zstd, size_t k, int last)
{
    if (zstd) {
        put_le(p, (uint64_t)k << 3 | (last ? 1u : 0u), 3);
        return 3;
    }
    put_le32(p, 0x80000000u | (uint32_t)k);
    return 4;
}

/* The rest of a data frame holding one incompressible blob, after
 * lead[0..nlead) (which ends with the first block's header, for `blk`
 * bytes): the `pre` staged stream bytes, the blob's header `hdr` and its
 * bytes pay[0..plen), in raw blocks of the frame's largest size (LZ4's
 * DF_BLOCK, zstd's ZDF_BLOCK).  One writev per
 * 32 blocks, no copy; the staged bytes are gone after it and the data frame
 * stays open. */
static int raw_blocks(w15_writer_t *w, const struct iovec *lead, int nlead, size_t blk, size_t pre,
                      const uint8_t *hdr, const uint8_t *pay, size_t plen, int zstd, w15_error_t *err)
{
    const size_t bmax = zstd ? ZDF_BLOCK : DF_BLOCK;
    enum { NB = 32 };
    struct iovec iov[2 * NB + 8];
    uint8_t bh[NB][4];
    int n = 0, nb = 0;
    while (n < nlead)
        iov[n] = lead[n], n++;
    iov[n++] = (struct iovec){w->out, pre};
    iov[n++] = (struct iovec){(void *)(uintptr_t)hdr, W15_DATA_HEADER};
    size_t k = blk - pre - W15_DATA_HEADER;
    iov[n++] = (struct iovec){(void *)(uintptr_t)pay, k};
    for (pay += k, plen -= k; plen > 0; pay += k, plen -= k) {
        if (nb == NB) {
            if (write_iov(w, iov, n, err) != 0)
                return -1;
            n = nb = 0;
        }
        k = plen < bmax ? plen : bmax;
        iov[n] = (struct iovec){bh[nb], raw_block_header(bh[nb], zstd, k, k == plen)};
        n++, nb++;
        iov[n++] = (struct iovec){(void *)(uintptr_t)pay, k};
    }
    w->olen = 0;
    w->in_df = 1;
    return write_iov(w, iov, n, err);
}

/* An incompressible blob (header `hdr`, bytes pay[0..plen)) as uncompressed
 * blocks of an LZ4 data frame: the open one when the stream bytes staged
 * since its last blob are few (DF_INLINE; they go into the block raw), else
 * a new one after the staged bytes have gone through the stream's frame and
 * that frame has ended. */
static int df_blob(w15_writer_t *w, const uint8_t *hdr, const uint8_t *pay, size_t plen, w15_error_t *err)
{
    struct iovec lead[2];
    uint8_t head[sizeof df_head + 4];
    int n = 0;
    size_t hl = 0, pre = 0;
    if (w->in_df && w->olen <= DF_INLINE) {
        pre = w->olen;
    } else {
        if (drain(w, err) != 0) /* ends an open data frame first (push_stream) */
            return -1;
        size_t e = LZ4F_compressEnd(w->cctx, w->zbuf, w->zcap, NULL);
        if (LZ4F_isError(e))
            return fail(w, err, W15_E_BAD_STREAM, "LZ4 frame end failed: %s", LZ4F_getErrorName(e));
        lead[n++] = (struct iovec){w->zbuf, e};
        memcpy(head, df_head, sizeof df_head);
        hl = sizeof df_head;
    }
    size_t total = pre + W15_DATA_HEADER + plen;
    size_t blk = total < DF_BLOCK ? total : DF_BLOCK;
    hl += raw_block_header(head + hl, 0, blk, 0);
    lead[n++] = (struct iovec){head, hl};
    return raw_blocks(w, lead, n, blk, pre, hdr, pay, plen, 0, err);
}

/* zstd: does a sample of the blob (four 2 KiB slices, from the middle of
 * each quarter, as the LZ4 probe takes them; the whole of a blob under 32
 * KiB) fail to shrink by 1/256 at the stream's level? */
static int zstd_incompressible(w15_writer_t *w, const uint8_t *p, size_t n)
{
    enum { SLICE = 2048 };
    uint8_t sample[4 * SLICE], out[4 * SLICE + 512];
    const uint8_t *src = p;
    size_t sn = n;
    if (n >= (32u << 10)) {
        size_t q = n / 4;
        for (size_t i = 0; i < 4; i++)
            memcpy(sample + i * SLICE, p + i * q + (q - SLICE) / 2, SLICE);
        src = sample;
        sn = sizeof sample;
    } else if (n > sizeof sample) {
        sn = sizeof sample;
    }
    size_t r = ZSTD_compressCCtx(w->zprobe, out, sizeof out, src, sn, w->o.zstd_level);
    return ZSTD_isError(r) || r > sn - sn / 256;
}

/* An incompressible blob (header `hdr`, bytes pay[0..plen)) as a zstd
 * frame of raw blocks (docs/FORMAT.md "Compressed stream"): the open
 * compressed frame ends first, unless a data frame came last and at most
 * DF_INLINE stream bytes were staged since (they go into this frame raw).
 * Frame header: magic, descriptor 0xE0 (8-byte content size, single
 * segment, no checksum, no dictionary), the content size; then blocks of
 * up to 128 KiB. */
static int zdf_blob(w15_writer_t *w, const uint8_t *hdr, const uint8_t *pay, size_t plen, w15_error_t *err)
{
    uint8_t head[4 + 1 + 8 + 3];
    size_t pre = 0;
    if (w->in_df && w->olen <= DF_INLINE) {
        pre = w->olen;
    } else {
        if (drain(w, err) != 0 || zstd_push(w, NULL, 0, ZSTD_e_end, err) != 0)
            return -1;
    }
    uint64_t total = pre + W15_DATA_HEADER + (uint64_t)plen;
    put_le32(head, ZSTD_MAGICNUMBER);
    head[4] = 0xE0;
    put_le(head + 5, total, 8);
    /* the first block: the staged bytes, the blob's header, its first bytes */
    size_t blk = total < ZDF_BLOCK ? (size_t)total : ZDF_BLOCK;
    raw_block_header(head + 13, 1, blk, blk == total);
    struct iovec lead = {head, sizeof head};
    return raw_blocks(w, &lead, 1, blk, pre, hdr, pay, plen, 1, err);
}

/* Emit one Data value whose raw form (header None,size,size + bytes) is at
 * `hdr`, compressed when that pays. */
static int emit_blob(w15_writer_t *w, const uint8_t *hdr, uint32_t size, w15_error_t *err)
{
    const uint8_t *raw = hdr + W15_DATA_HEADER;
    w->st.blob_bytes_raw += size;
    if (w->zc && !w->comp && size >= (w->o.data_frame_min ? w->o.data_frame_min : DF_MIN) &&
        (w->zskip ? (w->zskip--, 0) : zstd_incompressible(w, raw, size) ? 1 : (w->zskip = ZSKIP, 0))) {
        w->st.blob_bytes_stored += size;
        w->st.stream_bytes += W15_DATA_HEADER + (size_t)size;
        return zdf_blob(w, hdr, raw, size, err);
    }
    int big = w->comp && size >= w->o.min_blob;
    /* after a blob that did not compress, the next is probed first (a
     * sample), so a run of incompressible data is not compressed in full;
     * after one that did, it is compressed directly */
    size_t bound = big && (!w->incompressible || w15_compress_probe(w->comp, raw, size))
                       ? w15_compress_bound(w->comp, size)
                       : 0;
    if (big)
        w->incompressible = 1; /* until compression succeeds below */
    if (bound) {
        size_t need = W15_DATA_HEADER + bound;
        if (w->ocap - w->olen < need && drain(w, err) != 0)
            return -1;
        if (w->ocap - w->olen >= need) {
            uint8_t *h = w->out + w->olen;
            size_t cs = w15_compress(w->comp, raw, size, h + W15_DATA_HEADER, bound);
            if (cs) {
                w->incompressible = 0;
                put_header(h, (uint8_t)w->o.blob_method, size, (uint32_t)cs);
                w->olen += W15_DATA_HEADER + cs;
                w->st.stream_bytes += W15_DATA_HEADER + cs;
                w->st.blob_bytes_stored += cs;
                return 0;
            }
        } else {
            if (w->scap < bound) {
                free(w->scratch);
                w->scratch = malloc(bound);
                w->scap = w->scratch ? bound : 0;
            }
            size_t cs = w->scratch ? w15_compress(w->comp, raw, size, w->scratch, bound) : 0;
            int rc = 0;
            if (cs) {
                w->incompressible = 0;
                uint8_t h[W15_DATA_HEADER];
                put_header(h, (uint8_t)w->o.blob_method, size, (uint32_t)cs);
                w->st.blob_bytes_stored += cs;
                rc = out_put(w, h, sizeof h, err) || out_put(w, w->scratch, cs, err) ? -1 : 0;
            }
            if (w->scap > SCRATCH_KEEP) {
                free(w->scratch);
                w->scratch = NULL;
                w->scap = 0;
            }
            if (cs)
                return rc;
        }
    }
    w->st.blob_bytes_stored += size;
    /* incompressible: not tried again, in a data frame */
    if (big && (w->cctx || w->zc) && size >= (w->o.data_frame_min ? w->o.data_frame_min : DF_MIN)) {
        w->st.stream_bytes += W15_DATA_HEADER + (size_t)size;
        return w->zc ? zdf_blob(w, hdr, raw, size, err) : df_blob(w, hdr, raw, size, err);
    }
    return out_put_blob(w, hdr, W15_DATA_HEADER + (size_t)size, err);
}

int w15_writer_submit(w15_writer_t *w, w15_buf_t *buf, w15_error_t *err)
{
    if (w->failed) {
        if (err)
            *err = w->ferr;
        return -1;
    }
    if (buf->failed)
        return fail(w, err, W15_E_NOMEM, "encoding buffer ran out of memory; its operations are lost");
    size_t end = buf->committed;
    if (end > buf->len)
        return fail(w, err, W15_E_USAGE, "w15_writer_submit: committed %zu is past the buffer's length %zu",
                    end, buf->len);
    size_t pos = 0, bi = 0;
    for (; bi < buf->nblobs && buf->blobs[bi] < end; bi++) {
        size_t off = buf->blobs[bi];
        if (off < pos || end - off < W15_DATA_HEADER)
            return fail(w, err, W15_E_USAGE, "w15_writer_submit: blob at %zu overlaps or crosses `committed`", off);
        uint32_t size = w15_le32(buf->data + off + 1);
        if (end - off - W15_DATA_HEADER < size)
            return fail(w, err, W15_E_USAGE, "w15_writer_submit: blob at %zu crosses `committed`", off);
        if (out_put(w, buf->data + pos, off - pos, err) != 0 ||
            emit_blob(w, buf->data + off, size, err) != 0)
            return -1;
        pos = off + W15_DATA_HEADER + size;
    }
    if (out_put(w, buf->data + pos, end - pos, err) != 0)
        return -1;
    w->st.ops += buf->ops;
    w->st.calls += buf->calls;
    buf->ops = buf->calls = 0;

    /* Keep the uncommitted tail at the start of the buffer. */
    if (end) {
        memmove(buf->data, buf->data + end, buf->len - end);
        buf->len -= end;
        buf->committed = 0;
        size_t j = 0;
        for (; bi < buf->nblobs; bi++)
            buf->blobs[j++] = buf->blobs[bi] - (uint32_t)end;
        buf->nblobs = j;
    }
    return 0;
}

int w15_writer_flush(w15_writer_t *w, w15_error_t *err)
{
    if (w->failed) {
        if (err)
            *err = w->ferr;
        return -1;
    }
    if (drain(w, err) != 0)
        return -1;
    if (w->zc)
        return w->in_df ? 0 : zstd_push(w, NULL, 0, ZSTD_e_flush, err);
    if (w->cctx && !w->in_df) {
        size_t r = LZ4F_flush(w->cctx, w->zbuf, w->zcap, NULL);
        if (LZ4F_isError(r))
            return fail(w, err, W15_E_BAD_STREAM, "LZ4 frame flush failed: %s", LZ4F_getErrorName(r));
        if (r && write_all(w, w->zbuf, r, err) != 0)
            return -1;
    }
    return 0;
}

static void writer_free(w15_writer_t *w)
{
    w15_compressor_free(w->comp);
    if (w->cctx)
        LZ4F_freeCompressionContext(w->cctx);
    /* (after the crash path only in tests: its malloc'ed blocks are
     * freed as usual, the arena's left alone) */
    w->crashing = 0;
    ZSTD_freeCCtx(w->zc);
    for (int i = 0; i < w->nunfreed && i < (int)(sizeof w->unfreed / sizeof w->unfreed[0]); i++)
        free(w->unfreed[i]);
    if (w->arena)
        munmap(w->arena, ARENA_SIZE);
    ZSTD_freeCCtx(w->zprobe);
    free(w->zbuf);
    free(w->out);
    free(w->scratch);
    free(w->path);
    free(w);
}

int w15_writer_close(w15_writer_t *w, w15_error_t *err)
{
    if (!w)
        return 0;
    int rc = w15_writer_flush(w, err);
    if (rc == 0 && w->in_df && !w->zc) /* a trace ends with a stream frame */
        rc = end_data_frame(w, err);
    if (rc == 0 && w->zc) /* (after a data frame: an empty compressed frame) */
        rc = zstd_push(w, NULL, 0, ZSTD_e_end, err);
    if (rc == 0 && w->cctx) {
        size_t r = LZ4F_compressEnd(w->cctx, w->zbuf, w->zcap, NULL);
        if (LZ4F_isError(r))
            rc = fail(w, err, W15_E_BAD_STREAM, "LZ4 frame end failed: %s", LZ4F_getErrorName(r));
        else if (write_all(w, w->zbuf, r, err) != 0)
            rc = -1;
    }
    if (w->fd >= 0 && close(w->fd) != 0 && rc == 0 && errno != EINTR)
        rc = fail(w, err, W15_E_IO, "close failed: %s", strerror(errno));
    writer_free(w);
    return rc;
}

w15_writer_t *w15_writer_open_fd(int fd, const char *path, const w15_writer_opts_t *opts,
                                 w15_error_t *err)
{
    w15_writer_opts_t def;
    if (!opts) {
        w15_writer_opts_default(&def);
        opts = &def;
    }
    if (!path)
        path = "(fd)";
    if ((unsigned)opts->blob_method >= W15_COMP_COUNT_) {
        w15_set_error(err, W15_E_USAGE, 0, "%s: unknown blob compression method %u", path,
                      (unsigned)opts->blob_method);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    w15_writer_t *w = calloc(1, sizeof *w);
    if (!w) {
        w15_set_error(err, W15_E_NOMEM, 0, "%s: out of memory", path);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    w->fd = fd;
    w->o = *opts;
    w->path = strdup(path);
    w->ocap = OUT_CAP;
    w->out = malloc(w->ocap);
    if (!w->path || !w->out)
        goto nomem;
    if (w->o.blob_method != W15_COMP_NONE) {
        w->comp = w15_compressor_new(w->o.blob_method, w->o.zlib_level);
        if (!w->comp)
            goto nomem;
    }
    if (w->o.stream_zstd) {
        w->o.stream_lz4 = 0;
        if (!w->o.zstd_level)
            w->o.zstd_level = W15_ZSTD_LEVEL_DEFAULT;
        int level = w->o.zstd_level;
        if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
            w15_set_error(err, W15_E_USAGE, 0, "%s: zstd level %d is outside zstd's %d..%d", path, level,
                          ZSTD_minCLevel(), ZSTD_maxCLevel());
            goto fail;
        }
        /* the allocator only where the headers are the library's own
         * (the advanced API may change between zstd versions) */
        if (ZSTD_versionNumber() == ZSTD_VERSION_NUMBER)
            w->zc = ZSTD_createCCtx_advanced((ZSTD_customMem){zalloc, zfree, w});
        else
            w->zc = ZSTD_createCCtx();
        w->zprobe = ZSTD_createCCtx();
        w->zcap = ZSTD_CStreamOutSize();
        w->zbuf = malloc(w->zcap);
        if (!w->zc || !w->zprobe || !w->zbuf)
            goto nomem;
        if (ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, level)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_checksumFlag, 1))) {
            w15_set_error(err, W15_E_USAGE, 0, "%s: zstd refused level %d", path, level);
            goto fail;
        }
    }
    if (w->o.stream_lz4) {
        memset(&w->prefs, 0, sizeof w->prefs);
        w->prefs.frameInfo.blockSizeID = LZ4F_max256KB;
        w->prefs.frameInfo.blockMode = LZ4F_blockLinked;
        w->prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
        w->prefs.compressionLevel = 0;
        if (LZ4F_isError(LZ4F_createCompressionContext(&w->cctx, LZ4F_VERSION)))
            goto nomem;
        w->zcap = LZ4F_compressBound(w->ocap, &w->prefs);
        if (w->zcap < LZ4F_HEADER_SIZE_MAX)
            w->zcap = LZ4F_HEADER_SIZE_MAX;
        w->zbuf = malloc(w->zcap);
        if (!w->zbuf)
            goto nomem;
        size_t r = LZ4F_compressBegin(w->cctx, w->zbuf, w->zcap, &w->prefs);
        if (LZ4F_isError(r)) {
            fail(w, err, W15_E_BAD_STREAM, "cannot start the LZ4 frame: %s", LZ4F_getErrorName(r));
            goto fail;
        }
        if (write_all(w, w->zbuf, r, err) != 0)
            goto fail;
    }
    uint8_t h[16];
    memcpy(h, W15_MAGIC, 5);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    h[5] = W15_ENDIAN_BIG;
#else
    h[5] = W15_ENDIAN_LITTLE;
#endif
    h[6] = 0; /* major */
    h[7] = 0; /* minor */
    for (int i = 0; i < 4; i++) {
        h[8 + i] = (uint8_t)(w->o.max_functions >> (8 * i));
        h[12 + i] = (uint8_t)(w->o.max_groups >> (8 * i));
    }
    if (out_put(w, h, sizeof h, err) != 0 || w15_writer_flush(w, err) != 0)
        goto fail;
    return w;
nomem:
    w15_set_error(err, W15_E_NOMEM, 0, "%s: out of memory creating the writer", path);
fail:
    if (fd >= 0)
        close(fd);
    writer_free(w);
    return NULL;
}

w15_writer_t *w15_writer_open(const char *path, int overwrite, const w15_writer_opts_t *opts,
                              w15_error_t *err)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
    int fd;
    do
        fd = open(path, flags, 0644);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        w15_set_error(err, W15_E_IO, 0, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    return w15_writer_open_fd(fd, path, opts, err);
}

/* ------------------------------------------------------------------ */
/* Crash path (async-signal-safe: no allocation, no lock, no messages)  */

static int crash_write_fd(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t r = write(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The open data frame, if any, ends: its end mark and a new stream frame
 * (LZ4F_compressBegin allocates nothing once the context has its buffers). */
static int crash_end_df(w15_writer_t *w)
{
    if (!w->in_df)
        return 0;
    w->in_df = 0;
    size_t b = LZ4F_compressBegin(w->cctx, w->fhead, sizeof w->fhead, &w->prefs);
    return LZ4F_isError(b) || crash_write_fd(w->fd, endmark, sizeof endmark) ||
                   crash_write_fd(w->fd, w->fhead, b)
               ? -1
               : 0;
}

/* WIP15 stream bytes to the file, through the LZ4 frame if there is one
 * (LZ4F_compressUpdate and LZ4F_flush allocate nothing: the context and
 * its buffers were allocated by LZ4F_compressBegin, zbuf by the writer);
 * an open data frame ends first. */
static int crash_stream(w15_writer_t *w, const uint8_t *p, size_t n)
{
    if (w->zc) {
        /* a new frame: without workers (starting their jobs would allocate) */
        if (w->in_df && w->workers)
            w->workers = ZSTD_isError(ZSTD_CCtx_setParameter(w->zc, ZSTD_c_nbWorkers, 0)) ? w->workers : 0;
        w->in_df = 0;
        return zstd_push(w, p, n, ZSTD_e_continue, NULL);
    }
    if (!w->cctx)
        return crash_write_fd(w->fd, p, n);
    if (crash_end_df(w))
        return -1;
    while (n > 0) {
        size_t chunk = n < w->ocap ? n : w->ocap;
        size_t r = LZ4F_compressUpdate(w->cctx, w->zbuf, w->zcap, p, chunk, NULL);
        if (LZ4F_isError(r) || (r && crash_write_fd(w->fd, w->zbuf, r)))
            return -1;
        p += chunk;
        n -= chunk;
    }
    return 0;
}

int w15_writer_crash_write(w15_writer_t *w, const void *p, size_t n)
{
    w->crashing = 1;
    if (w->failed || w->ended)
        return -1;
    int rc = 0;
    if (w->olen) {
        size_t k = w->olen;
        w->olen = 0;
        rc = crash_stream(w, w->out, k);
    }
    if (rc == 0)
        rc = crash_stream(w, p, n);
    if (rc == 0 && w->zc && !w->in_df)
        rc = zstd_push(w, NULL, 0, ZSTD_e_flush, NULL);
    if (rc == 0 && w->cctx && !w->in_df) {
        size_t r = LZ4F_flush(w->cctx, w->zbuf, w->zcap, NULL);
        rc = LZ4F_isError(r) || (r && crash_write_fd(w->fd, w->zbuf, r)) ? -1 : 0;
    }
    if (rc)
        w->failed = 1;
    return rc;
}

int w15_writer_crash_end(w15_writer_t *w)
{
    w->crashing = 1;
    if (w->failed)
        return -1;
    if (w->zc && !w->ended) {
        w->ended = 1;
        if (zstd_push(w, NULL, 0, ZSTD_e_end, NULL) != 0) {
            w->failed = 1;
            return -1;
        }
        return 0;
    }
    if (!w->cctx || w->ended)
        return 0;
    if (crash_end_df(w)) {
        w->failed = 1;
        return -1;
    }
    size_t r = LZ4F_compressEnd(w->cctx, w->zbuf, w->zcap, NULL);
    int rc = LZ4F_isError(r) || (r && crash_write_fd(w->fd, w->zbuf, r)) ? -1 : 0;
    w->ended = 1;
    if (rc)
        w->failed = 1;
    return rc;
}

int w15_writer_set_workers(w15_writer_t *w, int n, w15_error_t *err)
{
    if (w->failed) {
        if (err)
            *err = w->ferr;
        return -1;
    }
    if (!w->zc || n == w->workers)
        return 0;
    if (n > 0 && !w->arena) {
        void *a = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (a == MAP_FAILED)
            return 1; /* no room for the crash path: no workers */
        w->arena = a;
    }
    /* the frame ends (after a data frame there is none open) */
    if (!w->in_df && (drain(w, err) != 0 || zstd_push(w, NULL, 0, ZSTD_e_end, err) != 0))
        return -1;
    w->in_df = 1;
    size_t r = ZSTD_CCtx_setParameter(w->zc, ZSTD_c_nbWorkers, n);
    if (!ZSTD_isError(r) && n > 0)
        r = ZSTD_CCtx_setParameter(w->zc, ZSTD_c_jobSize, JOB_SIZE);
    if (ZSTD_isError(r)) {
        /* a zstd built without threads: the frames stay single-threaded */
        ZSTD_CCtx_setParameter(w->zc, ZSTD_c_nbWorkers, 0);
        w->workers = 0;
        return 1;
    }
    w->workers = n;
    w->st.worker_frames += n > 0;
    return 0;
}

void w15_writer_get_stats(const w15_writer_t *w, w15_writer_stats_t *st)
{
    *st = w->st;
}
