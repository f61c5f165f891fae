/* bench_gpuq.c -- what the tracer's per-frame GPU time (WIP15_GPU=on,
 * docs/WTF.md "GPU time") costs the driver, without the tracer: the same
 * GL calls the tracer makes (GL_EXT_disjoint_timer_query: a timestamp query
 * after each swap and before the next, results read when available), around
 * frames of bench_calls' 4000 cheap calls on a pbuffer (whose swap does not
 * flush, so reading a result makes the driver flush).
 *   bench_gpuq MODE [FRAMES]   MODE 0: no queries, 1: results read every
 *                              frame, 4: read once 4 frames are complete
 * Prints "mode M frames F us_per_frame X ns_per_call Y measured N"
 * (calling thread CPU).  Run natively: the differences between modes are
 * the cost per frame. */
#include "bench_egl.h"
#include <GLES2/gl2.h>

#include <GLES2/gl2ext.h>
#include <string.h>

#define SLOTS 8

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 4;
    int frames = argc > 2 ? atoi(argv[2]) : 1000;
    bench_egl_open();
    const char *ext = (const char *)glGetString(GL_EXTENSIONS);
    if (!ext || !strstr(ext, "GL_EXT_disjoint_timer_query")) {
        fprintf(stderr, "bench_gpuq: no GL_EXT_disjoint_timer_query\n");
        return 77;
    }
    PFNGLGENQUERIESEXTPROC gen = (PFNGLGENQUERIESEXTPROC)eglGetProcAddress("glGenQueriesEXT");
    PFNGLQUERYCOUNTEREXTPROC counter = (PFNGLQUERYCOUNTEREXTPROC)eglGetProcAddress("glQueryCounterEXT");
    PFNGLGETQUERYOBJECTUIVEXTPROC get_uiv = (PFNGLGETQUERYOBJECTUIVEXTPROC)eglGetProcAddress("glGetQueryObjectuivEXT");
    PFNGLGETQUERYOBJECTUI64VEXTPROC get_ui64v =
        (PFNGLGETQUERYOBJECTUI64VEXTPROC)eglGetProcAddress("glGetQueryObjectui64vEXT");
    GLuint q[2 * SLOTS], buf[2];
    gen(2 * SLOTS, q);
    glGenBuffers(2, buf);
    glFinish();
    unsigned head = 0, tail = 0, open = 0, measured = 0;
    struct timespec c0, c1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    for (int f = 0; f < frames; f++) {
        for (int i = 0; i < 1000; i++) {
            glVertexAttrib4f(0, (float)i, 1.0f, 2.0f, 1.0f);
            glEnable(GL_BLEND);
            glDisable(GL_BLEND);
            glBindBuffer(GL_ARRAY_BUFFER, buf[i & 1]);
        }
        if (mode) {
            /* before the swap: this frame's end query, then the ready results */
            if (open)
                counter(q[2 * ((head - 1) % SLOTS) + 1], GL_TIMESTAMP_EXT);
            open = 0;
            while (head - tail >= (unsigned)mode) {
                unsigned k = tail % SLOTS, a0 = 0, a1 = 0;
                get_uiv(q[2 * k + 1], GL_QUERY_RESULT_AVAILABLE_EXT, &a1);
                if (!a1)
                    break;
                get_uiv(q[2 * k], GL_QUERY_RESULT_AVAILABLE_EXT, &a0);
                if (!a0)
                    break;
                GLuint64 s = 0, e = 0;
                get_ui64v(q[2 * k], GL_QUERY_RESULT_EXT, &s);
                get_ui64v(q[2 * k + 1], GL_QUERY_RESULT_EXT, &e);
                measured += e >= s;
                tail++;
                if (mode == 1)
                    break;
            }
        }
        eglSwapBuffers(bench_dpy, bench_surf);
        if (mode && head - tail < SLOTS) {
            counter(q[2 * (head % SLOTS)], GL_TIMESTAMP_EXT); /* the next frame's start */
            head++;
            open = 1;
        }
    }
    glFinish();
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    printf("mode %d frames %d us_per_frame %.2f ns_per_call %.2f measured %u\n", mode, frames, cpu * 1e6 / frames,
           cpu * 1e9 / (frames * 4000.0), measured);
    return 0;
}
