/* cpu.h -- CPU features without executing CPUID.
 *
 * In a virtual machine every CPUID instruction exits to the hypervisor
 * (~15 us on the firecracker VMs we measure on), and libgcc's
 * __builtin_cpu_supports brings a constructor (__cpu_indicator_init) that
 * runs a dozen of them in every process that loads the code, used or not.
 * glibc >= 2.33 has already asked the CPU at start-up; <sys/platform/x86.h>
 * reads what it found.  "Active" (the OS enabled it) is the test for
 * instruction sets such as AVX2; an invariant TSC is a property of the
 * CPU that glibc reports as present and never marks active (glibc 2.36:
 * present 1, active 0 on an invariant-TSC Xeon), so it is asked as
 * present.  Without that header: CPUID, asked once. */
#ifndef WIP15_CPU_H
#define WIP15_CPU_H

#if defined(__x86_64__) || defined(__i386__)
#if defined(__has_include) && __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
static inline int w15_cpu_avx2(void) { return CPU_FEATURE_ACTIVE(AVX2) ? 1 : 0; }
static inline int w15_cpu_invariant_tsc(void) { return CPU_FEATURE_PRESENT(INVARIANT_TSC) ? 1 : 0; }
#else
#include <cpuid.h>
static inline int w15_cpu_avx2(void) { return __builtin_cpu_supports("avx2") ? 1 : 0; }
static inline int w15_cpu_invariant_tsc(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}
#endif
#else
static inline int w15_cpu_avx2(void) { return 0; }
static inline int w15_cpu_invariant_tsc(void) { return 0; }
#endif

#endif
