/* main.c -- the `wip15` command: a table of subcommands, each in its own
 * cmd_<name>.c with its own usage text and options.
 *
 * Exit codes of every subcommand: 0 ok, 1 failure, 2 usage error.
 * Standard output: SIGPIPE is ignored; when the reader of a pipe goes away
 * (`wip15 dump big.wip15 | head`) the command stops writing and exits 0
 * without a message, like git.  Any other write error on standard output is
 * reported and makes the exit code 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "out.h"

#ifndef WIP15_VERSION
#define WIP15_VERSION "unknown"
#endif

typedef struct w15_command {
    const char *name;
    const char *synopsis;
    int (*fn)(int argc, char **argv);
} w15_command_t;

static const w15_command_t commands[] = {
    {"trace", "run a program and record its GL calls (and timing)", cmd_trace},
    {"info", "show a trace's header and totals", cmd_info},
    {"dump", "print every call of a trace, as text or JSON lines", cmd_dump},
    {"verify", "check that a trace is complete and well formed", cmd_verify},
    {"replay", "play a trace back (headless), frame checksums and snapshots", cmd_replay},
    {"stats", "count calls, frames, data and threads of a trace", cmd_stats},
    {"frames", "frame times, fps and time per GL function of a timing trace", cmd_frames},
    {"export", "write a timing trace as Chrome trace events (Perfetto)", cmd_export},
    {"wtf-json", "convert between .wtf-trace and .wtf-json", cmd_wtf_json},
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

int main(int argc, char **argv)
{
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
        rc = c->fn(argc - 1, argv + 1);
    }
    int orc = finish_output();
    return rc ? rc : orc;
}
