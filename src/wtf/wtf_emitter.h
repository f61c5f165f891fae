/* wtf_emitter.h -- writes a Web Tracing Framework binary trace (.wtf-trace,
 * format 10 as the real loader reads it; docs/WTF.md) from inside the
 * traced process.  One emitter per process, shared by all threads; one zone
 * per thread.
 *
 * Threading: w15_wtf_zone_* functions are called only by the zone's
 * owner: one thread at a time with exclusive access to it (in the tracer,
 * the output thread, which converts each GL thread's timing records).  w15_wtf_open/close/define
 * and w15_wtf_zone_create are thread-safe.  Nothing here aborts; on an I/O
 * error the emitter prints one line "wip15: ..." on stderr and turns itself
 * off (later calls do nothing).
 *
 * Side: in-process (library wip15wtf, linked into libwip15.so).  May use:
 * clock.h, wtf_format.h, libc and pthreads.  Must never use: the offline
 * side (wtf_model.h, wtf_reader.h, wtf_json.h, wtf_analysis.h), json-c, or
 * anything that could abort or block the traced program.
 */
#ifndef W15_WTF_EMITTER_H
#define W15_WTF_EMITTER_H

#include <stddef.h>
#include <stdint.h>

#include "wtf_format.h" /* W15_WTF_GPU_FRAME_EVENT */

typedef struct w15_wtf w15_wtf_t;
typedef struct w15_wtf_zone w15_wtf_zone_t;

typedef struct w15_wtf_info {
    const char *program;     /* argv[0] */
    const char *const *argv; /* NULL-terminated, may be NULL */
    const char *tracer_version;
    const char *wip15_path;  /* the WIP15 trace this file accompanies */
} w15_wtf_info_t;

/* Create `path` (never overwrites: fails if it exists).  Returns NULL and
 * fills `err` on failure.  Times passed to the emitter are w15_clock_now()
 * nanoseconds; the file's timebase is the wall clock at open. */
w15_wtf_t *w15_wtf_open(const char *path, const w15_wtf_info_t *info, char *err, size_t errlen);

/* Tests and long-capture tuning: files rotate every `period_ns` of clock
 * time (default one hour; docs/WTF.md "Long captures").  Call right after
 * w15_wtf_open, before any event.  Values below 2 us are ignored. */
void w15_wtf_set_period(w15_wtf_t *w, uint64_t period_ns);

/* Record metadata learned later (e.g. "renderer" from glGetString).  Until
 * the file's first data chunk is written it goes into the file header's
 * "metadata" object (the header is held back in memory until then); after
 * that it is written at once as a wtf.trace#mark (name = key, value = the
 * JSON string) in the first zone.  Strings are copied.  Thread-safe. */
void w15_wtf_set_meta(w15_wtf_t *w, const char *key, const char *value);

/* A zone (timeline) named `name`, of `type` "script" or "native_gpu".
 * Returns NULL when the emitter is off or out of memory. */
w15_wtf_zone_t *w15_wtf_zone_create(w15_wtf_t *w, const char *name, const char *type);

/* Define (once, thread-safe) a scope event named `name` with the argument
 * "uint32 call" and return its wire id; 0 on failure.  `key` is a small
 * integer chosen by the caller (the tracer passes the function index) so
 * the lookup is an array access after the first time. */
uint16_t w15_wtf_call_event(w15_wtf_t *w, uint32_t key, const char *name);

/* GPU time (docs/WTF.md "GPU time"): a zone of type "native_gpu" named
 * "<CPU zone name> GPU" holds one scope of this event per measured frame,
 * argument "uint32 frame" = the number of the CPU zone's frame whose GPU
 * work it spans.  Defines the event once (thread-safe); its wire id, 0 on
 * failure.  Enter/leave it with w15_wtf_scope_enter/leave.  Its name is
 * W15_WTF_GPU_FRAME_EVENT (wtf_format.h: the offline reader knows it too). */
uint16_t w15_wtf_gpu_frame_event(w15_wtf_t *w);

void w15_wtf_scope_enter(w15_wtf_zone_t *z, uint16_t wire, uint64_t t_ns, uint32_t call);
/* A whole call scope, enter at t0_ns and leave at t1_ns (one call; the
 * same events as w15_wtf_scope_enter + w15_wtf_scope_leave). */
void w15_wtf_scope_call(w15_wtf_zone_t *z, uint16_t wire, uint64_t t0_ns, uint64_t t1_ns, uint32_t call);
/* A named scope (debug groups): name is copied. */
void w15_wtf_scope_enter_named(w15_wtf_zone_t *z, const char *name, size_t len, uint64_t t_ns);
void w15_wtf_scope_leave(w15_wtf_zone_t *z, uint64_t t_ns);
/* A time stamp (markers): name is copied. */
void w15_wtf_timestamp(w15_wtf_zone_t *z, const char *name, size_t len, uint64_t t_ns);
void w15_wtf_frame_start(w15_wtf_zone_t *z, uint32_t number, uint64_t t_ns);
void w15_wtf_frame_end(w15_wtf_zone_t *z, uint32_t number, uint64_t t_ns);

/* Write this zone's buffered events as one chunk.  Called by the owner (or
 * an exclusive flusher) periodically and at exit. */
void w15_wtf_zone_flush(w15_wtf_zone_t *z);
/* The owner thread is exiting: flush the zone and free its buffers (about
 * 270 KiB).  The zone stays valid (events sent to it later are dropped) and
 * its timeline stays in the file.  Owner only. */
void w15_wtf_zone_retire(w15_wtf_zone_t *z);
/* Async-signal-safe best effort: write the already-complete events of every
 * zone with write(2) only (no malloc, no blocking lock: the file lock is only
 * tried, ~200 sched_yield()s, since its holder may be the interrupted thread;
 * a zone whose owner is inside a flush is skipped).  For fatal signals;
 * preserves errno.  docs/WTF.md "Crashes and kills". */
void w15_wtf_flush_all_signal(w15_wtf_t *w);
/* For a fatal-signal handler that feeds zones itself (the tracer's crash
 * path converts pending timing records) once every other writer of the
 * zones has stopped: from this call on, for good, nothing in the emitter
 * locks without a bound, allocates or opens a file.  A full zone is
 * written as w15_wtf_flush_all_signal does; an event that needs a new
 * definition or generation is dropped (a named scope or time stamp whose
 * name is new falls back to the generic events with the name as an
 * argument).  Then call w15_wtf_flush_all_signal. */
void w15_wtf_signal_mode(w15_wtf_t *w);
/* Flush every zone (all owners must be quiescent: at exit) and close.  Every
 * zone pointer is invalid afterwards.  After fork() the child must not use
 * the parent's emitter (same file descriptors): open a new one or drop it. */
void w15_wtf_close(w15_wtf_t *w);

#endif
