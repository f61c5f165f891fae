/* config.h -- the tracer's settings.  Owns w15_cfg, read once from the
 * environment (WIP15_*, docs/USAGE.md "Tracing") by the library
 * constructor, and the build's version string.  May use log.  Must never
 * use any other module of src/tracer: settings are read before anything
 * starts, and every module may read them. */
#ifndef W15_CONFIG_H
#define W15_CONFIG_H

#include <stdint.h>
#include <sys/types.h>

#ifndef W15_TRACER_VERSION
#define W15_TRACER_VERSION "0.1.0" /* normally PROJECT_VERSION, from CMake */
#endif

enum w15_timing_level { W15_TIMING_OFF = 0, W15_TIMING_FRAMES, W15_TIMING_DRAWS, W15_TIMING_ALL };

#define W15_WORKERS_AUTO 2
#define W15_WORKERS_MAX 8

typedef struct w15_config {
    char *output;           /* WIP15_OUTPUT or NULL (default name) */
    int blob_method;        /* w15_comp_t */
    int stream_lz4;
    int stream_zstd;        /* WIP15_STREAM=zstd[:LEVEL] (then stream_lz4 is 0) */
    int zstd_level;         /* its LEVEL; 0: the writer's default */
    int blob_method_set;    /* WIP15_COMPRESSION was given */
    int64_t frame_first;    /* WIP15_FRAMES: first recorded frame (0 = from the start) */
    int64_t frame_last;     /* last recorded frame, -1 = no end */
    uint64_t max_size;      /* 0 = unlimited */
    int timing;             /* enum w15_timing_level */
    int gpu;                /* WIP15_GPU: per-frame GPU time with timer queries (timing on; default off) */
    uint32_t frame_digests; /* WIP15_FRAME_DIGESTS: wip15FrameDigest before the swap of
                             * every frame_digests-th frame (frames 0, N, 2N, ...);
                             * 0 off (the default), 1 every frame ("on") */
    int quiet;
    int maps_compare;       /* WIP15_MAPS=compare: persistent maps compared whole, no page protection */
    int maps_no_uffd;       /* WIP15_MAPS=protect: page protection only, not the kernel's
                             * write tracking (userfaultfd, maps.c) even where it exists */
    int maps_uffd;          /* WIP15_MAPS=uffd: asked for by name (say so when missing) */
    int frame_readback;     /* WIP15_FRAME_READ=readback: frame digests always read back, never
                             * taken from the image a software driver shows (present.h) */
    int readback_data;      /* WIP15_READBACK_DATA: read-back bytes kept besides their digest (default off) */
    int workers;            /* WIP15_WORKERS: zstd threads while the program waits on the output
                             * thread (output.c); default W15_WORKERS_AUTO with 2+ CPUs, else 0 */
    char *status_dir;       /* WIP15_STATUS_DIR (set by `wip15 trace`), NULL */
    char *status_traces;    /* its W15_STATUS_TRACES file, NULL (made here: no snprintf in a signal handler) */
    int launched;           /* started by `wip15 trace` (the root process prints the summary) */
    pid_t root_pid;         /* WIP15_ROOT: that process, 0 when not known */
    char *root_name;        /* and the program's name as the user gave it */
} w15_config_t;

extern w15_config_t w15_cfg;

/* Read the environment into w15_cfg (once, from the library constructor).
 * Bad values give one warning each and the default. */
void w15_config_load(void);

#endif
