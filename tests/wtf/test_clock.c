/* test_clock.c -- the timing clock uses the TSC exactly when the CPU says
 * it is invariant (CPUID 0x80000007, EDX bit 8, asked here directly) and
 * WIP15_CLOCK does not ask for the monotonic clock; src/wtf/clock.c takes
 * that answer from glibc (wip15/cpu.h), which once read the wrong bit of
 * it and ran every timed call on clock_gettime. */
#include "clock.h"
#include "wip15/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static int cpuid_invariant_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
#else
    return 0;
#endif
}

int main(void)
{
    const char *env = getenv("WIP15_CLOCK");
    int want_tsc = cpuid_invariant_tsc() && !(env && !strcmp(env, "monotonic"));
    if (w15_cpu_invariant_tsc() != cpuid_invariant_tsc()) {
        fprintf(stderr, "test_clock: w15_cpu_invariant_tsc() = %d, CPUID says %d\n", w15_cpu_invariant_tsc(),
                cpuid_invariant_tsc());
        return 1;
    }
    w15_clock_init();
    if (w15_clock_ticks_are_tsc() != want_tsc) {
        fprintf(stderr, "test_clock: clock source %s, expected %s\n", w15_clock_source(),
                want_tsc ? "the TSC" : "the monotonic clock");
        return 1;
    }
    uint64_t a = w15_clock_now(), b = w15_clock_now();
    if (b < a) {
        fprintf(stderr, "test_clock: the clock went back (%llu then %llu)\n", (unsigned long long)a,
                (unsigned long long)b);
        return 1;
    }
    printf("test_clock: %s\n", w15_clock_source());
    return 0;
}
