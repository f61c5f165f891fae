/* test_truncation.c -- a trace cut at every byte offset, plain and wrapped
 * in an LZ4 frame or a zstd frame: the reader delivers every complete operation, then
 * reports END (cut at an operation boundary) or TRUNCATED with the number
 * of complete calls and the offset of the incomplete operation. */
#include "common.h"

#include <lz4frame.h>
#include <zstd.h>

#define MAXOPS 64

static uint64_t op_end[MAXOPS]; /* stream offset where op k ends */
static int op_is_call[MAXOPS];
static int nops;
static int df_cuts; /* cuts right after a data frame, at an operation boundary */

static void make_trace(const char *path, int lz4)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.stream_lz4 = lz4 == 1;
    o.stream_zstd = lz4 == 2;
    o.max_functions = 4;
    o.max_groups = 2;
    o.min_blob = 16;
    o.data_frame_min = 16; /* data frames for the small incompressible blobs too */
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    if (!w)
        abort();
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_group(&b, 1, W15_GROUP_GL_BUFFERS, "buf");
    w15_type_t args[] = {{W15_UINT, 1, 0}, {W15_STRING, 0, 1}, {W15_DATA, 0, 0}, {W15_FLOAT, 0, 1}};
    w15_put_decl_func(&b, 2, "glThing", (w15_type_t){W15_INT, 0, 0}, 4, args);
    w15_put_decl_func(&b, 0, "glVoid", (w15_type_t){0, 0, 0}, 0, NULL);
    uint8_t blob[200], rnd[200];
    uint32_t x = 2463534242u;
    for (int i = 0; i < 200; i++) {
        blob[i] = (uint8_t)(i % 10);
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        rnd[i] = (uint8_t)(x >> 24);
    }
    for (int k = 0; k < 8; k++) {
        w15_buf_reserve(&b, 256);
        w15_put_u8(&b, W15_OP_CALL);
        if (k % 3 == 2) {
            w15_put_u32(&b, 0);
            w15_put_u32(&b, 0);
        } else {
            w15_put_u32(&b, 2);
            w15_put_uvari(&b, 1000u * (unsigned)k);
            w15_put_u32(&b, 1);
            w15_put_u32(&b, 2);
            w15_put_string(&b, "ab", 2);
            w15_put_string(&b, "xyz", 3);
            /* k 3: incompressible (with lz4: a data frame) */
            w15_put_data(&b, k == 3 ? rnd : blob, k % 2 ? 200 : 5);
            w15_buf_reserve(&b, 64);
            w15_put_u32(&b, 2);
            w15_put_f32(&b, 1.0f);
            w15_put_f32(&b, -2.0f);
            w15_put_svari(&b, -k);
            w15_put_u32(&b, k == 4 || k == 6 ? 1 : 0);
            if (k == 4) {
                w15_put_string(&b, "wip15.ptr", 9);
                w15_put_data(&b, "\xff\xff\xff\xff\0\0\0\0\0\0\0\0", 12);
            }
            if (k == 6) { /* the op ends with an incompressible blob */
                w15_put_string(&b, "x", 1);
                w15_put_data(&b, rnd + 50, 100);
            }
        }
        w15_buf_commit(&b, 1);
        if (w15_writer_submit(w, &b, &err) || (k % 2 && w15_writer_flush(w, &err)))
            abort();
    }
    w15_buf_free(&b);
    if (w15_writer_close(w, &err))
        abort();
}

/* Learn the op boundaries from the complete file. */
static void learn(const uint8_t *p, size_t n)
{
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(p, n, "full", &err);
    if (!r)
        abort();
    w15_op_t op;
    w15_next_t x;
    nops = 0;
    while ((x = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL) {
        w15_reader_stats_t st;
        w15_reader_get_stats(r, &st);
        op_end[nops] = st.stream_bytes;
        op_is_call[nops++] = x == W15_NEXT_CALL;
    }
    if (x != W15_NEXT_END)
        abort();
    w15_reader_close(r);
}

/* Bytes of WIP15 stream liblz4 itself can decode from a prefix. */
static size_t lz4_prefix(const uint8_t *p, size_t n)
{
    LZ4F_dctx *d;
    LZ4F_createDecompressionContext(&d, LZ4F_VERSION);
    static uint8_t out[1 << 20];
    size_t total = 0, pos = 0;
    while (pos < n) {
        size_t dsz = sizeof out, ssz = n - pos;
        size_t r = LZ4F_decompress(d, out, &dsz, p + pos, &ssz, NULL);
        if (LZ4F_isError(r))
            abort();
        pos += ssz;
        total += dsz;
        if (ssz == 0 && dsz == 0)
            break;
    }
    LZ4F_freeDecompressionContext(d);
    return total;
}

/* Bytes of WIP15 stream libzstd itself can decode from a prefix. */
static size_t zstd_prefix(const uint8_t *p, size_t n)
{
    ZSTD_DCtx *d = ZSTD_createDCtx();
    static uint8_t out[1 << 20];
    ZSTD_inBuffer in = {p, n, 0};
    size_t total = 0;
    for (;;) {
        ZSTD_outBuffer o = {out, sizeof out, 0};
        size_t r = ZSTD_decompressStream(d, &o, &in);
        if (ZSTD_isError(r))
            abort();
        total += o.pos;
        if (o.pos == 0 && (in.pos == in.size || r == 0))
            break;
    }
    ZSTD_freeDCtx(d);
    return total;
}

/* `whole`: the cut keeps the whole file.  An LZ4-stream file cut anywhere
 * before its end mark is truncated even between two operations. */
static void check_cut(const uint8_t *p, size_t cut, size_t avail, int lz4, int whole, int mode)
{
    char name[64];
    snprintf(name, sizeof name, "cut%zu", cut);
    w15_error_t err;
    char *tmp;
    w15_reader_t *r;
    if (mode == 0) {
        r = w15_reader_open_mem(p, cut, name, &err);
        tmp = NULL;
    } else {
        r = open_bytes(p, cut, 1, &tmp, &err);
    }
    if (avail < 16) {
        CHECK(r == NULL);
        if (r)
            w15_reader_close(r);
        else if (err.code != W15_E_TRUNCATED)
            fprintf(stderr, "cut %zu: %s\n", cut, err.msg);
        CHECK_EQ(err.code, W15_E_TRUNCATED);
        CHECK_HAS(err.msg, "truncated after 0 complete calls at byte 0");
        done_tmp(tmp);
        return;
    }
    REQUIRE(r);
    int k = 0, calls = 0;
    uint64_t start = 16;
    while (k < nops && op_end[k] <= avail) {
        w15_op_t op;
        w15_next_t x = w15_reader_next(r, &op, &err);
        CHECK_EQ(x, op_is_call[k] ? W15_NEXT_CALL : (x == W15_NEXT_DECL_FUNC ? x : W15_NEXT_DECL_GROUP));
        CHECK_EQ(op.offset, start);
        if (x > W15_NEXT_CALL) {
            fprintf(stderr, "cut %zu: op %d: %s\n", cut, k, err.msg);
            break;
        }
        if (x == W15_NEXT_CALL) {
            for (uint32_t i = 0; i < op.call->nextras; i++)
                CHECK(w15_reader_blob(r, &op.call->extras[i].data, &err) != NULL);
            if (op.call->func->nargs == 4)
                CHECK(w15_reader_blob(r, &op.call->args[2].v.data[0], &err) != NULL);
        }
        calls += op_is_call[k];
        start = op_end[k];
        k++;
    }
    w15_op_t op;
    w15_next_t x = w15_reader_next(r, &op, &err);
    if (start == avail && (!lz4 || whole)) {
        CHECK_EQ(x, W15_NEXT_END);
    } else {
        CHECK_EQ(x, W15_NEXT_TRUNCATED);
        CHECK_EQ(err.code, W15_E_TRUNCATED);
        CHECK_EQ(err.offset, start);
        char want[160];
        snprintf(want, sizeof want, "%s: truncated after %d complete calls at byte %llu%s",
                 mode ? tmp : name, calls, (unsigned long long)start,
                 lz4 ? " (in the decompressed stream)" : "");
        /* the message is exactly `want`, or `want` followed by "; the <length
         * field> at byte B asks for N bytes, only M are left", or (LZ4 cut
         * between operations) by "; the LZ4 frame has no end mark ..." */
        size_t wl = strlen(want);
        const char *tail = err.msg + wl;
        int ok = strncmp(err.msg, want, wl) == 0 &&
                 (*tail == 0 ||
                  (strncmp(tail, "; the ", 6) == 0 && strstr(tail, " asks for ") != NULL) ||
                  (lz4 == 1 && start == avail && strncmp(tail, "; the LZ4 frame has no end mark", 31) == 0) ||
                  (lz4 == 2 && start == avail && strncmp(tail, "; the zstd frame does not end", 29) == 0) ||
                  (lz4 == 2 && start == avail && strncmp(tail, "; the zstd stream ends with a data frame", 40) == 0 &&
                   ++df_cuts) ||
                  (lz4 && start == avail && strncmp(tail, "; the LZ4 stream ends with a data frame", 39) == 0 &&
                   ++df_cuts));
        if (!ok)
            fprintf(stderr, "cut %zu: got \"%s\", want \"%s\"\n", cut, err.msg, want);
        CHECK(ok);
    }
    CHECK_EQ(w15_reader_next(r, &op, &err), x); /* sticky */
    w15_reader_close(r);
    done_tmp(tmp);
}

static void every_offset(int lz4)
{
    char *path = tmp_path();
    make_trace(path, lz4);
    size_t n;
    uint8_t *full = slurp(path, &n);
    unlink(path);
    free(path);
    uint8_t *plain = full;
    size_t pn = n;
    if (lz4) {
        pn = lz4 == 1 ? lz4_prefix(full, n) : zstd_prefix(full, n);
        plain = NULL;
    }
    /* boundaries from the complete stream */
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(full, n, "full", &err);
    REQUIRE(r);
    w15_reader_close(r);
    learn(full, n);
    CHECK(nops > 8);
    CHECK_EQ(op_end[nops - 1], pn);
    (void)plain;
    for (size_t cut = 0; cut <= n; cut++) {
        size_t avail = lz4 == 1 ? lz4_prefix(full, cut) : lz4 == 2 ? zstd_prefix(full, cut) : cut;
        /* heap copy of exactly `cut` bytes so ASan sees any over-read */
        uint8_t *c = malloc(cut ? cut : 1);
        memcpy(c, full, cut);
        check_cut(c, cut, avail, lz4, cut == n, 0);
        if (cut % 7 == 0 || cut == n || lz4)
            check_cut(c, cut, avail, lz4, cut == n, 1);
        free(c);
    }
    printf("  %s trace: %zu bytes, %d ops, every cut checked\n",
           lz4 == 2 ? "zstd-stream" : lz4 ? "LZ4-stream" : "plain", n, nops);
    if (lz4) /* call 6 ends with a data frame: cut there, from memory and a file */
        CHECK_EQ(df_cuts, 2);
    df_cuts = 0;
    free(full);
}

static void truncation_plain(void) { every_offset(0); }
static void truncation_lz4_stream(void) { every_offset(1); }
static void truncation_zstd_stream(void) { every_offset(2); }

int main(void)
{
    RUN(truncation_plain);
    RUN(truncation_lz4_stream);
    RUN(truncation_zstd_stream);
    return check_summary();
}
