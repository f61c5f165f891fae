/* bench_clientarrays.c -- many small draws from legacy client-side vertex
 * arrays (issue 8 "Benchmarks"; run by bench/tracer/clientarrays.py).
 *
 *   bench_clientarrays [arrays|elements] [FRAMES] [DRAWS] [VERTS]
 *
 * A compatibility-profile context (EGL surfaceless, a 64x64 pbuffer): four
 * legacy arrays in client memory (vertex 3f, normal 3f, colour 4ub,
 * texture coordinates 2f, each its own block), DRAWS draws of VERTS
 * vertices per frame, each from its own part of the arrays, one swap per
 * frame: `arrays` draws meshes of 10 parts (pointers set per mesh, each
 * part a glDrawArrays with its `first`), `elements` sets the pointers
 * before every draw and draws with glDrawElements (client ushort indices).
 * Every frame moves the vertices a little (the program rewrites its arrays,
 * as programs that use client arrays do), so every draw reads new bytes.
 * Prints "seconds S thread_cpu_s C draws N" (the frame loop only). */
#define GL_GLEXT_PROTOTYPES 1
#include "bench_egl.h"
#include <GL/gl.h>
#include <string.h>

static void die(const char *m)
{
    fprintf(stderr, "bench_clientarrays: %s (0x%x)\n", m, eglGetError());
    exit(1);
}

int main(int argc, char **argv)
{
    int elements = argc > 1 && !strcmp(argv[1], "elements");
    int frames = argc > 2 ? atoi(argv[2]) : 100;
    int draws = argc > 3 ? atoi(argv[3]) : 500;
    int verts = argc > 4 ? atoi(argv[4]) : 24;
    if (frames < 1 || draws < 1 || verts < 3 || verts > 65535)
        die("bad arguments");
    const EGLint xattrs[] = { EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT,
                              EGL_NONE };
    bench_egl_open_api("bench_clientarrays", EGL_OPENGL_API, xattrs, 64, 64, 0);

    size_t nv = (size_t)draws * (size_t)verts;
    float *pos = malloc(nv * 3 * sizeof *pos), *nrm = malloc(nv * 3 * sizeof *nrm);
    float *tc = malloc(nv * 2 * sizeof *tc);
    unsigned char *col = malloc(nv * 4);
    unsigned short *idx = malloc((size_t)draws * (size_t)verts * sizeof *idx);
    if (!pos || !nrm || !tc || !col || !idx)
        die("out of memory");
    for (size_t i = 0; i < nv; i++) {
        float a = (float)(i % 97) / 97.0f;
        pos[3 * i] = a * 1.8f - 0.9f;
        pos[3 * i + 1] = (float)((i * 7) % 89) / 89.0f * 1.8f - 0.9f;
        pos[3 * i + 2] = 0;
        nrm[3 * i] = 0, nrm[3 * i + 1] = 0, nrm[3 * i + 2] = 1;
        tc[2 * i] = a, tc[2 * i + 1] = 1 - a;
        memset(col + 4 * i, (int)(i * 13), 4);
    }
    for (int d = 0; d < draws; d++)
        for (int v = 0; v < verts; v++) /* each draw's own vertices, backwards */
            idx[(size_t)d * (size_t)verts + (size_t)v] = (unsigned short)(verts - 1 - v);
    glEnableClientState(GL_VERTEX_ARRAY);
    glEnableClientState(GL_NORMAL_ARRAY);
    glEnableClientState(GL_COLOR_ARRAY);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glViewport(0, 0, 64, 64);

    double t0 = bench_now(), c0 = bench_thread_cpu();
    for (int f = 0; f < frames; f++) {
        for (size_t i = 0; i < nv; i += 5)
            pos[3 * i + 2] = (float)f * 0.001f; /* the program moves its vertices */
        glClear(GL_COLOR_BUFFER_BIT);
        for (int d = 0; d < draws; d++) {
            size_t b = (size_t)d * (size_t)verts;
            if (elements) {
                /* the pointers move to the draw's block; indices 0..verts-1 */
                glVertexPointer(3, GL_FLOAT, 0, pos + 3 * b);
                glNormalPointer(GL_FLOAT, 0, nrm + 3 * b);
                glColorPointer(4, GL_UNSIGNED_BYTE, 0, col + 4 * b);
                glTexCoordPointer(2, GL_FLOAT, 0, tc + 2 * b);
                glDrawElements(GL_TRIANGLES, verts / 3 * 3, GL_UNSIGNED_SHORT, idx + b);
            } else {
                /* a mesh of 10 parts: pointers set once per mesh, a part by `first` */
                size_t m = (size_t)(d - d % 10) * (size_t)verts;
                if (d % 10 == 0) {
                    glVertexPointer(3, GL_FLOAT, 0, pos + 3 * m);
                    glNormalPointer(GL_FLOAT, 0, nrm + 3 * m);
                    glColorPointer(4, GL_UNSIGNED_BYTE, 0, col + 4 * m);
                    glTexCoordPointer(2, GL_FLOAT, 0, tc + 2 * m);
                }
                glDrawArrays(GL_TRIANGLES, (GLint)(b - m), verts / 3 * 3);
            }
        }
        eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double t1 = bench_now(), c1 = bench_thread_cpu();
    printf("seconds %.6f thread_cpu_s %.6f draws %d\n", t1 - t0, c1 - c0, frames * draws);
    bench_egl_close();
    free(pos), free(nrm), free(tc), free(col), free(idx);
    return 0;
}
