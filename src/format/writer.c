/* writer.c -- writes encoded operations to a WIP15 file.
 *
 * Data flow: the caller encodes operations into a w15_buf_t; submit copies
 * the committed part into `out` (the WIP15 stream staging buffer),
 * compressing the blobs on the way; a full `out` goes to the file, through
 * the LZ4 frame compressor when opts.stream_lz4 is set.  There is no system
 * call per submit unless `out` fills. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_CAP (1u << 20)          /* staging buffer */
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

/* write(2) all of it: retries on EINTR and short writes, waits on EAGAIN. */
static int write_all(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    while (n > 0) {
        ssize_t r = write(w->fd, p, n > (1u << 30) ? (1u << 30) : n);
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
        p += r;
        n -= (size_t)r;
        w->st.file_bytes += (uint64_t)r;
    }
    return 0;
}

/* Send WIP15 stream bytes to the file (through the LZ4 frame, if any). */
static int push_stream(w15_writer_t *w, const uint8_t *p, size_t n, w15_error_t *err)
{
    if (!w->cctx)
        return write_all(w, p, n, err);
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

static void put_header(uint8_t *h, uint8_t method, uint32_t size, uint32_t csize)
{
    h[0] = method;
    for (int i = 0; i < 4; i++) {
        h[1 + i] = (uint8_t)(size >> (8 * i));
        h[5 + i] = (uint8_t)(csize >> (8 * i));
    }
}

/* Emit one Data value whose raw form (header None,size,size + bytes) is at
 * `hdr`, compressed when that pays. */
static int emit_blob(w15_writer_t *w, const uint8_t *hdr, uint32_t size, w15_error_t *err)
{
    const uint8_t *raw = hdr + W15_DATA_HEADER;
    w->st.blob_bytes_raw += size;
    size_t bound = (w->comp && size >= w->o.min_blob) ? w15_compress_bound(w->comp, size) : 0;
    if (bound) {
        size_t need = W15_DATA_HEADER + bound;
        if (w->ocap - w->olen < need && drain(w, err) != 0)
            return -1;
        if (w->ocap - w->olen >= need) {
            uint8_t *h = w->out + w->olen;
            size_t cs = w15_compress(w->comp, raw, size, h + W15_DATA_HEADER, bound);
            if (cs) {
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
    return out_put(w, hdr, W15_DATA_HEADER + (size_t)size, err);
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
    if (w->cctx) {
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

/* WIP15 stream bytes to the file, through the LZ4 frame if there is one
 * (LZ4F_compressUpdate and LZ4F_flush allocate nothing: the context and
 * its buffers were allocated by LZ4F_compressBegin, zbuf by the writer). */
static int crash_stream(w15_writer_t *w, const uint8_t *p, size_t n)
{
    if (!w->cctx)
        return crash_write_fd(w->fd, p, n);
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
    if (rc == 0 && w->cctx) {
        size_t r = LZ4F_flush(w->cctx, w->zbuf, w->zcap, NULL);
        rc = LZ4F_isError(r) || (r && crash_write_fd(w->fd, w->zbuf, r)) ? -1 : 0;
    }
    if (rc)
        w->failed = 1;
    return rc;
}

int w15_writer_crash_end(w15_writer_t *w)
{
    if (w->failed)
        return -1;
    if (!w->cctx || w->ended)
        return 0;
    size_t r = LZ4F_compressEnd(w->cctx, w->zbuf, w->zcap, NULL);
    int rc = LZ4F_isError(r) || (r && crash_write_fd(w->fd, w->zbuf, r)) ? -1 : 0;
    w->ended = 1;
    if (rc)
        w->failed = 1;
    return rc;
}

void w15_writer_get_stats(const w15_writer_t *w, w15_writer_stats_t *st)
{
    *st = w->st;
}
