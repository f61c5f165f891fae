/* test_extras.c -- the format library's pieces the tracer writes with and
 * the tools read with: the empty value (w15_put_empty), the extras
 * wip15.ptr / wip15.crash (encoders, w15_reader_ptrs, w15_ptr_decode,
 * w15_ptr_find, w15_extra_is), and the crash-time append
 * (w15_writer_crash_write) behind bytes the writer still holds. */
#include "common.h"

/* function 0: f(T x) for each base T; function 1: g(UnsignedInt) */
static void decl(w15_buf_t *b, uint32_t idx, w15_type_t arg)
{
    w15_type_t v = { W15_VOID, 0, 0 };
    CHECK(w15_put_decl_func(b, idx, idx == 1 ? "g" : "f", v, 1, &arg) == 0);
}

/* An OpCall of function `fn` whose argument is the empty value of `t`,
 * with the extras given by `nptr` wip15.ptr entries and `crash`. */
static void call_empty(w15_buf_t *b, uint32_t fn, w15_type_t t, const w15_ptr_entry_t *e, uint32_t nptr,
                       int crash)
{
    REQUIRE(w15_buf_reserve(b, 64 + W15_EXTRA_CRASH_SIZE + W15_EXTRA_PTR_SIZE(nptr)) == 0);
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, fn);
    w15_put_empty(b, t.base, t.is_array);
    w15_put_u32(b, (nptr ? 1u : 0u) + (crash ? 1u : 0u));
    if (crash)
        w15_put_extra_crash(b);
    if (nptr)
        w15_put_extra_ptr(b, e, nptr);
    w15_buf_commit(b, 1);
}

static void test_empty_values(void)
{
    for (unsigned base = W15_UINT; base < W15_BASE_COUNT_; base++) {
        for (int arr = 0; arr < 2; arr++) {
            w15_type_t t = { (uint8_t)base, 0, (uint8_t)arr };
            w15_buf_t b;
            REQUIRE(w15_buf_init(&b, 0) == 0);
            uint8_t hdr[16] = "WIP15_\0\0\2\0\0\0\0\0\0\0";
            REQUIRE(w15_buf_reserve(&b, 16) == 0);
            w15_put_bytes(&b, hdr, 16);
            decl(&b, 0, t);
            call_empty(&b, 0, t, NULL, 0, 0);
            w15_error_t err;
            w15_reader_t *r = w15_reader_open_mem(b.data, b.len, "empty", &err);
            REQUIRE(r);
            w15_op_t op;
            w15_next_t n;
            while ((n = w15_reader_next(r, &op, &err)) == W15_NEXT_DECL_FUNC)
                ;
            CHECKF(n == W15_NEXT_CALL, "base %u array %d: %s", base, arr, err.msg);
            if (n == W15_NEXT_CALL) {
                const w15_value_t *v = &op.call->args[0];
                if (arr || base == W15_FUNCPTR)
                    CHECKF(v->count == (arr ? 0u : 1u), "base %u array %d: count %u", base, arr, v->count);
                else if (base == W15_STRING)
                    CHECK(v->v.s[0].len == 0);
                else if (base == W15_DATA)
                    CHECK(v->v.data[0].size == 0 && v->v.data[0].method == W15_COMP_NONE);
                else if (base == W15_FLOAT)
                    CHECK(v->v.f[0] == 0.0f);
                else if (base == W15_DOUBLE)
                    CHECK(v->v.d[0] == 0.0);
                else if (base == W15_INT)
                    CHECK(v->v.i[0] == 0);
                else if (base == W15_BOOL)
                    CHECK(v->v.b[0] == 0);
                else
                    CHECK(v->v.u[0] == 0);
            }
            CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_END);
            w15_reader_close(r);
            w15_buf_free(&b);
        }
    }
}

static void test_ptr_extra(void)
{
    w15_buf_t b;
    REQUIRE(w15_buf_init(&b, 0) == 0);
    uint8_t hdr[16] = "WIP15_\0\0\2\0\0\0\0\0\0\0";
    REQUIRE(w15_buf_reserve(&b, 16) == 0);
    w15_put_bytes(&b, hdr, 16);
    w15_type_t s = { W15_STRING, 0, 0 };
    decl(&b, 0, s);
    const w15_ptr_entry_t e[2] = { { 0, 0 }, { W15_PTR_RESULT, 0x123456789abcdef0ull } };
    call_empty(&b, 0, s, e, 2, 0);
    call_empty(&b, 0, s, e, 1, 1); /* a crashed call: wip15.crash first */
    call_empty(&b, 0, s, NULL, 0, 0);
    /* a wip15.ptr whose size is not a multiple of 12 */
    REQUIRE(w15_buf_reserve(&b, 64) == 0);
    w15_put_u8(&b, W15_OP_CALL);
    w15_put_u32(&b, 0);
    w15_put_empty(&b, W15_STRING, 0);
    w15_put_u32(&b, 1);
    w15_put_string(&b, W15_EXTRA_PTR, 9);
    w15_put_u8(&b, W15_COMP_NONE);
    w15_put_u32(&b, 5);
    w15_put_u32(&b, 5);
    w15_put_bytes(&b, "\1\2\3\4\5", 5);
    w15_buf_commit(&b, 1);

    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(b.data, b.len, "ptrs.wip15", &err);
    REQUIRE(r);
    w15_op_t op;
    const w15_ptr_entry_t *pe;
    uint32_t n = 99;
    uint64_t v = 0;
    while (w15_reader_next(r, &op, &err) == W15_NEXT_DECL_FUNC)
        ;
    REQUIRE(op.call);
    CHECK(op.call->nextras == 1 && w15_extra_is(&op.call->extras[0], W15_EXTRA_PTR));
    CHECK(!w15_extra_is(&op.call->extras[0], W15_EXTRA_CRASH));
    CHECK(w15_reader_ptrs(r, op.call, &pe, &n, &err) == 0);
    CHECK_EQ(n, 2);
    CHECK(w15_ptr_find(pe, n, W15_PTR_RESULT, &v) == 1 && v == 0x123456789abcdef0ull);
    CHECK(w15_ptr_find(pe, n, 0, &v) == 1 && v == 0);
    CHECK(w15_ptr_find(pe, n, 1, &v) == 0);

    CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_CALL);
    CHECK(op.call->nextras == 2 && w15_extra_is(&op.call->extras[0], W15_EXTRA_CRASH) &&
          op.call->extras[0].data.size == 0);
    CHECK(w15_reader_ptrs(r, op.call, &pe, &n, &err) == 0);
    CHECK_EQ(n, 1);

    CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_CALL);
    CHECK(w15_reader_ptrs(r, op.call, &pe, &n, &err) == 0);
    CHECK(n == 0 && pe == NULL);

    CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_CALL);
    CHECK(w15_reader_ptrs(r, op.call, &pe, &n, &err) == -1);
    CHECK(err.code == W15_E_BAD_LENGTH);
    CHECK_HAS(err.msg, "ptrs.wip15: byte ");
    CHECK_HAS(err.msg, ": call 3 (f): expected an extra wip15.ptr of 12-byte entries, found 5 bytes");
    w15_reader_close(r);
    w15_buf_free(&b);

    uint8_t raw[24];
    memset(raw, 0, sizeof raw);
    raw[0] = 7;
    raw[4] = 0xf0;
    raw[11] = 0x12;
    w15_ptr_entry_t out[2];
    CHECK(w15_ptr_decode(raw, 24, out) == 2);
    CHECK(out[0].param == 7 && out[0].value == 0x12000000000000f0ull);
    CHECK(w15_ptr_decode(raw, 13, out) == -1);
}

/* The capture's extras: wip15.offset, .unreadable, .digest, .gseq round
 * trip through their encoders and the reader's decoders; a wrong size is
 * BAD_LENGTH naming the extra. */
static void test_capture_extras(void)
{
    w15_buf_t b;
    REQUIRE(w15_buf_init(&b, 0) == 0);
    uint8_t hdr[16] = "WIP15_\0\0\2\0\0\0\0\0\0\0";
    REQUIRE(w15_buf_reserve(&b, 16) == 0);
    w15_put_bytes(&b, hdr, 16);
    w15_type_t d = { W15_DATA, 0, 0 };
    decl(&b, 0, d);
    const w15_offset_entry_t off[2] = { { 0, 0x8893, 0x40 }, { 3, 0x8F3F, 0xfedcba9876543210ull } };
    const w15_ptr_entry_t unr = { 0, 0x7fff00001234ull };
    const w15_digest_entry_t dig = { 0, 1ull << 33, 0x0123456789abcdefull };
    REQUIRE(w15_buf_reserve(&b, 64 + W15_EXTRA_OFFSET_SIZE(2) + W15_EXTRA_UNREADABLE_SIZE(1) +
                                    W15_EXTRA_DIGEST_SIZE(1) + W15_EXTRA_GSEQ_SIZE) == 0);
    size_t start = b.len;
    w15_put_u8(&b, W15_OP_CALL);
    w15_put_u32(&b, 0);
    w15_put_empty(&b, W15_DATA, 0);
    w15_put_u32(&b, 4);
    w15_put_extra_offset(&b, off, 2);
    w15_put_extra_unreadable(&b, &unr, 1);
    w15_put_extra_digest(&b, &dig, 1);
    w15_put_extra_gseq(&b, 41);
    CHECK_EQ(b.len - start, 5 + 9 + 4 + W15_EXTRA_OFFSET_SIZE(2) + W15_EXTRA_UNREADABLE_SIZE(1) +
                                W15_EXTRA_DIGEST_SIZE(1) + W15_EXTRA_GSEQ_SIZE);
    w15_buf_commit(&b, 1);
    /* a call without them, and one whose wip15.gseq has 4 bytes */
    call_empty(&b, 0, d, NULL, 0, 0);
    REQUIRE(w15_buf_reserve(&b, 64) == 0);
    w15_put_u8(&b, W15_OP_CALL);
    w15_put_u32(&b, 0);
    w15_put_empty(&b, W15_DATA, 0);
    w15_put_u32(&b, 1);
    w15_put_string(&b, W15_EXTRA_GSEQ, 10);
    w15_put_u8(&b, W15_COMP_NONE);
    w15_put_u32(&b, 4);
    w15_put_u32(&b, 4);
    w15_put_bytes(&b, "\1\2\3\4", 4);
    w15_buf_commit(&b, 1);

    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(b.data, b.len, "cap.wip15", &err);
    REQUIRE(r);
    w15_op_t op;
    while (w15_reader_next(r, &op, &err) == W15_NEXT_DECL_FUNC)
        ;
    REQUIRE(op.call);
    const w15_offset_entry_t *oe;
    const w15_ptr_entry_t *ue;
    const w15_digest_entry_t *de;
    uint32_t n = 0;
    uint64_t g = 0;
    CHECK(w15_reader_offsets(r, op.call, &oe, &n, &err) == 0 && n == 2);
    CHECK(oe[0].param == 0 && oe[0].target == 0x8893 && oe[0].offset == 0x40);
    CHECK(oe[1].param == 3 && oe[1].target == 0x8F3F && oe[1].offset == 0xfedcba9876543210ull);
    CHECK(w15_reader_unreadable(r, op.call, &ue, &n, &err) == 0 && n == 1);
    CHECK(ue[0].param == 0 && ue[0].value == 0x7fff00001234ull);
    CHECK(w15_reader_digests(r, op.call, &de, &n, &err) == 0 && n == 1);
    CHECK(de[0].size == 1ull << 33 && de[0].hash == 0x0123456789abcdefull);
    CHECK(w15_reader_gseq(r, op.call, &g, &err) == 1 && g == 41);

    CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_CALL);
    CHECK(w15_reader_offsets(r, op.call, &oe, &n, &err) == 0 && n == 0 && oe == NULL);
    CHECK(w15_reader_digests(r, op.call, &de, &n, &err) == 0 && n == 0);
    CHECK(w15_reader_gseq(r, op.call, &g, &err) == 0);

    CHECK(w15_reader_next(r, &op, &err) == W15_NEXT_CALL);
    CHECK(w15_reader_gseq(r, op.call, &g, &err) == -1 && err.code == W15_E_BAD_LENGTH);
    CHECK_HAS(err.msg, ": call 2 (f): expected an extra wip15.gseq of 8 bytes, found 4 bytes");
    w15_reader_close(r);
    w15_buf_free(&b);
}

/* The writer holds some operations (staged, maybe inside the LZ4 frame's
 * own buffer); a crash handler appends raw ones behind them: every
 * operation reads back, in order. */
static void crash_append(int lz4)
{
    /* lz4 3: zstd with two workers compressing when the crash comes, and
     * the crash path's end (w15_writer_crash_end) after the append */
    int workers = lz4 == 3;
    if (workers)
        lz4 = 2;
    check_case = workers ? "crash_append zstd workers" : lz4 == 2 ? "crash_append zstd" : lz4 ? "crash_append lz4" : "crash_append none";
    char *path = tmp_path();
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.stream_lz4 = lz4 == 1;
    o.stream_zstd = lz4 == 2;
    o.max_functions = 2;
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    REQUIRE(w);
    w15_buf_t b;
    REQUIRE(w15_buf_init(&b, 0) == 0);
    w15_type_t u = { W15_UINT, 0, 0 };
    decl(&b, 1, u);
    uint32_t first = workers ? 400000 : 3000, total = first + 197000;
    if (workers) {
        CHECK(w15_writer_submit(w, &b, &err) == 0);
        CHECK(w15_writer_set_workers(w, 2, &err) == 0);
    }
    for (uint32_t i = 0; i < first; i++) { /* submitted, never flushed */
        if (w15_buf_reserve(&b, 32))
            abort();
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, 1);
        w15_put_uvari(&b, i);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
    }
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    for (uint32_t i = first; i < total; i++) { /* appended raw, as a crash handler does */
        if (w15_buf_reserve(&b, 32))
            abort();
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, 1);
        w15_put_uvari(&b, i);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
    }
    CHECK(w15_writer_crash_write(w, b.data, b.committed) == 0);
    if (workers)
        CHECK(w15_writer_crash_end(w) == 0);
    w15_buf_free(&b);
    /* the process would die here: read the file as it is */
    w15_reader_t *r = w15_reader_open(path, &err);
    REQUIRE(r);
    w15_op_t op;
    w15_next_t n;
    uint32_t want = 0, bad = 0;
    while ((n = w15_reader_next(r, &op, &err)) == W15_NEXT_CALL || n == W15_NEXT_DECL_FUNC) {
        if (n == W15_NEXT_CALL && op.call->args[0].v.u[0] != want++)
            bad++;
    }
    CHECKF(want == total && !bad, "%u calls read, %u out of order (%s)", want, bad, err.msg);
    /* an LZ4 frame without its end mark reads as cut after the last call */
    CHECK(n == (lz4 && !workers ? W15_NEXT_TRUNCATED : W15_NEXT_END));
    if (workers) {
        w15_writer_stats_t st;
        w15_writer_get_stats(w, &st);
        CHECK_EQ(st.worker_frames, 1);
    }
    w15_reader_close(r);
    w15_writer_close(w, NULL); /* (after reading: only to free it) */
    unlink(path);
    free(path);
}

static void test_crash_append(void)
{
    crash_append(0);
    crash_append(1);
    crash_append(2);
    crash_append(3);
}

int main(void)
{
    RUN(test_empty_values);
    RUN(test_ptr_extra);
    RUN(test_capture_extras);
    RUN(test_crash_append);
    return check_summary();
}
