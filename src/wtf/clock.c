/* clock.c -- the tracer's clock (see clock.h and docs/PERFORMANCE.md "Timing").
 *
 * On x86-64 with an invariant TSC (CPUID 0x80000007 EDX bit 8, as glibc found
 * it: wip15/cpu.h) the clock is
 * rdtsc scaled to nanoseconds with a 32.32 fixed-point factor calibrated
 * against CLOCK_MONOTONIC at init; elsewhere, or with WIP15_CLOCK=monotonic in
 * the environment, it is clock_gettime(CLOCK_MONOTONIC) (vDSO, no syscall).
 * Either way w15_clock_now() reads in CLOCK_MONOTONIC nanoseconds, so values
 * are comparable with clock_gettime at init time (the TSC path drifts from it
 * by at most the calibration error, a few parts per million).
 */
#define _GNU_SOURCE
#include "clock.h"
#include "wip15/trace_env.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wip15/cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define W15_HAVE_TSC 1
#else
#define W15_HAVE_TSC 0
#endif

/* Written once under pthread_once-like protection (an atomic state). */
static int g_state;            /* 0 none, 1 initialising, 2 ready */
static int g_use_tsc;
static uint64_t g_tsc0;        /* TSC at the origin */
static uint64_t g_mono0;       /* CLOCK_MONOTONIC ns at the same instant */
static double g_wall0_ms;      /* CLOCK_REALTIME ms at g_mono0 */
/* The scale is measured lazily (w15_clock_get_scale): between the origin
 * and the first time a tick value is converted, usually the output thread's
 * first flush or the program's exit, so start-up waits for nothing and the
 * interval is as long as the program has run. */
static int g_scale_state;      /* 0 not measured, 1 measuring, 2 measured */
static uint64_t g_mult;        /* ns per tick, 32.32 fixed point */
/* The shortest interval the scale is measured over: ~40 ns of pairing error
 * over 2 ms is 20 ppm (100 ms, a first flush: 0.4 ppm). */
#define MIN_CALIBRATION_NS 2000000u

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if W15_HAVE_TSC
/* One (tsc, mono) pair whose tsc is the midpoint of the tightest of a few
 * bracketing reads, so the pairing error is a few tens of ns. */
static void pair(uint64_t *tsc, uint64_t *mono)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 8; i++) {
        uint64_t a = __rdtsc();
        uint64_t m = mono_ns();
        uint64_t b = __rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *mono = m;
        }
    }
}
#endif

void w15_clock_init(void)
{
    if (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) == 2)
        return;
    int expect = 0;
    if (!__atomic_compare_exchange_n(&g_state, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        while (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) != 2)
            ; /* another thread takes the origin: a few microseconds */
        return;
    }
    struct timespec rt;
    g_use_tsc = 0;
    g_mono0 = mono_ns();
#if W15_HAVE_TSC
    const char *env = getenv(W15_ENV_CLOCK);
    if (w15_cpu_invariant_tsc() && !(env && strcmp(env, "monotonic") == 0)) {
        pair(&g_tsc0, &g_mono0);
        g_use_tsc = 1;
    }
#endif
    clock_gettime(CLOCK_REALTIME, &rt);
    uint64_t m = mono_ns();
    g_wall0_ms = (double)rt.tv_sec * 1e3 + (double)rt.tv_nsec / 1e6 - (double)(m - g_mono0) / 1e6;
    __atomic_store_n(&g_state, 2, __ATOMIC_RELEASE);
}

#if W15_HAVE_TSC
/* ns per tick (32.32) from the origin to a pair taken at least
 * MIN_CALIBRATION_NS after it. */
static uint64_t measure_mult(void)
{
    uint64_t t1 = 0, m1 = 0;
    do {
        pair(&t1, &m1);
    } while (m1 - g_mono0 < MIN_CALIBRATION_NS);
    uint64_t mult = t1 > g_tsc0 ? (uint64_t)(((unsigned __int128)(m1 - g_mono0) << 32) / (t1 - g_tsc0)) : 0;
    return mult ? mult : (uint64_t)1 << 32; /* a TSC that did not move: ticks as ns */
}
#endif

/* The scale, measured once.  Never waits for another thread (a signal
 * handler may interrupt the thread that measures): while one measures, the
 * others measure for themselves, the same to a few parts per million. */
static uint64_t scale_mult(void)
{
#if W15_HAVE_TSC
    int st = __atomic_load_n(&g_scale_state, __ATOMIC_ACQUIRE);
    if (st == 2)
        return g_mult;
    int expect = 0;
    if (st == 0 && __atomic_compare_exchange_n(&g_scale_state, &expect, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        g_mult = measure_mult();
        __atomic_store_n(&g_scale_state, 2, __ATOMIC_RELEASE);
        return g_mult;
    }
    if (__atomic_load_n(&g_scale_state, __ATOMIC_ACQUIRE) == 2)
        return g_mult;
    return measure_mult();
#else
    return 0;
#endif
}

void w15_clock_get_scale(w15_clock_scale_t *s)
{
    s->tick0 = g_tsc0;
    s->ns0 = g_mono0;
    s->mult = g_use_tsc ? scale_mult() : 0;
}

uint64_t w15_clock_ns(uint64_t ticks)
{
    w15_clock_scale_t s;
    w15_clock_get_scale(&s);
    return w15_clock_scaled(&s, ticks);
}

uint64_t w15_clock_origin_ns(void)
{
    return g_mono0;
}

uint64_t w15_clock_ticks(void)
{
#if W15_HAVE_TSC
    if (__builtin_expect(g_use_tsc, 1))
        return __rdtsc();
#endif
    return mono_ns();
}

uint64_t w15_clock_now(void)
{
    return w15_clock_ns(w15_clock_ticks());
}

int w15_clock_ticks_are_tsc(void)
{
    return g_use_tsc;
}

double w15_clock_wall_ms(uint64_t t_ns)
{
    return g_wall0_ms + ((double)(int64_t)(t_ns - g_mono0)) / 1e6;
}

const char *w15_clock_source(void)
{
    return g_use_tsc ? "tsc" : "clock_gettime(CLOCK_MONOTONIC)";
}
