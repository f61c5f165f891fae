/* surfaces.c -- contexts' configurations, drawable sizes, frame digests
 * (surfaces.h). */
#include "surfaces.h"

void w15_surfaces_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    (void)t;
    (void)id;
    (void)flags;
    (void)args;
    (void)rec;
}

void w15_surfaces_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                       const w15_slot_t *ret, int rec)
{
    (void)t;
    (void)id;
    (void)flags;
    (void)args;
    (void)ret;
    (void)rec;
}
