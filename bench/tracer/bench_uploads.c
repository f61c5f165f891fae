/* bench_uploads.c KIND CALL BLOCKS -- upload throughput by kind of data
 * (issue 10, docs/PERFORMANCE.md "Uploads"):
 *   KIND  repeat  one 64 KiB block of a 256-byte pattern, one byte changed
 *                 between uploads (highly repetitive, changing a little)
 *         random  incompressible (xorshift), never the same block twice in a row
 *         image   real textures (the PNG files glmark2-data ships), 64 KiB
 *                 tiles in order
 *   CALL  buffer  glBufferSubData of 64 KiB into a 256 KiB buffer
 *         texture glTexSubImage2D of a 128x128 RGBA tile into a 512x512 texture
 * Prints  blocks N mbytes M seconds S mb_per_s X thread_cpu_s C rss_kb R
 * (thread_cpu_s: the calling thread's CPU time over the upload loop). */
#include <dirent.h>
#include <png.h>
#include <stdint.h>
#include <string.h>

#include "bench_egl.h"
#include <GLES2/gl2.h>

#define BLOCK 65536
#define POOL (16u << 20) /* 256 blocks */

static uint8_t *pool;
static size_t pool_len;

static void add_png(const char *path)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&img, path))
        return;
    img.format = PNG_FORMAT_RGBA;
    size_t n = PNG_IMAGE_SIZE(img);
    if (pool_len + n > POOL) {
        png_image_free(&img);
        return;
    }
    if (!png_image_finish_read(&img, NULL, pool + pool_len, 0, NULL))
        return;
    pool_len += n;
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "repeat";
    const char *call = argc > 2 ? argv[2] : "buffer";
    long blocks = argc > 3 ? atol(argv[3]) : 4000;
    pool = malloc(POOL);
    if (!pool)
        return 1;
    if (!strcmp(kind, "random")) {
        uint32_t x = 2463534242u;
        for (size_t i = 0; i < POOL; i += 4) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            memcpy(pool + i, &x, 4);
        }
        pool_len = POOL;
    } else if (!strcmp(kind, "image")) {
        const char *dir = "/usr/share/glmark2/textures";
        DIR *d = opendir(dir);
        struct dirent *e;
        char path[4096];
        while (d && (e = readdir(d)) != NULL) {
            size_t l = strlen(e->d_name);
            if (l > 4 && !strcmp(e->d_name + l - 4, ".png")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                add_png(path);
            }
        }
        if (d)
            closedir(d);
        pool_len -= pool_len % BLOCK;
        if (pool_len < BLOCK) {
            fprintf(stderr, "bench_uploads: no PNG textures in %s (package glmark2-data)\n", dir);
            return 77;
        }
    } else if (!strcmp(kind, "repeat")) {
        for (size_t i = 0; i < BLOCK; i++)
            pool[i] = (uint8_t)(i * 7 + (i >> 8));
        pool_len = BLOCK;
    } else {
        fprintf(stderr, "usage: bench_uploads repeat|random|image buffer|texture BLOCKS\n");
        return 2;
    }
    int tex = !strcmp(call, "texture");
    bench_egl_open();
    GLuint obj;
    if (tex) {
        glGenTextures(1, &obj);
        glBindTexture(GL_TEXTURE_2D, obj);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 512, 512, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    } else {
        glGenBuffers(1, &obj);
        glBindBuffer(GL_ARRAY_BUFFER, obj);
        glBufferData(GL_ARRAY_BUFFER, BLOCK * 4, NULL, GL_DYNAMIC_DRAW);
    }
    glFinish();
    double t0 = bench_now(), c0 = bench_thread_cpu();
    size_t off = 0;
    for (long i = 0; i < blocks; i++) {
        const uint8_t *p;
        if (pool_len == BLOCK) { /* repeat: change one byte */
            pool[(size_t)i * 4099 % BLOCK] ^= (uint8_t)(i | 1);
            p = pool;
        } else {
            p = pool + off;
            off = (off + BLOCK) % pool_len;
        }
        if (tex)
            glTexSubImage2D(GL_TEXTURE_2D, 0, (GLint)(i & 3) * 128, (GLint)((i >> 2) & 3) * 128, 128, 128, GL_RGBA,
                            GL_UNSIGNED_BYTE, p);
        else
            glBufferSubData(GL_ARRAY_BUFFER, (i & 3) * BLOCK, BLOCK, p);
        if ((i & 63) == 63)
            eglSwapBuffers(bench_dpy, bench_surf);
    }
    glFinish();
    double t = bench_now() - t0, c = bench_thread_cpu() - c0;
    double mb = (double)blocks * BLOCK / 1e6;
    printf("blocks %ld mbytes %.1f seconds %.3f mb_per_s %.1f thread_cpu_s %.3f rss_kb %ld\n", blocks, mb, t,
           mb / t, c, bench_rss_kb());
    return 0;
}
