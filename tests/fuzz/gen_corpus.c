/* gen_corpus.c -- writes the seed corpus of fuzz_reader: small valid
 * traces covering every type, blob method, both versions and the LZ4
 * stream.  Usage: gen_corpus DIR.  (Named *.w15 because *.wip15 is
 * git-ignored.) */
#include "wip15/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what, const w15_error_t *e)
{
    fprintf(stderr, "gen_corpus: %s: %s\n", what, e ? e->msg : "");
    exit(1);
}

static void trace(const char *dir, const char *name, w15_comp_t method, int lz4)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = method;
    o.stream_lz4 = lz4 == 1; /* 2: a zstd frame */
    o.stream_zstd = lz4 == 2;
    o.min_blob = 16;
    o.max_functions = 8;
    o.max_groups = 4;
    w15_error_t e;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &e);
    if (!w)
        die("open", &e);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_put_decl_group(&b, 0, W15_GROUP_ENUM, "TextureTarget");
    w15_put_decl_group(&b, 3, W15_GROUP_GL_BUFFERS, "BufferName");
    w15_type_t a[] = {{W15_UINT, 1, 0}, {W15_INT, 0, 1},    {W15_PTR, 0, 0},    {W15_BOOL, 0, 1},
                      {W15_FLOAT, 0, 0}, {W15_DOUBLE, 0, 1}, {W15_STRING, 0, 1}, {W15_DATA, 0, 0},
                      {W15_FUNCPTR, 0, 0}, {W15_UINT, 1, 1}};
    w15_put_decl_func(&b, 5, "glEverything", (w15_type_t){W15_UINT, 1, 0}, 10, a);
    w15_put_decl_func(&b, 0, "glFinish", (w15_type_t){0, 0, 0}, 0, NULL);
    static const char blob[] = "0123456789012345678901234567890123456789 vertex data vertex data";
    for (int k = 0; k < 3; k++) {
        w15_buf_reserve(&b, 256);
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, 5);
        w15_put_uvari(&b, 0x0DE1);
        w15_put_u32(&b, 0);
        w15_put_u32(&b, 3);
        w15_put_svari(&b, -1);
        w15_put_svari(&b, INT64_MIN);
        w15_put_svari(&b, INT64_MAX);
        w15_put_uvari(&b, 0x7fff0000ull + (uint64_t)k);
        w15_put_u32(&b, 2);
        w15_put_u8(&b, 1);
        w15_put_u8(&b, 0);
        w15_put_f32(&b, -0.0f);
        w15_put_u32(&b, 1);
        w15_put_f64(&b, 1e300);
        w15_put_u32(&b, 2);
        w15_put_string(&b, "", 0);
        w15_put_string(&b, "main", 4);
        if (w15_put_data(&b, blob, k == 1 ? 8 : (uint32_t)sizeof blob) != 0)
            die("put_data", NULL);
        w15_buf_reserve(&b, 128);
        w15_put_u32(&b, 2);
        w15_put_uvari(&b, 1);
        w15_put_uvari(&b, 300);
        w15_put_u32(&b, 3);
        w15_put_uvari(&b, 7);
        w15_put_u32(&b, 3);
        w15_put_u32(&b, k == 2 ? 1 : 0);
        if (k == 2) {
            w15_put_string(&b, "wip15.ptr", 9);
            if (w15_put_data(&b, "\xff\xff\xff\xff\0\0\0\0\0\0\0\0", 12) != 0)
                die("put_data", NULL);
        }
        w15_buf_commit(&b, 1);
        w15_buf_reserve(&b, 16);
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, 0);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
        if (w15_writer_submit(w, &b, &e) != 0 || w15_writer_flush(w, &e) != 0)
            die("submit", &e);
    }
    w15_buf_free(&b);
    if (w15_writer_close(w, &e) != 0)
        die("close", &e);
}

/* A 0.0a file, assembled by hand (our writer only writes 0.0). */
static void v0a(const char *dir)
{
    static const uint8_t bytes[] = {
        'W', 'I', 'P', '1', '5', '_', '0', '.', '0', 'a', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
        4, 0, 0, 0, 2, 0, 0, 0,
        1, 1, 0, 0, 0, 2, 0, 0, 0, 'G', 'L',                                  /* group 1 "GL" */
        0, 2, 0, 0, 0, 4, 0, 0, 0, 'g', 'l', 'F', 'n', 2, 0, 0, 2, 0, 0, 0,  /* fn 2 -> Int */
        1, 1, 0, 8, 0, 0,                                                     /* (UnsignedInt grouped, Data) */
        2, 2, 0, 0, 0, 0x80, 0x01, 1, 0, 0, 0,                                /* call: 128, group 1 */
        0, 3, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c',                             /* Data None "abc" */
        0x7f,                                                                 /* result -1 */
        0, 0, 0, 0,                                                           /* no extras */
    };
    char path[4096];
    snprintf(path, sizeof path, "%s/v00a.w15", dir);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, sizeof bytes, f) != sizeof bytes || fclose(f) != 0)
        die(path, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_corpus DIR\n");
        return 2;
    }
    trace(argv[1], "plain-none.w15", W15_COMP_NONE, 0);
    trace(argv[1], "plain-zlib.w15", W15_COMP_ZLIB, 0);
    trace(argv[1], "plain-lz4.w15", W15_COMP_LZ4, 0);
    trace(argv[1], "stream-lz4.w15", W15_COMP_LZ4, 1);
    trace(argv[1], "stream-zstd.w15", W15_COMP_NONE, 2);
    v0a(argv[1]);
    return 0;
}
