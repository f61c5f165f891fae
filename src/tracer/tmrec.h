/* tmrec.h -- timing records and the clock that stamps them: the part of
 * the timing module (timing.c) that a GL thread runs inline.  Owns the
 * record layout (w15_tmrec_t, docs/INTERNALS.md "Timing records"), the
 * per-chunk capacity, and the raw clock (rdtsc when the clock is the TSC,
 * else CLOCK_MONOTONIC through src/wtf/clock.h).  May use src/wtf/clock.h.
 * Must never use another module of src/tracer: thread, queue and record
 * carry these records without knowing what timing makes of them. */
#ifndef W15_TMREC_H
#define W15_TMREC_H

#include <stdint.h>

#include "attrs.h"

/* A timing record.  At every WIP15_TIMING level but off, a thread appends
 * what its timing zone needs to an array that travels with its chunk; the
 * output thread converts the records into WTF events (timing.c
 * w15_timing_feed).  Times are raw clock ticks (w15_ticks).  A name (debug
 * group, marker) follows its record in the next ceil(arg / 24) records'
 * bytes. */
typedef struct w15_tmrec {
    uint32_t kind;   /* a function index: that call's scope; or W15_TM_* */
    uint32_t arg;    /* call: its sequence number; frame: number; name: bytes */
    uint64_t t0, t1; /* call: enter and leave; the others: t0 */
} w15_tmrec_t;
#define W15_TM_FRAME_START 0xFFFFFF00u /* frame arg starts (a thread's frame 0) */
#define W15_TM_FRAME 0xFFFFFF01u       /* frame arg ends, arg + 1 starts */
#define W15_TM_GROUP_PUSH 0xFFFFFF02u  /* a named scope opens (name follows) */
#define W15_TM_GROUP_POP 0xFFFFFF03u   /* the innermost named scope closes */
#define W15_TM_MARKER 0xFFFFFF04u      /* a time stamp (name follows) */
#define W15_TM_GPU_FRAME 0xFFFFFF05u   /* frame arg's GPU time: t0..t1 in clock ns */
/* Records per chunk, and the count at which the chunk is handed over (the
 * rest is room for one general-path call: a 1 KiB name and 3 records). */
#define W15_TM_CAP 8192u
#define W15_TM_SUBMIT (W15_TM_CAP - 64u)

/* The raw clock: rdtsc when the clock is the TSC, else CLOCK_MONOTONIC ns
 * (src/wtf/clock.h w15_clock_ticks).  w15_ticks_init decides (timing.c
 * calls it when timing starts). */
extern int w15_ticks_tsc W15_HIDDEN;
uint64_t w15_ticks_slow(void) W15_HIDDEN;
void w15_ticks_init(void);
#if defined(__x86_64__) || defined(__i386__)
#define W15_FAST_TICKS 1
#else
#define W15_FAST_TICKS 0
#endif
W15_INLINE uint64_t w15_ticks(void)
{
#if W15_FAST_TICKS
    if (W15_LIKELY(w15_ticks_tsc))
        return __builtin_ia32_rdtsc();
#endif
    return w15_ticks_slow();
}
/* The fast path's clock: a fast-path call is timed only when the clock is
 * the TSC (record.c fast_timing), so this is a bare rdtsc. */
W15_INLINE uint64_t w15_fast_ticks(void)
{
#if W15_FAST_TICKS
    return __builtin_ia32_rdtsc();
#else
    return 0; /* not reached: no timed fast path */
#endif
}

#endif
