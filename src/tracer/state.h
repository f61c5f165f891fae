/* state.h -- the process-wide state of the tracer.  Owns whether it is
 * recording (w15_recording, read inline by every call), its life-cycle
 * state (w15_state), the flush epoch that tells threads to hand over their
 * buffers, the frame counter with the WIP15_FRAMES range, and w15_fail,
 * the one way to stop recording for good.  May use log and config.  Must
 * never use the modules that read it (thread, queue, output, record,
 * timing, ...): state is below all of them. */
#ifndef W15_STATE_H
#define W15_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#ifndef W15_HIDDEN
#define W15_HIDDEN __attribute__((visibility("hidden")))
#endif

/* 1 while recording; 0 before start, after failure, outside WIP15_FRAMES,
 * over WIP15_MAX_SIZE, after exit. */
extern _Atomic int w15_recording W15_HIDDEN;
/* Bumped by the output thread every ~100 ms: threads hand over their buffer
 * at their next call after it changes. */
extern _Atomic uint32_t w15_flush_epoch W15_HIDDEN;

/* Life cycle: UNINIT until the first GL call starts the tracer, ON while
 * started, OFF after a failure, at exit and in a forked child. */
enum w15_state { W15_ST_UNINIT = 0, W15_ST_ON, W15_ST_OFF };
extern _Atomic int w15_state;
extern _Atomic uint64_t w15_frame;  /* frames ended so far (process-wide) */

/* Stop recording for good because something failed (no memory, the disk
 * full...), printing `why` once (NULL: silently); the trace is then
 * incomplete and w15_fail_reason says why. */
void w15_fail(const char *why);
/* Stop recording for good because a limit the user set was reached
 * (WIP15_MAX_SIZE), printing `why` once: the trace is not incomplete. */
void w15_stop(const char *why);
/* Why recording failed (the first w15_fail's text, "recording stopped"
 * removed), or NULL when it did not. */
const char *w15_fail_reason(void);
/* A frame-ending call returned (any thread): count it, and start or stop
 * recording at the edges of WIP15_FRAMES. */
void w15_frame_ended(void);

#endif
