/* main.c -- the `wip15` command: a table of subcommands, each in its own
 * cmd_<name>.c with its own usage text and options.
 *
 * Exit codes of every subcommand: 0 ok, 1 failure, 2 usage error.
 * Standard output: SIGPIPE is ignored; when the reader of a pipe goes away
 * (`wip15 dump big.wip15 | head`) the command stops writing and exits 0
 * without a message, like git.  Any other write error on standard output is
 * reported and makes the exit code 1.  (Not for `trace`: the program it
 * starts gets the SIGPIPE disposition `wip15` was given.)
 *
 * Built twice.  W15_FRONT: `wip15` itself, linked with libc alone, runs
 * `trace` in-process and hands every other command to `wip15-tool` (exec,
 * same arguments); a traced program then starts without loading the
 * libraries the other commands need (json-c, libpng, X11, ...), which is
 * most of the launcher's cost (docs/PERFORMANCE.md "Start-up").  Without
 * it: `wip15-tool`, every command.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#ifdef W15_FRONT
#include "locate.h"
#else
#include "out.h"
#endif

#ifndef WIP15_VERSION
#define WIP15_VERSION "unknown"
#endif

#ifdef W15_FRONT
#define TOOL(fn) NULL /* in wip15-tool */
#else
#define TOOL(fn) fn
#endif

typedef struct w15_command {
    const char *name;
    const char *synopsis;
    int (*fn)(int argc, char **argv);
} w15_command_t;

static const w15_command_t commands[] = {
    {"trace", "run a program and record its GL calls (and timing)", cmd_trace},
    {"info", "show a trace's header and totals", TOOL(cmd_info)},
    {"dump", "print every call of a trace, as text or JSON lines", TOOL(cmd_dump)},
    {"verify", "check that a trace is complete and well formed", TOOL(cmd_verify)},
    {"replay", "play a trace back (headless), frame checksums and snapshots", TOOL(cmd_replay)},
    {"stats", "count calls, frames, data and threads of a trace", TOOL(cmd_stats)},
    {"frames", "frame times, fps and time per GL function of a timing trace", TOOL(cmd_frames)},
    {"export", "write a timing trace as Chrome trace events (Perfetto)", TOOL(cmd_export)},
    {"wtf-json", "convert between .wtf-trace and .wtf-json", TOOL(cmd_wtf_json)},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: wip15 [--help | --version] <command> [<args>]\n"
               "\n"
               "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "   %-10s %s\n", commands[i].name, commands[i].synopsis);
    fprintf(f, "\n"
               "'wip15 <command> --help' (or 'wip15 help <command>') describes a command.\n"
               "Exit status: 0 ok, 1 failure, 2 usage error.\n");
}

static const w15_command_t *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

#ifdef W15_FRONT
/* Run wip15-tool with these arguments (argv[0] unchanged); returns only
 * when it cannot. */
static int run_tool(char **argv)
{
    char tool[PATH_MAX];
    if (w15t_locate("wip15-tool", WIP15_BUILD_ROOT, WIP15_TOOL_BUILD, WIP15_LIBDIR_INSTALL, tool, sizeof tool)) {
        fprintf(stderr, "wip15: wip15-tool, which runs every command but 'trace', was not found (looked beside "
                        "this program, in ../lib/wip15 next to it and in %s)\n", WIP15_LIBDIR_INSTALL);
        return 1;
    }
    execv(tool, argv);
    fprintf(stderr, "wip15: cannot run %s: %s\n", tool, strerror(errno));
    return 1;
}

static int finish_output(void)
{
    return fflush(stdout) != 0 || ferror(stdout);
}
#else
/* Flush both output paths (our buffer and stdio).  A closed pipe is a quiet,
 * normal end; other errors are reported.  Returns 0 or 1. */
static int finish_output(void)
{
    int rc = w15t_out_finish();
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno != EPIPE) {
            fprintf(stderr, "wip15: write error on standard output: %s\n",
                    errno ? strerror(errno) : "unknown error");
            rc = 1;
        }
    }
    errno = 0;
    if (fclose(stdout) != 0 && errno != EPIPE && errno != EBADF && rc == 0) {
        fprintf(stderr, "wip15: write error on standard output: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "trace") != 0)
        signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *a = argv[1];
    int rc;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 ||
        (strcmp(a, "help") == 0 && argc == 2)) {
        usage(stdout);
        rc = 0;
    } else if (strcmp(a, "--version") == 0 || strcmp(a, "version") == 0) {
        printf("wip15 %s\n", WIP15_VERSION);
        rc = 0;
    } else if (strcmp(a, "help") == 0) {
        const w15_command_t *c = find(argv[2]);
        if (!c) {
            fprintf(stderr, "wip15: '%s' is not a wip15 command. See 'wip15 --help'.\n", argv[2]);
            return 2;
        }
#ifdef W15_FRONT
        if (!c->fn)
            return run_tool(argv);
#endif
        char *hargv[] = {(char *)c->name, (char *)"--help", NULL};
        rc = c->fn(2, hargv);
    } else if (a[0] == '-') {
        fprintf(stderr, "wip15: unknown option '%s'\n", a);
        usage(stderr);
        return 2;
    } else {
        const w15_command_t *c = find(a);
        if (!c) {
            fprintf(stderr, "wip15: '%s' is not a wip15 command. See 'wip15 --help'.\n", a);
            return 2;
        }
#ifdef W15_FRONT
        if (!c->fn)
            return run_tool(argv);
#endif
        rc = c->fn(argc - 1, argv + 1);
    }
    int orc = finish_output();
    return rc ? rc : orc;
}
