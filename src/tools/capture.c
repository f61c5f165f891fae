/* capture.c -- see capture.h. */
#include "capture.h"

#include <stdio.h>

int w15_tool_load_capture(const char *cmd, const char *path, int single, w15_wtf_capture_t *cap,
                          w15_timeline_t *tl)
{
    char err[512];
    if (w15_wtf_capture_read(path, W15_WTF_READ_LENIENT | (single ? W15_WTF_CAPTURE_SINGLE : 0), cap, err,
                             sizeof err) != W15_WTF_E_OK) {
        fprintf(stderr, "wip15: %s: %s\n", cmd, err);
        return 1;
    }
    for (size_t i = 0; i < cap->nwarnings; i++)
        fprintf(stderr, "wip15: %s: warning: %s\n", cmd, cap->warnings[i]);
    if (cap->named_gen)
        fprintf(stderr,
                "wip15: %s: note: %s is generation %u of a rotated capture: read alone (name generation 0 for "
                "the whole capture)\n",
                cmd, path, cap->named_gen);
    else if (cap->unread && single)
        fprintf(stderr, "wip15: %s: note: --single: %zu later generation file%s beside %s not read\n", cmd,
                cap->unread, cap->unread == 1 ? "" : "s", path);
    if (w15_timeline_build_capture(cap, tl) != 0) {
        fprintf(stderr, "wip15: %s: out of memory\n", cmd);
        w15_wtf_capture_free(cap);
        return 1;
    }
    return 0;
}
