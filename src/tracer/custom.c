/* custom.c -- hand-written wrappers (functions flagged CUSTOM in
 * glapi/annotations.txt): the GetProcAddress family.  They record the call
 * like any other and return our wrapper for every name we know (so calls
 * made through the returned pointer are traced), the real pointer with one
 * warning for names we do not know.
 *
 * Module: owns the hand-written wrappers; nothing calls them but the
 * program, so there is no header.  May use record (w15_pre/w15_post like a
 * generated wrapper), resolve and log.  Must never use anything else. */
#include "record.h"
#include "log.h"
#include "resolve.h"

#include <pthread.h>

#include <errno.h>
#include <string.h>

typedef void (*w15_proc_t)(void);
typedef w15_proc_t (*gpa_fn)(const char *);

static int fn_id(const char *name, int *cache)
{
    int id = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (id == -2) {
        id = w15_func_lookup(name);
        __atomic_store_n(cache, id, __ATOMIC_RELAXED);
    }
    return id;
}

/* Warn once per unknown name (a small table; later names share a line). */
static void warn_unknown(const char *name)
{
    static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    static char seen[64][64];
    static int nseen;
    pthread_mutex_lock(&m);
    for (int i = 0; i < nseen; i++) {
        if (strncmp(seen[i], name, 63) == 0) {
            pthread_mutex_unlock(&m);
            return;
        }
    }
    if (nseen < 64)
        strncpy(seen[nseen++], name, 63);
    pthread_mutex_unlock(&m);
    w15_msg("%s is not known to wip15: calls through this pointer are not traced", name);
}

static w15_proc_t get_proc(const char *self, int *self_id, const char *name)
{
    int id = fn_id(self, self_id);
    w15_slot_t s[1], rs;
    w15_callctx_t c;
    s[0].p = name;
    gpa_fn real;
    if (id >= 0) {
        w15_pre(&c, (uint32_t)id, s);
        real = (gpa_fn)W15_REAL((uint32_t)id);
    } else {
        c.t = NULL;
        real = (gpa_fn)w15_find_real(self, W15_API_GLX | W15_API_EGL);
    }
    w15_proc_t r = real ? real(name) : NULL;
    int e = errno;
    if (r && name) {
        int fid = w15_known(name);
        if (fid >= 0 && w15_wrapper_ptr[fid]) {
            if ((void *)r != w15_wrapper_ptr[fid] && !__atomic_load_n(&w15_real_ptr[fid], __ATOMIC_ACQUIRE))
                __atomic_store_n(&w15_real_ptr[fid], (void *)r, __ATOMIC_RELEASE);
            r = (w15_proc_t)w15_wrapper_ptr[fid];
        } else if (strncmp(name, "gl", 2) == 0 || strncmp(name, "egl", 3) == 0) {
            warn_unknown(name);
        }
    }
    errno = e;
    rs.p = (const void *)r;
    if (id >= 0)
        w15_post(&c, s, &rs);
    return r;
}

/* function indices, looked up on first use (-2: not yet) */
static int id_glx = -2, id_glx_arb = -2, id_egl = -2;

W15_EXPORT w15_proc_t glXGetProcAddress(const unsigned char *name)
{
    return get_proc("glXGetProcAddress", &id_glx, (const char *)name);
}

W15_EXPORT w15_proc_t glXGetProcAddressARB(const unsigned char *name)
{
    return get_proc("glXGetProcAddressARB", &id_glx_arb, (const char *)name);
}

W15_EXPORT w15_proc_t eglGetProcAddress(const char *name)
{
    return get_proc("eglGetProcAddress", &id_egl, name);
}
