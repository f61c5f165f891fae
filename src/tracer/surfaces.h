/* surfaces.h -- what a replay needs to recreate the program's surfaces.
 * Owns, per context, the framebuffer configuration it was created with
 * (asked of GLX/EGL from its config or visual, never of GL state) and its
 * share group; per drawable, its size when first made current and whenever
 * it changes; and the optional frame digests (the back buffer read just
 * before each swap, every state it touches restored).  Writes the
 * pseudo-calls wip15ContextConfig, wip15DrawableSize and wip15FrameDigest
 * (docs/FORMAT.md).  Its per-context state hangs from w15_ctx_t.surfaces.
 * May use pseudo, context, resolve, thread, state, config, fhash, present
 * and log.  Must
 * never use record, capture, arrays or maps. */
#ifndef W15_SURFACES_H
#define W15_SURFACES_H

#include <stdint.h>

#include "apitable.h"
#include "thread.h"

/* Before a FRAME_END, MAKE_CURRENT, CONTEXT_CREATE or CONTEXT_DESTROY call. */
void w15_surfaces_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec);
/* At a recorded FRAME_END, VERTEX_DRAW, CONSUMES, CLEAR or DRAW call,
 * after the real call and before the call is committed
 * (w15_capture_extras): what was learnt while it ran, written in front of
 * it: the frame digest taken from the image the driver showed during the
 * swap, the drawable's size the driver asked for in a frame's first
 * drawing call (present.h). */
void w15_surfaces_extras(w15_thread_t *t);
/* At the end (informational): how many frame digests were written, and
 * how many of them were taken from the images shown. */
void w15_surfaces_report(void);
/* After one (t->ctx is already the new current context after a
 * MakeCurrent). */
void w15_surfaces_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                       const w15_slot_t *ret, int rec);

#endif
