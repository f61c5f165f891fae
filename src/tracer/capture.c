/* capture.c -- the dispatch of the capture around calls (capture.h).
 *
 * The order of synchronising calls: every call flagged SYNC_POINT takes the
 * next number of one process-wide counter right after its real call
 * returned, so a call that could only start once another had returned
 * (a wait after a fence, a MakeCurrent of a context another thread released)
 * always has the larger number; the replayer runs those calls in that order
 * (docs/REPLAY.md).  Once two contexts exist at the same time, calls that
 * read or write objects a context may share with another (draws, clears,
 * uploads, read-backs, maps: W15_FN_SHARED_ACCESS) take a number too, so an
 * upload another thread made after a draw (ordered only by the program's
 * own locks) replays after it; a program with one context pays nothing. */
#include "capture.h"
#include "arrays.h"
#include "context.h"
#include "maps.h"
#include "surfaces.h"

#include <errno.h>
#include <stdatomic.h>

static _Atomic uint64_t gseq_next;

void w15_capture_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    int e = errno;
    if (flags & (W15_FN_MAP | W15_FN_UNMAP | W15_FN_FLUSH_MAPPED | W15_FN_CONSUMES | W15_FN_CONTEXT_DESTROY))
        w15_maps_pre(t, id, flags, args, rec);
    if (flags & (W15_FN_VERTEX_DRAW | W15_FN_VERTEX_STATE))
        w15_arrays_pre(t, id, flags, args, rec);
    if (flags & (W15_FN_FRAME_END | W15_FN_MAKE_CURRENT | W15_FN_CONTEXT_CREATE | W15_FN_CONTEXT_DESTROY |
                 W15_FN_VERTEX_DRAW | W15_FN_CONSUMES | W15_FN_CLEAR | W15_FN_DRAW))
        w15_surfaces_pre(t, id, flags, args, rec);
    errno = e;
}

void w15_capture_extras(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                        const w15_slot_t *ret)
{
    (void)id;
    (void)args;
    (void)ret;
    if (flags & (W15_FN_FRAME_END | W15_FN_VERTEX_DRAW | W15_FN_CONSUMES | W15_FN_CLEAR | W15_FN_DRAW))
        w15_surfaces_extras(t);
    if ((flags & W15_FN_SYNC_POINT) || ((flags & W15_FN_SHARED_ACCESS) && w15_ctx_several())) {
        t->gseq = atomic_fetch_add_explicit(&gseq_next, 1, memory_order_acq_rel);
        t->has_gseq = 1;
    }
}

void w15_capture_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                      const w15_slot_t *ret, int rec)
{
    int e = errno;
    if (flags & (W15_FN_MAP | W15_FN_UNMAP | W15_FN_CONTEXT_DESTROY | W15_FN_BUFFER_BIND))
        w15_maps_post(t, id, flags, args, ret, rec);
    if (flags & (W15_FN_VERTEX_STATE | W15_FN_CONTEXT_DESTROY))
        w15_arrays_post(t, id, flags, args, ret, rec);
    if (flags & (W15_FN_MAKE_CURRENT | W15_FN_CONTEXT_CREATE | W15_FN_CONTEXT_DESTROY | W15_FN_FRAME_END |
                 W15_FN_EGL_ERROR))
        w15_surfaces_post(t, id, flags, args, ret, rec); /* last: it forgets destroyed contexts */
    errno = e;
}
