/* wtf_json.c -- .wtf-json read (json-c, one object at a time, so a missing
 * ']' and trailing commas are tolerated by structure) and write. */
#define _GNU_SOURCE
#include "wtf_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name, *args;
    uint16_t cls;
    uint32_t flags;
} builtin_sigs[] = {
    {"wtf.event#define", "uint16 wireId, uint16 eventClass, uint32 flags, ascii name, ascii args", 0, 40},
    {"wtf.zone#create", "uint16 zoneId, ascii name, ascii type, ascii location", 0, 40},
    {"wtf.zone#delete", "uint16 zoneId", 0, 40},
    {"wtf.zone#set", "uint16 zoneId", 0, 40},
    {"wtf.scope#enter", "ascii name", 1, 32},
    {"wtf.scope#leave", NULL, 0, 40},
    {"wtf.scope#appendData", "ascii name, any value", 0, 56},
    {"wtf.trace#mark", "ascii name, any value", 0, 40},
    {"wtf.trace#timeStamp", "ascii name, any value", 0, 32},
    {"wtf.timeRange#begin", "uint32 id, ascii name, any value", 0, 40},
    {"wtf.timeRange#end", "uint32 id", 0, 40},
    {"wtf.timing#frameStart", "uint32 number", 0, 8},
    {"wtf.timing#frameEnd", "uint32 number", 0, 8},
};

typedef struct jr {
    w15_wtf_file_t *f;
    const char *name;
    char *err;
    size_t errlen;
    uint32_t next_wire;
    size_t entry; /* index of the current array element, for messages */
    size_t off;
} jr_t;

static w15_wtf_err_t jerr(jr_t *r, w15_wtf_err_t code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->err && r->errlen)
        snprintf(r->err, r->errlen, "%s: byte %zu (entry %zu): %s", r->name, r->off, r->entry, msg);
    return code;
}

static uint16_t free_wire(jr_t *r)
{
    while (r->next_wire <= 0xFFFF && r->f->by_wire[r->next_wire])
        r->next_wire++;
    return r->next_wire <= 0xFFFF ? (uint16_t)r->next_wire++ : 0;
}

/* Define and record a wtf.event#define event, as the binary form has. */
static const w15_wtf_def_t *define(jr_t *r, uint16_t wire, uint16_t cls, uint32_t flags, const char *name,
                                   const char *args, uint32_t time)
{
    char msg[300] = "";
    const w15_wtf_def_t *dd = w15_wtf_def_by_wire(r->f, 1);
    const w15_wtf_def_t *d = w15_wtf_define(r->f, wire, cls, flags, name, args, msg, sizeof msg);
    if (!d) {
        jerr(r, W15_WTF_E_JSON, "%s", msg[0] ? msg : "out of memory");
        return NULL;
    }
    w15_wtf_value_t v[5];
    memset(v, 0, sizeof v);
    v[0].type = W15_WTF_T_UINT16;
    v[0].v.u = wire;
    v[1].type = W15_WTF_T_UINT16;
    v[1].v.u = cls;
    v[2].type = W15_WTF_T_UINT32;
    v[2].v.u = flags;
    v[3].type = W15_WTF_T_ASCII;
    v[3].v.s = d->name;
    v[4].type = W15_WTF_T_ASCII;
    v[4].v.s = args ? w15_wtf_strdup(r->f, args, strlen(args)) : NULL;
    if (dd && !w15_wtf_add_event(r->f, dd, time, v)) {
        jerr(r, W15_WTF_E_NOMEM, "out of memory");
        return NULL;
    }
    return d;
}

static int get_time(json_object *o, uint32_t *us)
{
    json_object *t;
    if (!json_object_object_get_ex(o, "time", &t) || !t) {
        *us = 0;
        return 0;
    }
    if (!json_object_is_type(t, json_type_double) && !json_object_is_type(t, json_type_int))
        return -1;
    double ms = json_object_get_double(t);
    double v = floor(ms * 1000.0 + 0.5);
    if (!(v >= 0 && v <= 4294967295.0))
        return -1;
    *us = (uint32_t)v;
    return 0;
}

static w15_wtf_err_t do_define(jr_t *r, json_object *o)
{
    json_object *sig, *cls, *flags, *id;
    if (!json_object_object_get_ex(o, "signature", &sig) || !json_object_is_type(sig, json_type_string))
        return jerr(r, W15_WTF_E_JSON, "expected a \"signature\" string in wtf.event.define");
    const char *s = json_object_get_string(sig);
    size_t n = strlen(s);
    char *name = NULL, *args = NULL;
    /* "name(args)": args are inside the last '(' when the text ends with ')' */
    const char *lp = n && s[n - 1] == ')' ? strrchr(s, '(') : NULL;
    if (lp) {
        name = strndup(s, (size_t)(lp - s));
        args = strndup(lp + 1, (size_t)(s + n - 1 - (lp + 1)));
        if (args && !args[strspn(args, " \t")]) {
            free(args);
            args = NULL;
        }
    } else {
        name = strdup(s);
    }
    uint16_t c = 1; /* the seed: scope is the default class */
    if (json_object_object_get_ex(o, "class", &cls) && cls) {
        const char *cs = json_object_get_string(cls);
        if (strcmp(cs, "instance") == 0 || strcmp(cs, "0") == 0)
            c = 0;
        else if (strcmp(cs, "scope") == 0 || strcmp(cs, "1") == 0)
            c = 1;
        else {
            free(name);
            free(args);
            return jerr(r, W15_WTF_E_JSON, "expected class \"scope\" or \"instance\", found \"%s\"", cs);
        }
    }
    uint32_t fl = json_object_object_get_ex(o, "flags", &flags) && flags ? (uint32_t)json_object_get_int64(flags) : 0;
    uint16_t wire;
    if (json_object_object_get_ex(o, "event_id", &id) && id) {
        int64_t v = json_object_get_int64(id);
        if (!json_object_is_type(id, json_type_int) || v < 1 || v > 0xFFFF) {
            free(name);
            free(args);
            return jerr(r, W15_WTF_E_JSON, "expected an event_id 1..65535");
        }
        wire = (uint16_t)v;
    } else {
        wire = free_wire(r);
    }
    uint32_t t = 0;
    get_time(o, &t);
    const w15_wtf_def_t *d = NULL;
    if (name && wire) {
        d = define(r, wire, c, fl, name, args, t);
        if (!d && args) { /* an argument list that does not parse: the whole text is the name */
            char *whole = strdup(s);
            d = whole ? define(r, wire, c, fl, whole, NULL, t) : NULL;
            free(whole);
            if (d && r->err)
                r->err[0] = 0;
        }
    }
    free(name);
    free(args);
    if (!d)
        return r->err && r->err[0] ? W15_WTF_E_JSON : jerr(r, W15_WTF_E_JSON, "cannot define the event");
    return W15_WTF_E_OK;
}

static const w15_wtf_def_t *lookup(jr_t *r, json_object *ev)
{
    if (json_object_is_type(ev, json_type_int)) {
        int64_t v = json_object_get_int64(ev);
        return v >= 1 && v <= 0xFFFF ? w15_wtf_def_by_wire(r->f, (uint16_t)v) : NULL;
    }
    if (!json_object_is_type(ev, json_type_string))
        return NULL;
    const char *n = json_object_get_string(ev);
    const w15_wtf_def_t *d = w15_wtf_def_by_name(r->f, n);
    if (d)
        return d;
    for (size_t i = 0; i < sizeof builtin_sigs / sizeof builtin_sigs[0]; i++)
        if (strcmp(builtin_sigs[i].name, n) == 0) {
            uint16_t w = strcmp(n, "wtf.event#define") == 0 ? 1 : free_wire(r);
            return w ? define(r, w, builtin_sigs[i].cls, builtin_sigs[i].flags, n, builtin_sigs[i].args, 0) : NULL;
        }
    return NULL;
}

static int to_value(jr_t *r, const w15_wtf_argdef_t *a, json_object *j, w15_wtf_value_t *v)
{
    memset(v, 0, sizeof *v);
    v->type = a->type;
    if (w15_wtf_type_is_array(a->type)) {
        if (!j) {
            v->count = 0;
            return 0;
        }
        if (!json_object_is_type(j, json_type_array))
            return -1;
        size_t n = json_object_array_length(j), es = w15_wtf_type_elem_size(a->type);
        uint8_t *b = w15_wtf_alloc(r->f, n * es + 1);
        if (!b)
            return -1;
        for (size_t i = 0; i < n; i++) {
            json_object *x = json_object_array_get_idx(j, i);
            uint32_t u;
            if (a->type == W15_WTF_T_FLOAT32A) {
                float fl = (float)json_object_get_double(x);
                memcpy(&u, &fl, 4);
            } else {
                u = (uint32_t)json_object_get_int64(x);
            }
            for (size_t k = 0; k < es; k++)
                b[i * es + k] = (uint8_t)(u >> (8 * k));
        }
        v->count = (uint32_t)n;
        v->v.arr = b;
        return 0;
    }
    switch (a->type) {
    case W15_WTF_T_ASCII:
    case W15_WTF_T_UTF8:
        if (!j) {
            v->v.s = NULL;
            return 0;
        }
        if (!json_object_is_type(j, json_type_string))
            return -1;
        v->v.s = w15_wtf_strdup(r->f, json_object_get_string(j), (size_t)json_object_get_string_len(j));
        return v->v.s ? 0 : -1;
    case W15_WTF_T_ANY:
        if (!j) {
            v->v.s = NULL;
            return 0;
        }
        {
            const char *t = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
            v->v.s = w15_wtf_strdup(r->f, t, strlen(t));
            return v->v.s ? 0 : -1;
        }
    case W15_WTF_T_FLOAT32:
        v->v.f = j ? (float)json_object_get_double(j) : 0.0f;
        return 0;
    case W15_WTF_T_INT8:
    case W15_WTF_T_INT16:
    case W15_WTF_T_INT32:
        v->v.i = j ? (int32_t)json_object_get_int64(j) : 0;
        return 0;
    case W15_WTF_T_BOOL:
        v->v.u = j ? (uint32_t)json_object_get_boolean(j) : 0;
        return 0;
    default:
        v->v.u = j ? (uint32_t)json_object_get_int64(j) : 0;
        return 0;
    }
}

static w15_wtf_err_t do_event(jr_t *r, json_object *o, json_object *ev)
{
    const w15_wtf_def_t *d = lookup(r, ev);
    if (!d)
        return jerr(r, W15_WTF_E_JSON, "event %s was never defined", json_object_to_json_string(ev));
    uint32_t t;
    if (get_time(o, &t) != 0)
        return jerr(r, W15_WTF_E_JSON, "expected \"time\" in ms, 0 to 4294967.295");
    json_object *args = NULL;
    json_object_object_get_ex(o, "args", &args);
    w15_wtf_value_t vals[64];
    if (d->nargs > 64)
        return jerr(r, W15_WTF_E_JSON, "too many arguments");
    for (uint32_t i = 0; i < d->nargs; i++) {
        json_object *j = NULL;
        if (args && json_object_is_type(args, json_type_array))
            j = i < json_object_array_length(args) ? json_object_array_get_idx(args, i) : NULL;
        else if (args && json_object_is_type(args, json_type_object))
            json_object_object_get_ex(args, d->arg[i].name, &j);
        if (to_value(r, &d->arg[i], j, &vals[i]) != 0)
            return jerr(r, W15_WTF_E_JSON, "argument %u (%s %s) of \"%s\" has the wrong JSON type", i,
                        w15_wtf_type_name(d->arg[i].type), d->arg[i].name, d->name);
    }
    if (strcmp(d->name, "wtf.event#define") == 0) {
        if (d->nargs < 5 || !vals[0].v.u || vals[0].v.u > 0xFFFF || !vals[3].v.s)
            return jerr(r, W15_WTF_E_JSON, "bad wtf.event#define arguments");
        return define(r, (uint16_t)vals[0].v.u, (uint16_t)vals[1].v.u, vals[2].v.u, vals[3].v.s, vals[4].v.s, t)
                   ? W15_WTF_E_OK
                   : W15_WTF_E_JSON;
    }
    w15_wtf_event_t *e = w15_wtf_add_event(r->f, d, t, vals);
    if (!e)
        return jerr(r, W15_WTF_E_NOMEM, "out of memory");
    char msg[300];
    if (w15_wtf_apply_builtin(r->f, e, msg, sizeof msg) != 0)
        return jerr(r, W15_WTF_E_JSON, "%s", msg);
    return W15_WTF_E_OK;
}

static w15_wtf_err_t do_header(jr_t *r, json_object *o)
{
    json_object *x;
    if (json_object_object_get_ex(o, "format_version", &x) && x && json_object_get_int64(x) != 1)
        return jerr(r, W15_WTF_E_JSON, "expected format_version 1, found %s", json_object_to_json_string(x));
    if (json_object_object_get_ex(o, "timebase", &x) && x)
        r->f->timebase = json_object_get_double(x);
    if (json_object_object_get_ex(o, "wip15_file_header", &x) && x && json_object_is_type(x, json_type_object)) {
        free(r->f->header_json);
        r->f->header_json = strdup(json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
    }
    return W15_WTF_E_OK;
}

w15_wtf_err_t w15_wtf_json_read_mem(const char *text, size_t n, const char *name, w15_wtf_file_t **out, char *err,
                                    size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    jr_t r = {NULL, name ? name : "(memory)", err, errlen, 2, 0, 0};
    r.f = w15_wtf_file_new(name);
    if (!r.f)
        return W15_WTF_E_NOMEM;
    w15_wtf_err_t e = W15_WTF_E_OK;
    if (!w15_wtf_define(r.f, 1, 0, 40, "wtf.event#define",
                        "uint16 wireId, uint16 eventClass, uint32 flags, ascii name, ascii args", NULL, 0)) {
        w15_wtf_file_free(r.f);
        return W15_WTF_E_NOMEM;
    }
    json_tokener *tok = json_tokener_new();
    if (!tok) {
        w15_wtf_file_free(r.f);
        return W15_WTF_E_NOMEM;
    }
    size_t p = 0;
    while (p < n && (text[p] == ' ' || text[p] == '\t' || text[p] == '\n' || text[p] == '\r'))
        p++;
    if (p < n && text[p] == '[')
        p++; /* the array's ']' is optional, so is this */
    for (;;) {
        /* separators: whitespace and commas (any number: trailing commas) */
        while (p < n && (text[p] == ' ' || text[p] == '\t' || text[p] == '\n' || text[p] == '\r' || text[p] == ','))
            p++;
        if (p >= n || text[p] == ']' || text[p] == 0)
            break;
        r.off = p;
        json_tokener_reset(tok);
        size_t left = n - p;
        json_object *o = json_tokener_parse_ex(tok, text + p, left > 0x7FFFFFFF ? 0x7FFFFFFF : (int)left);
        enum json_tokener_error je = json_tokener_get_error(tok);
        if (!o) {
            e = jerr(&r, je == json_tokener_continue ? W15_WTF_E_TRUNCATED : W15_WTF_E_JSON, "%s",
                     je == json_tokener_continue ? "expected the rest of this object, found the end of the file"
                                                 : json_tokener_error_desc(je));
            break;
        }
        p += json_tokener_get_parse_end(tok);
        if (!json_object_is_type(o, json_type_object)) {
            json_object_put(o);
            e = jerr(&r, W15_WTF_E_JSON, "expected an object");
            break;
        }
        json_object *type, *ev;
        if (json_object_object_get_ex(o, "type", &type) && type) {
            const char *ts = json_object_get_string(type);
            if (strcmp(ts, "wtf.json.header") == 0)
                e = do_header(&r, o);
            else if (strcmp(ts, "wtf.event.define") == 0)
                e = do_define(&r, o);
            else
                e = jerr(&r, W15_WTF_E_JSON, "unknown entry type \"%s\"", ts);
        } else if (json_object_object_get_ex(o, "event", &ev) && ev) {
            e = do_event(&r, o, ev);
        } else {
            e = jerr(&r, W15_WTF_E_JSON, "expected an object with \"type\" or \"event\"");
        }
        json_object_put(o);
        if (e != W15_WTF_E_OK)
            break;
        r.entry++;
    }
    json_tokener_free(tok);
    if (e != W15_WTF_E_OK) {
        w15_wtf_file_free(r.f);
        return e;
    }
    *out = r.f;
    return W15_WTF_E_OK;
}

w15_wtf_err_t w15_wtf_json_read(const char *path, w15_wtf_file_t **out, char *err, size_t errlen)
{
    *out = NULL;
    uint8_t *b;
    size_t len;
    w15_wtf_err_t r = w15_wtf_read_file(path, &b, &len, err, errlen);
    if (r != W15_WTF_E_OK)
        return r;
    w15_wtf_err_t e = w15_wtf_json_read_mem((const char *)b, len, path, out, err, errlen);
    free(b);
    return e;
}

/* ---------------------------------------------------------------- writer -- */

static json_object *value_json(const w15_wtf_value_t *v)
{
    if (w15_wtf_type_is_array(v->type)) {
        json_object *a = json_object_new_array();
        unsigned es = w15_wtf_type_elem_size(v->type);
        const uint8_t *b = v->v.arr;
        for (uint32_t i = 0; a && i < v->count; i++) {
            uint32_t u = 0;
            for (unsigned k = 0; k < es; k++)
                u |= (uint32_t)b[i * es + k] << (8 * k);
            json_object *x;
            switch (v->type) {
            case W15_WTF_T_INT8A:
                x = json_object_new_int((int8_t)u);
                break;
            case W15_WTF_T_INT16A:
                x = json_object_new_int((int16_t)u);
                break;
            case W15_WTF_T_INT32A:
                x = json_object_new_int((int32_t)u);
                break;
            case W15_WTF_T_FLOAT32A: {
                float fl;
                memcpy(&fl, &u, 4);
                x = json_object_new_double(fl);
                break;
            }
            default:
                x = json_object_new_int64(u);
            }
            json_object_array_add(a, x);
        }
        return a;
    }
    switch (v->type) {
    case W15_WTF_T_ASCII:
    case W15_WTF_T_UTF8:
        return v->v.s ? json_object_new_string(v->v.s) : NULL;
    case W15_WTF_T_ANY:
        if (!v->v.s)
            return NULL;
        {
            json_object *o = json_tokener_parse(v->v.s);
            return o ? o : json_object_new_string(v->v.s);
        }
    case W15_WTF_T_FLOAT32:
        return json_object_new_double(v->v.f);
    case W15_WTF_T_INT8:
    case W15_WTF_T_INT16:
    case W15_WTF_T_INT32:
        return json_object_new_int(v->v.i);
    case W15_WTF_T_BOOL:
        return json_object_new_boolean((json_bool)v->v.u);
    default:
        return json_object_new_int64(v->v.u);
    }
}

static int put(FILE *fp, json_object *o, int first)
{
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    int r = fprintf(fp, "%s%s", first ? "[\n" : ",\n", s);
    json_object_put(o);
    return r < 0 ? -1 : 0;
}

static json_object *time_json(uint32_t us)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%u.%03u", us / 1000u, us % 1000u);
    return json_object_new_double_s((double)us / 1000.0, buf);
}

int w15_wtf_json_write(const w15_wtf_file_t *f, FILE *fp)
{
    json_object *h = json_object_new_object();
    json_object_object_add(h, "type", json_object_new_string("wtf.json.header"));
    json_object_object_add(h, "format_version", json_object_new_int(1));
    json_object_object_add(h, "high_resolution_times", json_object_new_boolean(1));
    char tb[64];
    snprintf(tb, sizeof tb, "%.3f", f->timebase);
    json_object_object_add(h, "timebase", json_object_new_double_s(f->timebase, tb));
    if (f->header_json) {
        json_object *fh = json_tokener_parse(f->header_json);
        if (fh)
            json_object_object_add(h, "wip15_file_header", fh);
    }
    if (put(fp, h, 1) != 0)
        return -1;
    for (size_t i = 0; i < f->nevents; i++) {
        const w15_wtf_event_t *e = &f->events[i];
        json_object *o = json_object_new_object();
        if (strcmp(e->def->name, "wtf.event#define") == 0 && e->def->nargs >= 5) {
            const char *nm = e->args[3].v.s ? e->args[3].v.s : "";
            const char *as = e->args[4].v.s ? e->args[4].v.s : "";
            size_t n = strlen(nm) + strlen(as) + 3;
            char *sig = malloc(n);
            if (!sig) {
                json_object_put(o);
                return -1;
            }
            snprintf(sig, n, "%s(%s)", nm, as);
            json_object_object_add(o, "type", json_object_new_string("wtf.event.define"));
            json_object_object_add(o, "signature", json_object_new_string(sig));
            free(sig);
            json_object_object_add(o, "class", json_object_new_string(e->args[1].v.u ? "scope" : "instance"));
            json_object_object_add(o, "flags", json_object_new_int64(e->args[2].v.u));
            json_object_object_add(o, "event_id", json_object_new_int64(e->args[0].v.u));
            if (e->time)
                json_object_object_add(o, "time", time_json(e->time));
        } else {
            json_object_object_add(o, "event", json_object_new_int(e->def->wire));
            json_object_object_add(o, "time", time_json(e->time));
            if (e->def->nargs) {
                json_object *a = json_object_new_array();
                for (uint32_t k = 0; k < e->def->nargs; k++)
                    json_object_array_add(a, value_json(&e->args[k]));
                json_object_object_add(o, "args", a);
            }
        }
        if (put(fp, o, 0) != 0)
            return -1;
    }
    if (fprintf(fp, "\n]\n") < 0)
        return -1;
    return fflush(fp) == 0 ? 0 : -1;
}
