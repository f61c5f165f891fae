/* test_wtf_reader.c -- the .wtf-trace reader's framing checks and the
 * .wtf-json reader's tolerance, on files the emitter writes and on damaged
 * copies of them.  Runs under ASan+UBSan (LABELS asan).
 *
 *   test_wtf_reader DIR     (scratch directory)
 */
#define _GNU_SOURCE
#include "check.h"
#include "clock.h"
#include "wtf_analysis.h"
#include "wtf_emitter.h"
#include "wtf_json.h"
#include "wtf_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t count_named(const w15_wtf_file_t *f, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < f->nevents; i++)
        n += strcmp(f->events[i].def->name, name) == 0;
    return n;
}

static uint8_t *slurp(const char *p, size_t *n)
{
    FILE *fp = fopen(p, "rb");
    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc(sz > 0 ? (size_t)sz : 1);
    *n = b ? fread(b, 1, (size_t)sz, fp) : 0;
    fclose(fp);
    return b;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Write a small trace: 2 zones, 6 frames each with 4 calls and a group. */
static int make_trace(const char *path)
{
    char err[256];
    unlink(path);
    w15_wtf_info_t info = {"/bin/test", NULL, "test", "x.wip15"};
    w15_wtf_t *w = w15_wtf_open(path, &info, err, sizeof err);
    if (!w) {
        fprintf(stderr, "open: %s\n", err);
        return -1;
    }
    uint16_t draw = w15_wtf_call_event(w, 1, "glDrawArrays"), swap = w15_wtf_call_event(w, 2, "glXSwapBuffers");
    for (int zi = 0; zi < 2; zi++) {
        w15_wtf_zone_t *z = w15_wtf_zone_create(w, zi ? "2:b" : "1:a", "script");
        uint64_t t = w15_clock_now();
        uint32_t seq = 0;
        for (uint32_t f = 1; f <= 6; f++) {
            w15_wtf_frame_start(z, f, t += 1000);
            w15_wtf_scope_enter_named(z, "pass", 4, t += 1000);
            for (int c = 0; c < 3; c++) {
                w15_wtf_scope_enter(z, draw, t += 1000, seq++);
                w15_wtf_scope_leave(z, t += 1000);
            }
            w15_wtf_scope_leave(z, t += 1000);
            w15_wtf_timestamp(z, "mark", 4, t += 1000);
            w15_wtf_scope_enter(z, swap, t += 1000, seq++);
            w15_wtf_scope_leave(z, t += 1000);
            w15_wtf_frame_end(z, f, t += 1000);
            if (f % 2 == 0)
                w15_wtf_zone_flush(z);
        }
    }
    w15_wtf_close(w);
    return 0;
}

static void test_good(const char *path)
{
    char err[512];
    w15_wtf_file_t *f;
    w15_wtf_err_t e = w15_wtf_read(path, 0, &f, err, sizeof err);
    CHECKF(e == W15_WTF_E_OK, "read good file: %s", err);
    if (e != W15_WTF_E_OK)
        return;
    CHECKF(f->nzones == 2, "zones %u", f->nzones);
    CHECKF(count_named(f, "glDrawArrays") == 36, "draws %zu", count_named(f, "glDrawArrays"));
    CHECKF(count_named(f, "pass") == 12, "groups %zu", count_named(f, "pass"));
    CHECKF(count_named(f, "mark") == 12, "markers %zu", count_named(f, "mark"));
    CHECKF(count_named(f, W15_WTF_EV_SCOPE_LEAVE) == 60, "leaves %zu", count_named(f, W15_WTF_EV_SCOPE_LEAVE));
    CHECKF(f->timebase > 1.6e12, "timebase %f", f->timebase);
    w15_timeline_t tl;
    w15_frame_stats_t st;
    CHECKF(w15_timeline_build(f, &tl) == 0, "timeline");
    CHECKF(tl.nframes == 12, "frames %zu", tl.nframes);
    CHECKF(w15_frame_stats(&tl, 0, &st) == 0, "stats");
    CHECKF(st.n == 6, "frames of the first zone %zu", st.n);
    for (size_t i = 0; i < st.n; i++)
        CHECKF(st.frames[i]->ncalls == 4, "calls in frame %zu: %u", i, st.frames[i]->ncalls);
    /* frame = 12 steps of 1 us */
    CHECKF(st.median_ms > 0.0115 && st.median_ms < 0.0125, "median %f", st.median_ms);
    w15_frame_stats_free(&st);
    w15_timeline_free(&tl);
    w15_wtf_file_free(f);
}

/* Every proper prefix is an error naming a byte; prefixes that end on a
 * chunk boundary read leniently. */
static void test_truncation(const uint8_t *b, size_t n)
{
    size_t step = n > 3000 ? n / 1500 : 1;
    char err[512];
    for (size_t cut = 0; cut < n; cut += step) {
        int boundary = 0;
        for (size_t off = 12; off + 24 <= n && off <= cut; off += get32(b + off + 8))
            boundary |= off == cut && cut > 12;
        if (boundary)
            continue; /* a complete file */
        w15_wtf_file_t *f = NULL;
        w15_wtf_err_t e = w15_wtf_read_mem(b, cut, "cut", 0, &f, err, sizeof err);
        CHECKF(e != W15_WTF_E_OK, "prefix of %zu bytes accepted", cut);
        CHECKF(strstr(err, "cut: byte ") != NULL, "message without byte offset: %s", err);
        w15_wtf_file_free(f);
    }
    /* chunk boundaries */
    size_t off = 12, nchunks = 0;
    while (off + 24 <= n) {
        off += get32(b + off + 8);
        nchunks++;
        w15_wtf_file_t *f = NULL;
        w15_wtf_err_t e = w15_wtf_read_mem(b, off, "cut", 0, &f, err, sizeof err);
        CHECKF(e == W15_WTF_E_OK, "prefix at chunk boundary %zu rejected: %s", off, err);
        w15_wtf_file_free(f);
        if (off < n) {
            e = w15_wtf_read_mem(b, off + 7 < n ? off + 7 : n - 1, "cut", W15_WTF_READ_LENIENT, &f, err, sizeof err);
            CHECKF(e == W15_WTF_E_OK && strstr(err, "byte"), "lenient read of a cut last chunk: %d %s", e, err);
            w15_wtf_file_free(f);
        }
    }
    CHECKF(off == n && nchunks >= 4, "chunk walk ended at %zu of %zu after %zu chunks", off, n, nchunks);
}

static void expect_error(const uint8_t *b, size_t n, const char *what, const char *needle)
{
    char err[512];
    w15_wtf_file_t *f = NULL;
    w15_wtf_err_t e = w15_wtf_read_mem(b, n, "bad", 0, &f, err, sizeof err);
    CHECKF(e != W15_WTF_E_OK, "%s accepted", what);
    CHECKF(strstr(err, needle) != NULL, "%s: message \"%s\" lacks \"%s\"", what, err, needle);
    w15_wtf_file_free(f);
}

static void test_damage(const uint8_t *orig, size_t n)
{
    uint8_t *b = malloc(n + 64);
    memcpy(b, orig, n);
    b[0] ^= 1;
    expect_error(b, n, "bad magic", "byte 0: expected magic 0xDEADBEEF");
    memcpy(b, orig, n);
    put32(b + 8, 9);
    expect_error(b, n, "version 9", "byte 8: expected format version 10, found 9");
    memcpy(b, orig, n);
    put32(b + 12 + 8, get32(b + 12 + 8) + 2);
    expect_error(b, n, "chunk length", "byte 20: expected a chunk length that is a multiple of 4");
    memcpy(b, orig, n);
    memcpy(b + n, "\0\0\0\0\0\0\0\0", 8);
    expect_error(b, n + 8, "bytes after the last chunk", "expected a 24-byte chunk header, found 8 bytes after the last chunk");
    /* the second chunk is the definitions chunk: point its first event at
     * an undefined wire id */
    memcpy(b, orig, n);
    size_t c2 = 12 + get32(b + 12 + 8);
    uint32_t nparts = get32(b + c2 + 20);
    size_t ev = c2 + 24 + 12 * nparts + get32(b + c2 + 24 + 4);
    put32(b + ev, 4000);
    expect_error(b, n, "undefined wire id", "expected a defined wire id, found 4000");
    memcpy(b, orig, n);
    put32(b + c2 + 24 + 4, 2); /* misaligned part offset */
    expect_error(b, n, "misaligned part", "multiple of 4");
    memcpy(b, orig, n);
    put32(b + c2 + 24 + 8, 0x7ffffff0); /* part beyond the chunk */
    expect_error(b, n, "part too long", "ends beyond its chunk");
    memcpy(b, orig, n);
    put32(b + c2 + 4, 7);
    expect_error(b, n, "chunk type", "expected chunk type 1 or 2, found 7");
    /* random damage: never a crash */
    uint32_t seed = 12345;
    for (int k = 0; k < 3000; k++) {
        memcpy(b, orig, n);
        for (int m = 0; m < 1 + k % 4; m++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            b[at] = (uint8_t)(seed >> 16);
        }
        char err[512];
        w15_wtf_file_t *f = NULL;
        if (w15_wtf_read_mem(b, n, "fuzz", 0, &f, err, sizeof err) == W15_WTF_E_OK) {
            w15_timeline_t tl;
            if (w15_timeline_build(f, &tl) == 0) {
                w15_frame_stats_t st;
                if (w15_frame_stats(&tl, 0, &st) == 0)
                    w15_frame_stats_free(&st);
                w15_timeline_free(&tl);
            }
        } else {
            CHECKF(strstr(err, "fuzz: byte ") != NULL, "damaged file message without offset: %s", err);
        }
        w15_wtf_file_free(f);
    }
    free(b);
}

static const char *json_head =
    "[\n"
    "{\"type\":\"wtf.json.header\",\"timebase\":1000},\n"
    "{\"type\":\"wtf.event.define\",\"signature\":\"my.custom#event(uint32 foo, ascii s)\",\"event_id\":9},\n"
    "{\"type\":\"wtf.event.define\",\"signature\":\"inst\",\"class\":\"instance\"},\n"
    "{\"event\":9,\"time\":1.5,\"args\":[7,\"x\"]},\n"
    "{\"event\":\"wtf.scope#leave\",\"time\":2},\n"
    "{\"event\":\"inst\",\"time\":3}";

static void test_json_tolerance(void)
{
    const char *tails[] = {"\n]\n", "\n", ",\n", ",\n]", ", ,\n", "]", ",]"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        char text[2048], err[512];
        snprintf(text, sizeof text, "%s%s", json_head, tails[i]);
        w15_wtf_file_t *f = NULL;
        w15_wtf_err_t e = w15_wtf_json_read_mem(text, strlen(text), "t.wtf-json", &f, err, sizeof err);
        CHECKF(e == W15_WTF_E_OK, "tail \"%s\": %s", tails[i], err);
        if (e != W15_WTF_E_OK)
            continue;
        /* 2 defines + auto-defined wtf.scope#leave + 3 events */
        CHECKF(f->nevents == 6, "tail \"%s\": %zu events", tails[i], f->nevents);
        CHECKF(f->timebase == 1000, "timebase");
        const w15_wtf_def_t *d = w15_wtf_def_by_name(f, "my.custom#event");
        CHECKF(d && d->cls == 1 && d->nargs == 2 && d->wire == 9, "definition");
        CHECKF(count_named(f, "my.custom#event") == 1 && count_named(f, "inst") == 1, "events");
        for (size_t k = 0; k < f->nevents; k++)
            if (f->events[k].def == d)
                CHECKF(f->events[k].time == 1500 && f->events[k].args[0].v.u == 7 && strcmp(f->events[k].args[1].v.s, "x") == 0,
                      "event values");
        w15_wtf_file_free(f);
    }
    /* a cut object and an undefined event are errors naming the entry */
    const char *bad[] = {"[{\"type\":\"wtf.json.header\",\"timebase\":1},{\"event\":\"nope\",\"time\":1}]",
                         "[{\"type\":\"wtf.json.header\",\"timebase\":1},{\"event\":", "[{\"type\":\"wtf.json.header\"} x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[512];
        w15_wtf_file_t *f = NULL;
        w15_wtf_err_t e = w15_wtf_json_read_mem(bad[i], strlen(bad[i]), "b.wtf-json", &f, err, sizeof err);
        CHECKF(e != W15_WTF_E_OK, "bad json %zu accepted", i);
        CHECKF(strstr(err, "b.wtf-json: byte ") && strstr(err, "entry"), "bad json %zu message: %s", i, err);
        w15_wtf_file_free(f);
    }
}

/* Built-ins redefined with other argument types must not be trusted. */
static void test_hostile_defs(void)
{
    const char *zone = "[{\"type\":\"wtf.event.define\",\"signature\":\"wtf.zone#create(ascii a, uint32 b, uint32 c)\"},"
                       "{\"event\":\"wtf.zone#create\",\"time\":1,\"args\":[\"x\",5,6]}]";
    const char *ts = "[{\"type\":\"wtf.event.define\",\"signature\":\"wtf.trace#timeStamp(uint32 name)\",\"class\":\"instance\"},"
                     "{\"type\":\"wtf.event.define\",\"signature\":\"wtf.scope#enter(uint32 name)\"},"
                     "{\"type\":\"wtf.event.define\",\"signature\":\"wtf.timing#frameStart(ascii number)\",\"class\":\"instance\"},"
                     "{\"event\":\"wtf.trace#timeStamp\",\"time\":1,\"args\":[12345]},"
                     "{\"event\":\"wtf.scope#enter\",\"time\":2,\"args\":[777]},"
                     "{\"event\":\"wtf.timing#frameStart\",\"time\":3,\"args\":[\"1\"]}]";
    char err[512];
    w15_wtf_file_t *f = NULL;
    CHECKF(w15_wtf_json_read_mem(zone, strlen(zone), "z.wtf-json", &f, err, sizeof err) != W15_WTF_E_OK &&
              strstr(err, "not an integer zone id"),
          "zone#create with a string id: %s", err);
    w15_wtf_file_free(f);
    f = NULL;
    CHECKF(w15_wtf_json_read_mem(ts, strlen(ts), "t.wtf-json", &f, err, sizeof err) == W15_WTF_E_OK, "%s", err);
    if (f) {
        w15_timeline_t tl;
        CHECKF(w15_timeline_build(f, &tl) == 0, "timeline");
        CHECKF(tl.ninstants == 1 && strcmp(tl.instants[0].name, "unnamed.instance") == 0, "time stamp with a number name");
        CHECKF(tl.nscopes == 1 && strcmp(tl.scopes[0].name, "unnamed.scope") == 0, "scope with a number name");
        CHECKF(tl.nframes == 0, "frame with a string number");
        w15_timeline_free(&tl);
    }
    w15_wtf_file_free(f);
}

static void test_roundtrip(const char *path, const char *dir)
{
    char err[512], jp[4096], tp[4096];
    snprintf(jp, sizeof jp, "%s/rt.wtf-json", dir);
    snprintf(tp, sizeof tp, "%s/rt.wtf-trace", dir);
    w15_wtf_file_t *a = NULL, *b = NULL, *c = NULL;
    CHECKF(w15_wtf_read(path, 0, &a, err, sizeof err) == 0, "%s", err);
    FILE *fp = fopen(jp, "w");
    CHECKF(fp && a && w15_wtf_json_write(a, fp) == 0, "json write");
    if (fp)
        fclose(fp);
    CHECKF(w15_wtf_json_read(jp, &b, err, sizeof err) == 0, "json read back: %s", err);
    CHECKF(b && w15_wtf_write(b, tp, err, sizeof err) == 0, "trace write: %s", err);
    CHECKF(w15_wtf_read(tp, 0, &c, err, sizeof err) == 0, "trace read back: %s", err);
    if (a && b && c) {
        CHECKF(a->nevents == b->nevents && b->nevents == c->nevents, "events %zu %zu %zu", a->nevents, b->nevents, c->nevents);
        for (size_t i = 0; i < a->nevents && i < c->nevents; i++) {
            const w15_wtf_event_t *x = &a->events[i], *y = &c->events[i];
            CHECKF(strcmp(x->def->name, y->def->name) == 0 && x->time == y->time && x->zone == y->zone, "event %zu differs", i);
            for (uint32_t k = 0; k < x->def->nargs && k < y->def->nargs; k++) {
                const w15_wtf_value_t *u = &x->args[k], *v = &y->args[k];
                if (u->type == W15_WTF_T_ASCII || u->type == W15_WTF_T_UTF8)
                    CHECKF((!u->v.s && !v->v.s) || (u->v.s && v->v.s && strcmp(u->v.s, v->v.s) == 0), "event %zu arg %u", i, k);
                else if (!w15_wtf_type_is_array(u->type))
                    CHECKF(u->v.u == v->v.u, "event %zu arg %u: %u != %u", i, k, u->v.u, v->v.u);
            }
        }
    }
    w15_wtf_file_free(a);
    w15_wtf_file_free(b);
    w15_wtf_file_free(c);
}

static void test_percentile(void)
{
    double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    CHECKF(w15_percentile(v, 10, 90) == 9, "p90");
    CHECKF(w15_percentile(v, 10, 95) == 10, "p95");
    CHECKF(w15_percentile(v, 10, 10) == 1, "p10");
    CHECKF(w15_percentile(v, 10, 11) == 2, "p11");
    CHECKF(w15_percentile(v, 1, 99) == 1, "one value");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_wtf_reader DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/reader.wtf-trace", argv[1]);
    if (make_trace(path) != 0)
        return 1;
    size_t n;
    uint8_t *b = slurp(path, &n);
    CHECKF(b && n > 100, "trace written");
    test_good(path);
    if (b) {
        test_truncation(b, n);
        test_damage(b, n);
    }
    free(b);
    test_json_tolerance();
    test_hostile_defs();
    test_roundtrip(path, argv[1]);
    test_percentile();
    if (check_failed)
        fprintf(stderr, "%d failure(s)\n", check_failed);
    else
        printf("ok\n");
    return check_failed ? 1 : 0;
}
