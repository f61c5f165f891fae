/* bench_upload.c -- upload throughput: glBufferSubData of 64 KiB blocks of
 * realistic, partly compressible data (vertex-like records: positions that
 * vary smoothly, normals, random-ish texture coordinates and colours).
 * Prints  blocks N mbytes M seconds S mb_per_s X rss_kb R */
#include <stdint.h>
#include <string.h>

#include "bench_egl.h"
#include <GLES2/gl2.h>

#define BLOCK 65536

int main(int argc, char **argv)
{
    long blocks = argc > 1 ? atol(argv[1]) : 8192; /* 512 MiB */
    bench_egl_open();
    /* 16 distinct blocks, 32-byte "vertices" */
    static uint8_t data[16][BLOCK];
    uint32_t rng = 12345;
    for (int b = 0; b < 16; b++) {
        for (int v = 0; v < BLOCK / 32; v++) {
            float rec[8];
            rec[0] = (float)(v % 64) * 0.125f + (float)b;
            rec[1] = (float)(v / 64) * 0.125f;
            rec[2] = 0.0f;
            rec[3] = 0.0f; rec[4] = 0.0f; rec[5] = 1.0f; /* normal */
            rng = rng * 1664525u + 1013904223u;
            rec[6] = (float)(rng >> 8) / 16777216.0f;   /* noisy uv */
            rng = rng * 1664525u + 1013904223u;
            uint32_t col = 0xff000000u | (rng >> 16) | ((uint32_t)(v & 0xff) << 16);
            memcpy(&rec[7], &col, 4);
            memcpy(&data[b][v * 32], rec, 32);
        }
    }
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glBufferData(GL_ARRAY_BUFFER, BLOCK * 4, NULL, GL_DYNAMIC_DRAW);
    glFinish();
    double t0 = bench_now();
    for (long i = 0; i < blocks; i++) {
        glBufferSubData(GL_ARRAY_BUFFER, (i & 3) * BLOCK, BLOCK, data[i & 15]);
        if ((i & 63) == 63)
            eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double t = bench_now() - t0;
    double mb = (double)blocks * BLOCK / 1e6;
    printf("blocks %ld mbytes %.1f seconds %.3f mb_per_s %.1f rss_kb %ld\n", blocks, mb, t, mb / t,
           bench_rss_kb());
    return 0;
}
