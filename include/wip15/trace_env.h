/* wip15/trace_env.h -- the contract between `wip15 trace`
 * (src/tools/cmd_trace.c) and the preloaded library (src/tracer): the
 * environment variables the library reads, and the status line it writes
 * back.  Both sides include this header; neither spells a name itself.
 * Users set the same variables by hand (docs/USAGE.md "Tracing"). */
#ifndef WIP15_TRACE_ENV_H
#define WIP15_TRACE_ENV_H

#include <errno.h>
#include <stdlib.h>

/* Settings (values: docs/USAGE.md; `wip15 trace --help` names each). */
#define W15_ENV_OUTPUT "WIP15_OUTPUT"           /* trace file name */
#define W15_ENV_COMPRESSION "WIP15_COMPRESSION" /* blobs: lz4, zlib, none */
#define W15_ENV_STREAM "WIP15_STREAM"           /* whole file: zstd, zstd:LEVEL, lz4, none */
#define W15_ENV_FRAMES "WIP15_FRAMES"           /* A-B, A-, A */
#define W15_ENV_MAX_SIZE "WIP15_MAX_SIZE"       /* bytes, suffix k, M, G */
#define W15_ENV_TIMING "WIP15_TIMING"           /* off, frames, draws, all */
#define W15_ENV_GPU "WIP15_GPU"                 /* on, off */
#define W15_ENV_FRAME_DIGESTS "WIP15_FRAME_DIGESTS" /* on, off */
#define W15_ENV_READBACK_DATA "WIP15_READBACK_DATA" /* on, off: keep read-back bytes */
#define W15_ENV_QUIET "WIP15_QUIET"             /* set and not "0": quiet */
#define W15_ENV_CLOCK "WIP15_CLOCK"             /* the timing clock (src/wtf/clock.c) */
#define W15_ENV_MAPS "WIP15_MAPS"               /* persistent maps: protect, compare */
#define W15_ENV_FRAME_READ "WIP15_FRAME_READ"   /* frame digests: auto, readback */
#define W15_ENV_WORKERS "WIP15_WORKERS"         /* zstd threads under back-pressure: auto, 0..8 */

/* The LEVEL of "zstd:LEVEL" (W15_ENV_STREAM, `wip15 trace --stream`): a
 * decimal from -7 to 19, not 0.  `s` is the text after the colon; returns
 * 0 and sets *level, or -1 (level unchanged).  Inline: the launcher links
 * libc alone. */
static inline int w15_zstd_level_parse(const char *s, int *level)
{
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (end == s || *end || errno || n < -7 || n > 19 || n == 0)
        return -1;
    *level = (int)n;
    return 0;
}

/* The status directory.  `wip15 trace` makes a private directory
 * (mkdtemp in $TMPDIR if set, else $XDG_RUNTIME_DIR, /dev/shm or /tmp),
 * sets W15_ENV_STATUS_DIR to its absolute path and W15_ENV_ROOT to
 * "PID NAME" (its own process ID and the program as the user named it),
 * then execs the program in its own process: nothing of ours waits beside
 * it (a launcher that forks and waits costs every traced program a
 * wake-up of that process at its exit, ~2 ms on a loaded machine;
 * docs/PERFORMANCE.md "The launcher").  The variable's presence tells the
 * library that it reports through the directory rather than printing
 * "trace written to" itself.  Nothing is inherited but the environment: no
 * descriptor, so a program that closes what it inherited (Chromium's
 * child processes, daemons) neither loses its reports nor gets one
 * written into a descriptor of its own that took the number.
 * - Each trace appends lines to W15_STATUS_TRACES (O_APPEND, one write(2)
 *   per line, opened and closed each time): when it starts, the trace's
 *   absolute path and W15_STATUS_EOL; at the end, when recording stopped
 *   because something failed (the disk full, no memory),
 *   W15_STATUS_INCOMPLETE, the path, a tab, the reason and
 *   W15_STATUS_EOL.  A process whose tracer could not start writes
 *   W15_STATUS_FAILED and W15_STATUS_EOL.
 * - The root process (the one whose PID W15_ENV_ROOT names, whatever
 *   image it runs by then) reads every line when it exits (exit, _exit, or
 *   a signal whose default action ends it), reports each trace as written
 *   or as INCOMPLETE, says why when there is none ("NAME made no GL call",
 *   "the tracer could not start"), says so when a signal ended it, and
 *   removes the directory.  A traced process that ends after the root
 *   (the directory gone) prints its own "trace written to".
 * `wip15 trace` looks at the program before the exec: one the dynamic
 * linker cannot preload into (statically linked, set-user-ID or
 * set-group-ID) gets no status directory, and `wip15 trace` says so. */
#define W15_ENV_ROOT "WIP15_ROOT"
#define W15_ENV_STATUS_DIR "WIP15_STATUS_DIR"
#define W15_STATUS_TRACES "traces"
#define W15_STATUS_EOL "\n"
#define W15_STATUS_INCOMPLETE "!"
#define W15_STATUS_FAILED "?"

#endif
