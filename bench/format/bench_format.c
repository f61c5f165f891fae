/* bench_format.c -- throughput of libwip15format: encoding small calls,
 * compressing blobs through submit, reading calls back.  Prints the median
 * of REPS repetitions of each measurement.
 *
 *   bench_format [--quick]      (--quick: fewer, shorter repetitions)
 */
#include "wip15/format.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int reps = 5;
static double scale = 1.0;

/* Time is the thread's CPU time (user + system, so write(2) counts): the
 * benchmark machine is shared, and the targets are per core.  Set
 * BENCH_WALL=1 to measure wall-clock time instead. */
static clockid_t clk = CLOCK_THREAD_CPUTIME_ID;

static double now(void)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void die(const char *what, const w15_error_t *e)
{
    fprintf(stderr, "bench_format: %s: %s\n", what, e ? e->msg : "");
    exit(1);
}

static w15_writer_t *open_writer(const char *path, w15_comp_t method, int stream_lz4)
{
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = method;
    o.stream_lz4 = stream_lz4;
    o.max_functions = 4096;
    o.max_groups = 16;
    w15_error_t e;
    w15_writer_t *w = w15_writer_open(path, 1, &o, &e);
    if (!w)
        die("open writer", &e);
    return w;
}

/* A "small call": opcode, u32 function index, two uvari and a float
 * argument, u32 extra_count = 0, committed one by one, submitted every
 * 64 KiB.  Returns the seconds taken. */
static double encode_calls(w15_writer_t *w, uint64_t ncalls)
{
    w15_buf_t b;
    w15_error_t e;
    if (w15_buf_init(&b, 128 << 10) != 0)
        die("buffer", NULL);
    double t0 = now();
    for (uint64_t i = 0; i < ncalls; i++) {
        if (w15_buf_reserve(&b, 64) != 0)
            die("reserve", NULL);
        w15_put_u8(&b, W15_OP_CALL);
        w15_put_u32(&b, (uint32_t)(i & 1023));
        w15_put_uvari(&b, 0x0DE1);         /* GL_TEXTURE_2D */
        w15_put_uvari(&b, i & 0xFFFF);     /* an object name */
        w15_put_f32(&b, 0.5f);
        w15_put_u32(&b, 0);
        w15_buf_commit(&b, 1);
        if (b.len >= (64u << 10) && w15_writer_submit(w, &b, &e) != 0)
            die("submit", &e);
    }
    if (w15_writer_submit(w, &b, &e) != 0 || w15_writer_flush(w, &e) != 0)
        die("submit", &e);
    double t = now() - t0;
    w15_buf_free(&b);
    return t;
}

static void bench_encode(void)
{
    uint64_t n = (uint64_t)(50e6 * scale);
    double v[16];
    for (int i = 0; i < reps; i++) {
        w15_writer_t *w = open_writer("/dev/null", W15_COMP_LZ4, 0);
        v[i] = (double)n / encode_calls(w, n) / 1e6;
        w15_writer_close(w, NULL);
    }
    printf("encode small calls -> /dev/null        %8.1f M calls/s  (%llu calls/rep)\n", median(v, reps),
           (unsigned long long)n);
    for (int i = 0; i < reps; i++) {
        w15_writer_t *w = open_writer("/dev/null", W15_COMP_LZ4, 1);
        v[i] = (double)n / encode_calls(w, n) / 1e6;
        w15_writer_close(w, NULL);
    }
    printf("encode small calls, stream_lz4          %8.1f M calls/s\n", median(v, reps));
}

/* Realistic partly compressible blob contents: per 4 KiB page, one of
 * shader-like text, a float vertex ramp, or noise. */
static uint8_t *make_blob_data(size_t n)
{
    static const char text[] = "uniform mat4 mvp;\nattribute vec3 pos;\nvoid main() { gl_Position = mvp * "
                               "vec4(pos, 1.0); }\n";
    uint8_t *p = malloc(n);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i += 4) {
        size_t page = i / 4096;
        uint32_t v;
        if (page % 3 == 0) {
            memcpy(&v, text + (i % (sizeof text - 5)), 4);
        } else if (page % 3 == 1) {
            float f = (float)(i % 4096) * 0.25f;
            memcpy(&v, &f, 4);
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = (uint32_t)x;
        }
        memcpy(p + i, &v, n - i < 4 ? n - i : 4);
    }
    return p;
}

static void bench_blobs(w15_comp_t method, size_t total)
{
    const size_t blob = 256 << 10;
    uint8_t *data = make_blob_data(total);
    double v[16];
    w15_writer_stats_t st = {0};
    for (int i = 0; i < reps; i++) {
        w15_writer_t *w = open_writer("/dev/null", method, 0);
        w15_buf_t b;
        w15_error_t e;
        w15_buf_init(&b, blob + 1024);
        double t0 = now();
        for (size_t off = 0; off < total; off += blob) {
            w15_buf_reserve(&b, 16);
            w15_put_u8(&b, W15_OP_CALL);
            w15_put_u32(&b, 7);
            if (w15_put_data(&b, data + off, (uint32_t)blob) != 0)
                die("put_data", NULL);
            w15_buf_reserve(&b, 16);
            w15_put_u32(&b, 0);
            w15_buf_commit(&b, 1);
            if (w15_writer_submit(w, &b, &e) != 0)
                die("submit", &e);
        }
        w15_writer_flush(w, NULL);
        v[i] = (double)total / (now() - t0) / 1e6;
        w15_writer_get_stats(w, &st);
        w15_writer_close(w, NULL);
        w15_buf_free(&b);
    }
    printf("blobs %-4s 256 KiB through submit       %8.1f MB/s     (stored %.1f%% of %zu MB)\n",
           w15_comp_name(method), median(v, reps), 100.0 * (double)st.blob_bytes_stored / (double)st.blob_bytes_raw,
           total >> 20);
    free(data);
}

static double read_file(const char *path, uint64_t expect, int mem)
{
    w15_error_t e;
    w15_reader_t *r;
    uint8_t *p = NULL;
    if (mem) {
        FILE *f = fopen(path, "rb");
        fseek(f, 0, SEEK_END);
        size_t n = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        p = malloc(n);
        if (fread(p, 1, n, f) != n)
            die("read", NULL);
        fclose(f);
        r = w15_reader_open_mem(p, n, path, &e);
    } else {
        r = w15_reader_open(path, &e);
    }
    if (!r)
        die("open reader", &e);
    double t0 = now();
    w15_op_t op;
    w15_next_t x;
    uint64_t calls = 0, sum = 0;
    while ((x = w15_reader_next(r, &op, &e)) <= W15_NEXT_CALL) {
        if (x == W15_NEXT_CALL) {
            calls++;
            sum += op.call->args[1].v.u[0];
        }
    }
    double t = now() - t0;
    if (x != W15_NEXT_END || calls != expect)
        die("read back", &e);
    w15_reader_close(r);
    free(p);
    (void)sum;
    return t;
}

static void bench_read(int stream_lz4)
{
    uint64_t n = (uint64_t)(20e6 * scale);
    char path[] = "/tmp/bench_format-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp", NULL);
    close(fd);
    w15_writer_t *w = open_writer(path, W15_COMP_LZ4, stream_lz4);
    w15_buf_t b;
    w15_buf_init(&b, 0);
    w15_type_t args[] = {{W15_UINT, 0, 0}, {W15_UINT, 0, 0}, {W15_FLOAT, 0, 0}};
    char name[32];
    for (uint32_t f = 0; f < 1024; f++) {
        snprintf(name, sizeof name, "glFunc%u", f);
        w15_put_decl_func(&b, f, name, (w15_type_t){0, 0, 0}, 3, args);
    }
    w15_error_t e;
    if (w15_writer_submit(w, &b, &e) != 0)
        die("submit", &e);
    w15_buf_free(&b);
    encode_calls(w, n);
    w15_writer_close(w, NULL);
    for (int mem = 0; mem < 2; mem++) {
        double v[16];
        for (int i = 0; i < reps; i++)
            v[i] = (double)n / read_file(path, n, mem) / 1e6;
        printf("read small calls, %-6s %-10s       %8.1f M calls/s\n", stream_lz4 ? "lz4" : "plain",
               mem ? "memory" : "file", median(v, reps));
    }
    unlink(path);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--quick") == 0) {
        reps = 3;
        scale = 0.1;
    } else if (argc > 1) {
        fprintf(stderr, "usage: bench_format [--quick]\n");
        return 2;
    }
    const char *wall = getenv("BENCH_WALL");
    if (wall && *wall && strcmp(wall, "0") != 0)
        clk = CLOCK_MONOTONIC;
    printf("bench_format: median of %d repetitions, %s time\n", reps,
           clk == CLOCK_MONOTONIC ? "wall-clock" : "thread CPU");
    bench_encode();
    bench_blobs(W15_COMP_LZ4, (size_t)(512e6 * scale) & ~(size_t)0x3FFFF);
    bench_blobs(W15_COMP_NONE, (size_t)(512e6 * scale) & ~(size_t)0x3FFFF);
    bench_blobs(W15_COMP_ZLIB, (size_t)(64e6 * scale) & ~(size_t)0x3FFFF);
    bench_read(0);
    bench_read(1);
    return 0;
}
