/* test_rotation_tools.c -- `wip15 frames` and `wip15 export --chrome` on a
 * rotated capture (docs/WTF.md "Long captures: rotation", "Reading a rotated
 * capture").
 *
 *   test_rotation_tools WIP15 OUTDIR
 *
 * Writes OUTDIR/rot.wtf-trace with the real emitter and synthetic times
 * (the default one-hour period) over 140 minutes: a zone with 258 frames
 * (numbered from 0, as the tracer does), one of them 685 s long with a
 * debug group and a call open across a forced rotation, and a zone without
 * frames; then runs the tools and compares with values computed here from
 * the schedule: frame count, each frame's start, duration and calls (CSV),
 * the statistics (JSON), the per-function totals, the Chrome trace's
 * placement of every call, --single, a later generation named alone, a
 * generation deleted, and a generation 1 cut inside its last chunk and
 * inside its header.  Exit 0 when everything holds. */
#define _GNU_SOURCE
#define CHECK_MAX_FAILURES 30
#include "clock.h"
#include "tooltest.h"
#include "wtf_emitter.h"

#include <errno.h>
#include <math.h>

/* ------------------------------------------------------------ schedule -- */

#define S(sec) ((int64_t)(sec) * 1000000)   /* us */
#define MS(ms) ((int64_t)(ms) * 1000)       /* us */
#define NFR 258
#define X_FRAME 239                         /* the long frame */
#define X_START S(7175)                     /* 119 min 35 s: still generation 1 */
#define X_END S(7860)                       /* 131 min: generation 2 */
#define LOAD_ENTER (X_START + S(1))
#define LOAD_LEAVE S(7850)
#define FINISH_ENTER S(7830)                /* the zone's forced rotation is at */
#define FINISH_LEAVE S(7840)                /* 60 min + 70.58 min = 7834.97 s */

enum { F_CLEAR, F_DRAW, F_SWAP, F_TEX, F_FINISH, F_BUFDATA, F__N };
static const char *fn_name[F__N] = {"glClear", "glDrawArrays", "glSwapBuffers", "glTexImage2D", "glFinish", "glBufferData"};

typedef struct {
    int64_t start, end; /* us since t0 */
    unsigned calls;
} frame_t;

static frame_t fr[NFR];
static uint64_t fn_count[F__N];
static int64_t fn_total[F__N]; /* us */
static size_t ncalls_total;
static uint64_t g_t0;
static w15_wtf_t *g_w;

static uint64_t ns(int64_t us)
{
    return g_t0 + (uint64_t)us * 1000u;
}

/* A call scope [t0, t1] in zone z; its argument is t0 in ms (the Chrome
 * check reads it back). */
static void call(w15_wtf_zone_t *z, int f, int64_t t0, int64_t t1)
{
    w15_wtf_scope_enter(z, w15_wtf_call_event(g_w, (uint32_t)f, fn_name[f]), ns(t0), (uint32_t)(t0 / 1000));
    w15_wtf_scope_leave(z, ns(t1));
    fn_count[f]++;
    fn_total[f] += t1 - t0;
    ncalls_total++;
}

static int64_t frame_dur(int n)
{
    return MS(10 + (n * 7) % 9); /* 10..18 ms */
}

static int write_capture(const char *out)
{
    char err[256];
    w15_wtf_info_t info = {"/usr/bin/test_rotation_tools", NULL, "0.1-test", "/tmp/rot.wip15"};
    g_w = w15_wtf_open(out, &info, err, sizeof err);
    if (!g_w) {
        fprintf(stderr, "test_rotation_tools: %s\n", err);
        return -1;
    }
    g_t0 = w15_clock_now();
    w15_wtf_zone_t *a = w15_wtf_zone_create(g_w, "11:main", "script");
    w15_wtf_zone_t *b = w15_wtf_zone_create(g_w, "12:worker", "script");
    int m = 5; /* zone b: a 20 ms glBufferData 10 s after every 5th minute */
    for (int n = 0; n < NFR; n++) {
        int64_t s = n <= X_FRAME ? S(5) + S(30) * n : S(7890) + S(30) * (n - X_FRAME - 1);
        int64_t e = n == X_FRAME ? X_END : s + frame_dur(n);
        for (; S(60) * m + S(10) < s; m += 5)
            call(b, F_BUFDATA, S(60) * m + S(10), S(60) * m + S(10) + MS(20));
        fr[n].start = s;
        fr[n].end = e;
        w15_wtf_frame_start(a, (uint32_t)n, ns(s));
        call(a, F_CLEAR, s + MS(1), s + 1500);
        fr[n].calls = 1;
        if (n == X_FRAME) {
            w15_wtf_scope_enter_named(a, "loading", 7, ns(LOAD_ENTER));
            for (int64_t t = s + S(5); t < S(7820); t += S(60), fr[n].calls++)
                call(a, F_TEX, t, t + MS(1));
            call(a, F_FINISH, FINISH_ENTER, FINISH_LEAVE);
            w15_wtf_scope_leave(a, ns(LOAD_LEAVE));
            fr[n].calls++;
        } else {
            call(a, F_DRAW, s + MS(2), s + MS(4));
            fr[n].calls++;
        }
        call(a, F_SWAP, e - MS(1), e - 100);
        fr[n].calls++;
        w15_wtf_frame_end(a, (uint32_t)n, ns(e));
    }
    w15_wtf_close(g_w);
    return 0;
}

/* ------------------------------------------------------------- running -- */

/* OUTDIR/STEM.wtf-trace, or its generation g: OUTDIR/STEM.G.wtf-trace */
static char *gen_path(const char *stem, int g)
{
    return g ? path_of("%s.%d.wtf-trace", stem, g) : path_of("%s.wtf-trace", stem);
}

static void copy_file(const char *from, const char *to)
{
    size_t n = 0;
    char *p = slurp(from, &n);
    FILE *f = fopen(to, "wb");
    CHECKF(f && fwrite(p, 1, n, f) == n && fclose(f) == 0, "copy %s to %s", from, to);
    free(p);
}

static long file_size(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* -------------------------------------------------------- expectations -- */

/* Nearest rank over durations (us) of frames [first, last]. */
static stats_t expect_stats(int first, int last)
{
    int n = last - first + 1;
    int64_t d[NFR];
    for (int i = 0; i < n; i++)
        d[i] = fr[first + i].end - fr[first + i].start;
    return expect_stats_of(d, n);
}

/* Times across generations may be off by 1 us: each file's timebase is
 * printed in ms with 3 decimals. */
static int near_ms(double a, double b, double tol_ms)
{
    return fabs(a - b) <= tol_ms + 1e-9 * fabs(b);
}

static void check_gens(json_object *j, const int *gens, int n, const char *what)
{
    json_object *g = get(j, "generations");
    int ok = g && json_object_is_type(g, json_type_array) && (int)json_object_array_length(g) == n;
    for (int i = 0; ok && i < n; i++)
        ok = json_object_get_int(json_object_array_get_idx(g, (size_t)i)) == gens[i];
    CHECKF(ok, "%s: generations %s", what, g ? json_object_to_json_string(g) : "(none)");
}

/* `wip15 frames --json` over frames [first, last] of the schedule. */
static void check_json_stats(json_object *j, int first, int last, const char *what)
{
    stats_t e = expect_stats(first, last);
    CHECKF(json_object_get_int(get(j, "frames")) == last - first + 1, "%s: frames %d != %d", what,
          json_object_get_int(get(j, "frames")), last - first + 1);
    CHECKF(strcmp(json_object_get_string(get(j, "zone")), "11:main") == 0, "%s: zone %s", what,
          json_object_get_string(get(j, "zone")));
    double tol = 0.001; /* one frame crosses generations */
    check_stats_json(get(j, "frame_ms"), &e, tol, 1e-9, what); /* as near_ms */
    CHECKF(fabs(num(j, "fps") - 1000.0 / e.mean) < 1e-3, "%s: fps %.6f", what, num(j, "fps"));
    json_object *lo = get(j, "low_fps");
    CHECKF(fabs(num(lo, "1%") - e.low1) < 1e-3 * e.low1, "%s: 1%% low %.6f != %.6f", what, num(lo, "1%"), e.low1);
    CHECKF(fabs(num(lo, "0.1%") - e.low01) < 1e-3 * e.low01, "%s: 0.1%% low %.6f != %.6f", what, num(lo, "0.1%"), e.low01);
    double span = (double)(fr[last].end - fr[first].start) / 1000.0;
    CHECKF(near_ms(num(j, "span_ms"), span, tol), "%s: span %.3f != %.3f", what, num(j, "span_ms"), span);
}

/* `wip15 frames --csv`: every frame of [first, last]; starts relative to
 * the first frame's. */
static void check_csv(const char *csv, int first, int last, const char *what)
{
    const char *p = strchr(csv, '\n');
    CHECKF(strncmp(csv, "frame,start_ms,duration_ms,calls\n", 33) == 0, "%s: CSV header", what);
    int n = first;
    double s0 = -1;
    while (p && p[1]) {
        unsigned num_, calls;
        double start, dur;
        p++;
        CHECKF(sscanf(p, "%u,%lf,%lf,%u", &num_, &start, &dur, &calls) == 4, "%s: CSV row %.40s", what, p);
        if (n > last) {
            CHECKF(0, "%s: more CSV rows than frames", what);
            break;
        }
        if (s0 < 0)
            s0 = start - (double)fr[n].start / 1000.0;
        CHECKF(num_ == (unsigned)n, "%s: CSV frame number %u != %d", what, num_, n);
        CHECKF(near_ms(start - s0, (double)fr[n].start / 1000.0, 0.0011), "%s: frame %d start %.3f != %.3f", what, n,
              start - s0, (double)fr[n].start / 1000.0);
        CHECKF(near_ms(dur, (double)(fr[n].end - fr[n].start) / 1000.0, n == X_FRAME ? 0.0011 : 0.0001),
              "%s: frame %d duration %.3f != %.3f", what, n, dur, (double)(fr[n].end - fr[n].start) / 1000.0);
        CHECKF(calls == fr[n].calls, "%s: frame %d calls %u != %u", what, n, calls, fr[n].calls);
        n++;
        p = strchr(p, '\n');
    }
    CHECKF(n == last + 1, "%s: %d CSV rows, expected %d", what, n - first, last - first + 1);
}

static void check_functions(json_object *j, int merged)
{
    json_object *fa = get(j, "functions");
    int seen = 0;
    for (size_t i = 0; fa && i < json_object_array_length(fa); i++) {
        json_object *f = json_object_array_get_idx(fa, i);
        const char *nm = json_object_get_string(get(f, "name"));
        for (int k = 0; k < F__N; k++) {
            if (strcmp(nm, fn_name[k]) != 0)
                continue;
            seen++;
            CHECKF((uint64_t)json_object_get_int64(get(f, "count")) == fn_count[k], "%s count %lld != %llu", nm,
                  (long long)json_object_get_int64(get(f, "count")), (unsigned long long)fn_count[k]);
            CHECKF(near_ms(num(f, "total_ms"), (double)fn_total[k] / 1000.0, k == F_FINISH ? 0.0011 : 1e-6),
                  "%s total %.3f != %.3f", nm, num(f, "total_ms"), (double)fn_total[k] / 1000.0);
        }
    }
    CHECKF(seen == F__N, "functions listed: %d of %d", seen, F__N);
    CHECKF(!merged || (size_t)json_object_get_int64(get(j, "calls")) == ncalls_total, "calls %lld != %zu",
          (long long)json_object_get_int64(get(j, "calls")), ncalls_total);
}

/* The Chrome trace of the whole capture: every call where its argument
 * (its time in ms) says, the frames in order at their times, the group
 * across the forced rotation closed with its true duration. */
static void check_chrome(const char *path)
{
    json_object *root, *evs = chrome_events(path, &root);
    if (!evs)
        return;
    check_gens(get(root, "otherData"), (const int[]){0, 1, 2}, 3, "export otherData");
    size_t ngl = 0, nframes = 0, nload = 0;
    int64_t off = INT64_MIN, prev_ts = -1;
    int prev_frame = -1;
    for (size_t i = 0; i < json_object_array_length(evs); i++) {
        json_object *e = json_object_array_get_idx(evs, i);
        const char *cat = json_object_get_string(get(e, "cat"));
        int64_t ts = json_object_get_int64(get(e, "ts")), dur = json_object_get_int64(get(e, "dur"));
        if (!cat)
            continue;
        if (strcmp(cat, "gl") == 0) {
            int64_t arg = json_object_get_int64(get(get(e, "args"), "call"));
            if (off == INT64_MIN)
                off = ts - arg * 1000;
            CHECKF(llabs(ts - arg * 1000 - off) <= 1, "call %s at %lld us, its argument says %lld ms",
                  json_object_get_string(get(e, "name")), (long long)(ts - off), (long long)arg);
            CHECKF(!get(get(e, "args"), "unclosed"), "call %s at %lld ms unclosed", json_object_get_string(get(e, "name")),
                  (long long)arg);
            ngl++;
        } else if (strcmp(cat, "frame") == 0) {
            int n = json_object_get_int(get(get(e, "args"), "frame"));
            CHECKF(n == prev_frame + 1 && ts > prev_ts, "frame slice %d after %d: ts %lld after %lld", n, prev_frame,
                  (long long)ts, (long long)prev_ts);
            if (n >= 0 && n < NFR && off != INT64_MIN) {
                CHECKF(llabs(ts - off - fr[n].start) <= 1, "frame %d at %lld us, expected %lld", n, (long long)(ts - off),
                      (long long)fr[n].start);
                CHECKF(llabs(dur - (fr[n].end - fr[n].start)) <= 1, "frame %d lasts %lld us", n, (long long)dur);
            }
            prev_frame = n;
            prev_ts = ts;
            nframes++;
        } else if (strcmp(cat, "group") == 0 && strcmp(json_object_get_string(get(e, "name")), "loading") == 0) {
            nload++;
            CHECKF(llabs(dur - (LOAD_LEAVE - LOAD_ENTER)) <= 1 && !get(get(e, "args"), "unclosed"),
                  "group across the forced rotation: %lld us%s", (long long)dur, get(get(e, "args"), "unclosed") ? ", unclosed" : "");
        }
    }
    CHECKF(ngl == ncalls_total, "export: %zu calls, expected %zu", ngl, ncalls_total);
    CHECKF(nframes == NFR, "export: %zu frames, expected %d", nframes, NFR);
    CHECKF(nload == 1, "export: %zu loading groups", nload);
    json_object_put(root);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_rotation_tools WIP15 OUTDIR\n");
        return 2;
    }
    g_wip15 = argv[1];
    g_dir = argv[2];
    mkdirs(g_dir);
    const char *stems[] = {"rot", "cut", "hdr", "gap"};
    for (size_t s = 0; s < sizeof stems / sizeof stems[0]; s++)
        for (int g = 0; g < 6; g++) {
            char *p = gen_path(stems[s], g);
            unlink(p);
            free(p);
        }
    char *p0 = gen_path("rot", 0), *p1 = gen_path("rot", 1), *p2 = gen_path("rot", 2), *p3 = gen_path("rot", 3);
    if (write_capture(p0) != 0)
        return 1;
    CHECKF(file_size(p0) > 0 && file_size(p1) > 0 && file_size(p2) > 0 && file_size(p3) < 0,
          "the emitter wrote generations 0-2 and no 3rd (sizes %ld %ld %ld %ld)", file_size(p0), file_size(p1),
          file_size(p2), file_size(p3));
    /* frames 0-119 start in the first hour, 120-238 in the second; frame 239
     * starts in generation 1 and ends in 2 (forced rotation) */
    int last0 = 119, last1 = 238;
    CHECKF(fr[last0].start < S(3600) && fr[last0 + 1].start > S(3600) && fr[last1 + 1].start < S(7200), "schedule");

    /* the whole capture */
    result_t r = run("frames", "--json", "--top", "0", p0, NULL);
    json_object *j = parse(&r, "frames --json");
    CHECKF(strstr(r.err, "warning") == NULL, "warnings on a good capture: %s", r.err);
    check_gens(j, (const int[]){0, 1, 2}, 3, "frames --json");
    check_json_stats(j, 0, NFR - 1, "whole capture");
    check_functions(j, 1);
    json_object *w = json_object_array_get_idx(get(j, "worst"), 0);
    CHECKF(json_object_get_int(get(w, "frame")) == X_FRAME && json_object_get_int(get(w, "calls")) == (int)fr[X_FRAME].calls,
          "worst frame %d with %d calls", json_object_get_int(get(w, "frame")), json_object_get_int(get(w, "calls")));
    json_object_put(j);
    result_free(&r);

    r = run("frames", "--csv", p0, NULL);
    CHECKF(r.status == 0, "frames --csv exit %d", r.status);
    check_csv(r.out, 0, NFR - 1, "whole capture");
    result_free(&r);

    r = run("frames", "--top", "3", p0, NULL);
    CHECKF(r.status == 0 && strstr(r.out, "\nread:        3 files (generations 0-2)\n") && strstr(r.out, "frames:      258\n"),
          "text report: %s", r.out);
    result_free(&r);

    /* --single: generation 0 alone */
    r = run("frames", "--json", "--top", "0", "--single", p0, NULL);
    j = parse(&r, "frames --single");
    check_gens(j, (const int[]){0}, 1, "--single");
    check_json_stats(j, 0, last0, "--single");
    CHECKF(strstr(r.err, "--single: 2 later generation files"), "--single note: %s", r.err);
    json_object_put(j);
    result_free(&r);
    r = run("frames", "--csv", "--single", p0, NULL);
    check_csv(r.out, 0, last0, "--single");
    result_free(&r);

    /* a later generation named: read alone, with a note; frame 239 (cut by
     * the forced rotation) is not a frame of generation 1 alone */
    r = run("frames", "--json", p1, NULL);
    j = parse(&r, "generation 1 alone");
    check_gens(j, (const int[]){1}, 1, "generation 1 alone");
    check_json_stats(j, last0 + 1, last1, "generation 1 alone");
    CHECKF(strstr(r.err, "note:") && strstr(r.err, "is generation 1 of a rotated capture"), "note: %s", r.err);
    json_object_put(j);
    result_free(&r);
    r = run("frames", p1, NULL);
    CHECKF(strstr(r.out, "\nread:        1 file (generation 1), read alone"), "text of generation 1 alone: %s", r.out);
    result_free(&r);

    /* one Chrome trace for the whole capture */
    char *chrome = path_of("rot.json");
    r = run("export", "--chrome", chrome, p0, NULL);
    CHECKF(r.status == 0, "export exit %d: %s", r.status, r.err);
    result_free(&r);
    check_chrome(chrome);
    r = run("export", "--single", "--chrome", chrome, p0, NULL);
    CHECKF(r.status == 0 && strstr(r.err, "--single"), "export --single exit %d: %s", r.status, r.err);
    result_free(&r);
    json_object *one = json_object_from_file(chrome);
    check_gens(get(one, "otherData"), (const int[]){0}, 1, "export --single");
    json_object_put(one);

    /* generation 1 cut inside its last chunk: read up to there with a
     * warning naming the file and byte; generation 2 still read */
    char *c0 = gen_path("cut", 0), *c1 = gen_path("cut", 1), *c2 = gen_path("cut", 2);
    copy_file(p0, c0);
    copy_file(p1, c1);
    copy_file(p2, c2);
    CHECKF(truncate(c1, file_size(p1) - 6) == 0, "truncate: %s", strerror(errno));
    r = run("frames", "--json", c0, NULL);
    j = parse(&r, "generation 1 cut in its last chunk");
    CHECKF(strstr(r.err, "warning: ") && strstr(r.err, "cut.1.wtf-trace: byte "), "warning: %s", r.err);
    check_gens(j, (const int[]){0, 1, 2}, 3, "generation 1 cut in its last chunk");
    CHECKF(json_object_get_int(get(j, "frames")) >= (last0 + 1) + (NFR - 1 - X_FRAME) &&
              (size_t)json_object_get_int64(get(j, "calls")) < ncalls_total,
          "generation 1 cut: %d frames, %lld calls", json_object_get_int(get(j, "frames")),
          (long long)json_object_get_int64(get(j, "calls")));
    json_object_put(j);
    result_free(&r);

    /* generation 1 cut inside its header: generation 0 alone, a warning
     * naming the file and byte, exit 0 as for a cut file */
    char *h0 = gen_path("hdr", 0), *h1 = gen_path("hdr", 1), *h2 = gen_path("hdr", 2);
    copy_file(p0, h0);
    copy_file(p1, h1);
    copy_file(p2, h2);
    CHECKF(truncate(h1, 40) == 0, "truncate: %s", strerror(errno));
    r = run("frames", "--json", "--top", "0", h0, NULL);
    j = parse(&r, "generation 1 cut in its header");
    CHECKF(strstr(r.err, "warning: ") && strstr(r.err, "hdr.1.wtf-trace: byte ") &&
              strstr(r.err, "generation 1 and later not read"),
          "warning: %s", r.err);
    check_gens(j, (const int[]){0}, 1, "generation 1 cut in its header");
    check_json_stats(j, 0, last0, "generation 1 cut in its header");
    json_object_put(j);
    result_free(&r);
    r = run("frames", h0, NULL);
    CHECKF(r.status == 0 && strstr(r.out, "\nread:        1 file (generation 0); later generations beside it not read\n"),
          "text with generation 1 cut: %d %s", r.status, r.out);
    result_free(&r);
    r = run("export", "--chrome", chrome, h0, NULL);
    CHECKF(r.status == 0 && strstr(r.err, "hdr.1.wtf-trace: byte "), "export with generation 1 cut: %d %s", r.status,
          r.err);
    result_free(&r);
    /* generation 0 itself cut in its header: an error, as before */
    CHECKF(truncate(h0, 40) == 0, "truncate: %s", strerror(errno));
    r = run("frames", h0, NULL);
    CHECKF(r.status == 1 && strstr(r.err, "hdr.wtf-trace: byte "), "generation 0 cut: %d %s", r.status, r.err);
    result_free(&r);

    /* generation 1 missing: generations 0 and 2 read, a warning; the frame
     * cut by the forced rotation has no start: dropped */
    char *g0 = gen_path("gap", 0), *g2 = gen_path("gap", 2);
    copy_file(p0, g0);
    copy_file(p2, g2);
    r = run("frames", "--csv", g0, NULL);
    CHECKF(r.status == 0 && strstr(r.err, "gap.1.wtf-trace not found"), "gap: %d %s", r.status, r.err);
    {
        int rows = 0;
        for (const char *q = r.out; (q = strchr(q, '\n')); q++)
            rows++;
        CHECKF(rows == 1 + (last0 + 1) + (NFR - 1 - X_FRAME), "gap: %d CSV rows", rows);
        char want[64];
        snprintf(want, sizeof want, "\n%d,", X_FRAME + 1);
        CHECKF(strstr(r.out, want) != NULL, "gap: frame %d missing", X_FRAME + 1);
    }
    result_free(&r);

    free(p0), free(p1), free(p2), free(p3), free(c0), free(c1), free(c2), free(h0), free(h1), free(h2), free(g0), free(g2);
    free(chrome);
    if (!check_failed)
        printf("ok: rotation tools\n");
    return check_failed ? 1 : 0;
}
