/* wtf_analysis.h -- the timeline of a WTF trace (scopes, frames, markers per
 * zone) and the frame-time statistics of `wip15 frames` (docs/WTF.md
 * "Timing tools" defines every number). */
#ifndef W15_WTF_ANALYSIS_H
#define W15_WTF_ANALYSIS_H

#include "wtf_reader.h"

#include <stddef.h>
#include <stdint.h>

typedef enum { W15_SCOPE_CALL, W15_SCOPE_GROUP } w15_scope_kind_t;

typedef struct w15_scope {
    const char *name;
    uint32_t zone;        /* index into file->zones + 1 (0: no zone) */
    uint32_t depth;       /* 0 = outermost */
    w15_scope_kind_t kind;/* CALL: a class-1 event with the "uint32 call" argument */
    int64_t call;         /* the call argument (per-thread call number), -1 if none */
    uint32_t t0, t1;      /* microseconds since the timebase; t1 = t0 if never closed */
    int closed;
    uint64_t child_us;    /* time covered by direct children */
    size_t ev;            /* index of the entering event in file->events */
} w15_scope_t;

typedef struct w15_frame {
    uint32_t number, zone;
    uint32_t t0, t1;      /* us */
    uint32_t ncalls;      /* call scopes of the zone entered between the frame's
                           * start and end events (file order) */
    size_t e0, e1;        /* indices of the start and end events */
} w15_frame_t;

typedef struct w15_instant {
    const char *name;
    uint32_t zone, t;
} w15_instant_t;

typedef struct w15_timeline {
    const w15_wtf_file_t *file;
    w15_scope_t *scopes;     /* in order of entry */
    size_t nscopes;
    w15_frame_t *frames;     /* complete frames of every zone, by start time */
    size_t nframes;
    w15_instant_t *instants; /* markers (time stamps, instance events not built in) */
    size_t ninstants;
} w15_timeline_t;

/* Build the timeline.  Returns 0, or -1 when out of memory. */
int w15_timeline_build(const w15_wtf_file_t *f, w15_timeline_t *tl);
void w15_timeline_free(w15_timeline_t *tl);

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
} w15_frame_stats_t;

/* Frame statistics over the frames of `zone` (0: the zone with the most
 * frames).  Returns 0, or -1 when out of memory. */
int w15_frame_stats(const w15_timeline_t *tl, uint32_t zone, w15_frame_stats_t *st);
/* Same, leaving the zone's first `skip` frames (in time order) out of the
 * frame statistics (warm-up: frame 0 holds the start-up work); the
 * per-function table still covers the whole file. */
int w15_frame_stats_skip(const w15_timeline_t *tl, uint32_t zone, size_t skip, w15_frame_stats_t *st);
void w15_frame_stats_free(w15_frame_stats_t *st);

/* Nearest-rank percentile of sorted v[0..n): the smallest value with at
 * least p % of the values at or below it.  n > 0. */
double w15_percentile(const double *sorted, size_t n, double p);

#endif
