/* guard.h -- reads of the program's memory that cannot crash the process.
 * Owns the one routine through which the tracer copies program memory whose
 * validity GL has not proven (client arrays, attribute lists, strings and
 * arrays of calls GL may reject): a fault inside it returns an error to the
 * caller instead of killing the program, and never reaches the program's
 * own SIGSEGV/SIGBUS handlers.  May use thread and log.  Must never use
 * record, capture or crash: crash asks it (w15_guard_fault) before
 * treating a fault as fatal. */
#ifndef W15_GUARD_H
#define W15_GUARD_H

#include <signal.h>
#include <stddef.h>

/* Copy n bytes of the program's memory at src into dst.  0, or -1 when
 * reading faulted (dst then holds an unknown prefix).  Keeps errno. */
int w15_guard_copy(void *dst, const void *src, size_t n);

/* From the SIGSEGV/SIGBUS handler (async-signal-safe): when the fault
 * happened inside a guarded read of this thread, does not return (the read
 * returns -1); otherwise returns 0. */
int w15_guard_fault(int sig, siginfo_t *si, void *uc);

#endif
