/* recorder.h -- what the rest of the runtime asks the recorder (record.c);
 * record.h is the generated wrappers' side of the same module.  The
 * recorder owns the encoding of calls: the general path that walks a
 * function's signature, the inline fast path, which functions are ready for
 * it (declared, their fast-path byte set), the current call of each thread
 * and the frame ends.  May use capture (what a call needs besides its
 * arguments, pseudo-calls before and after it), pseudo, decl, thread, state,
 * timing, context, pixels, statesize (told of every link), guard, fhash,
 * resolve, tmrec, config, log and the generated tables.  Must never use queue, output, crash or runtime: the recorder fills a thread's
 * buffer, others move it (a process's first call starts the tracer through
 * thread.c, the lazy start). */
#ifndef W15_RECORDER_H
#define W15_RECORDER_H

#include <stddef.h>

#include "thread.h"

/* Allocate the per-function tables.  0 or -1. */
int w15_record_init(void);
/* Crash (async-signal-safe): when t was inside a call (`in_call`, as
 * w15_thread_hold returned it) whose inputs are all encoded, complete it
 * (an empty result and the extra wip15.crash, so the fatal call itself is
 * in the trace); the length of t's buffer to write. */
size_t w15_record_crash_complete(w15_thread_t *t, int in_call);

#endif
