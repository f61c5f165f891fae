/* runtime.h -- internals of libwip15.so shared by the files of src/tracer/.
 * Nothing here is exported from the library (built with
 * -fvisibility=hidden); the exported symbols are the generated wrappers,
 * the hand-written ones in custom.c and the interposers of resolve.c and
 * crash.c.
 *
 * Threads.  Every thread that calls GL owns a w15_thread_t reached through
 * an initial-exec TLS pointer.  It encodes calls into its own w15_buf_t
 * without locks; finished buffers ("chunks", each starting with a
 * wip15ThreadSwitch call) go through a bounded queue to one output thread
 * that owns the w15_writer_t.  See docs/INTERNALS.md.
 */
#ifndef W15_RUNTIME_H
#define W15_RUNTIME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "log.h"
#include "record.h"
#include "resolve.h"
#include "thread.h"
#include "tmrec.h"
#include "state.h"
#include "wip15/format.h"
#include "../common/apitable.h"

/* ------------------------------------------------------------------ */
/* Recorder state (record.c)                                           */

/* w15_fast_ok: record.h */


/* Write wip15ThreadSwitch at the start of t->buf (which is empty).
 * Returns 0 or -1 (out of memory). */
int w15_put_thread_switch(w15_thread_t *t);

/* Start the tracer (open the file, start the output thread).  Called once
 * from w15_thread_slow. */
void w15_start(void);
/* Flush everything and close the file (exit, _exit).  Idempotent. */
void w15_shutdown(void);

/* Per function, set (release) once its declaration is queued: bits 0-7 =
 * index of the first parameter encoded after the call + 1, W15_FI_* flags,
 * bits 16-23 the number of parameters, bits 32-63 first_param (a copy of
 * w15_funcs[id], so the fast path needs one load). */
extern _Atomic uint64_t *w15_declared;
#define W15_FI_SIMPLE 0x100u  /* every parameter and the result by value: fast path */
#define W15_FI_VOID 0x200u    /* ... and no result: the whole call is encoded in w15_pre */
/* Per parameter (w15_params order): the fast-path encoding op (record.c). */
extern uint8_t *w15_prog;
/* Allocate w15_declared / w15_prog.  0 or -1. */
int w15_record_init(void);
/* Crash (async-signal-safe): complete t's current call when all its inputs
 * are encoded (an empty result and the extra wip15.crash, so the fatal call
 * itself is in the trace); the length of t's buffer to write. */
size_t w15_record_crash_complete(w15_thread_t *t);

/* ------------------------------------------------------------------ */
/* Context tracking & pixels (pixels.c)                                */

void w15_pixels_init(void);
/* After a successful MakeCurrent on this thread. */
void w15_context_changed(w15_thread_t *t, void *ctx);

/* ------------------------------------------------------------------ */
/* Timing (timing.c)                                                   */

/* Open the timing file `wtf_path` beside the trace `wip15_path` (named in
 * the file's metadata) and start timing at the configured level. */
void w15_timing_start(const char *wtf_path, const char *wip15_path);
void w15_timing_pre(w15_thread_t *t, w15_callctx_t *c, uint32_t id, uint32_t flags,
                    const w15_slot_t *args);
void w15_timing_post(w15_thread_t *t, w15_callctx_t *c, uint32_t flags);
/* After a successful MakeCurrent of `ctx` (non-NULL) on t: the first time a
 * context is seen, record its GL_RENDERER/VENDOR/VERSION as WTF metadata. */
void w15_timing_context(w15_thread_t *t, void *ctx);
/* Function `id` (flags) is being declared: define its WTF call-scope event
 * now when the level gives it one, so that the output thread, and a crash
 * handler (which must not allocate), find it defined. */
void w15_timing_declare(uint32_t id, uint32_t flags);
/* Before a MakeCurrent on t (the old context still current): collect the
 * GPU times that are ready and delete the timer queries of that context. */
void w15_timing_gpu_release(w15_thread_t *t);
/* A thread's state was just created (its first GL call, record.c): note
 * the time its frame 0 starts at. */
void w15_timing_thread_start(w15_thread_t *t);
/* Output thread (or the crash path after w15_timing_crash_begin): convert
 * the records tm[0..n) of one thread into WTF events of `zone` and write
 * them; `retire`: the thread has exited, free the zone's buffers. */
void w15_timing_feed(void *zone, const w15_tmrec_t *tm, uint32_t n, int retire);
/* After the output thread has stopped (w15_output_stop): close the file. */
void w15_timing_stop(void);
/* Fatal signal: the emitter goes into its signal mode (before feeding). */
void w15_timing_crash_begin(void);
/* Fatal signal: write every zone's converted events. */
void w15_timing_crash(void);
extern int w15_timing_on;
/* Function flags whose calls get timing hooks at the configured level
 * (0 when timing is off; W15_TIMING_EVERY_CALL: every call, level "all"). */
extern uint32_t w15_timing_mask;
/* The bit of w15_timing_mask for every call: above every W15_FN_* flag, so
 * a call's (flags | W15_TIMING_EVERY_CALL) & mask says whether it is timed. */
#define W15_TIMING_EVERY_CALL (1u << 31)

/* ------------------------------------------------------------------ */
/* Crash, exit, fork (crash.c)                                         */

void w15_crash_init(void);

#endif
