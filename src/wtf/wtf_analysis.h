/* wtf_analysis.h -- the timeline of a WTF trace (scopes, frames, markers per
 * zone) and the frame-time statistics of `wip15 frames` (docs/WTF.md
 * "Timing tools" defines every number).  A timeline is built from one file
 * or from a whole rotated capture (w15_wtf_capture_t: every generation
 * file, docs/WTF.md "Long captures: rotation").
 *
 * Owns: reading a capture in either format (w15_wtf_read_any dispatches on
 * the extension), the timeline, the frame and per-function statistics.
 * Side: offline (library wip15wtftools, in the `wip15` command).  May use:
 * wtf_model.h, wtf_reader.h, wtf_json.h, wtf_format.h, json-c.  Must never
 * use: the in-process emitter (wtf_emitter.h), stdout (the commands print).
 */
#ifndef W15_WTF_ANALYSIS_H
#define W15_WTF_ANALYSIS_H

#include "wtf_reader.h"

#include <stddef.h>
#include <stdint.h>

/* CALL: a scope event with the one argument "uint32 call" (a GL call);
 * GPU_FRAME: a W15_WTF_GPU_FRAME_EVENT scope ("wip15.gpuFrame", one argument
 * "uint32 frame": the GPU time of a frame, docs/WTF.md "GPU time in the
 * tools"); GROUP: any other scope (debug groups, wtf.scope#enter). */
typedef enum { W15_SCOPE_CALL, W15_SCOPE_GROUP, W15_SCOPE_GPU_FRAME } w15_scope_kind_t;

typedef struct w15_scope {
    const char *name;
    uint32_t zone;        /* zone number: index into tl->zone_name + 1 (0: no
                           * zone); for one file also file->zones + 1 */
    uint32_t depth;       /* 0 = outermost */
    w15_scope_kind_t kind;/* CALL: a class-1 event with the "uint32 call" argument */
    int64_t call;         /* the call argument (per-thread call number), -1 if none */
    uint64_t t0, t1;      /* microseconds since the timebase (of the first file
                           * of a capture); t1 = t0 if never closed */
    int closed;
    uint64_t child_us;    /* time covered by direct children */
    size_t ev;            /* index of the entering event in file->events (for a
                           * capture: in the files' events one after the other) */
    int64_t frame;        /* GPU_FRAME: the frame argument; else -1 */
} w15_scope_t;

typedef struct w15_frame {
    uint32_t number, zone;
    uint64_t t0, t1;      /* us, as w15_scope_t */
    uint32_t ncalls;      /* call scopes of the zone entered between the frame's
                           * start and end events (file order) */
    size_t e0, e1;        /* indices of the start and end events (as ev) */
    int64_t gpu_us;       /* GPU time of the frame: the duration of the closed
                           * GPU_FRAME scope with this frame number in the
                           * zone's companion GPU zone (w15_timeline_gpu_zone;
                           * the last one if several); -1: none */
    uint64_t gpu_t0, gpu_t1; /* that scope's enter and leave (us); 0 if none */
} w15_frame_t;

typedef struct w15_instant {
    const char *name;
    uint32_t zone;
    uint64_t t;
} w15_instant_t;

typedef struct w15_timeline {
    const w15_wtf_file_t *file; /* the (first) file */
    w15_scope_t *scopes;     /* in order of entry */
    size_t nscopes;
    w15_frame_t *frames;     /* complete frames of every zone, by start time */
    size_t nframes;
    w15_instant_t *instants; /* markers (time stamps, instance events not built in) */
    size_t ninstants;
    const char **zone_name;  /* nzones: name of zone z at [z - 1] (NULL: none);
                              * strings owned by the file(s) */
    uint32_t nzones;
    const char **zone_type;  /* nzones: type of zone z at [z - 1] ("script",
                              * "native_gpu", ...; NULL: none), as zone_name */
} w15_timeline_t;

/* Build the timeline of one file.  Zone numbers are the file's.  `f` must
 * outlive `tl`.  Returns 0, or -1 when out of memory. */
int w15_timeline_build(const w15_wtf_file_t *f, w15_timeline_t *tl);
void w15_timeline_free(w15_timeline_t *tl);

/* The companion GPU zone of zone `zone` (docs/WTF.md "GPU time in the
 * tools"): the zone named "<zone's name> GPU" (a space, then GPU), the first
 * of type "native_gpu" if several have that name, else the first.  Returns
 * its zone number, or 0 when there is none (or `zone` has no name). */
uint32_t w15_timeline_gpu_zone(const w15_timeline_t *tl, uint32_t zone);

/* ---------------------------------------------------- rotated captures --
 *
 * Generation g >= 1 of the capture whose generation 0 is `X.wtf-trace` is
 * `X.<g>.wtf-trace` beside it (the same with .wtf-json files converted by
 * `wip15 wtf-json`). */

/* w15_wtf_capture_read flags, besides W15_WTF_READ_LENIENT (passed on to
 * each file): */
#define W15_WTF_CAPTURE_SINGLE 0x100 /* read only the named file */

typedef struct w15_wtf_capture {
    w15_wtf_file_t **files;  /* nfiles >= 1, by generation; files[0] is the named file */
    uint32_t *gen;           /* generation number of files[i] (0 for a file
                              * that is not a later generation) */
    int64_t *offset_us;      /* files[i]->timebase - files[0]->timebase, in us */
    size_t nfiles;
    uint32_t named_gen;      /* >= 1: the named file is this generation of a
                              * capture whose generation 0 is beside it, read
                              * alone */
    size_t unread;           /* generation files beside the named one that
                              * were not read (SINGLE, or a later generation
                              * named, or after an unreadable one) */
    char **warnings;         /* nwarnings lines "FILE: ...": a file read
                              * leniently, a later generation that could not
                              * be read (reading stopped before it), a gap */
    size_t nwarnings;
} w15_wtf_capture_t;

/* Read a .wtf-json (by the name's extension) or else a .wtf-trace file:
 * w15_wtf_json_read or w15_wtf_read (W15_WTF_READ_LENIENT applies to the
 * latter only).  Same contract as w15_wtf_read. */
w15_wtf_err_t w15_wtf_read_any(const char *path, int flags, w15_wtf_file_t **out, char *err, size_t errlen);

/* Read `path` (.wtf-trace or .wtf-json, w15_wtf_read_any) and, when it is
 * generation 0 of a rotated capture and `flags` lacks
 * W15_WTF_CAPTURE_SINGLE, every later generation beside it, in order of
 * generation.  Generation numbers may have gaps (the emitter skips a
 * generation in which no thread had an event); a later file counts only if
 * its header's "generation" (when present) is its number and its timebase
 * is generation 0's plus the same period per generation, else it and the
 * generations after it are left out with a warning.  A later generation
 * that does not read also ends the capture there, with the reader's message
 * ("FILE: byte N: ...") as a warning.  A `path` named like a later
 * generation (`X.<g>.wtf-trace` with `X.wtf-trace` beside it and, if its
 * header says, generation g) is read alone and sets named_gen.
 * Returns W15_WTF_E_OK and fills *cap (free with w15_wtf_capture_free), or
 * the error of reading `path` itself with the message in err (*cap empty). */
w15_wtf_err_t w15_wtf_capture_read(const char *path, int flags, w15_wtf_capture_t *cap, char *err, size_t errlen);
void w15_wtf_capture_free(w15_wtf_capture_t *cap);

/* "4 files (generations 0-3)", "3 files (generations 0, 2-3)",
 * "1 file (generation 2)" into buf (always NUL-terminated). */
void w15_wtf_capture_describe(const w15_wtf_capture_t *cap, char *buf, size_t n);

/* Build the timeline of every file of `cap` as one: zones joined by name
 * (and zone id when a name repeats; zone numbers of files[0] kept), times
 * in us since files[0]'s timebase, a scope entered in one generation and
 * left in the next closed there, frames paired by (zone, number) across
 * files.  `cap` must outlive `tl`.  Returns 0, or -1 when out of memory. */
int w15_timeline_build_capture(const w15_wtf_capture_t *cap, w15_timeline_t *tl);

typedef struct w15_fn_stat {
    const char *name;
    uint64_t count;
    uint64_t total_us;    /* inclusive */
    uint64_t self_us;     /* inclusive minus direct children */
} w15_fn_stat_t;

typedef struct w15_frame_stats {
    uint32_t zone;        /* the zone analysed */
    size_t n;             /* frames */
    double mean_ms, median_ms, p90_ms, p95_ms, p99_ms, max_ms, min_ms;
    double fps;           /* 1000 / mean_ms */
    double low1_fps, low01_fps; /* 1000 / mean of the slowest 1 % / 0.1 % */
    double span_ms;       /* first frame start to last frame end */
    const w15_frame_t **frames; /* n, in time order */
    const w15_frame_t **worst;  /* n, slowest first */
    w15_fn_stat_t *fns;   /* per call-scope name, by total_us descending */
    size_t nfns;
    uint64_t calls;
    /* GPU time (docs/WTF.md "GPU time in the tools"), over frames[0..n)
     * that have it (w15_frame_t.gpu_us >= 0); same definitions as above: */
    uint32_t gpu_zone;    /* the zone's companion GPU zone, 0: none */
    size_t gpu_scopes;    /* closed GPU_FRAME scopes in gpu_zone (whole capture,
                           * whatever --skip) */
    size_t gpu_n;         /* frames of frames[0..n) with GPU time */
    double gpu_mean_ms, gpu_median_ms, gpu_p90_ms, gpu_p95_ms, gpu_p99_ms, gpu_max_ms, gpu_min_ms;
} w15_frame_stats_t;

/* Frame statistics over the frames of `zone` (0: the zone with the most
 * frames).  Returns 0, or -1 when out of memory. */
int w15_frame_stats(const w15_timeline_t *tl, uint32_t zone, w15_frame_stats_t *st);
/* Same, leaving the zone's first `skip` frames (in time order) out of the
 * frame statistics and the GPU statistics (warm-up: frame 0 holds the
 * start-up work); the per-function table still covers the whole file. */
int w15_frame_stats_skip(const w15_timeline_t *tl, uint32_t zone, size_t skip, w15_frame_stats_t *st);
void w15_frame_stats_free(w15_frame_stats_t *st);

/* Nearest-rank percentile of sorted v[0..n): the smallest value with at
 * least p % of the values at or below it.  n > 0. */
double w15_percentile(const double *sorted, size_t n, double p);

#endif
