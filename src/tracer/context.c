/* context.c -- the context current on each thread (context.h).
 *
 * The API and version of the current context are read once per
 * MakeCurrent (lazily, at the first question) with the real
 * glGetString(GL_VERSION): "OpenGL ES x.y" / "OpenGL ES-CM 1.1" mean GLES.
 * We never call glGetError. */
#include "context.h"
#include "resolve.h"

#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "apitable.h"

enum { GL_VERSION_ = 0x1F02 };

/* ctx_kind values */
enum { CTX_UNKNOWN = 0, CTX_NONE, CTX_GL, CTX_GLES };

typedef const unsigned char *(*get_string_fn)(unsigned);
typedef void (*get_integerv_fn)(unsigned, int *);
static int id_get_string = -1, id_get_integerv = -1;

void w15_context_init(void)
{
    id_get_string = w15_func_lookup("glGetString");
    id_get_integerv = w15_func_lookup("glGetIntegerv");
}

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static w15_ctx_t *ctxs;
static uint32_t ctx_ids, ctx_live;
static _Atomic int ctx_several;

int w15_ctx_several(void)
{
    return atomic_load_explicit(&ctx_several, memory_order_relaxed);
}

w15_ctx_t *w15_ctx_find(void *handle, int create)
{
    int e = errno;
    pthread_mutex_lock(&ctx_lock);
    w15_ctx_t *c = ctxs;
    while (c && c->handle != handle)
        c = c->next;
    if (!c && create && (c = calloc(1, sizeof *c)) != NULL) {
        c->handle = handle;
        c->id = ++ctx_ids;
        c->share_group = c->id;
        c->compat = -1;
        c->next = ctxs;
        ctxs = c;
        if (++ctx_live >= 2)
            atomic_store_explicit(&ctx_several, 1, memory_order_relaxed);
    }
    pthread_mutex_unlock(&ctx_lock);
    errno = e;
    return c;
}

void w15_ctx_forget(void *handle)
{
    pthread_mutex_lock(&ctx_lock);
    for (w15_ctx_t **pp = &ctxs; *pp; pp = &(*pp)->next) {
        if ((*pp)->handle == handle) {
            w15_ctx_t *c = *pp;
            *pp = c->next;
            ctx_live--;
            free(c->exts);
            free(c);
            break;
        }
    }
    pthread_mutex_unlock(&ctx_lock);
}

int w15_ctx_current_anywhere(const w15_ctx_t *c)
{
    int r = 0;
    pthread_mutex_lock(&w15_threads_lock);
    for (w15_thread_t *t = w15_threads; t && !r; t = t->next)
        r = !t->dead && t->ctx == c;
    pthread_mutex_unlock(&w15_threads_lock);
    return r;
}

void w15_ctx_each(void (*fn)(w15_ctx_t *c, void *arg), void *arg)
{
    pthread_mutex_lock(&ctx_lock);
    for (w15_ctx_t *c = ctxs; c; c = c->next)
        fn(c, arg);
    pthread_mutex_unlock(&ctx_lock);
}

void w15_context_changed(w15_thread_t *t, void *ctx)
{
    t->context = ctx;
    t->ctx = ctx ? w15_ctx_find(ctx, 1) : NULL;
    t->ctx_kind = CTX_UNKNOWN;
}

w15_ctx_t *w15_context_current(void)
{
    w15_thread_t *t = w15_tls;
    return t ? t->ctx : NULL;
}

static int parse_int(const char **s)
{
    int v = 0;
    while (**s >= '0' && **s <= '9')
        v = v * 10 + (*(*s)++ - '0');
    return v;
}

/* Between glBegin and glEnd every query is an error: the tracer asks GL
 * nothing there (arrays.c's glBegin hook primes what is cached first). */
static int in_begin(const w15_thread_t *t)
{
    return t && t->ctx && t->ctx->in_begin;
}

static w15_thread_t *ctx_info(void)
{
    w15_thread_t *t = w15_tls;
    if (!t || id_get_string < 0)
        return NULL;
    if (t->ctx_kind != CTX_UNKNOWN)
        return t;
    if (in_begin(t))
        return NULL;
    int e = errno;
    get_string_fn gs = (get_string_fn)W15_REAL((uint32_t)id_get_string);
    const char *v = (const char *)gs(GL_VERSION_);
    t->ctx_kind = CTX_NONE;
    t->ctx_major = t->ctx_minor = 0;
    if (v) {
        if (strncmp(v, "OpenGL ES", 9) == 0) {
            t->ctx_kind = CTX_GLES;
            v += 9;
            while (*v && (*v < '0' || *v > '9'))
                v++;
        } else {
            t->ctx_kind = CTX_GL;
        }
        t->ctx_major = parse_int(&v);
        if (*v == '.') {
            v++;
            t->ctx_minor = parse_int(&v);
        }
    }
    errno = e;
    return t;
}

int w15_context_api(int *major, int *minor)
{
    w15_thread_t *t = ctx_info();
    if (!t || (t->ctx_kind != CTX_GL && t->ctx_kind != CTX_GLES))
        return 0;
    *major = t->ctx_major;
    *minor = t->ctx_minor;
    return t->ctx_kind == CTX_GL ? 1 : 2;
}

enum {
    GL_EXTENSIONS_ = 0x1F03,
    GL_NUM_EXTENSIONS_ = 0x821D,
    GL_CONTEXT_PROFILE_MASK_ = 0x9126,
    GL_CONTEXT_COMPATIBILITY_PROFILE_BIT_ = 2,
};
typedef const unsigned char *(*get_stringi_fn)(unsigned, unsigned);
static int id_get_stringi = -2;

/* The current context's extension list as " a b c ", built once. */
static const char *ext_list(w15_thread_t *t, int api, int major)
{
    w15_ctx_t *c = t->ctx;
    if (!c)
        return NULL;
    if (c->exts)
        return c->exts;
    if (c->in_begin)
        return NULL;
    if (id_get_stringi == -2)
        id_get_stringi = w15_func_lookup("glGetStringi");
    size_t len, cap = 4096;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    strcpy(s, " ");
    len = 1;
    /* glGetStringi per extension costs Mesa ~2,300 instructions each
     * (0.7 M for llvmpipe's ~300 on a compatibility context, at every
     * traced program's start: docs/PERFORMANCE.md); a desktop
     * compatibility profile (3.2 and later) still answers the one string */
    int one = major < 3 || (api == 1 && (major > 3 || t->ctx_minor >= 2) && w15_context_compat());
    if (!one && id_get_stringi >= 0) {
        get_stringi_fn gsi = (get_stringi_fn)W15_REAL((uint32_t)id_get_stringi);
        int n = w15_context_get_int(GL_NUM_EXTENSIONS_, 0);
        for (int i = 0; i < n; i++) {
            const char *e = (const char *)gsi(GL_EXTENSIONS_, (unsigned)i);
            size_t el = e ? strlen(e) : 0;
            if (!el)
                continue;
            if (len + el + 2 > cap) {
                char *ns = realloc(s, cap = 2 * cap + el);
                if (!ns) {
                    free(s);
                    return NULL;
                }
                s = ns;
            }
            memcpy(s + len, e, el);
            len += el;
            s[len++] = ' ';
            s[len] = 0;
        }
    } else {
        get_string_fn gs = (get_string_fn)W15_REAL((uint32_t)id_get_string);
        const char *e = (const char *)gs(GL_EXTENSIONS_);
        size_t el = e ? strlen(e) : 0;
        char *ns = realloc(s, el + 3);
        if (!ns) {
            free(s);
            return NULL;
        }
        s = ns;
        if (el)
            memcpy(s + 1, e, el);
        s[el + 1] = ' ';
        s[el + 2] = 0;
    }
    c->exts = s;
    return s;
}

int w15_context_has_ext(const char *ext)
{
    int major, minor;
    int api = w15_context_api(&major, &minor);
    if (!api)
        return 0;
    int e = errno;
    const char *l = ext_list(w15_tls, api, major);
    int r = 0;
    if (l) {
        size_t n = strlen(ext);
        for (const char *p = strstr(l, ext); p; p = strstr(p + 1, ext))
            if (p[-1] == ' ' && p[n] == ' ') {
                r = 1;
                break;
            }
    }
    errno = e;
    return r;
}

void w15_context_prime(void)
{
    w15_thread_t *t = w15_tls;
    int major, minor;
    int api = w15_context_api(&major, &minor);
    if (api && t && !in_begin(t)) {
        w15_context_compat();
        ext_list(t, api, major);
    }
}

int w15_context_version(int api, int major, int minor)
{
    int ma = 0, mi = 0;
    return w15_context_api(&ma, &mi) == api && (ma > major || (ma == major && mi >= minor));
}

int w15_context_compat(void)
{
    int major, minor;
    int api = w15_context_api(&major, &minor);
    w15_thread_t *t = w15_tls;
    if (!api || !t)
        return 0;
    if (api == 2)
        return major < 2;
    if (t->ctx && t->ctx->compat >= 0)
        return t->ctx->compat;
    if (in_begin(t))
        return 1; /* GL accepted glBegin */
    int r;
    if (major < 3 || (major == 3 && minor == 0))
        r = 1;
    else if (major == 3 && minor == 1)
        r = w15_context_has_ext("GL_ARB_compatibility");
    else
        r = (w15_context_get_int(GL_CONTEXT_PROFILE_MASK_, 0) & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT_) != 0;
    if (t->ctx)
        t->ctx->compat = r;
    return r;
}

int w15_context_get_int(unsigned pname, int dflt)
{
    if (id_get_integerv < 0 || in_begin(w15_tls))
        return dflt;
    int e = errno;
    get_integerv_fn gi = (get_integerv_fn)W15_REAL((uint32_t)id_get_integerv);
    int v = dflt;
    gi(pname, &v);
    errno = e;
    return v;
}
