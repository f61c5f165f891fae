/* crash.h -- fatal signals.  Owns the handlers for SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT (and SIGTERM/SIGINT left at their default): they
 * write what is recorded (output, timing, the crashed call through record)
 * and then do what would have happened without us; and the interposed
 * sigaction/signal that keep our handler in front of the program's.  May
 * use output, timing, record, maps (a write fault on a page it protects is
 * not a crash), guard (a fault in a guarded read of program memory is not
 * one either), thread, state, resolve and tracefile (the summary of
 * `wip15 trace`'s root process when a signal ends it).  Must never use
 * runtime: exits are runtime's (runtime.c interposes _exit), a crash is
 * not an exit. */
#ifndef W15_CRASH_H
#define W15_CRASH_H

/* Install the handlers (at start, once). */
void w15_crash_init(void);

#endif
