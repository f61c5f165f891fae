/* config.c -- the tracer's settings, read once from the environment
 * (config.h).  Each variable is documented in docs/USAGE.md ("Tracing")
 * and in `wip15 trace --help`. */
#include "config.h"
#include "log.h"

#include "wip15/format.h"
#include "wip15/trace_env.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

w15_config_t w15_cfg = {
    .output = NULL,
    .blob_method = W15_COMP_LZ4,
    .stream_lz4 = 0,
    .stream_zstd = 1, /* docs/PERFORMANCE.md "Choosing the stream compression" */
    .frame_first = 0,
    .frame_last = -1,
    .max_size = 0,
    .timing = W15_TIMING_FRAMES,
    .gpu = 0,
    .frame_digests = 0,
    .quiet = 0,
};

/* "123", "64k", "10M", "2G" (powers of 1024).  Returns 0 or -1. */
static int parse_size(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return -1;
    uint64_t mul = 1;
    switch (*end) {
    case 0: break;
    case 'k': case 'K': mul = 1ull << 10; end++; break;
    case 'm': case 'M': mul = 1ull << 20; end++; break;
    case 'g': case 'G': mul = 1ull << 30; end++; break;
    default: return -1;
    }
    if (*end == 'B' || *end == 'b' || (*end == 'i' && end[1] == 'B' && end++))
        end++;
    if (*end)
        return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

/* "A-B", "A-", "A" (frames A..B inclusive, frame 0 = calls before the
 * first frame end). */
static int parse_frames(const char *s, int64_t *a, int64_t *b)
{
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s || x < 0)
        return -1;
    if (*end == 0) {
        *a = *b = x;
        return 0;
    }
    if (*end != '-')
        return -1;
    s = end + 1;
    if (*s == 0) {
        *a = x;
        *b = -1;
        return 0;
    }
    long long y = strtoll(s, &end, 10);
    if (end == s || *end || y < x)
        return -1;
    *a = x;
    *b = y;
    return 0;
}

void w15_config_load(void)
{
    const char *v;
    if ((v = getenv(W15_ENV_STATUS_DIR)) && *v == '/') {
        w15_cfg.status_dir = strdup(v);
        w15_cfg.launched = 1;
        size_t dl = strlen(v);
        w15_cfg.status_traces = malloc(dl + sizeof "/" W15_STATUS_TRACES);
        if (w15_cfg.status_traces) {
            memcpy(w15_cfg.status_traces, v, dl);
            memcpy(w15_cfg.status_traces + dl, "/" W15_STATUS_TRACES, sizeof "/" W15_STATUS_TRACES);
        }
        /* "PID NAME": the process `wip15 trace` became, which reports */
        char *end;
        const char *r = getenv(W15_ENV_ROOT);
        long pid = r ? strtol(r, &end, 10) : 0;
        if (pid > 0 && *end == ' ' && end[1]) {
            w15_cfg.root_pid = (pid_t)pid;
            w15_cfg.root_name = strdup(end + 1);
        }
    }
    if ((v = getenv(W15_ENV_QUIET)) && *v && strcmp(v, "0") != 0)
        w15_cfg.quiet = w15_log_quiet = 1;
    if ((v = getenv(W15_ENV_OUTPUT)) && *v)
        w15_cfg.output = strdup(v);
    if ((v = getenv(W15_ENV_COMPRESSION)) && *v) {
        if (!strcasecmp(v, "lz4"))
            w15_cfg.blob_method = W15_COMP_LZ4;
        else if (!strcasecmp(v, "zlib"))
            w15_cfg.blob_method = W15_COMP_ZLIB;
        else if (!strcasecmp(v, "none"))
            w15_cfg.blob_method = W15_COMP_NONE;
        else
            w15_msg("%s=%s: expected lz4, zlib or none; using lz4", W15_ENV_COMPRESSION, v);
        w15_cfg.blob_method_set = 1;
    }
    if ((v = getenv(W15_ENV_STREAM)) && *v) {
        if (!strcasecmp(v, "lz4")) {
            w15_cfg.stream_lz4 = 1;
            w15_cfg.stream_zstd = 0;
        } else if (!strcasecmp(v, "none")) {
            w15_cfg.stream_lz4 = w15_cfg.stream_zstd = 0;
        } else if (!strncasecmp(v, "zstd", 4) &&
                   (!v[4] || (v[4] == ':' && w15_zstd_level_parse(v + 5, &w15_cfg.zstd_level) == 0))) {
            w15_cfg.stream_lz4 = 0;
            w15_cfg.stream_zstd = 1;
        } else {
            w15_msg("%s=%s: expected lz4, zstd, zstd:LEVEL (-7..19, not 0) or none; using %s", W15_ENV_STREAM, v,
                    w15_cfg.stream_zstd ? "zstd" : w15_cfg.stream_lz4 ? "lz4" : "none");
        }
    }
    if ((v = getenv(W15_ENV_FRAMES)) && *v &&
        parse_frames(v, &w15_cfg.frame_first, &w15_cfg.frame_last)) {
        w15_msg("%s=%s: expected A-B, A- or A (frame numbers from 0); recording all frames", W15_ENV_FRAMES, v);
        w15_cfg.frame_first = 0;
        w15_cfg.frame_last = -1;
    }
    if ((v = getenv(W15_ENV_MAX_SIZE)) && *v && parse_size(v, &w15_cfg.max_size)) {
        w15_msg("%s=%s: expected a byte count with an optional k, M or G suffix; no limit", W15_ENV_MAX_SIZE,
                v);
        w15_cfg.max_size = 0;
    }
    if ((v = getenv(W15_ENV_TIMING)) && *v) {
        if (!strcasecmp(v, "off"))
            w15_cfg.timing = W15_TIMING_OFF;
        else if (!strcasecmp(v, "frames"))
            w15_cfg.timing = W15_TIMING_FRAMES;
        else if (!strcasecmp(v, "draws"))
            w15_cfg.timing = W15_TIMING_DRAWS;
        else if (!strcasecmp(v, "all"))
            w15_cfg.timing = W15_TIMING_ALL;
        else
            w15_msg("%s=%s: expected off, frames, draws or all; using frames", W15_ENV_TIMING, v);
    }
    if ((v = getenv(W15_ENV_GPU)) && *v) {
        if (!strcasecmp(v, "on") || !strcmp(v, "1"))
            w15_cfg.gpu = 1;
        else if (!strcasecmp(v, "off") || !strcmp(v, "0"))
            w15_cfg.gpu = 0;
        else
            w15_msg("%s=%s: expected on or off; using off", W15_ENV_GPU, v);
    }
    if ((v = getenv(W15_ENV_READBACK_DATA)) && *v) {
        if (!strcasecmp(v, "on") || !strcmp(v, "1"))
            w15_cfg.readback_data = 1;
        else if (!strcasecmp(v, "off") || !strcmp(v, "0"))
            w15_cfg.readback_data = 0;
        else
            w15_msg("%s=%s: expected on or off; using off", W15_ENV_READBACK_DATA, v);
    }
    if ((v = getenv(W15_ENV_MAPS)) && *v) {
        if (!strcasecmp(v, "auto"))
            w15_cfg.maps_compare = 0;
        else if (!strcasecmp(v, "uffd"))
            w15_cfg.maps_uffd = 1;
        else if (!strcasecmp(v, "protect"))
            w15_cfg.maps_no_uffd = 1;
        else if (!strcasecmp(v, "compare"))
            w15_cfg.maps_compare = 1;
        else
            w15_msg("%s=%s: expected auto, uffd, protect or compare; using auto", W15_ENV_MAPS, v);
    }
    /* zstd workers: 2 where there is a second CPU (docs/USAGE.md) */
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    w15_cfg.workers = ncpu >= 2 ? W15_WORKERS_AUTO : 0;
    if ((v = getenv(W15_ENV_WORKERS)) && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!strcasecmp(v, "auto"))
            ;
        else if (end != v && !*end && n >= 0 && n <= W15_WORKERS_MAX)
            w15_cfg.workers = (int)n;
        else
            w15_msg("%s=%s: expected auto or 0 to %d; using auto", W15_ENV_WORKERS, v, W15_WORKERS_MAX);
    }
    if ((v = getenv(W15_ENV_FRAME_READ)) && *v) {
        if (!strcasecmp(v, "readback"))
            w15_cfg.frame_readback = 1;
        else if (strcasecmp(v, "auto"))
            w15_msg("%s=%s: expected auto or readback; using auto", W15_ENV_FRAME_READ, v);
    }
    if ((v = getenv(W15_ENV_FRAME_DIGESTS)) && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (!strcasecmp(v, "on"))
            w15_cfg.frame_digests = 1;
        else if (!strcasecmp(v, "off"))
            w15_cfg.frame_digests = 0;
        else if (!*end && n >= 0 && n <= 1000000000L)
            w15_cfg.frame_digests = (uint32_t)n; /* every n-th frame; 0 off */
        else
            w15_msg("%s=%s: expected on, off or a number of frames; using off", W15_ENV_FRAME_DIGESTS, v);
    }
}
