/* walk.h -- a trace read call by call, as the reading commands (info, dump,
 * verify, stats) see it.
 *
 * Owns: opening a WIP15 file for a command (reporting why it cannot be
 * opened), the walk over its operations with what the reader alone does not
 * know: which thread a call belongs to (the last wip15ThreadSwitch), which
 * declared functions are the tracer's pseudo-calls or end a frame, which
 * generated-table entry a trace function or group is.  (The `wip15.ptr`
 * extra is the format library's: w15_reader_ptrs.)  May use: the format library (wip15/format.h), the generated
 * tables (apitable.h), map.h, out.h (for w15t_err only).  Must never use:
 * the output buffer for anything but error lines, value printing (value.h
 * sits above it), anything of a single command.
 */
#ifndef W15_TOOLS_WALK_H
#define W15_TOOLS_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "map.h"
#include "wip15/format.h"

/* What the tools know about a function of the trace. */
enum w15t_fn_kind {
    W15T_FN_NORMAL = 0,
    W15T_FN_PSEUDO,        /* any wip15* pseudo-call */
    W15T_FN_THREAD_SWITCH, /* wip15ThreadSwitch(tid, context, first_seq, name) */
};

typedef struct w15t_fninfo {
    uint8_t kind;      /* enum w15t_fn_kind */
    uint8_t frame_end; /* the generated tables flag it W15_FN_FRAME_END */
    int32_t table;     /* index in w15_funcs, or -1 */
} w15t_fninfo_t;

typedef struct w15t_trace {
    const char *path;
    w15_reader_t *r;
    w15_header_t hdr;
    w15t_map_t fmap;   /* trace function index -> finfo */
    w15t_fninfo_t *finfo;
    size_t nfinfo, capfinfo;
    w15t_map_t gmap;   /* trace group index -> gtable */
    int32_t *gtable;   /* generated-table group index or -1 */
    size_t ngtable, capgtable;
    /* thread state: the last wip15ThreadSwitch */
    int have_thread;
    uint64_t thread;
    w15_error_t err;   /* set after w15t_next returns TRUNCATED/ERROR */
} w15t_trace_t;

/* Open `path` for reading.  Returns 0, or 1 after printing the reader's
 * message ("wip15: <cmd>: ...") on stderr (nothing when cmd is NULL). */
int w15t_open(w15t_trace_t *t, const char *cmd, const char *path);
void w15t_close(w15t_trace_t *t);
/* Read the next operation (w15_reader_next).  On a call, updates the thread
 * state before returning (a ThreadSwitch belongs to the thread it starts). */
w15_next_t w15t_next(w15t_trace_t *t, w15_op_t *op);
/* What the tools know about a declared function (never NULL; a static
 * "normal" record when out of memory). */
const w15t_fninfo_t *w15t_fninfo(w15t_trace_t *t, const w15_func_t *f);
/* Generated-table group index of a trace group index, or -1. */
int32_t w15t_gtable(w15t_trace_t *t, uint32_t group);

/* Integer value of a scalar UnsignedInt/Int/Ptr/Bool value; 0 when the value
 * is not a scalar integer (then *ok = 0 when ok is not NULL). */
uint64_t w15t_scalar_u64(const w15_value_t *v, int *ok);

/* "0.0" / "0.0a" for a w15_version_t; "?" otherwise. */
const char *w15t_version_name(unsigned v);

#endif
