/* cmd_frames.c -- `wip15 frames`: frame-time statistics of a .wtf-trace or
 * .wtf-json file, or of every generation of a rotated capture (definitions
 * in docs/WTF.md "Timing tools" and "Long captures: rotation"). */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "capture.h"
#include "wtf_analysis.h"
#include "wtf_reader.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: wip15 frames [options] FILE.wtf-trace|FILE.wtf-json\n"
               "\n"
               "Frame count, fps, frame-time mean/median/p90/p95/p99/max, 1%% and 0.1%% lows,\n"
               "the worst frames and the time per GL function; with GPU time in the capture\n"
               "(a \"<zone> GPU\" zone), the same statistics of the GPU time per frame.\n"
               "\n"
               "  --csv           one row per frame (frame,start_ms,duration_ms,calls; and\n"
               "                  gpu_ms when the capture has GPU time)\n"
               "  --json          the summary as one JSON object\n"
               "  --svg OUT.svg   write a frame-time chart (over time + histogram)\n"
               "  --top N         GL functions listed (default 20; 0 = all)\n"
               "  --worst N       worst frames listed (default 10)\n"
               "  --zone NAME     analyse the frames of this zone (thread); default: the\n"
               "                  zone with the most frames\n"
               "  --skip N        leave the zone's first N frames out of the frame\n"
               "                  statistics, chart and CSV (warm-up; frame 0 runs from\n"
               "                  the thread's first GL call to its first swap); default 0\n"
               "  --single        read only FILE, not the later generations of a rotated\n"
               "                  capture beside it (FILE.1.wtf-trace, FILE.2.wtf-trace, ...)\n"
               "  -h, --help      this text\n"
               "\n"
               "Given generation 0 of a rotated capture (X.wtf-trace with X.1.wtf-trace ...\n"
               "beside it), every generation is read and analysed as one capture; a later\n"
               "generation named directly is read alone.\n");
}

static void jstr(FILE *o, const char *s)
{
    fputc('"', o);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(o, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(o, "\\u%04x", *p);
        else
            fputc(*p, o);
    }
    fputc('"', o);
}

static const char *zone_name(const w15_timeline_t *tl, uint32_t z)
{
    return z && z <= tl->nzones && tl->zone_name[z - 1] ? tl->zone_name[z - 1] : "(no zone)";
}

/* ------------------------------------------------------------------ SVG -- */

static double nice_step(double range, int ticks)
{
    if (range <= 0)
        return 1;
    double raw = range / ticks, mag = pow(10, floor(log10(raw))), r = raw / mag;
    return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

static void svg_text(FILE *o, double x, double y, const char *anchor, int size, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void svg_text(FILE *o, double x, double y, const char *anchor, int size, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size);
    for (const char *p = buf; *p; p++) {
        if (*p == '<')
            fputs("&lt;", o);
        else if (*p == '>')
            fputs("&gt;", o);
        else if (*p == '&')
            fputs("&amp;", o);
        else
            fputc(*p, o);
    }
    fputs("</text>\n", o);
}

/* The frame time (gpu = 0) or the GPU time (1) of a frame in ms; < 0: none. */
static double series_ms(const w15_frame_t *fr, int gpu)
{
    if (gpu)
        return fr->gpu_us >= 0 ? (double)fr->gpu_us / 1000.0 : -1;
    return (fr->t1 - fr->t0) / 1000.0;
}

#define GPU_COLOUR "#ff7f0e"

/* One series of the top panel: a polyline through one point per frame, or
 * with more frames than 2 per pixel column a min/max envelope per column.
 * The GPU series (gpu = 1) skips frames without GPU time: its line breaks
 * there. */
static void draw_series(FILE *o, const w15_frame_stats_t *st, int gpu, int cols, double L, double PW, double T1,
                        double B1, double t0, double tspan, double ymax)
{
    size_t n = st->n;
    const char *colour = gpu ? GPU_COLOUR : "#1f77b4";
    if (n > (size_t)cols * 2) {
        double *mn = malloc(cols * sizeof *mn), *mx = malloc(cols * sizeof *mx);
        if (mn && mx) {
            for (int c = 0; c < cols; c++)
                mn[c] = INFINITY, mx[c] = -INFINITY;
            for (size_t i = 0; i < n; i++) {
                double x = (st->frames[i]->t0 / 1000.0 - t0) / 1000.0;
                int c = (int)(x / tspan * (cols - 1));
                double d = series_ms(st->frames[i], gpu);
                if (d < 0)
                    continue;
                if (d < mn[c])
                    mn[c] = d;
                if (d > mx[c])
                    mx[c] = d;
            }
            /* each column spans its min..max, stretched to meet the
             * previous column so the trace stays connected */
            fprintf(o, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1\" d=\"", colour);
            int prev = -1;
            for (int c = 0; c < cols; c++) {
                if (mx[c] < 0)
                    continue;
                double lo = mn[c], hi = mx[c];
                if (prev >= 0) {
                    if (mx[prev] < lo)
                        lo = mx[prev];
                    if (mn[prev] > hi)
                        hi = mn[prev];
                }
                fprintf(o, "M%.1f %.1fV%.1f", L + c, B1 - lo / ymax * (B1 - T1), B1 - hi / ymax * (B1 - T1) - 0.5);
                prev = c;
            }
            fprintf(o, "\"/>\n");
        }
        free(mn);
        free(mx);
    } else if (!gpu) {
        fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" points=\"", colour);
        for (size_t i = 0; i < n; i++) {
            double x = (st->frames[i]->t0 / 1000.0 - t0) / 1000.0;
            double d = series_ms(st->frames[i], gpu);
            fprintf(o, "%.1f,%.1f ", L + x / tspan * PW, B1 - d / ymax * (B1 - T1));
        }
        fprintf(o, "\"/>\n");
    } else {
        /* runs of frames with GPU time; a lone point as a short dash */
        fprintf(o, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\" stroke-linecap=\"round\" d=\"", colour);
        int run = 0;
        for (size_t i = 0; i < n; i++) {
            double d = series_ms(st->frames[i], gpu);
            if (d < 0) {
                run = 0;
                continue;
            }
            double x = (st->frames[i]->t0 / 1000.0 - t0) / 1000.0;
            int lone = !run && (i + 1 == n || series_ms(st->frames[i + 1], gpu) < 0);
            fprintf(o, "%s%.1f %.1f%s", run ? "L" : "M", L + x / tspan * PW, B1 - d / ymax * (B1 - T1), lone ? "h1" : "");
            run = 1;
        }
        fprintf(o, "\"/>\n");
    }
}

static int write_svg(const char *path, const w15_timeline_t *tl, const w15_frame_stats_t *st)
{
    FILE *o = fopen(path, "w");
    if (!o) {
        fprintf(stderr, "wip15: frames: cannot create %s: %m\n", path);
        return 1;
    }
    const double W = 1000, H = 720, L = 70, R = 30;
    const double T1 = 60, B1 = 380;  /* top panel: frame time over time */
    const double T2 = 460, B2 = 670; /* bottom panel: histogram */
    const double PW = W - L - R;
    size_t n = st->n;
    double t0 = n ? st->frames[0]->t0 / 1000.0 : 0;
    double tspan = n ? (st->frames[n - 1]->t0 / 1000.0 - t0) / 1000.0 : 1; /* s */
    if (tspan <= 0)
        tspan = 1;
    int gpu = st->gpu_scopes > 0; /* the GPU series, legend and histogram */
    /* y range: up to the max (of both series) */
    double ymax = st->max_ms > 0 ? st->max_ms * 1.05 : 1;
    if (gpu && st->gpu_n && st->gpu_max_ms * 1.05 > ymax)
        ymax = st->gpu_max_ms * 1.05;
    double ystep = nice_step(ymax, 6);
    ymax = ceil(ymax / ystep) * ystep;
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    svg_text(o, W / 2, 24, "middle", 16, "Frame times: %zu frames, zone %s", n, zone_name(tl, st->zone));
    svg_text(o, W / 2, 44, "middle", 12, "mean %.2f ms (%.1f fps)   median %.2f ms   p99 %.2f ms   max %.2f ms   1%% low %.1f fps",
             st->mean_ms, st->fps, st->median_ms, st->p99_ms, st->max_ms, st->low1_fps);
    /* top panel axes and grid */
    fprintf(o, "<g stroke=\"#ddd\" stroke-width=\"1\">\n");
    for (double y = 0; y <= ymax + 1e-9; y += ystep) {
        double py = B1 - (y / ymax) * (B1 - T1);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", L, py, L + PW, py);
    }
    fprintf(o, "</g>\n");
    for (double y = 0; y <= ymax + 1e-9; y += ystep) {
        double py = B1 - (y / ymax) * (B1 - T1);
        svg_text(o, L - 6, py + 4, "end", 11, "%g", y);
    }
    double xstep = nice_step(tspan, 8);
    for (double x = 0; x <= tspan + 1e-9; x += xstep) {
        double px = L + x / tspan * PW;
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", px, B1, px, B1 + 5);
        svg_text(o, px, B1 + 18, "middle", 11, "%g", x);
    }
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", L, B1, L + PW, B1);
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", L, T1, L, B1);
    svg_text(o, L + PW / 2, B1 + 36, "middle", 12, "time since the first frame (s)");
    fprintf(o, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %.1f)\">frame time (ms)</text>\n",
            (T1 + B1) / 2, (T1 + B1) / 2);
    /* the series: one point per frame, or a min/max envelope per pixel */
    if (n) {
        int cols = (int)PW;
        draw_series(o, st, 0, cols, L, PW, T1, B1, t0, tspan, ymax);
        if (gpu)
            draw_series(o, st, 1, cols, L, PW, T1, B1, t0, tspan, ymax);
        double pm = B1 - st->median_ms / ymax * (B1 - T1), p99 = B1 - st->p99_ms / ymax * (B1 - T1);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2ca02c\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
                L, pm, L + PW, pm);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
                L, p99, L + PW, p99);
        /* labels on a white halo, clear of each other */
        double lm = pm + 14, lp = p99 - 5;
        if (lm - lp < 14)
            lm = lp + 14;
        fprintf(o, "<g fill=\"#2ca02c\" stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\" font-weight=\"bold\">");
        svg_text(o, L + 8, lm, "start", 12, "median %.2f ms", st->median_ms);
        fprintf(o, "</g><g fill=\"#d62728\" stroke=\"white\" stroke-width=\"4\" paint-order=\"stroke\" font-weight=\"bold\">");
        svg_text(o, L + 8, lp, "start", 12, "p99 %.2f ms", st->p99_ms);
        fprintf(o, "</g>\n");
        if (gpu) {
            /* legend, top right */
            double lx = L + PW - 448, ly = T1 + 8;
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"440\" height=\"42\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#999\"/>\n",
                    lx, ly);
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f77b4\" stroke-width=\"2\"/>\n", lx + 8,
                    ly + 13, lx + 30, ly + 13);
            svg_text(o, lx + 36, ly + 17, "start", 12, "frame time (CPU, swap to swap)");
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" GPU_COLOUR "\" stroke-width=\"2\"/>\n",
                    lx + 8, ly + 31, lx + 30, ly + 31);
            if (st->gpu_n)
                svg_text(o, lx + 36, ly + 35, "start", 12, "GPU time: median %.2f ms, p99 %.2f ms; %zu of %zu frames",
                         st->gpu_median_ms, st->gpu_p99_ms, st->gpu_n, n);
            else
                svg_text(o, lx + 36, ly + 35, "start", 12, "GPU time: none of these frames");
        }
    }
    /* histogram */
    int nb = 100;
    double hmax = ymax, bw = hmax / nb;
    size_t *bins = calloc(nb, sizeof *bins), bmax = 1;
    size_t *gbins = gpu ? calloc(nb, sizeof *gbins) : NULL;
    if (gbins)
        for (size_t i = 0; i < n; i++) {
            double d = series_ms(st->frames[i], 1);
            if (d < 0)
                continue;
            int b = (int)(d / bw);
            if (b >= nb)
                b = nb - 1;
            if (++gbins[b] > bmax)
                bmax = gbins[b];
        }
    if (bins) {
        for (size_t i = 0; i < n; i++) {
            double d = (st->frames[i]->t1 - st->frames[i]->t0) / 1000.0;
            int b = (int)(d / bw);
            if (b >= nb)
                b = nb - 1;
            if (b < 0)
                b = 0;
            if (++bins[b] > bmax)
                bmax = bins[b];
        }
        double cstep = nice_step((double)bmax, 4);
        double cmax = ceil((double)bmax / cstep) * cstep;
        for (double c = 0; c <= cmax + 1e-9; c += cstep) {
            double py = B2 - c / cmax * (B2 - T2);
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, py, L + PW, py);
            svg_text(o, L - 6, py + 4, "end", 11, "%g", c);
        }
        for (int b = 0; b < nb; b++) {
            if (!bins[b])
                continue;
            double x = L + b * PW / nb, h = bins[b] / cmax * (B2 - T2);
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#1f77b4\" fill-opacity=\"0.8\"/>\n", x + 0.5,
                    B2 - h, PW / nb - 1, h);
        }
        for (int b = 0; gbins && b < nb; b++) {
            if (!gbins[b])
                continue;
            double x = L + b * PW / nb, h = gbins[b] / cmax * (B2 - T2);
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"" GPU_COLOUR "\" fill-opacity=\"0.6\"/>\n",
                    x + 0.5, B2 - h, PW / nb - 1, h);
        }
        for (double x = 0; x <= hmax + 1e-9; x += ystep) {
            double px = L + x / hmax * PW;
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", px, B2, px, B2 + 5);
            svg_text(o, px, B2 + 18, "middle", 11, "%g", x);
        }
        double pm = L + st->median_ms / hmax * PW, p99 = L + st->p99_ms / hmax * PW;
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#2ca02c\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
                pm, T2, pm, B2);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
                p99, T2, p99, B2);
        free(bins);
    }
    free(gbins);
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", L, B2, L + PW, B2);
    fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", L, T2, L, B2);
    if (gpu)
        svg_text(o, L + PW / 2, T2 - 12, "middle", 13, "Histogram of frame times (blue) and GPU times (orange)");
    else
        svg_text(o, L + PW / 2, T2 - 12, "middle", 13, "Histogram of frame times");
    svg_text(o, L + PW / 2, B2 + 36, "middle", 12, gpu ? "frame time and GPU time (ms)" : "frame time (ms)");
    fprintf(o, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 %.1f)\">frames</text>\n",
            (T2 + B2) / 2, (T2 + B2) / 2);
    fprintf(o, "</svg>\n");
    if (fclose(o) != 0) {
        fprintf(stderr, "wip15: frames: write error on %s\n", path);
        return 1;
    }
    return 0;
}

/* ----------------------------------------------------------------- main -- */

int cmd_frames(int argc, char **argv)
{
    static const struct option opts[] = {
        {"csv", no_argument, 0, 'c'},  {"json", no_argument, 0, 'j'},       {"svg", required_argument, 0, 's'},
        {"top", required_argument, 0, 't'}, {"worst", required_argument, 0, 'w'}, {"zone", required_argument, 0, 'z'},
        {"skip", required_argument, 0, 'k'}, {"single", no_argument, 0, '1'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int csv = 0, json = 0, single = 0, c;
    long top = 20, nworst = 10, skip = 0;
    const char *svg = NULL, *zname = NULL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'c':
            csv = 1;
            break;
        case 'j':
            json = 1;
            break;
        case 's':
            svg = optarg;
            break;
        case 't':
        case 'w':
        case 'k': {
            long *v = c == 't' ? &top : c == 'w' ? &nworst : &skip;
            *v = strtol(optarg, &end, 10);
            if (!*optarg || *end || *v < 0) {
                fprintf(stderr, "wip15: frames: --%s needs a number >= 0\n",
                        c == 't' ? "top" : c == 'w' ? "worst" : "skip");
                return 2;
            }
            break;
        }
        case 'z':
            zname = optarg;
            break;
        case '1':
            single = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1 || (csv && json)) {
        usage(stderr);
        return 2;
    }
    const char *path = argv[optind];
    w15_wtf_capture_t cap;
    w15_timeline_t tl;
    if (w15_tool_load_capture("frames", path, single, &cap, &tl))
        return 1;
    char files[256];
    w15_wtf_capture_describe(&cap, files, sizeof files);
    w15_frame_stats_t st;
    uint32_t zone = 0;
    if (zname) {
        for (uint32_t i = 0; i < tl.nzones; i++)
            if (tl.zone_name[i] && strcmp(tl.zone_name[i], zname) == 0)
                zone = i + 1;
        if (!zone) {
            fprintf(stderr, "wip15: frames: %s has no zone named \"%s\"\n", path, zname);
            w15_timeline_free(&tl);
            w15_wtf_capture_free(&cap);
            return 1;
        }
    }
    if (w15_frame_stats_skip(&tl, zone, (size_t)skip, &st) != 0) {
        fprintf(stderr, "wip15: frames: out of memory\n");
        w15_timeline_free(&tl);
        w15_wtf_capture_free(&cap);
        return 1;
    }
    int rc = 0;
    size_t nfn = top == 0 || (size_t)top > st.nfns ? st.nfns : (size_t)top;
    size_t nw = (size_t)nworst > st.n ? st.n : (size_t)nworst;
    int gpu = st.gpu_scopes > 0; /* GPU time columns and fields */
    char gz[300];
    snprintf(gz, sizeof gz, "%s", st.gpu_zone ? zone_name(&tl, st.gpu_zone) : "");
    if (csv) {
        printf("frame,start_ms,duration_ms,calls%s\n", gpu ? ",gpu_ms" : "");
        for (size_t i = 0; i < st.n; i++) {
            const w15_frame_t *fr = st.frames[i];
            printf("%u,%" PRIu64 ".%03u,%" PRIu64 ".%03u,%u", fr->number, fr->t0 / 1000, (unsigned)(fr->t0 % 1000),
                   (fr->t1 - fr->t0) / 1000, (unsigned)((fr->t1 - fr->t0) % 1000), fr->ncalls);
            if (gpu && fr->gpu_us >= 0)
                printf(",%" PRId64 ".%03u", fr->gpu_us / 1000, (unsigned)(fr->gpu_us % 1000));
            else if (gpu)
                printf(",");
            printf("\n");
        }
    } else if (json) {
        printf("{\"file\":");
        jstr(stdout, path);
        printf(",\"generations\":[");
        for (size_t i = 0; i < cap.nfiles; i++)
            printf("%s%u", i ? "," : "", cap.gen[i]);
        printf("],\"zone\":");
        jstr(stdout, zone_name(&tl, st.zone));
        printf(",\"frames\":%zu,\"fps\":%.10g,\"frame_ms\":{\"mean\":%.10g,\"median\":%.10g,\"p90\":%.10g,\"p95\":%.10g,"
               "\"p99\":%.10g,\"max\":%.10g,\"min\":%.10g},\"low_fps\":{\"1%%\":%.10g,\"0.1%%\":%.10g},\"span_ms\":%.10g,\"calls\":%llu,"
               "\"worst\":[",
               st.n, st.fps, st.mean_ms, st.median_ms, st.p90_ms, st.p95_ms, st.p99_ms, st.max_ms, st.min_ms, st.low1_fps,
               st.low01_fps, st.span_ms, (unsigned long long)st.calls);
        for (size_t i = 0; i < nw; i++) {
            printf("%s{\"frame\":%u,\"ms\":%.10g,\"calls\":%u", i ? "," : "", st.worst[i]->number,
                   (st.worst[i]->t1 - st.worst[i]->t0) / 1000.0, st.worst[i]->ncalls);
            if (st.worst[i]->gpu_us >= 0)
                printf(",\"gpu_ms\":%.10g", (double)st.worst[i]->gpu_us / 1000.0);
            printf("}");
        }
        printf("],\"functions\":[");
        for (size_t i = 0; i < nfn; i++) {
            const w15_fn_stat_t *fs = &st.fns[i];
            printf("%s{\"name\":", i ? "," : "");
            jstr(stdout, fs->name);
            printf(",\"count\":%llu,\"total_ms\":%.10g,\"self_ms\":%.10g,\"mean_us\":%.10g}", (unsigned long long)fs->count,
                   fs->total_us / 1000.0, fs->self_us / 1000.0, (double)fs->total_us / (double)fs->count);
        }
        printf("]");
        if (st.gpu_zone) {
            printf(",\"gpu\":{\"zone\":");
            jstr(stdout, gz);
            printf(",\"scopes\":%zu,\"frames\":%zu", st.gpu_scopes, st.gpu_n);
            if (st.gpu_n)
                printf(",\"gpu_ms\":{\"mean\":%.10g,\"median\":%.10g,\"p90\":%.10g,\"p95\":%.10g,\"p99\":%.10g,\"max\":%.10g,"
                       "\"min\":%.10g}",
                       st.gpu_mean_ms, st.gpu_median_ms, st.gpu_p90_ms, st.gpu_p95_ms, st.gpu_p99_ms, st.gpu_max_ms,
                       st.gpu_min_ms);
            printf(",\"per_frame\":[");
            int first = 1;
            for (size_t i = 0; i < st.n; i++) {
                if (st.frames[i]->gpu_us < 0)
                    continue;
                printf("%s{\"frame\":%u,\"gpu_ms\":%.10g}", first ? "" : ",", st.frames[i]->number,
                       (double)st.frames[i]->gpu_us / 1000.0);
                first = 0;
            }
            printf("]}");
        }
        printf("}\n");
    } else {
        printf("file:        %s\n", path);
        if (cap.nfiles > 1 || cap.unread || cap.named_gen)
            printf("read:        %s%s\n", files,
                   cap.named_gen ? ", read alone: name generation 0 for the whole capture"
                   : cap.unread ? "; later generations beside it not read" : "");
        printf("zone:        %s\n", zone_name(&tl, st.zone));
        printf("frames:      %zu\n", st.n);
        if (st.n) {
            printf("fps:         %.2f (1000 / mean frame time)\n", st.fps);
            printf("frame time:  mean %.3f ms  median %.3f ms  p90 %.3f ms  p95 %.3f ms  p99 %.3f ms  max %.3f ms\n",
                   st.mean_ms, st.median_ms, st.p90_ms, st.p95_ms, st.p99_ms, st.max_ms);
            if (st.gpu_zone && !st.gpu_scopes)
                printf("gpu time:    none (zone \"%s\" has no GPU frame scopes)\n", gz);
            else if (gpu && !st.gpu_n)
                printf("gpu time:    none in these %zu frames (zone \"%s\": %zu GPU frame scopes)\n", st.n, gz, st.gpu_scopes);
            else if (gpu)
                printf("gpu time:    mean %.3f ms  median %.3f ms  p90 %.3f ms  p95 %.3f ms  p99 %.3f ms  max %.3f ms  (%zu of %zu frames)\n",
                       st.gpu_mean_ms, st.gpu_median_ms, st.gpu_p90_ms, st.gpu_p95_ms, st.gpu_p99_ms, st.gpu_max_ms, st.gpu_n,
                       st.n);
            printf("lows:        1%% low %.2f fps  0.1%% low %.2f fps\n", st.low1_fps, st.low01_fps);
            printf("\nworst frames:\n  %10s %12s %8s%s\n", "frame", "ms", "calls", gpu ? "       gpu ms" : "");
            for (size_t i = 0; i < nw; i++) {
                printf("  %10u %12.3f %8u", st.worst[i]->number, (st.worst[i]->t1 - st.worst[i]->t0) / 1000.0,
                       st.worst[i]->ncalls);
                if (gpu && st.worst[i]->gpu_us >= 0)
                    printf(" %12.3f", (double)st.worst[i]->gpu_us / 1000.0);
                else if (gpu)
                    printf(" %12s", "-");
                printf("\n");
            }
        }
        printf("\nGL functions (%llu call scopes; by inclusive total; self = minus nested scopes):\n",
               (unsigned long long)st.calls);
        printf("  %-40s %10s %12s %12s %10s\n", "function", "count", "total ms", "self ms", "mean us");
        for (size_t i = 0; i < nfn; i++) {
            const w15_fn_stat_t *fs = &st.fns[i];
            printf("  %-40s %10llu %12.3f %12.3f %10.3f\n", fs->name, (unsigned long long)fs->count, fs->total_us / 1000.0,
                   fs->self_us / 1000.0, (double)fs->total_us / (double)fs->count);
        }
    }
    if (svg)
        rc = write_svg(svg, &tl, &st);
    w15_frame_stats_free(&st);
    w15_timeline_free(&tl);
    w15_wtf_capture_free(&cap);
    return rc;
}
