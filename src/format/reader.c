/* reader.c -- streaming, validating WIP15 reader (versions 0.0 and 0.0a,
 * plain or wrapped in an LZ4 frame).
 *
 * The decoded stream sits in a window buffer.  An operation is parsed in
 * place; values that point at stream bytes (strings, bools, blobs) are
 * recorded relative to the start of the operation and fixed up when the op
 * is complete, because the window may move while a long operation is read.
 * Element arrays live in a per-op arena.  Declarations live in hash maps
 * keyed by index, so memory follows the number of declarations, never the
 * size of an index. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <zstd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WIN_DEFAULT (1u << 20) /* window, and its size after a big op */
#define IN_CAP (256u << 10)    /* compressed input chunk (fd + LZ4) */
#define WIN_MEM_LZ4 (64u << 10) /* first window for LZ4 in memory (grows) */
#define ARENA_BLOCK (16u << 10)
#define ARENA_KEEP (16u << 20)
#define LZ4_FRAME_MAGIC 0x184D2204u
#define V0A_STRING "0.0a            "

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Parse status inside the reader. */
enum { P_OK = 0, P_SHORT = 1, P_ERR = 2 };
#define TRY(x)                                                                                     \
    do {                                                                                           \
        int rc_ = (x);                                                                             \
        if (unlikely(rc_ != P_OK))                                                                 \
            return rc_;                                                                            \
    } while (0)

/* ---- declarations: index -> record hash map ------------------------- */

typedef struct slot {
    uint32_t key;
    void *val; /* NULL = empty */
} slot_t;

/* The hash map holds every declaration.  A dense array indexed by index
 * caches the small indices for speed; its size is bounded by
 * DENSE_LIMIT(number of declarations), so memory still follows the number
 * of declarations. */
typedef struct map {
    slot_t *s;
    uint32_t mask; /* capacity - 1 (capacity a power of 2), 0 when empty */
    uint32_t n;
    void **dense;
    uint32_t ndense;
} map_t;

#define DENSE_LIMIT(n) (4096u + 8u * (uint64_t)(n))

static inline uint32_t hash32(uint32_t k)
{
    return (k * 0x9E3779B1u) ^ (k >> 16);
}

static void *map_get(const map_t *m, uint32_t key)
{
    if (!m->s)
        return NULL;
    for (uint32_t i = hash32(key) & m->mask;; i = (i + 1) & m->mask) {
        if (!m->s[i].val)
            return NULL;
        if (m->s[i].key == key)
            return m->s[i].val;
    }
}

/* Insert or replace; returns the replaced value (or NULL) in *old.  -1 when
 * out of memory. */
static int map_put(map_t *m, uint32_t key, void *val, void **old)
{
    *old = NULL;
    if (!m->s || (m->n + 1) * 2 > m->mask + 1) {
        uint32_t cap = m->s ? (m->mask + 1) * 2 : 64;
        slot_t *s = calloc(cap, sizeof *s);
        if (!s)
            return -1;
        for (uint32_t i = 0; m->s && i <= m->mask; i++) {
            if (!m->s[i].val)
                continue;
            uint32_t j = hash32(m->s[i].key) & (cap - 1);
            while (s[j].val)
                j = (j + 1) & (cap - 1);
            s[j] = m->s[i];
        }
        free(m->s);
        m->s = s;
        m->mask = cap - 1;
    }
    uint32_t i = hash32(key) & m->mask;
    while (m->s[i].val && m->s[i].key != key)
        i = (i + 1) & m->mask;
    if (m->s[i].val)
        *old = m->s[i].val;
    else
        m->n++;
    m->s[i].key = key;
    m->s[i].val = val;
    if (key >= m->ndense && key < DENSE_LIMIT(m->n)) {
        uint64_t cap = (uint64_t)m->ndense * 2;
        if (cap < (uint64_t)key + 1)
            cap = (uint64_t)key + 1;
        if (cap < 256)
            cap = 256;
        void **d = realloc(m->dense, cap * sizeof *d);
        if (d) { /* else the hash alone serves */
            memset(d + m->ndense, 0, (cap - m->ndense) * sizeof *d);
            m->dense = d;
            m->ndense = (uint32_t)cap;
        }
    }
    if (key < m->ndense)
        m->dense[key] = val;
    return 0;
}

static inline void *map_find(const map_t *m, uint32_t key)
{
    if (likely(key < m->ndense && m->dense[key]))
        return m->dense[key];
    return map_get(m, key);
}

/* Declarations, allocated in one piece.  Replaced ones are kept on the
 * `retired` list so that pointers handed out stay valid. */
typedef struct decl {
    struct decl *next_retired;
    union {
        w15_func_t f;
        w15_group_t g;
    } u;
} decl_t;

/* ---- per-op arena ---------------------------------------------------- */

typedef struct ablock {
    struct ablock *next;
    size_t cap, used;
    _Alignas(16) uint8_t data[];
} ablock_t;

struct w15_reader {
    char *name;
    int fd;                /* -1 when reading memory */
    const uint8_t *mem;    /* open_mem input */
    size_t memsize;
    int stable;            /* window is the caller's memory: never moves */

    /* window of decoded stream bytes */
    uint8_t *wbuf;         /* owned window (NULL when stable) */
    size_t wcap;
    const uint8_t *win;
    size_t wlen, pos, op_start;
    uint64_t win_off;      /* stream offset of win[0] */
    uint64_t limit;        /* stream size when known, else UINT64_MAX */
    int src_eof;

    /* LZ4 frame input */
    LZ4F_dctx *dctx;
    uint8_t *inbuf;
    const uint8_t *inp;
    size_t inlen, inpos;
    uint64_t in_consumed;  /* compressed bytes consumed */
    size_t lz4_hint;       /* input size LZ4F expects next (one block at a time) */
    const char *cut;       /* how a compressed file ended unfinished (inside a frame, after a data frame), or NULL */
    int lz4_info;          /* the current frame's header was looked at */
    int lz4_data;          /* the current (or last ended) frame is a data frame */
    ZSTD_DCtx *zd;         /* zstd frame input (then dctx is NULL) */
    size_t zhint;          /* input size zstd suggests next; 0: between frames */
    uint8_t zfh[5];        /* the current frame's magic and descriptor byte */
    size_t zfhn;

    w15_header_t hdr;
    map_t funcs, groups;
    decl_t *retired;

    ablock_t *arena;
    const void ***fixv;    /* fields to point into the window when the op is complete */
    size_t nfix, fixcap;

    w15_call_t call;
    uint64_t ncalls;

    uint8_t *blobbuf;
    size_t blobcap;

    w15_ptr_entry_t *ptrs; /* w15_reader_ptrs */
    uint32_t ptrcap;
    void *xent[4];         /* w15_reader_offsets / _unreadable / _digests / _spans */
    uint32_t xcap[4];      /* entries each holds */

    w15_next_t state;      /* sticky END/TRUNCATED/ERROR, else W15_NEXT_CALL */
    w15_error_t serr;
    char short_detail[160]; /* why the current op ran short, when a length field did it */
    w15_reader_stats_t st;
};

static const char *where(const w15_reader_t *r)
{
    return r->hdr.stream_lz4 || r->hdr.stream_zstd ? " (in the decompressed stream)" : "";
}

/* Record a corruption error at stream offset `off`. */
static int rerr(w15_reader_t *r, w15_errcode_t code, uint64_t off, const char *fmt, ...)
    W15_PRINTF(4, 5);
static int rerr(w15_reader_t *r, w15_errcode_t code, uint64_t off, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    w15_set_error(&r->serr, code, off, "%s: byte %llu%s: %s", r->name, (unsigned long long)off,
                  where(r), what);
    r->state = W15_NEXT_ERROR;
    return P_ERR;
}

static inline uint64_t off_of(const w15_reader_t *r, size_t idx)
{
    return r->win_off + idx;
}

/* Stream offset of the parse position.  Window indices change when the
 * window is compacted during an op; stream offsets do not, so positions
 * kept across reads are stream offsets, turned back into pointers with
 * at_ptr() once the bytes are known to be there. */
static inline uint64_t here(const w15_reader_t *r)
{
    return r->win_off + r->pos;
}

static inline const uint8_t *at_ptr(const w15_reader_t *r, uint64_t off)
{
    return r->win + (size_t)(off - r->win_off);
}

/* ---- input ----------------------------------------------------------- */

static ssize_t read_some(w15_reader_t *r, uint8_t *dst, size_t n)
{
    for (;;) {
        ssize_t k = read(r->fd, dst, n);
        if (k >= 0 || errno != EINTR)
            return k;
    }
}

static int io_error(w15_reader_t *r, const char *what)
{
    return rerr(r, W15_E_IO, off_of(r, r->wlen), "expected to read %s, found error: %s", what,
                strerror(errno));
}

/* Refill compressed input.  Returns P_OK with at least one byte, P_SHORT at
 * end of file, P_ERR. */
static int fill_input(w15_reader_t *r)
{
    if (r->inpos < r->inlen)
        return P_OK;
    if (r->fd < 0) /* memory: everything was handed over at open */
        return P_SHORT;
    ssize_t k = read_some(r, r->inbuf, IN_CAP);
    if (k < 0)
        return io_error(r, "the compressed file");
    r->inlen = (size_t)k;
    r->inpos = 0;
    return k > 0 ? P_OK : P_SHORT;
}

/* The compressed input ended: `cut` says how, when a finished trace
 * cannot end there (NULL: it can). */
static int input_ended(w15_reader_t *r, const char *cut)
{
    r->src_eof = 1;
    r->cut = cut;
    return P_SHORT;
}

/* fill() for a zstd frame.  Input goes in no faster than zstd asks for
 * it (about a block at a time), so that the blocks before a corrupt one
 * are delivered first. */
static int fill_zstd(w15_reader_t *r)
{
    for (;;) {
        /* bytes zstd decoded but could not hand over yet come first */
        int rc = r->inpos < r->inlen || r->zhint == 0 ? fill_input(r) : P_OK;
        if (rc == P_ERR)
            return rc;
        /* inside a frame: it never ended; after a data frame: the writer
         * ends a trace with a compressed frame */
        if (rc == P_SHORT)
            return input_ended(r, r->zhint != 0 ? "the zstd frame does not end"
                                  : r->lz4_data ? "the zstd stream ends with a data frame"
                                                : NULL);
        size_t want = r->zhint ? r->zhint : 5; /* 0: a (next) frame starts */
        ZSTD_inBuffer in = {r->inp + r->inpos, r->inlen - r->inpos < want ? r->inlen - r->inpos : want, 0};
        ZSTD_outBuffer out = {r->wbuf + r->wlen, r->wcap - r->wlen, 0};
        size_t hint = ZSTD_decompressStream(r->zd, &out, &in);
        if (ZSTD_isError(hint)) {
            r->src_eof = 1;
            return rerr(r, W15_E_BAD_STREAM, off_of(r, r->wlen),
                        "expected a valid zstd frame (compressed file byte %llu), found: %s",
                        (unsigned long long)(r->in_consumed + in.pos), ZSTD_getErrorName(hint));
        }
        for (size_t i = 0; i < in.pos && r->zfhn < sizeof r->zfh; i++)
            r->zfh[r->zfhn++] = in.src ? ((const uint8_t *)in.src)[i] : 0;
        if (r->zfhn == sizeof r->zfh && hint != 0) /* a data frame: descriptor 0xE0 */
            r->lz4_data = w15_le32(r->zfh) == ZSTD_MAGICNUMBER && r->zfh[4] == 0xE0;
        r->inpos += in.pos;
        r->in_consumed += in.pos;
        r->st.file_bytes += in.pos;
        r->wlen += out.pos;
        r->zhint = hint;
        if (hint == 0)
            r->zfhn = 0; /* frame ended; lz4_data stays the ended frame's */
        if (out.pos > 0)
            return P_OK;
        if (in.size == 0) { /* nothing was held back: more input */
            rc = fill_input(r);
            if (rc == P_ERR)
                return rc;
            if (rc == P_SHORT)
                return input_ended(r, "the zstd frame does not end");
        }
    }
}

/* Append decoded stream bytes to the window (which has free space).
 * Returns P_OK when bytes were added, P_SHORT at end of input, P_ERR. */
static int fill(w15_reader_t *r)
{
    if (r->src_eof)
        return P_SHORT;
    if (r->zd)
        return fill_zstd(r);
    if (!r->dctx) {
        ssize_t k = read_some(r, r->wbuf + r->wlen, r->wcap - r->wlen);
        if (k < 0)
            return io_error(r, "the file");
        if (k == 0) {
            r->src_eof = 1;
            return P_SHORT;
        }
        r->wlen += (size_t)k;
        r->st.file_bytes += (uint64_t)k;
        return P_OK;
    }
    for (;;) {
        int rc = fill_input(r);
        if (rc == P_ERR)
            return rc;
        /* LZ4F still expects input: the frame was never finished, so the
         * file was cut even if it ends between two operations */
        if (rc == P_SHORT)
            return input_ended(r, r->lz4_hint != 0 ? "the LZ4 frame has no end mark"
                                  : r->lz4_data    ? "the LZ4 stream ends with a data frame"
                                                   : NULL);
        /* Feed at most what LZ4F asks for (the next block), so that the
         * blocks before a corrupt one are delivered first. */
        size_t dsz = r->wcap - r->wlen, ssz = r->inlen - r->inpos;
        size_t want = r->lz4_hint ? r->lz4_hint : 4; /* 0: a (next) frame starts */
        if (ssz > want)
            ssz = want;
        size_t hint = LZ4F_decompress(r->dctx, r->wbuf + r->wlen, &dsz, r->inp + r->inpos, &ssz, NULL);
        if (LZ4F_isError(hint)) {
            r->src_eof = 1;
            return rerr(r, W15_E_BAD_STREAM, off_of(r, r->wlen),
                        "expected a valid LZ4 frame (compressed file byte %llu), found: %s",
                        (unsigned long long)(r->in_consumed + ssz), LZ4F_getErrorName(hint));
        }
        r->inpos += ssz;
        r->in_consumed += ssz;
        r->st.file_bytes += ssz;
        r->wlen += dsz;
        r->lz4_hint = hint;
        if (hint == 0) {
            r->lz4_info = 0; /* frame ended; lz4_data stays the ended frame's */
        } else if (!r->lz4_info) {
            /* is it a data frame (large blobs; the writer never ends a
             * trace with one)?  An error: the header is not complete yet. */
            LZ4F_frameInfo_t fi;
            size_t none = 0;
            if (!LZ4F_isError(LZ4F_getFrameInfo(r->dctx, &fi, NULL, &none))) {
                r->lz4_info = 1;
                r->lz4_data = fi.dictID == W15_DATA_FRAME_ID;
            }
        }
        if (dsz > 0)
            return P_OK;
    }
}

/* Make `n` bytes at r->pos available.  P_SHORT when the stream ends first. */
static int ensure_slow(w15_reader_t *r, uint64_t n)
{
    if (r->stable || r->state == W15_NEXT_ERROR)
        return r->state == W15_NEXT_ERROR ? P_ERR : P_SHORT;
    uint64_t need = (uint64_t)(r->pos - r->op_start) + n; /* bytes from the op start */
    if (r->limit != UINT64_MAX && off_of(r, r->op_start) + need > r->limit)
        return P_SHORT; /* past the end of the file: never allocate for it */
    if (need > SIZE_MAX / 4)
        return P_SHORT;
    if (r->op_start > 0) { /* keep only the current op */
        memmove(r->wbuf, r->wbuf + r->op_start, r->wlen - r->op_start);
        r->win_off += r->op_start;
        r->wlen -= r->op_start;
        r->pos -= r->op_start;
        r->op_start = 0;
    }
    if (r->wcap > 8 * (size_t)WIN_DEFAULT && need <= WIN_DEFAULT && r->wlen <= WIN_DEFAULT) {
        uint8_t *p = realloc(r->wbuf, WIN_DEFAULT); /* shrink after a big op */
        if (p) {
            r->wbuf = p;
            r->win = p;
            r->wcap = WIN_DEFAULT;
        }
    }
    while (r->wlen < (size_t)need) {
        if (r->wlen == r->wcap) {
            /* Grow only as bytes arrive: double, or straight to the need
             * when the file size says the bytes are there. */
            size_t cap = r->wcap * 2;
            if (r->limit != UINT64_MAX && cap < (size_t)need)
                cap = (size_t)need;
            uint8_t *p = realloc(r->wbuf, cap);
            if (!p)
                return rerr(r, W15_E_NOMEM, off_of(r, r->op_start),
                            "expected memory for an operation of %llu bytes, found none",
                            (unsigned long long)need);
            r->wbuf = p;
            r->win = p;
            r->wcap = cap;
        }
        int rc = fill(r);
        if (rc != P_OK)
            return rc;
    }
    return P_OK;
}

static inline int ensure(w15_reader_t *r, uint64_t n)
{
    return likely(r->wlen - r->pos >= n) ? P_OK : ensure_slow(r, n);
}

/* ensure() for `n` bytes announced by the length field `what` at stream
 * offset `field_at`: when the file ends first, the truncation message says
 * which field asked for more than the bytes left. */
static int ensure_len(w15_reader_t *r, uint64_t n, const char *what, uint64_t field_at)
{
    int rc = ensure(r, n);
    if (rc == P_SHORT)
        snprintf(r->short_detail, sizeof r->short_detail,
                 "; the %s at byte %llu asks for %llu bytes, only %llu are left", what,
                 (unsigned long long)field_at, (unsigned long long)n,
                 (unsigned long long)(r->wlen - r->pos));
    return rc;
}

/* ---- primitive decoders --------------------------------------------- */

static inline int rd_u8(w15_reader_t *r, uint8_t *v)
{
    TRY(ensure(r, 1));
    *v = r->win[r->pos++];
    return P_OK;
}

static inline int rd_u32(w15_reader_t *r, uint32_t *v)
{
    TRY(ensure(r, 4));
    *v = w15_le32(r->win + r->pos);
    r->pos += 4;
    return P_OK;
}

static int bad_varint(w15_reader_t *r, uint64_t start, int len)
{
    return rerr(r, W15_E_BAD_VARINT, start,
                "expected a LEB128 varint of at most 10 bytes holding 64 bits, found %s",
                len > 10 ? "more than 10 bytes" : "a value over 64 bits");
}

/* Unsigned LEB128, at most 10 bytes, value < 2^64. */
static int rd_uvari_slow(w15_reader_t *r, uint64_t *v)
{
    uint64_t start = here(r);
    uint64_t x = 0;
    for (int i = 0;; i++) {
        if (i == 10)
            return bad_varint(r, start, 11);
        uint8_t b;
        TRY(rd_u8(r, &b));
        if (i == 9 && (b & 0x7e)) /* 10th byte holds only bit 63 */
            return bad_varint(r, start, (b & 0x80) ? 11 : 10);
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            break;
    }
    *v = x;
    return P_OK;
}

static inline int rd_uvari(w15_reader_t *r, uint64_t *v)
{
    if (likely(r->wlen - r->pos >= W15_MAX_UVARI)) {
        /* all ten bytes are there: decode without bounds checks; a value
         * that does not end in 9 bytes takes the checking path */
        const uint8_t *p = r->win + r->pos;
        uint64_t x = p[0] & 0x7f;
        if (likely(p[0] < 0x80)) {
            r->pos++;
            *v = x;
            return P_OK;
        }
        for (unsigned i = 1; i < 9; i++) {
            x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
            if (p[i] < 0x80) {
                r->pos += i + 1;
                *v = x;
                return P_OK;
            }
        }
    }
    return rd_uvari_slow(r, v);
}

/* svari: sign-magnitude (0.0, uvari 1 = INT64_MIN) or signed LEB128 (0.0a). */
static int rd_svari(w15_reader_t *r, int64_t *v)
{
    if (r->hdr.version == W15_VERSION_0_0) {
        uint64_t u;
        TRY(rd_uvari(r, &u));
        if (u == 1)
            *v = INT64_MIN;
        else
            *v = (u & 1) ? -(int64_t)(u >> 1) : (int64_t)(u >> 1);
        return P_OK;
    }
    uint64_t start = here(r);
    uint64_t x = 0;
    for (int i = 0;; i++) {
        if (i == 10)
            return bad_varint(r, start, 11);
        uint8_t b;
        TRY(rd_u8(r, &b));
        if (i == 9) {
            /* 10th byte: bit 63 and its sign extension only */
            if (b != 0x00 && b != 0x7f)
                return bad_varint(r, start, (b & 0x80) ? 11 : 10);
            x |= (uint64_t)b << 63;
            break;
        }
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            if ((b & 0x40) && i < 9)
                x |= ~(uint64_t)0 << (7 * (i + 1));
            break;
        }
    }
    *v = (int64_t)x;
    return P_OK;
}

/* ---- per-op memory --------------------------------------------------- */

static void *arena_alloc_slow(w15_reader_t *r, size_t n)
{
    ablock_t *b = r->arena;
    size_t cap = b ? b->cap * 2 : ARENA_BLOCK;
    if (cap < n)
        cap = n;
    ablock_t *nb = malloc(sizeof *nb + cap);
    if (!nb)
        return NULL;
    nb->next = b;
    nb->cap = cap;
    nb->used = n;
    r->arena = nb;
    return nb->data;
}

static inline void *arena_alloc(w15_reader_t *r, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    ablock_t *b = r->arena;
    if (likely(b && b->cap - b->used >= n)) {
        void *p = b->data + b->used;
        b->used += n;
        return p;
    }
    return arena_alloc_slow(r, n);
}

static void arena_reset(w15_reader_t *r)
{
    ablock_t *b = r->arena;
    if (!b)
        return;
    if (!b->next && b->cap <= ARENA_KEEP) {
        b->used = 0;
        return;
    }
    /* several blocks (or a huge one): keep one block of the total size,
     * unless that is huge */
    size_t total = 0;
    while (b) {
        ablock_t *next = b->next;
        total += b->cap;
        free(b);
        b = next;
    }
    r->arena = NULL;
    if (total <= ARENA_KEEP && (r->arena = malloc(sizeof *r->arena + total))) {
        r->arena->next = NULL;
        r->arena->cap = total;
        r->arena->used = 0;
    }
}

static int nomem(w15_reader_t *r)
{
    return rerr(r, W15_E_NOMEM, off_of(r, r->op_start), "expected memory to decode the operation, found none");
}

/* Point *field at window index `idx`, now or when the op is complete. */
static inline int ref(w15_reader_t *r, const void **field, size_t idx)
{
    if (r->stable) {
        *field = r->win + idx;
        return P_OK;
    }
    if (unlikely(r->nfix == r->fixcap)) {
        size_t cap = r->fixcap ? r->fixcap * 2 : 256;
        const void ***p = realloc(r->fixv, cap * sizeof *p);
        if (!p)
            return nomem(r);
        r->fixv = p;
        r->fixcap = cap;
    }
    *field = (const void *)(uintptr_t)(idx - r->op_start);
    r->fixv[r->nfix++] = field;
    return P_OK;
}

static void apply_fixups(w15_reader_t *r)
{
    const uint8_t *base = r->win + r->op_start;
    for (size_t i = 0; i < r->nfix; i++)
        *r->fixv[i] = base + (uintptr_t)*r->fixv[i];
    r->nfix = 0;
}

/* ---- values ----------------------------------------------------------- */

static int check_type(w15_reader_t *r, const uint8_t *t, uint64_t at)
{
    if (t[0] >= W15_BASE_COUNT_)
        return rerr(r, W15_E_BAD_TYPE, at,
                    "expected a base type 0..9 (Void..FunctionPtr), found %u", t[0]);
    if (t[1] > 1)
        return rerr(r, W15_E_BAD_TYPE, at + 1, "expected has_group 0 or 1, found %u", t[1]);
    if (t[2] > 1)
        return rerr(r, W15_E_BAD_TYPE, at + 2, "expected is_array 0 or 1, found %u", t[2]);
    return P_OK;
}

static int rd_string(w15_reader_t *r, w15_str_t *s)
{
    uint32_t len;
    uint64_t at = here(r);
    TRY(rd_u32(r, &len));
    TRY(ensure_len(r, len, "string length", at));
    s->len = len;
    TRY(ref(r, (const void **)&s->ptr, r->pos));
    r->pos += len;
    return P_OK;
}

static int rd_data(w15_reader_t *r, w15_blob_t *d)
{
    uint64_t start = here(r);
    TRY(ensure(r, W15_DATA_HEADER));
    const uint8_t *h = r->win + r->pos;
    unsigned maxm = r->hdr.version == W15_VERSION_0_0 ? W15_COMP_LZ4 : W15_COMP_ZLIB;
    if (h[0] > maxm)
        return rerr(r, W15_E_BAD_COMP, start,
                    "expected a compression method 0 (None)..%u (%s), found %u", maxm,
                    w15_comp_name(maxm), h[0]);
    d->method = h[0];
    d->size = w15_le32(h + 1);
    d->csize = w15_le32(h + 5);
    d->offset = start;
    if (d->method == W15_COMP_NONE && d->csize != d->size)
        return rerr(r, W15_E_BAD_BLOB, start + 5,
                    "expected compressedSize equal to size (%u) for method None, found %u", d->size,
                    d->csize);
    if (d->method == W15_COMP_LZ4 && d->size > 0x7E000000u)
        return rerr(r, W15_E_BAD_LENGTH, start + 1,
                    "expected an LZ4 block size of at most 2113929216 (LZ4_MAX_INPUT_SIZE), found %u",
                    d->size);
    r->pos += W15_DATA_HEADER;
    TRY(ensure_len(r, d->csize, "blob compressedSize", start + 5));
    TRY(ref(r, (const void **)&d->cdata, r->pos));
    r->pos += d->csize;
    r->st.blob_bytes_raw += d->size;
    r->st.blob_bytes_stored += d->csize;
    return P_OK;
}

static const uint8_t min_elem_size[W15_BASE_COUNT_] = {0, 1, 1, 1, 1, 4, 8, 4, W15_DATA_HEADER, 0};

static int rd_group(w15_reader_t *r, w15_value_t *v);
static int rd_value_general(w15_reader_t *r, w15_type_t t, w15_value_t *v);

/* A value; scalars of the fixed-size kinds use `slot` (8 bytes owned by
 * the caller) for their element instead of the arena. */
static inline int rd_value(w15_reader_t *r, w15_type_t t, w15_value_t *v, uint64_t *slot)
{
    v->type = t;
    v->group = 0;
    v->count = 1;
    if (!t.is_array) {
        switch (t.base) {
        case W15_UINT:
        case W15_PTR:
            TRY(rd_uvari(r, slot));
            v->v.u = slot;
            return t.has_group ? rd_group(r, v) : P_OK;
        case W15_INT:
            TRY(rd_svari(r, (int64_t *)slot));
            v->v.i = (const int64_t *)slot;
            return t.has_group ? rd_group(r, v) : P_OK;
        case W15_FLOAT: {
            TRY(ensure(r, 4));
            uint32_t u = w15_le32(r->win + r->pos);
            float f;
            memcpy(&f, &u, 4);
            memcpy(slot, &f, 4);
            r->pos += 4;
            v->v.f = (const float *)slot;
            return t.has_group ? rd_group(r, v) : P_OK;
        }
        case W15_DOUBLE: {
            TRY(ensure(r, 8));
            uint64_t u = w15_le64(r->win + r->pos);
            memcpy(slot, &u, 8);
            r->pos += 8;
            v->v.d = (const double *)slot;
            return t.has_group ? rd_group(r, v) : P_OK;
        }
        default:
            break;
        }
    }
    return rd_value_general(r, t, v);
}

/* n little-endian words of `size` bytes (4: float, 8: double) into a new
 * arena array *out. */
static int rd_le_words(w15_reader_t *r, uint32_t n, unsigned size, void **out)
{
    TRY(ensure(r, (uint64_t)n * size));
    uint8_t *a = arena_alloc(r, (size_t)n * size);
    if (!a)
        return nomem(r);
    const uint8_t *p = r->win + r->pos;
    for (size_t i = 0; i < n; i++) {
        if (size == 4) {
            uint32_t u = w15_le32(p + 4 * i);
            memcpy(a + 4 * i, &u, 4);
        } else {
            uint64_t u = w15_le64(p + 8 * i);
            memcpy(a + 8 * i, &u, 8);
        }
    }
    r->pos += (size_t)n * size;
    *out = a;
    return P_OK;
}

static int rd_value_general(w15_reader_t *r, w15_type_t t, w15_value_t *v)
{
    uint32_t n = 1;
    if (t.is_array) {
        uint64_t at = here(r);
        TRY(rd_u32(r, &n));
        if (min_elem_size[t.base] == 0 && n > W15_MAX_EMPTY_ARRAY)
            return rerr(r, W15_E_BAD_LENGTH, at,
                        "expected at most %u elements in an array of %s (elements without bytes), "
                        "found %u",
                        W15_MAX_EMPTY_ARRAY, w15_base_name(t.base), n);
        TRY(ensure_len(r, (uint64_t)n * min_elem_size[t.base], "array count", at));
    }
    v->count = n;
    v->v.u = NULL;
    switch (t.base) {
    case W15_UINT:
    case W15_PTR: {
        uint64_t *a = arena_alloc(r, (size_t)n * 8);
        if (!a)
            return nomem(r);
        for (uint32_t i = 0; i < n; i++)
            TRY(rd_uvari(r, &a[i]));
        v->v.u = a;
        break;
    }
    case W15_INT: {
        int64_t *a = arena_alloc(r, (size_t)n * 8);
        if (!a)
            return nomem(r);
        for (uint32_t i = 0; i < n; i++)
            TRY(rd_svari(r, &a[i]));
        v->v.i = a;
        break;
    }
    case W15_BOOL:
        TRY(ensure(r, n));
        TRY(ref(r, (const void **)&v->v.b, r->pos));
        r->pos += n;
        break;
    case W15_FLOAT: {
        void *a;
        TRY(rd_le_words(r, n, 4, &a));
        v->v.f = a;
        break;
    }
    case W15_DOUBLE: {
        void *a;
        TRY(rd_le_words(r, n, 8, &a));
        v->v.d = a;
        break;
    }
    case W15_STRING: {
        w15_str_t *a = arena_alloc(r, (size_t)n * sizeof *a);
        if (!a)
            return nomem(r);
        for (uint32_t i = 0; i < n; i++)
            TRY(rd_string(r, &a[i]));
        v->v.s = a;
        break;
    }
    case W15_DATA: {
        w15_blob_t *a = arena_alloc(r, (size_t)n * sizeof *a);
        if (!a)
            return nomem(r);
        for (uint32_t i = 0; i < n; i++)
            TRY(rd_data(r, &a[i]));
        v->v.data = a;
        break;
    }
    default: /* Void, FunctionPtr: no element bytes */
        break;
    }
    return t.has_group ? rd_group(r, v) : P_OK;
}

static int rd_group(w15_reader_t *r, w15_value_t *v)
{
    {
        uint64_t at = here(r);
        TRY(rd_u32(r, &v->group));
        if (v->group >= r->hdr.max_groups)
            return rerr(r, W15_E_BAD_GROUP, at,
                        "expected a group index below max_groups (%u), found %u", r->hdr.max_groups,
                        v->group);
        if (!map_find(&r->groups, v->group))
            return rerr(r, W15_E_BAD_GROUP, at,
                        "expected the index of a declared group, found %u (never declared)", v->group);
    }
    return P_OK;
}

/* ---- operations ------------------------------------------------------ */

static int store_decl(w15_reader_t *r, map_t *m, uint32_t index, decl_t *d)
{
    void *old;
    if (map_put(m, index, d, &old) != 0) {
        free(d);
        return nomem(r);
    }
    if (old) { /* a redeclaration replaces; keep the old one alive */
        decl_t *o = old;
        o->next_retired = r->retired;
        r->retired = o;
    }
    return P_OK;
}

static int op_decl_func(w15_reader_t *r, w15_op_t *op)
{
    uint64_t at = here(r);
    uint32_t index, nargs;
    TRY(rd_u32(r, &index));
    if (index >= r->hdr.max_functions)
        return rerr(r, W15_E_BAD_FUNC, at,
                    "expected a function index below max_functions (%u), found %u",
                    r->hdr.max_functions, index);
    uint32_t name_len;
    uint64_t len_at = here(r);
    TRY(rd_u32(r, &name_len));
    TRY(ensure_len(r, name_len, "function name length", len_at));
    uint64_t name_at = here(r);
    r->pos += name_len;
    TRY(ensure(r, 3));
    uint64_t res_at = here(r);
    TRY(check_type(r, at_ptr(r, res_at), res_at));
    r->pos += 3;
    TRY(rd_u32(r, &nargs));
    TRY(ensure(r, (uint64_t)nargs * 3));
    uint64_t args_at = here(r);
    for (uint32_t i = 0; i < nargs; i++)
        TRY(check_type(r, at_ptr(r, args_at + 3 * (uint64_t)i), args_at + 3 * (uint64_t)i));
    r->pos += (size_t)nargs * 3;

    /* all of the op is in the window now */
    decl_t *d = malloc(sizeof *d + (size_t)nargs * sizeof(w15_type_t) + name_len + 1);
    if (!d)
        return nomem(r);
    w15_type_t *args = (w15_type_t *)(d + 1);
    char *nm = (char *)(args + nargs);
    const uint8_t *t = at_ptr(r, args_at);
    for (uint32_t i = 0; i < nargs; i++, t += 3)
        args[i] = (w15_type_t){t[0], t[1], t[2]};
    memcpy(nm, at_ptr(r, name_at), name_len);
    nm[name_len] = 0;
    const uint8_t *res = at_ptr(r, res_at);
    d->u.f = (w15_func_t){.index = index, .name = nm, .nargs = nargs, .args = args,
                          .result = {res[0], res[1], res[2]}};
    TRY(store_decl(r, &r->funcs, index, d));
    r->st.funcs++;
    op->func = &d->u.f;
    return P_OK;
}

static int op_decl_group(w15_reader_t *r, w15_op_t *op)
{
    uint8_t type = W15_GROUP_ENUM;
    if (r->hdr.version == W15_VERSION_0_0) {
        uint64_t at = here(r);
        TRY(rd_u8(r, &type));
        if (type >= W15_GROUP_TYPE_COUNT_)
            return rerr(r, W15_E_BAD_TYPE, at, "expected a group type 0..%u, found %u",
                        W15_GROUP_TYPE_COUNT_ - 1, type);
    }
    uint64_t at = here(r);
    uint32_t index, name_len;
    TRY(rd_u32(r, &index));
    if (index >= r->hdr.max_groups)
        return rerr(r, W15_E_BAD_GROUP, at,
                    "expected a group index below max_groups (%u), found %u", r->hdr.max_groups, index);
    uint64_t len_at = here(r);
    TRY(rd_u32(r, &name_len));
    TRY(ensure_len(r, name_len, "group name length", len_at));
    decl_t *d = malloc(sizeof *d + name_len + 1);
    if (!d)
        return nomem(r);
    char *nm = (char *)(d + 1);
    memcpy(nm, r->win + r->pos, name_len);
    nm[name_len] = 0;
    r->pos += name_len;
    d->u.g = (w15_group_t){.index = index, .type = (w15_group_type_t)type, .name = nm};
    TRY(store_decl(r, &r->groups, index, d));
    r->st.groups++;
    op->group = &d->u.g;
    return P_OK;
}

static int op_call(w15_reader_t *r, w15_op_t *op)
{
    uint64_t at = here(r);
    uint32_t fi;
    TRY(rd_u32(r, &fi));
    if (fi >= r->hdr.max_functions)
        return rerr(r, W15_E_BAD_FUNC, at,
                    "expected a function index below max_functions (%u), found %u",
                    r->hdr.max_functions, fi);
    const decl_t *d = map_find(&r->funcs, fi);
    if (!d)
        return rerr(r, W15_E_BAD_FUNC, at,
                    "expected the index of a declared function, found %u (never declared)", fi);
    const w15_func_t *f = &d->u.f;
    w15_call_t *c = &r->call;
    c->func = f;
    c->index = r->ncalls;
    c->offset = off_of(r, r->op_start);
    size_t nv = (size_t)f->nargs + 1;
    w15_value_t *vals = arena_alloc(r, nv * (sizeof *vals + sizeof(uint64_t)));
    if (!vals)
        return nomem(r);
    uint64_t *slots = (uint64_t *)(vals + nv);
    for (uint32_t i = 0; i < f->nargs; i++)
        TRY(rd_value(r, f->args[i], &vals[i], &slots[i]));
    c->args = vals;
    c->result = NULL;
    if (f->result.base != W15_VOID) {
        TRY(rd_value(r, f->result, &vals[f->nargs], &slots[f->nargs]));
        c->result = &vals[f->nargs];
    }
    uint32_t n;
    TRY(rd_u32(r, &n));
    TRY(ensure(r, (uint64_t)n * (4 + W15_DATA_HEADER)));
    w15_extra_t *ex = NULL;
    if (n) {
        ex = arena_alloc(r, (size_t)n * sizeof *ex);
        if (!ex)
            return nomem(r);
        for (uint32_t i = 0; i < n; i++) {
            TRY(rd_string(r, &ex[i].name));
            TRY(rd_data(r, &ex[i].data));
        }
    }
    c->nextras = n;
    c->extras = ex;
    op->call = c;
    return P_OK;
}

static w15_next_t finish(w15_reader_t *r, w15_error_t *err)
{
    if (err)
        *err = r->serr;
    return r->state;
}

static w15_next_t truncated(w15_reader_t *r, w15_error_t *err)
{
    uint64_t at = off_of(r, r->op_start);
    w15_set_error(&r->serr, W15_E_TRUNCATED, at, "%s: truncated after %llu complete calls at byte %llu%s%s",
                  r->name, (unsigned long long)r->ncalls, (unsigned long long)at, where(r),
                  r->short_detail);
    r->state = W15_NEXT_TRUNCATED;
    return finish(r, err);
}

w15_next_t w15_reader_next(w15_reader_t *r, w15_op_t *op, w15_error_t *err)
{
    memset(op, 0, sizeof *op);
    if (r->state != W15_NEXT_CALL)
        return finish(r, err);
    arena_reset(r);
    r->nfix = 0;
    r->short_detail[0] = 0;
    r->op_start = r->pos;
    op->offset = off_of(r, r->pos);
    uint8_t opcode;
    int rc = ensure(r, 1);
    if (rc == P_SHORT && r->cut) {
        snprintf(r->short_detail, sizeof r->short_detail,
                 "; %s (the writer did not finish: killed, crashed or the file was cut)", r->cut);
        return truncated(r, err);
    }
    if (rc == P_SHORT) {
        r->state = W15_NEXT_END;
        w15_set_error(&r->serr, W15_E_OK, op->offset, "%s: end of file at byte %llu after %llu calls",
                      r->name, (unsigned long long)op->offset, (unsigned long long)r->ncalls);
        return finish(r, err);
    }
    if (rc == P_OK)
        rc = rd_u8(r, &opcode);
    if (rc == P_OK) {
        switch (opcode) {
        case W15_OP_DECL_FUNC: rc = op_decl_func(r, op); break;
        case W15_OP_DECL_GROUP: rc = op_decl_group(r, op); break;
        case W15_OP_CALL: rc = op_call(r, op); break;
        default:
            rc = rerr(r, W15_E_BAD_OPCODE, op->offset,
                      "expected an opcode 0 (OpDeclFunc), 1 (OpDeclGroup) or 2 (OpCall), found %u",
                      opcode);
        }
    }
    if (rc == P_SHORT)
        return truncated(r, err);
    if (rc == P_ERR) {
        op->func = NULL;
        op->group = NULL;
        op->call = NULL;
        return finish(r, err);
    }
    apply_fixups(r);
    r->st.stream_bytes = off_of(r, r->pos);
    if (op->call) {
        r->ncalls++;
        r->st.calls++;
        return W15_NEXT_CALL;
    }
    return op->func ? W15_NEXT_DECL_FUNC : W15_NEXT_DECL_GROUP;
}

/* ---- opening --------------------------------------------------------- */

static void put_printable(char *dst, size_t cap, const uint8_t *p, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 5 < cap; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\')
            dst[o++] = (char)p[i];
        else
            o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", p[i]);
    }
    dst[o] = 0;
}

static int header_short(w15_reader_t *r)
{
    w15_set_error(&r->serr, W15_E_TRUNCATED, 0,
                  "%s: truncated after 0 complete calls at byte 0%s (the file ends inside the %zu-byte header)",
                  r->name, where(r), r->hdr.version == W15_VERSION_0_0A ? (size_t)30 : (size_t)16);
    r->state = W15_NEXT_TRUNCATED;
    return P_SHORT;
}

static int read_header(w15_reader_t *r)
{
    /* magic: compare what is there, so that a short non-WIP15 file is
     * reported as such rather than as truncated */
    int rc = ensure(r, 6);
    if (rc == P_ERR)
        return rc;
    size_t have = r->wlen - r->pos < 6 ? r->wlen - r->pos : 6;
    size_t m = have < 5 ? have : 5;
    if (memcmp(r->win, W15_MAGIC, m) != 0) {
        static const uint8_t lz4_magic[4] = {0x04, 0x22, 0x4D, 0x18};
        static const uint8_t zstd_magic[4] = {0x28, 0xB5, 0x2F, 0xFD};
        if (have < 4 && !r->hdr.stream_lz4 && !r->hdr.stream_zstd &&
            (memcmp(r->win, lz4_magic, have) == 0 || memcmp(r->win, zstd_magic, have) == 0))
            return header_short(r); /* a cut LZ4 or zstd frame magic */
        char found[64];
        put_printable(found, sizeof found, r->win, m);
        static const uint8_t wtf_magic[4] = {0xEF, 0xBE, 0xAD, 0xDE};
        int is_wtf = have >= 4 && memcmp(r->win, wtf_magic, 4) == 0;
        return rerr(r, W15_E_BAD_MAGIC, 0, "expected magic \"WIP15\", found \"%s\"%s", found,
                    is_wtf ? " (a WTF timing file: read it with wip15 frames or wip15 export)" : "");
    }
    if (rc == P_SHORT)
        return header_short(r);
    uint8_t e = r->win[5];
    if (e != W15_ENDIAN_LITTLE && e != W15_ENDIAN_BIG)
        return rerr(r, W15_E_BAD_MAGIC, 5, "expected endian byte '_' (little) or '-' (big), found 0x%02x", e);
    r->hdr.endian = (char)e;
    r->pos = 6;
    if (ensure(r, 1) != P_OK)
        return r->state == W15_NEXT_ERROR ? P_ERR : header_short(r);
    uint8_t v = r->win[6];
    if (v == 0) {
        r->hdr.version = W15_VERSION_0_0;
        if (ensure(r, 2) != P_OK)
            return r->state == W15_NEXT_ERROR ? P_ERR : header_short(r);
        if (r->win[7] != 0)
            return rerr(r, W15_E_BAD_VERSION, 7, "expected minor version 0 (version 0.0), found %u", r->win[7]);
        r->pos = 8;
    } else if (v == '0') {
        r->hdr.version = W15_VERSION_0_0A;
        if (ensure(r, 16) != P_OK)
            return r->state == W15_NEXT_ERROR ? P_ERR : header_short(r);
        if (memcmp(r->win + 6, V0A_STRING, 16) != 0) {
            char found[80];
            put_printable(found, sizeof found, r->win + 6, 16);
            return rerr(r, W15_E_BAD_VERSION, 6, "expected version string \"%s\", found \"%s\"",
                        V0A_STRING, found);
        }
        r->pos = 22;
    } else {
        return rerr(r, W15_E_BAD_VERSION, 6,
                    "expected major version 0 (byte 0x00) or the version string \"0.0a\", found 0x%02x", v);
    }
    if (ensure(r, 8) != P_OK)
        return r->state == W15_NEXT_ERROR ? P_ERR : header_short(r);
    r->hdr.max_functions = w15_le32(r->win + r->pos);
    r->hdr.max_groups = w15_le32(r->win + r->pos + 4);
    r->pos += 8;
    r->op_start = r->pos;
    r->st.stream_bytes = r->pos;
    return P_OK;
}

static w15_reader_t *reader_new(const char *name, int fd, w15_error_t *err)
{
    w15_reader_t *r = calloc(1, sizeof *r);
    if (r)
        r->name = strdup(name ? name : "(input)");
    if (!r || !r->name) {
        w15_set_error(err, W15_E_NOMEM, 0, "%s: out of memory", name ? name : "(input)");
        free(r);
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    r->fd = fd;
    r->limit = UINT64_MAX;
    r->state = W15_NEXT_CALL;
    return r;
}

static int is_lz4_magic(const uint8_t *p)
{
    uint32_t m = w15_le32(p);
    return m == LZ4_FRAME_MAGIC || (m & 0xFFFFFFF0u) == 0x184D2A50u; /* frame or skippable frame */
}

static int is_zstd_magic(const uint8_t *p)
{
    return w15_le32(p) == ZSTD_MAGICNUMBER;
}

/* Common tail of the open functions: read the header. */
static w15_reader_t *open_finish(w15_reader_t *r, w15_error_t *err)
{
    if (read_header(r) != P_OK) {
        if (err)
            *err = r->serr;
        w15_reader_close(r);
        return NULL;
    }
    return r;
}

static w15_reader_t *open_nomem(w15_reader_t *r, w15_error_t *err)
{
    w15_set_error(err, W15_E_NOMEM, 0, "%s: out of memory opening the reader", r->name);
    w15_reader_close(r);
    return NULL;
}

w15_reader_t *w15_reader_open_mem(const void *data, size_t size, const char *name, w15_error_t *err)
{
    w15_reader_t *r = reader_new(name, -1, err);
    if (!r)
        return NULL;
    r->mem = data;
    r->memsize = size;
    if (size >= 4 && is_zstd_magic(data)) {
        r->hdr.stream_zstd = 1;
        r->wcap = WIN_MEM_LZ4;
        r->wbuf = malloc(r->wcap);
        if (!r->wbuf || !(r->zd = ZSTD_createDCtx()))
            return open_nomem(r, err);
        r->win = r->wbuf;
        r->inp = data;
        r->inlen = size;
    } else if (size >= 4 && is_lz4_magic(data)) {
        r->hdr.stream_lz4 = 1;
        r->wcap = WIN_MEM_LZ4;
        r->wbuf = malloc(r->wcap);
        if (!r->wbuf || LZ4F_isError(LZ4F_createDecompressionContext(&r->dctx, LZ4F_VERSION)))
            return open_nomem(r, err);
        r->win = r->wbuf;
        r->inp = data;
        r->inlen = size;
    } else {
        r->stable = 1;
        r->win = data;
        r->wlen = size;
        r->limit = size;
        r->st.file_bytes = size;
    }
    return open_finish(r, err);
}

w15_reader_t *w15_reader_open_fd(int fd, const char *name, w15_error_t *err)
{
    w15_reader_t *r = reader_new(name, fd, err);
    if (!r)
        return NULL;
    r->inbuf = malloc(IN_CAP);
    r->wcap = WIN_DEFAULT;
    r->wbuf = malloc(r->wcap);
    if (!r->inbuf || !r->wbuf)
        return open_nomem(r, err);
    r->win = r->wbuf;
    /* Read the first bytes to tell a plain file from an LZ4 frame. */
    size_t got = 0;
    while (got < 4) {
        ssize_t k = read_some(r, r->inbuf + got, IN_CAP - got);
        if (k < 0) {
            w15_set_error(err, W15_E_IO, 0, "%s: byte 0: expected to read the file, found error: %s",
                          r->name, strerror(errno));
            w15_reader_close(r);
            return NULL;
        }
        if (k == 0)
            break;
        got += (size_t)k;
    }
    if (got >= 4 && is_zstd_magic(r->inbuf)) {
        r->hdr.stream_zstd = 1;
        if (!(r->zd = ZSTD_createDCtx()))
            return open_nomem(r, err);
        r->inp = r->inbuf;
        r->inlen = got;
    } else if (got >= 4 && is_lz4_magic(r->inbuf)) {
        r->hdr.stream_lz4 = 1;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&r->dctx, LZ4F_VERSION)))
            return open_nomem(r, err);
        r->inp = r->inbuf;
        r->inlen = got;
    } else {
        memcpy(r->wbuf, r->inbuf, got);
        r->wlen = got;
        r->st.file_bytes = got;
        free(r->inbuf);
        r->inbuf = NULL;
        struct stat sb;
        off_t cur = lseek(fd, 0, SEEK_CUR);
        if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && cur >= 0 && sb.st_size >= cur)
            r->limit = (uint64_t)(sb.st_size - cur) + got;
    }
    return open_finish(r, err);
}

w15_reader_t *w15_reader_open(const char *path, w15_error_t *err)
{
    int fd;
    do
        fd = open(path, O_RDONLY | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        w15_set_error(err, W15_E_IO, 0, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return w15_reader_open_fd(fd, path, err);
}

static void free_map(map_t *m)
{
    for (uint32_t i = 0; m->s && i <= m->mask; i++)
        free(m->s[i].val);
    free(m->s);
    free(m->dense);
}

void w15_reader_close(w15_reader_t *r)
{
    if (!r)
        return;
    if (r->fd >= 0)
        close(r->fd);
    free_map(&r->funcs);
    free_map(&r->groups);
    while (r->retired) {
        decl_t *n = r->retired->next_retired;
        free(r->retired);
        r->retired = n;
    }
    while (r->arena) {
        ablock_t *n = r->arena->next;
        free(r->arena);
        r->arena = n;
    }
    if (r->dctx)
        LZ4F_freeDecompressionContext(r->dctx);
    ZSTD_freeDCtx(r->zd);
    free(r->fixv);
    free(r->inbuf);
    free(r->wbuf);
    free(r->blobbuf);
    free(r->ptrs);
    for (size_t i = 0; i < sizeof r->xent / sizeof r->xent[0]; i++)
        free(r->xent[i]);
    free(r->name);
    free(r);
}

const w15_header_t *w15_reader_header(const w15_reader_t *r)
{
    return &r->hdr;
}

const w15_func_t *w15_reader_func(const w15_reader_t *r, uint32_t index)
{
    const decl_t *d = map_find(&r->funcs, index);
    return d ? &d->u.f : NULL;
}

const w15_group_t *w15_reader_group(const w15_reader_t *r, uint32_t index)
{
    const decl_t *d = map_find(&r->groups, index);
    return d ? &d->u.g : NULL;
}

const uint8_t *w15_reader_blob(w15_reader_t *r, const w15_blob_t *b, w15_error_t *err)
{
    const char *why = NULL;
    if (b->method >= W15_COMP_COUNT_ ||
        (r->hdr.version == W15_VERSION_0_0A && b->method > W15_COMP_ZLIB)) {
        w15_set_error(err, W15_E_BAD_COMP, b->offset,
                      "%s: byte %llu%s: expected a compression method 0 (None)..%u, found %u", r->name,
                      (unsigned long long)b->offset, where(r),
                      r->hdr.version == W15_VERSION_0_0A ? 1u : 2u, b->method);
        return NULL;
    }
    if (b->method == W15_COMP_NONE) {
        if (b->csize == b->size)
            return b->cdata;
        why = "stored size differs from size";
    } else if (b->size > w15_max_expansion(b->method, b->csize)) {
        why = "too few stored bytes for that size";
    } else {
        size_t need = b->size ? b->size : 1;
        if (r->blobcap < need || r->blobcap > 2 * (size_t)need + (64u << 20)) {
            free(r->blobbuf);
            r->blobbuf = malloc(need);
            r->blobcap = r->blobbuf ? need : 0;
            if (!r->blobbuf) {
                w15_set_error(err, W15_E_NOMEM, b->offset,
                              "%s: byte %llu%s: expected memory for a blob of %u bytes, found none",
                              r->name, (unsigned long long)b->offset, where(r), b->size);
                return NULL;
            }
        }
        if (w15_decompress(b->method, b->cdata, b->csize, r->blobbuf, b->size, &why) == 0)
            return r->blobbuf;
    }
    w15_set_error(err, W15_E_BAD_BLOB, b->offset,
                  "%s: byte %llu%s: expected a %s blob of %u stored bytes that decompresses to %u bytes, "
                  "found %s",
                  r->name, (unsigned long long)b->offset, where(r), w15_comp_name(b->method), b->csize,
                  b->size, why);
    return NULL;
}

void w15_reader_get_stats(const w15_reader_t *r, w15_reader_stats_t *st)
{
    *st = r->st;
    if (r->stable)
        st->file_bytes = r->st.stream_bytes;
}

int w15_reader_ptrs(w15_reader_t *r, const w15_call_t *call, const w15_ptr_entry_t **entries,
                    uint32_t *n, w15_error_t *err)
{
    uint32_t have = 0;
    *entries = NULL;
    *n = 0;
    for (uint32_t e = 0; e < call->nextras; e++) {
        const w15_extra_t *x = &call->extras[e];
        if (!w15_extra_is(x, W15_EXTRA_PTR))
            continue;
        if (x->data.size % W15_PTR_ENTRY_SIZE != 0) {
            w15_set_error(err, W15_E_BAD_LENGTH, x->data.offset,
                          "%s: byte %llu: call %llu (%s): expected an extra " W15_EXTRA_PTR
                          " of %u-byte entries, found %u bytes",
                          r->name, (unsigned long long)x->data.offset, (unsigned long long)call->index,
                          call->func->name, W15_PTR_ENTRY_SIZE, x->data.size);
            return -1;
        }
        const uint8_t *d = w15_reader_blob(r, &x->data, err);
        if (!d)
            return -1;
        uint32_t cnt = x->data.size / W15_PTR_ENTRY_SIZE;
        if (cnt > r->ptrcap - have) {
            uint64_t ncap = (uint64_t)have + cnt;
            w15_ptr_entry_t *np = ncap <= UINT32_MAX ? realloc(r->ptrs, ncap * sizeof *np) : NULL;
            if (!np) {
                w15_set_error(err, W15_E_NOMEM, x->data.offset, "out of memory");
                return -1;
            }
            r->ptrs = np;
            r->ptrcap = (uint32_t)ncap;
        }
        w15_ptr_decode(d, x->data.size, r->ptrs + have);
        have += cnt;
    }
    if (have) {
        *entries = r->ptrs;
        *n = have;
    }
    return 0;
}

/* Every extra `name` of `call`, decoded entry by entry with `decode` into
 * the reader's array `slot` (entries of `tsize` bytes). */
static int gather(w15_reader_t *r, const w15_call_t *call, const char *name, uint32_t esize, int slot,
                  size_t tsize, void (*decode)(const uint8_t *, void *), const void **entries, uint32_t *n,
                  w15_error_t *err)
{
    uint32_t have = 0;
    *entries = NULL;
    *n = 0;
    for (uint32_t e = 0; e < call->nextras; e++) {
        const w15_extra_t *x = &call->extras[e];
        if (!w15_extra_is(x, name))
            continue;
        if (x->data.size % esize != 0) {
            w15_set_error(err, W15_E_BAD_LENGTH, x->data.offset,
                          "%s: byte %llu: call %llu (%s): expected an extra %s of %u-byte entries, found %u bytes",
                          r->name, (unsigned long long)x->data.offset, (unsigned long long)call->index,
                          call->func->name, name, esize, x->data.size);
            return -1;
        }
        const uint8_t *d = w15_reader_blob(r, &x->data, err);
        if (!d)
            return -1;
        uint32_t cnt = x->data.size / esize;
        if (cnt > r->xcap[slot] - have) {
            uint64_t ncap = (uint64_t)have + cnt;
            void *np = ncap <= UINT32_MAX ? realloc(r->xent[slot], ncap * tsize) : NULL;
            if (!np) {
                w15_set_error(err, W15_E_NOMEM, x->data.offset, "out of memory");
                return -1;
            }
            r->xent[slot] = np;
            r->xcap[slot] = (uint32_t)ncap;
        }
        for (uint32_t i = 0; i < cnt; i++)
            decode(d + (size_t)i * esize, (char *)r->xent[slot] + (size_t)(have + i) * tsize);
        have += cnt;
    }
    if (have) {
        *entries = r->xent[slot];
        *n = have;
    }
    return 0;
}

static void dec_offset(const uint8_t *d, void *out)
{
    w15_offset_entry_t *e = out;
    e->param = w15_le32(d);
    e->target = w15_le32(d + 4);
    e->offset = w15_le64(d + 8);
}
static void dec_ptr(const uint8_t *d, void *out)
{
    w15_ptr_entry_t *e = out;
    e->param = w15_le32(d);
    e->value = w15_le64(d + 4);
}
static void dec_digest(const uint8_t *d, void *out)
{
    w15_digest_entry_t *e = out;
    e->param = w15_le32(d);
    e->size = w15_le64(d + 4);
    e->hash = w15_le64(d + 12);
}

int w15_reader_offsets(w15_reader_t *r, const w15_call_t *call, const w15_offset_entry_t **entries,
                       uint32_t *n, w15_error_t *err)
{
    return gather(r, call, W15_EXTRA_OFFSET, W15_OFFSET_ENTRY_SIZE, 0, sizeof **entries, dec_offset,
                  (const void **)entries, n, err);
}

int w15_reader_unreadable(w15_reader_t *r, const w15_call_t *call, const w15_ptr_entry_t **entries,
                          uint32_t *n, w15_error_t *err)
{
    return gather(r, call, W15_EXTRA_UNREADABLE, W15_PTR_ENTRY_SIZE, 1, sizeof **entries, dec_ptr,
                  (const void **)entries, n, err);
}

int w15_reader_digests(w15_reader_t *r, const w15_call_t *call, const w15_digest_entry_t **entries,
                       uint32_t *n, w15_error_t *err)
{
    return gather(r, call, W15_EXTRA_DIGEST, W15_DIGEST_ENTRY_SIZE, 2, sizeof **entries, dec_digest,
                  (const void **)entries, n, err);
}

static void dec_spans(const uint8_t *d, void *out)
{
    w15_spans_entry_t *e = out;
    e->param = w15_le32(d);
    e->span = w15_le32(d + 4);
    e->rows = w15_le32(d + 8);
    e->images = w15_le32(d + 12);
    e->first = w15_le64(d + 16);
    e->row_stride = w15_le64(d + 24);
    e->image_stride = w15_le64(d + 32);
}

int w15_reader_spans(w15_reader_t *r, const w15_call_t *call, const w15_spans_entry_t **entries,
                     uint32_t *n, w15_error_t *err)
{
    return gather(r, call, W15_EXTRA_SPANS, W15_SPANS_ENTRY_SIZE, 3, sizeof **entries, dec_spans,
                  (const void **)entries, n, err);
}

int w15_reader_gseq(w15_reader_t *r, const w15_call_t *call, uint64_t *gseq, w15_error_t *err)
{
    for (uint32_t e = 0; e < call->nextras; e++) {
        const w15_extra_t *x = &call->extras[e];
        if (!w15_extra_is(x, W15_EXTRA_GSEQ))
            continue;
        if (x->data.size != W15_GSEQ_SIZE) {
            w15_set_error(err, W15_E_BAD_LENGTH, x->data.offset,
                          "%s: byte %llu: call %llu (%s): expected an extra " W15_EXTRA_GSEQ
                          " of 8 bytes, found %u bytes",
                          r->name, (unsigned long long)x->data.offset, (unsigned long long)call->index,
                          call->func->name, x->data.size);
            return -1;
        }
        const uint8_t *d = w15_reader_blob(r, &x->data, err);
        if (!d)
            return -1;
        *gseq = w15_le64(d);
        return 1;
    }
    return 0;
}
