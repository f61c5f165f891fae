/* test_vectors.c -- byte vectors assembled by hand from the seed layouts
 * (wip15-format-v0.0.txt and v0.0a.txt), checked through the reader. */
#include "common.h"

#include <lz4.h>
#include <math.h>
#include <zlib.h>

static const uint8_t V0[3] = {0, 0, 0};
static const uint8_t T_VOID[3] = {0, 0, 0}, T_UINT[3] = {1, 0, 0}, T_UINTA[3] = {1, 0, 1},
                     T_INT[3] = {2, 0, 0}, T_INTA[3] = {2, 0, 1}, T_PTR[3] = {3, 0, 0},
                     T_BOOL[3] = {4, 0, 0}, T_BOOLA[3] = {4, 0, 1}, T_FLOAT[3] = {5, 0, 0},
                     T_FLOATA[3] = {5, 0, 1}, T_DOUBLE[3] = {6, 0, 0}, T_STRING[3] = {7, 0, 0},
                     T_STRINGA[3] = {7, 0, 1}, T_DATA[3] = {8, 0, 0}, T_DATAA[3] = {8, 0, 1},
                     T_FUNCPTR[3] = {9, 0, 0}, T_UINTG[3] = {1, 1, 0}, T_UINTAG[3] = {1, 1, 1};

static const char blobtext[] =
    "glBufferData glBufferData glBufferData glBufferData glBufferData glBufferData glBufferData";

/* Build the common body of both versions.  `v0a` selects the 0.0a svari
 * encoding, group declarations without type and no LZ4 blob. */
static void build(bb_t *b, int v0a)
{
    if (v0a)
        bb_header00a(b, 8, 4);
    else
        bb_header00(b, 8, 4);
    /* groups */
    bb_u8(b, 1);
    if (!v0a)
        bb_u8(b, 2); /* GLBuffers */
    bb_u32(b, 1);
    bb_str(b, "BufferName");
    bb_u8(b, 1);
    if (!v0a)
        bb_u8(b, 0); /* Enum */
    bb_u32(b, 0);
    bb_str(b, "TextureTarget");

    /* f0(UnsignedInt, UnsignedInt[]) */
    const uint8_t a0[][3] = {{1, 0, 0}, {1, 0, 1}};
    bb_declfunc(b, 0, "fUint", T_VOID, 2, a0);
    bb_u8(b, 2);
    bb_u32(b, 0);
    BB(b, 0xAC, 0x02);                   /* 300 */
    bb_u32(b, 3);                        /* count */
    BB(b, 0x00);                         /* 0 */
    BB(b, 0x7F);                         /* 127 */
    BB(b, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01); /* UINT64_MAX */
    bb_u32(b, 0);                        /* extras */

    /* f1(Int x5, Int[]) */
    const uint8_t a1[][3] = {{2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 0}, {2, 0, 1}};
    bb_declfunc(b, 1, "fInt", T_VOID, 6, a1);
    bb_u8(b, 2);
    bb_u32(b, 1);
    if (!v0a) {
        BB(b, 0x00);                     /* 0 */
        BB(b, 0x03);                     /* -1: 1<<1|1 */
        BB(b, 0x02);                     /* 1 */
        BB(b, 0x01);                     /* INT64_MIN: "negative zero" */
        BB(b, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01); /* INT64_MAX */
        bb_u32(b, 2);
        BB(b, 0x81, 0x01);               /* -64: 129 */
        BB(b, 0x7E);                     /* 63: 126 */
    } else {
        BB(b, 0x00);                     /* 0 */
        BB(b, 0x7F);                     /* -1 */
        BB(b, 0x01);                     /* 1 */
        BB(b, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F); /* INT64_MIN */
        BB(b, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00); /* INT64_MAX */
        bb_u32(b, 2);
        BB(b, 0x40);                     /* -64 */
        BB(b, 0xBF, 0x00);               /* 63 */
    }
    bb_u32(b, 0);

    /* f2(Ptr, Bool, Bool[], Float, Float[], Double, FunctionPtr, String, String[]) */
    const uint8_t a2[][3] = {{3, 0, 0}, {4, 0, 0}, {4, 0, 1}, {5, 0, 0}, {5, 0, 1},
                             {6, 0, 0}, {9, 0, 0}, {7, 0, 0}, {7, 0, 1}};
    bb_declfunc(b, 2, "fMisc", T_VOID, 9, a2);
    bb_u8(b, 2);
    bb_u32(b, 2);
    BB(b, 0xEF, 0xFD, 0xB6, 0xF5, 0x0D); /* Ptr 0xdeadbeef */
    BB(b, 0x02);                         /* Bool: raw byte 2 (true) */
    bb_u32(b, 3);
    BB(b, 0x00, 0x01, 0xFF);             /* Bool[] */
    BB(b, 0x00, 0x00, 0xC0, 0x3F);       /* 1.5f */
    bb_u32(b, 3);
    BB(b, 0x01, 0x00, 0xC0, 0x7F);       /* NaN with payload 1 */
    BB(b, 0x00, 0x00, 0x00, 0x80);       /* -0.0f */
    BB(b, 0x00, 0x00, 0x80, 0xFF);       /* -inf */
    BB(b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xC0); /* -2.5 */
    /* FunctionPtr: nothing */
    bb_str(b, "hi");
    bb_u32(b, 3);
    bb_str(b, "");
    bb_str(b, "abc");
    bb_str(b, "x");
    bb_u32(b, 0);

    /* f3(Data, Data, Data[]) -> Double */
    const uint8_t a3[][3] = {{8, 0, 0}, {8, 0, 0}, {8, 0, 1}};
    bb_declfunc(b, 3, "fData", T_DOUBLE, 3, a3);
    bb_u8(b, 2);
    bb_u32(b, 3);
    BB(b, 0);                            /* None */
    bb_u32(b, 4);
    bb_u32(b, 4);
    bb_raw(b, "\x01\x02\x03\x04", 4);
    {
        uint8_t z[256];
        uLongf zn = sizeof z;
        if (compress2(z, &zn, (const Bytef *)blobtext, sizeof blobtext, 9) != Z_OK)
            abort();
        BB(b, 1);                        /* Zlib */
        bb_u32(b, sizeof blobtext);
        bb_u32(b, (uint32_t)zn);
        bb_raw(b, z, zn);
    }
    bb_u32(b, 2);                        /* Data[2] */
    if (!v0a) {
        char l[256];
        int ln = LZ4_compress_default(blobtext, l, sizeof blobtext, sizeof l);
        if (ln <= 0)
            abort();
        BB(b, 2);                        /* LZ4 */
        bb_u32(b, sizeof blobtext);
        bb_u32(b, (uint32_t)ln);
        bb_raw(b, l, (size_t)ln);
    } else {
        BB(b, 0);
        bb_u32(b, 0);
        bb_u32(b, 0);
    }
    BB(b, 0);                            /* empty None blob */
    bb_u32(b, 0);
    bb_u32(b, 0);
    BB(b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F); /* result 1.0 */
    bb_u32(b, 0);

    /* f4(UnsignedInt[] grouped) -> UnsignedInt grouped, 2 extras */
    const uint8_t a4[][3] = {{1, 1, 1}};
    bb_declfunc(b, 4, "fGroup", T_UINTG, 1, a4);
    bb_u8(b, 2);
    bb_u32(b, 4);
    bb_u32(b, 2);
    BB(b, 0x01, 0x02);
    bb_u32(b, 0);                        /* group TextureTarget */
    BB(b, 0x05);                         /* result 5 */
    bb_u32(b, 1);                        /* group BufferName */
    bb_u32(b, 2);                        /* extras */
    bb_str(b, "wip15.ptr");
    BB(b, 0);
    bb_u32(b, 12);
    bb_u32(b, 12);
    BB(b, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00);
    bb_str(b, "e");
    BB(b, 0);
    bb_u32(b, 0);
    bb_u32(b, 0);

    /* a sparse function index near the top, declared after others */
    bb_declfunc(b, 7, "fLast", T_VOID, 0, NULL);
    bb_u8(b, 2);
    bb_u32(b, 7);
    bb_u32(b, 0);
    (void)T_UINT; (void)T_UINTA; (void)T_INT; (void)T_INTA; (void)T_PTR; (void)T_BOOL;
    (void)T_BOOLA; (void)T_FLOAT; (void)T_FLOATA; (void)T_STRING; (void)T_STRINGA; (void)T_DATA;
    (void)T_DATAA; (void)T_FUNCPTR; (void)T_UINTAG;
}

static int streq(w15_str_t s, const char *c)
{
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

static w15_next_t next(w15_reader_t *r, w15_op_t *op)
{
    w15_error_t e;
    w15_next_t n = w15_reader_next(r, op, &e);
    if (n == W15_NEXT_ERROR || n == W15_NEXT_TRUNCATED)
        fprintf(stderr, "  reader: %s\n", e.msg);
    return n;
}

static void check_file(int v0a, int mode)
{
    bb_t b = {0};
    build(&b, v0a);
    char *tmp;
    w15_error_t err;
    w15_reader_t *r = open_bytes(b.p, b.n, mode, &tmp, &err);
    if (!r)
        fprintf(stderr, "open: %s\n", err.msg);
    REQUIRE(r);
    const w15_header_t *h = w15_reader_header(r);
    CHECK_EQ(h->version, v0a ? W15_VERSION_0_0A : W15_VERSION_0_0);
    CHECK_EQ(h->endian, '_');
    CHECK_EQ(h->max_functions, 8);
    CHECK_EQ(h->max_groups, 4);
    CHECK_EQ(h->stream_lz4, 0);

    w15_op_t op;
    CHECK_EQ(next(r, &op), W15_NEXT_DECL_GROUP);
    CHECK_EQ(op.offset, v0a ? 30 : 16);
    CHECK_EQ(op.group->index, 1);
    CHECK_EQ(op.group->type, v0a ? W15_GROUP_ENUM : W15_GROUP_GL_BUFFERS);
    CHECK(strcmp(op.group->name, "BufferName") == 0);
    CHECK_EQ(next(r, &op), W15_NEXT_DECL_GROUP);
    CHECK(strcmp(op.group->name, "TextureTarget") == 0);

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(op.func->index, 0);
    CHECK(strcmp(op.func->name, "fUint") == 0);
    CHECK_EQ(op.func->nargs, 2);
    CHECK_EQ(op.func->result.base, W15_VOID);
    CHECK_EQ(op.func->args[1].is_array, 1);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    const w15_call_t *c = op.call;
    CHECK_EQ(c->index, 0);
    CHECK(c->result == NULL);
    CHECK_EQ(c->args[0].count, 1);
    CHECK_EQ(c->args[0].v.u[0], 300);
    CHECK_EQ(c->args[1].count, 3);
    CHECK_EQ(c->args[1].v.u[0], 0);
    CHECK_EQ(c->args[1].v.u[1], 127);
    CHECK_EQ(c->args[1].v.u[2], UINT64_MAX);
    CHECK_EQ(c->nextras, 0);

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    c = op.call;
    CHECK_EQ(c->index, 1);
    CHECK(c->args[0].v.i[0] == 0);
    CHECK(c->args[1].v.i[0] == -1);
    CHECK(c->args[2].v.i[0] == 1);
    CHECK(c->args[3].v.i[0] == INT64_MIN);
    CHECK(c->args[4].v.i[0] == INT64_MAX);
    CHECK_EQ(c->args[5].count, 2);
    CHECK(c->args[5].v.i[0] == -64);
    CHECK(c->args[5].v.i[1] == 63);

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    c = op.call;
    CHECK_EQ(c->args[0].v.u[0], 0xdeadbeefu);
    CHECK_EQ(c->args[1].v.b[0], 2);
    CHECK_EQ(c->args[2].count, 3);
    CHECK_EQ(c->args[2].v.b[2], 0xFF);
    CHECK(c->args[3].v.f[0] == 1.5f);
    CHECK_EQ(f2u(c->args[4].v.f[0]), 0x7FC00001u);
    CHECK(isnan(c->args[4].v.f[0]));
    CHECK_EQ(f2u(c->args[4].v.f[1]), 0x80000000u);
    CHECK(isinf(c->args[4].v.f[2]) && c->args[4].v.f[2] < 0);
    CHECK(c->args[5].v.d[0] == -2.5);
    CHECK_EQ(c->args[6].type.base, W15_FUNCPTR);
    CHECK_EQ(c->args[6].count, 1);
    CHECK(streq(c->args[7].v.s[0], "hi"));
    CHECK_EQ(c->args[8].count, 3);
    CHECK(streq(c->args[8].v.s[0], ""));
    CHECK(streq(c->args[8].v.s[1], "abc"));
    CHECK(streq(c->args[8].v.s[2], "x"));

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    c = op.call;
    REQUIRE(c->result);
    CHECK(c->result->v.d[0] == 1.0);
    const w15_blob_t *d = &c->args[0].v.data[0];
    CHECK_EQ(d->method, W15_COMP_NONE);
    CHECK_EQ(d->size, 4);
    const uint8_t *p = w15_reader_blob(r, d, &err);
    CHECK(p && memcmp(p, "\x01\x02\x03\x04", 4) == 0);
    d = &c->args[1].v.data[0];
    CHECK_EQ(d->method, W15_COMP_ZLIB);
    CHECK_EQ(d->size, sizeof blobtext);
    CHECK(d->csize < sizeof blobtext);
    p = w15_reader_blob(r, d, &err);
    CHECK(p && memcmp(p, blobtext, sizeof blobtext) == 0);
    CHECK_EQ(c->args[2].count, 2);
    d = &c->args[2].v.data[0];
    if (!v0a) {
        CHECK_EQ(d->method, W15_COMP_LZ4);
        CHECK_EQ(d->size, sizeof blobtext);
        p = w15_reader_blob(r, d, &err);
        CHECK(p && memcmp(p, blobtext, sizeof blobtext) == 0);
    }
    d = &c->args[2].v.data[1];
    CHECK_EQ(d->size, 0);
    CHECK(w15_reader_blob(r, d, &err) != NULL);

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(op.func->result.has_group, 1);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    c = op.call;
    CHECK_EQ(c->args[0].count, 2);
    CHECK_EQ(c->args[0].v.u[1], 2);
    CHECK_EQ(c->args[0].group, 0);
    CHECK_EQ(c->result->v.u[0], 5);
    CHECK_EQ(c->result->group, 1);
    CHECK(strcmp(w15_reader_group(r, c->result->group)->name, "BufferName") == 0);
    CHECK_EQ(c->nextras, 2);
    CHECK(streq(c->extras[0].name, "wip15.ptr"));
    CHECK_EQ(c->extras[0].data.size, 12);
    p = w15_reader_blob(r, &c->extras[0].data, &err);
    CHECK(p && p[0] == 0xFF && p[4] == 0x10);
    CHECK(streq(c->extras[1].name, "e"));
    CHECK_EQ(c->extras[1].data.size, 0);

    CHECK_EQ(next(r, &op), W15_NEXT_DECL_FUNC);
    CHECK_EQ(next(r, &op), W15_NEXT_CALL);
    CHECK(strcmp(op.call->func->name, "fLast") == 0);
    CHECK_EQ(op.call->index, 5);
    CHECK_EQ(next(r, &op), W15_NEXT_END);
    CHECK_EQ(next(r, &op), W15_NEXT_END); /* sticky */

    w15_reader_stats_t st;
    w15_reader_get_stats(r, &st);
    CHECK_EQ(st.calls, 6);
    CHECK_EQ(st.funcs, 6);
    CHECK_EQ(st.groups, 2);
    CHECK_EQ(st.stream_bytes, b.n);
    CHECK_EQ(st.file_bytes, b.n);
    CHECK(w15_reader_func(r, 7) != NULL);
    CHECK(w15_reader_func(r, 6) == NULL);
    w15_reader_close(r);
    done_tmp(tmp);
    free(b.p);
}

static void vectors_00_mem(void) { check_file(0, 0); }
static void vectors_00_file(void) { check_file(0, 1); }
static void vectors_00a_mem(void) { check_file(1, 0); }
static void vectors_00a_file(void) { check_file(1, 1); }

/* A redeclaration replaces the earlier declaration for later calls. */
static void redeclaration_replaces(void)
{
    bb_t b = {0};
    bb_header00(&b, 2, 1);
    const uint8_t u[][3] = {{1, 0, 0}};
    bb_declfunc(&b, 0, "old", T_VOID, 1, u);
    bb_declfunc(&b, 0, "new", T_VOID, 0, NULL);
    bb_u8(&b, 2);
    bb_u32(&b, 0);
    bb_u32(&b, 0);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(b.p, b.n, "redecl", &err);
    REQUIRE(r);
    w15_op_t op;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    const w15_func_t *old = op.func;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_CALL);
    CHECK(strcmp(op.call->func->name, "new") == 0);
    CHECK(strcmp(old->name, "old") == 0); /* still valid */
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
    w15_reader_close(r);
    free(b.p);
}

/* Big-endian marker: accepted, stream still little-endian. */
static void endian_big_marker(void)
{
    bb_t b = {0};
    bb_raw(&b, "WIP15-", 6);
    BB(&b, 0, 0);
    bb_u32(&b, 1);
    bb_u32(&b, 0);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(b.p, b.n, "be", &err);
    REQUIRE(r);
    CHECK_EQ(w15_reader_header(r)->endian, '-');
    CHECK_EQ(w15_reader_header(r)->max_functions, 1);
    w15_op_t op;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
    w15_reader_close(r);
    free(b.p);
}

/* Reference LEB128 encoders, straight from the seed's definitions. */
static size_t ref_uleb(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        p[n++] = byte | (v ? 0x80 : 0);
    } while (v);
    return n;
}

static size_t ref_svari00(uint8_t *p, int64_t v)
{
    if (v == INT64_MIN)
        return ref_uleb(p, 1);
    uint64_t mag = v < 0 ? (uint64_t)-v : (uint64_t)v;
    return ref_uleb(p, (mag << 1) | (v < 0));
}

/* The inline encoders agree with the reference at every power-of-two
 * boundary, and the reader decodes them back. */
static void varint_encoders(void)
{
    w15_buf_t b;
    REQUIRE(w15_buf_init(&b, 0) == 0);
    bb_t want = {0};
    bb_header00(&want, 1, 0);
    const uint8_t a[][3] = {{1, 0, 1}, {2, 0, 1}};
    bb_declfunc(&want, 0, "v", V0, 2, a);
    bb_u8(&want, 2);
    bb_u32(&want, 0);
    uint64_t uv[64 * 3];
    int64_t sv[64 * 4];
    int nu = 0, ns = 0;
    for (int k = 0; k < 64; k++) {
        uint64_t p2 = (uint64_t)1 << k;
        uv[nu++] = p2 - 1;
        uv[nu++] = p2;
        uv[nu++] = p2 | (p2 >> 1);
        sv[ns++] = (int64_t)(p2 - 1);
        sv[ns++] = -(int64_t)(p2 - 1);
        sv[ns++] = k < 63 ? (int64_t)p2 : INT64_MIN;
        sv[ns++] = k < 63 ? -(int64_t)p2 : INT64_MIN + 1;
    }
    bb_u32(&want, (uint32_t)nu);
    for (int i = 0; i < nu; i++) {
        uint8_t tmp[16];
        size_t n = ref_uleb(tmp, uv[i]);
        bb_raw(&want, tmp, n);
        w15_buf_clear(&b);
        REQUIRE(w15_buf_reserve(&b, W15_MAX_UVARI) == 0);
        w15_put_uvari(&b, uv[i]);
        CHECK_EQ(b.len, n);
        CHECK(memcmp(b.data, tmp, n) == 0);
    }
    bb_u32(&want, (uint32_t)ns);
    for (int i = 0; i < ns; i++) {
        uint8_t tmp[16];
        size_t n = ref_svari00(tmp, sv[i]);
        bb_raw(&want, tmp, n);
        w15_buf_clear(&b);
        REQUIRE(w15_buf_reserve(&b, W15_MAX_UVARI) == 0);
        w15_put_svari(&b, sv[i]);
        CHECK_EQ(b.len, n);
        CHECK(memcmp(b.data, tmp, n) == 0);
    }
    bb_u32(&want, 0);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(want.p, want.n, "varints", &err);
    REQUIRE(r);
    w15_op_t op;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_CALL);
    CHECK_EQ(op.call->args[0].count, nu);
    for (int i = 0; i < nu; i++)
        CHECK_EQ(op.call->args[0].v.u[i], uv[i]);
    for (int i = 0; i < ns; i++)
        CHECK(op.call->args[1].v.i[i] == sv[i]);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
    w15_reader_close(r);
    w15_buf_free(&b);
    free(want.p);
}

static void names(void)
{
    CHECK(strcmp(w15_base_name(W15_UINT), "UnsignedInt") == 0);
    CHECK(strcmp(w15_base_name(W15_FUNCPTR), "FunctionPtr") == 0);
    CHECK(strcmp(w15_base_name(10), "?") == 0);
    CHECK(strcmp(w15_comp_name(W15_COMP_LZ4), "LZ4") == 0);
    CHECK(strcmp(w15_group_type_name(W15_GROUP_GL_BUFFERS), "GLBuffers") == 0);
    CHECK(strcmp(w15_group_type_name(W15_GROUP_GLX_CONTEXTS), "GLXContexts") == 0);
    CHECK(strcmp(w15_group_type_name(W15_GROUP_GL_DISPLAY_LISTS), "GLDisplayLists") == 0);
    CHECK(strcmp(w15_group_type_name(W15_GROUP_TYPE_COUNT_), "?") == 0);
    CHECK(strcmp(w15_errcode_message(W15_E_TRUNCATED), "file truncated inside an operation") == 0);
}

int main(void)
{
    RUN(vectors_00_mem);
    RUN(vectors_00_file);
    RUN(vectors_00a_mem);
    RUN(vectors_00a_file);
    RUN(redeclaration_replaces);
    RUN(endian_big_marker);
    RUN(varint_encoders);
    RUN(names);
    return check_summary();
}
