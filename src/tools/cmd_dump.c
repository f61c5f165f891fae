/* cmd_dump.c -- `wip15 dump`: print every call of a trace, one line each,
 * as text or as JSON lines.  Reads the file as a stream (constant memory). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "apitable.h"
#include "args.h"
#include "commands.h"
#include "out.h"
#include "quote.h"
#include "value.h"
#include "walk.h"

static const char dump_usage[] =
    "usage: wip15 dump [options] FILE\n"
    "\n"
    "Print every call of a WIP15 trace, one line per call:\n"
    "  <index> <function>(<arg>, <arg>, ...) = <result>\n"
    "\n"
    "Options:\n"
    "  -v, --full         print whole arrays and 16 leading bytes of each blob\n"
    "      --json         one JSON object per call per line (see docs/USAGE.md)\n"
    "      --thread TID   only calls of thread TID (as in wip15ThreadSwitch)\n"
    "      --calls A-B    only calls with index A to B (A-, -B and A also work)\n"
    "      --no-pseudo    leave out the tracer's wip15* pseudo-calls\n"
    "      --mark-unrecorded\n"
    "                     print a pointer that stands for memory the trace does\n"
    "                     not hold (an address that is not an object handle, a\n"
    "                     buffer offset) as &0x...; NULL, and the arguments of\n"
    "                     the tracer's pseudo-calls, as without it (text only)\n"
    "  -h, --help         show this help\n"
    "\n"
    "A truncated trace (the traced program died) is dumped up to its last\n"
    "complete call, with a warning on stderr, and the exit status is 0.\n"
    "Exit status: 0 ok, 1 unreadable or corrupt trace, 2 usage error.\n";

typedef struct dump_opts {
    w15t_print_opts_t print;
    int json;
    int no_pseudo;
    int have_thread;
    uint64_t thread;
    uint64_t lo, hi;
} dump_opts_t;

static int plain_name(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* The extras of the call being printed that stand for parameters (owned
 * by the reader): wip15.ptr, wip15.offset, wip15.unreadable, wip15.digest,
 * wip15.spans. */
typedef struct ptrs {
    const w15_ptr_entry_t *e;
    uint32_t n;
    const w15_offset_entry_t *off;
    uint32_t noff;
    const w15_ptr_entry_t *unr;
    uint32_t nunr;
    const w15_digest_entry_t *dig;
    uint32_t ndig;
    const w15_spans_entry_t *spn;
    uint32_t nspn;
} ptrs_t;

static const w15_offset_entry_t *find_offset(const ptrs_t *ptrs, uint32_t pidx)
{
    for (uint32_t i = 0; i < ptrs->noff; i++)
        if (ptrs->off[i].param == pidx)
            return &ptrs->off[i];
    return NULL;
}

static const w15_digest_entry_t *find_digest(const ptrs_t *ptrs, uint32_t pidx)
{
    for (uint32_t i = 0; i < ptrs->ndig; i++)
        if (ptrs->dig[i].param == pidx)
            return &ptrs->dig[i];
    return NULL;
}

static const w15_spans_entry_t *find_spans(const ptrs_t *ptrs, uint32_t pidx)
{
    for (uint32_t i = 0; i < ptrs->nspn; i++)
        if (ptrs->spn[i].param == pidx)
            return &ptrs->spn[i];
    return NULL;
}

/* The extras dump prints in place of the parameters they describe. */
static int in_place(const w15_extra_t *x)
{
    return w15_extra_is(x, W15_EXTRA_PTR) || w15_extra_is(x, W15_EXTRA_OFFSET) ||
           w15_extra_is(x, W15_EXTRA_UNREADABLE) || w15_extra_is(x, W15_EXTRA_DIGEST) ||
           w15_extra_is(x, W15_EXTRA_SPANS);
}

/* A value the tracer left empty: an empty array, String or Data. */
static int value_empty(const w15_value_t *v)
{
    if (v->type.is_array)
        return v->count == 0;
    if (v->type.base == W15_DATA)
        return v->v.data && v->v.data[0].size == 0;
    return 0;
}

/* The target of a wip15.offset entry by name (GL_ARRAY_BUFFER), or NULL. */
static const char *target_name(uint32_t target)
{
    return w15_enum_name(W15_NO_GROUP, target, 0);
}

/* A value, or what the call's extras record in its place: an offset into a
 * bound buffer, memory that could not be read, the digest of read-back
 * bytes, a pointer (wip15.ptr). */
/* Parameter i of c holds a 64-bit digest (a pseudo-call's `digest`:
 * wip15FrameDigest, wip15ClientMemorySame): shown in hex, as the digests
 * of read-backs and blobs are. */
static int is_digest(const w15_call_t *c, uint32_t i)
{
    const w15_value_t *v = &c->args[i];
    if (strncmp(c->func->name, "wip15", 5) || v->type.is_array || v->type.base != W15_UINT || v->count != 1)
        return 0;
    int f = w15_func_lookup(c->func->name);
    return f >= 0 && i < w15_funcs[f].nparams && !strcmp(w15_str(w15_params[w15_funcs[f].first_param + i].name),
                                                           "digest");
}

static void text_arg(w15t_trace_t *t, const w15_value_t *v, uint32_t pidx, const ptrs_t *ptrs,
                     const dump_opts_t *o, int *bad, w15_error_t *err)
{
    uint64_t p;
    const w15_offset_entry_t *oe = find_offset(ptrs, pidx);
    if (oe) {
        const char *tn = target_name(oe->target);
        if (tn)
            w15t_puts(tn);
        else
            w15t_printf("0x%" PRIx32, oe->target);
        w15t_printf("+0x%" PRIx64, oe->offset);
        return;
    }
    if (w15_ptr_find(ptrs->unr, ptrs->nunr, pidx, &p)) {
        w15t_printf("<unreadable 0x%" PRIx64 ">", p);
        return;
    }
    const w15_digest_entry_t *de = find_digest(ptrs, pidx);
    if (de && value_empty(v)) {
        w15t_printf("<read back %" PRIu64 " bytes, xxh3 %016" PRIx64, de->size, de->hash);
        const w15_spans_entry_t *se = find_spans(ptrs, pidx);
        if (se) {
            w15t_printf(" of %" PRIu32 " rows of %" PRIu32 " bytes at +%" PRIu64 " every %" PRIu64, se->rows,
                        se->span, se->first, se->row_stride);
            if (se->images != 1)
                w15t_printf(", %" PRIu32 " images every %" PRIu64, se->images, se->image_stride);
        }
        w15t_putc('>');
        return;
    }
    if (w15_ptr_find(ptrs->e, ptrs->n, pidx, &p)) {
        if (p && o->print.mark_unrecorded)
            w15t_putc('&');
        if (p)
            w15t_put_hex(p);
        else
            w15t_puts("NULL");
        return;
    }
    w15t_print_value(t, v, &o->print, bad, err);
}

static void json_arg(w15t_trace_t *t, const w15_value_t *v, uint32_t pidx, const ptrs_t *ptrs,
                     const dump_opts_t *o, int *bad, w15_error_t *err)
{
    uint64_t p;
    const w15_offset_entry_t *oe = find_offset(ptrs, pidx);
    if (oe) {
        const char *tn = target_name(oe->target);
        w15t_printf("{\"offset\":%" PRIu64 ",\"target\":", oe->offset);
        if (tn)
            w15t_put_jstr(tn);
        else
            w15t_printf("%" PRIu32, oe->target);
        w15t_putc('}');
        return;
    }
    if (w15_ptr_find(ptrs->unr, ptrs->nunr, pidx, &p)) {
        w15t_printf("{\"unreadable\":\"0x%" PRIx64 "\"}", p);
        return;
    }
    const w15_digest_entry_t *de = find_digest(ptrs, pidx);
    if (de && value_empty(v)) {
        w15t_printf("{\"readback\":%" PRIu64 ",\"xxh3\":\"%016" PRIx64 "\"", de->size, de->hash);
        const w15_spans_entry_t *se = find_spans(ptrs, pidx);
        if (se)
            w15t_printf(",\"spans\":{\"span\":%" PRIu32 ",\"rows\":%" PRIu32 ",\"images\":%" PRIu32
                        ",\"first\":%" PRIu64 ",\"row_stride\":%" PRIu64 ",\"image_stride\":%" PRIu64 "}",
                        se->span, se->rows, se->images, se->first, se->row_stride, se->image_stride);
        w15t_putc('}');
        return;
    }
    if (w15_ptr_find(ptrs->e, ptrs->n, pidx, &p)) {
        if (p)
            w15t_printf("\"0x%" PRIx64 "\"", p);
        else
            w15t_puts("null");
        return;
    }
    w15t_print_value_json(t, v, &o->print, bad, err);
}

static void text_call(w15t_trace_t *t, const w15_call_t *c, const ptrs_t *ptrs,
                      const dump_opts_t *o, int *bad, w15_error_t *err)
{
    w15t_put_u64(c->index);
    w15t_putc(' ');
    w15t_puts(c->func->name);
    w15t_putc('(');
    for (uint32_t i = 0; i < c->func->nargs; i++) {
        if (i)
            w15t_puts(", ");
        uint32_t api;
        unsigned style;
        uint64_t p;
        if (c->args[i].type.is_array && (api = w15t_attrib_api(t, c, i, &style)) != 0 &&
            !w15_ptr_find(ptrs->e, ptrs->n, i, &p) && !w15_ptr_find(ptrs->unr, ptrs->nunr, i, &p))
            w15t_print_attribs(&c->args[i], api, style, &o->print);
        else if (is_digest(c, i))
            w15t_printf("0x%016" PRIx64, c->args[i].v.u[0]);
        else if (!w15t_print_pname_value(t, c, i, 0))
            text_arg(t, &c->args[i], i, ptrs, o, bad, err);
    }
    w15t_putc(')');
    if (c->result) {
        w15t_puts(" = ");
        text_arg(t, c->result, W15_PTR_RESULT, ptrs, o, bad, err);
    }
    for (uint32_t e = 0; e < c->nextras; e++) {
        const w15_extra_t *x = &c->extras[e];
        uint64_t g;
        if (in_place(x))
            continue; /* shown in place of the parameters */
        if (w15_extra_is(x, W15_EXTRA_GSEQ) && w15_reader_gseq(t->r, c, &g, err) == 1) {
            w15t_puts(" [gseq ");
            w15t_put_u64(g);
            w15t_putc(']');
            continue;
        }
        w15t_puts(" [");
        if (plain_name(x->name.ptr, x->name.len))
            w15t_write(x->name.ptr, x->name.len);
        else
            w15t_put_cstring(x->name.ptr, x->name.len);
        w15t_putc('=');
        w15_value_t v;
        memset(&v, 0, sizeof v);
        v.type.base = W15_DATA;
        v.count = 1;
        v.v.data = &x->data;
        w15t_print_value(t, &v, &o->print, bad, err);
        w15t_putc(']');
    }
    w15t_putc('\n');
}

static void json_call(w15t_trace_t *t, const w15_call_t *c, const ptrs_t *ptrs,
                      const dump_opts_t *o, int *bad, w15_error_t *err)
{
    w15t_puts("{\"index\":");
    w15t_put_u64(c->index);
    w15t_puts(",\"offset\":");
    w15t_put_u64(c->offset);
    w15t_puts(",\"function\":");
    w15t_put_jstr(c->func->name);
    if (t->have_thread) {
        w15t_puts(",\"thread\":");
        w15t_put_u64(t->thread);
    } else
        w15t_puts(",\"thread\":null");
    w15t_puts(",\"args\":[");
    for (uint32_t i = 0; i < c->func->nargs; i++) {
        if (i)
            w15t_putc(',');
        if (is_digest(c, i))
            w15t_printf("\"0x%016" PRIx64 "\"", c->args[i].v.u[0]);
        else if (!w15t_print_pname_value(t, c, i, 1))
            json_arg(t, &c->args[i], i, ptrs, o, bad, err);
    }
    w15t_putc(']');
    if (c->result) {
        w15t_puts(",\"result\":");
        json_arg(t, c->result, W15_PTR_RESULT, ptrs, o, bad, err);
    }
    int first = 1;
    uint64_t g;
    if (w15_reader_gseq(t->r, c, &g, err) == 1) {
        w15t_puts(",\"gseq\":");
        w15t_put_u64(g);
    }
    for (uint32_t e = 0; e < c->nextras; e++) {
        const w15_extra_t *x = &c->extras[e];
        if (in_place(x) || w15_extra_is(x, W15_EXTRA_GSEQ))
            continue;
        w15t_puts(first ? ",\"extras\":[{\"name\":" : ",{\"name\":");
        first = 0;
        w15t_put_jstring(x->name.ptr, x->name.len);
        w15t_puts(",\"data\":");
        w15_value_t v;
        memset(&v, 0, sizeof v);
        v.type.base = W15_DATA;
        v.count = 1;
        v.v.data = &x->data;
        w15t_print_value_json(t, &v, &o->print, bad, err);
        w15t_putc('}');
    }
    if (!first)
        w15t_putc(']');
    w15t_puts("}\n");
}

int cmd_dump(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_THREAD, OPT_CALLS, OPT_NO_PSEUDO, OPT_MARK_UNRECORDED };
    static const struct option longopts[] = {
        {"full", no_argument, NULL, 'v'},
        {"json", no_argument, NULL, OPT_JSON},
        {"thread", required_argument, NULL, OPT_THREAD},
        {"calls", required_argument, NULL, OPT_CALLS},
        {"no-pseudo", no_argument, NULL, OPT_NO_PSEUDO},
        {"mark-unrecorded", no_argument, NULL, OPT_MARK_UNRECORDED},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    dump_opts_t o;
    memset(&o, 0, sizeof o);
    w15t_print_opts_default(&o.print);
    o.hi = UINT64_MAX;
    int ch;
    while ((ch = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
        switch (ch) {
        case 'v':
            o.print.full = 1;
            o.print.blob_head = 16;
            break;
        case OPT_JSON:
            o.json = 1;
            break;
        case OPT_THREAD:
            if (w15t_parse_u64(optarg, &o.thread) < 0) {
                w15t_err("dump", "--thread wants a thread id, not '%s'", optarg);
                return 2;
            }
            o.have_thread = 1;
            break;
        case OPT_CALLS:
            if (w15t_parse_range(optarg, &o.lo, &o.hi) < 0) {
                w15t_err("dump", "--calls wants A-B with A <= B, not '%s'", optarg);
                return 2;
            }
            break;
        case OPT_NO_PSEUDO:
            o.no_pseudo = 1;
            break;
        case OPT_MARK_UNRECORDED:
            o.print.mark_unrecorded = 1;
            break;
        case 'h':
            fputs(dump_usage, stdout);
            return 0;
        default:
            fputs(dump_usage, stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        w15t_err("dump", "expected one FILE");
        fputs(dump_usage, stderr);
        return 2;
    }
    const char *path = argv[optind];
    w15t_trace_t t;
    if (w15t_open(&t, "dump", path))
        return 1;

    ptrs_t ptrs;
    memset(&ptrs, 0, sizeof ptrs);
    int bad = 0;
    w15_error_t berr;
    memset(&berr, 0, sizeof berr);
    w15_op_t op;
    w15_next_t k = W15_NEXT_END;
    while (!w15t_out_stopped()) {
        k = w15t_next(&t, &op);
        if (k == W15_NEXT_DECL_FUNC || k == W15_NEXT_DECL_GROUP)
            continue;
        if (k != W15_NEXT_CALL)
            break;
        const w15_call_t *c = op.call;
        if (c->index > o.hi) {
            k = W15_NEXT_END; /* done: the rest of the file is not read */
            break;
        }
        if (c->index < o.lo)
            continue;
        if (o.no_pseudo && w15t_fninfo(&t, c->func)->kind != W15T_FN_NORMAL)
            continue;
        if (o.have_thread && (!t.have_thread || t.thread != o.thread))
            continue;
        w15_error_t perr;
        memset(&perr, 0, sizeof perr);
        if (w15_reader_ptrs(t.r, c, &ptrs.e, &ptrs.n, &perr) < 0 ||
            w15_reader_offsets(t.r, c, &ptrs.off, &ptrs.noff, &perr) < 0 ||
            w15_reader_unreadable(t.r, c, &ptrs.unr, &ptrs.nunr, &perr) < 0 ||
            w15_reader_digests(t.r, c, &ptrs.dig, &ptrs.ndig, &perr) < 0 ||
            w15_reader_spans(t.r, c, &ptrs.spn, &ptrs.nspn, &perr) < 0) {
            ptrs.n = ptrs.noff = ptrs.nunr = ptrs.ndig = ptrs.nspn = 0;
            if (!bad)
                berr = perr;
            bad = 1;
        }
        int cbad = 0;
        w15_error_t cerr;
        memset(&cerr, 0, sizeof cerr);
        if (o.json) {
            json_call(&t, c, &ptrs, &o, &cbad, &cerr);
        } else if (o.print.mark_unrecorded && w15t_fninfo(&t, c->func)->kind != W15T_FN_NORMAL) {
            dump_opts_t po = o; /* the tracer's own arguments are never program memory */
            po.print.mark_unrecorded = 0;
            text_call(&t, c, &ptrs, &po, &cbad, &cerr);
        } else {
            text_call(&t, c, &ptrs, &o, &cbad, &cerr);
        }
        if (cbad && !bad) {
            bad = 1;
            berr = cerr;
        }
    }
    int rc = 0;
    if (w15t_out_stopped()) {
        rc = 0; /* closed pipe or write error: main reports the latter */
    } else if (k == W15_NEXT_TRUNCATED) {
        w15t_out_finish();
        w15t_err("dump", "warning: %s", t.err.msg);
    } else if (k == W15_NEXT_ERROR) {
        w15t_out_finish();
        w15t_err("dump", "%s", t.err.msg);
        rc = 1;
    }
    if (bad && !w15t_out_stopped()) {
        w15t_out_finish();
        w15t_err("dump", "%s", berr.msg);
        rc = 1;
    }
    w15t_close(&t);
    return rc;
}
