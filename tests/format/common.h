/* common.h -- helpers shared by the format tests. */
#ifndef W15_TEST_COMMON_H
#define W15_TEST_COMMON_H

#include "bytes.h"

#include <fcntl.h>
#include <unistd.h>

/* Write bytes to a fresh temporary file; returns its path (static buffer
 * per call site is not needed: caller frees). */
static inline char *tmp_write(const void *p, size_t n)
{
    char *path = strdup("/tmp/w15test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, p, n) != (ssize_t)n)
        abort();
    close(fd);
    return path;
}

static inline char *tmp_path(void)
{
    char *path = strdup("/tmp/w15test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    close(fd);
    return path;
}

static inline uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        abort();
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)sz + 1);
    if (!p || fread(p, 1, (size_t)sz, f) != (size_t)sz)
        abort();
    fclose(f);
    *n = (size_t)sz;
    return p;
}

/* Open bytes either from memory (mode 0) or through a temporary file
 * (mode 1, exercising the fd path).  *tmp receives the path to unlink. */
static inline w15_reader_t *open_bytes(const void *p, size_t n, int mode, char **tmp, w15_error_t *err)
{
    *tmp = NULL;
    if (mode == 0)
        return w15_reader_open_mem(p, n, "mem.wip15", err);
    *tmp = tmp_write(p, n);
    return w15_reader_open(*tmp, err);
}

static inline void done_tmp(char *tmp)
{
    if (tmp) {
        unlink(tmp);
        free(tmp);
    }
}

static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

#endif
