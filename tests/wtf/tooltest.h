/* tooltest.h -- what the tests that run the `wip15` command on synthetic
 * captures share (test_gpu_tools.c, test_rotation_tools.c): running
 * wip15 with its output caught, files and paths, json-c accessors, and the
 * expected frame statistics (nearest rank, as docs/WTF.md defines them).
 *
 * Header only, for a test made of one source file: include it once, after
 * `#define _GNU_SOURCE`.  Set g_wip15 (the command) and g_dir (the output
 * directory, made with mkdirs) before calling run() or path_of().  The
 * checks are tests/check.h's; a test may define CHECK_MAX_FAILURES before
 * including this (default here 40). */
#ifndef W15_TOOLTEST_H
#define W15_TOOLTEST_H

#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CHECK_MAX_FAILURES
#define CHECK_MAX_FAILURES 40
#endif
#include "check.h"

static const char *g_wip15, *g_dir;

/* ------------------------------------------------------------- running -- */

typedef struct {
    int status;     /* exit status, 128 + signal, or -1 when it did not run */
    char *out, *err; /* stdout and stderr, NUL-terminated, owned */
} result_t;

/* The whole file at path, NUL-terminated (malloc'd: free it); "" when it
 * cannot be read.  Its length in *n when n is not NULL. */
static inline char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)len + 1);
    size_t got = p ? fread(p, 1, (size_t)len, f) : 0;
    fclose(f);
    if (!p)
        return strdup("");
    p[got] = 0;
    if (n)
        *n = got;
    return p;
}

/* Run g_wip15 with the NULL-terminated arguments (at most 14); stdout and
 * stderr caught through g_dir/run.out and g_dir/run.err.  Free the result
 * with result_free. */
static inline result_t run(const char *arg0, ...)
{
    const char *argv[16];
    int n = 0;
    argv[n++] = g_wip15;
    va_list ap;
    va_start(ap, arg0);
    for (const char *a = arg0; a && n < 15; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    char o[4096], e[4096];
    snprintf(o, sizeof o, "%s/run.out", g_dir);
    snprintf(e, sizeof e, "%s/run.err", g_dir);
    result_t r = {-1, NULL, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0644), fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0)
            _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(g_wip15, (char *const *)argv);
        _exit(127);
    }
    int st;
    if (pid > 0 && waitpid(pid, &st, 0) == pid)
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(o, NULL);
    r.err = slurp(e, NULL);
    return r;
}

static inline void result_free(result_t *r)
{
    free(r->out);
    free(r->err);
}

/* g_dir/NAME with NAME formatted as printf does (malloc'd: free it). */
__attribute__((format(printf, 1, 2))) static inline char *path_of(const char *fmt, ...)
{
    char *name = NULL, *p = NULL;
    va_list ap;
    va_start(ap, fmt);
    int ok = vasprintf(&name, fmt, ap) >= 0;
    va_end(ap);
    CHECKF(ok && asprintf(&p, "%s/%s", g_dir, name) > 0, "asprintf");
    free(name);
    return p;
}

/* mkdir -p: the test may run alone in a fresh tree */
static inline void mkdirs(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

/* ---------------------------------------------------------------- JSON -- */

/* o[k], NULL when o is NULL or has no k */
static inline json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static inline double num(json_object *o, const char *k)
{
    return json_object_get_double(get(o, k));
}

/* r's stdout as JSON (json_object_put it), checked along with exit 0;
 * NULL when it is not JSON. */
static inline json_object *parse(const result_t *r, const char *what)
{
    json_object *j = json_tokener_parse(r->out);
    CHECKF(j && r->status == 0, "%s: exit %d, stdout not JSON: %.200s %s", what, r->status, r->out, r->err);
    return j;
}

/* The "traceEvents" array of the Chrome trace file at path, checked; the
 * parsed file in *root (json_object_put it).  NULL, and *root NULL, when
 * the file has no such array. */
static inline json_object *chrome_events(const char *path, json_object **root)
{
    *root = json_object_from_file(path);
    json_object *evs = get(*root, "traceEvents");
    CHECKF(evs && json_object_is_type(evs, json_type_array), "%s: no traceEvents", path);
    if (!evs) {
        json_object_put(*root);
        *root = NULL;
    }
    return evs;
}

/* ---------------------------------------------------------- statistics -- */

typedef struct {
    int n;
    double mean, median, p90, p95, p99, max, min; /* ms */
    double low1, low01;                           /* fps of the slowest 1% and 0.1% */
} stats_t;

static inline int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* nearest rank: how many of n values are at or below the p-th percentile,
 * ceil(p/1000 n) with p in per mille, at least 1 */
static inline int rank_k(int n, int p)
{
    int k = (n * p + 999) / 1000; /* ceil without floating point */
    return k < 1 ? 1 : k;
}

/* Sorts the n durations d (us) and returns their statistics; all 0 when n
 * is 0. */
static inline stats_t expect_stats_of(int64_t *d, int n)
{
    stats_t s = {n, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (n <= 0)
        return s;
    qsort(d, (size_t)n, sizeof d[0], cmp_i64);
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += d[i];
    s.mean = (double)sum / n / 1000.0;
    s.median = (n % 2 ? (double)d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2.0) / 1000.0;
    s.p90 = (double)d[rank_k(n, 900) - 1] / 1000.0;
    s.p95 = (double)d[rank_k(n, 950) - 1] / 1000.0;
    s.p99 = (double)d[rank_k(n, 990) - 1] / 1000.0;
    s.max = (double)d[n - 1] / 1000.0;
    s.min = (double)d[0] / 1000.0;
    /* 1% and 0.1% low: frames per second over the mean of the slowest
     * ceil(n / 100) and ceil(n / 1000) */
    int k1 = rank_k(n, 10), k01 = rank_k(n, 1);
    double s1 = 0, s01 = 0;
    for (int i = 0; i < k1; i++)
        s1 += (double)d[n - 1 - i];
    for (int i = 0; i < k01; i++)
        s01 += (double)d[n - 1 - i];
    s.low1 = 1e6 / (s1 / k1);
    s.low01 = 1e6 / (s01 / k01);
    return s;
}

/* Checks the statistics in the JSON object o ("mean", "median", "p90",
 * "p95", "p99", "max", "min", in ms) against e: each within
 * tol + rel * |expected|.  what names the object in failures. */
static inline void check_stats_json(json_object *o, const stats_t *e, double tol, double rel, const char *what)
{
    static const char *const names[7] = {"mean", "median", "p90", "p95", "p99", "max", "min"};
    const double want[7] = {e->mean, e->median, e->p90, e->p95, e->p99, e->max, e->min};
    for (int i = 0; i < 7; i++) {
        double got = num(o, names[i]);
        CHECKF(fabs(got - want[i]) <= tol + rel * fabs(want[i]), "%s: %s %.6f != %.6f", what, names[i], got, want[i]);
    }
}

#endif
