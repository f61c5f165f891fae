/* wtf_model.h -- a WTF trace in memory, as the offline tools see it.
 *
 * Owns: the model every reader fills and every writer and analysis reads
 * (w15_wtf_file_t: event definitions, events in file order with their
 * decoded arguments, zones), its arena, the argument types of event
 * signatures, the reader error codes, the built-in event names the tools
 * interpret, and reading a whole file into memory.  May use: libc only.
 * Must never use: a file format (wtf_reader.c reads .wtf-trace, wtf_json.c
 * .wtf-json, both into this model), json-c, the in-process emitter
 * (wtf_emitter.h: it runs inside the traced program and never builds a
 * model).
 */
#ifndef W15_WTF_MODEL_H
#define W15_WTF_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* Argument types of event signatures (wtf.data.Variable). */
#define W15_WTF_TYPES(X)                                                                                       \
    X(BOOL, "bool", 0, 4) X(INT8, "int8", 0, 4) X(UINT8, "uint8", 0, 4) X(INT16, "int16", 0, 4)                  \
    X(UINT16, "uint16", 0, 4) X(INT32, "int32", 0, 4) X(UINT32, "uint32", 0, 4) X(FLOAT32, "float32", 0, 4)      \
    X(ASCII, "ascii", 0, 4) X(UTF8, "utf8", 0, 4) X(ANY, "any", 0, 4) X(FLOWID, "flowId", 0, 4)                  \
    X(TIME32, "time32", 0, 4) X(INT8A, "int8[]", 1, 1) X(UINT8A, "uint8[]", 1, 1) X(INT16A, "int16[]", 1, 2)     \
    X(UINT16A, "uint16[]", 1, 2) X(INT32A, "int32[]", 1, 4) X(UINT32A, "uint32[]", 1, 4)                         \
    X(FLOAT32A, "float32[]", 1, 4)

typedef enum w15_wtf_type {
#define W15_X(e, s, arr, sz) W15_WTF_T_##e,
    W15_WTF_TYPES(W15_X)
#undef W15_X
        W15_WTF_T__COUNT
} w15_wtf_type_t;

/* Name of a type as in signatures ("uint32", "int8[]"); is it an array;
 * element size in bytes. */
const char *w15_wtf_type_name(w15_wtf_type_t t);
int w15_wtf_type_is_array(w15_wtf_type_t t);
unsigned w15_wtf_type_elem_size(w15_wtf_type_t t);
/* Parse a type name; returns 0 and sets *t, or -1. */
int w15_wtf_type_parse(const char *s, size_t n, w15_wtf_type_t *t);

typedef struct w15_wtf_argdef {
    w15_wtf_type_t type;
    char *name;
} w15_wtf_argdef_t;

typedef struct w15_wtf_def {
    uint16_t wire;
    uint16_t cls;          /* 0 instance, 1 scope */
    uint32_t flags;
    char *name;
    char *args;            /* signature text of the arguments, NULL if none */
    uint32_t nargs;
    w15_wtf_argdef_t *arg;
} w15_wtf_def_t;

typedef struct w15_wtf_value {
    w15_wtf_type_t type;
    uint32_t count;        /* arrays: elements */
    union {
        uint32_t u;        /* bool, uint*, flowId, time32 */
        int32_t i;         /* int* */
        float f;           /* float32 */
        const char *s;     /* ascii, utf8, any (JSON text); NULL = null */
        const void *arr;   /* arrays: count elements, little-endian */
    } v;
} w15_wtf_value_t;

typedef struct w15_wtf_event {
    const w15_wtf_def_t *def;
    uint32_t zone;         /* index into file->zones + 1; 0 = no zone set */
    uint32_t time;         /* microseconds since the timebase */
    uint32_t chunk;        /* index of the chunk (0 = first event chunk) */
    uint64_t offset;       /* byte offset in the file (0 for .wtf-json) */
    w15_wtf_value_t *args; /* def->nargs values */
} w15_wtf_event_t;

typedef struct w15_wtf_zoneinfo {
    uint32_t id;
    char *name, *type, *location;
} w15_wtf_zoneinfo_t;

typedef struct w15_wtf_file {
    char *path;
    double timebase;       /* ms since the Unix epoch */
    char *header_json;     /* the file header part (or a made-up one) */
    w15_wtf_def_t **defs;  /* ndefs, in order of definition */
    uint32_t ndefs;
    w15_wtf_event_t *events;
    size_t nevents;
    w15_wtf_zoneinfo_t *zones;
    uint32_t nzones;
    uint32_t nchunks;
    /* private */
    void *arena;
    w15_wtf_def_t **by_wire; /* 65536 entries */
    uint32_t cur_zone;
    size_t events_cap;
    uint32_t defs_cap;
    uint32_t zones_cap;
    uint32_t *zone_by_id;  /* 65536 entries: zone id -> index + 1 (latest) */
} w15_wtf_file_t;

/* Reader errors. */
#define W15_WTF_ERRORS(X)                                 \
    X(OK, "ok")                                           \
    X(IO, "cannot read the file")                         \
    X(NOMEM, "out of memory")                             \
    X(HEADER, "bad file header")                          \
    X(CHUNK, "bad chunk")                                 \
    X(PART, "bad part")                                   \
    X(EVENT, "bad event")                                 \
    X(JSON, "bad JSON")                                   \
    X(TRUNCATED, "truncated")

typedef enum w15_wtf_err {
#define W15_X(e, m) W15_WTF_E_##e,
    W15_WTF_ERRORS(W15_X)
#undef W15_X
} w15_wtf_err_t;

const char *w15_wtf_strerror(w15_wtf_err_t e);

/* Free a model made by a reader or w15_wtf_file_new (NULL is fine). */
void w15_wtf_file_free(w15_wtf_file_t *f);

/* Read the whole file `path` into a malloc'd buffer (*data, *n bytes; the
 * caller frees it).  On failure returns W15_WTF_E_IO or W15_WTF_E_NOMEM with
 * "PATH: reason" in err and sets nothing. */
w15_wtf_err_t w15_wtf_read_file(const char *path, uint8_t **data, size_t *n, char *err, size_t errlen);

/* Building a model (used by the readers): */
w15_wtf_file_t *w15_wtf_file_new(const char *path);
void *w15_wtf_alloc(w15_wtf_file_t *f, size_t n);     /* zeroed, freed with f */
char *w15_wtf_strdup(w15_wtf_file_t *f, const char *s, size_t n);
/* Define an event (first definition of a name wins, as in the loader);
 * parses `args` ("uint32 a, ascii b").  Returns the definition now bound
 * to `wire`, or NULL with err filled when args do not parse. */
const w15_wtf_def_t *w15_wtf_define(w15_wtf_file_t *f, uint16_t wire, uint16_t cls, uint32_t flags, const char *name,
                                    const char *args, char *err, size_t errlen);
const w15_wtf_def_t *w15_wtf_def_by_wire(const w15_wtf_file_t *f, uint16_t wire);
const w15_wtf_def_t *w15_wtf_def_by_name(const w15_wtf_file_t *f, const char *name);
/* Append an event (args copied); NULL when out of memory. */
w15_wtf_event_t *w15_wtf_add_event(w15_wtf_file_t *f, const w15_wtf_def_t *d, uint32_t time, const w15_wtf_value_t *args);
/* Apply the built-in semantics of the last event added (zone#create and
 * zone#set update zones; the current zone is tracked).  Returns 0, or -1
 * with err filled (zone#set of an unknown zone). */
int w15_wtf_apply_builtin(w15_wtf_file_t *f, w15_wtf_event_t *e, char *err, size_t errlen);

/* Argument i of e as a string (ascii, utf8, any; NULL for null, for other
 * types and when there is no argument i). */
const char *w15_wtf_arg_str(const w15_wtf_event_t *e, uint32_t i);
/* Argument i of e as an integer (bool, int*, uint*, flowId, time32): 0 and
 * *v set, or -1 for other types and when there is no argument i. */
int w15_wtf_arg_u32(const w15_wtf_event_t *e, uint32_t i, uint32_t *v);

/* Names of the built-ins the tools interpret. */
#define W15_WTF_EV_DEFINE "wtf.event#define"
#define W15_WTF_EV_ZONE_CREATE "wtf.zone#create"
#define W15_WTF_EV_ZONE_SET "wtf.zone#set"
#define W15_WTF_EV_SCOPE_ENTER "wtf.scope#enter"
#define W15_WTF_EV_SCOPE_LEAVE "wtf.scope#leave"
#define W15_WTF_EV_TIMESTAMP "wtf.trace#timeStamp"
#define W15_WTF_EV_MARK "wtf.trace#mark"
#define W15_WTF_EV_FRAME_START "wtf.timing#frameStart"
#define W15_WTF_EV_FRAME_END "wtf.timing#frameEnd"

#endif
