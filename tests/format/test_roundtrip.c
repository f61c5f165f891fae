/* test_roundtrip.c -- writer -> reader for every type and blob method,
 * with and without the LZ4 stream, from memory and from a file. */
#define _GNU_SOURCE /* memmem */
#include "common.h"

#include <errno.h>
#include <math.h>
#include <lz4frame.h>
#include <zstd.h>
#include <sys/wait.h>

enum { F_ALL, F_VOID, F_NRES };
#define LONG_STR (100 * 1000)
#define BIG_BLOB ((3u << 20) / 2) /* 1.5 MiB */

static const w15_type_t ARGS[] = {
    {W15_UINT, 0, 0},   {W15_UINT, 0, 1},   {W15_INT, 0, 0},    {W15_INT, 0, 1},
    {W15_PTR, 0, 0},    {W15_BOOL, 0, 0},   {W15_BOOL, 0, 1},   {W15_FLOAT, 0, 0},
    {W15_FLOAT, 0, 1},  {W15_DOUBLE, 0, 0}, {W15_DOUBLE, 0, 1}, {W15_STRING, 0, 0},
    {W15_STRING, 0, 1}, {W15_DATA, 0, 0},   {W15_DATA, 0, 1},   {W15_FUNCPTR, 0, 0},
    {W15_UINT, 1, 0},   {W15_PTR, 0, 1},
};
#define NARGS (sizeof ARGS / sizeof ARGS[0])

static uint64_t rng = 88172645463325252ull;
static uint64_t xs(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef struct sample {
    uint64_t u;
    int64_t i, ia[4];
    float f, fa[3];
    double d;
    size_t n_ia;
    const char *s;
    uint32_t slen;
    uint8_t *blob;
    uint32_t blen;
    uint8_t *blob2;
    uint32_t blen2;
} sample_t;

static char *long_str;
static uint8_t *text_blob, *noise_blob, *big_blob;

static void make_data(void)
{
    long_str = malloc(LONG_STR);
    for (int i = 0; i < LONG_STR; i++)
        long_str[i] = (char)('a' + i % 26);
    text_blob = malloc(10000);
    for (int i = 0; i < 10000; i++)
        text_blob[i] = (uint8_t)"glDrawArrays(GL_TRIANGLES, 0, 3);\n"[i % 34];
    noise_blob = malloc(10000);
    for (int i = 0; i < 10000; i++)
        noise_blob[i] = (uint8_t)xs();
    big_blob = malloc(BIG_BLOB);
    for (uint32_t i = 0; i < BIG_BLOB; i++)
        big_blob[i] = (i / 4096) % 3 == 0 ? (uint8_t)xs() : (uint8_t)(i * 7);
}

static sample_t samples[6];

static void make_samples(void)
{
    float nan1;
    uint32_t nanbits = 0x7FC01234u;
    memcpy(&nan1, &nanbits, 4);
    samples[0] = (sample_t){.u = 0, .i = INT64_MIN, .ia = {INT64_MIN, INT64_MAX, -1, 0}, .n_ia = 4,
                            .f = -0.0f, .fa = {nan1, -0.0f, INFINITY}, .d = -0.0, .s = "", .slen = 0,
                            .blob = text_blob, .blen = 10000, .blob2 = noise_blob, .blen2 = 10000};
    samples[1] = (sample_t){.u = UINT64_MAX, .i = INT64_MAX, .n_ia = 0, .f = nan1, .d = NAN,
                            .s = long_str, .slen = LONG_STR, .blob = (uint8_t *)"tiny", .blen = 4,
                            .blob2 = NULL, .blen2 = 0};
    samples[2] = (sample_t){.u = 1, .i = -1, .ia = {-64, 63}, .n_ia = 2, .f = 1e-40f, .d = 1e308,
                            .s = "hello", .slen = 5, .blob = big_blob, .blen = BIG_BLOB,
                            .blob2 = text_blob, .blen2 = 63};
    for (int k = 3; k < 6; k++)
        samples[k] = (sample_t){.u = xs(), .i = (int64_t)xs(), .ia = {(int64_t)xs()}, .n_ia = 1,
                                .f = (float)k, .d = (double)k / 3, .s = "s", .slen = 1,
                                .blob = text_blob + k, .blen = 64 + (uint32_t)k, .blob2 = noise_blob,
                                .blen2 = 65};
}

static void put_call(w15_buf_t *b, const sample_t *s)
{
    REQUIRE(w15_buf_reserve(b, 4096) == 0);
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, F_ALL);
    w15_put_uvari(b, s->u);                       /* UnsignedInt */
    w15_put_u32(b, 3);                            /* UnsignedInt[] */
    w15_put_uvari(b, s->u);
    w15_put_uvari(b, 0);
    w15_put_uvari(b, s->u >> 3);
    w15_put_svari(b, s->i);                       /* Int */
    w15_put_u32(b, (uint32_t)s->n_ia);            /* Int[] */
    for (size_t k = 0; k < s->n_ia; k++)
        w15_put_svari(b, s->ia[k]);
    w15_put_uvari(b, s->u ^ 0x1000);              /* Ptr */
    w15_put_u8(b, 1);                             /* Bool */
    w15_put_u32(b, 0);                            /* Bool[] empty */
    w15_put_f32(b, s->f);                         /* Float */
    w15_put_u32(b, 3);                            /* Float[] */
    for (int k = 0; k < 3; k++)
        w15_put_f32(b, s->fa[k]);
    w15_put_f64(b, s->d);                         /* Double */
    w15_put_u32(b, 1);                            /* Double[] */
    w15_put_f64(b, -s->d);
    REQUIRE(w15_buf_reserve(b, 64 + s->slen) == 0);
    w15_put_string(b, s->s, s->slen);             /* String */
    w15_put_u32(b, 2);                            /* String[] */
    w15_put_string(b, "", 0);
    w15_put_string(b, "two", 3);
    REQUIRE(w15_put_data(b, s->blob, s->blen) == 0); /* Data */
    REQUIRE(w15_buf_reserve(b, 64) == 0);
    w15_put_u32(b, s->blob2 ? 2 : 0);             /* Data[] */
    if (s->blob2) {
        REQUIRE(w15_put_data(b, s->blob2, s->blen2) == 0);
        REQUIRE(w15_put_data(b, s->blob, s->blen < 100 ? s->blen : 100) == 0);
    }
    REQUIRE(w15_buf_reserve(b, 64) == 0);
    /* FunctionPtr: nothing */
    w15_put_uvari(b, 7);                          /* UnsignedInt grouped */
    w15_put_u32(b, 1);
    w15_put_u32(b, 0);                            /* Ptr[] empty */
    w15_put_svari(b, s->i);                       /* result Int grouped */
    w15_put_u32(b, 0);
    w15_put_u32(b, 1);                            /* extras */
    w15_put_string(b, "wip15.ptr", 9);
    uint8_t ex[12] = {0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4, 5, 6, 7, 8};
    REQUIRE(w15_put_data(b, ex, sizeof ex) == 0);
    w15_buf_commit(b, 1);
}

/* Stream mode `m`: 0 plain, 1 LZ4 frame, 2 zstd frame. */
static void set_stream(w15_writer_opts_t *o, int m)
{
    o->stream_lz4 = m == 1;
    o->stream_zstd = m == 2;
}

static int rt_workers; /* zstd: workers on after sample 1, off after 3, on after 4 */

static int write_trace(const char *path, const w15_writer_opts_t *o)
{
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, o, &err);
    if (!w) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_group(&b, 0, W15_GROUP_ENUM, "G");
    w15_put_decl_group(&b, 1, W15_GROUP_GL_TEXTURES, "T");
    w15_type_t rt = {W15_INT, 1, 0};
    w15_put_decl_func(&b, F_ALL, "all", rt, NARGS, ARGS);
    w15_put_decl_func(&b, F_VOID, "void", (w15_type_t){0, 0, 0}, 0, NULL);
    for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
        put_call(&b, &samples[k]);
        if (k == 1 && w15_writer_submit(w, &b, &err) != 0)
            return -1;
        if (rt_workers && (k == 1 || k == 3 || k == 4)) {
            CHECK(w15_writer_submit(w, &b, &err) == 0);
            CHECK_EQ(w15_writer_set_workers(w, k == 3 ? 0 : 2, &err), 0);
        }
    }
    /* an uncommitted tail survives a submit */
    w15_buf_reserve(&b, 16);
    w15_put_u8(&b, W15_OP_CALL);
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    CHECK_EQ(b.len, 1);
    w15_put_u32(&b, F_VOID);
    w15_put_u32(&b, 0);
    w15_buf_commit(&b, 1);
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    CHECK_EQ(b.len, 0);
    w15_writer_stats_t st;
    w15_writer_get_stats(w, &st);
    CHECK_EQ(st.calls, 7);
    CHECK_EQ(st.ops, 11);
    CHECK_EQ(st.worker_frames, rt_workers ? 2 : 0);
    CHECK(st.blob_bytes_raw > BIG_BLOB);
    if (o->blob_method != W15_COMP_NONE)
        CHECK(st.blob_bytes_stored < st.blob_bytes_raw);
    else
        CHECK_EQ(st.blob_bytes_stored, st.blob_bytes_raw);
    w15_buf_free(&b);
    int rc = w15_writer_close(w, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    return rc;
}

static int is_compressible(const uint8_t *p, uint32_t n)
{
    return n >= 64 && (p == text_blob || (p >= text_blob && p < text_blob + 10000) || p == big_blob);
}

static void check_blob(w15_reader_t *r, const w15_blob_t *d, const uint8_t *want, uint32_t n,
                       w15_comp_t method)
{
    w15_error_t err;
    CHECK_EQ(d->size, n);
    if (method != W15_COMP_NONE && is_compressible(want, n) && n >= 1000)
        CHECK_EQ(d->method, method);
    else if (n < 64 || want == noise_blob)
        CHECK_EQ(d->method, W15_COMP_NONE);
    const uint8_t *p = w15_reader_blob(r, d, &err);
    CHECK(p != NULL);
    if (p)
        CHECK(n == 0 || memcmp(p, want, n) == 0);
}

static void check_trace(w15_reader_t *r, w15_comp_t method, int lz4)
{
    w15_op_t op;
    w15_error_t err;
    CHECK_EQ(w15_reader_header(r)->stream_lz4, lz4 == 1);
    CHECK_EQ(w15_reader_header(r)->stream_zstd, lz4 == 2);
    CHECK_EQ(w15_reader_header(r)->max_functions, F_NRES);
    CHECK_EQ(w15_reader_header(r)->max_groups, 2);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_GROUP);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_GROUP);
    CHECK_EQ(op.group->type, W15_GROUP_GL_TEXTURES);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    CHECK_EQ(op.func->nargs, NARGS);
    for (size_t k = 0; k < NARGS; k++)
        CHECK(memcmp(&op.func->args[k], &ARGS[k], 3) == 0);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_DECL_FUNC);
    for (size_t k = 0; k < sizeof samples / sizeof samples[0]; k++) {
        const sample_t *s = &samples[k];
        w15_next_t n = w15_reader_next(r, &op, &err);
        CHECK_EQ(n, W15_NEXT_CALL);
        if (n != W15_NEXT_CALL) {
            fprintf(stderr, "%s\n", err.msg);
            return;
        }
        const w15_value_t *a = op.call->args;
        CHECK_EQ(a[0].v.u[0], s->u);
        CHECK_EQ(a[1].count, 3);
        CHECK_EQ(a[1].v.u[2], s->u >> 3);
        CHECK(a[2].v.i[0] == s->i);
        CHECK_EQ(a[3].count, s->n_ia);
        for (size_t j = 0; j < s->n_ia && j < a[3].count; j++)
            CHECK(a[3].v.i[j] == s->ia[j]);
        CHECK_EQ(a[4].v.u[0], s->u ^ 0x1000);
        CHECK_EQ(a[5].v.b[0], 1);
        CHECK_EQ(a[6].count, 0);
        CHECK_EQ(f2u(a[7].v.f[0]), f2u(s->f));
        for (int j = 0; j < 3; j++)
            CHECK_EQ(f2u(a[8].v.f[j]), f2u(s->fa[j]));
        CHECK_EQ(d2u(a[9].v.d[0]), d2u(s->d));
        CHECK_EQ(d2u(a[10].v.d[0]), d2u(-s->d));
        CHECK_EQ(a[11].v.s[0].len, s->slen);
        CHECK(s->slen == 0 || memcmp(a[11].v.s[0].ptr, s->s, s->slen) == 0);
        CHECK_EQ(a[12].count, 2);
        CHECK_EQ(a[12].v.s[0].len, 0);
        CHECK(a[12].v.s[1].len == 3 && memcmp(a[12].v.s[1].ptr, "two", 3) == 0);
        check_blob(r, &a[13].v.data[0], s->blob, s->blen, method);
        CHECK_EQ(a[14].count, s->blob2 ? 2 : 0);
        if (s->blob2) {
            check_blob(r, &a[14].v.data[0], s->blob2, s->blen2, method);
            check_blob(r, &a[14].v.data[1], s->blob, s->blen < 100 ? s->blen : 100, method);
        }
        CHECK_EQ(a[15].type.base, W15_FUNCPTR);
        CHECK_EQ(a[16].v.u[0], 7);
        CHECK_EQ(a[16].group, 1);
        CHECK_EQ(a[17].count, 0);
        REQUIRE(op.call->result);
        CHECK(op.call->result->v.i[0] == s->i);
        CHECK_EQ(op.call->result->group, 0);
        CHECK_EQ(op.call->nextras, 1);
        CHECK(op.call->extras[0].name.len == 9 && memcmp(op.call->extras[0].name.ptr, "wip15.ptr", 9) == 0);
        const uint8_t *p = w15_reader_blob(r, &op.call->extras[0].data, &err);
        CHECK(p && p[0] == 0xFF && p[11] == 8);
    }
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_CALL);
    CHECK(strcmp(op.call->func->name, "void") == 0);
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
}

static void roundtrip(w15_comp_t method, int lz4)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = method;
    set_stream(&o, lz4);
    o.max_functions = F_NRES;
    o.max_groups = 2;
    char *path = tmp_path();
    REQUIRE(write_trace(path, &o) == 0);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open(path, &err);
    if (!r)
        fprintf(stderr, "%s\n", err.msg);
    REQUIRE(r);
    check_trace(r, method, lz4);
    w15_reader_stats_t st;
    w15_reader_get_stats(r, &st);
    CHECK_EQ(st.calls, 7);
    w15_reader_close(r);
    size_t n;
    uint8_t *bytes = slurp(path, &n);
    CHECK_EQ(st.file_bytes, n);
    r = w15_reader_open_mem(bytes, n, "mem", &err);
    REQUIRE(r);
    check_trace(r, method, lz4);
    w15_reader_close(r);
    free(bytes);
    if (!getenv("KEEP"))
        unlink(path);
    else
        fprintf(stderr, "kept %s\n", path);
    free(path);
}

/* Read through a pipe (no file size known: the reader grows its window as
 * bytes arrive), fed in small pieces by a child process. */
static void pipe_input(int lz4)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    set_stream(&o, lz4);
    o.max_functions = F_NRES;
    o.max_groups = 2;
    char *path = tmp_path();
    REQUIRE(write_trace(path, &o) == 0);
    size_t n;
    uint8_t *bytes = slurp(path, &n);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        for (size_t off = 0; off < n; off += 777)
            if (write(fds[1], bytes + off, n - off < 777 ? n - off : 777) < 0)
                _exit(1);
        _exit(0);
    }
    close(fds[1]);
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_fd(fds[0], "pipe", &err);
    if (!r)
        fprintf(stderr, "%s\n", err.msg);
    if (r) {
        check_trace(r, W15_COMP_LZ4, lz4);
        w15_reader_close(r);
    }
    int st;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    free(bytes);
    unlink(path);
    free(path);
}
static void pipe_plain(void) { pipe_input(0); }

/* Two concatenated LZ4 frames (as `cat a.lz4 b.lz4` makes) read as one
 * stream; the split falls inside an operation. */
static void concatenated_frames(void)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.max_functions = F_NRES;
    o.max_groups = 2;
    char *path = tmp_path();
    REQUIRE(write_trace(path, &o) == 0);
    size_t n;
    uint8_t *plain = slurp(path, &n);
    size_t cut = 100;
    size_t cap = LZ4F_compressFrameBound(n, NULL) + 64;
    uint8_t *z = malloc(2 * cap);
    size_t z1 = LZ4F_compressFrame(z, cap, plain, cut, NULL);
    size_t z2 = LZ4F_compressFrame(z + z1, cap, plain + cut, n - cut, NULL);
    REQUIRE(!LZ4F_isError(z1) && !LZ4F_isError(z2));
    w15_error_t err;
    w15_reader_t *r = w15_reader_open_mem(z, z1 + z2, "cat", &err);
    REQUIRE(r);
    check_trace(r, W15_COMP_LZ4, 1);
    w15_reader_close(r);
    free(z);
    free(plain);
    unlink(path);
    free(path);
}
static void pipe_lz4(void) { pipe_input(1); }
static void pipe_zstd(void) { pipe_input(2); }

/* ---- data frames (docs/FORMAT.md "Compressed stream") ---------------- */

static void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        p[i] = (uint8_t)(seed >> 24);
    }
}

/* One call of "f" (one Data argument, `pay`) with `nx` extras named "x"
 * (Data `xpay` each); `small` calls of "g" (no arguments) before it. */
static void df_call(w15_buf_t *b, const uint8_t *pay, uint32_t n, const uint8_t *xpay, uint32_t xn, int small)
{
    for (int k = 0; k < small; k++) {
        w15_buf_reserve(b, 16);
        w15_put_u8(b, W15_OP_CALL);
        w15_put_u32(b, 1); /* g */
        w15_put_u32(b, 0); /* no extras */
        w15_buf_commit(b, 1);
    }
    w15_buf_reserve(b, 64);
    w15_put_u8(b, W15_OP_CALL);
    w15_put_u32(b, 0); /* f */
    REQUIRE(w15_put_data(b, pay, n) == 0);
    w15_buf_reserve(b, 64);
    w15_put_u32(b, xpay ? 1 : 0);
    if (xpay) {
        w15_put_string(b, "x", 1);
        REQUIRE(w15_put_data(b, xpay, xn) == 0);
    }
    w15_buf_commit(b, 1);
}

#define DF_RND (15u << 20)
#define DF_BIG ((9u << 20) - 3)
static uint8_t *df_rnd, *df_rep;

/* The sequence of the data-frame tests; `flush_at` >= 0: also flush after
 * that step.  Returns the writer still open when `keep_open`. */
static w15_writer_t *df_write(const char *path, int lz4, int flush_at, int keep_open)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    set_stream(&o, lz4);
    o.min_blob = 4096;
    o.max_functions = 2;
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    if (!w)
        abort();
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_func(&b, 0, "f", (w15_type_t){0, 0, 0}, 1, (w15_type_t[]){{W15_DATA, 0, 0}});
    w15_put_decl_func(&b, 1, "g", (w15_type_t){0, 0, 0}, 0, NULL);
    for (int step = 0; step < 8; step++) {
        switch (step) {
        case 0: df_call(&b, df_rnd, 100000, NULL, 0, 0); break;             /* opens a data frame */
        case 1: df_call(&b, df_rnd + 100000, 70000, NULL, 0, 1); break;          /* probed, into the open frame */
        case 2: df_call(&b, df_rnd + 170000, 80000, NULL, 0, 100); break;        /* many bytes between: new frame */
        case 3: df_call(&b, df_rep, 100000, NULL, 0, 0); break;             /* compressible: the stream */
        case 4: df_call(&b, df_rnd + (1u << 20), DF_BIG, NULL, 0, 0); break;     /* 3 blocks of up to 4 MiB */
        case 5: df_call(&b, df_rnd + (11u << 20), 5000, df_rnd + (12u << 20), 70000, 2); break; /* op ends with a data frame */
        case 6: df_call(&b, df_rnd + (13u << 20), 40000, df_rnd + (13u << 20), 40000, 3); break; /* under 64 KiB: the stream, which finds the repeat */
        case 7: df_call(&b, df_rnd + (14u << 20), 200000, NULL, 0, 0); break;
        }
        if (w15_writer_submit(w, &b, &err) != 0 || (step == flush_at && w15_writer_flush(w, &err) != 0))
            abort();
    }
    w15_buf_free(&b);
    if (keep_open)
        return w;
    if (w15_writer_close(w, &err) != 0)
        abort();
    return NULL;
}

/* Decode a whole LZ4 stream with liblz4 (frame after frame). */
static uint8_t *lz4_unwrap(const uint8_t *p, size_t n, size_t *outn)
{
    LZ4F_dctx *d;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION)))
        abort();
    size_t cap = 4 * n + (1 << 20), len = 0, pos = 0;
    uint8_t *out = malloc(cap);
    while (pos < n) {
        size_t dsz = cap - len, ssz = n - pos;
        size_t r = LZ4F_decompress(d, out + len, &dsz, p + pos, &ssz, NULL);
        if (LZ4F_isError(r))
            abort();
        pos += ssz;
        len += dsz;
    }
    LZ4F_freeDecompressionContext(d);
    *outn = len;
    return out;
}

static int read_calls(const uint8_t *p, size_t n, w15_error_t *err, int *calls)
{
    w15_reader_t *r = w15_reader_open_mem(p, n, "df", err);
    if (!r)
        abort();
    w15_op_t op;
    w15_next_t x;
    *calls = 0;
    while ((x = w15_reader_next(r, &op, err)) <= W15_NEXT_CALL) {
        if (x != W15_NEXT_CALL)
            continue;
        ++*calls;
        const uint8_t *d = w15_reader_blob(r, &op.call->args[0].v.data[0], err);
        CHECK(d != NULL);
    }
    w15_reader_close(r);
    return (int)x;
}

/* data_frames' and zstd_data_frames' common start: the blobs, then the
 * same calls written plain (pp) and through stream `stream` (pz, 1 = LZ4,
 * 2 = zstd), both files read back. */
static void df_begin(int stream, char **pp, char **pz, uint8_t **plain, size_t *pn, uint8_t **z, size_t *zn)
{
    df_rnd = malloc(DF_RND);
    df_rep = malloc(100000);
    fill_random(df_rnd, DF_RND, 88172645463325252ull);
    for (size_t i = 0; i < 100000; i++)
        df_rep[i] = (uint8_t)(i * 7 + (i >> 8));
    *pp = tmp_path();
    *pz = tmp_path();
    df_write(*pp, 0, -1, 0);
    df_write(*pz, stream, -1, 0);
    *plain = slurp(*pp, pn);
    *z = slurp(*pz, zn);
}

/* Their common end: a flush after each of calls 0..7 through `stream`
 * leaves a file that reads as truncated after at least one call, and that
 * reads complete once the writer closes; then everything df_begin made is
 * freed. */
static void df_flushes_end(int stream, char *pp, char *pz, uint8_t *plain)
{
    w15_error_t err;
    int calls;
    size_t zn;
    for (int at = 0; at < 8; at++) {
        w15_writer_t *w = df_write(pz, stream, at, 1);
        uint8_t *z = slurp(pz, &zn);
        CHECK_EQ(read_calls(z, zn, &err, &calls), W15_NEXT_TRUNCATED);
        CHECK_EQ(err.code, W15_E_TRUNCATED);
        CHECK(calls >= 1);
        free(z);
        REQUIRE(w15_writer_close(w, &err) == 0);
        z = slurp(pz, &zn);
        CHECK_EQ(read_calls(z, zn, &err, &calls), W15_NEXT_END);
        CHECK_EQ(calls, 114);
        free(z);
    }
    free(plain);
    unlink(pp);
    unlink(pz);
    free(pp);
    free(pz);
    free(df_rnd);
    free(df_rep);
}

static void data_frames(void)
{
    char *pp, *pz;
    size_t pn, zn, un = 0;
    uint8_t *plain, *z;
    df_begin(1, &pp, &pz, &plain, &pn, &z, &zn);
    /* the LZ4 stream decodes to exactly the plain writer's file */
    uint8_t *u = lz4_unwrap(z, zn, &un);
    CHECK_EQ(un, pn);
    CHECK(un == pn && memcmp(u, plain, pn) == 0);
    /* incompressible blobs are in the file verbatim, each right after a
     * data frame block header (compressed once at most: never by the
     * stream), and the file is hardly larger than the stream */
    static const uint8_t mark[] = {0x04, 0x22, 0x4D, 0x18, 0x61, 0x70, 'W', '1', '5', 'D', 0xE2};
    const uint8_t *m = memmem(z, zn, mark, sizeof mark);
    CHECK(m != NULL);
    CHECK(memmem(z, zn, df_rnd + 100000, 70000) != NULL);
    CHECK(memmem(z, zn, df_rnd + (1u << 20), (4u << 20) - W15_DATA_HEADER) != NULL);
    CHECK(memmem(z, zn, df_rnd + (14u << 20), 200000) != NULL);
    CHECK(zn < pn + 400);
    /* call 6's two copies of 40000 random bytes went through the stream,
     * whose LZ4 found the second (a data frame would hold both) */
    CHECK(zn + 30000 < pn);
    /* the compressible one went through the stream's compression */
    CHECK(memmem(z, zn, df_rep, 4096) == NULL);
    int calls;
    w15_error_t err;
    CHECK_EQ(read_calls(z, zn, &err, &calls), W15_NEXT_END);
    CHECK_EQ(calls, 8 + 1 + 100 + 2 + 3);
    /* a cut right after the data frame that ends call 5 (its extra is the
     * op's last byte) is not a clean end */
    const uint8_t *x5 = memmem(z, zn, df_rnd + (12u << 20), 70000);
    REQUIRE(x5 != NULL);
    size_t cut = (size_t)(x5 + 70000 - z) + 4; /* the data frame's end mark */
    CHECK(cut < zn && memcmp(z + cut - 4, "\0\0\0\0", 4) == 0);
    CHECK_EQ(read_calls(z, cut, &err, &calls), W15_NEXT_TRUNCATED);
    CHECK_EQ(calls, 6 + 1 + 100 + 2); /* calls 0..5 and the small calls before them */
    CHECK_HAS(err.msg, "the LZ4 stream ends with a data frame");
    /* cut inside that data frame: no end mark */
    CHECK_EQ(read_calls(z, cut - 4, &err, &calls), W15_NEXT_TRUNCATED);
    CHECK_HAS(err.msg, "the LZ4 frame has no end mark");
    free(u);
    free(z);
    /* a flush while a data frame is open: the file reads to there */
    df_flushes_end(1, pp, pz, plain);
}

/* The same calls through a zstd stream: incompressible blobs of 64 KiB or
 * more in zstd data frames (raw blocks of up to 128 KiB, the blob's bytes
 * verbatim), the rest compressed; libzstd decodes the file to exactly the
 * plain writer's bytes. */
static void zstd_data_frames(void)
{
    char *pp, *pz;
    size_t pn, zn;
    uint8_t *plain, *z;
    df_begin(2, &pp, &pz, &plain, &pn, &z, &zn);
    uint8_t *u = malloc(pn + 1);
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ZSTD_inBuffer in = {z, zn, 0};
    ZSTD_outBuffer out = {u, pn + 1, 0};
    while (in.pos < in.size && !ZSTD_isError(ZSTD_decompressStream(d, &out, &in)))
        ;
    ZSTD_freeDCtx(d);
    CHECK_EQ(out.pos, pn);
    CHECK(out.pos == pn && memcmp(u, plain, pn) == 0);
    CHECK(memmem(z, zn, df_rnd + 100000, 70000) != NULL);
    CHECK(memmem(z, zn, df_rnd + (1u << 20) + 140000, 100000) != NULL); /* within its second block */
    CHECK(memmem(z, zn, df_rnd + (14u << 20), 100000) != NULL);
    CHECK(memmem(z, zn, df_rep, 4096) == NULL);
    CHECK(zn + 30000 < pn);
    int calls;
    w15_error_t err;
    CHECK_EQ(read_calls(z, zn, &err, &calls), W15_NEXT_END);
    CHECK_EQ(calls, 114);
    /* a cut right after the data frame that ends call 5 */
    const uint8_t *x5 = memmem(z, zn, df_rnd + (12u << 20), 70000);
    REQUIRE(x5 != NULL);
    size_t cut = (size_t)(x5 + 70000 - z);
    CHECK_EQ(read_calls(z, cut, &err, &calls), W15_NEXT_TRUNCATED);
    CHECK_EQ(calls, 6 + 1 + 100 + 2);
    CHECK_HAS(err.msg, "the zstd stream ends with a data frame");
    CHECK_EQ(read_calls(z, cut - 1, &err, &calls), W15_NEXT_TRUNCATED);
    CHECK_EQ(calls, 5 + 1 + 100 + 2);
    free(u);
    free(z);
    /* a flush after a data frame: the file reads to there; closed after
     * one (call 7 ends with a data frame), it ends complete */
    df_flushes_end(2, pp, pz, plain);
}

static void rt_none(void) { roundtrip(W15_COMP_NONE, 0); }
static void rt_zlib(void) { roundtrip(W15_COMP_ZLIB, 0); }
static void rt_lz4(void) { roundtrip(W15_COMP_LZ4, 0); }
static void rt_none_stream(void) { roundtrip(W15_COMP_NONE, 1); }
static void rt_zlib_stream(void) { roundtrip(W15_COMP_ZLIB, 1); }
static void rt_lz4_stream(void) { roundtrip(W15_COMP_LZ4, 1); }
static void rt_none_zstd(void) { roundtrip(W15_COMP_NONE, 2); }
static void rt_lz4_zstd(void) { roundtrip(W15_COMP_LZ4, 2); }
static void rt_zstd_workers(void)
{
    rt_workers = 1;
    roundtrip(W15_COMP_NONE, 2);
    rt_workers = 0;
}

/* A blob over the format's limit is refused; the buffer and the writer keep
 * working. */
static void too_big_blob(void)
{
    w15_buf_t b;
    w15_buf_init(&b, 64);
    w15_error_t err;
    static const char dummy[1];
    CHECK_EQ(w15_put_data_sz(&b, dummy, (size_t)UINT32_MAX, &err), -1);
    CHECK_EQ(err.code, W15_E_TOO_BIG);
    CHECK_HAS(err.msg, "4294967294");
    CHECK_EQ(b.len, 0);
    CHECK_EQ(b.nblobs, 0);
    CHECK_EQ(b.failed, 0);
    CHECK_EQ(w15_put_data_sz(&b, "abc", 3, &err), 0);
    CHECK_EQ(b.len, W15_DATA_HEADER + 3);
    w15_buf_free(&b);
}

/* After a flush the file reads to there while the writer is still open:
 * what a crash leaves behind.  A plain file then simply ends; an LZ4-stream
 * file is reported truncated (its frame has no end mark yet), with every
 * call still delivered. */
static void flush_is_readable(int lz4)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    set_stream(&o, lz4);
    o.max_functions = 1;
    char *path = tmp_path();
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    REQUIRE(w);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_func(&b, 0, "f", (w15_type_t){0, 0, 0}, 0, NULL);
    for (int k = 0; k < 1000; k++) {
        w15_buf_reserve(&b, 16);
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, 0);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
    }
    w15_writer_stats_t st0, st1, st2;
    w15_writer_get_stats(w, &st0);
    CHECK(w15_writer_submit(w, &b, &err) == 0);
    w15_writer_get_stats(w, &st1);
    CHECK_EQ(st1.file_bytes, st0.file_bytes); /* buffered: no write(2) per submit */
    CHECK(st1.stream_bytes > st0.stream_bytes);
    CHECK_EQ(st1.calls, 1000);
    CHECK(w15_writer_flush(w, &err) == 0);
    w15_writer_get_stats(w, &st2);
    CHECK(st2.file_bytes > st1.file_bytes);
    w15_reader_t *r = w15_reader_open(path, &err);
    REQUIRE(r);
    w15_op_t op;
    int calls = 0;
    w15_next_t n;
    while ((n = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL)
        calls += n == W15_NEXT_CALL;
    if (lz4) {
        CHECK_EQ(n, W15_NEXT_TRUNCATED);
        CHECK_HAS(err.msg, "truncated after 1000 complete calls");
        CHECK_HAS(err.msg, lz4 == 1 ? "the LZ4 frame has no end mark" : "the zstd frame does not end");
    } else {
        CHECK_EQ(n, W15_NEXT_END);
    }
    CHECK_EQ(calls, 1000);
    w15_reader_close(r);
    CHECK(w15_writer_close(w, &err) == 0);
    /* closed: the frame is finished and the file is complete */
    r = w15_reader_open(path, &err);
    REQUIRE(r);
    calls = 0;
    while ((n = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL)
        calls += n == W15_NEXT_CALL;
    CHECK_EQ(n, W15_NEXT_END);
    CHECK_EQ(calls, 1000);
    w15_reader_close(r);
    w15_buf_free(&b);
    unlink(path);
    free(path);
}
static void flush_readable_plain(void) { flush_is_readable(0); }
static void flush_readable_lz4(void) { flush_is_readable(1); }
static void flush_readable_zstd(void) { flush_is_readable(2); }

static void open_errors(void)
{
    w15_error_t err;
    char *path = tmp_path();
    CHECK(w15_writer_open(path, 0, NULL, &err) == NULL); /* exists, no overwrite */
    CHECK_EQ(err.code, W15_E_IO);
    CHECK_HAS(err.msg, path);
    CHECK_HAS(err.msg, strerror(EEXIST));
    w15_writer_t *w = w15_writer_open(path, 1, NULL, &err); /* empty trace */
    REQUIRE(w);
    CHECK(w15_writer_close(w, &err) == 0);
    w15_reader_t *r = w15_reader_open(path, &err);
    REQUIRE(r);
    w15_op_t op;
    CHECK_EQ(w15_reader_next(r, &op, &err), W15_NEXT_END);
    w15_reader_close(r);
    unlink(path);
    CHECK(w15_reader_open(path, &err) == NULL);
    CHECK_EQ(err.code, W15_E_IO);
    CHECK_HAS(err.msg, strerror(ENOENT));
    free(path);
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = (w15_comp_t)7;
    CHECK(w15_writer_open_fd(-1, "x", &o, &err) == NULL);
    CHECK_EQ(err.code, W15_E_USAGE);
}

/* Write errors are reported with the file name, and stick. */
static void write_error(void)
{
    w15_error_t err;
    w15_writer_t *w = w15_writer_open("/dev/full", 1, NULL, &err);
    CHECK(w == NULL);
    CHECK_EQ(err.code, W15_E_IO);
    CHECK_HAS(err.msg, "/dev/full");
    CHECK_HAS(err.msg, strerror(ENOSPC));
}

/* Operations that straddle the reader's 1 MiB window: long declarations
 * and calls over several MiB, from a file and through the LZ4 stream; then
 * a corrupt byte far into the file gives the same offset from a file as
 * from memory. */
static void window_crossing(int lz4)
{
    enum { NF = 600, NARG = 300, NAME = 2000 };
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    set_stream(&o, lz4);
    o.max_functions = NF;
    char *path = tmp_path();
    w15_error_t err;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &err);
    REQUIRE(w);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    static char name[NAME + 1];
    static w15_type_t args[NARG];
    for (int a = 0; a < NARG; a++)
        args[a] = (w15_type_t){(uint8_t)(a % 2 ? W15_STRING : W15_UINT), 0, 0};
    for (int f = 0; f < NF; f++) {
        memset(name, 'a' + f % 26, NAME);
        snprintf(name, 16, "fn%05d", f);
        name[7] = '_';
        REQUIRE(w15_put_decl_func(&b, (uint32_t)f, name, (w15_type_t){0, 0, 0}, NARG, args) == 0);
        REQUIRE(w15_buf_reserve(&b, 16 + NARG * 40) == 0);
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, (uint32_t)f);
        for (int a = 0; a < NARG; a++) {
            if (a % 2)
                w15_put_string(&b, "0123456789abcdefghijklmnopqrstu", 31);
            else
                w15_put_uvari(&b, (uint64_t)f * 1000003u + (uint64_t)a);
        }
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
        if (f % 50 == 49)
            REQUIRE(w15_writer_submit(w, &b, &err) == 0);
    }
    REQUIRE(w15_writer_submit(w, &b, &err) == 0);
    REQUIRE(w15_writer_close(w, &err) == 0);
    w15_buf_free(&b);
    size_t n;
    uint8_t *bytes = slurp(path, &n);
    for (int mode = 0; mode < 2; mode++) {
        w15_reader_t *r = mode ? w15_reader_open(path, &err) : w15_reader_open_mem(bytes, n, "mem", &err);
        REQUIRE(r);
        w15_op_t op;
        int f = 0, bad = 0;
        w15_next_t x;
        while ((x = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL) {
            if (x == W15_NEXT_DECL_FUNC) {
                char want[16];
                snprintf(want, sizeof want, "fn%05d_", f);
                bad += strncmp(op.func->name, want, 8) != 0 || strlen(op.func->name) != NAME ||
                       op.func->name[NAME - 1] != 'a' + f % 26 || op.func->nargs != NARG ||
                       op.func->args[NARG - 1].base != W15_STRING;
            } else {
                const w15_call_t *c = op.call;
                bad += c->func->index != (uint32_t)f;
                for (int a = 0; a < NARG; a++) {
                    if (a % 2)
                        bad += c->args[a].v.s[0].len != 31 || memcmp(c->args[a].v.s[0].ptr, "0123456789abcdefghijklmnopqrstu", 31) != 0;
                    else
                        bad += c->args[a].v.u[0] != (uint64_t)f * 1000003u + (uint64_t)a;
                }
                f++;
            }
        }
        CHECK_EQ(x, W15_NEXT_END);
        CHECK_EQ(f, NF);
        CHECK_EQ(bad, 0);
        w15_reader_close(r);
    }
    if (!lz4) {
        /* corrupt the is_array byte of the last argument of the last
         * declaration: same error, same offset, from memory and from a file */
        w15_reader_t *r = w15_reader_open_mem(bytes, n, "mem", &err);
        REQUIRE(r);
        w15_op_t op;
        uint64_t last_decl = 0;
        w15_next_t x;
        while ((x = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL)
            if (x == W15_NEXT_DECL_FUNC)
                last_decl = op.offset;
        w15_reader_close(r);
        uint64_t bad_at = last_decl + 1 + 4 + 4 + NAME + 3 + 4 + 3 * (NARG - 1) + 2;
        REQUIRE(bad_at < n);
        bytes[bad_at] = 5;
        char *tmp;
        uint64_t offs[2];
        for (int mode = 0; mode < 2; mode++) {
            r = open_bytes(bytes, n, mode, &tmp, &err);
            REQUIRE(r);
            while ((x = w15_reader_next(r, &op, &err)) <= W15_NEXT_CALL)
                ;
            CHECK_EQ(x, W15_NEXT_ERROR);
            CHECK_EQ(err.code, W15_E_BAD_TYPE);
            CHECK_HAS(err.msg, "expected is_array 0 or 1, found 5");
            offs[mode] = err.offset;
            w15_reader_close(r);
            done_tmp(tmp);
        }
        CHECK_EQ(offs[0], bad_at);
        CHECK_EQ(offs[1], bad_at);
    }
    free(bytes);
    unlink(path);
    free(path);
}
static void window_crossing_plain(void) { window_crossing(0); }
static void window_crossing_lz4(void) { window_crossing(1); }
static void window_crossing_zstd(void) { window_crossing(2); }

int main(void)
{
    make_data();
    make_samples();
    RUN(rt_none);
    RUN(rt_zlib);
    RUN(rt_lz4);
    RUN(rt_zstd_workers);
    RUN(rt_none_stream);
    RUN(rt_zlib_stream);
    RUN(rt_lz4_stream);
    RUN(rt_none_zstd);
    RUN(rt_lz4_zstd);
    RUN(concatenated_frames);
    RUN(data_frames);
    RUN(zstd_data_frames);
    RUN(pipe_plain);
    RUN(pipe_lz4);
    RUN(pipe_zstd);
    RUN(window_crossing_plain);
    RUN(window_crossing_lz4);
    RUN(window_crossing_zstd);
    RUN(too_big_blob);
    RUN(flush_readable_plain);
    RUN(flush_readable_lz4);
    RUN(flush_readable_zstd);
    RUN(open_errors);
    RUN(write_error);
    free(long_str);
    free(text_blob);
    free(noise_blob);
    free(big_blob);
    return check_summary();
}
