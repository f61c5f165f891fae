/* wip15/trace_env.h -- the contract between `wip15 trace`
 * (src/tools/cmd_trace.c) and the preloaded library (src/tracer): the
 * environment variables the library reads, and the status line it writes
 * back.  Both sides include this header; neither spells a name itself.
 * Users set the same variables by hand (docs/USAGE.md "Tracing"). */
#ifndef WIP15_TRACE_ENV_H
#define WIP15_TRACE_ENV_H

/* Settings (values: docs/USAGE.md; `wip15 trace --help` names each). */
#define W15_ENV_OUTPUT "WIP15_OUTPUT"           /* trace file name */
#define W15_ENV_COMPRESSION "WIP15_COMPRESSION" /* blobs: lz4, zlib, none */
#define W15_ENV_STREAM "WIP15_STREAM"           /* whole file: lz4, none */
#define W15_ENV_FRAMES "WIP15_FRAMES"           /* A-B, A-, A */
#define W15_ENV_MAX_SIZE "WIP15_MAX_SIZE"       /* bytes, suffix k, M, G */
#define W15_ENV_TIMING "WIP15_TIMING"           /* off, frames, draws, all */
#define W15_ENV_GPU "WIP15_GPU"                 /* on, off */
#define W15_ENV_FRAME_DIGESTS "WIP15_FRAME_DIGESTS" /* on, off */
#define W15_ENV_READBACK_DATA "WIP15_READBACK_DATA" /* on, off: keep read-back bytes */
#define W15_ENV_QUIET "WIP15_QUIET"             /* set and not "0": quiet */
#define W15_ENV_CLOCK "WIP15_CLOCK"             /* the timing clock (src/wtf/clock.c) */
#define W15_ENV_MAPS "WIP15_MAPS"               /* persistent maps: protect, compare */

/* The status lines.  `wip15 trace` sets W15_ENV_STATUS_FD to the write end
 * of a pipe, a descriptor number >= W15_STATUS_FD_BASE that only the
 * traced program and its children inherit.  Its presence also tells the
 * library that the launcher prints the summary ("trace written to").  The
 * library accepts a number in [W15_STATUS_FD_LOW, W15_STATUS_FD_HIGH) that
 * names a FIFO.  Once per trace, when the trace starts, it writes one line,
 * the trace's absolute path followed by W15_STATUS_EOL, with one write(2),
 * and keeps the descriptor; at the end, when recording stopped because
 * something failed (the disk full, no memory), it writes W15_STATUS_INCOMPLETE,
 * the path, a tab, the reason and W15_STATUS_EOL, then closes the
 * descriptor.  After the program exits, the launcher reads every line (a
 * program that starts traced programs gives several) and reports each
 * trace as written or as incomplete. */
#define W15_ENV_STATUS_FD "WIP15_STATUS_FD"

/* Whether the library was loaded at all.  `wip15 trace` creates an empty
 * file and sets W15_ENV_LOADED to its path; the library's constructor, in
 * every process it is loaded into, makes the file one byte long
 * (truncate(2): no descriptor, nothing the program sees).  When no trace
 * was written, the launcher tells "the program made no GL call" (one
 * byte) from "libwip15.so was never loaded" (empty: a static or setuid
 * program, one that clears LD_PRELOAD), then removes the file. */
#define W15_ENV_LOADED "WIP15_LOADED"
#define W15_STATUS_FD_BASE 10
#define W15_STATUS_FD_LOW 3
#define W15_STATUS_FD_HIGH 65536
#define W15_STATUS_EOL "\n"
#define W15_STATUS_INCOMPLETE "!"

#endif
