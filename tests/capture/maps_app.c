/* maps_app.c -- writes through every kind of buffer mapping (tests/capture/maps.cmake).
 *
 *   maps_app CASE
 *
 * Desktop GL 4.5 core on the EGL surfaceless platform (Mesa llvmpipe), a
 * 64x64 pbuffer.  The program keeps a model of every buffer's bytes (what
 * it wrote), and at each checkpoint reads the buffer back with
 * glGetNamedBufferSubData and compares it with the model (so the trace holds
 * a wip15.digest of the true contents).  After each step it draws the
 * buffer's bytes as RGBA8 texels of a texture buffer and swaps, so a
 * --frame-digests trace lets `wip15 replay --check` compare frames.
 *
 * On success it prints one line on stdout:
 *   maps_app: ok CASE bytes MIN MAX checks N
 * MIN..MAX: how many bytes the trace's wip15BufferWrite pseudo-calls must
 * hold in all (the bytes the program changed through mappings; MIN == MAX
 * when the tracer's rule gives an exact count, see docs/FORMAT.md "Mapped
 * buffers"); N: the number of checkpoints (glGetNamedBufferSubData calls).
 * Fails with "maps_app: FAIL ..." on stderr and exit 1. */
#define _GNU_SOURCE
#define APP_NAME "maps_app"
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

#include "app_common.h"
#include "app_egl.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <errno.h>
#include <aio.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define W 64
#define H 64

static app_egl_t egl;
static GLuint prog, vao, tbo;
static GLint u_base, u_n;
static unsigned checks;
static uint64_t bytes_min, bytes_max;

/* ---------------------------------------------------------------- */
/* Model of buffer contents                                          */

typedef struct {
    GLuint name;
    size_t size;
    uint8_t *model;
} buf_t;

/* A deterministic pattern: byte i of buffer seed s. */
static uint8_t pat(size_t i, unsigned s)
{
    return (uint8_t)((i * 131u + (i >> 8) * 7u + s * 29u) ^ (s << 4));
}

static void buf_init_model(buf_t *b, size_t size, unsigned seed)
{
    b->size = size;
    b->model = malloc(size);
    APP_CHECK(b->model, "out of memory");
    for (size_t i = 0; i < size; i++)
        b->model[i] = pat(i, seed);
}

/* The buffer as GL has it == the model (a checkpoint: the trace gets a
 * digest of the true contents). */
static void checkpoint(const buf_t *b, const char *where)
{
    uint8_t *got = malloc(b->size);
    APP_CHECK(got, "out of memory");
    memset(got, 0xEE, b->size);
    glGetNamedBufferSubData(b->name, 0, (GLsizeiptr)b->size, got);
    if (memcmp(got, b->model, b->size) != 0) {
        size_t i = 0;
        while (got[i] == b->model[i])
            i++;
        app_fail("%s: buffer %u differs from what was written at byte %zu (0x%02x, expected 0x%02x)", where,
                 b->name, i, got[i], b->model[i]);
    }
    free(got);
    checks++;
}

/* Write n bytes at mapping pointer p (offset `off` of the buffer), each
 * different from what the model had: returns how many changed (n). */
static size_t write_span(buf_t *b, uint8_t *map, size_t map_off, size_t off, size_t n, unsigned salt)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t v = (uint8_t)(b->model[off + i] ^ (uint8_t)(0x5A + salt + (i & 0x3F)));
        if (v == b->model[off + i])
            v ^= 0x80;
        map[off + i - map_off] = v;
        b->model[off + i] = v;
    }
    return n;
}

/* Write [off, off+n) with new bytes that may equal the old ones (a whole
 * range rewritten); returns how many differ. */
static size_t fill_span(buf_t *b, uint8_t *map, size_t map_off, size_t off, size_t n, unsigned seed)
{
    size_t changed = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t v = pat(off + i, seed);
        changed += v != b->model[off + i];
        map[off + i - map_off] = v;
        b->model[off + i] = v;
    }
    return changed;
}

static void expect(uint64_t lo, uint64_t hi)
{
    bytes_min += lo;
    bytes_max += hi;
}

/* ---------------------------------------------------------------- */
/* Drawing a buffer's bytes                                          */

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        app_fail("shader: %s", log);
    }
    return s;
}

static void gl_setup(void)
{
    app_egl_open(&egl, EGL_OPENGL_API, 4, 5, W, H);
    static const char *vs = "#version 450 core\n"
                            "layout(location = 0) in vec2 pos;\n"
                            "layout(location = 1) in vec4 col;\n"
                            "uniform int n;\n"
                            "out vec4 vcol;\n"
                            "void main() {\n"
                            "  if (n == 0) { gl_Position = vec4(pos, 0, 1); vcol = col; return; }\n"
                            "  vec2 p[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));\n"
                            "  gl_Position = vec4(p[gl_VertexID], 0, 1); vcol = vec4(0);\n"
                            "}\n";
    static const char *fs = "#version 450 core\n"
                            "uniform samplerBuffer tb;\n"
                            "uniform int base, n;\n"
                            "in vec4 vcol;\n"
                            "out vec4 c;\n"
                            "void main() {\n"
                            "  if (n == 0) { c = vcol; return; }\n"
                            "  int i = int(gl_FragCoord.y) * 64 + int(gl_FragCoord.x);\n"
                            "  c = texelFetch(tb, base + i % n);\n"
                            "}\n";
    prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "link failed");
    glUseProgram(prog);
    u_base = glGetUniformLocation(prog, "base");
    u_n = glGetUniformLocation(prog, "n");
    glUniform1i(glGetUniformLocation(prog, "tb"), 0);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenTextures(1, &tbo);
    glViewport(0, 0, W, H);
}

/* Draw texels [base, base + n) (RGBA8) of buffer b over the window, swap. */
static void show_range(const buf_t *b, size_t base_texel, size_t ntexels)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_BUFFER, tbo);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, b->name);
    glUniform1i(u_base, (GLint)base_texel);
    glUniform1i(u_n, (GLint)ntexels);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    APP_CHECK(eglSwapBuffers(egl.dpy, egl.surf), "eglSwapBuffers failed");
}

static void show(const buf_t *b)
{
    size_t n = b->size / 4;
    show_range(b, 0, n < 65536 ? n : 65536);
}

/* A buffer with the model's bytes: mutable (glBufferData) or immutable
 * with `flags` (glBufferStorage); bound to GL_ARRAY_BUFFER. */
static void make_buffer(buf_t *b, size_t size, unsigned seed, int storage, GLbitfield flags)
{
    buf_init_model(b, size, seed);
    glGenBuffers(1, &b->name);
    glBindBuffer(GL_ARRAY_BUFFER, b->name);
    if (storage)
        glBufferStorage(GL_ARRAY_BUFFER, (GLsizeiptr)size, b->model, flags);
    else
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)size, b->model, GL_DYNAMIC_DRAW);
    APP_CHECK(glGetError() == GL_NO_ERROR, "buffer creation failed");
}

static uint8_t *map_range(GLenum target, size_t off, size_t len, GLbitfield access)
{
    uint8_t *p = glMapBufferRange(target, (GLintptr)off, (GLsizeiptr)len, access);
    APP_CHECK(p, "glMapBufferRange(%zu, %zu, 0x%x) failed (0x%x)", off, len, access, glGetError());
    return p;
}

static void unmap(GLenum target)
{
    APP_CHECK(glUnmapBuffer(target), "glUnmapBuffer returned false");
}

/* ---------------------------------------------------------------- */
/* Cases                                                             */

/* glMapBuffer (WRITE_ONLY, then READ_WRITE) and glUnmapBuffer: the bytes
 * that changed, exactly. */
static void case_map_buffer(void)
{
    buf_t b;
    make_buffer(&b, 65536, 1, 0, 0);
    uint8_t *p = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
    APP_CHECK(p, "glMapBuffer failed");
    size_t n = write_span(&b, p, 0, 1000, 100, 1);
    n += write_span(&b, p, 0, 30000, 100, 2);
    n += write_span(&b, p, 0, 65436, 100, 3);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&b, "WRITE_ONLY");
    show(&b);
    p = glMapBuffer(GL_ARRAY_BUFFER, GL_READ_WRITE);
    APP_CHECK(p, "glMapBuffer(READ_WRITE) failed");
    APP_CHECK(memcmp(p, b.model, b.size) == 0, "the READ_WRITE mapping does not show the buffer");
    n = write_span(&b, p, 0, 5, 10, 4);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&b, "READ_WRITE");
    show(&b);
}

/* glMapBufferRange with the write bit, not page aligned: changed bytes. */
static void case_range_write(void)
{
    buf_t b;
    make_buffer(&b, 65536, 2, 0, 0);
    size_t off = 4096 + 17, len = 8000;
    uint8_t *p = map_range(GL_ARRAY_BUFFER, off, len, GL_MAP_WRITE_BIT);
    size_t n = write_span(&b, p, off, off, 50, 1);
    n += write_span(&b, p, off, off + len - 50, 50, 2);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&b, "write");
    show(&b);
    p = map_range(GL_ARRAY_BUFFER, 40000, 2000, GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
    APP_CHECK(memcmp(p, b.model + 40000, 2000) == 0, "the read/write mapping does not show the buffer");
    n = write_span(&b, p, 40000, 41000, 1, 3);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&b, "read-write");
    show(&b);
}

/* GL_MAP_INVALIDATE_RANGE_BIT / _BUFFER_BIT: the whole range. */
static void case_range_invalidate(void)
{
    buf_t b;
    make_buffer(&b, 65536, 3, 0, 0);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 100, 5000, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
    fill_span(&b, p, 100, 100, 5000, 7);
    unmap(GL_ARRAY_BUFFER);
    expect(5000, 5000);
    checkpoint(&b, "invalidate range");
    show(&b);
    p = map_range(GL_ARRAY_BUFFER, 0, 3000, GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    /* the rest of the buffer is undefined now: the model keeps the old
     * bytes, which llvmpipe keeps too; the checkpoint covers [0, 3000) */
    fill_span(&b, p, 0, 0, 3000, 8);
    unmap(GL_ARRAY_BUFFER);
    expect(3000, 3000);
    buf_t head = b;
    head.size = 3000;
    checkpoint(&head, "invalidate buffer");
}

/* GL_MAP_UNSYNCHRONIZED_BIT, after a draw read the buffer. */
static void case_range_unsync(void)
{
    buf_t b;
    make_buffer(&b, 65536, 4, 0, 0);
    show(&b);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 60000, 64, GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
    size_t n = write_span(&b, p, 60000, 60000, 64, 1);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    show(&b);
    p = map_range(GL_ARRAY_BUFFER, 1024, 512,
                  GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
    fill_span(&b, p, 1024, 1024, 512, 9);
    unmap(GL_ARRAY_BUFFER);
    expect(512, 512);
    checkpoint(&b, "unsynchronized");
    show(&b);
}

/* GL_MAP_FLUSH_EXPLICIT_BIT: each flushed range as it is. */
static void case_flush_explicit(void)
{
    buf_t b;
    make_buffer(&b, 65536, 5, 0, 0);
    size_t off = 2048, len = 16384;
    uint8_t *p = map_range(GL_ARRAY_BUFFER, off, len, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
    write_span(&b, p, off, off, 100, 1);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 100);
    write_span(&b, p, off, off + 5000, 300, 2);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 5000, 300);
    write_span(&b, p, off, off + 16000, 384, 3);
    write_span(&b, p, off, off + 16010, 10, 4); /* written twice, flushed once */
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 16000, 384);
    unmap(GL_ARRAY_BUFFER);
    expect(100 + 300 + 384, 100 + 300 + 384);
    checkpoint(&b, "flush explicit");
    show(&b);
    /* invalidating and flushing explicitly: still only what was flushed */
    p = map_range(GL_ARRAY_BUFFER, 0, 4096,
                  GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT | GL_MAP_INVALIDATE_RANGE_BIT);
    fill_span(&b, p, 0, 0, 4096, 11);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 0, 2048);
    glFlushMappedBufferRange(GL_ARRAY_BUFFER, 2048, 2048);
    unmap(GL_ARRAY_BUFFER);
    expect(4096, 4096);
    checkpoint(&b, "flush explicit, invalidated");
    show(&b);
}

/* A persistent mapping written between draws: the changed bytes before
 * each consuming call.  flags: the storage and map flags beyond
 * WRITE|PERSISTENT; flush: the program flushes (explicit) or barriers. */
static void persistent_rounds(GLbitfield sflags, GLbitfield mflags, int how)
{
    buf_t b;
    size_t size = 65536;
    make_buffer(&b, size, 6, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | sflags);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | mflags);
    for (unsigned r = 0; r < 6; r++) {
        size_t n = 0;
        /* spans far apart (the tracer merges spans closer than 32 bytes) */
        size_t o1 = (r * 4099) % 20000, o2 = 25000 + (r * 12289) % 20000;
        n += write_span(&b, p, 0, o1, 200, r);
        n += write_span(&b, p, 0, o2, 3, r + 1);
        if (r == 3)
            n += write_span(&b, p, 0, 49152, 4096 * 3, r + 2); /* whole pages */
        expect(n, n);
        if (how == 1) {
            glFlushMappedBufferRange(GL_ARRAY_BUFFER, (GLintptr)o1, 200);
            glFlushMappedBufferRange(GL_ARRAY_BUFFER, (GLintptr)o2, 3);
            if (r == 3)
                glFlushMappedBufferRange(GL_ARRAY_BUFFER, 49152, 4096 * 3);
        } else if (how == 2) {
            glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        }
        show(&b);
        checkpoint(&b, "persistent");
    }
    /* written, then unmapped: captured at the unmap */
    size_t n = write_span(&b, p, 0, 33333, 33, 9);
    expect(n, n);
    if (how == 1)
        glFlushMappedBufferRange(GL_ARRAY_BUFFER, 33333, 33);
    unmap(GL_ARRAY_BUFFER);
    checkpoint(&b, "persistent, unmapped");
    show(&b);
}

static void case_persistent_coherent(void)
{
    persistent_rounds(GL_MAP_COHERENT_BIT, GL_MAP_COHERENT_BIT, 0);
}

static void case_persistent_barrier(void)
{
    persistent_rounds(0, 0, 2);
}

static void case_persistent_flush(void)
{
    persistent_rounds(0, GL_MAP_FLUSH_EXPLICIT_BIT, 1);
}

static void case_coherent_flush(void)
{
    persistent_rounds(GL_MAP_COHERENT_BIT, GL_MAP_COHERENT_BIT | GL_MAP_FLUSH_EXPLICIT_BIT, 1);
}

static void case_client_storage(void)
{
    persistent_rounds(GL_MAP_COHERENT_BIT | GL_CLIENT_STORAGE_BIT | GL_DYNAMIC_STORAGE_BIT, GL_MAP_COHERENT_BIT,
                      0);
}

/* The DSA entry points: glMapNamedBuffer, glMapNamedBufferRange,
 * glFlushMappedNamedBufferRange, glUnmapNamedBuffer. */
static void case_dsa(void)
{
    buf_t a, b, c;
    buf_init_model(&a, 65536, 10);
    glCreateBuffers(1, &a.name);
    glNamedBufferData(a.name, (GLsizeiptr)a.size, a.model, GL_DYNAMIC_DRAW);
    uint8_t *p = glMapNamedBuffer(a.name, GL_WRITE_ONLY);
    APP_CHECK(p, "glMapNamedBuffer failed");
    size_t n = write_span(&a, p, 0, 12345, 77, 1);
    APP_CHECK(glUnmapNamedBuffer(a.name), "glUnmapNamedBuffer failed");
    expect(n, n);
    checkpoint(&a, "glMapNamedBuffer");
    show(&a);

    buf_init_model(&b, 65536, 11);
    glCreateBuffers(1, &b.name);
    glNamedBufferStorage(b.name, (GLsizeiptr)b.size, b.model,
                         GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    p = glMapNamedBufferRange(b.name, 4096, 32768, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    APP_CHECK(p, "glMapNamedBufferRange failed");
    for (unsigned r = 0; r < 3; r++) {
        n = write_span(&b, p, 4096, 4096 + r * 9000, 500, r);
        expect(n, n);
        show(&b);
        checkpoint(&b, "glMapNamedBufferRange persistent");
    }
    APP_CHECK(glUnmapNamedBuffer(b.name), "glUnmapNamedBuffer failed");

    buf_init_model(&c, 65536, 12);
    glCreateBuffers(1, &c.name);
    glNamedBufferData(c.name, (GLsizeiptr)c.size, c.model, GL_DYNAMIC_DRAW);
    p = glMapNamedBufferRange(c.name, 1000, 20000, GL_MAP_WRITE_BIT | GL_MAP_FLUSH_EXPLICIT_BIT);
    APP_CHECK(p, "glMapNamedBufferRange failed");
    write_span(&c, p, 1000, 1000, 64, 1);
    write_span(&c, p, 1000, 11000, 64, 2);
    glFlushMappedNamedBufferRange(c.name, 0, 64);
    glFlushMappedNamedBufferRange(c.name, 10000, 64);
    APP_CHECK(glUnmapNamedBuffer(c.name), "glUnmapNamedBuffer failed");
    expect(128, 128);
    checkpoint(&c, "glFlushMappedNamedBufferRange");
    show(&c);
}

/* Read-only maps: the program reads, nothing is recorded. */
static void case_read_only(void)
{
    buf_t a, b;
    make_buffer(&a, 65536, 13, 0, 0);
    const uint8_t *p = glMapBuffer(GL_ARRAY_BUFFER, GL_READ_ONLY);
    APP_CHECK(p && memcmp(p, a.model, a.size) == 0, "glMapBuffer(READ_ONLY) does not show the buffer");
    unmap(GL_ARRAY_BUFFER);
    p = map_range(GL_ARRAY_BUFFER, 100, 1000, GL_MAP_READ_BIT);
    APP_CHECK(memcmp(p, a.model + 100, 1000) == 0, "a read mapping does not show the buffer");
    unmap(GL_ARRAY_BUFFER);
    checkpoint(&a, "read-only");
    show(&a);
    make_buffer(&b, 65536, 14, 1, GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    for (int r = 0; r < 3; r++) {
        show(&b);
        APP_CHECK(memcmp(p, b.model, b.size) == 0, "a persistent read mapping does not show the buffer");
    }
    checkpoint(&b, "read-only persistent");
    unmap(GL_ARRAY_BUFFER);
    expect(0, 0);
}

/* A streaming ring: two halves of a persistent vertex buffer; the program
 * writes one half while the GPU draws from the other, a fence per half.
 * how: 0 coherent, 1 explicit flushes, 2 not coherent with a barrier. */
#define RING_HALF 16384
#define RING_VERTS (RING_HALF / 16)
static void ring(GLbitfield flags, int how)
{
    buf_t b;
    make_buffer(&b, 2 * RING_HALF, 15, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | (flags & GL_MAP_COHERENT_BIT));
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | flags);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    GLsync fence[2] = { 0, 0 };
    uint64_t changed = 0, written = 0;
    glUniform1i(u_n, 0);
    for (unsigned it = 0; it < 16; it++) {
        unsigned h = it & 1;
        if (fence[h]) {
            GLenum r = glClientWaitSync(fence[h], GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
            APP_CHECK(r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED, "fence wait failed");
            glDeleteSync(fence[h]);
        }
        /* 1024 vertices: 341 small triangles in a 31x11 grid, colour by it */
        uint8_t v[RING_HALF];
        for (unsigned k = 0; k < RING_VERTS; k++) {
            unsigned tri = k / 3, corner = k % 3;
            float x = -1.0f + (float)(tri % 31) * (2.0f / 31), y = -1.0f + (float)(tri / 31) * (2.0f / 11);
            if (corner == 1)
                x += 2.0f / 31;
            if (corner == 2)
                y += 2.0f / 11;
            float xy[2] = { x + (float)it * 0.001f, y };
            uint8_t col[4] = { (uint8_t)(it * 16), (uint8_t)(tri * 3 + it), (uint8_t)(255 - it * 8), 255 };
            memcpy(v + k * 16, xy, 8);
            memcpy(v + k * 16 + 8, col, 4);
            memset(v + k * 16 + 12, (int)(it + 1), 4); /* padding written too */
        }
        size_t base = h * RING_HALF;
        for (size_t i = 0; i < RING_HALF; i++) {
            changed += v[i] != b.model[base + i];
            p[base + i] = v[i];
            b.model[base + i] = v[i];
        }
        written += RING_HALF;
        if (how == 1)
            glFlushMappedBufferRange(GL_ARRAY_BUFFER, (GLintptr)base, RING_HALF);
        else if (how == 2)
            glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, (void *)base);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 16, (void *)(base + 8));
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, RING_VERTS - 1);
        fence[h] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        APP_CHECK(eglSwapBuffers(egl.dpy, egl.surf), "eglSwapBuffers failed");
    }
    for (int h = 0; h < 2; h++) {
        glClientWaitSync(fence[h], GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
        glDeleteSync(fence[h]);
    }
    glDisableVertexAttribArray(0);
    glDisableVertexAttribArray(1);
    expect(changed, written);
    checkpoint(&b, "ring");
    unmap(GL_ARRAY_BUFFER);
}

static void case_ring_coherent(void) { ring(GL_MAP_COHERENT_BIT, 0); }
static void case_ring_flush(void) { ring(GL_MAP_FLUSH_EXPLICIT_BIT, 1); }
static void case_ring_barrier(void) { ring(0, 2); }

/* The program's own SIGSEGV handler keeps working: its faults reach it
 * (and only its faults: not the writes to mappings), it can siglongjmp
 * out, and sigaction reports it as installed. */
static volatile sig_atomic_t app_faults;
static uint8_t *app_page;
static sigjmp_buf app_jmp;
static volatile int app_jump;

static void app_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    app_faults++;
    if (app_jump)
        siglongjmp(app_jmp, 1);
    if ((uint8_t *)si->si_addr >= app_page && (uint8_t *)si->si_addr < app_page + 4096)
        mprotect(app_page, 4096, PROT_READ | PROT_WRITE);
    else
        _exit(99);
}

static void case_sighandler(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    APP_CHECK(pg == 4096, "page size %ld", pg);
    app_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    APP_CHECK(app_page != MAP_FAILED, "mmap failed");
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = app_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    APP_CHECK(sigaction(SIGSEGV, &sa, NULL) == 0, "sigaction failed");
    buf_t b;
    make_buffer(&b, 65536, 16, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    APP_CHECK(sigaction(SIGSEGV, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO) && old.sa_sigaction == app_segv,
              "sigaction does not report the program's handler");
    unsigned expected_faults = 0;
    for (unsigned r = 0; r < 4; r++) {
        size_t n = write_span(&b, p, 0, r * 8192 + 100, 64, r);
        /* the program's own fault: its handler makes the page writable */
        mprotect(app_page, 4096, PROT_READ);
        app_page[r * 8] = (uint8_t)r;
        expected_faults++;
        n += write_span(&b, p, 0, r * 8192 + 5000, 64, r + 1);
        expect(n, n);
        show(&b);
        checkpoint(&b, "with the program's handler");
        APP_CHECK(app_faults == (sig_atomic_t)expected_faults, "the program's handler ran %d times, expected %u",
                  (int)app_faults, expected_faults);
    }
    /* a fault the handler leaves by siglongjmp, then writes go on */
    app_jump = 1;
    if (sigsetjmp(app_jmp, 1) == 0) {
        static volatile uintptr_t bad_addr = 16;
        volatile uint8_t *bad = (volatile uint8_t *)bad_addr;
        *bad = 1;
        app_fail("no fault");
    }
    app_jump = 0;
    expected_faults++;
    APP_CHECK(app_faults == (sig_atomic_t)expected_faults, "siglongjmp case: handler ran %d times",
              (int)app_faults);
    size_t n = write_span(&b, p, 0, 60000, 64, 9);
    expect(n, n);
    show(&b);
    checkpoint(&b, "after siglongjmp");
    APP_CHECK(app_faults == (sig_atomic_t)expected_faults, "the handler saw the mapping's writes");
    /* the program replaces its handler by signal(): still its own */
    signal(SIGSEGV, SIG_DFL);
    n = write_span(&b, p, 0, 20000, 64, 10);
    expect(n, n);
    show(&b);
    checkpoint(&b, "handler back to SIG_DFL");
    unmap(GL_ARRAY_BUFFER);
    munmap(app_page, 4096);
}

/* A program that reads its mappings sees the bytes it wrote (and the
 * buffer's bytes), persistent or not. */
static void case_read_mapping(void)
{
    buf_t b;
    make_buffer(&b, 65536, 17, 1,
                GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size,
                           GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    APP_CHECK(memcmp(p, b.model, b.size) == 0, "the persistent mapping does not show the buffer");
    for (unsigned r = 0; r < 4; r++) {
        size_t n = write_span(&b, p, 0, r * 10000 + 7, 300, r);
        APP_CHECK(memcmp(p, b.model, b.size) == 0, "round %u: the mapping does not show what was written", r);
        show(&b);
        APP_CHECK(memcmp(p, b.model, b.size) == 0, "round %u: the mapping changed by a draw", r);
        /* read-modify-write of one byte per page */
        for (size_t o = 4000; o < b.size; o += 4096) {
            p[o] = (uint8_t)(p[o] + 1);
            b.model[o] = (uint8_t)(b.model[o] + 1);
            n++;
        }
        expect(n, n);
        checkpoint(&b, "read mapping");
    }
    unmap(GL_ARRAY_BUFFER);
    buf_t c;
    make_buffer(&c, 8192, 18, 0, 0);
    p = map_range(GL_ARRAY_BUFFER, 0, c.size, GL_MAP_READ_BIT | GL_MAP_WRITE_BIT);
    APP_CHECK(memcmp(p, c.model, c.size) == 0, "a read/write mapping does not show the buffer");
    size_t n = write_span(&c, p, 0, 100, 10, 1);
    APP_CHECK(memcmp(p, c.model, c.size) == 0, "a read/write mapping does not show what was written");
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&c, "read/write mapping");
    show(&c);
}

/* Other threads write into a persistent mapping (their own faults), some
 * with every signal blocked. */
typedef struct {
    buf_t *b;
    uint8_t *p;
    size_t n;
    unsigned r;
} wjob_t;

static void *writer(void *arg)
{
    wjob_t *j = arg;
    j->n = 0;
    if (j->r & 1) {
        /* a worker that blocks every signal (common: signals go to the
         * main thread); writes to a mapping never fault natively */
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, NULL);
    }
    for (size_t o = 100 + j->r * 16; o + 16 < j->b->size; o += 4096 * 3)
        j->n += write_span(j->b, j->p, 0, o, 16, j->r);
    return NULL;
}

static void case_threads(void)
{
    buf_t b;
    make_buffer(&b, 262144, 19, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    for (unsigned r = 0; r < 4; r++) {
        wjob_t j = { &b, p, 0, r };
        pthread_t th;
        APP_CHECK(pthread_create(&th, NULL, writer, &j) == 0, "pthread_create failed");
        pthread_join(th, NULL);
        expect(j.n, j.n);
        show(&b);
        checkpoint(&b, "written by another thread");
    }
    unmap(GL_ARRAY_BUFFER);
}

/* A large mapping (more than the tracer's 256 KiB scratch), not page
 * aligned at either end, written on its partial first and last pages and
 * scattered in between. */
static void case_large(void)
{
    buf_t b;
    size_t size = (1u << 20) + 100;
    make_buffer(&b, size, 20, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    size_t off = 1000, len = 700000;
    uint8_t *p = map_range(GL_ARRAY_BUFFER, off, len, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    for (unsigned r = 0; r < 3; r++) {
        size_t n = write_span(&b, p, off, off + r, 5, r);           /* first bytes */
        n += write_span(&b, p, off, off + len - 5 - r, 5, r);        /* last bytes */
        for (size_t o = off + 3000 + r * 100; o + 100 < off + len; o += 50000)
            if (r != 1 || o + 40 + 32 < off + 300000 || o > off + 600000 + 32)
                n += write_span(&b, p, off, o, 40, r);
        if (r == 1)
            n += write_span(&b, p, off, off + 300000, 300000, r);     /* more than the scratch */
        expect(n, n);
        show(&b);
        checkpoint(&b, "large");
    }
    unmap(GL_ARRAY_BUFFER);
    /* glMapBuffer of a buffer larger than the scratch */
    buf_t c;
    make_buffer(&c, 600000, 21, 0, 0);
    p = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
    APP_CHECK(p, "glMapBuffer failed");
    size_t n = write_span(&c, p, 0, 299990, 20, 1); /* across the scratch's end */
    n += write_span(&c, p, 0, 599000, 1000, 2);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&c, "large glMapBuffer");
}

/* Mappings that end without an unmap: glBufferData on a mapped buffer,
 * glDeleteBuffers of a persistently mapped one; then new mappings. */
static void case_implicit_end(void)
{
    buf_t b;
    make_buffer(&b, 65536, 22, 0, 0);
    uint8_t *p = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
    APP_CHECK(p, "glMapBuffer failed");
    p[10] = 1; /* lost: the data store is replaced */
    buf_init_model(&b, 65536, 23);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)b.size, b.model, GL_DYNAMIC_DRAW);
    p = glMapBuffer(GL_ARRAY_BUFFER, GL_WRITE_ONLY);
    APP_CHECK(p, "glMapBuffer after glBufferData failed");
    size_t n = write_span(&b, p, 0, 20, 20, 1);
    unmap(GL_ARRAY_BUFFER);
    expect(n, n);
    checkpoint(&b, "after glBufferData");
    show(&b);
    for (unsigned r = 0; r < 3; r++) {
        buf_t c;
        make_buffer(&c, 65536, 24 + r, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
        p = map_range(GL_ARRAY_BUFFER, 0, c.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
        n = write_span(&c, p, 0, 100 + r, 30, r);
        expect(n, n);
        show(&c);
        checkpoint(&c, "persistent, then deleted");
        p[5000] ^= 1; /* lost: deleted while mapped */
        glDeleteBuffers(1, &c.name);
        free(c.model);
        /* memory the driver frees and reuses must stay writable */
        uint8_t *m = malloc(1 << 20);
        APP_CHECK(m, "out of memory");
        memset(m, 1, 1 << 20);
        free(m);
    }
}

/* The GPU writes into a persistent mapping (a compute shader's storage
 * buffer: llvmpipe's threads, which block every signal, write the pages)
 * and the program reads the results through the mapping, then writes. */
static void case_gpu_writes(void)
{
    static const char *cs = "#version 450 core\n"
                            "layout(local_size_x = 64) in;\n"
                            "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                            "uniform uint salt;\n"
                            "void main() { v[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u + salt; }\n";
    GLuint cprog = glCreateProgram();
    glAttachShader(cprog, shader(GL_COMPUTE_SHADER, cs));
    glLinkProgram(cprog);
    GLint ok = 0;
    glGetProgramiv(cprog, GL_LINK_STATUS, &ok);
    APP_CHECK(ok, "compute link failed");
    buf_t b;
    GLbitfield fl = GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    make_buffer(&b, 65536, 30, 1, fl);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, fl);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, b.name);
    for (unsigned r = 0; r < 3; r++) {
        size_t n = write_span(&b, p, 0, 1000 + r * 64, 16, r); /* overwritten by the GPU */
        glUseProgram(cprog);
        glUniform1ui(glGetUniformLocation(cprog, "salt"), 7 + r);
        glDispatchCompute(16384 / 64, 1, 1);
        glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        GLsync f = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        GLenum w = glClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, 5000000000ull);
        APP_CHECK(w == GL_ALREADY_SIGNALED || w == GL_CONDITION_SATISFIED, "fence wait failed");
        glDeleteSync(f);
        for (uint32_t i = 0; i < 16384; i++) {
            uint32_t v = i * 3u + 7 + r, got;
            memcpy(&got, p + 4 * i, 4);
            APP_CHECK(got == v, "round %u: the mapping shows %u at %u, the shader wrote %u", r, got, i, v);
            memcpy(b.model + 4 * i, &v, 4);
        }
        n += write_span(&b, p, 0, 30000 + r * 5000, 100, r);
        glUseProgram(prog);
        show(&b);
        checkpoint(&b, "written by the GPU, then by the program");
        /* the GPU's bytes may be recorded too (they are the buffer's) */
        expect(100, n + 65536);
    }
    unmap(GL_ARRAY_BUFFER);
}

/* Pages written again and again (the tracer leaves such pages writable
 * and compares them at every capture), pages that stop changing and are
 * written again much later, more such pages than the tracer keeps
 * writable, and writes in the middle of a run of captures. */
static void case_hot(void)
{
    buf_t b;
    size_t size = 1u << 20;
    make_buffer(&b, size, 32, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    for (unsigned r = 0; r < 120; r++) {
        size_t n = write_span(&b, p, 0, 3 * 4096 + 100, 8, r);         /* every round */
        if (r % 45 == 0)
            n += write_span(&b, p, 0, 7 * 4096 + 200, 8, r);           /* now and then */
        if (r >= 20 && r < 40) {
            for (size_t pg = 16; pg < 16 + 200; pg++)                   /* 200 pages a round */
                n += write_span(&b, p, 0, pg * 4096 + (r * 13) % 4000, 4, r);
        }
        expect(n, n);
        glFlush(); /* captures in a row with nothing written */
        glFlush();
        n = write_span(&b, p, 0, 9 * 4096 + r, 1, r);
        expect(n, n);
        show(&b);
        if (r % 10 == 9)
            checkpoint(&b, "hot pages");
    }
    unmap(GL_ARRAY_BUFFER);
    checkpoint(&b, "hot pages, unmapped");
}

/* Two contexts of one share group in two threads: the main thread writes
 * through a persistent mapping and through ordinary maps, the other thread
 * consumes (reads the buffers back); the writes must be recorded before
 * the other thread's calls, in its stream. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int turn; /* 1: the reader's turn, 0: the writer's, -1: stop */
    EGLContext ctx;
    buf_t *b[2];
} sh = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, { NULL, NULL } };

static void *shared_reader(void *arg)
{
    (void)arg;
    APP_CHECK(eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, sh.ctx), "eglMakeCurrent (reader) failed");
    for (;;) {
        pthread_mutex_lock(&sh.mu);
        while (sh.turn == 0)
            pthread_cond_wait(&sh.cv, &sh.mu);
        int stop = sh.turn < 0;
        pthread_mutex_unlock(&sh.mu);
        if (stop)
            break;
        checkpoint(sh.b[0], "read by the other context");
        checkpoint(sh.b[1], "read by the other context");
        glFinish();
        pthread_mutex_lock(&sh.mu);
        sh.turn = 0;
        pthread_cond_broadcast(&sh.cv);
        pthread_mutex_unlock(&sh.mu);
    }
    eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void shared_turn(int t)
{
    pthread_mutex_lock(&sh.mu);
    sh.turn = t;
    pthread_cond_broadcast(&sh.cv);
    while (t > 0 && sh.turn != 0)
        pthread_cond_wait(&sh.cv, &sh.mu);
    pthread_mutex_unlock(&sh.mu);
}

static void case_shared(void)
{
    const EGLint xattrs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
    };
    sh.ctx = eglCreateContext(egl.dpy, egl.cfg, egl.ctx, xattrs);
    APP_CHECK(sh.ctx != EGL_NO_CONTEXT, "shared eglCreateContext failed (0x%x)", eglGetError());
    buf_t a, b;
    make_buffer(&a, 65536, 33, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, a.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    make_buffer(&b, 65536, 34, 0, 0);
    glFinish();
    sh.b[0] = &a;
    sh.b[1] = &b;
    pthread_t th;
    APP_CHECK(pthread_create(&th, NULL, shared_reader, NULL) == 0, "pthread_create failed");
    for (unsigned r = 0; r < 4; r++) {
        glBindBuffer(GL_ARRAY_BUFFER, b.name);
        uint8_t *q = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT);
        size_t n = write_span(&b, q, 0, 3000 + r * 7000, 50, r);
        unmap(GL_ARRAY_BUFFER);
        glFlush(); /* the other context sees the unmap */
        /* no consuming call of this thread after these: captured by the
         * other thread's first call that reads the buffer */
        n += write_span(&a, p, 0, 1000 + r * 5000, 100, r);
        expect(n, n);
        shared_turn(1);
    }
    shared_turn(-1);
    pthread_join(th, NULL);
    show(&a);
    checkpoint(&a, "back in the first context");
    glBindBuffer(GL_ARRAY_BUFFER, a.name);
    unmap(GL_ARRAY_BUFFER);
    eglDestroyContext(egl.dpy, sh.ctx);
}

/* An unlinked temporary file holding file[0..n), file[i] = i * mul + add
 * (filled here): its descriptor. */
static int pattern_file(uint8_t *file, size_t n, unsigned mul, unsigned add)
{
    char path[] = "/tmp/w15maps-XXXXXX";
    int fd = mkstemp(path);
    APP_CHECK(fd >= 0, "mkstemp failed");
    unlink(path);
    for (size_t i = 0; i < n; i++)
        file[i] = (uint8_t)(i * mul + add);
    APP_CHECK(write(fd, file, n) == (ssize_t)n, "write to the file failed");
    return fd;
}

/* The kernel writes into a persistent mapping: read() from a pipe,
 * pread() from a file, readv() into two places (natively these never
 * fail; a write-protected page would make them fail with EFAULT). */
static void case_syscall_read(void)
{
    buf_t b;
    make_buffer(&b, 65536, 35, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t src[20000];
    int fd = pattern_file(src, sizeof src, 7, 3);
    for (unsigned r = 0; r < 3; r++) {
        int pp[2];
        APP_CHECK(pipe(pp) == 0, "pipe failed");
        size_t n = 0, off = 1000 + r * 3000, len = 5000 + r * 1000; /* across pages */
        for (size_t i = 0; i < len; i++)
            src[i] = (uint8_t)(b.model[off + i] ^ (0x55 + r));
        APP_CHECK(write(pp[1], src, len) == (ssize_t)len, "write to the pipe failed");
        size_t got = 0;
        while (got < len) {
            ssize_t k = read(pp[0], p + off + got, len - got);
            APP_CHECK(k > 0, "read into the mapping failed (%s)", strerror(errno));
            got += (size_t)k;
        }
        memcpy(b.model + off, src, len);
        n += len;
        close(pp[0]);
        close(pp[1]);
        /* pread of the file's bytes [100, 4196) into page-aligned memory */
        ssize_t k = pread(fd, p + 40960 + r * 4096, 4096, 100 + r);
        APP_CHECK(k == 4096, "pread into the mapping failed (%s)", strerror(errno));
        for (size_t i = 0; i < 4096; i++) {
            uint8_t v = (uint8_t)((100 + r + i) * 7 + 3);
            n += b.model[40960 + r * 4096 + i] != v;
            b.model[40960 + r * 4096 + i] = v;
        }
        /* readv into two places */
        APP_CHECK(pipe(pp) == 0, "pipe failed");
        uint8_t two[64];
        for (size_t i = 0; i < 64; i++)
            two[i] = (uint8_t)(b.model[(i < 32 ? 30000 : 60000 - 32) + i] ^ 0xA5);
        APP_CHECK(write(pp[1], two, 64) == 64, "write to the pipe failed");
        struct iovec iov[2] = { { p + 30000, 32 }, { p + 60000, 32 } };
        APP_CHECK(readv(pp[0], iov, 2) == 64, "readv into the mapping failed (%s)", strerror(errno));
        memcpy(b.model + 30000, two, 32);
        memcpy(b.model + 60000, two + 32, 32);
        n += 64;
        close(pp[0]);
        close(pp[1]);
        expect(n, n + 4096 + 64); /* equal bytes inside a span count too */
        show(&b);
        checkpoint(&b, "read by the kernel");
    }
    close(fd);
    unmap(GL_ARRAY_BUFFER);
}

/* Bytes of the mapping p that differ from b's model in [off, off + len):
 * taken into the model (what a system call wrote there). */
static size_t take(buf_t *b, const uint8_t *p, size_t off, size_t len)
{
    size_t n = 0;
    for (size_t i = off; i < off + len; i++) {
        n += b->model[i] != p[i];
        b->model[i] = p[i];
    }
    return n;
}

/* A connected pair of AF_UNIX sockets, `type` SOCK_STREAM or _DGRAM. */
static void sock_pair(int type, int sv[2])
{
    APP_CHECK(socketpair(AF_UNIX, type, 0, sv) == 0, "socketpair failed (%s)", strerror(errno));
}

/* `len` bytes that differ from the model at off, r's own pattern. */
static void fill(const buf_t *b, uint8_t *dst, size_t off, size_t len, unsigned r)
{
    for (size_t i = 0; i < len; i++)
        dst[i] = (uint8_t)(b->model[off + i] ^ (0x3C + r));
}

/* More system calls that write into a persistent mapping (a
 * write-protected page would make each fail with EFAULT): recv, recvfrom
 * (with the sender's address written into the mapping too), recvmsg
 * (scattered, address in the mapping), recvmmsg, preadv, preadv2, fread
 * unbuffered (the read goes straight into the mapping), aio_read and
 * lio_listio (written by glibc's helper thread after the call returns). */
static void case_syscall_more(void)
{
    buf_t b;
    make_buffer(&b, 65536, 37, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    static uint8_t file[65536];
    int fd = pattern_file(file, sizeof file, 11, 5);
    static uint8_t src[8192];
    for (unsigned r = 0; r < 3; r++) {
        size_t n = 0;
        int sv[2];
        /* recv: 6000 bytes across pages */
        size_t off = 1000 + r * 100, len = 6000;
        fill(&b, src, off, len, r);
        sock_pair(SOCK_STREAM, sv);
        APP_CHECK(write(sv[1], src, len) == (ssize_t)len, "write to the socket failed");
        for (size_t got = 0; got < len;) {
            ssize_t k = recv(sv[0], p + off + got, len - got, 0);
            APP_CHECK(k > 0, "recv into the mapping failed (%s)", strerror(errno));
            got += (size_t)k;
        }
        n += take(&b, p, off, len);
        close(sv[0]);
        close(sv[1]);
        /* recvfrom a datagram, the address and its length into the mapping */
        off = 9000 + r * 64, len = 300;
        fill(&b, src, off, len, r);
        sock_pair(SOCK_DGRAM, sv);
        APP_CHECK(write(sv[1], src, len) == (ssize_t)len, "write to the socket failed");
        socklen_t *alen = (socklen_t *)(void *)(p + 12288 + r * 64);
        *alen = 16;
        ssize_t k = recvfrom(sv[0], p + off, len, 0, (struct sockaddr *)(void *)(p + 12300 + r * 64), alen);
        APP_CHECK(k == (ssize_t)len, "recvfrom into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, off, len) + take(&b, p, 12288 + r * 64, 30);
        /* recvmsg: two places, the address in the mapping */
        fill(&b, src, 20000, 40, r);
        fill(&b, src + 40, 24000, 40, r);
        APP_CHECK(write(sv[1], src, 80) == 80, "write to the socket failed");
        struct iovec iov[2] = { { p + 20000, 40 }, { p + 24000, 40 } };
        struct msghdr mh = { .msg_name = p + 24500, .msg_namelen = 16, .msg_iov = iov, .msg_iovlen = 2 };
        k = recvmsg(sv[0], &mh, 0);
        APP_CHECK(k == 80, "recvmsg into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, 20000, 40) + take(&b, p, 24000, 40) + take(&b, p, 24500, 16);
        /* recvmmsg: two datagrams */
        fill(&b, src, 28000, 100, r);
        fill(&b, src + 100, 32768, 100, r);
        APP_CHECK(write(sv[1], src, 100) == 100 && write(sv[1], src + 100, 100) == 100,
                  "write to the socket failed");
        struct iovec iv[2] = { { p + 28000, 100 }, { p + 32768, 100 } };
        struct mmsghdr mm[2] = { { .msg_hdr = { .msg_iov = &iv[0], .msg_iovlen = 1 } },
                                 { .msg_hdr = { .msg_iov = &iv[1], .msg_iovlen = 1 } } };
        APP_CHECK(recvmmsg(sv[0], mm, 2, 0, NULL) == 2, "recvmmsg into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, 28000, 100) + take(&b, p, 32768, 100);
        close(sv[0]);
        close(sv[1]);
        /* preadv and preadv2: file bytes into two places each */
        struct iovec pv[2] = { { p + 36000, 3000 }, { p + 40960, 100 } };
        APP_CHECK(preadv(fd, pv, 2, 7 + r) == 3100, "preadv into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, 36000, 3000) + take(&b, p, 40960, 100);
        struct iovec pv2[2] = { { p + 41200, 2000 }, { p + 44000, 50 } };
        APP_CHECK(preadv2(fd, pv2, 2, 300 + r, 0) == 2050, "preadv2 into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, 41200, 2000) + take(&b, p, 44000, 50);
        /* fread, unbuffered: read(2) straight into the mapping */
        FILE *f = fdopen(dup(fd), "rb");
        APP_CHECK(f, "fdopen failed");
        setvbuf(f, NULL, _IONBF, 0);
        APP_CHECK(fseek(f, 1000 + r, SEEK_SET) == 0, "fseek failed");
        APP_CHECK(fread(p + 45000, 1, 5000, f) == 5000, "fread into the mapping failed (%s)", strerror(errno));
        fclose(f);
        n += take(&b, p, 45000, 5000);
        /* aio_read, then lio_listio of two reads */
        struct aiocb cb = { .aio_fildes = fd, .aio_offset = 2000 + r, .aio_buf = p + 50000, .aio_nbytes = 6000 };
        APP_CHECK(aio_read(&cb) == 0, "aio_read failed (%s)", strerror(errno));
        const struct aiocb *wait[1] = { &cb };
        while (aio_error(&cb) == EINPROGRESS)
            aio_suspend(wait, 1, NULL);
        APP_CHECK(aio_return(&cb) == 6000, "aio_read into the mapping failed (%s)", strerror(aio_error(&cb)));
        n += take(&b, p, 50000, 6000);
        struct aiocb l1 = { .aio_fildes = fd, .aio_offset = 30 + r, .aio_buf = p + 57000, .aio_nbytes = 1000,
                            .aio_lio_opcode = LIO_READ };
        struct aiocb l2 = { .aio_fildes = fd, .aio_offset = 9000 + r, .aio_buf = p + 61000, .aio_nbytes = 4000,
                            .aio_lio_opcode = LIO_READ };
        struct aiocb *list[2] = { &l1, &l2 };
        APP_CHECK(lio_listio(LIO_WAIT, list, 2, NULL) == 0, "lio_listio into the mapping failed (%s)",
                  strerror(errno));
        APP_CHECK(aio_return(&l1) == 1000 && aio_return(&l2) == 4000, "lio_listio reads came short");
        n += take(&b, p, 57000, 1000) + take(&b, p, 61000, 4000);
        expect(n, n + 4096); /* equal bytes inside a span count too */
        show(&b);
        checkpoint(&b, "written by system calls");
    }
    close(fd);
    unmap(GL_ARRAY_BUFFER);
}

/* The program ends with a persistent mapping still mapped and its context
 * alive, and writes to the mapping from an atexit handler (after the
 * tracer may have finished): it must exit 0 as it does natively. */
static uint8_t *exit_map;
static void exit_writes(void)
{
    for (size_t o = 0; o < 65536; o += 512)
        exit_map[o] ^= 0x11;
}

static void case_exit_mapped(void)
{
    buf_t b;
    make_buffer(&b, 65536, 31, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    exit_map = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    size_t n = write_span(&b, exit_map, 0, 4096, 100, 1);
    expect(n, n);
    show(&b);
    checkpoint(&b, "before exit");
    atexit(exit_writes);
    printf("maps_app: ok exit_mapped bytes %llu %llu checks %u\n", (unsigned long long)bytes_min,
           (unsigned long long)bytes_max, checks);
    fflush(stdout);
    exit(0);
}

typedef struct {
    const char *name;
    void (*fn)(void);
} case_t;

/* fork with a persistent mapping: the child (no GL) writes its own copy of
 * the pages and exits; the parent's writes before and after the fork, and
 * not the child's, are in the trace (the kernel's write tracking and page
 * protection must both survive the copy-on-write of a fork). */
static void case_fork(void)
{
    buf_t b;
    make_buffer(&b, 65536, 43, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    for (unsigned r = 0; r < 3; r++) {
        size_t n = write_span(&b, p, 0, 1000 + r * 9000, 5000, r);
        fflush(stdout);
        pid_t pid = fork();
        APP_CHECK(pid >= 0, "fork failed (%s)", strerror(errno));
        if (pid == 0) {
            for (size_t i = 0; i < b.size; i += 97)
                p[i] ^= 0xFF;
            _exit(p[0] == 0x42 ? 3 : 0);
        }
        int st = 0;
        APP_CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "the child did not exit");
        n += write_span(&b, p, 0, 40000 + r * 4000, 3000, r + 7);
        expect(n, n);
        show(&b);
        checkpoint(&b, "around a fork");
    }
    unmap(GL_ARRAY_BUFFER);
}

/* System calls no library call of ours sees, writing into a persistent
 * mapping: read(2) through syscall(2) (a pipe's bytes across a page
 * boundary, a file's into whole pages) and uname(2) (a struct).  Only the
 * kernel's own write tracking (WIP15_MAPS=uffd) and compare mode see
 * them; page protection makes each fail with EFAULT (docs/FORMAT.md), so
 * maps.cmake runs this case in those two modes only. */
static void case_syscall_raw(void)
{
    buf_t b;
    make_buffer(&b, 65536, 41, 1, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    uint8_t *p = map_range(GL_ARRAY_BUFFER, 0, b.size, GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT);
    static uint8_t file[16384];
    int fd = pattern_file(file, sizeof file, 13, 1);
    static uint8_t src[8192];
    for (unsigned r = 0; r < 3; r++) {
        size_t n = 0;
        int pp[2];
        size_t off = 3000 + r * 500, len = 7000;
        fill(&b, src, off, len, r);
        APP_CHECK(pipe(pp) == 0, "pipe failed");
        APP_CHECK(write(pp[1], src, len) == (ssize_t)len, "write to the pipe failed");
        for (size_t got = 0; got < len;) {
            long k = syscall(SYS_read, pp[0], p + off + got, len - got);
            APP_CHECK(k > 0, "syscall(SYS_read) into the mapping failed (%s)", strerror(errno));
            got += (size_t)k;
        }
        n += take(&b, p, off, len);
        close(pp[0]);
        close(pp[1]);
        long k = syscall(SYS_pread64, fd, p + 20480 + r * 8192, (size_t)8192, (off_t)(r * 100));
        APP_CHECK(k == 8192, "syscall(SYS_pread64) into the mapping failed (%s)", strerror(errno));
        n += take(&b, p, 20480 + r * 8192, 8192);
        /* a struct the kernel fills (the same in every run), over bytes
         * the program set first: what changes there is not known ahead */
        memset(p + 50000 + r * 1000, 0x5A, sizeof(struct utsname));
        k = syscall(SYS_uname, (struct utsname *)(void *)(p + 50000 + r * 1000));
        APP_CHECK(k == 0, "syscall(SYS_uname) into the mapping failed (%s)", strerror(errno));
        take(&b, p, 50000 + r * 1000, sizeof(struct utsname));
        expect(n, len + 8192 + sizeof(struct utsname)); /* equal bytes inside a span count too */
        show(&b);
        checkpoint(&b, "written by raw system calls");
    }
    close(fd);
    unmap(GL_ARRAY_BUFFER);
}


static const case_t cases[] = {
    { "map_buffer", case_map_buffer },
    { "range_write", case_range_write },
    { "range_invalidate", case_range_invalidate },
    { "range_unsync", case_range_unsync },
    { "flush_explicit", case_flush_explicit },
    { "persistent_coherent", case_persistent_coherent },
    { "persistent_barrier", case_persistent_barrier },
    { "persistent_flush", case_persistent_flush },
    { "coherent_flush", case_coherent_flush },
    { "client_storage", case_client_storage },
    { "dsa", case_dsa },
    { "read_only", case_read_only },
    { "ring_coherent", case_ring_coherent },
    { "ring_flush", case_ring_flush },
    { "ring_barrier", case_ring_barrier },
    { "sighandler", case_sighandler },
    { "read_mapping", case_read_mapping },
    { "threads", case_threads },
    { "large", case_large },
    { "implicit_end", case_implicit_end },
    { "gpu_writes", case_gpu_writes },
    { "exit_mapped", case_exit_mapped },
    { "hot", case_hot },
    { "shared", case_shared },
    { "syscall_read", case_syscall_read },
    { "syscall_more", case_syscall_more },
    { "syscall_raw", case_syscall_raw },
    { "fork", case_fork },
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: maps_app CASE\ncases:");
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            fprintf(stderr, " %s", cases[i].name);
        fputc('\n', stderr);
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(argv[1], cases[i].name) == 0) {
            gl_setup();
            cases[i].fn();
            APP_CHECK(glGetError() == GL_NO_ERROR, "GL error 0x%x", glGetError());
            app_egl_close(&egl);
            printf("maps_app: ok %s bytes %llu %llu checks %u\n", cases[i].name, (unsigned long long)bytes_min,
                   (unsigned long long)bytes_max, checks);
            return 0;
        }
    }
    fprintf(stderr, "maps_app: unknown case %s\n", argv[1]);
    return 2;
}
