/* arrays.c -- client-side vertex arrays (arrays.h). */
#include "arrays.h"

void w15_arrays_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    (void)t;
    (void)id;
    (void)flags;
    (void)args;
    (void)rec;
}
