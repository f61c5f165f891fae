/* replay.h -- libwip15replay: play a WIP15 trace back (issue 9).
 *
 * Owns: the options of a replay and its one entry point.
 * Used by: src/tools/cmd_replay.c (option parsing only), tests.
 * Must never: print to stdout except the lines asked for (--checksums,
 * --benchmark), exit, or keep state between two rp_run() calls.
 */
#ifndef RP_REPLAY_H
#define RP_REPLAY_H

#include <stdint.h>
#include <stdio.h>

enum rp_digest { RP_DIGEST_XXH3 = 0, RP_DIGEST_MD5 = 1 };
/* --timing levels (as `wip15 trace --timing`) */
enum rp_timing { RP_TIMING_OFF = 0, RP_TIMING_FRAMES, RP_TIMING_DRAWS, RP_TIMING_ALL };

/* A set of frame numbers: ranges A..B (B = UINT64_MAX: open), plus `last`. */
#define RP_MAX_RANGES 32
typedef struct rp_frameset {
    uint32_t n;
    uint64_t lo[RP_MAX_RANGES], hi[RP_MAX_RANGES];
    int last;  /* the last frame of the trace */
    int all;   /* every frame (set when no ranges were given) */
} rp_frameset_t;

typedef struct rp_opts {
    const char *path;          /* the trace */
    int checksums;             /* print "frame N <hex>" per frame */
    enum rp_digest digest;     /* of --checksums */
    rp_frameset_t snapshots;   /* frames written as PNG (n == 0 && !last: none) */
    const char *snapshot_dir;  /* where (default ".") */
    uint64_t first, last;      /* --frames A-B: frames presented and checked */
    int benchmark;             /* calls/s and frames/s, nothing per call */
    int window;                /* GLX traces on an X display */
    int strict;                /* a call that cannot replay is an error */
    int quiet;                 /* no warnings, no progress */
    int check;                 /* --check: digests and glGetError values */
    enum rp_timing timing;     /* --timing LEVEL */
    const char *timing_path;   /* its .wtf-trace (NULL: FILE.replay.wtf-trace) */
    double progress_after;     /* progress lines after this many seconds (2) */
    int file_order;            /* --order file: ignore wip15.gseq (tests) */
    FILE *out;                 /* checksums, check and benchmark lines (stdout) */
} rp_opts_t;

/* Defaults: everything off, frames 0..UINT64_MAX, out = stdout, progress
 * after 2 s. */
void rp_opts_default(rp_opts_t *o);

/* Parse a frame set: "N", "A-B", "A-" (open end), "last", separated by
 * commas ("0-9,20,last").  Returns 0, or -1 with a message in err[256]. */
int rp_frameset_parse(rp_frameset_t *s, const char *text, char *err);
/* Whether frame `f` is in the set (`is_last`: f is the trace's last frame). */
int rp_frameset_has(const rp_frameset_t *s, uint64_t f, int is_last);

/* Replay the trace.  Returns 0 when it reached the end of the trace (or the
 * last complete call of a truncated one) with no error, 1 on an error (a
 * corrupt trace, no usable GL, a call that cannot replay under --strict, a
 * snapshot that cannot be written, a --check mismatch); every error has
 * been reported on stderr with the prefix "wip15 replay: ". */
int rp_run(const rp_opts_t *o);

#endif
