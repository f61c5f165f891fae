/* util.h -- helpers shared by the `wip15` reading commands (info, dump,
 * verify, stats): buffered standard output that stays quiet on a closed
 * pipe, value printing (text and JSON), and a trace walker that follows
 * threads, frames and the tracer's pseudo-calls.
 *
 * Everything here is single-threaded and writes to the process's standard
 * output through one buffer (w15t_out_*); the commands never mix it with
 * stdio on stdout.
 */
#ifndef W15_TOOLS_UTIL_H
#define W15_TOOLS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "wip15/format.h"

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* Append bytes to the stdout buffer (written with write(2) when full).
 * After a write error every later call does nothing. */
void w15t_write(const void *p, size_t n);
void w15t_puts(const char *s);
void w15t_putc(char c);
void w15t_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Decimal / 0x-prefixed lowercase hex numbers, without printf. */
void w15t_put_u64(uint64_t v);
void w15t_put_i64(int64_t v);
void w15t_put_hex(uint64_t v);
/* Nonzero once output can no longer be written (reader closed the pipe, or a
 * write error): the caller should stop producing output. */
int w15t_out_stopped(void);
/* Flush.  Returns 0 when everything was written or the reader closed the
 * pipe (EPIPE: a normal, quiet end, as with `wip15 dump | head`), 1 after
 * any other write error (a message is printed on stderr). */
int w15t_out_finish(void);

/* One line "wip15: <cmd>: ..." on stderr. */
void w15t_err(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------ */
/* Number and string formatting                                        */

/* Shortest decimal text that strtof/strtod read back to the same bits
 * (tries %.1g .. %.9g / %.17g).  Infinities are "inf" / "-inf", NaNs "nan"
 * or "-nan", with the payload as "nan(0x...)" when it is not the default
 * quiet NaN; -0.0 is "-0".  `buf` needs 40 bytes.  Returns buf. */
char *w15t_fmt_float(char *buf, float f);
char *w15t_fmt_double(char *buf, double d);

/* Text: a C string literal, quoted; \n \t \r \" \\ escaped, other bytes
 * outside 0x20..0x7e as \xNN. */
void w15t_put_cstring(const char *s, size_t n);
/* JSON: a string literal if `s` is valid UTF-8 (escaping as RFC 8259
 * requires), otherwise {"hex":"..."} with every byte in hex. */
void w15t_put_jstring(const char *s, size_t n);
/* JSON string literal of a NUL-terminated string (same rule). */
void w15t_put_jstr(const char *s);

/* ------------------------------------------------------------------ */
/* A small hash map uint64 -> dense index (0, 1, 2, ...)              */

typedef struct w15t_map {
    uint64_t *keys;
    uint32_t *vals; /* dense index + 1; 0 = empty slot */
    size_t cap;     /* power of two */
    size_t n;       /* entries */
} w15t_map_t;

/* Dense index of `key`, or -1.  */
long w15t_map_get(const w15t_map_t *m, uint64_t key);
/* Dense index of `key`, adding it (as index m->n) when absent; *added is set
 * to 1 when it was added.  Returns -1 when out of memory. */
long w15t_map_put(w15t_map_t *m, uint64_t key, int *added);
void w15t_map_free(w15t_map_t *m);

/* ------------------------------------------------------------------ */
/* Trace walking                                                       */

/* What the tools know about a function of the trace. */
enum w15t_fn_kind {
    W15T_FN_NORMAL = 0,
    W15T_FN_PSEUDO,        /* any wip15* pseudo-call */
    W15T_FN_THREAD_SWITCH, /* wip15ThreadSwitch(tid, context, first_seq, name) */
};

typedef struct w15t_fninfo {
    uint8_t kind;      /* enum w15t_fn_kind */
    uint8_t frame_end; /* the generated tables flag it W15_FN_FRAME_END */
    int32_t table;     /* index in w15_funcs, or -1 */
} w15t_fninfo_t;

typedef struct w15t_trace {
    const char *path;
    w15_reader_t *r;
    w15_header_t hdr;
    w15t_map_t fmap;   /* trace function index -> finfo */
    w15t_fninfo_t *finfo;
    size_t nfinfo, capfinfo;
    w15t_map_t gmap;   /* trace group index -> gtable */
    int32_t *gtable;   /* generated-table group index or -1 */
    size_t ngtable, capgtable;
    /* thread state: the last wip15ThreadSwitch */
    int have_thread;
    uint64_t thread;
    w15_error_t err;   /* set after w15t_next returns TRUNCATED/ERROR */
} w15t_trace_t;

/* Open `path` for reading.  Returns 0, or 1 after printing the reader's
 * message ("wip15: <cmd>: ...") on stderr (nothing when cmd is NULL). */
int w15t_open(w15t_trace_t *t, const char *cmd, const char *path);
void w15t_close(w15t_trace_t *t);
/* Read the next operation (w15_reader_next).  On a call, updates the thread
 * state before returning (a ThreadSwitch belongs to the thread it starts). */
w15_next_t w15t_next(w15t_trace_t *t, w15_op_t *op);
/* What the tools know about a declared function (never NULL; a static
 * "normal" record when out of memory). */
const w15t_fninfo_t *w15t_fninfo(w15t_trace_t *t, const w15_func_t *f);
/* Generated-table group index of a trace group index, or -1. */
int32_t w15t_gtable(w15t_trace_t *t, uint32_t group);

/* Integer value of a scalar UnsignedInt/Int/Ptr/Bool value; 0 when the value
 * is not a scalar integer (then *ok = 0 when ok is not NULL). */
uint64_t w15t_scalar_u64(const w15_value_t *v, int *ok);

/* The `wip15.ptr` extra of a call: pointers recorded apart from their value
 * (NULL strings and data, buffer offsets, pointers of unknown extent). */
#define W15T_PTR_RESULT 0xffffffffu
typedef struct w15t_ptrs {
    uint32_t n;
    uint32_t cap;
    uint32_t *param;  /* parameter index or W15T_PTR_RESULT */
    uint64_t *value;
} w15t_ptrs_t;
/* Decode the wip15.ptr extra of `call` (if any) into `p` (reused between
 * calls; free with w15t_ptrs_free).  Returns 0, or -1 when the extra is
 * malformed or does not decompress (err then set). */
int w15t_ptrs_load(w15t_trace_t *t, const w15_call_t *call, w15t_ptrs_t *p, w15_error_t *err);
/* The pointer recorded for parameter `param`, or 0 with *found = 0. */
uint64_t w15t_ptrs_find(const w15t_ptrs_t *p, uint32_t param, int *found);
void w15t_ptrs_free(w15t_ptrs_t *p);

/* ------------------------------------------------------------------ */
/* Value printing                                                      */

typedef struct w15t_print_opts {
    int full;           /* print every array element and more blob bytes */
    unsigned max_inline;/* arrays up to this many elements print whole (16) */
    unsigned head;      /* elements shown of longer arrays (8) */
    unsigned blob_head; /* leading blob bytes shown (4; 16 with full) */
} w15t_print_opts_t;

void w15t_print_opts_default(w15t_print_opts_t *o);

/* Print one value as text (dump's format).  A blob that does not decompress
 * prints as <data ... corrupt> and sets *bad = 1 with err filled in. */
void w15t_print_value(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o,
                      int *bad, w15_error_t *err);
/* Same as JSON (format in docs/USAGE.md). */
void w15t_print_value_json(w15t_trace_t *t, const w15_value_t *v, const w15t_print_opts_t *o,
                           int *bad, w15_error_t *err);

/* Nonzero when argument `arg` of `c` is an EGL/GLX attribute list (the
 * generated tables give it a terminated length): the API bits (W15_API_EGL
 * or W15_API_GLX) whose enumerant names its keys. */
uint32_t w15t_attrib_api(w15t_trace_t *t, const w15_call_t *c, uint32_t arg);
/* Print an attribute list as text: keys (even positions) by their name in
 * `api` where there is one, values as numbers: {EGL_CONTEXT_CLIENT_VERSION,
 * 2, EGL_NONE}.  `func` is the function's name (glXChooseVisual has keys
 * without values). */
void w15t_print_attribs(const w15_value_t *v, uint32_t api, const char *func,
                        const w15t_print_opts_t *o);

/* Name text of `value` in trace group `group` into buf (cap bytes, at least
 * 64; a longer text is cut with "..."): an Enum group's enumerant name
 * ("GL_TEXTURE_2D"; hex when unknown), a BitMask's bits joined by " | "
 * (leftover bits in hex, 0 as "0").  Returns 1 when buf was filled, 0 when
 * the group names nothing (object namespaces, unknown bitmask groups): the
 * caller prints the plain number. */
int w15t_enum_text(w15t_trace_t *t, uint32_t group, uint64_t value, char *buf, size_t cap);

/* Argument `i` of `c` is a plain number that follows an enum-valued pname
 * (glTexParameteri(target, GL_TEXTURE_MIN_FILTER, 9728), see glapi/pnames.txt
 * "enum-valued"): print it by name (`GL_NEAREST`, or in JSON
 * {"value":9728,"name":"GL_NEAREST"}) and return 1; otherwise print nothing
 * and return 0. */
int w15t_print_pname_value(w15t_trace_t *t, const w15_call_t *c, uint32_t i, int json);

/* "0.0" / "0.0a" for a w15_version_t; "?" otherwise. */
const char *w15t_version_name(unsigned v);

/* Parse "A-B", "A-", "-B" or "A" into an inclusive range.  Returns 0 or -1. */
int w15t_parse_range(const char *s, uint64_t *lo, uint64_t *hi);
/* Parse an unsigned decimal (or 0x hex) number.  Returns 0 or -1. */
int w15t_parse_u64(const char *s, uint64_t *v);

#endif
