/* stubs.c -- weak fallbacks for subcommands whose source file is not in the
 * tree (another module writes them).  A real cmd_NAME in cmd_NAME.c
 * overrides the weak one at link time, so `wip15` always links. */
#include <stdio.h>

#include "commands.h"

static int not_built(const char *name)
{
    fprintf(stderr, "wip15: %s is not built\n", name);
    return 1;
}

#define W15_STUB(fn, name)                                                    \
    __attribute__((weak)) int fn(int argc, char **argv)                     \
    {                                                                         \
        (void)argc;                                                           \
        (void)argv;                                                           \
        return not_built(name);                                               \
    }

W15_STUB(cmd_info, "info")
W15_STUB(cmd_dump, "dump")
W15_STUB(cmd_verify, "verify")
W15_STUB(cmd_stats, "stats")
W15_STUB(cmd_trace, "trace")
W15_STUB(cmd_frames, "frames")
W15_STUB(cmd_export, "export")
W15_STUB(cmd_wtf_json, "wtf-json")
