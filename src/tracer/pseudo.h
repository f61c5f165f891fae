/* pseudo.h -- the pseudo-calls a thread writes into its own buffer.  Owns
 * the encoding of the tracer's own calls among the program's (docs/FORMAT.md:
 * wip15ThreadSwitch at the start of every chunk, and the capture's
 * wip15ClientMemory(Same), wip15ClientArray, wip15BufferWrite, wip15FrameDigest,
 * wip15ContextConfig, wip15DrawableSize): the opcode and index, no extras,
 * the commit; pseudo-calls are not counted in a thread's seq.  Their
 * declarations are queued at start (decl.c), so nothing is declared here.
 * May use thread, state and log.  Must never use record, capture or the
 * capture's modules: they write pseudo-calls through this one. */
#ifndef W15_PSEUDO_H
#define W15_PSEUDO_H

#include <stddef.h>
#include <stdint.h>

#include "thread.h"

/* Write wip15ThreadSwitch at the start of t->buf, which is empty, and
 * commit it.  0, or -1 when out of memory. */
int w15_pseudo_thread_switch(w15_thread_t *t);

/* Begin pseudo-call `id` (a W15F_wip15* index) in t's buffer, between the
 * program's calls: before the current call's opcode (w15_capture_pre) or
 * after the call is committed (w15_capture_post); never in the middle of
 * one.  Starts the chunk with its ThreadSwitch when the buffer is empty and
 * reserves `reserve` bytes for the arguments (values are then written with
 * the format library's w15_put_*; w15_put_data reserves its own room).
 * Returns 0, or -1 when out of memory: the caller writes nothing more and
 * lets record.c notice (w15_fail is called here). */
int w15_pseudo_begin(w15_thread_t *t, uint32_t id, size_t reserve);
/* End the pseudo-call begun last: its extra count (0) and the commit.
 * Returns 0, or -1 when out of memory (the pseudo-call is dropped whole and
 * recording stops). */
int w15_pseudo_end(w15_thread_t *t);
/* End the pseudo-call begun last while the current call was being encoded
 * (its bytes from t->call_start written, not committed: between
 * w15_capture_extras and the call's commit), and move it in front of
 * that call, which stays uncommitted: the call's start and the offsets of
 * its blobs move past it.  For what is learnt only while the real call
 * runs but must precede it in the trace (a frame digest taken during the
 * swap).  At most 256 bytes of pseudo-call.  Returns 0, or -1 (out of
 * memory, or too long: dropped whole). */
int w15_pseudo_end_before_call(w15_thread_t *t);
/* Drop the pseudo-call begun last (a read of program memory failed, ...). */
void w15_pseudo_cancel(w15_thread_t *t);

#endif
