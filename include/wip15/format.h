/* wip15/format.h -- the WIP15 call-trace format: types, writer and reader.
 *
 * The byte layout is documented in docs/FORMAT.md.  This header is the
 * public API of libwip15format, used by the tracer (writing) and by every
 * tool (reading).
 *
 * Conventions
 *  - Every function returns 0 (or a non-NULL pointer) on success.  Functions
 *    that can fail take a `w15_error_t *` which, on failure, receives a code
 *    and a one-line message naming the file, the byte offset and what was
 *    expected.  `err` may be NULL when the caller does not care.
 *  - Nothing here aborts or exits; no function keeps a pointer to caller
 *    memory after it returns unless stated.
 *  - Objects are not thread-safe unless stated; one writer or reader per
 *    thread at a time.
 */
#ifndef WIP15_FORMAT_H
#define WIP15_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Format constants                                                    */

#define W15_MAGIC "WIP15"
#define W15_ENDIAN_LITTLE '_'
#define W15_ENDIAN_BIG '-'

/* Versions a reader can meet. */
typedef enum w15_version {
    W15_VERSION_0_0 = 0,  /* "WIP15" endian 0x00 0x00: written by us */
    W15_VERSION_0_0A = 1, /* "WIP15" endian "0.0a            ": read only */
} w15_version_t;

typedef enum w15_base {
    W15_VOID = 0,
    W15_UINT = 1,
    W15_INT = 2,
    W15_PTR = 3,
    W15_BOOL = 4,
    W15_FLOAT = 5,
    W15_DOUBLE = 6,
    W15_STRING = 7,
    W15_DATA = 8,
    W15_FUNCPTR = 9,
    W15_BASE_COUNT_
} w15_base_t;

/* A Type as stored in OpDeclFunc: three bytes. */
typedef struct w15_type {
    uint8_t base;      /* w15_base_t */
    uint8_t has_group; /* 0 or 1 */
    uint8_t is_array;  /* 0 or 1 */
} w15_type_t;

typedef enum w15_comp {
    W15_COMP_NONE = 0,
    W15_COMP_ZLIB = 1,
    W15_COMP_LZ4 = 2, /* one LZ4 block (LZ4_compress_default), not a frame */
    W15_COMP_COUNT_
} w15_comp_t;

/* GroupType.  0..16 are the seed document's; 17.. are this project's
 * extensions (docs/FORMAT.md, "Group types"). */
typedef enum w15_group_type {
    W15_GROUP_ENUM = 0,
    W15_GROUP_BITMASK = 1,
    W15_GROUP_GL_BUFFERS = 2,
    W15_GROUP_GL_SAMPLERS = 3,
    W15_GROUP_GL_TEXTURES = 4,
    W15_GROUP_GL_QUERIES = 5,
    W15_GROUP_GL_FRAMEBUFFERS = 6,
    W15_GROUP_GL_RENDERBUFFERS = 7,
    W15_GROUP_GL_SYNCS = 8,
    W15_GROUP_GL_PROGRAMS = 9,
    W15_GROUP_GL_PROGRAM_PIPELINES = 10,
    W15_GROUP_GL_SHADERS = 11,
    W15_GROUP_GL_VAOS = 12,
    W15_GROUP_GL_TRANSFORM_FEEDBACKS = 13,
    W15_GROUP_EGL_OES_IMAGES = 14,
    W15_GROUP_GLX_FBCONFIGS = 15,
    W15_GROUP_GLX_CONTEXTS = 16,
    /* project extensions */
    W15_GROUP_EGL_DISPLAYS = 17,
    W15_GROUP_EGL_CONFIGS = 18,
    W15_GROUP_EGL_CONTEXTS = 19,
    W15_GROUP_EGL_SURFACES = 20,
    W15_GROUP_EGL_SYNCS = 21,
    W15_GROUP_GLX_DISPLAYS = 22,
    W15_GROUP_GLX_DRAWABLES = 23,
    W15_GROUP_GL_DISPLAY_LISTS = 24,
    W15_GROUP_TYPE_COUNT_
} w15_group_type_t;

typedef enum w15_opcode {
    W15_OP_DECL_FUNC = 0,
    W15_OP_DECL_GROUP = 1,
    W15_OP_CALL = 2,
} w15_opcode_t;

/* Name of a base type / compression / group type, e.g. "UnsignedInt",
 * "LZ4", "GLBuffers"; "?" when out of range.  Static strings. */
const char *w15_base_name(unsigned base);
const char *w15_comp_name(unsigned comp);
const char *w15_group_type_name(unsigned type);

/* ------------------------------------------------------------------ */
/* Errors                                                              */

/* X-macro: the one list of error codes and their default messages. */
#define W15_ERRORS(X)                                                         \
    X(OK, "no error")                                                         \
    X(IO, "input/output error")                                               \
    X(NOMEM, "out of memory")                                                 \
    X(BAD_MAGIC, "not a WIP15 file: bad magic")                               \
    X(BAD_VERSION, "unknown WIP15 version")                                   \
    X(BAD_OPCODE, "unknown opcode")                                           \
    X(BAD_TYPE, "invalid type")                                               \
    X(BAD_VARINT, "over-long or overflowing varint")                          \
    X(BAD_LENGTH, "count or length larger than the bytes left")               \
    X(BAD_FUNC, "call to an undeclared function or index out of range")       \
    X(BAD_GROUP, "undeclared group or index out of range")                    \
    X(BAD_COMP, "unknown compression method")                                 \
    X(BAD_BLOB, "blob does not decompress to its stated size")                \
    X(TOO_BIG, "value too large for the format")                              \
    X(TRUNCATED, "file truncated inside an operation")                        \
    X(BAD_STREAM, "corrupt compressed stream")                                \
    X(USAGE, "invalid argument")

typedef enum w15_errcode {
#define W15_X_ENUM(name, msg) W15_E_##name,
    W15_ERRORS(W15_X_ENUM)
#undef W15_X_ENUM
    W15_E_COUNT_
} w15_errcode_t;

typedef struct w15_error {
    w15_errcode_t code;
    uint64_t offset; /* byte offset in the (decompressed) WIP15 stream */
    char msg[512];   /* "FILE: byte OFFSET: what was expected ...", no newline */
} w15_error_t;

/* Default message of a code (static string). */
const char *w15_errcode_message(w15_errcode_t code);

/* ------------------------------------------------------------------ */
/* Encoding buffer                                                     */
/*
 * A w15_buf_t is a growable memory buffer that holds encoded operations.
 * The put functions below are inline: encoding a call is a few stores.
 * Data blobs are written raw into the buffer by w15_put_data(), which also
 * remembers where they are; the writer compresses them when the buffer is
 * submitted (w15_writer_submit), so the encoding thread only copies.
 *
 * Before writing with the unchecked put functions the caller must make room
 * with w15_buf_reserve(buf, N), N being the sum of the maximum sizes of the
 * puts that follow: w15_put_u8 1, w15_put_u32 and w15_put_f32 4,
 * w15_put_f64 8, w15_put_uvari and w15_put_svari W15_MAX_UVARI (10, even
 * for small values: they may store 8 bytes), w15_put_type 3,
 * w15_put_string 4 + len, w15_put_bytes n.  w15_put_data and the
 * w15_put_decl_* helpers reserve room themselves.
 */
typedef struct w15_buf {
    uint8_t *data;
    size_t len;       /* bytes written */
    size_t cap;       /* bytes allocated */
    size_t committed; /* end of the last complete operation (set by caller) */
    uint32_t *blobs;  /* offsets of Data headers written by w15_put_data */
    size_t nblobs, blobcap;
    int failed;       /* set when an allocation failed; buffer then unusable */
    /* Operations and calls up to `committed`, counted by w15_buf_commit and
     * the w15_put_decl_* helpers; the writer adds them to its statistics at
     * submit and resets them.  Zero when the caller sets `committed` itself. */
    uint64_t ops, calls;
} w15_buf_t;

#define W15_MAX_UVARI 10
#define W15_MAX_SVARI W15_MAX_UVARI
/* Arrays of Void or FunctionPtr have no element bytes, so nothing in the
 * file bounds their count; readers refuse more elements than this
 * (BAD_LENGTH) so that a corrupt count cannot make tools loop 4 billion
 * times. */
#define W15_MAX_EMPTY_ARRAY 65536u
#define W15_DATA_HEADER 9 /* method + size + compressedSize */

/* Initialise with `cap` bytes (0 = nothing allocated yet).  Returns 0, or -1
 * when out of memory (buf->failed is then set). */
int w15_buf_init(w15_buf_t *buf, size_t cap);
/* Free memory; the struct may be re-initialised. */
void w15_buf_free(w15_buf_t *buf);
/* Forget contents, keep memory. */
static inline void w15_buf_clear(w15_buf_t *b)
{
    b->len = b->committed = 0; b->nblobs = 0; b->ops = b->calls = 0;
}
/* Mark everything written so far as one complete operation (`is_call`
 * non-zero for an OpCall): sets `committed` and counts it for the writer's
 * statistics.  Setting `committed` directly is equally valid. */
static inline void w15_buf_commit(w15_buf_t *b, int is_call)
{
    size_t n = b->len;
    b->committed = n; b->ops++; b->calls += is_call != 0;
}
/* Slow path of w15_buf_reserve. */
int w15_buf_grow(w15_buf_t *buf, size_t need);
/* Make room for `n` more bytes.  Returns 0, or -1 when out of memory. */
static inline int w15_buf_reserve(w15_buf_t *b, size_t n)
{
    return (b->cap - b->len >= n) ? 0 : w15_buf_grow(b, n);
}

/* How the put functions stay fast: multi-byte values are stored through
 * unaligned non-character types, which cannot alias b->len or b->data, so
 * the compiler keeps the position in a register across a run of puts.  A
 * uvari put stores 8 bytes even when the value needs fewer (the bytes past
 * the value are scratch beyond b->len): always reserve the W15_MAX_* size of
 * each put. */
typedef uint32_t w15_u32u_t __attribute__((aligned(1)));
typedef uint64_t w15_u64u_t __attribute__((aligned(1)));

static inline uint32_t w15_to_le32(uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap32(v);
#else
    return v;
#endif
}
static inline uint64_t w15_to_le64(uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return __builtin_bswap64(v);
#else
    return v;
#endif
}

static inline void w15_put_u8(w15_buf_t *b, uint8_t v)
{
    size_t n = b->len;
    b->len = n + 1;
    b->data[n] = v;
}
static inline void w15_put_u32(w15_buf_t *b, uint32_t v)
{
    size_t n = b->len;
    *(w15_u32u_t *)(b->data + n) = w15_to_le32(v);
    b->len = n + 4;
}
static inline void w15_put_uvari(w15_buf_t *b, uint64_t v)
{
    size_t n = b->len;
    uint8_t *p = b->data + n;
    if (v < ((uint64_t)1 << 56)) {
        /* up to 8 bytes, assembled in a register */
        uint64_t enc = v & 0x7f;
        unsigned k = 1;
        for (v >>= 7; v; v >>= 7, k++)
            enc |= (uint64_t)0x80 << (8 * (k - 1)) | (v & 0x7f) << (8 * k);
        *(w15_u64u_t *)p = w15_to_le64(enc);
        b->len = n + k;
        return;
    }
    uint8_t *q = p;
    while (v >= 0x80) { *q++ = (uint8_t)(v | 0x80); v >>= 7; }
    *q++ = (uint8_t)v;
    b->len = n + (size_t)(q - p);
}
/* svari of version 0.0: sign and magnitude; INT64_MIN is written as
 * "negative zero", uvari(1). */
static inline void w15_put_svari(w15_buf_t *b, int64_t v)
{
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    if (v == INT64_MIN) { w15_put_u8(b, 1); return; }
    w15_put_uvari(b, (mag << 1) | (uint64_t)(v < 0));
}
static inline void w15_put_f32(w15_buf_t *b, float v)
{
    union { float f; uint32_t u; } c; c.f = v; w15_put_u32(b, c.u);
}
static inline void w15_put_f64(w15_buf_t *b, double v)
{
    union { double d; uint64_t u; } c; c.d = v;
    size_t n = b->len;
    *(w15_u64u_t *)(b->data + n) = w15_to_le64(c.u);
    b->len = n + 8;
}
static inline void w15_put_bytes(w15_buf_t *b, const void *p, size_t n)
{
    if (n) {
        size_t at = b->len;
        b->len = at + n;
        __builtin_memcpy(b->data + at, p, n);
    }
}
/* Type triple of an OpDeclFunc. */
static inline void w15_put_type(w15_buf_t *b, w15_type_t t)
{
    w15_put_u8(b, t.base); w15_put_u8(b, t.has_group); w15_put_u8(b, t.is_array);
}
/* ValueElement<String>: uint32 len + bytes.  Reserve 4 + len first. */
static inline void w15_put_string(w15_buf_t *b, const char *s, uint32_t len)
{
    w15_put_u32(b, len); w15_put_bytes(b, s, len);
}
/* ValueElement<Data>: reserves room itself (W15_DATA_HEADER + size) and
 * writes the blob raw, remembering it for compression at submit time.
 * Returns 0, or -1 when out of memory. */
int w15_put_data(w15_buf_t *buf, const void *data, uint32_t size);
/* Largest blob the format can hold: `size` is a uint32 and UINT32_MAX is
 * never written (docs/FORMAT.md, "Data"). */
#define W15_MAX_BLOB (UINT32_MAX - 1u)
/* Same as w15_put_data for a size_t length: a blob over W15_MAX_BLOB (or a
 * buffer already holding more than 4 GiB, which must be submitted first) is
 * refused with W15_E_TOO_BIG, nothing is written and the buffer stays
 * usable.  Returns 0, or -1 with `err` set (TOO_BIG, or NOMEM with
 * buf->failed set). */
int w15_put_data_sz(w15_buf_t *buf, const void *data, size_t size, w15_error_t *err);
/* The same, for a caller that fills the contents itself: writes the blob's
 * header and returns where its `size` bytes go (they count as written; fill
 * them before the buffer is submitted), or NULL with `err` set as
 * w15_put_data_sz would.  Dropping the blob again (a failed fill): restore
 * buf->len and buf->nblobs as they were before the call. */
uint8_t *w15_put_data_begin(w15_buf_t *buf, size_t size, w15_error_t *err);

/* The empty Value of a type: count 0 for an array; 0, 0.0, an empty String
 * or an empty Data (method None) for a scalar; nothing for Void and
 * FunctionPtr.  A pointer whose contents are not recorded is written as
 * this (docs/FORMAT.md "Pointers").  The group index, when the type has a
 * group, is the caller's to write after it.  Reserve W15_MAX_EMPTY first. */
#define W15_MAX_EMPTY 9
static inline void w15_put_empty(w15_buf_t *b, unsigned base, int is_array)
{
    if (is_array) {
        w15_put_u32(b, 0);
        return;
    }
    switch (base) {
    case W15_UINT: case W15_INT: case W15_PTR: case W15_BOOL:
        w15_put_u8(b, 0);
        break;
    case W15_FLOAT: case W15_STRING:
        w15_put_u32(b, 0);
        break;
    case W15_DOUBLE:
        w15_put_u32(b, 0);
        w15_put_u32(b, 0);
        break;
    case W15_DATA:
        w15_put_u8(b, W15_COMP_NONE);
        w15_put_u32(b, 0);
        w15_put_u32(b, 0);
        break;
    default: /* Void, FunctionPtr: no bytes */
        break;
    }
}

/* Helpers that write a whole declaration (they reserve room themselves).
 * When the buffer had no uncommitted bytes before, the declaration is
 * committed (w15_buf_commit).  Return 0 or -1 when out of memory. */
int w15_put_decl_func(w15_buf_t *buf, uint32_t index, const char *name,
                      w15_type_t result, uint32_t nargs, const w15_type_t *args);
int w15_put_decl_group(w15_buf_t *buf, uint32_t index, w15_group_type_t type, const char *name);

/* ------------------------------------------------------------------ */
/* The tracer's extras (docs/FORMAT.md "Pointers" and "Crash")          */
/*
 * A call's extras follow its result: uint32 count, then per extra a String
 * name and a Data value.  The tracer writes two:
 *
 *  - W15_EXTRA_PTR, "wip15.ptr": the pointers the call recorded apart from
 *    its values (NULL pointers, buffer offsets, pointers of unknown
 *    extent; each such parameter's value is empty, see w15_put_empty).
 *    Its Data has method None and holds W15_PTR_ENTRY_SIZE-byte entries:
 *    uint32 LE parameter index (W15_PTR_RESULT for the result), uint64 LE
 *    pointer value.  A call has at most one; readers accept several and
 *    take their entries in order.
 *  - W15_EXTRA_CRASH, "wip15.crash": empty Data; the process died of a
 *    fatal signal inside this call (its result is then empty).
 */
#define W15_EXTRA_PTR "wip15.ptr"
#define W15_EXTRA_CRASH "wip15.crash"
#define W15_PTR_ENTRY_SIZE 12u
#define W15_PTR_RESULT 0xFFFFFFFFu

typedef struct w15_ptr_entry {
    uint32_t param; /* parameter index, or W15_PTR_RESULT */
    uint64_t value; /* the pointer as the program passed it */
} w15_ptr_entry_t;

/* Bytes w15_put_extra_ptr writes for n entries (name, Data header, entries;
 * not the extra count). */
#define W15_EXTRA_PTR_SIZE(n) \
    (4u + sizeof W15_EXTRA_PTR - 1 + W15_DATA_HEADER + W15_PTR_ENTRY_SIZE * (size_t)(n))
/* Bytes w15_put_extra_crash writes. */
#define W15_EXTRA_CRASH_SIZE (4u + sizeof W15_EXTRA_CRASH - 1 + W15_DATA_HEADER)

/* The extra wip15.ptr with the entries e[0..n), n > 0: its name and its
 * Data (method None, never compressed).  Reserve W15_EXTRA_PTR_SIZE(n)
 * first; the extra count is the caller's. */
static inline void w15_put_extra_ptr(w15_buf_t *b, const w15_ptr_entry_t *e, uint32_t n)
{
    w15_put_string(b, W15_EXTRA_PTR, (uint32_t)(sizeof W15_EXTRA_PTR - 1));
    w15_put_u8(b, W15_COMP_NONE);
    w15_put_u32(b, W15_PTR_ENTRY_SIZE * n);
    w15_put_u32(b, W15_PTR_ENTRY_SIZE * n);
    for (uint32_t i = 0; i < n; i++) {
        w15_put_u32(b, e[i].param);
        w15_put_u32(b, (uint32_t)e[i].value);
        w15_put_u32(b, (uint32_t)(e[i].value >> 32));
    }
}
/* The extra wip15.crash: its name and an empty Data.  Reserve
 * W15_EXTRA_CRASH_SIZE first.  Async-signal-safe (stores only). */
static inline void w15_put_extra_crash(w15_buf_t *b)
{
    w15_put_string(b, W15_EXTRA_CRASH, (uint32_t)(sizeof W15_EXTRA_CRASH - 1));
    w15_put_empty(b, W15_DATA, 0);
}

/* The capture's extras (docs/FORMAT.md "Captured memory"), each a Data of
 * method None holding fixed-size little-endian entries; a call has at most
 * one of each, readers accept several and take their entries in order:
 *
 *  - W15_EXTRA_OFFSET, "wip15.offset": pointer parameters that were offsets
 *    into the buffer bound to a target (GL_ELEMENT_ARRAY_BUFFER, ...): uint32
 *    parameter index, uint32 target (the GLenum of the binding point), uint64
 *    offset.  The parameter's value is empty.
 *  - W15_EXTRA_UNREADABLE, "wip15.unreadable": pointer parameters whose
 *    memory could not be read (reading it faulted): the wip15.ptr layout
 *    (uint32 parameter index, uint64 pointer).  The value is empty.
 *  - W15_EXTRA_DIGEST, "wip15.digest": output parameters GL filled with
 *    data (readbacks) whose bytes are summarised: uint32 parameter index,
 *    uint64 size in bytes, uint64 XXH3-64 (seed 0) of those bytes.  The value
 *    is empty unless the bytes were kept too (--readback-data).
 *  - W15_EXTRA_SPANS, "wip15.spans": which bytes of a digest's `size` GL
 *    wrote when they are not all of them (an image packed under
 *    GL_PACK_SKIP_* / ROW_LENGTH / IMAGE_HEIGHT / ALIGNMENT): uint32
 *    parameter index, uint32 span (bytes of one row GL writes), uint32 rows
 *    (per image), uint32 images, uint64 first (offset of the first row),
 *    uint64 row_stride, uint64 image_stride.  The digest's hash covers the
 *    rows in order, image by image: for i < images, r < rows, the span
 *    bytes at first + i * image_stride + r * row_stride.
 *  - W15_EXTRA_GSEQ, "wip15.gseq": one uint64, the call's place in the
 *    process-wide order of synchronising calls (0, 1, 2, ... across threads).
 */
#define W15_EXTRA_OFFSET "wip15.offset"
#define W15_EXTRA_UNREADABLE "wip15.unreadable"
#define W15_EXTRA_DIGEST "wip15.digest"
#define W15_EXTRA_GSEQ "wip15.gseq"
#define W15_EXTRA_SPANS "wip15.spans"
#define W15_OFFSET_ENTRY_SIZE 16u
#define W15_SPANS_ENTRY_SIZE 40u
#define W15_DIGEST_ENTRY_SIZE 20u
#define W15_GSEQ_SIZE 8u

typedef struct w15_offset_entry {
    uint32_t param;  /* parameter index */
    uint32_t target; /* the binding point's GLenum */
    uint64_t offset; /* the value the program passed */
} w15_offset_entry_t;

typedef struct w15_digest_entry {
    uint32_t param;  /* parameter index, or W15_PTR_RESULT */
    uint64_t size;   /* bytes GL wrote */
    uint64_t hash;   /* XXH3_64bits (seed 0) of them */
} w15_digest_entry_t;

typedef struct w15_spans_entry {
    uint32_t param;        /* parameter index (its digest entry says size and hash) */
    uint32_t span;         /* bytes GL writes per row */
    uint32_t rows;         /* rows per image */
    uint32_t images;       /* images */
    uint64_t first;        /* offset of the first row from the pointer */
    uint64_t row_stride;   /* bytes from a row to the next */
    uint64_t image_stride; /* bytes from an image to the next */
} w15_spans_entry_t;

/* Bytes from the pointer to the end of the last span. */
static inline uint64_t w15_spans_extent(const w15_spans_entry_t *s)
{
    if (!s->span || !s->rows || !s->images)
        return 0;
    return s->first + (uint64_t)(s->images - 1) * s->image_stride + (uint64_t)(s->rows - 1) * s->row_stride +
           s->span;
}

/* Bytes each encoder below writes for n entries (not the extra count). */
#define W15_EXTRA_OFFSET_SIZE(n) \
    (4u + sizeof W15_EXTRA_OFFSET - 1 + W15_DATA_HEADER + W15_OFFSET_ENTRY_SIZE * (size_t)(n))
#define W15_EXTRA_UNREADABLE_SIZE(n) \
    (4u + sizeof W15_EXTRA_UNREADABLE - 1 + W15_DATA_HEADER + W15_PTR_ENTRY_SIZE * (size_t)(n))
#define W15_EXTRA_DIGEST_SIZE(n) \
    (4u + sizeof W15_EXTRA_DIGEST - 1 + W15_DATA_HEADER + W15_DIGEST_ENTRY_SIZE * (size_t)(n))
#define W15_EXTRA_SPANS_SIZE(n) \
    (4u + sizeof W15_EXTRA_SPANS - 1 + W15_DATA_HEADER + W15_SPANS_ENTRY_SIZE * (size_t)(n))
#define W15_EXTRA_GSEQ_SIZE (4u + sizeof W15_EXTRA_GSEQ - 1 + W15_DATA_HEADER + W15_GSEQ_SIZE)

static inline void w15_put_extra_head_(w15_buf_t *b, const char *name, uint32_t len, uint32_t size)
{
    w15_put_string(b, name, len);
    w15_put_u8(b, W15_COMP_NONE);
    w15_put_u32(b, size);
    w15_put_u32(b, size);
}
static inline void w15_put_u64_(w15_buf_t *b, uint64_t v)
{
    w15_put_u32(b, (uint32_t)v);
    w15_put_u32(b, (uint32_t)(v >> 32));
}
/* The extra wip15.offset with e[0..n), n > 0.  Reserve
 * W15_EXTRA_OFFSET_SIZE(n) first; the extra count is the caller's.  The
 * other encoders below follow the same rule. */
static inline void w15_put_extra_offset(w15_buf_t *b, const w15_offset_entry_t *e, uint32_t n)
{
    w15_put_extra_head_(b, W15_EXTRA_OFFSET, (uint32_t)(sizeof W15_EXTRA_OFFSET - 1), W15_OFFSET_ENTRY_SIZE * n);
    for (uint32_t i = 0; i < n; i++) {
        w15_put_u32(b, e[i].param);
        w15_put_u32(b, e[i].target);
        w15_put_u64_(b, e[i].offset);
    }
}
/* The extra wip15.unreadable with e[0..n), n > 0. */
static inline void w15_put_extra_unreadable(w15_buf_t *b, const w15_ptr_entry_t *e, uint32_t n)
{
    w15_put_extra_head_(b, W15_EXTRA_UNREADABLE, (uint32_t)(sizeof W15_EXTRA_UNREADABLE - 1),
                        W15_PTR_ENTRY_SIZE * n);
    for (uint32_t i = 0; i < n; i++) {
        w15_put_u32(b, e[i].param);
        w15_put_u64_(b, e[i].value);
    }
}
/* The extra wip15.digest with e[0..n), n > 0. */
static inline void w15_put_extra_digest(w15_buf_t *b, const w15_digest_entry_t *e, uint32_t n)
{
    w15_put_extra_head_(b, W15_EXTRA_DIGEST, (uint32_t)(sizeof W15_EXTRA_DIGEST - 1), W15_DIGEST_ENTRY_SIZE * n);
    for (uint32_t i = 0; i < n; i++) {
        w15_put_u32(b, e[i].param);
        w15_put_u64_(b, e[i].size);
        w15_put_u64_(b, e[i].hash);
    }
}
/* The extra wip15.spans with e[0..n), n > 0. */
static inline void w15_put_extra_spans(w15_buf_t *b, const w15_spans_entry_t *e, uint32_t n)
{
    w15_put_extra_head_(b, W15_EXTRA_SPANS, (uint32_t)(sizeof W15_EXTRA_SPANS - 1), W15_SPANS_ENTRY_SIZE * n);
    for (uint32_t i = 0; i < n; i++) {
        w15_put_u32(b, e[i].param);
        w15_put_u32(b, e[i].span);
        w15_put_u32(b, e[i].rows);
        w15_put_u32(b, e[i].images);
        w15_put_u64_(b, e[i].first);
        w15_put_u64_(b, e[i].row_stride);
        w15_put_u64_(b, e[i].image_stride);
    }
}
/* The extra wip15.gseq. */
static inline void w15_put_extra_gseq(w15_buf_t *b, uint64_t gseq)
{
    w15_put_extra_head_(b, W15_EXTRA_GSEQ, (uint32_t)(sizeof W15_EXTRA_GSEQ - 1), W15_GSEQ_SIZE);
    w15_put_u64_(b, gseq);
}

/* ------------------------------------------------------------------ */
/* Writer                                                              */

typedef struct w15_writer w15_writer_t;

/* The writer's zstd level when none is given: zstd's fast mode -4 (on the
 * persistent-map benchmark's vertices 1.8x, at under half the CPU of
 * LZ4's two passes; docs/PERFORMANCE.md). */
#define W15_ZSTD_LEVEL_DEFAULT (-4)

typedef struct w15_writer_opts {
    w15_comp_t blob_method;   /* default W15_COMP_LZ4 */
    int zlib_level;           /* 1..9, default 6 (used with W15_COMP_ZLIB) */
    uint32_t min_blob;        /* blobs smaller than this are stored raw; default 64 */
    int stream_lz4;           /* 1 = wrap the whole file in LZ4 frames, incompressible
                                 blobs in data frames (docs/FORMAT.md "Compressed
                                 stream"); default 0 */
    uint32_t data_frame_min;  /* stream_lz4: incompressible blobs of this many bytes or
                                 more go into data frames; 0 (default) = 65536 */
    int stream_zstd;          /* 1 = wrap the whole file in one zstd frame instead
                                 (docs/FORMAT.md "Compressed stream"); overrides
                                 stream_lz4; default 0 */
    int zstd_level;           /* stream_zstd: the zstd compression level; 0 (default)
                                 = W15_ZSTD_LEVEL_DEFAULT */
    uint32_t max_functions;   /* header fields */
    uint32_t max_groups;
} w15_writer_opts_t;

/* Fill `o` with the defaults above (max_* = 0). */
void w15_writer_opts_default(w15_writer_opts_t *o);

/* Create a writer on an open file descriptor, which it owns and closes in
 * w15_writer_close (and closes at once when this function fails).  `path`
 * is used in messages only.  Writes the header and flushes it, so that even
 * an empty trace is a valid file.  Returns NULL on failure with `err` set. */
w15_writer_t *w15_writer_open_fd(int fd, const char *path, const w15_writer_opts_t *opts,
                                 w15_error_t *err);
/* Same, creating `path` (O_CREAT|O_EXCL unless `overwrite`). */
w15_writer_t *w15_writer_open(const char *path, int overwrite, const w15_writer_opts_t *opts,
                              w15_error_t *err);

/* Append the first buf->committed bytes of `buf` to the file (compressing the
 * blobs recorded in it) and remove them from `buf`, keeping any uncommitted
 * tail at the start of the buffer.  The caller guarantees that `buf` holds
 * whole operations up to `committed`.  Data is written to the file descriptor
 * when the writer's internal output buffer fills (or at w15_writer_flush).
 * Returns 0, or -1 with `err` set (the writer is then failed; later calls
 * return -1 at once). */
int w15_writer_submit(w15_writer_t *w, w15_buf_t *buf, w15_error_t *err);
/* Write everything buffered to the file descriptor (and, with stream_lz4,
 * end the current LZ4 block, with stream_zstd the current zstd block, so the
 * file reads to here).  Returns 0 or -1. */
int w15_writer_flush(w15_writer_t *w, w15_error_t *err);
/* Flush, close the file descriptor and free.  Returns 0 or -1 (the writer is
 * freed either way).  NULL is accepted. */
int w15_writer_close(w15_writer_t *w, w15_error_t *err);

/* The crash path: for a fatal-signal handler of the writing process, when
 * no other thread is inside the writer (the caller guarantees it).
 * Async-signal-safe: no allocation and no lock, only write(2) and, with
 * stream_lz4 or stream_zstd, the compressor the writer allocated and
 * started when it opened (which allocates nothing more).
 * Appends the raw WIP15 stream bytes p[0..n) (whole operations; their
 * blobs stay uncompressed) after everything submitted so far, the bytes
 * still in the writer's staging buffer first; with stream_lz4 (zstd) they go
 * through the open LZ4 (zstd) frame, which is flushed (every byte appended so far
 * reads back) but never ended: readers report such a file as cut, with
 * every operation before the cut intact (docs/FORMAT.md "End of file").
 * Returns 0, or -1 when a write failed or the writer had failed (later
 * calls then return -1 too). */
int w15_writer_crash_write(w15_writer_t *w, const void *p, size_t n);
/* The crash path's last step, when the process is about to die (same
 * rules as w15_writer_crash_write): with stream_lz4, end the LZ4 frame
 * (LZ4F_compressEnd: its end mark), with stream_zstd the zstd frame, so the file reads as complete up to the
 * last operation appended; nothing to do for a plain stream.  No operation
 * may be appended after it.  Returns 0, or -1 when a write failed. */
int w15_writer_crash_end(w15_writer_t *w);

/* stream_zstd: compress the frames from here on with n threads of zstd's
 * own (zstd's multithreaded mode; 0: in the calling thread, the default).
 * When n differs from the current number, the open zstd frame ends first
 * (readers see one more frame).  Returns 0; 1 when this libzstd has no
 * threads (the frames stay single-threaded); -1 with `err` set when the
 * end of the frame could not be written.  No effect on other streams. */
int w15_writer_set_workers(w15_writer_t *w, int n, w15_error_t *err);

typedef struct w15_writer_stats {
    uint64_t ops, calls;
    uint64_t blob_bytes_raw, blob_bytes_stored;
    uint64_t stream_bytes; /* bytes of WIP15 stream (before stream compression) */
    uint64_t file_bytes;   /* bytes written to the file */
    uint64_t worker_frames; /* zstd frames begun with workers (w15_writer_set_workers) */
} w15_writer_stats_t;
void w15_writer_get_stats(const w15_writer_t *w, w15_writer_stats_t *st);

/* ------------------------------------------------------------------ */
/* Reader                                                              */

typedef struct w15_str {
    const char *ptr; /* not NUL-terminated in general; valid until next op */
    uint32_t len;
} w15_str_t;

typedef struct w15_blob {
    uint8_t method;      /* w15_comp_t */
    uint32_t size;       /* size after decompression */
    uint32_t csize;      /* stored bytes */
    const uint8_t *cdata;/* stored bytes, valid until the next op */
    uint64_t offset;     /* stream offset of the Data header */
} w15_blob_t;

/* A decoded Value.  `count` is 1 for scalars.  The element array that
 * matches type.base is valid until the next w15_reader_next(). */
typedef struct w15_value {
    w15_type_t type;
    uint32_t count;
    uint32_t group;    /* group index, when type.has_group */
    union {
        const uint64_t *u;   /* UnsignedInt, Ptr */
        const int64_t *i;    /* Int */
        const uint8_t *b;    /* Bool (raw byte) */
        const float *f;      /* Float */
        const double *d;     /* Double */
        const w15_str_t *s;  /* String */
        const w15_blob_t *data; /* Data */
    } v;
} w15_value_t;

typedef struct w15_func {
    uint32_t index;
    const char *name;  /* NUL-terminated, owned by the reader */
    w15_type_t result;
    uint32_t nargs;
    const w15_type_t *args;
} w15_func_t;

typedef struct w15_group {
    uint32_t index;
    w15_group_type_t type; /* W15_GROUP_ENUM for 0.0a files */
    const char *name;
} w15_group_t;

typedef struct w15_extra {
    w15_str_t name;
    w15_blob_t data;
} w15_extra_t;

typedef struct w15_call {
    uint64_t index;          /* 0-based ordinal of this OpCall in the file */
    uint64_t offset;         /* stream offset of its opcode byte */
    const w15_func_t *func;
    const w15_value_t *args; /* func->nargs values */
    const w15_value_t *result; /* NULL when func->result.base == Void */
    uint32_t nextras;
    const w15_extra_t *extras;
} w15_call_t;

typedef enum w15_next {
    W15_NEXT_DECL_FUNC,  /* op->func is set */
    W15_NEXT_DECL_GROUP, /* op->group is set */
    W15_NEXT_CALL,       /* op->call is set */
    W15_NEXT_END,        /* clean end of file */
    W15_NEXT_TRUNCATED,  /* file ends inside an operation; err says where */
    W15_NEXT_ERROR,      /* corrupt or unreadable; err says where and why */
} w15_next_t;

typedef struct w15_op {
    uint64_t offset;
    const w15_func_t *func;
    const w15_group_t *group;
    const w15_call_t *call;
} w15_op_t;

typedef struct w15_reader w15_reader_t;

typedef struct w15_header {
    w15_version_t version;
    char endian;            /* '_' or '-' */
    uint32_t max_functions;
    uint32_t max_groups;
    int stream_lz4;         /* file is wrapped in an LZ4 frame */
    int stream_zstd;        /* file is wrapped in a zstd frame */
} w15_header_t;

/* Open a file and read its header.  Returns NULL with `err` set on failure
 * (bad magic, unknown version, I/O). */
w15_reader_t *w15_reader_open(const char *path, w15_error_t *err);
/* Read from memory (not copied; must outlive the reader).  `name` is used in
 * messages. */
w15_reader_t *w15_reader_open_mem(const void *data, size_t size, const char *name,
                                  w15_error_t *err);
/* Read from an open file descriptor (a file or a pipe), which the reader
 * owns and closes in w15_reader_close (and at once when this fails). */
w15_reader_t *w15_reader_open_fd(int fd, const char *name, w15_error_t *err);
/* Free everything, close the file.  NULL is accepted. */
void w15_reader_close(w15_reader_t *r);

const w15_header_t *w15_reader_header(const w15_reader_t *r);

/* Read the next operation.  Memory use is constant apart from the current
 * operation's own bytes.  After END, TRUNCATED or ERROR every further call
 * returns the same value.  TRUNCATED's message reads
 * "FILE: truncated after N complete calls at byte B", B being the offset of
 * the incomplete operation; every operation before it was returned normally.
 * A count or length that runs past the end of the file is reported as
 * truncation too (docs/FORMAT.md, "End of file").  For a file wrapped in an
 * LZ4 frame, offsets are in the decompressed stream and messages add
 * " (in the decompressed stream)". */
w15_next_t w15_reader_next(w15_reader_t *r, w15_op_t *op, w15_error_t *err);

/* Declarations seen so far (NULL when not declared).  A redeclaration of an
 * index replaces the earlier one for later calls; pointers to the earlier
 * declaration stay valid until w15_reader_close. */
const w15_func_t *w15_reader_func(const w15_reader_t *r, uint32_t index);
const w15_group_t *w15_reader_group(const w15_reader_t *r, uint32_t index);

/* Decompress a blob of the current operation.  Returns a pointer to
 * blob->size bytes owned by the reader, valid until the next call of this
 * function or of w15_reader_next; NULL with `err` set when the blob is
 * corrupt (BAD_BLOB, BAD_COMP). */
const uint8_t *w15_reader_blob(w15_reader_t *r, const w15_blob_t *blob, w15_error_t *err);

/* Is extra `x` named `name` (W15_EXTRA_PTR, W15_EXTRA_CRASH, ...)?  1 or 0. */
int w15_extra_is(const w15_extra_t *x, const char *name);
/* Decode the `size` bytes of a wip15.ptr extra's (decompressed) Data into
 * out[0 .. size / W15_PTR_ENTRY_SIZE).  Returns the number of entries, or
 * -1 when `size` is not a multiple of W15_PTR_ENTRY_SIZE (nothing decoded). */
long w15_ptr_decode(const uint8_t *data, uint32_t size, w15_ptr_entry_t *out);
/* The entries of every wip15.ptr extra of `call` (the call the reader just
 * returned), in order, into *entries (owned by the reader, valid until the
 * next call of this function or of w15_reader_next) and their number into
 * *n (0, entries NULL, when the call has none).  Returns 0, or -1 with
 * `err` set: BAD_LENGTH ("FILE: byte B: call N (NAME): expected an extra
 * wip15.ptr of 12-byte entries, found S bytes"), or what w15_reader_blob
 * reports, or NOMEM. */
int w15_reader_ptrs(w15_reader_t *r, const w15_call_t *call, const w15_ptr_entry_t **entries,
                    uint32_t *n, w15_error_t *err);
/* The pointer entries e[0..n) record for parameter `param` (W15_PTR_RESULT:
 * the result): 1 with *value set (the first such entry), or 0 when none. */
int w15_ptr_find(const w15_ptr_entry_t *e, uint32_t n, uint32_t param, uint64_t *value);
/* The same for the capture's extras: the entries of every extra of that
 * name of the call just read, in order, owned by the reader (valid until the
 * next call of the same function or of w15_reader_next); 0, or -1 with `err`
 * set (BAD_LENGTH when the size is not a multiple of the entry size, or what
 * w15_reader_blob reports, or NOMEM). */
int w15_reader_offsets(w15_reader_t *r, const w15_call_t *call, const w15_offset_entry_t **entries,
                       uint32_t *n, w15_error_t *err);
int w15_reader_unreadable(w15_reader_t *r, const w15_call_t *call, const w15_ptr_entry_t **entries,
                          uint32_t *n, w15_error_t *err);
int w15_reader_digests(w15_reader_t *r, const w15_call_t *call, const w15_digest_entry_t **entries,
                       uint32_t *n, w15_error_t *err);
int w15_reader_spans(w15_reader_t *r, const w15_call_t *call, const w15_spans_entry_t **entries,
                     uint32_t *n, w15_error_t *err);
/* The call's wip15.gseq: 1 with *gseq set, 0 when it has none, -1 with
 * `err` set (an extra of another size than 8 bytes: BAD_LENGTH). */
int w15_reader_gseq(w15_reader_t *r, const w15_call_t *call, uint64_t *gseq, w15_error_t *err);

typedef struct w15_reader_stats {
    uint64_t calls;             /* complete calls read */
    uint64_t funcs, groups;     /* declarations read */
    uint64_t blob_bytes_raw;    /* sum of blob sizes */
    uint64_t blob_bytes_stored; /* sum of stored blob sizes */
    uint64_t stream_bytes;      /* bytes of WIP15 stream consumed */
    uint64_t file_bytes;        /* bytes of the file consumed */
} w15_reader_stats_t;
void w15_reader_get_stats(const w15_reader_t *r, w15_reader_stats_t *st);

#ifdef __cplusplus
}
#endif
#endif
