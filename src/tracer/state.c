/* state.c -- the process-wide state (state.h). */
#include "state.h"
#include "config.h"
#include "log.h"

_Atomic int w15_recording;
_Atomic int w15_state;
_Atomic uint32_t w15_flush_epoch;
_Atomic uint64_t w15_frame;

#include <string.h>

static char fail_why[256];
static _Atomic int failed;

static void stop(const char *why, int failure)
{
    atomic_store(&w15_recording, 0);
    int old = atomic_exchange(&w15_state, W15_ST_OFF);
    if (old != W15_ST_OFF && why) {
        w15_msg("%s", why);
        if (failure) {
            size_t n = strlen(why);
            const char *tail = "; recording stopped";
            size_t tl = strlen(tail);
            if (n >= tl && strcmp(why + n - tl, tail) == 0)
                n -= tl;
            if (n >= sizeof fail_why)
                n = sizeof fail_why - 1;
            memcpy(fail_why, why, n);
            fail_why[n] = 0;
            atomic_store(&failed, 1);
        }
    }
}

void w15_fail(const char *why)
{
    stop(why, 1);
}

void w15_stop(const char *why)
{
    stop(why, 0);
}

const char *w15_fail_reason(void)
{
    return atomic_load(&failed) ? fail_why : NULL;
}

void w15_frame_ended(void)
{
    uint64_t fr = atomic_fetch_add_explicit(&w15_frame, 1, memory_order_relaxed) + 1;
    if (w15_cfg.frame_first == 0 && w15_cfg.frame_last < 0)
        return;
    if (atomic_load_explicit(&w15_state, memory_order_relaxed) != W15_ST_ON)
        return;
    if ((int64_t)fr == w15_cfg.frame_first)
        atomic_store_explicit(&w15_recording, 1, memory_order_relaxed);
    if (w15_cfg.frame_last >= 0 && (int64_t)fr == w15_cfg.frame_last + 1) {
        atomic_store_explicit(&w15_recording, 0, memory_order_relaxed);
        w15_info("recorded frames %lld-%lld; recording stopped", (long long)w15_cfg.frame_first,
                 (long long)w15_cfg.frame_last);
    }
}
