/* runtime.h -- the life cycle of the tracer inside the traced process.
 * Owns the library constructor (settings), the start at the first GL call
 * (records, declarations, the trace file, the output thread, timing, the
 * signal handlers, in that order), the end (exit, _exit, _Exit: everything
 * written), and fork (the child stops tracing).  May use every module of
 * src/tracer.  Must never use anything that would need runtime back: no
 * module uses runtime but for one edge, thread.c calling w15_start when a
 * process's first GL call arrives (the lazy start).
 * Nothing of src/tracer is exported but the generated wrappers, custom.c's
 * wrappers and the interposers (resolve.c dlsym, crash.c sigaction/signal,
 * runtime.c _exit/_Exit). */
#ifndef W15_RUNTIME_H
#define W15_RUNTIME_H

/* Start the tracer (settings read; called once, from the first thread's
 * first GL call). */
void w15_start(void);
/* Flush everything and close the files (exit, _exit).  Idempotent. */
void w15_shutdown(void);

#endif
