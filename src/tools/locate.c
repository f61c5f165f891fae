/* locate.c -- see locate.h. */
#define _GNU_SOURCE
#include "locate.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int w15t_locate(const char *name, const char *build_root, const char *build_dir, const char *install_dir,
                char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[l > 0 ? l : 0] = 0;

    size_t rl = build_root ? strlen(build_root) : 0;
    if (rl && !strncmp(exe, build_root, rl) && exe[rl] == '/') {
        snprintf(out, n, "%s/%s", build_dir, name);
        if (exists(out))
            return 0;
    }
    char *slash = strrchr(exe, '/');
    if (slash) {
        *slash = 0;
        static const char *const rel[] = { "", "/../lib/wip15", "/../lib64/wip15", "/../lib/x86_64-linux-gnu/wip15" };
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            char p[PATH_MAX + 64];
            snprintf(p, sizeof p, "%s%s/%s", exe, rel[i], name);
            if (exists(p) && realpath(p, out))
                return 0;
        }
    }
    snprintf(out, n, "%s/%s", install_dir, name);
    return exists(out) ? 0 : -1;
}
