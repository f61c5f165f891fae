/* decl.h -- declarations and the side buffer.  Owns the buffer of
 * operations that must reach the file before the next chunk: the
 * declarations (OpDeclFunc, OpDeclGroup; the pseudo-calls first, then each
 * function and group lazily, once, before the first call that uses it) and
 * the process's first call, wip15TraceBegin; its lock; which groups are
 * declared.  May use the generated tables and the format library.  Must
 * never use thread, queue, output or record: record asks for declarations,
 * output drains them, decl knows neither. */
#ifndef W15_DECL_H
#define W15_DECL_H

#include <stddef.h>
#include <stdint.h>

#include "wip15/format.h"

/* The side buffer, with the declarations of the pseudo-calls (docs/FORMAT.md:
 * declared first).  0, or -1 when out of memory. */
int w15_decl_start(void);
/* Queue the declaration of function `id` and of the groups its signature
 * uses that are not declared yet.  The caller declares each function once
 * (record.c).  0, or -1 when out of memory (the caller stops recording). */
int w15_decl_func(uint32_t id);
/* The side buffer, locked: write whole operations and set `committed`,
 * then w15_decl_unlock.  The output thread submits it before each chunk. */
w15_buf_t *w15_decl_lock(void);
void w15_decl_unlock(void);
/* Crash (async-signal-safe, no lock): the committed bytes not yet written. */
const uint8_t *w15_decl_pending(size_t *n);

#endif
