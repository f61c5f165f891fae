/* clock.h -- the tracer's clock: monotonic nanoseconds, cheap to read.
 * docs/PERFORMANCE.md records how the candidates were measured. */
#ifndef W15_CLOCK_H
#define W15_CLOCK_H
#include <stdint.h>
/* Take the clock's origin once (thread-safe, idempotent; microseconds).
 * Called by w15_wtf_open.  The TSC's scale is measured lazily, by the first
 * conversion of a tick value (w15_clock_ns, w15_clock_get_scale,
 * w15_clock_now), over the time since the origin (at least 2 ms: a
 * conversion sooner than that waits). */
void w15_clock_init(void);
/* The clock's time at its origin (w15_clock_init), in w15_clock_now's
 * nanoseconds, without measuring the scale. */
uint64_t w15_clock_origin_ns(void);
/* Monotonic time in nanoseconds since an arbitrary origin. */
uint64_t w15_clock_now(void);
/* The raw clock: TSC ticks (when w15_clock_ticks_are_tsc(): an inline
 * rdtsc reads the same) or CLOCK_MONOTONIC ns; cheaper than w15_clock_now
 * by the scaling.  w15_clock_ns converts a tick value to w15_clock_now's
 * nanoseconds (pure arithmetic once the scale is measured: async-signal-safe
 * then; the crash path measures it before entering its signal mode). */
uint64_t w15_clock_ticks(void);
uint64_t w15_clock_ns(uint64_t ticks);
int w15_clock_ticks_are_tsc(void);
/* The conversion as parameters, for converting many tick values inline:
 * w15_clock_scaled(&s, ticks) == w15_clock_ns(ticks). */
typedef struct w15_clock_scale {
    uint64_t tick0, ns0, mult; /* mult: ns per tick, 32.32 fixed point; 0: ticks are ns */
} w15_clock_scale_t;
void w15_clock_get_scale(w15_clock_scale_t *s);
static inline uint64_t w15_clock_scaled(const w15_clock_scale_t *s, uint64_t ticks)
{
    if (!s->mult)
        return ticks;
    int64_t d = (int64_t)(ticks - s->tick0);
    if (d < 0)
        d = 0; /* cross-core skew right after init */
    return s->ns0 + (uint64_t)(((unsigned __int128)(uint64_t)d * s->mult) >> 32);
}
/* Wall clock (ms since the Unix epoch, fractional) at clock time t_ns. */
double w15_clock_wall_ms(uint64_t t_ns);
/* Which clock w15_clock_init chose: "tsc" or "clock_gettime(CLOCK_MONOTONIC)"
 * (static string).  WIP15_CLOCK=monotonic in the environment forces the latter. */
const char *w15_clock_source(void);
#endif
