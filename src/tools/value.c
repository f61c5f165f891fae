/* value.c -- recorded values as text and JSON (see value.h). */
#include "value.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#include "apitable.h"
#include "number.h"
#include "out.h"
#include "quote.h"

/* ------------------------------------------------------------------ */
/* Enum names                                                          */

typedef struct sbuf {
    char *p;
    size_t cap, len;
    int cut;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (b->cut)
        return;
    if (b->len + n + 4 > b->cap) { /* keep room for "..." */
        memcpy(b->p + b->len, "...", 4);
        b->len += 3;
        b->cut = 1;
        return;
    }
    memcpy(b->p + b->len, s, n + 1);
    b->len += n;
}

int w15t_enum_text(w15t_trace_t *t, uint32_t group, uint64_t value, char *buf, size_t cap)
{
    const w15_group_t *g = w15_reader_group(t->r, group);
    if (!g || cap < 64)
        return 0;
    sbuf_t sb = {buf, cap, 0, 0};
    buf[0] = 0;
    char hx[24];
    if (g->type == W15_GROUP_ENUM) {
        const char *name = NULL;
        name = w15_group_enum_name((uint32_t)w15t_gtable(t, group), value, 0);
        /* gl.xml groups are incomplete: fall back to any enumerant of that
         * value, but not for small numbers, where names are ambiguous. */
        if (!name && value >= 0x100)
            name = w15_enum_name(W15_NO_GROUP, value, 0);
        if (name) {
            sb_add(&sb, name);
        } else {
            snprintf(hx, sizeof hx, "0x%" PRIx64, value);
            sb_add(&sb, hx);
        }
        return 1;
    }
    if (g->type != W15_GROUP_BITMASK)
        return 0;
    int32_t gt = w15t_gtable(t, group);
    if (gt < 0)
        return 0;
    if (value == 0) {
        sb_add(&sb, "0");
        return 1;
    }
    const char *exact = w15_group_enum_name((uint32_t)gt, value, 0);
    if (exact) {
        sb_add(&sb, exact);
        return 1;
    }
    const w15_group_sig_t *gs = &w15_groups[gt];
    if (gs->first_enum > w15_nenums || gs->nenums > w15_nenums - gs->first_enum)
        return 0;
    uint64_t rest = value;
    int first = 1;
    for (uint32_t i = 0; i < gs->nenums && rest; i++) {
        const w15_enum_sig_t *e = &w15_enums[gs->first_enum + i];
        uint64_t ev = e->value;
        if (ev == 0 || (ev & (ev - 1)) != 0 || !(rest & ev))
            continue;
        if (!first)
            sb_add(&sb, " | ");
        sb_add(&sb, w15_str(e->name));
        first = 0;
        rest &= ~ev;
    }
    if (rest) {
        if (!first)
            sb_add(&sb, " | ");
        snprintf(hx, sizeof hx, "0x%" PRIx64, rest);
        sb_add(&sb, hx);
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Attribute lists                                                     */

uint32_t w15t_attrib_api(w15t_trace_t *t, const w15_call_t *c, uint32_t arg, unsigned *style)
{
    const w15t_fninfo_t *fi = w15t_fninfo(t, c->func);
    if (fi->table < 0 || arg >= c->func->nargs)
        return 0;
    const w15_func_sig_t *fs = &w15_funcs[fi->table];
    if (fs->nparams != c->func->nargs)
        return 0; /* the trace's declaration is not this build's */
    const w15_param_sig_t *ps = &w15_params[fs->first_param + arg];
    const w15_value_t *v = &c->args[arg];
    if (ps->attribs == W15_ATTRIBS_NONE || !v->type.is_array || v->type.has_group ||
        (v->type.base != W15_INT && v->type.base != W15_UINT))
        return 0;
    *style = ps->attribs;
    return fs->api & (W15_API_EGL | W15_API_GLX);
}

/* GLX error codes share the small values of the attribute tokens. */
static int is_error_name(const char *n)
{
    return strncmp(n, "GLX_BAD_", 8) == 0 || strcmp(n, "GLX_NO_EXTENSION") == 0;
}

/* Name of attribute key `value` among the enumerants defined for `api`
 * only (not an error code). */
static const char *api_enum_name(uint64_t value, uint32_t api)
{
    uint32_t lo = w15_enum_lower_bound(w15_all_enums, w15_nall_enums, value);
    for (; lo < w15_nall_enums && w15_all_enums[lo].value == value; lo++)
        if ((w15_all_enums[lo].api & api) && !is_error_name(w15_str(w15_all_enums[lo].name)))
            return w15_str(w15_all_enums[lo].name);
    return NULL;
}

void w15t_print_attribs(const w15_value_t *v, uint32_t api, unsigned style,
                        const w15t_print_opts_t *o)
{
    uint32_t n = v->count;
    uint32_t shown = (!o->full && n > o->max_inline) ? o->head : n;
    int key = 1;
    w15t_putc('{');
    for (uint32_t i = 0; i < shown && !w15t_out_stopped(); i++) {
        uint64_t x = v->type.base == W15_INT ? (uint64_t)v->v.i[i] : v->v.u[i];
        const char *name = NULL;
        if (i)
            w15t_puts(", ");
        if (key && x != 0)
            name = api_enum_name(x, api);
        if (name)
            w15t_puts(name);
        else if (v->type.base == W15_INT)
            w15t_put_i64(v->v.i[i]);
        else
            w15t_put_u64(x);
        if (key && !w15_attrib_has_value(style, x))
            continue; /* a key that stands alone (GLX 1.2's GLX_RGBA, ...) */
        key = !key;
    }
    if (shown < n)
        w15t_printf("%s... (%" PRIu32 " elements)", shown ? ", " : "", n);
    w15t_putc('}');
}

/* ------------------------------------------------------------------ */
/* Value printing                                                      */

void w15t_print_opts_default(w15t_print_opts_t *o)
{
    o->full = 0;
    o->max_inline = 16;
    o->head = 8;
    o->blob_head = 4;
    o->mark_unrecorded = 0;
}

static const char *comp_lname(unsigned m)
{
    switch (m) {
    case W15_COMP_NONE: return "none";
    case W15_COMP_ZLIB: return "zlib";
    case W15_COMP_LZ4: return "lz4";
    default: return NULL;
    }
}

static void set_blob_err(w15t_trace_t *t, const w15_blob_t *b, w15_error_t *dst,
                         const w15_error_t *src)
{
    if (!dst)
        return;
    *dst = *src;
    if (!dst->msg[0])
        snprintf(dst->msg, sizeof dst->msg, "%s: byte %" PRIu64 ": %s", t->path, b->offset,
                 w15_errcode_message(src->code));
}

/* Leading bytes of a blob (decompressing it); NULL on a corrupt blob. */
static const uint8_t *blob_bytes(w15t_trace_t *t, const w15_blob_t *b, int *bad, w15_error_t *err)
{
    if (b->size == 0)
        return (const uint8_t *)"";
    if (b->method == W15_COMP_NONE && b->csize == b->size)
        return b->cdata;
    w15_error_t e;
    memset(&e, 0, sizeof e);
    const uint8_t *d = w15_reader_blob(t->r, b, &e);
    if (!d) {
        *bad = 1;
        set_blob_err(t, b, err, &e);
    }
    return d;
}

/* Digest of a blob's whole (decompressed) content: 64-bit XXH3, seed 0,
 * printed as 16 hex digits so that goldens and users compare every byte,
 * not only the head. */
static uint64_t blob_digest(const uint8_t *d, uint32_t size)
{
    return (uint64_t)XXH3_64bits(d, size);
}

static void print_blob(w15t_trace_t *t, const w15_blob_t *b, const w15t_print_opts_t *o, int *bad,
                       w15_error_t *err)
{
    w15t_printf("<data %" PRIu32 " bytes", b->size);
    if (b->method != W15_COMP_NONE) {
        const char *m = comp_lname(b->method);
        if (m)
            w15t_printf(", %s %" PRIu32, m, b->csize);
        else
            w15t_printf(", method %u %" PRIu32, b->method, b->csize);
    }
    if (b->size) {
        const uint8_t *d = blob_bytes(t, b, bad, err);
        if (!d) {
            w15t_puts(", corrupt>");
            return;
        }
        uint32_t n = b->size < o->blob_head ? b->size : o->blob_head;
        w15t_putc(',');
        w15t_put_hexbytes(d, n, ' ');
        if (n < b->size)
            w15t_puts(" ...");
        w15t_printf(", xxh3 %016" PRIx64, blob_digest(d, b->size));
    }
    w15t_putc('>');
}

static void print_elem(w15t_trace_t *t, const w15_value_t *v, uint32_t i, const w15t_print_opts_t *o,
                       int *bad, w15_error_t *err)
{
    char fb[40];
    char eb[1024];
    switch (v->type.base) {
    case W15_UINT:
    case W15_INT: {
        uint64_t u = v->type.base == W15_UINT ? v->v.u[i] : (uint64_t)v->v.i[i];
        if (v->type.has_group && w15t_enum_text(t, v->group, u, eb, sizeof eb)) {
            w15t_puts(eb);
        } else if (v->type.base == W15_UINT) {
            w15t_put_u64(u);
        } else {
            w15t_put_i64(v->v.i[i]);
        }
        break;
    }
    case W15_PTR:
        if (v->type.has_group && w15t_enum_text(t, v->group, v->v.u[i], eb, sizeof eb))
            w15t_puts(eb);
        else if (v->v.u[i] == 0)
            w15t_puts("NULL");
        else {
            if (o->mark_unrecorded && !v->type.has_group)
                w15t_putc('&'); /* not an object handle: an address */
            w15t_put_hex(v->v.u[i]);
        }
        break;
    case W15_BOOL:
        if (v->v.b[i] <= 1)
            w15t_puts(v->v.b[i] ? "true" : "false");
        else
            w15t_printf("%u", v->v.b[i]);
        break;
    case W15_FLOAT:
        w15t_puts(w15t_fmt_float(fb, v->v.f[i]));
        break;
    case W15_DOUBLE:
        w15t_puts(w15t_fmt_double(fb, v->v.d[i]));
        break;
    case W15_STRING:
        w15t_put_cstring(v->v.s[i].ptr, v->v.s[i].len);
        break;
    case W15_DATA:
        print_blob(t, &v->v.data[i], o, bad, err);
        break;
    case W15_FUNCPTR:
        w15t_puts("<funcptr>");
        break;
    default:
        w15t_puts("void");
        break;
    }
}

void w15t_print_value(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o, int *bad,
                      w15_error_t *err)
{
    if (!v->type.is_array) {
        if (v->type.base == W15_VOID || v->count == 0)
            w15t_puts(v->type.base == W15_FUNCPTR ? "<funcptr>" : "void");
        else
            print_elem(t, v, 0, o, bad, err);
        return;
    }
    uint32_t n = v->count;
    uint32_t shown = n;
    if (!o->full && n > o->max_inline)
        shown = o->head;
    w15t_putc('{');
    if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR) {
        w15t_printf("%" PRIu32 " elements}", n);
        return;
    }
    for (uint32_t i = 0; i < shown && !w15t_out_stopped(); i++) {
        if (i)
            w15t_puts(", ");
        print_elem(t, v, i, o, bad, err);
    }
    if (shown < n)
        w15t_printf("%s... (%" PRIu32 " elements)", shown ? ", " : "", n);
    w15t_putc('}');
}

/* JSON */

static void jprint_blob(w15t_trace_t *t, const w15_blob_t *b, const w15t_print_opts_t *o, int *bad,
                        w15_error_t *err)
{
    const char *m = comp_lname(b->method);
    w15t_printf("{\"size\":%" PRIu32 ",\"method\":", b->size);
    if (m)
        w15t_printf("\"%s\"", m);
    else
        w15t_printf("%u", b->method);
    w15t_printf(",\"stored\":%" PRIu32 ",\"offset\":%" PRIu64, b->csize, b->offset);
    const uint8_t *d = b->size ? blob_bytes(t, b, bad, err) : (const uint8_t *)"";
    if (!d) {
        w15t_puts(",\"corrupt\":true}");
        return;
    }
    uint32_t n = b->size < o->blob_head ? b->size : o->blob_head;
    w15t_puts(",\"head\":\"");
    w15t_put_hexbytes(d, n, 0);
    if (b->size)
        w15t_printf("\",\"xxh3\":\"%016" PRIx64, blob_digest(d, b->size));
    w15t_puts("\"}");
}

static void jprint_named(uint64_t value, int is_signed, const char *name)
{
    if (is_signed)
        w15t_printf("{\"value\":%" PRId64 ",\"name\":", (int64_t)value);
    else
        w15t_printf("{\"value\":%" PRIu64 ",\"name\":", value);
    w15t_put_jstr(name);
    w15t_putc('}');
}

int w15t_print_pname_value(w15t_trace_t *t, const w15_call_t *c, uint32_t i, int json)
{
    if (i == 0 || i >= c->func->nargs)
        return 0;
    const w15_value_t *pn = &c->args[i - 1], *v = &c->args[i];
    if (pn->type.is_array || !pn->type.has_group || pn->type.base != W15_UINT || pn->count != 1 ||
        v->type.is_array || v->type.has_group || v->count != 1)
        return 0;
    const w15_group_t *g = w15_reader_group(t->r, pn->group);
    if (!g || g->type != W15_GROUP_ENUM || pn->v.u[0] > UINT32_MAX ||
        !(w15_pname_flags((uint32_t)pn->v.u[0]) & W15_PNAME_ENUM_VALUED))
        return 0;
    uint64_t value;
    int is_signed = 0;
    switch (v->type.base) {
    case W15_UINT:
        value = v->v.u[0];
        break;
    case W15_INT:
        if (v->v.i[0] < 0)
            return 0;
        value = (uint64_t)v->v.i[0];
        is_signed = 1;
        break;
    case W15_FLOAT: /* glTexParameterf(t, GL_TEXTURE_MIN_FILTER, 9728.0f) */
        if (!(v->v.f[0] >= 0 && v->v.f[0] < 4294967296.0f) || v->v.f[0] != (float)(uint32_t)v->v.f[0])
            return 0;
        value = (uint32_t)v->v.f[0];
        break;
    default:
        return 0;
    }
    const char *name = w15_enum_name(W15_NO_GROUP, value, 0);
    if (!name)
        return 0;
    if (json)
        jprint_named(value, is_signed, name);
    else
        w15t_puts(name);
    return 1;
}

static void jprint_elem(w15t_trace_t *t, const w15_value_t *v, uint32_t i,
                        const w15t_print_opts_t *o, int *bad, w15_error_t *err)
{
    char fb[40];
    char eb[1024];
    switch (v->type.base) {
    case W15_UINT:
    case W15_INT: {
        int sgn = v->type.base == W15_INT;
        uint64_t u = sgn ? (uint64_t)v->v.i[i] : v->v.u[i];
        if (v->type.has_group && w15t_enum_text(t, v->group, u, eb, sizeof eb))
            jprint_named(u, sgn, eb);
        else if (sgn)
            w15t_put_i64(v->v.i[i]);
        else
            w15t_put_u64(u);
        break;
    }
    case W15_PTR:
        if (v->type.has_group && w15t_enum_text(t, v->group, v->v.u[i], eb, sizeof eb))
            jprint_named(v->v.u[i], 0, eb);
        else if (v->v.u[i] == 0)
            w15t_puts("null");
        else
            w15t_printf("\"0x%" PRIx64 "\"", v->v.u[i]);
        break;
    case W15_BOOL:
        if (v->v.b[i] <= 1)
            w15t_puts(v->v.b[i] ? "true" : "false");
        else
            w15t_printf("%u", v->v.b[i]);
        break;
    case W15_FLOAT:
    case W15_DOUBLE:
        if (v->type.base == W15_FLOAT)
            w15t_fmt_float(fb, v->v.f[i]);
        else
            w15t_fmt_double(fb, v->v.d[i]);
        if (fb[0] == 'n' || fb[0] == 'i' || (fb[0] == '-' && (fb[1] == 'n' || fb[1] == 'i')))
            w15t_put_jstr(fb); /* JSON has no NaN or infinity: "nan", "-inf" */
        else
            w15t_puts(fb);
        break;
    case W15_STRING:
        w15t_put_jstring(v->v.s[i].ptr, v->v.s[i].len);
        break;
    case W15_DATA:
        jprint_blob(t, &v->v.data[i], o, bad, err);
        break;
    default:
        w15t_puts("null");
        break;
    }
}

void w15t_print_value_json(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o,
                           int *bad, w15_error_t *err)
{
    if (!v->type.is_array) {
        if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR || v->count == 0)
            w15t_puts("null");
        else
            jprint_elem(t, v, 0, o, bad, err);
        return;
    }
    w15t_putc('[');
    for (uint32_t i = 0; i < v->count && !w15t_out_stopped(); i++) {
        if (i)
            w15t_putc(',');
        if (v->type.base == W15_VOID || v->type.base == W15_FUNCPTR)
            w15t_puts("null");
        else
            jprint_elem(t, v, i, o, bad, err);
    }
    w15t_putc(']');
}
