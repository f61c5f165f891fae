/* test_corrupt.c -- hostile input: every error kind gives its precise
 * message (code, byte offset, what was expected); flipped bytes at every
 * offset never crash. */
#include "common.h"

#include <lz4.h>
#include <zlib.h>

static const uint8_t V[3] = {0, 0, 0};

/* Read everything (decompressing every blob); return the final status and
 * the error. */
static w15_next_t read_all(w15_reader_t *r, w15_error_t *err, int *blob_failed)
{
    w15_op_t op;
    w15_next_t x;
    *blob_failed = 0;
    while ((x = w15_reader_next(r, &op, err)) <= W15_NEXT_CALL) {
        if (x != W15_NEXT_CALL)
            continue;
        const w15_call_t *c = op.call;
        for (uint32_t i = 0; i <= c->func->nargs; i++) {
            const w15_value_t *v = i < c->func->nargs ? &c->args[i] : c->result;
            if (!v || v->type.base != W15_DATA)
                continue;
            for (uint32_t j = 0; j < v->count; j++)
                if (!w15_reader_blob(r, &v->v.data[j], err))
                    return (*blob_failed = 1), W15_NEXT_ERROR;
        }
        for (uint32_t i = 0; i < c->nextras; i++)
            if (!w15_reader_blob(r, &c->extras[i].data, err))
                return (*blob_failed = 1), W15_NEXT_ERROR;
    }
    return x;
}

/* Expect `code` at `offset` (at open, in next, or in blob), with each of
 * the NULL-terminated key words in the message. */
static void expect(const char *what, bb_t *b, w15_errcode_t code, uint64_t offset, ...)
{
    check_case = what;
    for (int mode = 0; mode < 2; mode++) {
        w15_error_t err;
        memset(&err, 0, sizeof err);
        char *tmp;
        w15_reader_t *r = open_bytes(b->p, b->n, mode, &tmp, &err);
        if (r) {
            int bf;
            w15_next_t x = read_all(r, &err, &bf);
            CHECK(x == (code == W15_E_TRUNCATED ? W15_NEXT_TRUNCATED : W15_NEXT_ERROR));
            w15_reader_close(r);
        }
        CHECK_EQ(err.code, code);
        CHECK_EQ(err.offset, offset);
        CHECK_HAS(err.msg, mode ? tmp : "mem.wip15");
        char at[48];
        snprintf(at, sizeof at, "byte %llu", (unsigned long long)offset);
        CHECK_HAS(err.msg, at);
        va_list ap;
        va_start(ap, offset);
        for (const char *k; (k = va_arg(ap, const char *));)
            CHECK_HAS(err.msg, k);
        va_end(ap);
        if (mode == 0 && getenv("SHOW"))
            printf("    %-28s %s\n", what, err.msg);
        done_tmp(tmp);
    }
    free(b->p);
    memset(b, 0, sizeof *b);
}

static void header_errors(void)
{
    bb_t b = {0};
    bb_raw(&b, "WIP16_\0\0\1\0\0\0\0\0\0\0", 16);
    expect("bad magic", &b, W15_E_BAD_MAGIC, 0, "expected magic \"WIP15\"", "found \"WIP16\"", NULL);
    bb_raw(&b, "\x7f" "ELF", 4);
    expect("bad magic short", &b, W15_E_BAD_MAGIC, 0, "found \"\\x7fELF\"", NULL);
    bb_raw(&b, "WIP15X\0\0\1\0\0\0\0\0\0\0", 16);
    expect("bad endian", &b, W15_E_BAD_MAGIC, 5, "expected endian byte", "found 0x58", NULL);
    bb_raw(&b, "WIP15_\1\0\1\0\0\0\0\0\0\0", 16);
    expect("bad major", &b, W15_E_BAD_VERSION, 6, "expected major version 0", "found 0x01", NULL);
    bb_raw(&b, "WIP15_\0\3\1\0\0\0\0\0\0\0", 16);
    expect("bad minor", &b, W15_E_BAD_VERSION, 7, "expected minor version 0", "found 3", NULL);
    bb_raw(&b, "WIP15_0.0b            \1\0\0\0\0\0\0\0", 30);
    expect("bad 0.0a string", &b, W15_E_BAD_VERSION, 6, "expected version string \"0.0a", "found \"0.0b", NULL);
    bb_raw(&b, "WIP15_\0\0\1\0", 10);
    expect("short header", &b, W15_E_TRUNCATED, 0, "truncated after 0 complete calls at byte 0", NULL);
}

static void op_errors(void)
{
    bb_t b = {0};
    bb_header00(&b, 4, 2);
    bb_u8(&b, 3);
    expect("bad opcode", &b, W15_E_BAD_OPCODE, 16, "expected an opcode", "found 3", NULL);

    const uint8_t bad_base[3] = {10, 0, 0}, bad_group[3] = {1, 2, 0}, bad_array[][3] = {{1, 0, 7}};
    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", bad_base, 0, NULL);
    expect("bad base type", &b, W15_E_BAD_TYPE, 16 + 1 + 4 + 5, "expected a base type 0..9", "found 10", NULL);
    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", bad_group, 0, NULL);
    expect("bad has_group", &b, W15_E_BAD_TYPE, 16 + 1 + 4 + 5 + 1, "expected has_group 0 or 1", "found 2", NULL);
    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", V, 1, bad_array);
    expect("bad is_array", &b, W15_E_BAD_TYPE, 16 + 1 + 4 + 5 + 3 + 4 + 2, "expected is_array 0 or 1", "found 7", NULL);

    bb_header00(&b, 4, 2);
    BB(&b, 1, 25);
    bb_u32(&b, 0);
    bb_str(&b, "g");
    expect("bad group type", &b, W15_E_BAD_TYPE, 17, "expected a group type 0..24", "found 25", NULL);

    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 4, "f", V, 0, NULL);
    expect("func index >= max", &b, W15_E_BAD_FUNC, 17, "below max_functions (4)", "found 4", NULL);
    bb_header00(&b, 4, 2);
    BB(&b, 1, 0);
    bb_u32(&b, 2);
    bb_str(&b, "g");
    expect("group index >= max", &b, W15_E_BAD_GROUP, 18, "below max_groups (2)", "found 2", NULL);

    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", V, 0, NULL);
    bb_u8(&b, 2);
    bb_u32(&b, 1);
    bb_u32(&b, 0);
    expect("undeclared function", &b, W15_E_BAD_FUNC, 16 + 17 + 1, "declared function", "found 1 (never declared)", NULL);
    bb_header00(&b, 4, 2);
    bb_u8(&b, 2);
    bb_u32(&b, 9);
    bb_u32(&b, 0);
    expect("call index >= max", &b, W15_E_BAD_FUNC, 17, "below max_functions (4)", "found 9", NULL);

    const uint8_t grouped[][3] = {{1, 1, 0}};
    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", V, 1, grouped);
    bb_u8(&b, 2);
    bb_u32(&b, 0);
    BB(&b, 5);
    bb_u32(&b, 1);
    bb_u32(&b, 0);
    expect("undeclared group", &b, W15_E_BAD_GROUP, 16 + 20 + 6, "declared group", "found 1 (never declared)", NULL);
    bb_header00(&b, 4, 2);
    bb_declfunc(&b, 0, "f", V, 1, grouped);
    bb_u8(&b, 2);
    bb_u32(&b, 0);
    BB(&b, 5);
    bb_u32(&b, 7);
    bb_u32(&b, 0);
    expect("value group >= max", &b, W15_E_BAD_GROUP, 16 + 20 + 6, "below max_groups (2)", "found 7", NULL);
}

static void call_with(bb_t *b, int v0a, const uint8_t t[3])
{
    if (v0a)
        bb_header00a(b, 1, 1);
    else
        bb_header00(b, 1, 1);
    const uint8_t a[][3] = {{t[0], t[1], t[2]}};
    bb_declfunc(b, 0, "f", V, 1, a);
    bb_u8(b, 2);
    bb_u32(b, 0);
}
#define CALL_AT(v0a) ((v0a) ? 30u + 20 : 16u + 20) /* offset of the call's opcode */

static void varint_errors(void)
{
    static const uint8_t U[3] = {1, 0, 0}, I[3] = {2, 0, 0};
    bb_t b = {0};
    call_with(&b, 0, U);
    BB(&b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
    bb_u32(&b, 0);
    expect("varint 11 bytes", &b, W15_E_BAD_VARINT, CALL_AT(0) + 5, "expected a LEB128 varint", "more than 10 bytes", NULL);
    call_with(&b, 0, U);
    BB(&b, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02);
    bb_u32(&b, 0);
    expect("varint overflow", &b, W15_E_BAD_VARINT, CALL_AT(0) + 5, "a value over 64 bits", NULL);
    call_with(&b, 0, I);
    BB(&b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
    bb_u32(&b, 0);
    expect("svari 12 bytes", &b, W15_E_BAD_VARINT, CALL_AT(0) + 5, "more than 10 bytes", NULL);
    call_with(&b, 1, I);
    BB(&b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
    bb_u32(&b, 0);
    expect("0.0a svari overflow", &b, W15_E_BAD_VARINT, CALL_AT(1) + 5, "over 64 bits", NULL);
}

static void data_errors(void)
{
    static const uint8_t D[3] = {8, 0, 0}, S[3] = {7, 0, 0}, UA[3] = {1, 0, 1};
    bb_t b = {0};
    call_with(&b, 0, D);
    BB(&b, 3);
    bb_u32(&b, 1);
    bb_u32(&b, 1);
    BB(&b, 0);
    bb_u32(&b, 0);
    expect("bad method", &b, W15_E_BAD_COMP, CALL_AT(0) + 5, "expected a compression method", "found 3", NULL);
    call_with(&b, 1, D);
    BB(&b, 2);
    bb_u32(&b, 1);
    bb_u32(&b, 1);
    BB(&b, 0);
    bb_u32(&b, 0);
    expect("LZ4 in 0.0a", &b, W15_E_BAD_COMP, CALL_AT(1) + 5, "0 (None)..1 (Zlib)", "found 2", NULL);
    call_with(&b, 0, D);
    BB(&b, 0);
    bb_u32(&b, 4);
    bb_u32(&b, 3);
    BB(&b, 1, 2, 3);
    bb_u32(&b, 0);
    expect("None with csize != size", &b, W15_E_BAD_BLOB, CALL_AT(0) + 10, "equal to size (4)", "found 3", NULL);
    call_with(&b, 0, D);
    BB(&b, 2);
    bb_u32(&b, 0x7E000001u);
    bb_u32(&b, 1);
    BB(&b, 0);
    bb_u32(&b, 0);
    expect("LZ4 size over limit", &b, W15_E_BAD_LENGTH, CALL_AT(0) + 6, "LZ4_MAX_INPUT_SIZE", NULL);

    /* blobs that do not decompress to their stated size */
    static const char text[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    char l[128];
    int ln = LZ4_compress_default(text, l, sizeof text, sizeof l);
    call_with(&b, 0, D);
    BB(&b, 2);
    bb_u32(&b, sizeof text + 1); /* one more than it holds */
    bb_u32(&b, (uint32_t)ln);
    bb_raw(&b, l, (size_t)ln);
    bb_u32(&b, 0);
    expect("LZ4 short", &b, W15_E_BAD_BLOB, CALL_AT(0) + 5, "decompresses to 73 bytes", "fewer bytes", NULL);
    call_with(&b, 0, D);
    BB(&b, 2);
    bb_u32(&b, 10);
    bb_u32(&b, 4);
    BB(&b, 0xF0, 0xFF, 0xFF, 0xFF);
    bb_u32(&b, 0);
    expect("LZ4 garbage", &b, W15_E_BAD_BLOB, CALL_AT(0) + 5, "expected a LZ4 blob", "invalid LZ4 block", NULL);
    uint8_t z[128];
    uLongf zn = sizeof z;
    compress2(z, &zn, (const Bytef *)text, sizeof text, 6);
    call_with(&b, 0, D);
    BB(&b, 1);
    bb_u32(&b, sizeof text - 1); /* one less */
    bb_u32(&b, (uint32_t)zn);
    bb_raw(&b, z, zn);
    bb_u32(&b, 0);
    expect("zlib long", &b, W15_E_BAD_BLOB, CALL_AT(0) + 5, "Zlib blob", "does not end at the stated size", NULL);
    call_with(&b, 0, D);
    BB(&b, 1);
    bb_u32(&b, sizeof text);
    bb_u32(&b, (uint32_t)zn - 2); /* cut stream */
    bb_raw(&b, z, zn - 2);
    bb_u32(&b, 0);
    expect("zlib cut", &b, W15_E_BAD_BLOB, CALL_AT(0) + 5, "zlib stream", NULL);
    call_with(&b, 0, D);
    BB(&b, 1);
    bb_u32(&b, 0xFFFFFF00u); /* a huge size from a tiny stream: refused before allocating */
    bb_u32(&b, (uint32_t)zn);
    bb_raw(&b, z, zn);
    bb_u32(&b, 0);
    expect("ratio", &b, W15_E_BAD_BLOB, CALL_AT(0) + 5, "too few stored bytes", NULL);

    static const uint8_t FPA[3] = {9, 0, 1};
    call_with(&b, 0, FPA);
    bb_u32(&b, 65537);
    bb_u32(&b, 0);
    expect("FunctionPtr[65537]", &b, W15_E_BAD_LENGTH, CALL_AT(0) + 5, "at most 65536 elements",
           "FunctionPtr", "found 65537", NULL);

    /* counts and lengths past the end of the file read as truncation, and
     * cost no memory */
    call_with(&b, 0, S);
    bb_u32(&b, 0xFFFFFFF0u);
    bb_raw(&b, "abc", 3);
    expect("string past EOF", &b, W15_E_TRUNCATED, CALL_AT(0), "truncated after 0 complete calls",
           "the string length at byte", "asks for 4294967280 bytes, only 3 are left", NULL);
    call_with(&b, 0, UA);
    bb_u32(&b, 0xFFFFFFF0u);
    BB(&b, 1, 2, 3);
    expect("array past EOF", &b, W15_E_TRUNCATED, CALL_AT(0), "truncated after 0 complete calls", NULL);
    call_with(&b, 0, D);
    BB(&b, 0);
    bb_u32(&b, 0xFFFFFFFEu);
    bb_u32(&b, 0xFFFFFFFEu);
    expect("blob past EOF", &b, W15_E_TRUNCATED, CALL_AT(0), "truncated after 0 complete calls", NULL);
}

/* Indices are sparse: memory follows declarations, not index values. */
static void sparse_indices(void)
{
    bb_t b = {0};
    bb_header00(&b, 0xFFFFFFFFu, 0xFFFFFFFFu);
    BB(&b, 1, 0);
    bb_u32(&b, 4000000000u);
    bb_str(&b, "g");
    const uint8_t g[][3] = {{1, 1, 0}};
    bb_declfunc(&b, 4000000001u, "f", V, 1, g);
    bb_u8(&b, 2);
    bb_u32(&b, 4000000001u);
    BB(&b, 9);
    bb_u32(&b, 4000000000u);
    bb_u32(&b, 0);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(b.p, b.n, "sparse", &err);
    REQUIRE(r);
    w15_op_t op;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_GROUP);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_CALL);
    CHECK_EQ(op.call->args[0].group, 4000000000u);
    CHECK(w15_reader_func(r, 4000000001u) != NULL);
    CHECK(w15_reader_group(r, 4000000000u) != NULL);
    CHECK(w15_reader_group(r, 3) == NULL);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
    w15_reader_close(r);
    free(b.p);
}

/* A corrupt LZ4 frame is BAD_STREAM, with the offset in the decompressed
 * stream. */
static void lz4_stream_corrupt(void)
{
    char *path = tmp_path();
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.stream_lz4 = 1;
    o.max_functions = 1;
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    REQUIRE(w);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_func(&b, 0, "glFlush", (w15_type_t){0, 0, 0}, 0, NULL);
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    CHECK(w15_writer_flush(w, &err) == 0);
    for (int k = 0; k < 100; k++) {
        w15_buf_reserve(&b, 16);
        w15_put_u8(&b, 2);
        w15_put_u32(&b, 0);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
    }
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    CHECK(w15_writer_close(w, &err) == 0);
    w15_buf_free(&b);
    size_t n;
    uint8_t *p = slurp(path, &n);
    unlink(path);
    free(path);
    p[n - 12] ^= 0x55; /* inside the last block (block checksum catches it) */
    w15_reader_t *r = w15_reader_open_mem(p, n, "z.wip15", &err);
    if (!r)
        fprintf(stderr, "%s\n", err.msg);
    REQUIRE(r);
    int bf;
    CHECK_EQ(read_all(r, &err, &bf), W15_NEXT_ERROR);
    CHECK_EQ(err.code, W15_E_BAD_STREAM);
    CHECK_HAS(err.msg, "z.wip15: byte ");
    CHECK_HAS(err.msg, "(in the decompressed stream)");
    CHECK_HAS(err.msg, "expected a valid LZ4 frame");
    w15_reader_close(r);
    free(p);
}

/* Flip bytes at every offset of a real trace (plain and LZ4 stream): the
 * reader must end cleanly with some status, and never crash (ASan). */
static void flipped_bytes(int lz4)
{
    char *path = tmp_path();
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.stream_lz4 = lz4;
    o.min_blob = 8;
    o.max_functions = 3;
    o.max_groups = 1;
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    REQUIRE(w);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_group(&b, 0, W15_GROUP_ENUM, "GLenum");
    w15_type_t a[] = {{W15_UINT, 1, 0}, {W15_INT, 0, 1}, {W15_STRING, 0, 0}, {W15_DATA, 0, 1},
                      {W15_DOUBLE, 0, 0}, {W15_BOOL, 0, 1}};
    w15_put_decl_func(&b, 2, "glF", (w15_type_t){W15_PTR, 0, 0}, 6, a);
    for (int k = 0; k < 4; k++) {
        w15_buf_reserve(&b, 128);
        w15_put_u8(&b, 2);
        w15_put_u32(&b, 2);
        w15_put_uvari(&b, 0x1405);
        w15_put_u32(&b, 0);
        w15_put_u32(&b, 2);
        w15_put_svari(&b, -3);
        w15_put_svari(&b, INT64_MIN);
        w15_put_string(&b, "hello", 5);
        w15_put_u32(&b, 1);
        w15_put_data(&b, "abcabcabcabcabcabcabcabcabcabcabc", 33);
        w15_buf_reserve(&b, 64);
        w15_put_f64(&b, 0.5);
        w15_put_u32(&b, 2);
        w15_put_u8(&b, 1);
        w15_put_u8(&b, 0);
        w15_put_uvari(&b, 0xdeadbeef);
        w15_put_u32(&b, 1);
        w15_put_string(&b, "x", 1);
        w15_put_data(&b, "zzzzzzzzzzzzzzzzzzzzzzzzzzzzz", 29);
        w15_buf_commit(&b, 1);
    }
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    CHECK(w15_writer_close(w, &err) == 0);
    w15_buf_free(&b);
    size_t n;
    uint8_t *p = slurp(path, &n);
    unlink(path);
    free(path);
    static const uint8_t flips[] = {0x01, 0x80, 0xFF, 0x7F};
    int outcomes[W15_NEXT_ERROR + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            uint8_t *c = malloc(n);
            memcpy(c, p, n);
            c[i] ^= flips[f];
            w15_reader_t *r = w15_reader_open_mem(c, n, "flip", &err);
            if (r) {
                int bf;
                w15_next_t x = read_all(r, &err, &bf);
                CHECK(x >= W15_NEXT_END);
                outcomes[x]++;
                CHECK(err.msg[0] != 0);
                w15_reader_close(r);
            } else {
                CHECK(err.code != W15_E_OK);
                outcomes[W15_NEXT_ERROR]++;
            }
            free(c);
        }
    }
    printf("  %s: %zu bytes x %zu flips: %d end, %d truncated, %d error\n", lz4 ? "LZ4 stream" : "plain",
           n, sizeof flips, outcomes[W15_NEXT_END], outcomes[W15_NEXT_TRUNCATED], outcomes[W15_NEXT_ERROR]);
    free(p);
}
static void flipped_plain(void) { flipped_bytes(0); }
static void flipped_lz4(void) { flipped_bytes(1); }

int main(void)
{
    RUN(header_errors);
    RUN(op_errors);
    RUN(varint_errors);
    RUN(data_errors);
    RUN(sparse_indices);
    RUN(lz4_stream_corrupt);
    RUN(flipped_plain);
    RUN(flipped_lz4);
    return check_summary();
}
