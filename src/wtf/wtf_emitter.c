/* wtf_emitter.c -- the in-process .wtf-trace writer (wtf_emitter.h,
 * docs/WTF.md "What wip15 writes").
 *
 * Layout of a zone buffer (uint32 words):
 *
 *   [0..11]  room for the chunk header (6 words) and part table (2 x 3 words)
 *   [12..14] room for the chunk's leading wtf.zone#set event
 *   [15..end) complete events, appended by the owner thread
 *   then room for the string table, copied behind the events at flush time
 *
 * Appending an event writes its words at `end` and then publishes the new
 * `end` with a release store; nothing else.  A flush writes the chunk header
 * and zone#set into the words just before the first unflushed event (dead
 * space: the reserve or already-written events), copies the zone's strings
 * behind the last event and hands [header, strings) to one write(2).
 *
 * Files: "generation" g of a capture is the file `path` (g = 0) or
 * `<stem>.<g>.wtf-trace`; its timebase is base0 + g * period.  Event times are
 * uint32 microseconds since the generation's timebase, so a zone moves to the
 * next generation before its times could wrap (docs/WTF.md "Long captures").
 * A generation's first bytes (file header, header chunk, and one chunk with
 * every definition and zone known so far) are kept ready in memory (`prefix`)
 * until the first data chunk is written, so the header's metadata can still
 * include what w15_wtf_set_meta learned and a signal handler can write it.
 */
#define _GNU_SOURCE
#include "wtf_emitter.h"

#include "clock.h"
#include "wtf_buf.h"
#include "wtf_format.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

#define RESERVE_WORDS 15u          /* chunk header + part table + zone#set */
#define ZONE_EVENT_WORDS (64u * 1024u) /* 256 KiB of events per zone */
#define ZONE_STRING_BYTES (16u * 1024u)
#define MAX_STRING 1024u           /* longer names are cut (UTF-8 safe) */
#define MAX_KEYS 65536u
#define MAX_GENS 1024
#define SIG_LOCK_TRIES 200
/* uint32 microseconds wrap after 4294.97 s; keep a minute of margin. */
#define HARD_LIMIT_NS ((uint64_t)UINT32_MAX * 1000u - 60ull * 1000000000u)
#define DEFAULT_PERIOD_NS (3600ull * 1000000000u)

typedef struct gen {
    int fd;              /* -1 until opened */
    int hdr_done;        /* prefix written */
    uint32_t next_chunk; /* chunk id counter */
    char *prefix;        /* header + definitions, while !hdr_done */
    size_t prefix_len;
} gen_t;

typedef struct meta {
    char *key, *value;
} meta_t;

/* A definition wip15 made while running: GL call scopes, debug groups
 * (scopes named after the group) and markers (instances named after the
 * marker). */
enum { DEF_CALL, DEF_GROUP, DEF_MARKER, DEF_GPU_FRAME };
typedef struct def {
    char *name;
    uint32_t kind;
} def_t;

typedef struct named {
    uint32_t hash;
    uint16_t wire;  /* 0: empty slot */
    uint16_t kind;
    const char *name; /* the def_t's string */
} named_t;

#define ZONE_CACHE 64
#define NAMED_MAX 16384u /* distinct group/marker names; then wtf.scope#enter */

struct w15_wtf_zone {
    /* hot fields first: touched on every event */
    uint32_t *buf;
    uint32_t end;       /* words: end of complete events (release-published) */
    uint32_t cap;       /* words: max end */
    uint32_t last_us;   /* time of the last event appended */
    int depth;          /* open scopes (clamped at 0) */
    uint64_t base_ns;   /* this zone's generation timebase */
    uint64_t soft_ns;   /* t - base_ns at or above which the slow path runs */
    uint64_t hard_ns;   /* t - base_ns at which rotation is forced */
    uint64_t lim_ns;    /* soft_ns - 1000, 0 before the first event */
    int gen;            /* -1 before the first event */
    int has_frames;
    char *sbuf;         /* this chunk's string table, NUL-separated */
    uint32_t slen, nstr, scap;
    uint32_t flushed;   /* words: first event not yet written */
    int busy;           /* owner flushing or a signal handler copying */
    uint16_t id;
    char *name, *type;
    w15_wtf_t *w;
    struct w15_wtf_zone *next;
    named_t cache[ZONE_CACHE]; /* owner-only cache of the named-event set */
};

struct w15_wtf {
    int lock;            /* file lock: a spin lock (signal handlers try it) */
    int off;
    int sig_busy;
    int sig_mode;        /* w15_wtf_signal_mode: no locks, no malloc, no open */
    char *path;
    uint64_t base0_ns, period_ns;
    double wall0_ms;
    char *info_json;     /* "contextInfo" object text */
    char *tracer_version, *wip15_path;
    gen_t gens[MAX_GENS];
    uint16_t *keymap;    /* key -> wire id (0: not yet) */
    def_t *defs;         /* wire - FIRST_CALL -> definition */
    uint32_t ndefs, defs_cap;
    named_t *named;      /* hash set of named events (groups, markers) */
    uint32_t named_cap, named_n;
    uint16_t gpu_wire;   /* W15_WTF_GPU_FRAME_EVENT, once defined */
    w15_wtf_zone_t *zones; /* pushed at the head; never removed until close */
    uint16_t nzones;
    meta_t *metas;
    uint32_t nmetas;
    char *ebuf;          /* signal path chunk buffer */
    size_t ebuf_cap;
};

/* ---------------------------------------------------------------- locks -- */

static void lock(w15_wtf_t *w)
{
    int spins = 0;
    while (__atomic_exchange_n(&w->lock, 1, __ATOMIC_ACQUIRE)) {
        if (++spins > 50)
            sched_yield();
    }
}

static int trylock_bounded(w15_wtf_t *w)
{
    for (int i = 0; i < SIG_LOCK_TRIES; i++) {
        if (!__atomic_exchange_n(&w->lock, 1, __ATOMIC_ACQUIRE))
            return 1;
        sched_yield();
    }
    return 0;
}

static void unlock(w15_wtf_t *w)
{
    __atomic_store_n(&w->lock, 0, __ATOMIC_RELEASE);
}

static void zone_busy(w15_wtf_zone_t *z)
{
    while (__atomic_exchange_n(&z->busy, 1, __ATOMIC_ACQUIRE))
        sched_yield(); /* a signal handler on another thread is copying */
}

static void zone_idle(w15_wtf_zone_t *z)
{
    __atomic_store_n(&z->busy, 0, __ATOMIC_RELEASE);
}

/* ------------------------------------------------------------- messages -- */

/* Caller holds the lock (or is the only thread). */
static void fail(w15_wtf_t *w, const char *fmt, ...)
{
    if (w->off)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "wip15: %s; timing (.wtf-trace) recording stopped\n", msg);
    __atomic_store_n(&w->off, 1, __ATOMIC_RELEASE);
}

/* --------------------------------------------------------------- strings -- */

/* Copy at most MAX_STRING bytes of s[0..len) into out (room MAX_STRING+1),
 * stopping at NUL, replacing bytes that are not valid UTF-8 by '?', never
 * cutting a sequence.  Returns the length written. */
static size_t clean_utf8(char *out, const char *s, size_t len)
{
    size_t o = 0, i = 0;
    while (i < len && s[i]) {
        unsigned char c = (unsigned char)s[i];
        size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        int ok = n != 0 && i + n <= len && !(n == 2 && c < 0xC2) && !(n == 4 && c > 0xF4);
        for (size_t k = 1; ok && k < n; k++)
            ok = ((unsigned char)s[i + k] & 0xC0) == 0x80;
        if (!ok)
            n = 1;
        if (o + n > MAX_STRING)
            break;
        if (ok)
            memcpy(out + o, s + i, n);
        else
            out[o] = '?';
        o += n;
        i += n;
    }
    out[o] = 0;
    return o;
}

typedef w15_wtf_buf_t sb_t;
#define sb_add w15_wtf_buf_add

static void sb_str(sb_t *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_fmt(sb_t *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A JSON string literal (quotes included) of s, made valid UTF-8 first. */
static void sb_json(sb_t *b, const char *s)
{
    if (!s) {
        sb_str(b, "null");
        return;
    }
    size_t len = strlen(s);
    sb_add(b, "\"", 1);
    while (len) {
        char clean[MAX_STRING + 1];
        size_t take = len < MAX_STRING ? len : MAX_STRING;
        /* do not split a sequence at the cut */
        while (take < len && take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80)
            take--;
        if (!take)
            take = len < MAX_STRING ? len : MAX_STRING;
        size_t n = clean_utf8(clean, s, take);
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)clean[i];
            if (c == '"' || c == '\\') {
                char e[2] = {'\\', (char)c};
                sb_add(b, e, 2);
            } else if (c < 0x20) {
                sb_fmt(b, "\\u%04x", c);
            } else {
                sb_add(b, clean + i, 1);
            }
        }
        s += take;
        len -= take;
    }
    sb_add(b, "\"", 1);
}

/* ---------------------------------------------------- control chunk builder */

/* Builds one event chunk in memory: events (words) and a string table. */
typedef struct cb {
    sb_t ev, str;
    uint32_t nstr;
} cb_t;

static void cb_word(cb_t *c, uint32_t v)
{
    sb_add(&c->ev, &v, 4);
}

static uint32_t cb_string(cb_t *c, const char *s)
{
    if (!s)
        return W15_WTF_STR_NULL;
    char clean[MAX_STRING + 1];
    size_t n = clean_utf8(clean, s, strlen(s));
    if (!n)
        return W15_WTF_STR_EMPTY;
    sb_add(&c->str, clean, n + 1);
    return c->nstr++;
}

static void cb_define(cb_t *c, uint32_t wire, uint32_t cls, uint32_t flags, const char *name, const char *args)
{
    cb_word(c, W15_WTF_WIRE_DEFINE);
    cb_word(c, 0);
    cb_word(c, wire);
    cb_word(c, cls);
    cb_word(c, flags);
    cb_word(c, cb_string(c, name));
    cb_word(c, cb_string(c, args));
}

static void cb_zone_create(cb_t *c, const w15_wtf_zone_t *z)
{
    cb_word(c, W15_WTF_WIRE_ZONE_CREATE);
    cb_word(c, 0);
    cb_word(c, z->id);
    cb_word(c, cb_string(c, z->name));
    cb_word(c, cb_string(c, z->type));
    cb_word(c, W15_WTF_STR_NULL);
}

/* Chunk header + part table for an event chunk of `evbytes` events and
 * `slen` string bytes, written into h[12]. */
static uint32_t chunk_header(uint32_t *h, uint32_t id, uint32_t evbytes, uint32_t slen, uint32_t t0, uint32_t t1)
{
    uint32_t spad = (slen + 3u) & ~3u;
    uint32_t len = 48u + evbytes + spad;
    h[0] = id;
    h[1] = W15_WTF_CHUNK_EVENT_DATA;
    h[2] = len;
    h[3] = t0;
    h[4] = t1;
    h[5] = 2;
    h[6] = W15_WTF_PART_BINARY_EVENTS;
    h[7] = 0;
    h[8] = evbytes;
    h[9] = W15_WTF_PART_STRING_TABLE;
    h[10] = evbytes;
    h[11] = slen;
    return len;
}

/* Serialise the builder as one chunk appended to `out`. */
static void cb_chunk(cb_t *c, uint32_t id, sb_t *out)
{
    uint32_t h[12];
    uint32_t slen = (uint32_t)c->str.n;
    chunk_header(h, id, (uint32_t)c->ev.n, slen, W15_WTF_STR_NULL, W15_WTF_STR_NULL);
    sb_add(out, h, sizeof h);
    sb_add(out, c->ev.p, c->ev.n);
    sb_add(out, c->str.p, slen);
    static const char zero[4];
    sb_add(out, zero, ((slen + 3u) & ~3u) - slen);
    if (c->ev.oom || c->str.oom)
        out->oom = 1;
}

static void cb_free(cb_t *c)
{
    free(c->ev.p);
    free(c->str.p);
    memset(c, 0, sizeof *c);
}

static const struct {
    uint32_t wire, cls, flags;
    const char *name, *args;
} builtins[] = {
    {W15_WTF_WIRE_ZONE_CREATE, 0, 40, "wtf.zone#create", "uint16 zoneId, ascii name, ascii type, ascii location"},
    {W15_WTF_WIRE_ZONE_SET, 0, 40, "wtf.zone#set", "uint16 zoneId"},
    {W15_WTF_WIRE_SCOPE_ENTER, 1, 32, "wtf.scope#enter", "ascii name"},
    {W15_WTF_WIRE_SCOPE_LEAVE, 0, 40, "wtf.scope#leave", NULL},
    {W15_WTF_WIRE_TIMESTAMP, 0, 32, "wtf.trace#timeStamp", "ascii name, any value"},
    {W15_WTF_WIRE_FRAME_START, 0, 8, "wtf.timing#frameStart", "uint32 number"},
    {W15_WTF_WIRE_FRAME_END, 0, 8, "wtf.timing#frameEnd", "uint32 number"},
    {W15_WTF_WIRE_MARK, 0, 40, "wtf.trace#mark", "ascii name, any value"},
};

#define CALL_ARGS "uint32 call"
#define CALL_FLAGS W15_WTF_FLAG_HIGH_FREQUENCY

static void cb_def(cb_t *c, uint32_t wire, const def_t *d)
{
    if (d->kind == DEF_CALL)
        cb_define(c, wire, W15_WTF_CLASS_SCOPE, CALL_FLAGS, d->name, CALL_ARGS);
    else if (d->kind == DEF_GPU_FRAME)
        cb_define(c, wire, W15_WTF_CLASS_SCOPE, 0, d->name, "uint32 frame");
    else if (d->kind == DEF_GROUP)
        cb_define(c, wire, W15_WTF_CLASS_SCOPE, 0, d->name, NULL);
    else
        cb_define(c, wire, W15_WTF_CLASS_INSTANCE, 0, d->name, NULL);
}

/* -------------------------------------------------------------- files -- */

static uint64_t gen_base(const w15_wtf_t *w, int g)
{
    return w->base0_ns + (uint64_t)g * w->period_ns;
}

static char *gen_path(const w15_wtf_t *w, int g)
{
    if (g == 0)
        return strdup(w->path);
    const char *ext = ".wtf-trace";
    size_t n = strlen(w->path), e = strlen(ext);
    size_t stem = n >= e && strcmp(w->path + n - e, ext) == 0 ? n - e : n;
    char *p = malloc(stem + e + 16);
    if (p)
        sprintf(p, "%.*s.%d%s", (int)stem, w->path, g, ext);
    return p;
}

/* Rebuild gens[g].prefix from the registry.  Lock held. */
static void gen_build_prefix(w15_wtf_t *w, int g)
{
    gen_t *G = &w->gens[g];
    sb_t hdr = {0}, out = {0};
    sb_fmt(&hdr, "{\"type\":\"file_header\",\"flags\":[\"has_high_resolution_times\"],\"timebase\":%.3f,",
           w->wall0_ms + (double)g * ((double)w->period_ns / 1e6));
    sb_str(&hdr, w->info_json);
    sb_str(&hdr, ",\"metadata\":{\"tracer\":\"wip15\",\"tracerVersion\":");
    sb_json(&hdr, w->tracer_version);
    sb_str(&hdr, ",\"wip15Trace\":");
    sb_json(&hdr, w->wip15_path);
    sb_fmt(&hdr, ",\"generation\":%d,\"clock\":", g);
    sb_json(&hdr, w15_clock_source());
    for (uint32_t i = 0; i < w->nmetas; i++) {
        sb_str(&hdr, ",");
        sb_json(&hdr, w->metas[i].key);
        sb_str(&hdr, ":");
        sb_json(&hdr, w->metas[i].value);
    }
    sb_str(&hdr, "}}");

    uint32_t fh[3] = {W15_WTF_MAGIC, W15_WTF_WRITER_VERSION, W15_WTF_FORMAT_VERSION};
    sb_add(&out, fh, sizeof fh);
    uint32_t hlen = (uint32_t)hdr.n, hpad = (hlen + 3u) & ~3u;
    uint32_t ch[9] = {0, W15_WTF_CHUNK_FILE_HEADER, 36u + hpad, W15_WTF_STR_NULL, W15_WTF_STR_NULL, 1,
                      W15_WTF_PART_FILE_HEADER, 0, hlen};
    sb_add(&out, ch, sizeof ch);
    sb_add(&out, hdr.p, hlen);
    static const char zero[4];
    sb_add(&out, zero, hpad - hlen);

    cb_t c = {0};
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        cb_define(&c, builtins[i].wire, builtins[i].cls, builtins[i].flags, builtins[i].name, builtins[i].args);
    for (uint32_t i = 0; i < w->ndefs; i++)
        cb_def(&c, W15_WTF_WIRE_FIRST_CALL + i, &w->defs[i]);
    for (w15_wtf_zone_t *z = w->zones; z; z = z->next)
        cb_zone_create(&c, z);
    cb_chunk(&c, 1, &out);
    cb_free(&c);
    if (hdr.oom || out.oom) {
        free(hdr.p);
        free(out.p);
        fail(w, "out of memory building the .wtf-trace header");
        return;
    }
    free(hdr.p);
    free(G->prefix);
    G->prefix = out.p;
    G->prefix_len = out.n;
    G->next_chunk = 2;
}

/* Write all of p[0..n) at the end of gens[g]; on a short write that cannot
 * be completed, cut the file back to where it was so no partial chunk stays.
 * Lock held.  Returns 0 on success. */
static int write_all(w15_wtf_t *w, int g, const void *p, size_t n, int quiet)
{
    int fd = w->gens[g].fd;
    struct stat st;
    off_t start = fstat(fd, &st) == 0 ? st.st_size : -1;
    size_t done = 0;
    while (done < n) {
        ssize_t r = write(fd, (const char *)p + done, n - done);
        if (r > 0) {
            done += (size_t)r;
            continue;
        }
        if (r < 0 && errno == EINTR)
            continue;
        int e = r < 0 ? errno : ENOSPC;
        if (start >= 0 && ftruncate(fd, start) != 0) {
            /* nothing more we can do */
        }
        if (!quiet)
            fail(w, "cannot write %s%s: %s", w->path, g ? " (a later generation)" : "", strerror(e));
        else
            __atomic_store_n(&w->off, 1, __ATOMIC_RELEASE);
        return -1;
    }
    return 0;
}

/* Open generation g's file if needed.  Lock held.  Returns 0 on success. */
static int gen_open(w15_wtf_t *w, int g, char *err, size_t errlen)
{
    if (g < 0 || g >= MAX_GENS) {
        fail(w, "capture longer than %d periods", MAX_GENS);
        return -1;
    }
    gen_t *G = &w->gens[g];
    if (G->fd >= 0)
        return 0;
    char *p = gen_path(w, g);
    if (!p) {
        fail(w, "out of memory");
        return -1;
    }
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        int e = errno;
        if (err)
            snprintf(err, errlen, "cannot create %s: %s", p, strerror(e));
        else
            fail(w, "cannot create %s: %s", p, strerror(e));
        free(p);
        return -1;
    }
    free(p);
    G->fd = fd;
    G->hdr_done = 0;
    gen_build_prefix(w, g);
    return G->prefix ? 0 : -1;
}

/* Refresh the prefixes of generations whose header is not written yet, after
 * the registry changed.  Lock held. */
static void refresh_prefixes(w15_wtf_t *w)
{
    for (int g = 0; g < MAX_GENS; g++)
        if (w->gens[g].fd >= 0 && !w->gens[g].hdr_done)
            gen_build_prefix(w, g);
}

/* Make sure gens[g] starts with its prefix.  Lock held. */
static int gen_start(w15_wtf_t *w, int g, int quiet)
{
    gen_t *G = &w->gens[g];
    if (G->hdr_done)
        return 0;
    if (!G->prefix || write_all(w, g, G->prefix, G->prefix_len, quiet) != 0)
        return -1;
    G->hdr_done = 1;
    return 0;
}

/* Append one control chunk (built by c) to every generation whose prefix is
 * already on disk; the others get it through their refreshed prefix.  Lock
 * held. */
static void broadcast(w15_wtf_t *w, cb_t *c)
{
    for (int g = 0; g < MAX_GENS && !w->off; g++) {
        gen_t *G = &w->gens[g];
        if (G->fd < 0 || !G->hdr_done)
            continue;
        sb_t out = {0};
        cb_chunk(c, G->next_chunk++, &out);
        if (out.oom)
            fail(w, "out of memory");
        else
            write_all(w, g, out.p, out.n, 0);
        free(out.p);
    }
    refresh_prefixes(w);
}

/* ------------------------------------------------------------ open/close -- */

w15_wtf_t *w15_wtf_open(const char *path, const w15_wtf_info_t *info, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    if (!path) {
        if (err)
            snprintf(err, errlen, "no path");
        return NULL;
    }
    w15_clock_init();
    w15_wtf_t *w = calloc(1, sizeof *w);
    if (!w) {
        if (err)
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int g = 0; g < MAX_GENS; g++)
        w->gens[g].fd = -1;
    w->path = strdup(path);
    w->keymap = calloc(MAX_KEYS, sizeof *w->keymap);
    w->ebuf_cap = (size_t)(ZONE_EVENT_WORDS + RESERVE_WORDS) * 4u + ZONE_STRING_BYTES + 8u;
    w->ebuf = malloc(w->ebuf_cap);
    w->period_ns = DEFAULT_PERIOD_NS;
    /* the clock's origin (now, or just before): no scale is needed yet */
    w->base0_ns = w15_clock_origin_ns() - 1000u; /* every event time is then >= 1 us */
    w->wall0_ms = w15_clock_wall_ms(w->base0_ns);

    sb_t ci = {0};
    const char *prog = info && info->program ? info->program : "";
    const char *slash = strrchr(prog, '/');
    sb_str(&ci, "\"contextInfo\":{\"contextType\":\"script\",\"uri\":");
    sb_json(&ci, prog);
    sb_str(&ci, ",\"title\":");
    sb_json(&ci, slash ? slash + 1 : prog);
    sb_str(&ci, ",\"args\":[");
    if (info && info->argv)
        for (size_t i = 0; info->argv[i]; i++) {
            if (i)
                sb_str(&ci, ",");
            sb_json(&ci, info->argv[i]);
        }
    sb_str(&ci, "],\"taskId\":");
    sb_fmt(&ci, "\"%ld\"", (long)getpid());
    sb_str(&ci, "}");
    w->info_json = ci.p;
    w->tracer_version = strdup(info && info->tracer_version ? info->tracer_version : "");
    w->wip15_path = strdup(info && info->wip15_path ? info->wip15_path : "");
    if (!w->path || !w->keymap || !w->ebuf || ci.oom || !w->info_json || !w->tracer_version || !w->wip15_path) {
        if (err)
            snprintf(err, errlen, "out of memory");
        goto fail;
    }
    if (gen_open(w, 0, err, errlen) != 0) {
        if (err && !err[0])
            snprintf(err, errlen, "cannot create %s", path);
        goto fail;
    }
    return w;
fail:
    free(w->path);
    free(w->keymap);
    free(w->ebuf);
    free(w->info_json);
    free(w->tracer_version);
    free(w->wip15_path);
    free(w->gens[0].prefix);
    free(w);
    return NULL;
}

void w15_wtf_set_period(w15_wtf_t *w, uint64_t period_ns)
{
    if (!w || period_ns < 2000u)
        return;
    lock(w);
    w->period_ns = period_ns;
    refresh_prefixes(w);
    unlock(w);
}

void w15_wtf_set_meta(w15_wtf_t *w, const char *key, const char *value)
{
    if (!w || !key || !value)
        return;
    lock(w);
    if (w->off) {
        unlock(w);
        return;
    }
    /* A pair already set is not set again (every new context of a program
     * that makes hundreds reports the same renderer): the header holds it,
     * and rebuilding the header at each one made the cost quadratic. */
    for (uint32_t i = 0; i < w->nmetas; i++)
        if (!strcmp(w->metas[i].key, key) && !strcmp(w->metas[i].value, value)) {
            unlock(w);
            return;
        }
    meta_t *m = realloc(w->metas, (w->nmetas + 1) * sizeof *m);
    if (!m) {
        unlock(w);
        return;
    }
    w->metas = m;
    m[w->nmetas].key = strdup(key);
    m[w->nmetas].value = strdup(value);
    if (!m[w->nmetas].key || !m[w->nmetas].value) {
        free(m[w->nmetas].key);
        free(m[w->nmetas].value);
        unlock(w);
        return;
    }
    w->nmetas++;
    /* Files whose header is already out get a wtf.trace#mark in the first
     * zone (the oldest one); the others get it in their header. */
    w15_wtf_zone_t *first = w->zones;
    while (first && first->next)
        first = first->next;
    if (first) {
        uint64_t now = w15_clock_now();
        for (int g = 0; g < MAX_GENS && !w->off; g++) {
            gen_t *G = &w->gens[g];
            if (G->fd < 0 || !G->hdr_done)
                continue;
            uint64_t b = gen_base(w, g);
            uint64_t d = now > b ? (now - b) / 1000u : 1u;
            uint32_t us = d < 1 ? 1 : d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
            cb_t c = {0};
            sb_t v = {0};
            sb_json(&v, value);
            cb_word(&c, W15_WTF_WIRE_ZONE_SET);
            cb_word(&c, us);
            cb_word(&c, first->id);
            cb_word(&c, W15_WTF_WIRE_MARK);
            cb_word(&c, us);
            cb_word(&c, cb_string(&c, key));
            cb_word(&c, v.p ? cb_string(&c, v.p) : W15_WTF_STR_NULL);
            sb_t out = {0};
            cb_chunk(&c, G->next_chunk++, &out);
            if (!out.oom)
                write_all(w, g, out.p, out.n, 0);
            free(out.p);
            free(v.p);
            cb_free(&c);
        }
    }
    refresh_prefixes(w);
    unlock(w);
}

w15_wtf_zone_t *w15_wtf_zone_create(w15_wtf_t *w, const char *name, const char *type)
{
    if (!w || __atomic_load_n(&w->off, __ATOMIC_ACQUIRE))
        return NULL;
    w15_wtf_zone_t *z = calloc(1, sizeof *z);
    if (!z)
        return NULL;
    z->cap = RESERVE_WORDS + ZONE_EVENT_WORDS;
    z->scap = ZONE_STRING_BYTES;
    z->buf = malloc((size_t)z->cap * 4u + z->scap + 4u);
    z->sbuf = malloc(z->scap);
    z->name = strdup(name ? name : "");
    z->type = strdup(type ? type : "script");
    if (!z->buf || !z->sbuf || !z->name || !z->type) {
        free(z->buf);
        free(z->sbuf);
        free(z->name);
        free(z->type);
        free(z);
        return NULL;
    }
    z->end = z->flushed = RESERVE_WORDS;
    z->gen = -1;
    z->lim_ns = 0; /* first event takes the slow path and picks the generation */
    z->w = w;
    lock(w);
    if (w->off || w->nzones == UINT16_MAX) {
        unlock(w);
        free(z->buf);
        free(z->sbuf);
        free(z->name);
        free(z->type);
        free(z);
        return NULL;
    }
    z->id = ++w->nzones;
    z->next = w->zones;
    __atomic_store_n(&w->zones, z, __ATOMIC_RELEASE);
    cb_t c = {0};
    cb_zone_create(&c, z);
    broadcast(w, &c);
    cb_free(&c);
    unlock(w);
    return z;
}

/* Define a new event of `kind` named `name` (copied) and tell every file.
 * Lock held.  Returns its wire id, 0 when out of ids or memory. */
static uint16_t add_def(w15_wtf_t *w, const char *name, uint32_t kind)
{
    if (W15_WTF_WIRE_FIRST_CALL + w->ndefs > UINT16_MAX)
        return 0;
    if (w->ndefs == w->defs_cap) {
        uint32_t nc = w->defs_cap ? w->defs_cap * 2 : 256;
        def_t *p = realloc(w->defs, nc * sizeof *p);
        if (!p)
            return 0;
        w->defs = p;
        w->defs_cap = nc;
    }
    char *nm = strdup(name);
    if (!nm)
        return 0;
    w->defs[w->ndefs].name = nm;
    w->defs[w->ndefs].kind = kind;
    uint16_t id = (uint16_t)(W15_WTF_WIRE_FIRST_CALL + w->ndefs);
    w->ndefs++;
    cb_t c = {0};
    cb_def(&c, id, &w->defs[w->ndefs - 1]);
    broadcast(w, &c);
    cb_free(&c);
    return id;
}

static uint32_t name_hash(const char *s, size_t n, uint32_t kind)
{
    uint32_t h = 2166136261u ^ kind;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The wire id of the group (kind DEF_GROUP) or marker (DEF_MARKER) event
 * named clean[0..n) (already clean UTF-8), defining it on first use; 0 when
 * the set is full (the caller then uses the generic built-in). */
static uint16_t named_event(w15_wtf_zone_t *z, const char *clean, size_t n, uint32_t kind)
{
    uint32_t h = name_hash(clean, n, kind);
    named_t *ce = &z->cache[h % ZONE_CACHE];
    if (ce->wire && ce->hash == h && ce->kind == kind && strncmp(ce->name, clean, n) == 0 && !ce->name[n])
        return ce->wire;
    w15_wtf_t *w = z->w;
    if (UNLIKELY(w->sig_mode)) {
        /* a crash handler: only names defined already (read-only walk) */
        if (!w->named)
            return 0;
        uint32_t m = w->named_cap - 1;
        for (uint32_t i = h & m; w->named[i].wire; i = (i + 1) & m) {
            const named_t *e = &w->named[i];
            if (e->hash == h && e->kind == kind && strncmp(e->name, clean, n) == 0 && !e->name[n])
                return e->wire;
        }
        return 0;
    }
    lock(w);
    if (!w->named) {
        w->named = calloc(2 * NAMED_MAX, sizeof *w->named);
        w->named_cap = w->named ? 2 * NAMED_MAX : 0;
    }
    uint16_t id = 0;
    if (w->named && !w->off) {
        uint32_t m = w->named_cap - 1, i = h & m;
        while (w->named[i].wire) {
            named_t *e = &w->named[i];
            if (e->hash == h && e->kind == kind && strncmp(e->name, clean, n) == 0 && !e->name[n]) {
                id = e->wire;
                break;
            }
            i = (i + 1) & m;
        }
        if (!id && w->named_n < NAMED_MAX) {
            char tmp[MAX_STRING + 1];
            memcpy(tmp, clean, n);
            tmp[n] = 0;
            id = add_def(w, tmp, kind);
            if (id) {
                named_t *e = &w->named[i];
                e->hash = h;
                e->kind = (uint16_t)kind;
                e->name = w->defs[id - W15_WTF_WIRE_FIRST_CALL].name;
                e->wire = id;
                w->named_n++;
            }
        }
        if (id) {
            ce->hash = h;
            ce->kind = (uint16_t)kind;
            ce->name = w->defs[id - W15_WTF_WIRE_FIRST_CALL].name;
            ce->wire = id;
        }
    }
    unlock(w);
    return id;
}

uint16_t w15_wtf_gpu_frame_event(w15_wtf_t *w)
{
    if (!w)
        return 0;
    uint16_t id = __atomic_load_n(&w->gpu_wire, __ATOMIC_ACQUIRE);
    if (LIKELY(id) || w->sig_mode)
        return id;
    lock(w);
    if (!w->gpu_wire && !w->off)
        __atomic_store_n(&w->gpu_wire, add_def(w, W15_WTF_GPU_FRAME_EVENT, DEF_GPU_FRAME), __ATOMIC_RELEASE);
    id = w->gpu_wire;
    unlock(w);
    return id;
}

uint16_t w15_wtf_call_event(w15_wtf_t *w, uint32_t key, const char *name)
{
    if (!w || key >= MAX_KEYS)
        return 0;
    uint16_t id = __atomic_load_n(&w->keymap[key], __ATOMIC_ACQUIRE);
    if (LIKELY(id) || w->sig_mode)
        return id;
    lock(w);
    id = w->keymap[key];
    if (id || w->off) {
        unlock(w);
        return id;
    }
    id = add_def(w, name ? name : "?", DEF_CALL);
    if (!id) {
        unlock(w);
        return 0;
    }
    __atomic_store_n(&w->keymap[key], id, __ATOMIC_RELEASE);
    unlock(w);
    return id;
}

/* -------------------------------------------------------------- flushing -- */

/* Write the zone's events [f, e) as one chunk, building it in place.  Owner
 * holds z->busy.  Takes the file lock. */
static void zone_write(w15_wtf_zone_t *z, uint32_t f, uint32_t e)
{
    w15_wtf_t *w = z->w;
    uint32_t *h = z->buf + f - RESERVE_WORDS;
    uint32_t evbytes = (e - f + 3u) * 4u;
    char *s = (char *)(z->buf + e);
    memcpy(s, z->sbuf, z->slen);
    memset(s + z->slen, 0, ((z->slen + 3u) & ~3u) - z->slen);
    uint32_t t0 = z->buf[f + 1];
    h[12] = W15_WTF_WIRE_ZONE_SET;
    h[13] = t0;
    h[14] = z->id;
    lock(w);
    if (!w->off && z->gen >= 0 && gen_start(w, z->gen, 0) == 0) {
        uint32_t len = chunk_header(h, w->gens[z->gen].next_chunk++, evbytes, z->slen, t0, z->last_us);
        write_all(w, z->gen, h, len, 0);
    }
    unlock(w);
}

static void zone_reset(w15_wtf_zone_t *z)
{
    z->flushed = RESERVE_WORDS;
    z->slen = 0;
    z->nstr = 0;
    __atomic_store_n(&z->end, RESERVE_WORDS, __ATOMIC_RELEASE);
}

static int zone_write_signal(w15_wtf_t *w, w15_wtf_zone_t *z);

void w15_wtf_zone_flush(w15_wtf_zone_t *z)
{
    if (!z)
        return;
    int saved = errno;
    if (UNLIKELY(z->w->sig_mode)) {
        /* a crash handler feeding zones: write with the signal path, then
         * make room whether or not that worked */
        if (!__atomic_exchange_n(&z->busy, 1, __ATOMIC_ACQUIRE)) {
            zone_write_signal(z->w, z);
            if (z->buf)
                zone_reset(z);
            zone_idle(z);
        }
        errno = saved;
        return;
    }
    zone_busy(z);
    uint32_t e = z->end, f = z->flushed;
    if (e > f && !__atomic_load_n(&z->w->off, __ATOMIC_ACQUIRE))
        zone_write(z, f, e);
    zone_reset(z);
    zone_idle(z);
    errno = saved;
}

void w15_wtf_zone_retire(w15_wtf_zone_t *z)
{
    if (!z)
        return;
    w15_wtf_zone_flush(z);
    zone_busy(z);
    uint32_t *buf = z->buf;
    char *sbuf = z->sbuf;
    z->cap = 0;  /* every later event finds no room and is dropped */
    z->scap = 0;
    z->buf = NULL;
    z->sbuf = NULL;
    zone_idle(z);
    free(buf);
    free(sbuf);
}

/* Write z's complete unwritten events with write(2) only (signal path);
 * caller holds z->busy.  0 when written or nothing to write. */
static int zone_write_signal(w15_wtf_t *w, w15_wtf_zone_t *z)
{
    uint32_t e = __atomic_load_n(&z->end, __ATOMIC_ACQUIRE);
    uint32_t f = z->flushed;
    uint32_t slen = z->slen; /* read after end: covers every string of [f, e) */
    int g = z->gen;
    if (!z->buf || e <= f)
        return 0;
    if (g < 0 || w->gens[g].fd < 0 || slen > z->scap)
        return -1;
    uint32_t evbytes = (e - f + 3u) * 4u;
    size_t total = 48u + evbytes + ((slen + 3u) & ~3u);
    if (total > w->ebuf_cap || !trylock_bounded(w))
        return -1;
    int r = -1;
    uint32_t *h = (uint32_t *)(void *)w->ebuf;
    uint32_t t0 = z->buf[f + 1];
    h[12] = W15_WTF_WIRE_ZONE_SET;
    h[13] = t0;
    h[14] = z->id;
    memcpy(h + RESERVE_WORDS, z->buf + f, (size_t)(e - f) * 4u);
    char *s = w->ebuf + 48u + evbytes;
    memcpy(s, z->sbuf, slen);
    memset(s + slen, 0, ((slen + 3u) & ~3u) - slen);
    if (gen_start(w, g, 1) == 0) {
        uint32_t len = chunk_header(h, w->gens[g].next_chunk++, evbytes, slen, t0, z->last_us);
        if (write_all(w, g, h, len, 1) == 0) {
            z->flushed = e;
            r = 0;
        }
    }
    unlock(w);
    return r;
}

void w15_wtf_flush_all_signal(w15_wtf_t *w)
{
    if (!w)
        return;
    int saved = errno;
    if (__atomic_exchange_n(&w->sig_busy, 1, __ATOMIC_ACQUIRE)) {
        errno = saved;
        return;
    }
    for (w15_wtf_zone_t *z = __atomic_load_n(&w->zones, __ATOMIC_ACQUIRE); z; z = z->next) {
        if (__atomic_load_n(&w->off, __ATOMIC_ACQUIRE))
            break;
        if (__atomic_exchange_n(&z->busy, 1, __ATOMIC_ACQUIRE))
            continue; /* its owner is in the middle of a flush */
        zone_write_signal(w, z);
        zone_idle(z);
    }
    /* a file whose zones had nothing to write (a program killed before its
     * first frame) still gets its header, as w15_wtf_close gives it: an
     * empty file is not a .wtf-trace */
    if (!__atomic_load_n(&w->off, __ATOMIC_ACQUIRE) && trylock_bounded(w)) {
        for (int g = 0; g < MAX_GENS; g++)
            if (w->gens[g].fd >= 0 && !w->gens[g].hdr_done)
                gen_start(w, g, 1);
        unlock(w);
    }
    __atomic_store_n(&w->sig_busy, 0, __ATOMIC_RELEASE);
    errno = saved;
}

void w15_wtf_signal_mode(w15_wtf_t *w)
{
    if (w)
        __atomic_store_n(&w->sig_mode, 1, __ATOMIC_RELEASE);
}

void w15_wtf_close(w15_wtf_t *w)
{
    if (!w)
        return;
    for (w15_wtf_zone_t *z = w->zones; z; z = z->next)
        w15_wtf_zone_flush(z);
    lock(w);
    for (int g = 0; g < MAX_GENS; g++) {
        gen_t *G = &w->gens[g];
        if (G->fd < 0)
            continue;
        if (!w->off)
            gen_start(w, g, 0);
        close(G->fd);
        free(G->prefix);
    }
    unlock(w);
    for (w15_wtf_zone_t *z = w->zones, *n; z; z = n) {
        n = z->next;
        free(z->buf);
        free(z->sbuf);
        free(z->name);
        free(z->type);
        free(z);
    }
    for (uint32_t i = 0; i < w->ndefs; i++)
        free(w->defs[i].name);
    free(w->named);
    for (uint32_t i = 0; i < w->nmetas; i++) {
        free(w->metas[i].key);
        free(w->metas[i].value);
    }
    free(w->metas);
    free(w->defs);
    free(w->keymap);
    free(w->ebuf);
    free(w->info_json);
    free(w->tracer_version);
    free(w->wip15_path);
    free(w->path);
    free(w);
}

/* ------------------------------------------------------------ appending -- */

/* Kinds of event, for choosing where a zone may move to the next file. */
enum { EV_PLAIN, EV_FRAME_START, EV_NO_SPLIT };

/* Slow path of event timing: first event, times less than 1 us after the
 * timebase, and moving to the next generation.  Returns the event's time in
 * us (>= 1), or 0 when the event must be dropped. */
static __attribute__((noinline)) uint32_t time_slow(w15_wtf_zone_t *z, uint64_t t, int kind)
{
    w15_wtf_t *w = z->w;
    if (__atomic_load_n(&w->off, __ATOMIC_ACQUIRE))
        return 0; /* stopped after an error: drop without touching the lock */
    int clean = kind == EV_FRAME_START || (kind == EV_PLAIN && !z->has_frames && z->depth == 0);
    int move = 0;
    if (z->gen < 0)
        move = 1;
    else if (t >= z->base_ns && (t - z->base_ns >= z->hard_ns || (clean && t - z->base_ns >= z->soft_ns)))
        move = 1;
    if (move) {
        int g = t < w->base0_ns + 1000u ? 0 : (int)((t - w->base0_ns - 1000u) / w->period_ns);
        if (z->gen >= 0) {
            w15_wtf_zone_flush(z);
            if (g <= z->gen)
                g = z->gen + 1;
        }
        int ok;
        if (UNLIKELY(w->sig_mode)) {
            /* a crash handler opens no file: only generations already open */
            ok = g >= 0 && g < MAX_GENS && w->gens[g].fd >= 0 && (w->gens[g].hdr_done || w->gens[g].prefix);
        } else {
            lock(w);
            ok = !w->off && gen_open(w, g, NULL, 0) == 0;
            unlock(w);
        }
        if (!ok) {
            z->gen = -1;
            z->lim_ns = 0;
            return 0;
        }
        z->gen = g;
        z->base_ns = gen_base(w, g);
        z->soft_ns = w->period_ns + 1000u;
        uint64_t hard = 2 * w->period_ns;
        z->hard_ns = hard < HARD_LIMIT_NS ? hard : HARD_LIMIT_NS;
        if (z->soft_ns > z->hard_ns)
            z->soft_ns = z->hard_ns;
        z->lim_ns = z->soft_ns - 1000u;
    }
    if (t <= z->base_ns + 1000u)
        return 1;
    uint64_t d = (t - z->base_ns) / 1000u;
    return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/* The event's time in us since the zone's timebase (>= 1), or 0 to drop
 * it.  One subtraction and one compare catch every unusual case. */
static inline uint32_t ev_time(w15_wtf_zone_t *z, uint64_t t, int kind)
{
    uint64_t d = t - z->base_ns;
    if (UNLIKELY(d - 1000u >= z->lim_ns))
        return time_slow(z, t, kind);
    return (uint32_t)(d / 1000u);
}

/* Room for n words; flushes when full.  NULL only if a flush cannot help. */
static inline uint32_t *ev_room(w15_wtf_zone_t *z, uint32_t n)
{
    if (UNLIKELY(z->end + n > z->cap)) {
        w15_wtf_zone_flush(z);
        if (z->end + n > z->cap)
            return NULL;
    }
    return z->buf + z->end;
}

static inline void ev_commit(w15_wtf_zone_t *z, uint32_t n, uint32_t us)
{
    z->last_us = us;
    __atomic_store_n(&z->end, z->end + n, __ATOMIC_RELEASE);
}

/* Room for n words plus the string s[0..len) in the zone's table; flushes
 * first when either is full, so the ordinal stays valid for this event.
 * Returns NULL when neither fits even after a flush. */
static uint32_t *ev_room_str(w15_wtf_zone_t *z, uint32_t n, const char *s, size_t len, uint32_t *ord)
{
    char clean[MAX_STRING + 1];
    size_t sn = clean_utf8(clean, s ? s : "", s ? len : 0);
    if (z->end + n > z->cap || (sn && z->slen + sn + 1 > z->scap)) {
        w15_wtf_zone_flush(z);
        if (z->end + n > z->cap || (sn && z->slen + sn + 1 > z->scap))
            return NULL;
    }
    if (!sn) {
        *ord = W15_WTF_STR_EMPTY;
    } else {
        memcpy(z->sbuf + z->slen, clean, sn + 1);
        z->slen += (uint32_t)sn + 1;
        *ord = z->nstr++;
    }
    return z->buf + z->end;
}

void w15_wtf_scope_enter(w15_wtf_zone_t *z, uint16_t wire, uint64_t t_ns, uint32_t call)
{
    uint32_t us;
    if (UNLIKELY(!z || !wire) || !(us = ev_time(z, t_ns, EV_PLAIN)))
        return;
    uint32_t *p = ev_room(z, 3);
    if (UNLIKELY(!p))
        return;
    p[0] = wire;
    p[1] = us;
    p[2] = call;
    z->depth++;
    ev_commit(z, 3, us);
}

void w15_wtf_scope_call(w15_wtf_zone_t *z, uint16_t wire, uint64_t t0_ns, uint64_t t1_ns, uint32_t call)
{
    if (UNLIKELY(!z || !wire))
        return;
    uint64_t d0 = t0_ns - z->base_ns, d1 = t1_ns - z->base_ns;
    if (UNLIKELY(d0 - 1000u >= z->lim_ns || d1 - 1000u >= z->lim_ns)) {
        /* anything unusual (first event, rotation, ...): one at a time */
        w15_wtf_scope_enter(z, wire, t0_ns, call);
        w15_wtf_scope_leave(z, t1_ns);
        return;
    }
    uint32_t *p = ev_room(z, 5); /* a flush keeps the generation */
    if (UNLIKELY(!p))
        return;
    uint32_t us1 = (uint32_t)(d1 / 1000u);
    p[0] = wire;
    p[1] = (uint32_t)(d0 / 1000u);
    p[2] = call;
    p[3] = W15_WTF_WIRE_SCOPE_LEAVE;
    p[4] = us1;
    ev_commit(z, 5, us1);
}

/* A debug group's scope enter (group) or a marker's time stamp: the event
 * defined for the name, or, past NAMED_MAX names, the generic event
 * (wtf.scope#enter / wtf.trace#timeStamp) with the name in the string
 * table. */
static void named_put(w15_wtf_zone_t *z, const char *name, size_t len, uint64_t t_ns, int group)
{
    uint32_t us;
    if (!z || !(us = ev_time(z, t_ns, EV_PLAIN)))
        return;
    char clean[MAX_STRING + 1];
    size_t n = clean_utf8(clean, name ? name : "", name ? len : 0);
    if (!n)
        n = strlen(strcpy(clean, group ? "unnamed.scope" : "unnamed.instance"));
    uint16_t wire = named_event(z, clean, n, group ? DEF_GROUP : DEF_MARKER);
    uint32_t *p, words;
    if (wire) {
        words = 2;
        if (!(p = ev_room(z, words)))
            return;
        p[0] = wire;
    } else {
        uint32_t ord; /* too many distinct names: the generic event */
        words = group ? 3 : 4;
        if (!(p = ev_room_str(z, words, clean, n, &ord)))
            return;
        p[0] = group ? W15_WTF_WIRE_SCOPE_ENTER : W15_WTF_WIRE_TIMESTAMP;
        p[2] = ord;
        if (!group)
            p[3] = W15_WTF_STR_NULL; /* the time stamp's value */
    }
    p[1] = us;
    if (group)
        z->depth++;
    ev_commit(z, words, us);
}

void w15_wtf_scope_enter_named(w15_wtf_zone_t *z, const char *name, size_t len, uint64_t t_ns)
{
    named_put(z, name, len, t_ns, 1);
}

void w15_wtf_scope_leave(w15_wtf_zone_t *z, uint64_t t_ns)
{
    uint32_t us;
    if (UNLIKELY(!z) || !(us = ev_time(z, t_ns, EV_NO_SPLIT)))
        return;
    uint32_t *p = ev_room(z, 2);
    if (UNLIKELY(!p))
        return;
    p[0] = W15_WTF_WIRE_SCOPE_LEAVE;
    p[1] = us;
    if (z->depth > 0)
        z->depth--;
    ev_commit(z, 2, us);
}

void w15_wtf_timestamp(w15_wtf_zone_t *z, const char *name, size_t len, uint64_t t_ns)
{
    named_put(z, name, len, t_ns, 0);
}

static void frame_event(w15_wtf_zone_t *z, uint32_t wire, uint32_t number, uint64_t t_ns, int kind)
{
    uint32_t us;
    if (!z)
        return;
    z->has_frames = 1;
    if (!(us = ev_time(z, t_ns, kind)))
        return;
    uint32_t *p = ev_room(z, 3);
    if (!p)
        return;
    p[0] = wire;
    p[1] = us;
    p[2] = number;
    ev_commit(z, 3, us);
}

void w15_wtf_frame_start(w15_wtf_zone_t *z, uint32_t number, uint64_t t_ns)
{
    frame_event(z, W15_WTF_WIRE_FRAME_START, number, t_ns, EV_FRAME_START);
}

void w15_wtf_frame_end(w15_wtf_zone_t *z, uint32_t number, uint64_t t_ns)
{
    frame_event(z, W15_WTF_WIRE_FRAME_END, number, t_ns, EV_NO_SPLIT);
}
