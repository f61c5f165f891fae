/* resolve.c -- finding the real entry points, and making sure applications
 * that dlopen/dlsym the GL libraries get our wrappers.
 *
 * w15_resolve(id), on the first call of a function: dlsym(RTLD_NEXT), then
 * the GL/EGL/GLX libraries that are loaded (dlopen RTLD_NOLOAD), then the
 * real glXGetProcAddressARB / eglGetProcAddress.  A name nobody has
 * resolves to a stub returning 0, with one warning.
 *
 * dlsym is interposed: when the handle is one of the GL libraries (or
 * RTLD_DEFAULT) and the name is one we wrap, the application gets our
 * wrapper.  dlsym(RTLD_NEXT, ...) must keep meaning "after the caller", so
 * on x86-64 the exported dlsym is a tiny assembly trampoline that jumps
 * (not calls) to the real dlsym for RTLD_NEXT: the caller's return address
 * stays on the stack and glibc sees the original caller.
 */
#define _GNU_SOURCE
#include "resolve.h"
#include "log.h"

#include "apitable.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#if __has_include("funcs.h")
#include "funcs.h"
#define W15_REAL_MAX W15F__TOTAL
#else
#define W15_REAL_MAX 16384
#endif

void *w15_real_ptr[W15_REAL_MAX];

static const char *const gl_libs[] = {
    "libGL.so.1", "libOpenGL.so.0", "libGLX.so.0", "libEGL.so.1", "libGLESv2.so.2", "libGLESv1_CM.so.1",
};
#define NLIBS (sizeof gl_libs / sizeof gl_libs[0])
static void *lib_handle[NLIBS];

typedef void *(*dlsym_fn)(void *, const char *);
W15_HIDDEN dlsym_fn w15_dlsym_real;

/* Called by the trampoline too (returns the real dlsym).  This, the real
 * dlsym and the start of our dlsym up to w15_known are W15_NO_ASAN. */
W15_HIDDEN W15_NO_ASAN dlsym_fn w15_dlsym_init(void)
{
    dlsym_fn f = w15_dlsym_real;
    if (f)
        return f;
    f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!f)
        f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    if (!f)
        f = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.17");
    __atomic_store_n(&w15_dlsym_real, f, __ATOMIC_RELEASE);
    return f;
}

W15_NO_ASAN void *w15_real_dlsym(void *handle, const char *name)
{
    dlsym_fn f = w15_dlsym_real ? w15_dlsym_real : w15_dlsym_init();
    return f ? f(handle, name) : NULL;
}

/* Handles of the GL libraries currently loaded (cached once found). */
static void refresh_handles(void)
{
    for (size_t i = 0; i < NLIBS; i++) {
        if (__atomic_load_n(&lib_handle[i], __ATOMIC_ACQUIRE))
            continue;
        void *h = dlopen(gl_libs[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h)
            __atomic_store_n(&lib_handle[i], h, __ATOMIC_RELEASE); /* keep the reference */
    }
}

static int is_gl_handle(void *h)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < NLIBS; i++)
            if (h && __atomic_load_n(&lib_handle[i], __ATOMIC_ACQUIRE) == h)
                return 1;
        if (pass == 0)
            refresh_handles();
    }
    return 0;
}

W15_NO_ASAN int w15_known(const char *name)
{
    /* "gl..." or "egl...", by hand: no library call (W15_NO_ASAN) */
    if (!name || !((name[0] == 'g' && name[1] == 'l') || (name[0] == 'e' && name[1] == 'g' && name[2] == 'l')))
        return -1;
    return w15_func_lookup(name);
}

/* The address range of our own loaded segments, found once: dladdr per
 * resolved function cost ~100,000 instructions each (it searches the
 * object's symbols), 1.2 M in a short piglit test. */
static uintptr_t self_lo;
static _Atomic uintptr_t self_hi;

static int self_range(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t a = (uintptr_t)data, lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t s = (uintptr_t)info->dlpi_addr + ph->p_vaddr, e = s + ph->p_memsz;
        lo = s < lo ? s : lo;
        hi = e > hi ? e : hi;
    }
    if (a < lo || a >= hi)
        return 0;
    self_lo = lo;
    atomic_store_explicit(&self_hi, hi, memory_order_release);
    return 1;
}

static int is_ours(void *p)
{
    if (!p)
        return 0;
    uintptr_t hi = atomic_load_explicit(&self_hi, memory_order_acquire);
    if (!hi) {
        dl_iterate_phdr(self_range, (void *)&w15_real_dlsym);
        hi = atomic_load_explicit(&self_hi, memory_order_acquire);
    }
    return (uintptr_t)p >= self_lo && (uintptr_t)p < hi;
}

void *w15_find_real(const char *name, unsigned api)
{
    void *p = w15_real_dlsym(RTLD_NEXT, name);
    if (p && !is_ours(p))
        return p;
    p = NULL;
    refresh_handles();
    for (size_t i = 0; i < NLIBS && !p; i++) {
        void *h = __atomic_load_n(&lib_handle[i], __ATOMIC_ACQUIRE);
        if (h) {
            p = w15_real_dlsym(h, name);
            if (p && is_ours(p))
                p = NULL;
        }
    }
    if (p)
        return p;
    typedef void *(*gpa_fn)(const char *);
    if (api & (W15_API_GLX | W15_API_GL)) {
        gpa_fn gpa = NULL;
        for (size_t i = 0; i < NLIBS && !gpa; i++) {
            void *h = __atomic_load_n(&lib_handle[i], __ATOMIC_ACQUIRE);
            if (h && (i == 0 || i == 2))
                gpa = (gpa_fn)w15_real_dlsym(h, "glXGetProcAddressARB");
        }
        if (gpa && (p = gpa(name)) && !is_ours(p))
            return p;
    }
    if (api & (W15_API_EGL | W15_API_GLES1 | W15_API_GLES2 | W15_API_GL)) {
        void *h = __atomic_load_n(&lib_handle[3], __ATOMIC_ACQUIRE);
        gpa_fn gpa = h ? (gpa_fn)w15_real_dlsym(h, "eglGetProcAddress") : NULL;
        if (gpa && (p = gpa(name)) && !is_ours(p))
            return p;
    }
    return NULL;
}

static uint64_t missing_stub(void)
{
    return 0;
}

void *w15_resolve(uint32_t id)
{
    void *p = __atomic_load_n(&w15_real_ptr[id], __ATOMIC_ACQUIRE);
    if (p)
        return p;
    int e = errno;
    const w15_func_sig_t *f = &w15_funcs[id];
    const char *name = w15_str(f->name);
    p = w15_find_real(name, f->api);
    if (!p) {
        w15_msg("%s is not provided by the GL/EGL/GLX libraries; calls to it return 0", name);
        p = (void *)missing_stub;
    }
    __atomic_store_n(&w15_real_ptr[id], p, __ATOMIC_RELEASE);
    errno = e;
    return p;
}

/* dlsym of a name we wrap (`id`), whose real answer is r. */
static __attribute__((noinline)) void *dlsym_known(void *handle, void *r, int id)
{
    if (!w15_wrapper_ptr[id])
        return r;
    if (handle == RTLD_DEFAULT || is_gl_handle(handle)) {
        /* remember the real one: it is the best answer for this name */
        if (!is_ours(r) && !__atomic_load_n(&w15_real_ptr[id], __ATOMIC_ACQUIRE))
            __atomic_store_n(&w15_real_ptr[id], r, __ATOMIC_RELEASE);
        return w15_wrapper_ptr[id];
    }
    return r;
}

/* The body of our dlsym for every handle but RTLD_NEXT. */
W15_HIDDEN W15_NO_ASAN void *w15_dlsym_impl(void *handle, const char *name)
{
    void *r = w15_real_dlsym(handle, name);
    if (!r || !name)
        return r;
    int id = w15_known(name);
    return id < 0 ? r : dlsym_known(handle, r, id);
}

#if defined(__x86_64__)
/* dlsym(handle, name): RTLD_NEXT ((void *)-1) goes straight to the real
 * dlsym by a jump, anything else to w15_dlsym_impl. */
__asm__(".pushsection .text\n"
        ".globl dlsym\n"
        ".type dlsym, @function\n"
        "dlsym:\n"
        "  cmpq $-1, %rdi\n"
        "  jne 1f\n"
        "  movq w15_dlsym_real(%rip), %rax\n"
        "  testq %rax, %rax\n"
        "  jz 2f\n"
        "  jmp *%rax\n"
        "2:\n"
        "  pushq %rdi\n"
        "  pushq %rsi\n"
        "  subq $8, %rsp\n"
        "  call w15_dlsym_init\n"
        "  addq $8, %rsp\n"
        "  popq %rsi\n"
        "  popq %rdi\n"
        "  jmp *%rax\n"
        "1:\n"
        "  jmp w15_dlsym_impl\n"
        ".size dlsym, .-dlsym\n"
        ".popsection\n");
#else
W15_EXPORT void *dlsym(void *handle, const char *name)
{
    /* RTLD_NEXT from here would be relative to us: only the x86-64
     * trampoline keeps it exact. */
    return w15_dlsym_impl(handle, name);
}
#endif
