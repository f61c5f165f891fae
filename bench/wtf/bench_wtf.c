/* bench_wtf.c -- timing costs behind docs/PERFORMANCE.md "Timing":
 *   1. ns per read of each clock candidate (vDSO clock_gettime MONOTONIC,
 *      MONOTONIC_COARSE, rdtsc, rdtscp, and w15_clock_now as chosen);
 *   2. ns per GL call scope in the emitter (enter + leave, times given),
 *      and with the two clock reads the tracer makes per call;
 *   3. ns per frame marker pair.
 *
 *   bench_wtf [DIR]   (DIR for the scratch .wtf-trace; default /tmp)
 * Prints one line per measurement; best of 5 runs. */
#define _GNU_SOURCE
#include "clock.h"
#include "wtf_emitter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile uint64_t sink;

#define N_READS 20000000

static double bench_clock(int which)
{
    double best = 1e9;
    for (int r = 0; r < 5; r++) {
        uint64_t acc = 0;
        double t0 = now_s();
        for (int i = 0; i < N_READS; i++) {
            struct timespec ts;
            switch (which) {
            case 0:
                clock_gettime(CLOCK_MONOTONIC, &ts);
                acc += (uint64_t)ts.tv_nsec;
                break;
            case 1:
                clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
                acc += (uint64_t)ts.tv_nsec;
                break;
#if defined(__x86_64__)
            case 2:
                acc += __rdtsc();
                break;
            case 3: {
                unsigned aux;
                acc += __rdtscp(&aux);
                break;
            }
#endif
            default:
                acc += w15_clock_now();
            }
        }
        double ns = (now_s() - t0) * 1e9 / N_READS;
        sink += acc;
        if (ns < best)
            best = ns;
    }
    return best;
}

static double coarse_resolution_ms(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC_COARSE, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define N_CALLS 5000000

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp";
    w15_clock_init();
    printf("clock source chosen: %s\n", w15_clock_source());
    printf("clock_gettime(CLOCK_MONOTONIC)        %6.2f ns/read\n", bench_clock(0));
    printf("clock_gettime(CLOCK_MONOTONIC_COARSE) %6.2f ns/read (resolution %.3f ms)\n", bench_clock(1), coarse_resolution_ms());
#if defined(__x86_64__)
    printf("rdtsc                                 %6.2f ns/read\n", bench_clock(2));
    printf("rdtscp                                %6.2f ns/read\n", bench_clock(3));
#endif
    printf("w15_clock_now                         %6.2f ns/read\n", bench_clock(4));

    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/bench_wtf.%d.wtf-trace", dir, (int)getpid());
    w15_wtf_info_t info = {"bench_wtf", NULL, "bench", ""};
    w15_wtf_t *w = w15_wtf_open(path, &info, err, sizeof err);
    if (!w) {
        fprintf(stderr, "bench_wtf: %s\n", err);
        return 1;
    }
    w15_wtf_zone_t *z = w15_wtf_zone_create(w, "1:bench", "script");
    uint16_t ev = w15_wtf_call_event(w, 7, "glUniform4f");
    double best = 1e9, best_clk = 1e9, best_frame = 1e9, best_append = 1e9;
    /* appends only: 10000 calls fit one zone buffer; flushes not timed */
    for (int r = 0; r < 5; r++) {
        double total = 0;
        uint64_t t = w15_clock_now();
        for (int rep = 0; rep < 200; rep++) {
            w15_wtf_zone_flush(z);
            double t0 = now_s();
            for (uint32_t i = 0; i < 10000; i++) {
                w15_wtf_scope_enter(z, ev, t, i);
                w15_wtf_scope_leave(z, t + 100);
                t += 200;
            }
            total += now_s() - t0;
        }
        double ns = total * 1e9 / (200.0 * 10000);
        if (ns < best_append)
            best_append = ns;
    }
    for (int r = 0; r < 5; r++) {
        uint64_t t = w15_clock_now();
        double t0 = now_s();
        for (uint32_t i = 0; i < N_CALLS; i++) {
            w15_wtf_scope_enter(z, ev, t, i);
            w15_wtf_scope_leave(z, t + 100);
            t += 200;
        }
        double ns = (now_s() - t0) * 1e9 / N_CALLS;
        if (ns < best)
            best = ns;
        t0 = now_s();
        for (uint32_t i = 0; i < N_CALLS; i++) {
            w15_wtf_scope_enter(z, ev, w15_clock_now(), i);
            w15_wtf_scope_leave(z, w15_clock_now());
        }
        ns = (now_s() - t0) * 1e9 / N_CALLS;
        if (ns < best_clk)
            best_clk = ns;
        t = w15_clock_now();
        t0 = now_s();
        for (uint32_t i = 1; i <= N_CALLS / 10; i++) {
            w15_wtf_frame_end(z, i, t);
            w15_wtf_frame_start(z, i + 1, t);
            t += 1000;
        }
        ns = (now_s() - t0) * 1e9 / (N_CALLS / 10);
        if (ns < best_frame)
            best_frame = ns;
    }
    w15_wtf_close(w);
    FILE *fp = fopen(path, "rb");
    long size = 0;
    if (fp) {
        fseek(fp, 0, SEEK_END);
        size = ftell(fp);
        fclose(fp);
    }
    unlink(path);
    printf("emitter: call scope enter+leave        %6.2f ns/call (times given; appends only)\n", best_append);
    printf("emitter: call scope enter+leave        %6.2f ns/call (times given; includes chunk writes)\n", best);
    printf("emitter: same with 2 w15_clock_now     %6.2f ns/call\n", best_clk);
    printf("emitter: frame end+start               %6.2f ns/frame\n", best_frame);
    printf("emitter: file size                     %.1f bytes/call scope\n",
           (double)size / (5.0 * 2 * N_CALLS + 5.0 * N_CALLS / 10 * 12 / 20 + 5.0 * 200 * 10000));
    return 0;
}
