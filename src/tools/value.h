/* value.h -- recorded values printed as `wip15 dump` shows them.
 *
 * Owns: the text and JSON spelling of every value a trace records
 * (numbers, enumerants and bitmasks by name, pointers, strings, arrays with
 * their elision rule, blobs as size, storage and leading bytes), EGL/GLX
 * attribute lists with their keys by name, and the enum-valued pname rule
 * (glTexParameteri(t, GL_TEXTURE_MIN_FILTER, GL_NEAREST)).  May use: walk.h
 * (groups and functions of the trace), the generated tables (apitable.h),
 * the format library (blob decompression), out.h, quote.h, number.h.  Must
 * never use: a command's options or call layout (cmd_dump.c decides what
 * goes on a line), stdio on stdout.
 */
#ifndef W15_TOOLS_VALUE_H
#define W15_TOOLS_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "walk.h"
#include "wip15/format.h"

typedef struct w15t_print_opts {
    int full;           /* print every array element and more blob bytes */
    unsigned max_inline;/* arrays up to this many elements print whole (16) */
    unsigned head;      /* elements shown of longer arrays (8) */
    unsigned blob_head; /* leading blob bytes shown (4; 16 with full) */
    int mark_unrecorded;/* text: "&0x..." for a non-NULL Ptr value that is not an
                         * object handle (no group): an address whose memory
                         * the trace does not hold */
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
 * generated table gives the parameter an attribute-list style,
 * glapi/annotations.txt `terminated` and `attribs`): the API bits
 * (W15_API_EGL or W15_API_GLX) whose enumerants name its keys; *style is
 * then set (enum w15_attribs). */
uint32_t w15t_attrib_api(w15t_trace_t *t, const w15_call_t *c, uint32_t arg, unsigned *style);
/* Print an attribute list as text: keys by their name in `api` where there
 * is one, values as numbers: {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE}.  A
 * key that w15_attrib_has_value(style, key) says stands alone (GLX 1.2's
 * booleans) is not followed by a value. */
void w15t_print_attribs(const w15_value_t *v, uint32_t api, unsigned style,
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

#endif
