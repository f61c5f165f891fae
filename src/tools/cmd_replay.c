/* cmd_replay.c -- `wip15 replay`: play a trace back (src/replay/, the
 * library does the work; this file only reads the options). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "replay.h"

static const char replay_usage[] =
    "usage: wip15 replay [OPTIONS] FILE.wip15\n"
    "\n"
    "Play a trace back: every recorded GL, GLES, GLX and EGL call is made again,\n"
    "headless on EGL (Mesa's surfaceless platform) unless --window is given.\n"
    "Calls that cannot replay are skipped with one warning per function.\n"
    "\n"
    "Options:\n"
    "  --checksums              print \"frame N <hex>\" per frame: a digest of the\n"
    "                           frame's RGBA pixels, read before its swap\n"
    "  --checksum-format F      xxh3 (default, 16 hex digits) or md5 (the MD5 of\n"
    "                           the pixel bytes, rows top to bottom)\n"
    "  --snapshot FRAMES        write frames as PNG: N, A-B, A-, last, comma-separated\n"
    "  --snapshot-dir DIR       where the PNG files go (default .): DIR/frameN.png\n"
    "  --frames A-B             present and check only frames A..B (all are replayed)\n"
    "  --check                  compare what the program read back (readback and\n"
    "                           frame digests) and its glGetError values with the\n"
    "                           replay's; last line \"checked N readbacks, M frames,\n"
    "                           E error values: K mismatches\"; exit 1 on a mismatch\n"
    "  --benchmark              no checksums, snapshots or per-call output; print\n"
    "                           calls/s and frames/s\n"
    "  --timing [LEVEL]         write a .wtf-trace of the replay: frames, draws\n"
    "                           (default) or all calls timed on the CPU, and the GPU\n"
    "                           time of each draw, dispatch, clear and blit\n"
    "  --timing-output PATH     its file (default FILE.replay.wtf-trace, replaced)\n"
    "  --order gseq|file        across threads: the recorded order of synchronising\n"
    "                           calls (default), or the file's (for tests)\n"
    "  --window                 replay windows as X windows on $DISPLAY (GLX and EGL):\n"
    "                           front buffers as the program had them\n"
    "  --strict                 a call that cannot replay is an error\n"
    "  --progress-after S       progress on stderr once the replay has run S\n"
    "                           seconds (default 2; 0: from the start)\n"
    "  -q, --quiet              no warnings, no progress\n"
    "  -h, --help               show this help\n"
    "\n"
    "Exit status: 0 the replay reached the end of the trace (or the last complete\n"
    "call of a truncated one), 1 an error (corrupt trace, no GL, --strict) or a\n"
    "--check mismatch, 2 usage.\n";

int cmd_replay(int argc, char **argv)
{
    enum {
        O_CHECKSUMS = 256, O_FORMAT, O_SNAPSHOT, O_SNAPDIR, O_FRAMES, O_BENCH, O_WINDOW, O_STRICT, O_CHECK,
        O_TIMING, O_TIMING_OUT, O_ORDER, O_PROGRESS
    };
    static const struct option longopts[] = {
        {"checksums", no_argument, NULL, O_CHECKSUMS},
        {"checksum-format", required_argument, NULL, O_FORMAT},
        {"snapshot", required_argument, NULL, O_SNAPSHOT},
        {"snapshot-dir", required_argument, NULL, O_SNAPDIR},
        {"frames", required_argument, NULL, O_FRAMES},
        {"benchmark", no_argument, NULL, O_BENCH},
        {"window", no_argument, NULL, O_WINDOW},
        {"strict", no_argument, NULL, O_STRICT},
        {"check", no_argument, NULL, O_CHECK},
        {"timing", optional_argument, NULL, O_TIMING},
        {"timing-output", required_argument, NULL, O_TIMING_OUT},
        {"order", required_argument, NULL, O_ORDER},
        {"progress-after", required_argument, NULL, O_PROGRESS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    rp_opts_t o;
    rp_opts_default(&o);
    int snapshot = 0, snapdir = 0;
    char err[256];
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
        switch (c) {
        case O_CHECKSUMS: o.checksums = 1; break;
        case O_FORMAT:
            if (strcmp(optarg, "md5") == 0)
                o.digest = RP_DIGEST_MD5;
            else if (strcmp(optarg, "xxh3") == 0)
                o.digest = RP_DIGEST_XXH3;
            else {
                fprintf(stderr, "wip15 replay: --checksum-format: xxh3 or md5, not '%s'\n", optarg);
                return 2;
            }
            break;
        case O_SNAPSHOT:
            if (rp_frameset_parse(&o.snapshots, optarg, err)) {
                fprintf(stderr, "wip15 replay: --snapshot: %s\n", err);
                return 2;
            }
            snapshot = 1;
            break;
        case O_SNAPDIR: o.snapshot_dir = optarg; snapdir = 1; break;
        case O_FRAMES:
            if (w15t_parse_range(optarg, &o.first, &o.last)) {
                fprintf(stderr, "wip15 replay: --frames: expected A-B, A-, -B or N, not '%s'\n", optarg);
                return 2;
            }
            break;
        case O_BENCH: o.benchmark = 1; break;
        case O_WINDOW: o.window = 1; break;
        case O_STRICT: o.strict = 1; break;
        case O_CHECK: o.check = 1; break;
        case O_TIMING: {
            /* --timing, --timing=LEVEL or --timing LEVEL */
            const char *lv = optarg;
            if (!lv && optind < argc && (strcmp(argv[optind], "frames") == 0 ||
                                         strcmp(argv[optind], "draws") == 0 || strcmp(argv[optind], "all") == 0))
                lv = argv[optind++];
            if (!lv || strcmp(lv, "draws") == 0)
                o.timing = RP_TIMING_DRAWS;
            else if (strcmp(lv, "frames") == 0)
                o.timing = RP_TIMING_FRAMES;
            else if (strcmp(lv, "all") == 0)
                o.timing = RP_TIMING_ALL;
            else {
                fprintf(stderr, "wip15 replay: --timing: frames, draws or all, not '%s'\n", lv);
                return 2;
            }
            break;
        }
        case O_TIMING_OUT: o.timing_path = optarg; break;
        case O_ORDER:
            if (strcmp(optarg, "file") == 0)
                o.file_order = 1;
            else if (strcmp(optarg, "gseq") == 0)
                o.file_order = 0;
            else {
                fprintf(stderr, "wip15 replay: --order: gseq or file, not '%s'\n", optarg);
                return 2;
            }
            break;
        case O_PROGRESS: {
            char *end;
            o.progress_after = strtod(optarg, &end);
            if (end == optarg || *end || !(o.progress_after >= 0 && o.progress_after < 1e9)) {
                fprintf(stderr, "wip15 replay: --progress-after: seconds, not '%s'\n", optarg);
                return 2;
            }
            break;
        }
        case 'q': o.quiet = 1; break;
        case 'h': fputs(replay_usage, stdout); return 0;
        default: fputs(replay_usage, stderr); return 2;
        }
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "wip15 replay: expected one trace file\n%s", replay_usage);
        return 2;
    }
    if (snapdir && !snapshot) {
        fprintf(stderr, "wip15 replay: --snapshot-dir needs --snapshot\n");
        return 2;
    }
    if (o.benchmark && (o.checksums || snapshot || o.check || o.timing)) {
        fprintf(stderr, "wip15 replay: --benchmark takes no --checksums, --snapshot, --check or --timing\n");
        return 2;
    }
    if (o.timing_path && !o.timing) {
        fprintf(stderr, "wip15 replay: --timing-output needs --timing\n");
        return 2;
    }
    o.path = argv[optind];
    fflush(stdout);
    return rp_run(&o);
}
