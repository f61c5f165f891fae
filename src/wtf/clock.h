/* clock.h -- the tracer's clock: monotonic nanoseconds, cheap to read.
 * docs/PERFORMANCE.md records how the candidates were measured. */
#ifndef W15_CLOCK_H
#define W15_CLOCK_H
#include <stdint.h>
/* Calibrate once (thread-safe, idempotent).  Called by w15_wtf_open. */
void w15_clock_init(void);
/* Monotonic time in nanoseconds since an arbitrary origin. */
uint64_t w15_clock_now(void);
/* Wall clock (ms since the Unix epoch, fractional) at clock time t_ns. */
double w15_clock_wall_ms(uint64_t t_ns);
/* Which clock w15_clock_init chose: "tsc" or "clock_gettime(CLOCK_MONOTONIC)"
 * (static string).  WIP15_CLOCK=monotonic in the environment forces the latter. */
const char *w15_clock_source(void);
#endif
