/* cmd_trace.c -- `wip15 trace`: run a program with libwip15.so preloaded.
 * (Owned by the tracer module.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commands.h"
#include "locate.h"
#include "wip15/trace_env.h"

#ifndef WIP15_LIBDIR_BUILD
#define WIP15_LIBDIR_BUILD ""
#endif
#ifndef WIP15_BUILD_ROOT
#define WIP15_BUILD_ROOT ""
#endif
#ifndef WIP15_LIBDIR_INSTALL
#define WIP15_LIBDIR_INSTALL "/usr/local/lib/wip15"
#endif

static const char usage_text[] =
    "usage: wip15 trace [options] [--] PROGRAM [ARGS...]\n"
    "\n"
    "Run PROGRAM with the tracer (libwip15.so) preloaded and record every\n"
    "GL/GLES/GLX/EGL call into a WIP15 trace, and frame timing into a\n"
    ".wtf-trace file beside it.  Programs it starts are traced too (each\n"
    "into its own file).  Exits with PROGRAM's exit status (128+N when it\n"
    "was killed by signal N).\n"
    "\n"
    "options (each sets the environment variable in brackets):\n"
    "  -o, --output FILE      trace file [" W15_ENV_OUTPUT "]; default PROGRAM.wip15 in\n"
    "                         the working directory.  An existing file is never\n"
    "                         overwritten: NAME.1.wip15, NAME.2.wip15, ... are used\n"
    "      --compression M    blob compression: lz4, zlib, none (default: none\n"
    "                         inside a zstd stream, else lz4)\n"
    "                         [" W15_ENV_COMPRESSION "]\n"
    "      --stream M         whole-file compression: zstd (default; level -4),\n"
    "                         zstd:LEVEL (-7..19, not 0), lz4 or none; with zstd\n"
    "                         blobs are stored raw unless --compression is given\n"
    "                         [" W15_ENV_STREAM "]\n"
    "      --frames A-B       record only frames A..B (from 0; 'A-' = to the end,\n"
    "                         'A' = one frame); frame N = the calls after the Nth\n"
    "                         frame-ending call, up to and including the next one\n"
    "                         [" W15_ENV_FRAMES "]\n"
    "      --max-size N       stop recording once the trace file exceeds N bytes\n"
    "                         (suffixes k, M, G) [" W15_ENV_MAX_SIZE "]\n"
    "      --timing LEVEL     timing in the .wtf-trace: off, frames (default),\n"
    "                         draws, all [" W15_ENV_TIMING "]\n"
    "      --gpu on|off       per-frame GPU time from GL timer queries in the\n"
    "                         .wtf-trace (default off) [" W15_ENV_GPU "]\n"
    "      --readback-data    keep the bytes the program reads back (glReadPixels,\n"
    "                         glGetTexImage, glGetBufferSubData...) besides their\n"
    "                         size and XXH3-64 digest, which are always recorded\n"
    "                         [" W15_ENV_READBACK_DATA "=on]\n"
    "      --frame-digests[=N]  before each swap, record an XXH3-64 digest of the\n"
    "                         buffer it shows (wip15FrameDigest; costs a read of\n"
    "                         the whole buffer per frame); with N, before the\n"
    "                         swap of every N-th frame only (frames 0, N, 2N, ...)\n"
    "                         [" W15_ENV_FRAME_DIGESTS "=on|N]\n"
    "  -q, --quiet            no informational messages from the tracer\n"
    "                         [" W15_ENV_QUIET "]\n"
    "  -h, --help             this text\n"
    "\n"
    "The trace is FILE; the timing file is FILE with .wip15 replaced by\n"
    ".wtf-trace.  SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to PROGRAM.\n";

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

static int one_of(const char *v, const char *const *set)
{
    for (; *set; set++)
        if (!strcmp(v, *set))
            return 1;
    return 0;
}

static int valid_frames(const char *s)
{
    char *end;
    long long a = strtoll(s, &end, 10);
    if (end == s || a < 0)
        return 0;
    if (!*end)
        return 1;
    if (*end != '-')
        return 0;
    s = end + 1;
    if (!*s)
        return 1;
    long long b = strtoll(s, &end, 10);
    return end != s && !*end && b >= a;
}

static int valid_size(const char *s)
{
    char *end;
    strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end && strchr("kKmMgG", *end))
        end++;
    return !*end;
}

/* ---- the status directory (wip15/trace_env.h) ---- */

/* Print each trace the status file names, as written or as INCOMPLETE;
 * the number of traces.  *failed: a process's tracer could not start. */
static int status_report(const char *dir, int *failed)
{
    char f[PATH_MAX + 16];
    snprintf(f, sizeof f, "%s/" W15_STATUS_TRACES, dir);
    FILE *in = fopen(f, "re");
    if (!in)
        return 0;
    char **lines = NULL;
    size_t nlines = 0, cap = 0, n = 0;
    char *line = NULL;
    ssize_t len;
    while ((len = getline(&line, &n, in)) > 0) {
        if (line[len - 1] == W15_STATUS_EOL[0])
            line[--len] = 0;
        if (!len)
            continue;
        if (nlines == cap) {
            char **nl = realloc(lines, (cap = cap ? cap * 2 : 16) * sizeof *nl);
            if (!nl)
                break;
            lines = nl;
        }
        if (!(lines[nlines] = strdup(line)))
            break;
        nlines++;
    }
    free(line);
    fclose(in);
    /* one line per trace, "!PATH<TAB>REASON" for an incomplete one, "?"
     * for a process whose tracer could not start */
    const size_t il = sizeof W15_STATUS_INCOMPLETE - 1;
    int ntraces = 0;
    for (size_t i = 0; i < nlines; i++) {
        if (!strcmp(lines[i], W15_STATUS_FAILED)) {
            *failed = 1;
            continue;
        }
        if (!strncmp(lines[i], W15_STATUS_INCOMPLETE, il))
            continue;
        const char *why = NULL;
        size_t pl = strlen(lines[i]);
        for (size_t j = i + 1; j < nlines && !why; j++)
            if (!strncmp(lines[j], W15_STATUS_INCOMPLETE, il) && !strncmp(lines[j] + il, lines[i], pl) &&
                lines[j][il + pl] == '\t')
                why = lines[j] + il + pl + 1;
        if (why)
            fprintf(stderr, "wip15: trace %s is INCOMPLETE: %s; it holds what was recorded before\n", lines[i],
                    why);
        else
            fprintf(stderr, "wip15: trace written to %s\n", lines[i]);
        ntraces++;
    }
    for (size_t i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    return ntraces;
}

/* 1: the library was loaded into some process; 0: never; -1: unknown. */
static int status_loaded(const char *dir)
{
    char f[PATH_MAX + 16];
    struct stat ls;
    snprintf(f, sizeof f, "%s/" W15_STATUS_LOADED, dir);
    if (stat(f, &ls) != 0)
        return -1;
    return ls.st_size > 0;
}

/* Make the status directory (in sdir, "" when none could be made): in
 * $TMPDIR when it is set, else in memory where the system has it
 * ($XDG_RUNTIME_DIR, /dev/shm: creating and removing the directory and its
 * two files cost ~0.2 ms on ext4 against ~0.03 ms on tmpfs, per traced
 * program), else in /tmp.  Returns the last place tried. */
static const char *status_dir_make(char *sdir, size_t n)
{
    const char *tmp = getenv("TMPDIR"), *run = getenv("XDG_RUNTIME_DIR");
    const char *places[3];
    int np = 0;
    if (tmp && *tmp == '/') {
        places[np++] = tmp;
    } else {
        if (run && *run == '/')
            places[np++] = run;
        places[np++] = "/dev/shm";
        places[np++] = "/tmp";
    }
    const char *where = places[0];
    for (int i = 0; i < np; i++) {
        where = places[i];
        if (snprintf(sdir, n, "%s/wip15-XXXXXX", where) < (int)n && mkdtemp(sdir))
            return where;
    }
    sdir[0] = 0;
    return where;
}

static void status_dir_remove(const char *dir)
{
    if (!dir[0])
        return;
    char f[PATH_MAX + 16];
    snprintf(f, sizeof f, "%s/" W15_STATUS_LOADED, dir);
    unlink(f);
    snprintf(f, sizeof f, "%s/" W15_STATUS_TRACES, dir);
    unlink(f);
    rmdir(dir);
}

int cmd_trace(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "output", required_argument, NULL, 'o' },
        { "compression", required_argument, NULL, 'c' },
        { "stream", required_argument, NULL, 's' },
        { "frames", required_argument, NULL, 'f' },
        { "max-size", required_argument, NULL, 'm' },
        { "timing", required_argument, NULL, 't' },
        { "gpu", required_argument, NULL, 'g' },
        { "readback-data", no_argument, NULL, 'R' },
        { "frame-digests", optional_argument, NULL, 'D' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const comps[] = { "lz4", "zlib", "none", NULL };
    static const char *const streams[] = { "lz4", "zstd", "none", NULL };
    static const char *const timings[] = { "off", "frames", "draws", "all", NULL };
    static const char *const onoff[] = { "on", "off", NULL };
    const char *output = NULL, *comp = NULL, *stream = NULL, *frames = NULL, *maxsize = NULL,
               *timing = NULL, *gpu = NULL;
    int readback = 0;
    int quiet = 0, c;
    const char *digests = NULL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "+o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case 'c': comp = optarg; break;
        case 's': stream = optarg; break;
        case 'f': frames = optarg; break;
        case 'm': maxsize = optarg; break;
        case 't': timing = optarg; break;
        case 'g': gpu = optarg; break;
        case 'R': readback = 1; break;
        case 'D': {
            char *end = NULL;
            long n = optarg ? strtol(optarg, &end, 10) : 1;
            if (optarg && (!*optarg || *end || n < 1 || n > 1000000000L)) {
                fprintf(stderr, "wip15: trace: --frame-digests=%s: expected a number of frames from 1 "
                                "to 1000000000\n", optarg);
                return 2;
            }
            digests = optarg ? optarg : "on";
            break;
        }
        case 'q': quiet = 1; break;
        case 'h': fputs(usage_text, stdout); return 0;
        default:
            fprintf(stderr, "wip15: trace: unknown option or missing value: %s\n", argv[optind - 1]);
            fputs(usage_text, stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "wip15: trace: no program given\n");
        fputs(usage_text, stderr);
        return 2;
    }
    if (comp && !one_of(comp, comps)) {
        fprintf(stderr, "wip15: trace: --compression %s: expected lz4, zlib or none\n", comp);
        return 2;
    }
    int zl;
    int zstd_ok = stream && !strncmp(stream, "zstd:", 5) && w15_zstd_level_parse(stream + 5, &zl) == 0;
    if (stream && !one_of(stream, streams) && !zstd_ok) {
        fprintf(stderr, "wip15: trace: --stream %s: expected lz4, zstd, zstd:LEVEL (-7..19, not 0) or none\n", stream);
        return 2;
    }
    if (timing && !one_of(timing, timings)) {
        fprintf(stderr, "wip15: trace: --timing %s: expected off, frames, draws or all\n", timing);
        return 2;
    }
    if (gpu && !one_of(gpu, onoff)) {
        fprintf(stderr, "wip15: trace: --gpu %s: expected on or off\n", gpu);
        return 2;
    }
    if (frames && !valid_frames(frames)) {
        fprintf(stderr, "wip15: trace: --frames %s: expected A-B, A- or A\n", frames);
        return 2;
    }
    if (maxsize && !valid_size(maxsize)) {
        fprintf(stderr, "wip15: trace: --max-size %s: expected a byte count (suffix k, M or G)\n", maxsize);
        return 2;
    }
    /* libwip15.so: the build tree's when this program runs from it, else
     * beside this program as installed, else where it was to be installed
     * (locate.h) */
    char lib[PATH_MAX];
    if (w15t_locate("libwip15.so", WIP15_BUILD_ROOT, WIP15_LIBDIR_BUILD, WIP15_LIBDIR_INSTALL, lib, sizeof lib)) {
        fprintf(stderr,
                "wip15: trace: libwip15.so not found (looked in the build tree %s, in ../lib/wip15 "
                "next to this program and in %s)\n",
                WIP15_LIBDIR_BUILD, WIP15_LIBDIR_INSTALL);
        return 1;
    }

    /* environment for the child */
    const char *old = getenv("LD_PRELOAD");
#ifdef W15_ASAN_RUNTIME
    /* a sanitizer build: its libwip15.so needs the ASan runtime, loaded first */
    const char *first = W15_ASAN_RUNTIME ":";
#else
    const char *first = "";
#endif
    size_t need = strlen(first) + strlen(lib) + (old ? strlen(old) + 2 : 1);
    char *preload = malloc(need);
    if (!preload) {
        fprintf(stderr, "wip15: trace: out of memory\n");
        return 1;
    }
    snprintf(preload, need, "%s%s%s%s", first, lib, old && *old ? ":" : "", old ? old : "");
    setenv("LD_PRELOAD", preload, 1);
    free(preload);
    if (output) setenv(W15_ENV_OUTPUT, output, 1);
    if (comp) setenv(W15_ENV_COMPRESSION, comp, 1);
    if (stream) setenv(W15_ENV_STREAM, stream, 1);
    if (frames) setenv(W15_ENV_FRAMES, frames, 1);
    if (maxsize) setenv(W15_ENV_MAX_SIZE, maxsize, 1);
    if (timing) setenv(W15_ENV_TIMING, timing, 1);
    if (gpu) setenv(W15_ENV_GPU, gpu, 1);
    if (digests) setenv(W15_ENV_FRAME_DIGESTS, digests, 1);
    if (readback) setenv(W15_ENV_READBACK_DATA, "on", 1);
    if (quiet) setenv(W15_ENV_QUIET, "1", 1);
    /* the status directory (wip15/trace_env.h): where each traced process
     * says it was loaded and reports its trace */
    char sdir[PATH_MAX];
    const char *where = status_dir_make(sdir, sizeof sdir);
    if (sdir[0]) {
        char f[PATH_MAX + 16];
        snprintf(f, sizeof f, "%s/" W15_STATUS_LOADED, sdir);
        int fd = open(f, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            close(fd);
            setenv(W15_ENV_STATUS_DIR, sdir, 1); /* the tracer prints "tracing to" itself; we, the summary */
        } else {
            rmdir(sdir);
            sdir[0] = 0;
        }
    } else {
        fprintf(stderr, "wip15: trace: cannot make a status directory in %s (%s); each traced process says "
                        "where its trace went\n", where, strerror(errno));
    }

    /* The signals that ask a program to end go to the program.  The
     * program starts with the signal state `wip15` was given: the child
     * puts these back before the exec, and main.c leaves SIGPIPE alone for
     * `trace`.  (Not posix_spawn: glibc's leaves its internal signals 32
     * and 33 ignored across the exec; a fork of this small program costs no
     * more, docs/PERFORMANCE.md "Start-up".) */
    static const int fwd[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    enum { NFWD = sizeof fwd / sizeof fwd[0] };
    struct sigaction sa, fwd_old[NFWD];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int i = 0; i < NFWD; i++)
        sigaction(fwd[i], &sa, &fwd_old[i]);

    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "wip15: trace: fork failed: %s\n", strerror(errno));
        status_dir_remove(sdir);
        return 1;
    }
    if (pid == 0) {
        for (int i = 0; i < NFWD; i++)
            sigaction(fwd[i], &fwd_old[i], NULL);
        execvp(argv[optind], argv + optind);
        fprintf(stderr, "wip15: trace: cannot run %s: %s\n", argv[optind], strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    child_pid = 0;
    for (int i = 0; i < NFWD; i++)
        sigaction(fwd[i], &fwd_old[i], NULL);

    int failed = 0, ntraces = sdir[0] ? status_report(sdir, &failed) : 0;
    int was_loaded = sdir[0] ? status_loaded(sdir) : -1; /* -1: unknown */
    status_dir_remove(sdir);
    int rc;
    if (WIFEXITED(st)) {
        rc = WEXITSTATUS(st);
        if (rc == 127 && !ntraces)
            return 127;
    } else if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        rc = 128 + sig;
        fprintf(stderr, "wip15: %s was killed by signal %d (%s)%s\n", argv[optind], sig, strsignal(sig),
                ntraces ? "; the trace holds everything up to then" : "");
    } else {
        rc = 1;
    }
    if (!ntraces && !quiet) {
        if (failed)
            fprintf(stderr, "wip15: no trace was written: the tracer could not start in %s (its message "
                            "above says why)\n", argv[optind]);
        else if (was_loaded == 1)
            fprintf(stderr, "wip15: no trace was written: %s made no GL call\n", argv[optind]);
        else if (was_loaded == 0)
            fprintf(stderr, "wip15: no trace was written: libwip15.so was never loaded into %s (a statically "
                            "linked or setuid program, or one that clears LD_PRELOAD)\n", argv[optind]);
        else
            fprintf(stderr, "wip15: no trace was written (%s made no GL calls, or the tracer could not start)\n",
                    argv[optind]);
    }
    return rc;
}
