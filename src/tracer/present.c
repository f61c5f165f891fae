/* present.c -- the images software GL drivers send to the X server
 * (present.h).
 *
 * The interposers forward first and look afterwards (for XShmPutImage the
 * request is then flushed, so the server copies the frame while we hash
 * it; the driver's XSync that follows waits for that copy anyway).  The
 * driver's buffer stays as it is until the swap returns: nothing draws
 * into it before the program's next command.  The pixels are read under
 * the guard (guard.h): a fault leaves the frame without a digest, never
 * kills the program.
 *
 * The real functions: the next definition after ours (RTLD_NEXT), else the
 * library's own, loaded already (the driver that calls us links it, but
 * may have been loaded with RTLD_LOCAL, out of RTLD_NEXT's reach). */
#define _GNU_SOURCE
#include "present.h"
#include "fhash.h"
#include "guard.h"
#include "resolve.h"

#include <X11/Xlib.h>
#include <dlfcn.h>
#include <stdint.h>

enum { PR_NONE = 0, PR_ASKED, PR_DONE };

void w15_present_expect(w15_thread_t *t, void *dpy, int w, int h)
{
    t->pr_dpy = dpy;
    t->pr_w = w;
    t->pr_h = h;
    t->pr_state = PR_ASKED;
}

int w15_present_take(w15_thread_t *t, uint64_t *digest)
{
    int got = t->pr_state == PR_DONE;
    if (got)
        *digest = t->pr_digest;
    t->pr_state = PR_NONE;
    return got;
}

void w15_present_watch(w15_thread_t *t, void *dpy, uint64_t drawable)
{
    t->pg_dpy = dpy;
    t->pg_draw = drawable;
    t->pg_state = PR_ASKED;
}

int w15_present_geometry(w15_thread_t *t, int *w, int *h)
{
    int got = t->pg_state == PR_DONE;
    if (got) {
        *w = t->pg_w;
        *h = t->pg_h;
    }
    t->pg_state = PR_NONE;
    return got;
}

static void *real_fn(void **cache, const char *name, const char *lib)
{
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (f)
        return f;
    f = w15_real_dlsym(RTLD_NEXT, name);
    if (!f) {
        void *h = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            f = w15_real_dlsym(h, name);
    }
    if (f)
        __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}

/* The rows of an image to hash, bottom-up. */
typedef struct {
    const uint8_t *data;
    size_t stride, row;
    int h;
    w15_fhash_t *hash;
} rows_t;

/* The rows go into the digest bottom-up (GL's order), which the
 * hardware prefetchers follow badly: a descending walk over a frame that
 * has left the cache hashes at ~60 % of the speed of an ascending one
 * (800x600 from memory: 0.29 against 0.16-0.20 ms on this VM's EPYC).
 * So the rows are taken in bands of ROW_BAND, and while one band is
 * hashed the band below it is prefetched in ascending order, a share per
 * row (0.20 ms; docs/PERFORMANCE.md "Frame digests"). */
enum { ROW_BAND = 16, LINE = 64 };

static void hash_rows(void *arg)
{
    const rows_t *r = arg;
    w15_fhash_reset(r->hash);
    for (int top = r->h; top > 0; top -= ROW_BAND) {
        int lo = top > ROW_BAND ? top - ROW_BAND : 0;
        int next = lo > ROW_BAND ? lo - ROW_BAND : 0;
        const uint8_t *q = r->data + (size_t)next * r->stride, *qe = r->data + (size_t)lo * r->stride;
        size_t share = ((size_t)(qe - q) / (size_t)(top - lo) + LINE - 1) & ~(size_t)(LINE - 1);
        for (int y = top - 1; y >= lo; y--) {
            for (size_t k = 0; k < share && q < qe; k += LINE, q += LINE)
                __builtin_prefetch(q, 0, 3);
            w15_fhash_update(r->hash, r->data + (size_t)y * r->stride, r->row);
        }
    }
}

/* An image of iw x ih pixels (32 bits, little-endian), rows `stride`
 * bytes apart, placed at (0, 0) of the drawable: hash it if this thread's
 * swap expects it. */
static void look(w15_thread_t *t, void *dpy, const void *data, size_t stride, int iw, int ih)
{
    if (t->pr_state != PR_ASKED || (t->pr_dpy && dpy != t->pr_dpy) || !data || iw < t->pr_w ||
        ih < t->pr_h || stride < (size_t)t->pr_w * 4)
        return;
    if (!t->pr_hash && !(t->pr_hash = w15_fhash_new()))
        return;
    rows_t r = { data, stride, (size_t)t->pr_w * 4, t->pr_h, t->pr_hash };
    size_t span = (size_t)(r.h - 1) * stride + r.row;
    if (w15_guard_call(data, span, hash_rows, &r) == 0) {
        t->pr_digest = w15_fhash_digest(t->pr_hash);
        t->pr_state = PR_DONE;
    }
}

static int little_32(const XImage *im)
{
    return im && im->bits_per_pixel == 32 && im->byte_order == LSBFirst;
}

typedef int (*shm_put_fn)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned, unsigned, Bool);
typedef int (*put_fn)(Display *, Drawable, GC, XImage *, int, int, int, int, unsigned, unsigned);
typedef int (*flush_fn)(Display *);
typedef Status (*geometry_fn)(Display *, Drawable, Window *, int *, int *, unsigned *, unsigned *, unsigned *,
                              unsigned *);
static void *r_shm_put, *r_put, *r_flush, *r_xcb_put, *r_geometry;

W15_EXPORT Status XGetGeometry(Display *dpy, Drawable d, Window *root, int *x, int *y, unsigned int *w,
                               unsigned int *h, unsigned int *border, unsigned int *depth)
{
    geometry_fn f = (geometry_fn)real_fn(&r_geometry, "XGetGeometry", "libX11.so.6");
    if (!f)
        return 0;
    Status r = f(dpy, d, root, x, y, w, h, border, depth);
    w15_thread_t *t = w15_tls;
    if (W15_UNLIKELY(t && t->pg_state != PR_NONE) && r && w && h && dpy == t->pg_dpy && d == t->pg_draw &&
        *w > 0 && *h > 0 && *w <= 0x7fffffff && *h <= 0x7fffffff) {
        t->pg_w = (int32_t)*w;
        t->pg_h = (int32_t)*h;
        t->pg_state = PR_DONE;
    }
    return r;
}

W15_EXPORT Bool XShmPutImage(Display *dpy, Drawable d, GC gc, XImage *im, int sx, int sy, int dx, int dy,
                            unsigned int w, unsigned int h, Bool send_event)
{
    shm_put_fn f = (shm_put_fn)real_fn(&r_shm_put, "XShmPutImage", "libXext.so.6");
    if (!f)
        return False;
    Bool r = (Bool)f(dpy, d, gc, im, sx, sy, dx, dy, w, h, send_event);
    w15_thread_t *t = w15_tls;
    if (W15_UNLIKELY(t && t->pr_state == PR_ASKED) && r && little_32(im) && !sx && !sy && !dx && !dy) {
        flush_fn fl = (flush_fn)real_fn(&r_flush, "XFlush", "libX11.so.6");
        if (fl)
            fl(dpy);
        look(t, dpy, im->data, (size_t)im->bytes_per_line, (int)w, (int)h);
    }
    return r;
}

W15_EXPORT int XPutImage(Display *dpy, Drawable d, GC gc, XImage *im, int sx, int sy, int dx, int dy,
                         unsigned int w, unsigned int h)
{
    put_fn f = (put_fn)real_fn(&r_put, "XPutImage", "libX11.so.6");
    if (!f)
        return 0;
    int r = f(dpy, d, gc, im, sx, sy, dx, dy, w, h);
    w15_thread_t *t = w15_tls;
    if (W15_UNLIKELY(t && t->pr_state == PR_ASKED) && little_32(im) && !sx && !sy && !dx && !dy)
        look(t, dpy, im->data, (size_t)im->bytes_per_line, (int)w, (int)h);
    return r;
}

/* xcb_put_image's own types, as libxcb's ABI has them (no xcb headers
 * needed to build the tracer) */
typedef struct { unsigned int sequence; } w15_xcb_cookie_t;
typedef w15_xcb_cookie_t (*xcb_put_fn)(void *, uint8_t, uint32_t, uint32_t, uint16_t, uint16_t, int16_t, int16_t,
                                       uint8_t, uint8_t, uint32_t, const uint8_t *);
enum { XCB_Z_PIXMAP = 2 };

W15_EXPORT w15_xcb_cookie_t xcb_put_image(void *c, uint8_t format, uint32_t drawable, uint32_t gc, uint16_t width,
                                          uint16_t height, int16_t dst_x, int16_t dst_y, uint8_t left_pad,
                                          uint8_t depth, uint32_t data_len, const uint8_t *data)
{
    xcb_put_fn f = (xcb_put_fn)real_fn(&r_xcb_put, "xcb_put_image", "libxcb.so.1");
    if (!f) {
        w15_xcb_cookie_t none = { 0 };
        return none;
    }
    w15_xcb_cookie_t r = f(c, format, drawable, gc, width, height, dst_x, dst_y, left_pad, depth, data_len, data);
    w15_thread_t *t = w15_tls;
    /* a 32-bit Z pixmap covers width * height * 4 bytes, rows packed */
    if (W15_UNLIKELY(t && t->pr_state == PR_ASKED) && format == XCB_Z_PIXMAP && !left_pad && !dst_x &&
        !dst_y && (depth == 24 || depth == 32) && data_len == (uint32_t)width * height * 4u)
        look(t, NULL, data, (size_t)width * 4, width, height);
    return r;
}
