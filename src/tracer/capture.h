/* capture.h -- what a call needs recorded besides its arguments (issue 8,
 * docs/FORMAT.md "Captured memory and surfaces").  Owns the dispatch of the
 * capture around the calls whose function flags ask for it (VERTEX_DRAW,
 * MAP, UNMAP, FLUSH_MAPPED, CONSUMES, SYNC_POINT, CONTEXT_CREATE,
 * CONTEXT_DESTROY, FRAME_END, MAKE_CURRENT, and CLEAR and DRAW for the
 * surfaces' per-frame size check: W15_FN_CAPTURE), and the
 * process-wide order of synchronising calls (the extra wip15.gseq).  The
 * work itself belongs to arrays (client-side vertex arrays), maps (mapped
 * buffers) and surfaces (contexts' configurations, drawable sizes, frame
 * digests).  May use arrays, maps, surfaces, context, thread, state,
 * config and log.  Must never use record, queue, output, timing or crash:
 * the recorder calls in here, at the points its comments name. */
#ifndef W15_CAPTURE_H
#define W15_CAPTURE_H

#include <stdint.h>

#include "apitable.h"
#include "thread.h"

/* Function flags that make the recorder call the hooks below. */
#define W15_FN_CAPTURE (W15_FN_VERTEX_DRAW | W15_FN_MAP | W15_FN_UNMAP | W15_FN_FLUSH_MAPPED | \
                        W15_FN_CONSUMES | W15_FN_SYNC_POINT | W15_FN_CONTEXT_CREATE |            \
                        W15_FN_CONTEXT_DESTROY | W15_FN_FRAME_END | W15_FN_MAKE_CURRENT |        \
                        W15_FN_VERTEX_STATE | W15_FN_CLEAR | W15_FN_DRAW | W15_FN_UPLOAD |      \
                        W15_FN_READBACK | W15_FN_BUFFER_BIND | W15_FN_EGL_ERROR)
/* Calls that read or write objects contexts may share: ordered across
 * threads (wip15.gseq) once two contexts exist. */
#define W15_FN_SHARED_ACCESS (W15_FN_VERTEX_DRAW | W15_FN_DRAW | W15_FN_CLEAR | W15_FN_UPLOAD | \
                              W15_FN_READBACK | W15_FN_CONSUMES | W15_FN_MAP | W15_FN_UNMAP |   \
                              W15_FN_FLUSH_MAPPED)

/* Before the real call of function `id`, inside the wrapper (t->in_call
 * set), and before the call's own opcode is written: pseudo-calls written
 * here precede the call in t's chunk.  `rec`: the call is being recorded
 * (else only keep track: mappings, contexts).  Never changes what the
 * program sees; keeps errno. */
void w15_capture_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec);
/* After the real call, before the recorder writes the call's extras: add
 * this call's capture extras to t (wip15.gseq).  Only for recorded calls. */
void w15_capture_extras(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                        const w15_slot_t *ret);
/* After the real call, once the call is committed (or was not recorded:
 * `rec` 0): pseudo-calls written here follow the call. */
void w15_capture_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                      const w15_slot_t *ret, int rec);

#endif
