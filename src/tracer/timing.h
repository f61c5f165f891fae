/* timing.h -- the timing hooks.  Owns the .wtf-trace beside the trace:
 * what each WIP15_TIMING level records (frames, debug groups, markers, call
 * scopes), a GL thread's side (records appended to its chunk's array,
 * tmrec.h), the output thread's side (records converted into each thread's
 * WTF zones), per-frame GPU time from timer queries (WIP15_GPU), the
 * renderer strings, and the timing file's crash flush.  May use thread,
 * tmrec, context, resolve, config, log, the generated tables and the WTF
 * emitter (src/wtf).  Must never use record, decl, queue or output: they
 * call timing, timing knows a call only by its function index, flags and
 * arguments. */
#ifndef W15_TIMING_H
#define W15_TIMING_H

#include <stdint.h>

#include "apitable.h"
#include "thread.h"
#include "tmrec.h"

/* Open the timing file `wtf_path` beside the trace `wip15_path` (named in
 * the file's metadata) and start timing at the configured level. */
void w15_timing_start(const char *wtf_path, const char *wip15_path);
extern int w15_timing_on;
/* Function flags whose calls get timing hooks at the configured level
 * (0 when timing is off; W15_TIMING_EVERY_CALL: every call, level "all"). */
extern uint32_t w15_timing_mask;
/* The bit of w15_timing_mask for every call: above every W15_FN_* flag, so
 * a call's (flags | W15_TIMING_EVERY_CALL) & mask says whether it is timed. */
#define W15_TIMING_EVERY_CALL (1u << 31)

/* The general path's hooks around the real call of function `id` (flags,
 * packed arguments) on thread t, for a call whose flags the mask selects.
 * w15_timing_pre returns 1 when it opened the call's scope record, which
 * w15_timing_post(t, 1, flags) completes: nothing else may be recorded by
 * the thread in between. */
int w15_timing_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args);
void w15_timing_post(w15_thread_t *t, int scope_open, uint32_t flags);
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

#endif
