/* cmd_verify.c -- `wip15 verify`: read a whole trace and check everything a
 * reader can check: header, every operation, declarations before use (the
 * reader), every blob decompressing to its stated size, the tracer's extras
 * and pseudo-calls, and a clean end of file. */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "out.h"
#include "walk.h"

static const char verify_usage[] =
    "usage: wip15 verify [-q] FILE...\n"
    "\n"
    "Check that each WIP15 trace is complete and well formed: every operation\n"
    "decodes, functions and groups are declared before use, every blob\n"
    "decompresses to its stated size, the tracer's pseudo-calls and extras are\n"
    "well formed, and the file does not end inside an operation.\n"
    "Prints \"FILE: ok, N calls\" for a good trace and the first error (file,\n"
    "byte offset, what was expected) otherwise.\n"
    "\n"
    "Options:\n"
    "  -q, --quiet   print nothing; the exit status says it all\n"
    "  -h, --help    show this help\n"
    "\n"
    "Exit status: 0 every FILE is valid and complete, 1 a FILE is truncated,\n"
    "corrupt or unreadable, 2 usage error.\n";

typedef struct vstate {
    w15t_trace_t t;
    w15_error_t err;
    int failed;
} vstate_t;

static void failf(vstate_t *s, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void failf(vstate_t *s, uint64_t offset, const char *fmt, ...)
{
    if (s->failed)
        return;
    s->failed = 1;
    int n = snprintf(s->err.msg, sizeof s->err.msg, "%s: byte %" PRIu64 ": ", s->t.path, offset);
    if (n < 0 || (size_t)n >= sizeof s->err.msg)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err.msg + n, sizeof s->err.msg - (size_t)n, fmt, ap);
    va_end(ap);
}

/* A message that already names the file and byte, plus where it was met. */
static void fail_at(vstate_t *s, const w15_error_t *e, uint64_t offset, const w15_call_t *c,
                    const char *what)
{
    if (s->failed)
        return;
    if (!e->msg[0]) {
        failf(s, offset, "call %" PRIu64 " (%s), %s: %s", c->index, c->func->name, what,
              w15_errcode_message(e->code));
        return;
    }
    s->failed = 1;
    snprintf(s->err.msg, sizeof s->err.msg, "%.*s (call %" PRIu64 ", %s, %s)",
             (int)(sizeof s->err.msg / 2), e->msg, c->index, c->func->name, what);
}

static void check_blob(vstate_t *s, const w15_call_t *c, const w15_blob_t *b, const char *what)
{
    if (s->failed)
        return;
    if (b->method >= W15_COMP_COUNT_) {
        failf(s, b->offset, "call %" PRIu64 " (%s), %s: unknown compression method %u", c->index,
              c->func->name, what, b->method);
        return;
    }
    if (b->method == W15_COMP_NONE && b->csize != b->size) {
        failf(s, b->offset,
              "call %" PRIu64 " (%s), %s: uncompressed blob of %" PRIu32 " bytes stores %" PRIu32,
              c->index, c->func->name, what, b->size, b->csize);
        return;
    }
    if (b->size == 0 && b->method == W15_COMP_NONE)
        return;
    w15_error_t e;
    memset(&e, 0, sizeof e);
    if (!w15_reader_blob(s->t.r, b, &e))
        fail_at(s, &e, b->offset, c, what);
}

static void check_value(vstate_t *s, const w15_call_t *c, const w15_value_t *v, const char *what)
{
    if (v->type.base == W15_DATA)
        for (uint32_t i = 0; i < v->count && !s->failed; i++)
            check_blob(s, c, &v->v.data[i], what);
    if (v->type.has_group && !w15_reader_group(s->t.r, v->group))
        failf(s, c->offset, "call %" PRIu64 " (%s), %s: group %" PRIu32 " is not declared",
              c->index, c->func->name, what, v->group);
}

static int is_int(const w15_value_t *v, int ptr_ok)
{
    if (v->type.is_array)
        return 0;
    return v->type.base == W15_UINT || v->type.base == W15_INT || (ptr_ok && v->type.base == W15_PTR);
}

/* wip15ThreadSwitch(tid, context, first_seq, thread_name) */
static void check_thread_switch(vstate_t *s, const w15_call_t *c)
{
    const w15_func_t *f = c->func;
    if (f->nargs != 4 || !is_int(&c->args[0], 0) || !is_int(&c->args[1], 1) ||
        !is_int(&c->args[2], 0) || c->args[3].type.base != W15_STRING || c->args[3].type.is_array) {
        failf(s, c->offset,
              "call %" PRIu64 ": wip15ThreadSwitch is not (integer tid, context, integer first_seq,"
              " string name)", c->index);
    }
}

static void check_call(vstate_t *s, const w15_call_t *c)
{
    const w15t_fninfo_t *fi = w15t_fninfo(&s->t, c->func);
    char what[48];
    for (uint32_t i = 0; i < c->func->nargs && !s->failed; i++) {
        snprintf(what, sizeof what, "argument %" PRIu32, i);
        check_value(s, c, &c->args[i], what);
    }
    if (c->result && !s->failed)
        check_value(s, c, c->result, "result");
    for (uint32_t e = 0; e < c->nextras && !s->failed; e++) {
        const w15_extra_t *x = &c->extras[e];
        snprintf(what, sizeof what, "extra %" PRIu32, e);
        check_blob(s, c, &x->data, what);
    }
    if (s->failed)
        return;
    if (fi->kind == W15T_FN_THREAD_SWITCH)
        check_thread_switch(s, c);
    if (s->failed)
        return;
    const w15_ptr_entry_t *pe;
    uint32_t np;
    w15_error_t e;
    memset(&e, 0, sizeof e);
    if (w15_reader_ptrs(s->t.r, c, &pe, &np, &e) < 0) {
        if (!s->failed) {
            s->failed = 1;
            s->err = e;
        }
        return;
    }
    for (uint32_t i = 0; i < np; i++) {
        uint32_t p = pe[i].param;
        if (p == W15_PTR_RESULT ? !c->result : p >= c->func->nargs) {
            failf(s, c->offset,
                  "call %" PRIu64 " (%s): extra " W15_EXTRA_PTR " names parameter %" PRIu32
                  ", which the function does not have", c->index, c->func->name, p);
            break;
        }
    }
}

static int verify_one(const char *path, int quiet)
{
    vstate_t s;
    memset(&s, 0, sizeof s);
    if (w15t_open(&s.t, quiet ? NULL : "verify", path))
        return 1;
    w15_op_t op;
    w15_next_t k;
    uint64_t calls = 0;
    while ((k = w15t_next(&s.t, &op)) <= W15_NEXT_CALL) {
        if (k != W15_NEXT_CALL)
            continue;
        calls++;
        check_call(&s, op.call);
        if (s.failed)
            break;
    }
    int rc = 0;
    if (s.failed) {
        if (!quiet)
            w15t_err("verify", "%s", s.err.msg);
        rc = 1;
    } else if (k == W15_NEXT_TRUNCATED || k == W15_NEXT_ERROR) {
        if (!quiet)
            w15t_err("verify", "%s", s.t.err.msg);
        rc = 1;
    } else if (!quiet) {
        w15t_printf("%s: ok, %" PRIu64 " calls\n", path, calls);
    }
    w15t_close(&s.t);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int quiet = 0, ch;
    while ((ch = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'q':
            quiet = 1;
            break;
        case 'h':
            fputs(verify_usage, stdout);
            return 0;
        default:
            fputs(verify_usage, stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        w15t_err("verify", "expected at least one FILE");
        fputs(verify_usage, stderr);
        return 2;
    }
    int rc = 0;
    for (int i = optind; i < argc; i++)
        if (verify_one(argv[i], quiet))
            rc = 1;
    return rc;
}
