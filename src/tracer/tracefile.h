/* tracefile.h -- the trace file's name and first call.  Owns choosing and
 * creating the file (WIP15_OUTPUT, else PROGRAM.wip15 in the working
 * directory; never overwriting: NAME.1.wip15, NAME.2.wip15, ...), the
 * timing file's name beside it, the status line that tells `wip15 trace`'s
 * root process where the trace went, that root's summary at its exit
 * (trace_env.h), and the call wip15TraceBegin.  May use config,
 * log, the generated tables and the format library.  Must never use the
 * modules that write (decl, queue, output, timing): runtime hands them what
 * this module found. */
#ifndef W15_TRACEFILE_H
#define W15_TRACEFILE_H

#include "wip15/format.h"

/* Create the trace file: its descriptor, or -1 after printing why. */
int w15_tracefile_create(void);
/* Its path, and the timing file's (valid after w15_tracefile_create). */
const char *w15_tracefile_path(void);
const char *w15_tracefile_wtf_path(void);
/* Tell `wip15 trace` the trace's path (WIP15_STATUS_DIR, trace_env.h),
 * once. */
void w15_tracefile_report(void);
/* Tell `wip15 trace` that this process's tracer could not start. */
void w15_tracefile_report_failed(void);
/* At the end: tell `wip15 trace` the trace is incomplete and why (`why`
 * NULL: it is not; nothing is written). */
void w15_tracefile_report_end(const char *why);
/* 1 when the root process of `wip15 trace` will say where this process's
 * trace went (this is the root, or the root has not exited yet); 0: this
 * process prints it itself. */
int w15_tracefile_reported(void);
/* In the root process of `wip15 trace` (WIP15_ROOT, trace_env.h), at its
 * end, once: every trace the status directory names, as written or as
 * INCOMPLETE; `sig` > 0: the signal that ends it; why there is no trace
 * when none was written; then the directory is removed.  Nothing in any
 * other process.  Async-signal-safe. */
void w15_tracefile_summary(int sig);
/* Encode wip15TraceBegin (program, command line, pid, start time, version,
 * timing file) into b and commit it.  0, or -1 when out of memory. */
int w15_tracefile_put_begin(w15_buf_t *b);

#endif
