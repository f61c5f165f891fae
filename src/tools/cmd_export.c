/* cmd_export.c -- `wip15 export --chrome OUT.json FILE`: a .wtf-trace or
 * .wtf-json (or every generation of a rotated capture) as Chrome trace-event
 * JSON for Perfetto / chrome://tracing (mapping in docs/WTF.md "Chrome
 * export"). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "capture.h"
#include "wtf_analysis.h"
#include "wtf_reader.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: wip15 export --chrome OUT.json [--single] FILE.wtf-trace|FILE.wtf-json\n"
               "\n"
               "Writes the Chrome trace-event format (JSON object with \"traceEvents\"),\n"
               "which Perfetto (ui.perfetto.dev) and chrome://tracing open: one track per\n"
               "thread with its GL calls (args.call = the call's number in its thread) and\n"
               "debug groups, markers as instant events, a \"frames\" track per thread\n"
               "with one slice per frame, and the GPU time per frame (when the capture has\n"
               "it) on a track \"<thread> GPU\" of slices \"GPU frame N\".  OUT may be -\n"
               "(standard output).\n"
               "\n"
               "Given generation 0 of a rotated capture (X.wtf-trace with X.1.wtf-trace ...\n"
               "beside it), every generation goes into the one trace, on one timeline;\n"
               "--single reads only FILE.  A later generation named directly is read alone.\n");
}

#define FRAMES_TID 100000000L /* + the thread's tid: its frames track */
#define GPU_TID 200000000L    /* + the tid: a native_gpu zone's track */

static int is_gpu_zone(const w15_timeline_t *tl, uint32_t z)
{
    return z && z <= tl->nzones && tl->zone_type && tl->zone_type[z - 1] && strcmp(tl->zone_type[z - 1], "native_gpu") == 0;
}

/* Chrome thread id of zone z: the number before ':' in "<tid>:<name>", else
 * 1000000 + z; plus GPU_TID for a zone of type native_gpu (GPU time, named
 * "<tid>:<name> GPU": its own track, not the thread's). */
static long zone_tid(const w15_timeline_t *tl, uint32_t z)
{
    long gpu = is_gpu_zone(tl, z) ? GPU_TID : 0;
    if (z && z <= tl->nzones && tl->zone_name[z - 1]) {
        char *end;
        long t = strtol(tl->zone_name[z - 1], &end, 10);
        if (end != tl->zone_name[z - 1] && *end == ':' && t > 0 && t < FRAMES_TID)
            return t + gpu;
    }
    return 1000000 + (long)z + gpu;
}

static int emit(FILE *o, json_object *e, int *first)
{
    int r = fprintf(o, "%s\n%s", *first ? "" : ",",
                    json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    *first = 0;
    json_object_put(e);
    return r < 0 ? -1 : 0;
}

static json_object *ev(const char *ph, const char *name, const char *cat, long pid, long tid, uint64_t ts_us)
{
    json_object *e = json_object_new_object();
    json_object_object_add(e, "ph", json_object_new_string(ph));
    json_object_object_add(e, "name", json_object_new_string(name));
    if (cat)
        json_object_object_add(e, "cat", json_object_new_string(cat));
    json_object_object_add(e, "pid", json_object_new_int64(pid));
    json_object_object_add(e, "tid", json_object_new_int64(tid));
    json_object_object_add(e, "ts", json_object_new_int64((int64_t)ts_us));
    return e;
}

static json_object *meta(const char *what, long pid, long tid, const char *value)
{
    json_object *e = ev("M", what, NULL, pid, tid, 0);
    json_object *a = json_object_new_object();
    json_object_object_add(a, "name", json_object_new_string(value));
    json_object_object_add(e, "args", a);
    return e;
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {
        {"chrome", required_argument, 0, 'c'}, {"single", no_argument, 0, '1'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *out = NULL;
    int c, single = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'c') {
            out = optarg;
        } else if (c == '1') {
            single = 1;
        } else if (c == 'h') {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (!out || optind != argc - 1) {
        usage(stderr);
        return 2;
    }
    const char *path = argv[optind];
    w15_wtf_capture_t cap;
    w15_timeline_t tl;
    if (w15_tool_load_capture("export", path, single, &cap, &tl))
        return 1;
    const w15_wtf_file_t *f = cap.files[0];
    /* process: contextInfo.taskId / title from the file header */
    long pid = 1;
    const char *title = "wip15";
    json_object *hdr = f->header_json ? json_tokener_parse(f->header_json) : NULL, *ci, *x;
    if (hdr && json_object_object_get_ex(hdr, "contextInfo", &ci) && ci) {
        if (json_object_object_get_ex(ci, "taskId", &x) && x && atol(json_object_get_string(x)) > 0)
            pid = atol(json_object_get_string(x));
        if (json_object_object_get_ex(ci, "title", &x) && x && json_object_get_string(x)[0])
            title = json_object_get_string(x);
    }
    FILE *o = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
    if (!o) {
        fprintf(stderr, "wip15: export: cannot create %s: %m\n", out);
        json_object_put(hdr);
        w15_timeline_free(&tl);
        w15_wtf_capture_free(&cap);
        return 1;
    }
    int first = 1, bad = 0;
    errno = 0;
    char tb[64];
    snprintf(tb, sizeof tb, "%.3f", f->timebase);
    bad |= fprintf(o, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":\"wip15\",\"timebase_ms\":%s,\"generations\":[",
                   tb) < 0;
    for (size_t i = 0; i < cap.nfiles; i++)
        bad |= fprintf(o, "%s%u", i ? "," : "", cap.gen[i]) < 0;
    bad |= fprintf(o, "]},\"traceEvents\":[") < 0;
    bad |= emit(o, meta("process_name", pid, 0, title), &first);
    for (uint32_t z = 1; z <= tl.nzones; z++) {
        long tid = zone_tid(&tl, z);
        const char *zn = tl.zone_name[z - 1] ? tl.zone_name[z - 1] : "?";
        bad |= emit(o, meta("thread_name", pid, tid, zn), &first);
        int has_frames = 0;
        for (size_t i = 0; i < tl.nframes && !has_frames; i++)
            has_frames = tl.frames[i].zone == z;
        if (has_frames) {
            char nm[300];
            snprintf(nm, sizeof nm, "frames (%s)", zn);
            bad |= emit(o, meta("thread_name", pid, tid + FRAMES_TID, nm), &first);
        }
    }
    for (size_t i = 0; i < tl.nscopes && !bad; i++) {
        const w15_scope_t *s = &tl.scopes[i];
        char gnm[32];
        const char *name = s->name, *cat = s->kind == W15_SCOPE_CALL ? "gl" : "group";
        if (s->kind == W15_SCOPE_GPU_FRAME) {
            snprintf(gnm, sizeof gnm, "GPU frame %" PRId64, s->frame);
            name = gnm;
            cat = "gpu";
        }
        json_object *e = ev("X", name, cat, pid, zone_tid(&tl, s->zone), s->t0);
        json_object_object_add(e, "dur", json_object_new_int64((int64_t)(s->t1 - s->t0)));
        if (s->call >= 0 || s->frame >= 0 || !s->closed) {
            json_object *a = json_object_new_object();
            if (s->call >= 0)
                json_object_object_add(a, "call", json_object_new_int64(s->call));
            if (s->frame >= 0)
                json_object_object_add(a, "frame", json_object_new_int64(s->frame));
            if (!s->closed)
                json_object_object_add(a, "unclosed", json_object_new_boolean(1));
            json_object_object_add(e, "args", a);
        }
        bad |= emit(o, e, &first);
    }
    for (size_t i = 0; i < tl.ninstants && !bad; i++) {
        const w15_instant_t *m = &tl.instants[i];
        json_object *e = ev("i", m->name, "marker", pid, zone_tid(&tl, m->zone), m->t);
        json_object_object_add(e, "s", json_object_new_string("t"));
        bad |= emit(o, e, &first);
    }
    for (size_t i = 0; i < tl.nframes && !bad; i++) {
        const w15_frame_t *fr = &tl.frames[i];
        char nm[32];
        snprintf(nm, sizeof nm, "frame %u", fr->number);
        json_object *e = ev("X", nm, "frame", pid, zone_tid(&tl, fr->zone) + FRAMES_TID, fr->t0);
        json_object_object_add(e, "dur", json_object_new_int64((int64_t)(fr->t1 - fr->t0)));
        json_object *a = json_object_new_object();
        json_object_object_add(a, "frame", json_object_new_int64(fr->number));
        json_object_object_add(a, "calls", json_object_new_int64(fr->ncalls));
        if (fr->gpu_us >= 0) {
            char g[32];
            snprintf(g, sizeof g, "%" PRId64 ".%03d", fr->gpu_us / 1000, (int)(fr->gpu_us % 1000));
            json_object_object_add(a, "gpu_ms", json_object_new_double_s((double)fr->gpu_us / 1000.0, g));
        }
        json_object_object_add(e, "args", a);
        bad |= emit(o, e, &first);
    }
    bad |= fprintf(o, "\n]}\n") < 0;
    if (o != stdout && fclose(o) != 0)
        bad = 1;
    if (bad && o == stdout && errno == EPIPE) {
        clearerr(stdout); /* the reader closed the pipe: a quiet, normal end */
        bad = 0;
    } else if (bad) {
        fprintf(stderr, "wip15: export: write error on %s: %s\n", out, strerror(errno));
    }
    json_object_put(hdr);
    w15_timeline_free(&tl);
    w15_wtf_capture_free(&cap);
    return bad ? 1 : 0;
}
