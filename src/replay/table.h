/* table.h -- the replay table the generator prints (gen/replay_table.c,
 * codegen/emit_replay.py) from the registries and the replay-* annotations
 * of glapi/annotations.txt.  Hand-written types, generated data.
 *
 * Owns: the types of the generated replay table.
 * Used by: decode.c (roles), replay.c (thunks, kinds), wsi.c (handlers).
 * Must never: include a GL, GLX or EGL header (the generated protos.h has
 * the registry's own types; this header needs none of them).
 */
#ifndef RP_TABLE_H
#define RP_TABLE_H

#include <stdint.h>

#include "wip15/format.h"

/* One decoded argument or result, as the C call takes it. */
typedef union rp_val {
    uint64_t u;
    int64_t i;
    float f;
    double d;
    void *vp;
} rp_val_t;

/* Calls the real function `fn` with arguments a[] (one per parameter, in
 * order) and stores its result (if any) in *r. */
typedef void (*rp_thunk_t)(void *fn, const rp_val_t *a, rp_val_t *r);

enum rp_kind {
    RP_KIND_CALL = 0, /* decode, call the real function, apply the roles */
    RP_KIND_CUSTOM,   /* decode, then the hand-written handler (wsi.c) */
    RP_KIND_SKIP,     /* not replayed */
};

enum rp_role_kind {
    RP_ROLE_NONE = 0,
    RP_ROLE_CREATE,      /* param/result holds names the call creates */
    RP_ROLE_DELETE,      /* param holds names the call deletes */
    RP_ROLE_LOCATION,    /* a location/index of a program (kind: RP_LOC_*) */
    RP_ROLE_USE_PROGRAM, /* makes param the program in use */
    RP_ROLE_OFFSET,      /* a pointer that is an offset when a buffer is bound
                            at rp_bindings[kind], client memory otherwise */
    RP_ROLE_SCRATCH,     /* an output of state-dependent extent: zeroed
                            scratch memory of `count` elements */
    RP_ROLE_PASS,        /* a pointer GL never dereferences (a debug
                            callback's userParam): its recorded value */
    RP_ROLE_OBJECT,      /* a pointer that is an object of group type `kind`
                            (glObjectPtrLabel's GLsync): the replay's object */
    RP_ROLE_CHECK,       /* an output whose recorded values --check compares
                            with the replayed call's (glGetUniform*v) */
    RP_ROLE_TEXT,        /* text of a given length: GL gets a NUL after it
                            (the driver may read up to one) */
};

/* Kinds of program-relative numbers (replay-location KIND). */
enum rp_loc_kind {
    RP_LOC_UNIFORM = 1,
    RP_LOC_ATTRIB,
    RP_LOC_UNIFORM_BLOCK,
    RP_LOC_SUBROUTINE,
    RP_LOC_SUBROUTINE_UNIFORM,
};

#define RP_RESULT 0xffu   /* rp_role_t.param: the result */
#define RP_NO_ARG 0xffu   /* rp_role_t.arg: none */
#define RP_CURRENT 0xfeu  /* rp_role_t.arg of a location: the program in use */

typedef struct rp_role {
    uint8_t param; /* parameter index, or RP_RESULT */
    uint8_t role;  /* enum rp_role_kind */
    uint8_t kind;  /* enum rp_loc_kind for RP_ROLE_LOCATION; the W15_GROUP_*
                      type of RP_ROLE_OBJECT */
    uint8_t arg;   /* CREATE/DELETE: the range parameter (RP_NO_ARG: none);
                      LOCATION: the program parameter or RP_CURRENT */
    uint32_t count; /* SCRATCH: elements of the output */
} rp_role_t;

typedef struct rp_func {
    rp_thunk_t thunk;    /* NULL for RP_KIND_SKIP */
    uint16_t first_role; /* index into rp_roles */
    uint8_t nroles;
    uint8_t kind;        /* enum rp_kind */
    uint16_t handler;    /* index into rp_handlers (0: none) */
} rp_func_t;

/* A hand-written replay (src/replay/wsi.c): returns 0, or -1 when the call
 * could not be replayed (the handler has said why, once). */
struct rp_exec;
struct rp_call;
typedef int (*rp_handler_t)(struct rp_exec *x, const struct rp_call *c);
typedef struct rp_exec rp_exec_t;
typedef struct rp_call rp_call_t;

extern const rp_func_t rp_funcs[];  /* indexed like w15_funcs */
extern const uint32_t rp_nfuncs;
extern const rp_role_t rp_roles[];
extern const uint32_t rp_nroles;
extern const rp_handler_t rp_handlers[];
extern const char *const rp_handler_names[];
extern const uint32_t rp_nhandlers;
/* Per group type (w15_group_type_t): 1 per context, 2 per share group,
 * 0 not a GL object namespace. */
extern const uint8_t rp_scope[W15_GROUP_TYPE_COUNT_];
/* GL_*_BINDING enums of RP_ROLE_OFFSET roles. */
extern const uint32_t rp_bindings[];
extern const uint32_t rp_nbindings;
#define RP_SCOPE_CONTEXT 1
#define RP_SCOPE_SHARED 2

#endif
