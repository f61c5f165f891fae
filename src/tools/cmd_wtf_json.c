/* cmd_wtf_json.c -- `wip15 wtf-json IN OUT`: .wtf-trace -> .wtf-json and
 * .wtf-json -> .wtf-trace, every event kept (docs/WTF.md ".wtf-json"). */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "wtf_json.h"
#include "wtf_reader.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: wip15 wtf-json IN.wtf-trace OUT.wtf-json\n"
               "       wip15 wtf-json IN.wtf-json OUT.wtf-trace\n"
               "\n"
               "Converts between the binary WTF trace and the WTF JSON event stream (array\n"
               "form); the direction follows IN's extension.  OUT may be - (standard output)\n"
               "when it is JSON.  Every event is kept, zones included (as wtf.zone#create and\n"
               "wtf.zone#set events).\n");
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

int cmd_wtf_json(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return 0;
        }
        usage(stderr);
        return 2;
    }
    if (optind != argc - 2) {
        usage(stderr);
        return 2;
    }
    const char *in = argv[optind], *out = argv[optind + 1];
    int to_json = ends_with(in, ".wtf-trace");
    if (!to_json && !ends_with(in, ".wtf-json")) {
        fprintf(stderr, "wip15: wtf-json: %s: expected a .wtf-trace or .wtf-json file name\n", in);
        return 2;
    }
    char err[512];
    w15_wtf_file_t *f;
    w15_wtf_err_t e = to_json ? w15_wtf_read(in, 0, &f, err, sizeof err) : w15_wtf_json_read(in, &f, err, sizeof err);
    if (e != W15_WTF_E_OK) {
        fprintf(stderr, "wip15: wtf-json: %s\n", err);
        return 1;
    }
    int rc = 0;
    if (to_json) {
        FILE *fp = strcmp(out, "-") == 0 ? stdout : fopen(out, "w");
        if (!fp) {
            fprintf(stderr, "wip15: wtf-json: cannot create %s: %m\n", out);
            rc = 1;
        } else {
            errno = 0;
            if (w15_wtf_json_write(f, fp) != 0)
                rc = 1;
            if (fp != stdout && fclose(fp) != 0)
                rc = 1;
            if (rc && fp == stdout && errno == EPIPE) {
                clearerr(stdout); /* the reader closed the pipe: a quiet, normal end */
                rc = 0;
            } else if (rc) {
                fprintf(stderr, "wip15: wtf-json: write error on %s: %s\n", out, strerror(errno));
            }
        }
    } else if (w15_wtf_write(f, out, err, sizeof err) != 0) {
        fprintf(stderr, "wip15: wtf-json: %s\n", err);
        rc = 1;
    }
    w15_wtf_file_free(f);
    return rc;
}
