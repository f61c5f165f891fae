/* maps.h -- mapped buffers.  Owns the program's mappings of buffers (from
 * each map call to its unmap, or for ever when persistent) and the bytes
 * the program writes through them: at unmap and at each explicit flush for
 * ordinary maps; for persistent ones, the pages written since the last
 * capture (write-protected pages and a fault handler, or comparison with a
 * copy), captured before every call that can consume them.  Writes the
 * pseudo-call wip15BufferWrite (docs/FORMAT.md).  Its per-context state
 * hangs from w15_ctx_t.maps.  crash asks it first about every SIGSEGV
 * (w15_maps_fault).  It also interposes pthread_sigmask and sigprocmask, so
 * that the kernel never blocks SIGSEGV in a thread that could write to a
 * protected page.  May use guard, pseudo, context, resolve, thread, state,
 * config and log.  Must never use record, capture, arrays or surfaces. */
#ifndef W15_MAPS_H
#define W15_MAPS_H

#include <signal.h>
#include <stdint.h>

#include "apitable.h"
#include "thread.h"

/* Before a MAP, UNMAP, FLUSH_MAPPED, CONSUMES or CONTEXT_DESTROY call. */
void w15_maps_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec);
/* After a MAP, UNMAP or CONTEXT_DESTROY call. */
void w15_maps_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                   const w15_slot_t *ret, int rec);
/* From the SIGSEGV handler (async-signal-safe): 1 when the fault was a write
 * to a page this module protects (it is handled: the program's write
 * retries), 0 when it is not ours. */
int w15_maps_fault(const siginfo_t *si);
/* Whether the calling thread asked for SIGSEGV to be blocked
 * (async-signal-safe).  pthread_sigmask and sigprocmask, interposed here,
 * never let the kernel block SIGSEGV (a write to a protected page would
 * kill the process); a fault of the program's own in such a thread would
 * natively end it with SIGSEGV's default action. */
int w15_maps_segv_blocked(void);

#endif
