/* apitable.h -- types of the tables the generator (codegen/) emits from the
 * Khronos registries plus glapi/annotations.  Hand-written; the generated
 * files in the build tree (gen/apitable.c, gen/funcs.h) fill them.
 *
 * Used by the tracer runtime (one generic recorder walks a function's
 * parameter signatures) and by the tools (enum and bit names, group names).
 * The enums below mirror lists of codegen/model.py (CTYPES, CAPS, LEN_OPS,
 * ATTRIBS, FLAGS, API_BITS): gen/apitable.c checks every value at build
 * time, so a change on one side only stops the build.
 */
#ifndef W15_APITABLE_H
#define W15_APITABLE_H

#include <stdint.h>
#include <stddef.h>

/* Which API a command belongs to (bit set: a command can be in several). */
enum w15_api {
    W15_API_GL = 1u << 0,    /* desktop GL, any version/profile, extensions */
    W15_API_GLES1 = 1u << 1,
    W15_API_GLES2 = 1u << 2, /* GLES 2.0 and 3.x */
    W15_API_GLSC2 = 1u << 3,
    W15_API_GLX = 1u << 4,
    W15_API_EGL = 1u << 5,
};

/* C type of a value or of an array element, as it sits in memory. */
enum w15_ctype {
    W15_C_VOID = 0,
    W15_C_I8, W15_C_U8, W15_C_I16, W15_C_U16, W15_C_I32, W15_C_U32,
    W15_C_I64, W15_C_U64, W15_C_F32, W15_C_F64,
    W15_C_PTR,     /* any pointer or handle (void*, GLsync, EGLDisplay, ...) */
    W15_C_FUNCPTR, /* callback */
    W15_C_LONG,    /* C long / unsigned long (XID) - 64-bit here */
    W15_C_COUNT_
};

/* How a parameter (or the result) is captured. */
enum w15_cap {
    W15_CAP_VALUE = 0,    /* passed by value; recorded as `base` */
    W15_CAP_STR_IN,       /* const char *, NUL-terminated (len rule NONE) or
                             exactly len bytes; NULL -> extra "wip15.null" */
    W15_CAP_STR_OUT,      /* char * written by the call; len = capacity;
                             len2 = param index of the GLsizei *length out
                             param (0xff: none, use strnlen) */
    W15_CAP_STR_ARRAY_IN, /* const char *const *: len strings; len2 = param
                             index of const GLint *lengths (0xff: none) */
    W15_CAP_ARRAY_IN,     /* const T *: len elements of ctype -> array of base */
    W15_CAP_ARRAY_OUT,    /* T *: len elements read after the call */
    W15_CAP_DATA_IN,      /* const void *: len bytes -> Data */
    W15_CAP_DATA_OUT,     /* void *: len bytes read after the call -> Data */
    W15_CAP_PTR,          /* pointer whose extent is unknown/deferred: Ptr */
    W15_CAP_COUNT_
};

/* How many elements (or bytes, for DATA) a pointer covers. */
enum w15_len_op {
    W15_LEN_NONE = 0,     /* not a sized pointer */
    W15_LEN_CONST,        /* b */
    W15_LEN_PARAM,        /* value of param a (negative -> 0) */
    W15_LEN_PARAM_MUL,    /* value of param a times b */
    W15_LEN_PARAM_MUL_PARAM, /* value of param a times value of param b */
    W15_LEN_DEREF,        /* *(GLint or GLsizei *)param a, read after the call */
    W15_LEN_HELPER,       /* w15_compsize[b](args) -- a named C helper */
    W15_LEN_TERMINATED,   /* attribute list: pairs up to and including the
                             terminator value b (EGL_NONE, None); elements */
    W15_LEN_NUL,          /* NUL-terminated string */
    W15_LEN_COUNT_
};

/* How the elements of an attribute list are laid out (tools print them as
 * KEY, value, ...; glapi/annotations.txt `terminated` and `attribs`). */
enum w15_attribs {
    W15_ATTRIBS_NONE = 0, /* not an attribute list */
    W15_ATTRIBS_PAIRS,    /* key, value, ..., terminator (EGL, GLX 1.3) */
    W15_ATTRIBS_GLX12,    /* glXChooseVisual (GLX 1.2): boolean keys stand alone */
    W15_ATTRIBS_COUNT_
};
/* Does `key` of a list of style `style` take a value after it?  (GLX 1.2:
 * GLX_USE_GL 1, GLX_RGBA 4, GLX_DOUBLEBUFFER 5, GLX_STEREO 6 do not.) */
static inline int w15_attrib_has_value(unsigned style, uint64_t key)
{
    return !(style == W15_ATTRIBS_GLX12 && (key == 1 || key == 4 || key == 5 || key == 6));
}

/* The buffer binding point under which a pointer parameter is an offset
 * into the bound buffer, not program memory (glapi/annotations.txt `offset`;
 * pixel pointers by themselves).  The recorder asks GL for the binding
 * (GL_<target>_BINDING) and records the value as an offset (the extra
 * wip15.offset) while a buffer is bound. */
enum w15_offset_target {
    W15_OFF_NONE = 0,
    W15_OFF_ARRAY_BUFFER,
    W15_OFF_ELEMENT_ARRAY_BUFFER,
    W15_OFF_PIXEL_PACK_BUFFER,
    W15_OFF_PIXEL_UNPACK_BUFFER,
    W15_OFF_DRAW_INDIRECT_BUFFER,
    W15_OFF_DISPATCH_INDIRECT_BUFFER,
    W15_OFF_PARAMETER_BUFFER,
    W15_OFF_QUERY_BUFFER,
    W15_OFF_COUNT_
};

#define W15_NO_GROUP 0xffffu
#define W15_NO_PARAM 0xffu

/* One parameter, or a function's result (stored after its parameters). */
typedef struct w15_param_sig {
    uint32_t name;    /* offset into w15_strpool */
    uint8_t base;     /* w15_base_t written to the trace */
    uint8_t is_array; /* written as an array */
    uint8_t cap;      /* enum w15_cap */
    uint8_t ctype;    /* enum w15_ctype of the value, or of each element */
    uint16_t group;   /* index into w15_groups, or W15_NO_GROUP */
    uint8_t len_op;   /* enum w15_len_op */
    uint8_t len_a;    /* param index (or W15_NO_PARAM) */
    uint32_t len_b;   /* constant, second param index, or helper id */
    uint8_t len2;     /* second param index for STR_OUT / STR_ARRAY_IN */
    uint8_t attribs;  /* enum w15_attribs */
    uint8_t offset;   /* enum w15_offset_target: an offset while a buffer is bound there */
    uint8_t pad_;
} w15_param_sig_t;

/* Function flags: what the runtime and the timing layer need to know. */
enum w15_fn_flag {
    W15_FN_FRAME_END = 1u << 0,    /* ends a frame (SwapBuffers and variants) */
    W15_FN_MAKE_CURRENT = 1u << 1, /* changes the current context */
    W15_FN_GET_PROC = 1u << 2,     /* returns a function pointer by name */
    W15_FN_CUSTOM = 1u << 3,       /* wrapper written by hand in src/tracer/custom.c */
    W15_FN_DRAW = 1u << 4,         /* draws and dispatches */
    W15_FN_UPLOAD = 1u << 5,       /* data uploads (buffer, texture) */
    W15_FN_READBACK = 1u << 6,     /* readbacks (ReadPixels, GetTexImage, GetBufferSubData) */
    W15_FN_CLEAR = 1u << 7,
    W15_FN_COMPILE = 1u << 8,
    W15_FN_LINK = 1u << 9,         /* links a program (implies GENERAL: statesize.c) */
    W15_FN_SYNC = 1u << 10,        /* fences, finish, flush, waits */
    W15_FN_GROUP_PUSH = 1u << 11,  /* glPushDebugGroup, glPushGroupMarkerEXT */
    W15_FN_GROUP_POP = 1u << 12,
    W15_FN_MARKER = 1u << 13,      /* glInsertEventMarkerEXT, glDebugMessageInsert,
                                      glStringMarkerGREMEDY */
    W15_FN_PIXEL_UNPACK = 1u << 14,/* has a pixel pointer that is an offset when a
                                      PIXEL_UNPACK_BUFFER is bound */
    W15_FN_PIXEL_PACK = 1u << 15,  /* same for PIXEL_PACK_BUFFER */
    W15_FN_GENERAL = 1u << 16,     /* the runtime must see every call (w15_pre/w15_post):
                                      no inline fast path; annotated, or implied by
                                      FRAME_END, MAKE_CURRENT, PIXEL_*, CUSTOM, UPLOAD,
                                      READBACK, LINK and the capture flags below */
    W15_FN_PSEUDO = 1u << 17,      /* a call the tracer writes itself (docs/FORMAT.md);
                                      index >= w15_nfuncs, no wrapper */
    W15_FN_TRACE_BEGIN = 1u << 18, /* the pseudo-call wip15TraceBegin */
    W15_FN_THREAD_SWITCH = 1u << 19, /* the pseudo-call wip15ThreadSwitch */
    /* What the capture (src/tracer/capture.h) does around a call; each
     * implies GENERAL. */
    W15_FN_VERTEX_DRAW = 1u << 20, /* pulls vertices from the vertex arrays: the
                                      client-side arrays it reads are captured first */
    W15_FN_MAP = 1u << 21,         /* returns a mapping of a buffer (glMapBuffer*) */
    W15_FN_UNMAP = 1u << 22,       /* ends a mapping (glUnmapBuffer*) */
    W15_FN_FLUSH_MAPPED = 1u << 23,/* flushes a range of a mapping (glFlushMapped*) */
    W15_FN_CONSUMES = 1u << 24,    /* GL may read or write buffer memory, or the
                                      program's writes become visible: writes through
                                      persistent mappings are captured first */
    W15_FN_SYNC_POINT = 1u << 25,  /* orders threads (MakeCurrent, flush, finish, fences,
                                      waits, swaps, creation and deletion of shared
                                      objects): carries the extra wip15.gseq */
    W15_FN_CONTEXT_CREATE = 1u << 26, /* creates a GLX/EGL context */
    W15_FN_CONTEXT_DESTROY = 1u << 27,/* destroys a GLX/EGL context */
    W15_FN_VERTEX_STATE = 1u << 28,/* sets or brackets the client-array state the capture
                                      follows (gl*Pointer*, divisors, glBegin/glEnd) */
    W15_FN_BUFFER_BIND = 1u << 29, /* binds a buffer to a target (glBindBuffer): maps.c
                                      follows GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD's
                                      binding, which GL cannot be asked; does not imply
                                      GENERAL: `general-if` sends only the binds of that
                                      target to the general path */
    W15_FN_OUTSIDE_BEGIN = 1u << 30,/* a GL command GL rejects between glBegin and glEnd
                                      (GL_INVALID_OPERATION, no memory read or written):
                                      every gl* command but those a vertex is specified
                                      with and the client-state ones (annotations) */
    W15_FN_EGL_ERROR = 1u << 31,   /* an EGL command: it sets the thread's EGL error
                                      (surfaces.c follows whether it is EGL_SUCCESS) */
};
/* Level "draws" of the timing layer covers these. */
#define W15_FN_DRAWS_MASK (W15_FN_FRAME_END | W15_FN_DRAW | W15_FN_UPLOAD | W15_FN_READBACK | \
                           W15_FN_CLEAR | W15_FN_COMPILE | W15_FN_LINK | W15_FN_SYNC)

typedef struct w15_func_sig {
    uint32_t name;        /* offset into w15_strpool */
    uint32_t first_param; /* index into w15_params; result at first_param + nparams */
    uint8_t nparams;
    uint8_t api;          /* enum w15_api bits */
    uint8_t context_param;/* MAKE_CURRENT: the parameter holding the context made
                             current (annotation `context`); else W15_NO_PARAM */
    uint8_t pad_;
    uint32_t flags;       /* enum w15_fn_flag */
} w15_func_sig_t;

/* A gl.xml group (or one of ours). */
typedef struct w15_group_sig {
    uint32_t name;        /* offset into w15_strpool; the gl.xml group name
                             where there is one ("EnableCap", "ClearBufferMask") */
    uint8_t type;         /* w15_group_type_t */
    uint8_t pad_;
    uint16_t pad2_;
    uint32_t first_enum;  /* index into w15_enums (ENUM and BITMASK groups) */
    uint32_t nenums;
} w15_group_sig_t;

/* One enumerant; within a group sorted by value (ties: preferred name first,
 * core names before extension suffixes). */
typedef struct w15_enum_sig {
    uint64_t value;
    uint32_t name;        /* offset into w15_strpool */
    uint32_t api;         /* enum w15_api bits the name is defined for */
} w15_enum_sig_t;

/* Generated data (gen/apitable.c). */
extern const char w15_strpool[];
/* The registry's commands (0 .. w15_nfuncs-1, W15F_<name> of gen/funcs.h),
 * then the pseudo-calls (w15_nfuncs .. w15_nfuncs + w15_npseudo - 1,
 * flag W15_FN_PSEUDO). */
extern const w15_func_sig_t w15_funcs[];
extern const uint32_t w15_nfuncs;
extern const uint32_t w15_npseudo;
extern const w15_param_sig_t w15_params[];
extern const w15_group_sig_t w15_groups[];
extern const uint32_t w15_ngroups;
extern const w15_enum_sig_t w15_enums[];
extern const uint32_t w15_nenums;
/* All enumerants of gl.xml, glx.xml and egl.xml sorted by value (ties:
 * preferred name first, as in w15_enums), for values whose parameter has
 * no group or whose group does not know them. */
extern const w15_enum_sig_t w15_all_enums[];
extern const uint32_t w15_nall_enums;
/* Function indices (pseudo-calls included) sorted by name, for w15_func_lookup. */
extern const uint16_t w15_funcs_by_name[];

/* One packed argument of a call: what a generated wrapper hands the
 * recorder (src/tracer/record.h) and a COMPSIZE helper reads.  Integer
 * types of any width are stored sign- or zero-extended in .u/.i as their C
 * type dictates, GLfloat in .f, GLdouble in .d, pointers, handles and
 * callbacks in .p. */
typedef union w15_slot {
    uint64_t u;
    int64_t i;
    double d;
    float f;
    const void *p;
} w15_slot_t;

/* Named helpers for COMPSIZE rules: w15_compsize[id](args) gives the number
 * of elements (ARRAY) or bytes (DATA) a pointer covers.  `args` are the
 * wrapper's packed arguments (see src/tracer/record.h).  Defined by hand in
 * src/tracer/compsize.c; the table of names is generated (gen/apitable.c
 * lists them in w15_compsize_names, and src/tracer/compsize.c must define
 * w15_compsize[] in the same order: codegen checks this). */
typedef size_t (*w15_compsize_fn)(const union w15_slot *args);
extern const w15_compsize_fn w15_compsize[];
extern const char *const w15_compsize_names[];
extern const uint32_t w15_ncompsize;
/* A helper returns 0 when it cannot tell the extent (unknown pname, NULL
 * string, unsupported format...): the pointer is then recorded as with
 * W15_CAP_PTR (extra wip15.ptr). */

/* Number of values a glGet*v, glGet*i_v, glTexParameter*v, glLight*v,
 * glMaterial*v, glGetProgramiv, ... pname takes (glapi/pnames.txt). */
typedef struct w15_pname_count {
    uint32_t pname;
    uint16_t count;
    uint16_t flags;     /* W15_PNAME_* */
} w15_pname_count_t;
/* The pname's one value is an enumerant (GL_TEXTURE_MIN_FILTER: GL_NEAREST). */
#define W15_PNAME_ENUM_VALUED 1u
extern const w15_pname_count_t w15_pname_counts[]; /* sorted by pname */
extern const uint32_t w15_npname_counts;
/* Count for `pname`, or 0 when the table does not know it. */
uint32_t w15_pname_count(uint32_t pname);
/* W15_PNAME_* flags of `pname`, 0 when the table does not know it. */
uint32_t w15_pname_flags(uint32_t pname);

static inline const char *w15_str(uint32_t off) { return w15_strpool + off; }

/* Function index by exact name (a command or a pseudo-call), or -1.  Binary
 * search over w15_funcs_by_name. */
int w15_func_lookup(const char *name);
/* Group index by name, or -1. */
int w15_group_lookup(const char *name);
/* Index of the first entry of e[0..n) (sorted by value) whose value is not
 * below `value`; n when there is none. */
uint32_t w15_enum_lower_bound(const w15_enum_sig_t *e, uint32_t n, uint64_t value);
/* Name of `value` among the enumerants of group `g` only (no fallback),
 * preferring one defined for `api_mask` (0: any); NULL when the group does
 * not list it. */
const char *w15_group_enum_name(uint32_t g, uint64_t value, uint32_t api_mask);
/* Name of `value` in group `g` (W15_NO_GROUP: any enumerant), preferring a
 * name defined for APIs in `api_mask` (0: any).  A value the group does not
 * know is looked up in w15_all_enums.  NULL when unknown, and always for an
 * object-name group (GroupType other than Enum/BitMask).  Bitmasks: call
 * once per bit. */
const char *w15_enum_name(uint32_t g, uint64_t value, uint32_t api_mask);

#endif
