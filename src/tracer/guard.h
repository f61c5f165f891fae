/* guard.h -- reads of the program's memory that cannot crash the process.
 * Owns the routines through which the tracer reads program memory whose
 * validity GL has not proven (client arrays, attribute lists, strings and
 * arrays of calls GL may reject): a fault inside one returns an error to
 * the caller instead of killing the program, and never reaches the
 * program's own SIGSEGV/SIGBUS handlers.  Its per-thread state lives in
 * w15_thread_t.guard.  May use thread and log.  Must never use record,
 * capture or crash: crash asks it (w15_guard_fault) before treating a fault
 * as fatal.
 *
 * How: each routine arms its thread's guard with the address range it
 * reads and a sigsetjmp(env, 0) point (no signal-mask system call); a
 * SIGSEGV/SIGBUS raised by the kernel in that thread, at an address of the
 * armed range (widened to whole pages), while armed, restores the signal
 * mask the thread had when it faulted (the handler's ucontext) and
 * siglongjmps back: the routine returns its error.  Cost without a fault:
 * one sigsetjmp and a few stores (~4 ns).  In sanitizer builds the copies
 * are plain loops outside ASan's instrumentation, so reading freed or
 * foreign memory the program passed is not an ASan report either.
 * Requirements: our SIGSEGV/SIGBUS handler is installed (crash.c) and the
 * thread does not block those signals; otherwise a fault is fatal, as it
 * was natively only if GL had read the memory. */
#ifndef W15_GUARD_H
#define W15_GUARD_H

#include <signal.h>
#include <stddef.h>

/* Copy n bytes of the program's memory at src into dst.  0, or -1 when
 * reading faulted (dst then holds an unknown prefix).  Keeps errno. */
int w15_guard_copy(void *dst, const void *src, size_t n);

/* Pass the n bytes of the program's memory at src to fn(arg, bytes, k),
 * which must read nothing else: in one piece, fn reading the program's
 * memory itself under the guard (no copy); in sanitizer builds in pieces
 * of at most scratch_n bytes copied into scratch first (fn's reads are
 * instrumented).  0, or -1 when reading faulted (fn may then have seen a
 * part of the bytes).  Keeps errno. */
int w15_guard_feed(const void *src, size_t n, void *scratch, size_t scratch_n,
                   void (*fn)(void *arg, const void *bytes, size_t k), void *arg);

/* Run fn(arg), which reads only the n bytes of memory at lo (in place:
 * memory the process holds that GL drivers write, not the program's
 * arguments), under the guard.  0, or -1 when reading faulted (fn did not
 * finish).  Keeps errno. */
int w15_guard_call(const void *lo, size_t n, void (*fn)(void *arg), void *arg);

/* Whether the n bytes of the program's memory at p equal the n bytes at
 * q (the tracer's own memory): 1 equal, 0 not, -1 when reading p faulted.
 * Keeps errno. */
int w15_guard_equal(const void *p, const void *q, size_t n);

/* Length of the NUL-terminated string at s, at most max (the bytes before
 * the first NUL, or max when there is none among them); (size_t)-1 when
 * reading faulted.  Keeps errno. */
size_t w15_guard_strnlen(const char *s, size_t max);

/* From the SIGSEGV/SIGBUS handler (async-signal-safe): when the fault
 * happened inside a guarded read of this thread, does not return (the read
 * returns its error); otherwise returns 0. */
int w15_guard_fault(int sig, siginfo_t *si, void *uc);

#endif
