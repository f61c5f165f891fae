/* cmd_trace.c -- `wip15 trace`: run a program with libwip15.so preloaded.
 * (Owned by the tracer module.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>
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
    "into its own file).  PROGRAM replaces this command in its process\n"
    "(exec): its exit status and the signals sent to it are its own, and at\n"
    "its exit it says where each trace went.\n"
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
    ".wtf-trace.\n";

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

/* The file execvp would run for `prog`: prog itself when it names a
 * path, else the first executable of that name in $PATH (or the
 * default path).  0 with the path in out, -1 when there is none. */
static int find_program(const char *prog, char *out, size_t n)
{
    if (strchr(prog, '/'))
        return snprintf(out, n, "%s", prog) < (int)n ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/bin:/usr/bin";
    for (const char *p = path;; p++) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (snprintf(out, n, "%.*s%s%s", (int)len, p, len ? "/" : "", prog) < (int)n &&
            access(out, X_OK) == 0)
            return 0;
        if (!e)
            return -1;
        p = e;
    }
}

/* Why the dynamic linker will not preload libwip15.so into the program
 * file `file` (NULL: it will, or it cannot be told): an ELF executable
 * without a program interpreter is statically linked; set-user-ID and
 * set-group-ID programs ignore LD_PRELOAD's paths.  A script (#!) runs
 * its interpreter, which is looked at when it is run. */
static const char *preload_blocker(const char *file)
{
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    if (st.st_mode & S_ISUID)
        return "set-user-ID";
    if ((st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP))
        return "set-group-ID";
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    /* ELF64 little-endian (the x86-64 and arm64 programs this tracer
     * sees): e_phoff at 32, e_phentsize and e_phnum at 54 and 56 */
    unsigned char eh[64], ph[56];
    const char *why = NULL;
    if (pread(fd, eh, sizeof eh, 0) == (ssize_t)sizeof eh && !memcmp(eh, "\177ELF", 4) && eh[4] == 2 &&
        eh[5] == 1) {
        uint64_t phoff = 0;
        for (int i = 7; i >= 0; i--)
            phoff = phoff << 8 | eh[32 + i];
        unsigned phentsize = eh[54] | eh[55] << 8, phnum = eh[56] | eh[57] << 8;
        int interp = 0, ok = phentsize >= sizeof ph;
        for (unsigned i = 0; ok && i < phnum && !interp; i++) {
            ok = pread(fd, ph, sizeof ph, (off_t)(phoff + (uint64_t)i * phentsize)) == (ssize_t)sizeof ph;
            interp = ok && ph[0] == 3 && !ph[1] && !ph[2] && !ph[3]; /* PT_INTERP */
        }
        if (ok && !interp)
            why = "statically linked";
    }
    close(fd);
    return why;
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
     * reports its trace, and the root process (this one, after the exec)
     * reads them at its exit */
    char file[PATH_MAX], sdir[PATH_MAX];
    sdir[0] = 0;
    const char *blocked = find_program(argv[optind], file, sizeof file) == 0 ? preload_blocker(file) : NULL;
    if (blocked) {
        fprintf(stderr, "wip15: libwip15.so cannot be loaded into %s (%s): it runs untraced; programs it "
                        "starts are traced, each saying where its trace went\n", argv[optind], blocked);
    } else {
        const char *where = status_dir_make(sdir, sizeof sdir);
        char root[64 + PATH_MAX];
        if (!sdir[0]) {
            fprintf(stderr, "wip15: trace: cannot make a status directory in %s (%s); each traced process "
                            "says where its trace went\n", where, strerror(errno));
        } else if (snprintf(root, sizeof root, "%ld %s", (long)getpid(), argv[optind]) >= (int)sizeof root) {
            status_dir_remove(sdir); /* a name too long to pass: each process reports itself */
            sdir[0] = 0;
        } else {
            setenv(W15_ENV_STATUS_DIR, sdir, 1);
            setenv(W15_ENV_ROOT, root, 1);
        }
    }
    fflush(NULL);
    execvp(argv[optind], argv + optind);
    fprintf(stderr, "wip15: trace: cannot run %s: %s\n", argv[optind], strerror(errno));
    status_dir_remove(sdir);
    return 127;
}
