/* test_gpu_tools.c -- GPU time in `wip15 frames` and `wip15 export --chrome`
 * (docs/WTF.md "GPU time in the tools").
 *
 *   test_gpu_tools WIP15 OUTDIR          write the captures, run the tools
 *   test_gpu_tools --write OUTDIR        write the captures only and print
 *                                        what the WTF loader must see (JSON;
 *                                        check_gpu_loader.js)
 *
 * Writes with the real emitter and synthetic times:
 *  - OUTDIR/gpu.wtf-trace: a rotated capture (period 400 ms) of 60 frames of
 *    zone "21:main" with call scopes, and its companion zone "21:main GPU"
 *    (type native_gpu) holding one wip15.gpuFrame scope per measured frame
 *    (none for frame 0, every frame n with n % 7 == 3, and the last frame),
 *    written two frames late as the tracer does; a zone "22:worker" with
 *    calls and no frames;
 *  - OUTDIR/one.wtf-trace: the same in one file (default period), for the
 *    wtf-json round trip;
 *  - OUTDIR/empty.wtf-trace: 10 frames and a GPU zone without scopes;
 *  - OUTDIR/plain.wtf-trace: 10 frames and no GPU zone;
 * then checks the tools' numbers against values computed here from the
 * schedule (nearest-rank percentiles, as docs/WTF.md defines them).  Exit 0
 * when everything holds. */
#define _GNU_SOURCE
#include "clock.h"
#include "tooltest.h"
#include "wtf_emitter.h"

#include <math.h>

/* ------------------------------------------------------------ schedule -- */

#define NFR 60
#define SPACING 20000  /* us between frame starts */
#define GPU_LAG 1200   /* us from a frame's start to its GPU start */
#define SKIP 5         /* --skip checked */

enum { F_CLEAR, F_DRAW, F_SWAP, F__N };
static const char *fn_name[F__N] = {"glClear", "glDrawArrays", "glXSwapBuffers"};

static int64_t fr_start(int n)
{
    return 5000 + (int64_t)SPACING * n;
}

static int64_t fr_dur(int n)
{
    return 10000 + (n * 7 % 9) * 1000 + n * 13; /* distinct, < SPACING */
}

/* GPU time of frame n in us, -1 when the frame has none (frame 0, the
 * frames whose queries were "late", the last frame) */
static int64_t gpu_dur(int n)
{
    if (n == 0 || n % 7 == 3 || n == NFR - 1)
        return -1;
    return 1000 + (n * 37 % 23) * 150 + n; /* distinct, < SPACING - GPU_LAG */
}

static uint64_t g_t0;

static uint64_t ns(int64_t us)
{
    return g_t0 + (uint64_t)us * 1000u;
}

static void call(w15_wtf_t *w, w15_wtf_zone_t *z, int f, int64_t t0, int64_t t1, uint32_t seq)
{
    w15_wtf_scope_enter(z, w15_wtf_call_event(w, (uint32_t)f, fn_name[f]), ns(t0), seq);
    w15_wtf_scope_leave(z, ns(t1));
}

static void gpu_scope(w15_wtf_t *w, w15_wtf_zone_t *g, int n)
{
    if (gpu_dur(n) < 0)
        return;
    w15_wtf_scope_enter(g, w15_wtf_gpu_frame_event(w), ns(fr_start(n) + GPU_LAG), (uint32_t)n);
    w15_wtf_scope_leave(g, ns(fr_start(n) + GPU_LAG + gpu_dur(n)));
}

/* kind 0: the full schedule; 1: 10 frames and an empty GPU zone; 2: 10
 * frames and no GPU zone */
static int write_capture(const char *out, uint64_t period_ns, int kind)
{
    char err[256];
    w15_wtf_info_t info = {"/usr/bin/test_gpu_tools", NULL, "0.1-test", "/tmp/gpu.wip15"};
    unlink(out);
    w15_wtf_t *w = w15_wtf_open(out, &info, err, sizeof err);
    if (!w) {
        fprintf(stderr, "test_gpu_tools: %s\n", err);
        return -1;
    }
    if (period_ns)
        w15_wtf_set_period(w, period_ns);
    g_t0 = w15_clock_now();
    w15_wtf_zone_t *a = w15_wtf_zone_create(w, "21:main", "script");
    w15_wtf_zone_t *g = kind == 2 ? NULL : w15_wtf_zone_create(w, "21:main GPU", "native_gpu");
    w15_wtf_zone_t *b = kind == 0 ? w15_wtf_zone_create(w, "22:worker", "script") : NULL;
    int nfr = kind == 0 ? NFR : 10;
    uint32_t seq = 0;
    for (int n = 0; n < nfr; n++) {
        int64_t s = fr_start(n), e = s + fr_dur(n);
        w15_wtf_frame_start(a, (uint32_t)n, ns(s));
        call(w, a, F_CLEAR, s + 1000, s + 1500, seq++);
        call(w, a, F_DRAW, s + 2000, s + 4000, seq++);
        call(w, a, F_SWAP, e - 1000, e - 100, seq++);
        w15_wtf_frame_end(a, (uint32_t)n, ns(e));
        if (b && n % 10 == 5)
            call(w, b, F_DRAW, s + 3000, s + 3500, (uint32_t)n);
        /* the GPU's results arrive two frames late */
        if (kind == 0 && n >= 2)
            gpu_scope(w, g, n - 2);
    }
    if (kind == 0)
        for (int n = nfr - 2; n < nfr; n++)
            gpu_scope(w, g, n);
    w15_wtf_close(w);
    return 0;
}

/* -------------------------------------------------------- expectations -- */

/* GPU statistics over frames [first, NFR) */
static stats_t expect_gpu(int first)
{
    int64_t d[NFR];
    int n = 0;
    for (int i = first; i < NFR; i++)
        if (gpu_dur(i) >= 0)
            d[n++] = gpu_dur(i);
    return expect_stats_of(d, n);
}

static int near(double a, double b, double tol)
{
    return fabs(a - b) <= tol;
}

/* The text report: the "gpu time:" line (parsed back), the worst frames
 * table with its "gpu ms" column, no gpuFrame in the function table. */
static void check_text(const char *out, int first, const char *what)
{
    stats_t e = expect_gpu(first);
    const char *l = strstr(out, "\ngpu time:    ");
    CHECKF(l, "%s: no gpu time line in\n%s", what, out);
    if (!l)
        return;
    double m[6];
    int k = 0, nf = 0;
    CHECKF(sscanf(l + 1, "gpu time:    mean %lf ms  median %lf ms  p90 %lf ms  p95 %lf ms  p99 %lf ms  max %lf ms  (%d of %d frames)",
                 &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &k, &nf) == 8,
          "%s: gpu time line: %.160s", what, l + 1);
    double want[6] = {e.mean, e.median, e.p90, e.p95, e.p99, e.max};
    const char *names[6] = {"mean", "median", "p90", "p95", "p99", "max"};
    for (int i = 0; i < 6; i++)
        CHECKF(near(m[i], want[i], 0.0006), "%s: gpu %s %.3f != %.4f", what, names[i], m[i], want[i]);
    CHECKF(k == e.n && nf == NFR - first, "%s: gpu time of %d of %d frames, expected %d of %d", what, k, nf, e.n,
          NFR - first);
    /* the line sits right after "frame time:" */
    const char *ft = strstr(out, "\nframe time:  ");
    CHECKF(ft && strchr(ft + 1, '\n') == l, "%s: gpu time line not right after frame time", what);
    const char *w = strstr(out, "\nworst frames:\n");
    CHECKF(w, "%s: no worst frames", what);
    if (!w)
        return;
    w = strchr(w + 15, '\n'); /* past the header */
    CHECKF(strstr(out, "       frame           ms    calls       gpu ms\n") != NULL, "%s: worst frames header", what);
    int rows = 0;
    while (w && w[1] == ' ') {
        unsigned fnum, calls;
        double ms;
        char gpu[32];
        if (sscanf(w + 1, "%u %lf %u %31s", &fnum, &ms, &calls, gpu) != 4) {
            CHECKF(0, "%s: worst frames row %.60s", what, w + 1);
            break;
        }
        rows++;
        CHECKF(fnum < NFR && (int)fnum >= first, "%s: worst frame %u", what, fnum);
        if (fnum < NFR && gpu_dur((int)fnum) >= 0)
            CHECKF(near(atof(gpu), (double)gpu_dur((int)fnum) / 1000.0, 0.0005), "%s: worst frame %u gpu ms %s != %.3f",
                  what, fnum, gpu, (double)gpu_dur((int)fnum) / 1000.0);
        else
            CHECKF(strcmp(gpu, "-") == 0, "%s: worst frame %u without GPU time shows %s", what, fnum, gpu);
        w = strchr(w + 1, '\n');
    }
    CHECKF(rows == 10, "%s: %d worst frames", what, rows);
    CHECKF(!strstr(out, W15_WTF_GPU_FRAME_EVENT), "%s: %s in the report", what, W15_WTF_GPU_FRAME_EVENT);
    CHECKF(strstr(out, "\nGL functions (186 call scopes;") != NULL, "%s: call scopes counted", what);
}

static void check_csv(const char *csv, int first, const char *what)
{
    const char *hdr = "frame,start_ms,duration_ms,calls,gpu_ms\n";
    CHECKF(strncmp(csv, hdr, strlen(hdr)) == 0, "%s: CSV header %.60s", what, csv);
    const char *p = strchr(csv, '\n');
    int n = first;
    while (p && p[1]) {
        p++;
        const char *eol = strchr(p, '\n');
        char row[128];
        snprintf(row, sizeof row, "%.*s", eol ? (int)(eol - p) : (int)strlen(p), p);
        unsigned fnum, calls;
        double start, dur;
        CHECKF(sscanf(row, "%u,%lf,%lf,%u", &fnum, &start, &dur, &calls) == 4, "%s: CSV row %s", what, row);
        CHECKF(fnum == (unsigned)n, "%s: CSV frame %u, expected %d", what, fnum, n);
        CHECKF(calls == 3, "%s: frame %d calls %u", what, n, calls);
        CHECKF(near(dur, (double)fr_dur(n) / 1000.0, 0.0011), "%s: frame %d duration %.3f", what, n, dur);
        const char *last = strrchr(row, ',');
        char want[32] = "";
        if (gpu_dur(n) >= 0)
            snprintf(want, sizeof want, "%d.%03d", (int)(gpu_dur(n) / 1000), (int)(gpu_dur(n) % 1000));
        CHECKF(last && strcmp(last + 1, want) == 0, "%s: frame %d gpu_ms \"%s\", expected \"%s\"", what, n,
              last ? last + 1 : "?", want);
        n++;
        p = eol;
    }
    CHECKF(n == NFR, "%s: CSV rows up to frame %d", what, n);
}

static void check_json(json_object *j, int first, const char *what)
{
    stats_t e = expect_gpu(first);
    json_object *g = get(j, "gpu");
    CHECKF(g, "%s: no gpu object", what);
    if (!g)
        return;
    CHECKF(strcmp(json_object_get_string(get(g, "zone")), "21:main GPU") == 0, "%s: gpu zone %s", what,
          json_object_get_string(get(g, "zone")));
    CHECKF(json_object_get_int(get(g, "scopes")) == expect_gpu(0).n, "%s: gpu scopes %d != %d", what,
          json_object_get_int(get(g, "scopes")), expect_gpu(0).n);
    CHECKF(json_object_get_int(get(g, "frames")) == e.n, "%s: gpu frames %d != %d", what,
          json_object_get_int(get(g, "frames")), e.n);
    char wg[160];
    snprintf(wg, sizeof wg, "%s: gpu_ms", what);
    double tol = 1e-9;
    check_stats_json(get(g, "gpu_ms"), &e, tol, 0, wg);
    json_object *pf = get(g, "per_frame");
    size_t k = 0;
    for (int n = first; n < NFR; n++) {
        if (gpu_dur(n) < 0)
            continue;
        json_object *x = pf ? json_object_array_get_idx(pf, k) : NULL;
        CHECKF(x && json_object_get_int(get(x, "frame")) == n && near(num(x, "gpu_ms"), (double)gpu_dur(n) / 1000.0, tol),
              "%s: per_frame[%zu] %s, expected frame %d %.3f ms", what, k, x ? json_object_to_json_string(x) : "(none)",
              n, (double)gpu_dur(n) / 1000.0);
        k++;
    }
    CHECKF(pf && json_object_array_length(pf) == k, "%s: per_frame has %zu entries, expected %zu", what,
          pf ? json_object_array_length(pf) : 0, k);
    /* worst frames carry gpu_ms when they have GPU time */
    json_object *wa = get(j, "worst");
    for (size_t i = 0; wa && i < json_object_array_length(wa); i++) {
        json_object *x = json_object_array_get_idx(wa, i);
        int n = json_object_get_int(get(x, "frame"));
        if (n >= 0 && n < NFR && gpu_dur(n) >= 0)
            CHECKF(near(num(x, "gpu_ms"), (double)gpu_dur(n) / 1000.0, tol), "%s: worst frame %d gpu_ms", what, n);
        else
            CHECKF(!get(x, "gpu_ms"), "%s: worst frame %d without GPU time has gpu_ms", what, n);
    }
    /* the function table: the GL calls only */
    json_object *fa = get(j, "functions");
    size_t nf = fa ? json_object_array_length(fa) : 0;
    CHECKF(nf == F__N, "%s: %zu functions listed, expected %d", what, nf, F__N);
    for (size_t i = 0; i < nf; i++) {
        json_object *f = json_object_array_get_idx(fa, i);
        const char *nm = json_object_get_string(get(f, "name"));
        CHECKF(strcmp(nm, W15_WTF_GPU_FRAME_EVENT) != 0, "%s: %s in the function table", what, nm);
        int64_t want = strcmp(nm, "glDrawArrays") == 0 ? NFR + NFR / 10 : NFR;
        CHECKF(json_object_get_int64(get(f, "count")) == want, "%s: %s count %lld != %lld", what, nm,
              (long long)json_object_get_int64(get(f, "count")), (long long)want);
    }
    CHECKF(json_object_get_int(get(j, "calls")) == 3 * NFR + NFR / 10, "%s: calls %d", what,
          json_object_get_int(get(j, "calls")));
}

/* export --chrome: the GPU zone on its own track named "21:main GPU", one
 * slice "GPU frame N" (args.frame N) per scope, GPU_LAG after frame N's
 * slice and as long as its GPU time; frame slices carry args.gpu_ms. */
static void check_chrome(const char *path)
{
    json_object *root, *evs = chrome_events(path, &root);
    if (!evs)
        return;
    int64_t main_tid = -1, gpu_tid = -1, frames_tid = -1;
    int64_t frame_ts[NFR];
    for (int i = 0; i < NFR; i++)
        frame_ts[i] = -1;
    size_t nev = json_object_array_length(evs);
    for (size_t i = 0; i < nev; i++) {
        json_object *e = json_object_array_get_idx(evs, i);
        const char *ph = json_object_get_string(get(e, "ph")), *nm = json_object_get_string(get(e, "name"));
        if (strcmp(ph, "M") == 0 && strcmp(nm, "thread_name") == 0) {
            const char *tn = json_object_get_string(get(get(e, "args"), "name"));
            int64_t tid = json_object_get_int64(get(e, "tid"));
            if (strcmp(tn, "21:main") == 0)
                main_tid = tid;
            else if (strcmp(tn, "21:main GPU") == 0)
                gpu_tid = tid;
            else if (strcmp(tn, "frames (21:main)") == 0)
                frames_tid = tid;
        }
        const char *cat = json_object_get_string(get(e, "cat"));
        if (cat && strcmp(cat, "frame") == 0) {
            json_object *a = get(e, "args");
            int n = json_object_get_int(get(a, "frame"));
            if (n >= 0 && n < NFR) {
                frame_ts[n] = json_object_get_int64(get(e, "ts"));
                if (gpu_dur(n) >= 0)
                    CHECKF(near(num(a, "gpu_ms"), (double)gpu_dur(n) / 1000.0, 1e-9), "export: frame %d gpu_ms %s", n,
                          json_object_to_json_string(a));
                else
                    CHECKF(!get(a, "gpu_ms"), "export: frame %d without GPU time has gpu_ms", n);
            }
        }
    }
    CHECKF(main_tid > 0 && gpu_tid > 0 && frames_tid > 0, "export: tracks main %lld gpu %lld frames %lld",
          (long long)main_tid, (long long)gpu_tid, (long long)frames_tid);
    CHECKF(gpu_tid != main_tid && gpu_tid != frames_tid, "export: the GPU track shares a tid (%lld)", (long long)gpu_tid);
    int ngpu = 0, prev = -1;
    for (size_t i = 0; i < nev; i++) {
        json_object *e = json_object_array_get_idx(evs, i);
        const char *cat = json_object_get_string(get(e, "cat"));
        int64_t tid = json_object_get_int64(get(e, "tid"));
        if (cat && strcmp(cat, "gl") == 0)
            CHECKF(tid != gpu_tid, "export: a GL call on the GPU track");
        if (!cat || strcmp(cat, "gpu") != 0)
            continue;
        ngpu++;
        int n = json_object_get_int(get(get(e, "args"), "frame"));
        char want[32];
        snprintf(want, sizeof want, "GPU frame %d", n);
        CHECKF(strcmp(json_object_get_string(get(e, "name")), want) == 0, "export: GPU slice %s for frame %d",
              json_object_get_string(get(e, "name")), n);
        CHECKF(strcmp(json_object_get_string(get(e, "ph")), "X") == 0, "export: GPU slice ph");
        CHECKF(tid == gpu_tid, "export: GPU frame %d on tid %lld", n, (long long)tid);
        CHECKF(n > prev && n < NFR && gpu_dur(n) >= 0, "export: GPU frame %d after %d", n, prev);
        if (n > prev && n < NFR && gpu_dur(n) >= 0) {
            int64_t ts = json_object_get_int64(get(e, "ts")), dur = json_object_get_int64(get(e, "dur"));
            CHECKF(dur == gpu_dur(n), "export: GPU frame %d lasts %lld us, expected %lld", n, (long long)dur,
                  (long long)gpu_dur(n));
            /* across generations times may be 1 us apart (timebases in ms
             * with 3 decimals) */
            CHECKF(frame_ts[n] >= 0 && llabs(ts - frame_ts[n] - GPU_LAG) <= 1, "export: GPU frame %d at +%lld us", n,
                  (long long)(ts - frame_ts[n]));
        }
        prev = n;
    }
    CHECKF(ngpu == expect_gpu(0).n, "export: %d GPU slices, expected %d", ngpu, expect_gpu(0).n);
    json_object_put(root);
}

/* A report without its "file:" line. */
static const char *body(const char *out)
{
    const char *p = strchr(out, '\n');
    return p ? p : out;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        g_dir = argv[2];
        mkdirs(g_dir);
        char *p = path_of("gpu.wtf-trace");
        if (write_capture(p, 400000000u, 0) != 0)
            return 1;
        /* what the loader must see: the GPU scopes' durations in order */
        printf("{\"file\":\"%s\",\"gpu_zone\":\"21:main GPU\",\"gpu_scopes\":%d,\"gpu_ms\":[", p, expect_gpu(0).n);
        int first = 1;
        for (int n = 0; n < NFR; n++)
            if (gpu_dur(n) >= 0) {
                printf("%s%.3f", first ? "" : ",", (double)gpu_dur(n) / 1000.0);
                first = 0;
            }
        printf("],\"frames\":%d}\n", NFR);
        free(p);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: test_gpu_tools WIP15 OUTDIR | test_gpu_tools --write OUTDIR\n");
        return 2;
    }
    g_wip15 = argv[1];
    g_dir = argv[2];
    mkdirs(g_dir);
    char *gpu = path_of("gpu.wtf-trace"), *one = path_of("one.wtf-trace"), *empty = path_of("empty.wtf-trace"),
         *nogpu = path_of("plain.wtf-trace"), *g1 = path_of("gpu.1.wtf-trace"), *g4 = path_of("gpu.4.wtf-trace");
    for (int g = 1; g < 8; g++) {
        char *p = path_of("gpu.%d.wtf-trace", g);
        unlink(p);
        free(p);
    }
    if (write_capture(gpu, 400000000u, 0) || write_capture(one, 0, 0) || write_capture(empty, 0, 1) ||
        write_capture(nogpu, 0, 2))
        return 1;
    struct stat sb;
    CHECKF(stat(g1, &sb) == 0 && stat(g4, &sb) != 0, "the rotated capture is not 2-4 files");

    /* text, whole capture and --skip */
    result_t r = run("frames", gpu, NULL);
    CHECKF(r.status == 0 && strstr(r.out, "read:        "), "frames: exit %d, %s", r.status, r.err);
    check_text(r.out, 0, "frames");
    result_free(&r);
    char skip[16];
    snprintf(skip, sizeof skip, "%d", SKIP);
    r = run("frames", "--skip", skip, gpu, NULL);
    check_text(r.out, SKIP, "frames --skip");
    result_free(&r);

    /* CSV */
    r = run("frames", "--csv", gpu, NULL);
    CHECKF(r.status == 0, "frames --csv: exit %d", r.status);
    check_csv(r.out, 0, "frames --csv");
    result_free(&r);
    r = run("frames", "--csv", "--skip", skip, gpu, NULL);
    check_csv(r.out, SKIP, "frames --csv --skip");
    result_free(&r);

    /* JSON */
    r = run("frames", "--json", "--top", "0", gpu, NULL);
    json_object *j = parse(&r, "frames --json");
    check_json(j, 0, "frames --json");
    json_object_put(j);
    result_free(&r);
    r = run("frames", "--json", "--top", "0", "--skip", skip, gpu, NULL);
    j = parse(&r, "frames --json --skip");
    check_json(j, SKIP, "frames --json --skip");
    json_object_put(j);
    result_free(&r);

    /* SVG: a second series with a legend */
    char *svg = path_of("gpu.svg");
    r = run("frames", "--svg", svg, gpu, NULL);
    char *s = slurp(svg, NULL);
    CHECKF(r.status == 0 && strstr(s, "stroke=\"#ff7f0e\"") && strstr(s, "GPU time: median"), "frames --svg: no GPU series");
    free(s);
    result_free(&r);

    /* export --chrome */
    char *chrome = path_of("gpu.json");
    r = run("export", "--chrome", chrome, gpu, NULL);
    CHECKF(r.status == 0, "export: exit %d %s", r.status, r.err);
    check_chrome(chrome);
    result_free(&r);

    /* wtf-json round trip keeps the GPU zone and its scopes: the same
     * report from the trace, its .wtf-json and the trace made back */
    char *oj = path_of("one.wtf-json"), *ot = path_of("one2.wtf-trace");
    unlink(oj);
    unlink(ot);
    r = run("wtf-json", one, oj, NULL);
    CHECKF(r.status == 0, "wtf-json: exit %d %s", r.status, r.err);
    result_free(&r);
    r = run("wtf-json", oj, ot, NULL);
    CHECKF(r.status == 0, "wtf-json back: exit %d %s", r.status, r.err);
    result_free(&r);
    char *js = slurp(oj, NULL);
    CHECKF(strstr(js, "\"21:main GPU\",\"native_gpu\"") && strstr(js, "\"signature\":\"wip15.gpuFrame(uint32 frame)\""),
          "wtf-json: the GPU zone or the gpuFrame definition is missing");
    free(js);
    result_t ra = run("frames", "--json", one, NULL), rb = run("frames", "--json", oj, NULL),
             rc = run("frames", "--json", ot, NULL);
    json_object *ja = parse(&ra, "frames one"), *jb = parse(&rb, "frames one.wtf-json"), *jc = parse(&rc, "frames one2");
    check_json(ja, 0, "frames one.wtf-trace");
    const char *ga = json_object_to_json_string(get(ja, "gpu")), *gb = json_object_to_json_string(get(jb, "gpu")),
               *gc = json_object_to_json_string(get(jc, "gpu"));
    CHECKF(strcmp(ga, gb) == 0 && strcmp(ga, gc) == 0, "round trip: gpu %s / %s / %s", ga, gb, gc);
    json_object_put(ja);
    json_object_put(jb);
    json_object_put(jc);
    result_free(&ra);
    result_free(&rb);
    result_free(&rc);
    /* one file and the rotated capture: the same GPU numbers */
    ra = run("frames", "--json", one, NULL);
    rb = run("frames", "--json", gpu, NULL);
    ja = parse(&ra, "frames one");
    jb = parse(&rb, "frames gpu");
    ga = json_object_to_json_string(get(ja, "gpu"));
    gb = json_object_to_json_string(get(jb, "gpu"));
    CHECKF(strcmp(ga, gb) == 0, "one file / rotated: gpu %s / %s", ga, gb);
    json_object_put(ja);
    json_object_put(jb);
    result_free(&ra);
    result_free(&rb);

    /* a GPU zone without scopes: a note, no column */
    r = run("frames", empty, NULL);
    CHECKF(r.status == 0 && strstr(r.out, "\ngpu time:    none (zone \"21:main GPU\" has no GPU frame scopes)\n") &&
              !strstr(r.out, "gpu ms"),
          "frames, empty GPU zone:\n%s", r.out);
    result_free(&r);
    r = run("frames", "--csv", empty, NULL);
    CHECKF(strncmp(r.out, "frame,start_ms,duration_ms,calls\n", 33) == 0, "frames --csv, empty GPU zone: %.60s", r.out);
    result_free(&r);
    r = run("frames", "--json", empty, NULL);
    j = parse(&r, "frames --json, empty GPU zone");
    json_object *g = get(j, "gpu");
    CHECKF(g && json_object_get_int(get(g, "scopes")) == 0 && json_object_get_int(get(g, "frames")) == 0 &&
              !get(g, "gpu_ms") && json_object_array_length(get(g, "per_frame")) == 0,
          "frames --json, empty GPU zone: %s", g ? json_object_to_json_string(g) : "(no gpu)");
    json_object_put(j);
    result_free(&r);

    /* no GPU zone: no trace of GPU anywhere, and the same report as the
     * empty-zone capture without its note */
    result_t re = run("frames", empty, NULL);
    r = run("frames", nogpu, NULL);
    CHECKF(r.status == 0 && !strstr(body(r.out), "gpu") && !strstr(body(r.out), "GPU"), "frames, no GPU zone:\n%s", r.out);
    char *want = strdup(body(re.out)), *note = strstr(want, "gpu time:    none");
    if (note) {
        char *eol = strchr(note, '\n');
        memmove(note, eol + 1, strlen(eol + 1) + 1);
    }
    CHECKF(strcmp(body(r.out), want) == 0, "frames, no GPU zone, differs from the empty zone's:\n%s\n---\n%s", body(r.out),
          want);
    free(want);
    result_free(&re);
    result_free(&r);
    r = run("frames", "--json", nogpu, NULL);
    j = parse(&r, "frames --json, no GPU zone");
    CHECKF(!get(j, "gpu") && !strstr(r.out, "gpu_ms"), "frames --json, no GPU zone: %s", r.out);
    json_object_put(j);
    result_free(&r);
    r = run("frames", "--csv", nogpu, NULL);
    CHECKF(r.status == 0 && !strstr(r.out, "gpu"), "frames --csv, no GPU zone: %.80s", r.out);
    result_free(&r);

    free(gpu);
    free(one);
    free(empty);
    free(nogpu);
    free(g1);
    free(g4);
    free(svg);
    free(chrome);
    free(oj);
    free(ot);
    if (!check_failed)
        printf("test_gpu_tools: ok\n");
    return check_failed ? 1 : 0;
}
