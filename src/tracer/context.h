/* context.h -- the context current on each thread.  Owns what the tracer
 * knows of it: its handle (record.c reports each successful MakeCurrent),
 * its API and version (read once per MakeCurrent, lazily, with the real
 * glGetString(GL_VERSION)), and reads of its state with the real
 * glGetIntegerv, only for pnames the caller knows exist there, so no query
 * raises a GL error.  Per-context facts the capture needs later (the
 * framebuffer configuration, drawable sizes) belong here.  May use thread,
 * resolve and the generated tables.  Must never use record, timing or
 * pixels: they ask the context module, not the reverse. */
#ifndef W15_CONTEXT_H
#define W15_CONTEXT_H

#include "thread.h"

/* Find the real glGetString / glGetIntegerv (at start). */
void w15_context_init(void);
/* After a successful MakeCurrent of `ctx` (NULL: none) on thread t. */
void w15_context_changed(w15_thread_t *t, void *ctx);
/* The calling thread's current context's API: 0 none or unknown, 1
 * desktop GL, 2 GLES; and its version. */
int w15_context_api(int *major, int *minor);
/* The real glGetIntegerv(pname) in the current context, `dflt` when it is
 * not available; keeps errno.  The caller makes sure `pname` exists in the
 * context's API and version (w15_context_api). */
int w15_context_get_int(unsigned pname, int dflt);

#endif
