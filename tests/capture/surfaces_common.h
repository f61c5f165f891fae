/* surfaces_common.h -- the frame loop shared by surfaces_glx.c and
 * surfaces_egl.c (tests/capture/surfaces.cmake).
 *
 * Every GL function is fetched with the window system's GetProcAddress, so
 * one loop serves GL compatibility, GL core and GLES through GLX or EGL.
 * Each frame:
 *   1. clears the default framebuffer to a pattern that depends on the
 *      frame (scissored clears, no shaders);
 *   2. reads the buffer the swap will show itself, rows bottom-up, tightly
 *      packed, in every plain colour format the tracer may choose, and
 *      prints "digest FRAME W H FORMAT TYPE XXH3" for each;
 *   3. leaves state the tracer's frame digest must work around and put back
 *      (pack alignment, row length, skips, byte swapping, GL_PACK_INVERT_MESA,
 *      a pixel pack buffer, a read or draw framebuffer object, the default
 *      framebuffer's read buffer, pixel transfer scale/bias and map colour
 *      on compatibility contexts; a different mix each frame);
 *   4. checks glGetError is GL_NO_ERROR, notes every value of that state,
 *      swaps, and checks that every value is unchanged and glGetError is
 *      still GL_NO_ERROR ("state ok FRAME" on stdout, else FAIL and exit 1).
 * Output lines are what surfaces_check.py compares with the trace. */
#ifndef SURFACES_COMMON_H
#define SURFACES_COMMON_H

#include <GL/gl.h>
#include <GL/glext.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#ifndef GL_PACK_INVERT_MESA
#define GL_PACK_INVERT_MESA 0x8758
#endif

static const char *sf_name = "surfaces";

static void __attribute__((noreturn, format(printf, 1, 2))) sf_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "%s: FAIL ", sf_name);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    exit(1);
}

#define SF_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (!(cond))                                                           \
            sf_fail(__VA_ARGS__);                                              \
    } while (0)

typedef void (*sf_proc)(void);
typedef sf_proc (*sf_getproc_fn)(const char *);

/* the GL functions the loop uses */
static struct {
    void (*Clear)(GLbitfield);
    void (*ClearColor)(GLfloat, GLfloat, GLfloat, GLfloat);
    void (*Scissor)(GLint, GLint, GLsizei, GLsizei);
    void (*Viewport)(GLint, GLint, GLsizei, GLsizei);
    void (*Enable)(GLenum);
    void (*Disable)(GLenum);
    void (*ReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
    void (*PixelStorei)(GLenum, GLint);
    void (*GetIntegerv)(GLenum, GLint *);
    void (*GetFloatv)(GLenum, GLfloat *);
    GLenum (*GetError)(void);
    const GLubyte *(*GetString)(GLenum);
    const GLubyte *(*GetStringi)(GLenum, GLuint);
    void (*BindFramebuffer)(GLenum, GLuint);
    void (*GenFramebuffers)(GLsizei, GLuint *);
    void (*GenRenderbuffers)(GLsizei, GLuint *);
    void (*BindRenderbuffer)(GLenum, GLuint);
    void (*RenderbufferStorage)(GLenum, GLenum, GLsizei, GLsizei);
    void (*FramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint);
    GLenum (*CheckFramebufferStatus)(GLenum);
    void (*GenBuffers)(GLsizei, GLuint *);
    void (*BindBuffer)(GLenum, GLuint);
    void (*BufferData)(GLenum, GLsizeiptr, const void *, GLenum);
    void (*ReadBuffer)(GLenum);
    void (*PixelTransferf)(GLenum, GLfloat);
    void (*PixelTransferi)(GLenum, GLint);
} gl;

/* what the context is */
typedef struct sf_ctx {
    int desktop, compat, major, minor;
    int rows, pbo, readfb, readbuf, swapbytes, invert, xfer, bgra;
    int dbl; /* the default framebuffer is double-buffered */
    GLuint fbo, rbo, buf;
} sf_ctx_t;

/* function pointer dst = p (same representation on every target Mesa runs on) */
#define SF_SET(dst, p)                                                         \
    do {                                                                       \
        sf_proc p_ = (p);                                                      \
        memcpy(&(dst), &p_, sizeof p_);                                        \
    } while (0)

static sf_proc sf_get(sf_getproc_fn gp, const char *name)
{
    sf_proc p = gp(name);
    SF_CHECK(p, "no %s", name);
    return p;
}

static int sf_has_ext(const char *name)
{
    GLint n = 0;
    if (gl.GetStringi) {
        gl.GetIntegerv(GL_NUM_EXTENSIONS, &n);
        for (GLint i = 0; i < n; i++)
            if (!strcmp((const char *)gl.GetStringi(GL_EXTENSIONS, (GLuint)i), name))
                return 1;
        return 0;
    }
    const char *e = (const char *)gl.GetString(GL_EXTENSIONS);
    size_t l = strlen(name);
    for (const char *p = e; p && (p = strstr(p, name)) != NULL; p += l)
        if ((p == e || p[-1] == ' ') && (p[l] == ' ' || p[l] == 0))
            return 1;
    return 0;
}

/* After the context is current: functions, version, what it has. */
static void sf_init(sf_ctx_t *c, sf_getproc_fn gp, int dbl)
{
#define G(f) SF_SET(gl.f, sf_get(gp, "gl" #f))
    G(Clear); G(ClearColor); G(Scissor); G(Viewport); G(Enable); G(Disable); G(ReadPixels);
    G(PixelStorei); G(GetIntegerv); G(GetFloatv); G(GetError); G(GetString);
#undef G
    memset(c, 0, sizeof *c);
    c->dbl = dbl;
    const char *v = (const char *)gl.GetString(GL_VERSION);
    SF_CHECK(v, "no GL_VERSION");
    const char *es = strstr(v, "OpenGL ES");
    c->desktop = !es;
    if (es)
        v = strpbrk(v, "0123456789");
    SF_CHECK(v && sscanf(v, "%d.%d", &c->major, &c->minor) == 2, "GL_VERSION '%s'", v ? v : "");
    if (c->major >= 3)
        SF_SET(gl.GetStringi, sf_get(gp, "glGetStringi"));
    if (c->desktop) {
        GLint mask = 0;
        if (c->major > 3 || (c->major == 3 && c->minor >= 2))
            gl.GetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
        if (c->major < 3)
            c->compat = 1;
        else if (c->major == 3 && c->minor < 2)
            c->compat = sf_has_ext("GL_ARB_compatibility");
        else
            c->compat = (mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) != 0;
        c->rows = c->swapbytes = c->readbuf = c->bgra = 1;
        c->pbo = c->major > 2 || (c->major == 2 && c->minor >= 1);
        c->readfb = c->major >= 3;
        c->xfer = c->compat;
    } else {
        c->rows = c->pbo = c->readfb = c->readbuf = c->major >= 3;
        c->bgra = sf_has_ext("GL_EXT_read_format_bgra");
    }
    c->invert = sf_has_ext("GL_MESA_pack_invert");
    SF_CHECK(c->desktop ? c->major >= 3 || sf_has_ext("GL_ARB_framebuffer_object") : c->major >= 2,
             "no framebuffer objects");
#define G(f, n) SF_SET(gl.f, sf_get(gp, n))
    G(BindFramebuffer, "glBindFramebuffer"); G(GenFramebuffers, "glGenFramebuffers");
    G(GenRenderbuffers, "glGenRenderbuffers"); G(BindRenderbuffer, "glBindRenderbuffer");
    G(RenderbufferStorage, "glRenderbufferStorage");
    G(FramebufferRenderbuffer, "glFramebufferRenderbuffer");
    G(CheckFramebufferStatus, "glCheckFramebufferStatus");
    G(GenBuffers, "glGenBuffers"); G(BindBuffer, "glBindBuffer"); G(BufferData, "glBufferData");
    if (c->readbuf)
        G(ReadBuffer, "glReadBuffer");
    if (c->xfer) {
        G(PixelTransferf, "glPixelTransferf");
        G(PixelTransferi, "glPixelTransferi");
    }
#undef G
    gl.GenRenderbuffers(1, &c->rbo);
    gl.BindRenderbuffer(GL_RENDERBUFFER, c->rbo);
    gl.RenderbufferStorage(GL_RENDERBUFFER, c->desktop || c->major >= 3 ? GL_RGBA8 : GL_RGBA4, 8, 8);
    gl.GenFramebuffers(1, &c->fbo);
    gl.BindFramebuffer(GL_FRAMEBUFFER, c->fbo);
    gl.FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, c->rbo);
    SF_CHECK(gl.CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "incomplete FBO");
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    if (c->pbo) {
        gl.GenBuffers(1, &c->buf);
        gl.BindBuffer(GL_PIXEL_PACK_BUFFER, c->buf);
        gl.BufferData(GL_PIXEL_PACK_BUFFER, 64, NULL, GL_STREAM_READ);
        gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    GLenum e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x at set-up", e);
    printf("gl desktop=%d compat=%d version=%d.%d rows=%d pbo=%d readfb=%d invert=%d xfer=%d\n", c->desktop,
           c->compat, c->major, c->minor, c->rows, c->pbo, c->readfb, c->invert, c->xfer);
}

/* bytes per pixel of a plain colour read format (0: not one) */
static int sf_bpp(GLenum f, GLenum t)
{
    switch (t) {
    case GL_UNSIGNED_BYTE: return f == GL_RGBA || f == GL_BGRA ? 4 : f == GL_RGB ? 3 : 0;
    case GL_UNSIGNED_INT_8_8_8_8_REV:
    case GL_UNSIGNED_INT_2_10_10_10_REV: return f == GL_RGBA || f == GL_BGRA ? 4 : 0;
    case GL_UNSIGNED_SHORT_5_6_5: return f == GL_RGB ? 2 : 0;
    case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV: return f == GL_RGBA || f == GL_BGRA ? 2 : 0;
    default: return 0;
    }
}

static void sf_digest(int frame, int w, int h, GLenum f, GLenum t)
{
    int bpp = sf_bpp(f, t);
    if (!bpp)
        return;
    size_t size = (size_t)w * (size_t)h * (size_t)bpp;
    unsigned char *p = malloc(size);
    SF_CHECK(p, "out of memory");
    gl.ReadPixels(0, 0, w, h, f, t, p);
    GLenum e = gl.GetError();
    if (e == GL_NO_ERROR)
        printf("digest %d %d %d %u %u %llu\n", frame, w, h, (unsigned)f, (unsigned)t,
               (unsigned long long)XXH3_64bits(p, size));
    free(p);
}

/* the state the frame digest touches, as the program sees it */
enum { NSTATE = 24 };
typedef struct sf_state {
    int n;
    const char *name[NSTATE];
    GLint v[NSTATE];
} sf_state_t;

static void sf_i(sf_state_t *s, const char *name, GLenum pname)
{
    GLint v = -12345;
    gl.GetIntegerv(pname, &v);
    s->name[s->n] = name;
    s->v[s->n++] = v;
}

static void sf_f(sf_state_t *s, const char *name, GLenum pname)
{
    GLfloat v = -1;
    gl.GetFloatv(pname, &v);
    s->name[s->n] = name;
    s->v[s->n++] = (GLint)(v * 1000.0f);
}

static void sf_snapshot(const sf_ctx_t *c, sf_state_t *s)
{
    s->n = 0;
    sf_i(s, "PACK_ALIGNMENT", GL_PACK_ALIGNMENT);
    sf_i(s, "UNPACK_ALIGNMENT", GL_UNPACK_ALIGNMENT);
    if (c->rows) {
        sf_i(s, "PACK_ROW_LENGTH", GL_PACK_ROW_LENGTH);
        sf_i(s, "PACK_SKIP_ROWS", GL_PACK_SKIP_ROWS);
        sf_i(s, "PACK_SKIP_PIXELS", GL_PACK_SKIP_PIXELS);
    }
    if (c->swapbytes) {
        sf_i(s, "PACK_SWAP_BYTES", GL_PACK_SWAP_BYTES);
        sf_i(s, "PACK_LSB_FIRST", GL_PACK_LSB_FIRST);
    }
    if (c->invert)
        sf_i(s, "PACK_INVERT_MESA", GL_PACK_INVERT_MESA);
    if (c->pbo) {
        sf_i(s, "PIXEL_PACK_BUFFER_BINDING", GL_PIXEL_PACK_BUFFER_BINDING);
        sf_i(s, "PIXEL_UNPACK_BUFFER_BINDING", GL_PIXEL_UNPACK_BUFFER_BINDING);
    }
    if (c->readfb) {
        sf_i(s, "READ_FRAMEBUFFER_BINDING", GL_READ_FRAMEBUFFER_BINDING);
        sf_i(s, "DRAW_FRAMEBUFFER_BINDING", GL_DRAW_FRAMEBUFFER_BINDING);
    } else {
        sf_i(s, "FRAMEBUFFER_BINDING", GL_FRAMEBUFFER_BINDING);
    }
    if (c->readbuf) {
        sf_i(s, "READ_BUFFER", GL_READ_BUFFER);
        /* the default framebuffer's, seen the same way before and after */
        GLint fb = 0;
        GLenum bind = c->readfb ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
        gl.GetIntegerv(c->readfb ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fb);
        if (fb)
            gl.BindFramebuffer(bind, 0);
        sf_i(s, "READ_BUFFER(default)", GL_READ_BUFFER);
        if (fb)
            gl.BindFramebuffer(bind, (GLuint)fb);
    }
    if (c->xfer) {
        sf_i(s, "MAP_COLOR", GL_MAP_COLOR);
        sf_f(s, "RED_SCALE*1000", GL_RED_SCALE);
        sf_f(s, "GREEN_BIAS*1000", GL_GREEN_BIAS);
        sf_f(s, "ALPHA_SCALE*1000", GL_ALPHA_SCALE);
    }
    sf_i(s, "SCISSOR_TEST", GL_SCISSOR_TEST);
}

/* The program's own defaults (what it reads its digests with). */
static void sf_clean(const sf_ctx_t *c)
{
    gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
    if (c->rows) {
        gl.PixelStorei(GL_PACK_ROW_LENGTH, 0);
        gl.PixelStorei(GL_PACK_SKIP_ROWS, 0);
        gl.PixelStorei(GL_PACK_SKIP_PIXELS, 0);
    }
    if (c->swapbytes)
        gl.PixelStorei(GL_PACK_SWAP_BYTES, 0);
    if (c->invert)
        gl.PixelStorei(GL_PACK_INVERT_MESA, 0);
    if (c->pbo)
        gl.BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl.BindFramebuffer(GL_FRAMEBUFFER, 0);
    if (c->readbuf)
        gl.ReadBuffer(c->dbl ? GL_BACK : GL_FRONT);
    if (c->xfer) {
        gl.PixelTransferi(GL_MAP_COLOR, 0);
        gl.PixelTransferf(GL_RED_SCALE, 1.0f);
        gl.PixelTransferf(GL_GREEN_BIAS, 0.0f);
        gl.PixelTransferf(GL_ALPHA_SCALE, 1.0f);
    }
}

/* Variant k of the state left for the swap. */
static void sf_dirty(const sf_ctx_t *c, int k, int w)
{
    switch (k % 4) {
    case 0: /* everything at once, read framebuffer object */
        gl.PixelStorei(GL_PACK_ALIGNMENT, 8);
        if (c->rows) {
            gl.PixelStorei(GL_PACK_ROW_LENGTH, w + 5);
            gl.PixelStorei(GL_PACK_SKIP_ROWS, 3);
            gl.PixelStorei(GL_PACK_SKIP_PIXELS, 2);
        }
        if (c->swapbytes)
            gl.PixelStorei(GL_PACK_SWAP_BYTES, 1);
        if (c->invert)
            gl.PixelStorei(GL_PACK_INVERT_MESA, 1);
        if (c->pbo)
            gl.BindBuffer(GL_PIXEL_PACK_BUFFER, c->buf);
        gl.BindFramebuffer(c->readfb ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER, c->fbo);
        if (c->xfer) {
            gl.PixelTransferi(GL_MAP_COLOR, 1);
            gl.PixelTransferf(GL_RED_SCALE, 0.5f);
            gl.PixelTransferf(GL_GREEN_BIAS, 0.25f);
            gl.PixelTransferf(GL_ALPHA_SCALE, 0.0f);
        }
        break;
    case 1: /* the default framebuffer's other buffer, odd alignment */
        gl.PixelStorei(GL_PACK_ALIGNMENT, 2);
        if (c->readbuf && !c->desktop)
            gl.ReadBuffer(GL_NONE); /* GLES: GL_BACK or GL_NONE only */
        else if (c->readbuf && c->dbl)
            gl.ReadBuffer(GL_FRONT);
        if (c->xfer)
            gl.PixelTransferf(GL_RED_SCALE, 0.0f);
        if (c->pbo)
            gl.BindBuffer(GL_PIXEL_PACK_BUFFER, c->buf);
        break;
    case 2: /* a framebuffer object for drawing and reading */
        gl.BindFramebuffer(GL_FRAMEBUFFER, c->fbo);
        if (c->rows)
            gl.PixelStorei(GL_PACK_SKIP_PIXELS, 1);
        break;
    default: /* nothing: the digest must not change anything either */
        break;
    }
}

/* One frame of `frame`, w x h; swap() shows it. */
static void sf_frame(const sf_ctx_t *c, int frame, int w, int h, void (*swap)(void *), void *arg)
{
    sf_clean(c);
    gl.Viewport(0, 0, w, h);
    gl.Disable(GL_SCISSOR_TEST);
    gl.ClearColor(0.1f * (float)(frame % 10), 0.5f, 0.25f, 1.0f);
    gl.Clear(GL_COLOR_BUFFER_BIT);
    gl.Enable(GL_SCISSOR_TEST);
    for (int i = 0; i < 4; i++) {
        gl.Scissor((frame * 7 + i * 13) % w, (i * 11) % h, w / 3 + i, h / 4 + frame % 5);
        gl.ClearColor((float)i / 4.0f, (float)((frame + i) % 3) / 2.0f, 1.0f - (float)i / 4.0f, 0.5f);
        gl.Clear(GL_COLOR_BUFFER_BIT);
    }
    gl.Disable(GL_SCISSOR_TEST);
    GLenum e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x drawing frame %d", e, frame);

    gl.PixelStorei(GL_PACK_ALIGNMENT, 1);
    sf_digest(frame, w, h, GL_RGBA, GL_UNSIGNED_BYTE);
    if (c->bgra)
        sf_digest(frame, w, h, GL_BGRA, GL_UNSIGNED_BYTE);
    GLint f = 0, t = 0;
    if (!c->desktop || c->major > 4 || (c->major == 4 && c->minor >= 1)) {
        gl.GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &f);
        gl.GetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &t);
        if (!(f == GL_RGBA && t == GL_UNSIGNED_BYTE) && !(f == GL_BGRA && t == GL_UNSIGNED_BYTE))
            sf_digest(frame, w, h, (GLenum)f, (GLenum)t);
    }
    gl.PixelStorei(GL_PACK_ALIGNMENT, 4);
    e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x reading frame %d", e, frame);

    sf_dirty(c, frame, w);
    e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x setting the state of frame %d", e, frame);
    sf_state_t before, after;
    sf_snapshot(c, &before);
    swap(arg);
    e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x after the swap of frame %d", e, frame);
    sf_snapshot(c, &after);
    SF_CHECK(before.n == after.n, "state count");
    for (int i = 0; i < before.n; i++)
        SF_CHECK(before.v[i] == after.v[i], "frame %d (variant %d): %s was %d before the swap, %d after", frame,
                 frame % 4, before.name[i], before.v[i], after.v[i]);
    e = gl.GetError();
    SF_CHECK(e == GL_NO_ERROR, "GL error 0x%x after the state check of frame %d", e, frame);
    printf("state ok %d\n", frame);
}

#endif
