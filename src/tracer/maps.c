/* maps.c -- mapped buffers (maps.h). */
#include "maps.h"

void w15_maps_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    (void)t;
    (void)id;
    (void)flags;
    (void)args;
    (void)rec;
}

void w15_maps_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                   const w15_slot_t *ret, int rec)
{
    (void)t;
    (void)id;
    (void)flags;
    (void)args;
    (void)ret;
    (void)rec;
}

int w15_maps_fault(const siginfo_t *si)
{
    (void)si;
    return 0;
}
