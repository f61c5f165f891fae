/* locate.h -- the files `wip15` runs or preloads (libwip15.so, wip15-tool),
 * found from where the running executable is.  libc only. */
#ifndef W15T_LOCATE_H
#define W15T_LOCATE_H
#include <stddef.h>

/* The absolute path of `name` in `out` (n bytes), looking, in this order:
 *  1. when the running executable lies in the build tree (`build_root`, a
 *     directory): in `build_dir`, the build tree's directory of `name`;
 *  2. beside the executable, and in ../lib/wip15 (also lib64, the Debian
 *     multiarch directory) next to it, as `cmake --install` lays the tree
 *     out whatever the prefix;
 *  3. in `install_dir`, the directory chosen when the program was built.
 * 0 when found, -1 when not. */
int w15t_locate(const char *name, const char *build_root, const char *build_dir, const char *install_dir,
                char *out, size_t n);

#endif
