/* test_chrome_json.c -- checks a `wip15 export --chrome` file with json-c:
 * an object with a "traceEvents" array whose events have the fields Chrome's
 * trace viewer and Perfetto need.
 *
 *   test_chrome_json FILE.json CALLS FRAMES THREADS
 * CALLS: expected "X" events of category "gl"; FRAMES: "X" events of
 * category "frame"; THREADS: thread_name metadata events for threads (the
 * frames tracks not counted).  Exit 0 when all holds. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MAX_FAILURES 20
#include "check.h"

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_chrome_json FILE CALLS FRAMES THREADS\n");
        return 2;
    }
    json_object *root = json_object_from_file(argv[1]);
    CHECKF(root && json_object_is_type(root, json_type_object), "%s is not a JSON object", argv[1]);
    if (!root)
        return 1;
    json_object *evs = get(root, "traceEvents");
    CHECKF(evs && json_object_is_type(evs, json_type_array), "no traceEvents array");
    if (!evs)
        return 1;
    long calls = 0, frames = 0, threads = 0, procs = 0;
    size_t n = json_object_array_length(evs);
    for (size_t i = 0; i < n; i++) {
        json_object *e = json_object_array_get_idx(evs, i);
        json_object *ph = get(e, "ph"), *name = get(e, "name"), *pid = get(e, "pid"), *tid = get(e, "tid"), *ts = get(e, "ts");
        CHECKF(ph && json_object_is_type(ph, json_type_string), "event %zu: ph", i);
        CHECKF(name && json_object_is_type(name, json_type_string), "event %zu: name", i);
        CHECKF(pid && json_object_is_type(pid, json_type_int), "event %zu: pid", i);
        CHECKF(tid && json_object_is_type(tid, json_type_int), "event %zu: tid", i);
        CHECKF(ts && json_object_is_type(ts, json_type_int) && json_object_get_int64(ts) >= 0, "event %zu: ts", i);
        if (!ph || !name)
            continue;
        const char *p = json_object_get_string(ph), *nm = json_object_get_string(name);
        if (strcmp(p, "X") == 0) {
            json_object *dur = get(e, "dur"), *cat = get(e, "cat");
            CHECKF(dur && json_object_is_type(dur, json_type_int) && json_object_get_int64(dur) >= 0, "event %zu: dur", i);
            CHECKF(cat && json_object_is_type(cat, json_type_string), "event %zu: cat", i);
            if (!cat)
                continue;
            if (strcmp(json_object_get_string(cat), "gl") == 0) {
                json_object *a = get(e, "args"), *c = a ? get(a, "call") : NULL;
                CHECKF(c && json_object_is_type(c, json_type_int), "gl event %zu without args.call", i);
                calls++;
            } else if (strcmp(json_object_get_string(cat), "frame") == 0) {
                frames++;
            }
        } else if (strcmp(p, "M") == 0) {
            json_object *a = get(e, "args"), *an = a ? get(a, "name") : NULL;
            CHECKF(an && json_object_is_type(an, json_type_string), "metadata %zu without args.name", i);
            if (strcmp(nm, "thread_name") == 0 && an && strncmp(json_object_get_string(an), "frames (", 8) != 0)
                threads++;
            procs += strcmp(nm, "process_name") == 0;
        } else {
            CHECKF(strcmp(p, "i") == 0 || strcmp(p, "B") == 0 || strcmp(p, "E") == 0, "event %zu: unexpected ph %s", i, p);
        }
    }
    CHECKF(calls == atol(argv[2]), "gl events %ld != %s", calls, argv[2]);
    CHECKF(frames == atol(argv[3]), "frame events %ld != %s", frames, argv[3]);
    CHECKF(threads == atol(argv[4]), "threads %ld != %s", threads, argv[4]);
    CHECKF(procs == 1, "process_name events %ld", procs);
    json_object_put(root);
    if (!check_failed)
        printf("ok: %zu events\n", n);
    return check_failed ? 1 : 0;
}
