/* arrays.h -- client-side vertex arrays.  Owns what a draw reads from the
 * program's memory through vertex arrays that have no buffer (generic
 * attributes and every legacy array): which arrays are enabled and where they
 * point (asked of GL with the real glGet*, only where the context has them),
 * the vertex range a draw covers (first/count, the index range of the
 * indices, instancing and divisors), and the pseudo-calls wip15ClientMemory
 * and wip15ClientArray written before the draw (docs/FORMAT.md).  Its
 * per-context state hangs from w15_ctx_t.arrays: which arrays were ever
 * given a client pointer (learnt from the pointer setters, flag
 * VERTEX_STATE), so a context that never set one costs nothing at draws.
 * May use guard, pseudo, context, resolve, thread, config, fhash and log.  Must
 * never use record, capture, maps or surfaces: capture calls in here. */
#ifndef W15_ARRAYS_H
#define W15_ARRAYS_H

#include <stdint.h>

#include "apitable.h"
#include "thread.h"

/* Before a VERTEX_DRAW or VERTEX_STATE call (capture.h's rules for
 * w15_capture_pre): a draw's client arrays are recorded here; glBegin's
 * array state is read here, before GL enters Begin/End. */
void w15_arrays_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec);
/* After a VERTEX_STATE or CONTEXT_DESTROY call (capture.h's rules for
 * w15_capture_post): pointer setters mark the context's client arrays; a
 * destroyed context's state is freed. */
void w15_arrays_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                     const w15_slot_t *ret, int rec);

#endif
