/* bench_persistent.c -- persistent-map streaming: a ring of 4 segments of
 * 64 KiB in one persistently mapped vertex buffer; each draw waits for its
 * segment's fence, writes 64 KiB of new vertices into it (4096 vertices of
 * 16 bytes), makes them visible, draws them, and fences the segment.  A
 * swap every 16 draws.
 *
 *   bench_persistent coherent|flush|barrier|map [DRAWS]
 *
 * coherent: GL_MAP_COHERENT_BIT; flush: not coherent, GL_MAP_FLUSH_EXPLICIT_BIT
 * and glFlushMappedBufferRange of the segment; barrier: not coherent,
 * glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT) after the writes;
 * map (for comparison): no persistent mapping, each draw maps its segment
 * of a glBufferData buffer (GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT,
 * no invalidation) and unmaps it.
 * Desktop GL 4.5 core on EGL surfaceless (Mesa llvmpipe), 64x64 pbuffer.
 * Prints "bench_persistent MODE draws N seconds S us_per_draw U".
 * bench/tracer/persistent.py runs it natively and under the tracers. */
#define GL_GLEXT_PROTOTYPES 1
#include "bench_egl.h"
#include <GL/glcorearb.h>
#include <stdint.h>
#include <string.h>

#define SEG 65536
#define NSEG 4
#define VERTS (SEG / 16)

static void die(const char *m)
{
    fprintf(stderr, "bench_persistent: %s\n", m);
    exit(1);
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok)
        die("shader");
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: bench_persistent coherent|flush|barrier|map [DRAWS]");
    int mode = !strcmp(argv[1], "coherent") ? 0
               : !strcmp(argv[1], "flush")  ? 1
               : !strcmp(argv[1], "barrier") ? 2
               : !strcmp(argv[1], "map")     ? 3
                                             : -1;
    if (mode < 0)
        die("mode: coherent, flush, barrier or map");
    int draws = argc > 2 ? atoi(argv[2]) : 2000;

    const EGLint cattrs[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    bench_egl_open_api("bench_persistent", EGL_OPENGL_API, cattrs, 64, 64, 0);

    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, "#version 450 core\n"
                                                  "layout(location = 0) in vec2 pos;\n"
                                                  "layout(location = 1) in vec4 col;\n"
                                                  "out vec4 c;\n"
                                                  "void main() { gl_Position = vec4(pos, 0, 1); c = col; }\n"));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, "#version 450 core\n"
                                                    "in vec4 c; out vec4 o;\n"
                                                    "void main() { o = c; }\n"));
    glLinkProgram(prog);
    glUseProgram(prog);
    GLuint vao, buf;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    GLbitfield sflags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | (mode == 0 ? GL_MAP_COHERENT_BIT : 0);
    GLbitfield mflags = sflags | (mode == 1 ? GL_MAP_FLUSH_EXPLICIT_BIT : 0);
    uint8_t *map = NULL;
    if (mode == 3) {
        glBufferData(GL_ARRAY_BUFFER, SEG * NSEG, NULL, GL_STREAM_DRAW);
    } else {
        glBufferStorage(GL_ARRAY_BUFFER, SEG * NSEG, NULL, sflags);
        map = glMapBufferRange(GL_ARRAY_BUFFER, 0, SEG * NSEG, mflags);
        if (!map)
            die("glMapBufferRange failed");
    }
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    GLsync fence[NSEG] = { 0 };
    glViewport(0, 0, 64, 64);

    double t0 = bench_now();
    for (int d = 0; d < draws; d++) {
        int s = d % NSEG;
        if (fence[s]) {
            glClientWaitSync(fence[s], GL_SYNC_FLUSH_COMMANDS_BIT, 10000000000ull);
            glDeleteSync(fence[s]);
        }
        uint8_t *p = mode == 3 ? glMapBufferRange(GL_ARRAY_BUFFER, (GLintptr)s * SEG, SEG,
                                                  GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT)
                               : map + (size_t)s * SEG;
        if (!p)
            die("glMapBufferRange failed");
        /* new positions and colours for every vertex (streamed geometry) */
        float jx = (float)(d % 97) * 0.0007f, jy = (float)(d % 89) * 0.0009f;
        for (int v = 0; v < VERTS; v++) {
            int tri = v / 3, c = v % 3;
            float xy[2] = { -1.0f + (float)(tri % 37) * 0.054f + jx + (c == 1 ? 0.03f : 0.0f),
                            -1.0f + (float)(tri / 37) * 0.054f + jy + (c == 2 ? 0.03f : 0.0f) };
            uint32_t col = 0xff000000u | (uint32_t)(d * 2654435761u + (uint32_t)v * 40503u);
            memcpy(p + v * 16, xy, 8);
            memcpy(p + v * 16 + 8, &col, 4);
            memcpy(p + v * 16 + 12, &d, 4);
        }
        if (mode == 3)
            glUnmapBuffer(GL_ARRAY_BUFFER);
        else if (mode == 1)
            glFlushMappedBufferRange(GL_ARRAY_BUFFER, (GLintptr)s * SEG, SEG);
        else if (mode == 2)
            glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 16, (void *)(uintptr_t)(s * SEG));
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 16, (void *)(uintptr_t)(s * SEG + 8));
        glDrawArrays(GL_TRIANGLES, 0, VERTS - 1);
        fence[s] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        if (d % 16 == 15)
            eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double t = bench_now() - t0;
    for (int s = 0; s < NSEG; s++)
        if (fence[s])
            glDeleteSync(fence[s]);
    if (map)
        glUnmapBuffer(GL_ARRAY_BUFFER);
    printf("bench_persistent %s draws %d seconds %.4f us_per_draw %.2f\n", argv[1], draws, t, t * 1e6 / draws);
    bench_egl_close();
    return 0;
}
