/* cmd_info.c -- `wip15 info`: a trace's header and totals, in one pass. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "map.h"
#include "out.h"
#include "quote.h"
#include "walk.h"

static const char info_usage[] =
    "usage: wip15 info [--json] FILE\n"
    "\n"
    "Show a WIP15 trace's header (version, byte order, compression, limits) and\n"
    "totals: declarations, calls, threads, frames, data bytes, file size, and\n"
    "whether the file is complete.\n"
    "\n"
    "Options:\n"
    "      --json   one JSON object instead of text (see docs/USAGE.md)\n"
    "  -h, --help   show this help\n"
    "\n"
    "Exit status: 0 ok (also for a truncated trace, which info reports),\n"
    "1 unreadable or corrupt trace, 2 usage error.\n";

int cmd_info(int argc, char **argv)
{
    enum { OPT_JSON = 256 };
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, ch;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_JSON:
            json = 1;
            break;
        case 'h':
            fputs(info_usage, stdout);
            return 0;
        default:
            fputs(info_usage, stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        w15t_err("info", "expected one FILE");
        fputs(info_usage, stderr);
        return 2;
    }
    const char *path = argv[optind];
    w15t_trace_t t;
    if (w15t_open(&t, "info", path))
        return 1;

    uint64_t calls = 0, pseudo = 0, frames = 0;
    w15t_map_t threads;
    memset(&threads, 0, sizeof threads);
    w15_op_t op;
    w15_next_t k;
    while ((k = w15t_next(&t, &op)) <= W15_NEXT_CALL) {
        if (k != W15_NEXT_CALL)
            continue;
        const w15t_fninfo_t *fi = w15t_fninfo(&t, op.call->func);
        calls++;
        if (fi->kind != W15T_FN_NORMAL)
            pseudo++;
        if (fi->frame_end)
            frames++;
        if (fi->kind == W15T_FN_THREAD_SWITCH && t.have_thread) {
            int added;
            w15t_map_put(&threads, t.thread, &added);
        }
    }
    w15_reader_stats_t st;
    w15_reader_get_stats(t.r, &st);
    struct stat sb;
    int64_t fsize = stat(path, &sb) == 0 ? (int64_t)sb.st_size : -1;
    const char *endian = t.hdr.endian == W15_ENDIAN_LITTLE ? "little"
                         : t.hdr.endian == W15_ENDIAN_BIG  ? "big"
                                                           : "?";
    int truncated = k == W15_NEXT_TRUNCATED;
    const char *msg = (k == W15_NEXT_TRUNCATED || k == W15_NEXT_ERROR) ? t.err.msg : NULL;

    if (json) {
        w15t_puts("{\"file\":");
        w15t_put_jstr(path);
        w15t_printf(",\"version\":\"%s\",\"endian\":\"%s\",\"stream_compressed\":%s"
                    ",\"max_functions\":%" PRIu32 ",\"max_groups\":%" PRIu32
                    ",\"functions\":%" PRIu64 ",\"groups\":%" PRIu64 ",\"calls\":%" PRIu64
                    ",\"pseudo_calls\":%" PRIu64 ",\"threads\":%zu,\"frames\":%" PRIu64
                    ",\"data_bytes\":%" PRIu64 ",\"data_bytes_stored\":%" PRIu64
                    ",\"stream_bytes\":%" PRIu64 ",\"file_bytes\":%" PRId64
                    ",\"complete\":%s,\"truncated\":%s,\"error\":",
                    w15t_version_name(t.hdr.version), endian,
                    t.hdr.stream_lz4 || t.hdr.stream_zstd ? "true" : "false",
                    t.hdr.max_functions, t.hdr.max_groups, st.funcs, st.groups, calls, pseudo,
                    threads.n, frames, st.blob_bytes_raw, st.blob_bytes_stored, st.stream_bytes,
                    fsize, k == W15_NEXT_END ? "true" : "false", truncated ? "true" : "false");
        if (msg)
            w15t_put_jstr(msg);
        else
            w15t_puts("null");
        w15t_puts("}\n");
    } else {
        w15t_printf("file:           %s\n", path);
        w15t_printf("version:        %s\n", w15t_version_name(t.hdr.version));
        w15t_printf("byte order:     %s endian\n", endian);
        w15t_printf("stream:         %s\n", t.hdr.stream_zstd  ? "zstd frame"
                                            : t.hdr.stream_lz4 ? "LZ4 frame"
                                                               : "not compressed");
        w15t_printf("max functions:  %" PRIu32 "\n", t.hdr.max_functions);
        w15t_printf("max groups:     %" PRIu32 "\n", t.hdr.max_groups);
        w15t_printf("functions:      %" PRIu64 " declared\n", st.funcs);
        w15t_printf("groups:         %" PRIu64 " declared\n", st.groups);
        w15t_printf("calls:          %" PRIu64 " (%" PRIu64 " pseudo-calls)\n", calls, pseudo);
        w15t_printf("threads:        %zu\n", threads.n);
        w15t_printf("frames:         %" PRIu64 "\n", frames);
        w15t_printf("data:           %" PRIu64 " bytes, %" PRIu64 " stored\n", st.blob_bytes_raw,
                    st.blob_bytes_stored);
        w15t_printf("stream bytes:   %" PRIu64 "\n", st.stream_bytes);
        w15t_printf("file size:      %" PRId64 " bytes\n", fsize);
        if (k == W15_NEXT_END)
            w15t_puts("complete:       yes\n");
        else if (truncated)
            w15t_printf("complete:       no, %s\n", msg);
        else
            w15t_printf("complete:       no, corrupt: %s\n", msg);
    }
    int rc = 0;
    if (k == W15_NEXT_ERROR) {
        w15t_out_finish();
        w15t_err("info", "%s", msg);
        rc = 1;
    }
    w15t_map_free(&threads);
    w15t_close(&t);
    return rc;
}
