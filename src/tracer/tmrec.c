/* tmrec.c -- the raw clock of the timing records (tmrec.h). */
#include "tmrec.h"

#include "clock.h"

int w15_ticks_tsc;

uint64_t w15_ticks_slow(void)
{
    return w15_clock_ticks();
}

void w15_ticks_init(void)
{
    w15_ticks_tsc = w15_clock_ticks_are_tsc();
}
