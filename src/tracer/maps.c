/* maps.c -- mapped buffers (maps.h; docs/FORMAT.md "Mapped buffers").
 *
 * What is recorded.  The bytes the program wrote through a mapping, as
 * wip15BufferWrite(buffer, offset from the start of the buffer, bytes)
 * pseudo-calls written just before the call that makes them visible:
 * - an ordinary (non-persistent) map: at glUnmapBuffer, the bytes that
 *   differ from a copy taken at map time, or, when the map invalidated its
 *   range (GL_MAP_INVALIDATE_RANGE_BIT / _BUFFER_BIT: the old contents are
 *   undefined), the whole range; with GL_MAP_FLUSH_EXPLICIT_BIT, each
 *   glFlushMappedBufferRange's range as it is, and nothing at unmap
 *   (docs/PERFORMANCE.md "Persistent-map streaming", mode map, measures it);
 * - a persistent map (GL_MAP_PERSISTENT_BIT), coherent or not, flushed
 *   explicitly or not: before every call flagged CONSUMES (draws,
 *   dispatches, copies, pixel transfers, fences, waits, swaps, flushes,
 *   barriers), every FLUSH_MAPPED call on it and its unmap, the bytes that
 *   changed since the last capture (all of them once, at the first capture,
 *   when the map invalidated its range);
 * - read-only maps: nothing;
 * - GL_AMD_pinned_memory: glBufferData(GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD,
 *   size, data) makes the program's own memory at `data` the buffer, which
 *   the program then writes directly: that range is followed like a
 *   persistent coherent mapping of the whole buffer (the glBufferData call
 *   itself holds the bytes it started with).  No glGet returns that
 *   target's binding, so glBindBuffer* (flag BUFFER_BIND) keeps it in the
 *   context's record (w15_ctx_t.maps: the buffer name).
 *
 * How persistent maps are watched.  A copy of the mapping (the shadow)
 * holds its bytes as last recorded.  Where the kernel tracks writes for us
 * (Linux 6.7+: userfaultfd in asynchronous write-protect mode, PAGEMAP_SCAN;
 * WIP15_MAPS=auto or uffd, mode M_UFFD) a capture asks it which whole pages
 * were written since the last one (protecting them again in the same step)
 * and compares those: no signal, no handler, system calls unaffected; see
 * "The kernel's write tracking" below.  Otherwise (WIP15_MAPS=protect) the
 * pages that lie wholly inside the
 * mapping are write-protected (mprotect PROT_READ: reads, the program's and
 * the GPU's, go on as before); the first write to one faults, and
 * w15_maps_fault (from the SIGSEGV handler of crash.c) makes that page
 * writable again and marks it dirty, then the write retries.  Before a
 * consuming call the dirty pages are write-protected again FIRST (a write
 * from another thread after that faults and marks the page dirty for next
 * time), then compared with the shadow: the spans that differ are recorded
 * and copied into the shadow.  A page written again soon after being
 * protected (a ring, a buffer rewritten every frame) is left writable and
 * compared at every capture instead, until it stops changing (hot pages,
 * capture_run).  The partial pages at either end (shared with other
 * memory, never protected) are compared every time.  A mapping
 * whose pages cannot be protected (mprotect fails, the slot table is full,
 * no fault handler of ours, WIP15_MAPS=compare) is compared whole at every
 * capture instead.
 *
 * What the program sees is unchanged: besides the fault handler, the
 * signal masks (pthread_sigmask, sigprocmask never let the kernel block
 * SIGSEGV) and the system calls that write into program memory (read,
 * readv, pread, pread64, preadv*, recv*, fread*, aio_read* and
 * lio_listio*: KW_WRAP below) are interposed here.
 *
 * Concurrency.  The list of mappings, the shadows and every capture are
 * under `maps_lock`.  The fault handler takes no lock: it finds the mapping in
 * `slots` (pointers published with release stores), and `inflight` counts
 * handlers at work so a mapping is freed only when none can still see it.
 * The handler makes the page writable before it sets the dirty bit, and a
 * capture clears the bit before it protects the page, so a writable page is
 * always dirty (or about to be): no write is missed.  A write that faulted
 * just before its mapping was released (another thread unmapping) finds the
 * mapping in the ring of released ranges and retries once.
 *
 * Buffer names are per share group: a mapping belongs to the share group of
 * the context current when it was made (w15_ctx_t.share_group), and a
 * consuming call captures only its own share group's mappings, into the
 * calling thread's stream, where the buffer name means that buffer.  The
 * buffer of a non-DSA call is the binding of its target, queried with the
 * real glGetIntegerv only for targets the context has (version or
 * extension), so no query raises a GL error. */
#define _GNU_SOURCE
#include "maps.h"
#include "attrs.h"
#include "config.h"
#include "context.h"
#include "guard.h"
#include "log.h"
#include "pseudo.h"
#include "resolve.h"
#include "state.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <aio.h>
#include <stdio.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "funcs.h"

enum {
    GL_READ_ONLY_ = 0x88B8,
    GL_WRITE_ONLY_ = 0x88B9,
    GL_READ_WRITE_ = 0x88BA,
    GL_MAP_READ_BIT_ = 0x1,
    GL_MAP_WRITE_BIT_ = 0x2,
    GL_MAP_INVALIDATE_RANGE_BIT_ = 0x4,
    GL_MAP_INVALIDATE_BUFFER_BIT_ = 0x8,
    GL_MAP_FLUSH_EXPLICIT_BIT_ = 0x10,
    GL_MAP_PERSISTENT_BIT_ = 0x40,
    GL_BUFFER_SIZE_ = 0x8764,
    GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD_ = 0x9160,
};

/* ------------------------------------------------------------------ */
/* Buffer targets and their bindings                                  */

/* A target, the pname of its binding, and when a context has it: desktop
 * GL from gl_ver (major * 10 + minor), GLES from es_ver (0: never), or any
 * of the extensions. */
typedef struct target {
    uint32_t target, binding;
    uint8_t gl_ver, es_ver;
    const char *ext[3];
} target_t;

static const target_t targets[] = {
    { 0x8892, 0x8894, 15, 10, { "GL_ARB_vertex_buffer_object" } },  /* ARRAY_BUFFER */
    { 0x8893, 0x8895, 15, 10, { "GL_ARB_vertex_buffer_object" } },  /* ELEMENT_ARRAY_BUFFER */
    { 0x88EB, 0x88ED, 21, 30,                                        /* PIXEL_PACK_BUFFER */
      { "GL_ARB_pixel_buffer_object", "GL_EXT_pixel_buffer_object", "GL_NV_pixel_buffer_object" } },
    { 0x88EC, 0x88EF, 21, 30,                                        /* PIXEL_UNPACK_BUFFER */
      { "GL_ARB_pixel_buffer_object", "GL_EXT_pixel_buffer_object", "GL_NV_pixel_buffer_object" } },
    { 0x8A11, 0x8A28, 31, 30, { "GL_ARB_uniform_buffer_object" } }, /* UNIFORM_BUFFER */
    { 0x8C2A, 0x8C2A, 31, 32,                                        /* TEXTURE_BUFFER */
      { "GL_ARB_texture_buffer_object", "GL_EXT_texture_buffer", "GL_OES_texture_buffer" } },
    { 0x8C8E, 0x8C8F, 30, 30, { "GL_EXT_transform_feedback" } },    /* TRANSFORM_FEEDBACK_BUFFER */
    { 0x8F36, 0x8F36, 31, 30, { "GL_ARB_copy_buffer" } },           /* COPY_READ_BUFFER */
    { 0x8F37, 0x8F37, 31, 30, { "GL_ARB_copy_buffer" } },           /* COPY_WRITE_BUFFER */
    { 0x8F3F, 0x8F43, 40, 31, { "GL_ARB_draw_indirect" } },         /* DRAW_INDIRECT_BUFFER */
    { 0x90EE, 0x90EF, 43, 31, { "GL_ARB_compute_shader" } },        /* DISPATCH_INDIRECT_BUFFER */
    { 0x90D2, 0x90D3, 43, 31, { "GL_ARB_shader_storage_buffer_object" } }, /* SHADER_STORAGE_BUFFER */
    { 0x92C0, 0x92C1, 42, 31, { "GL_ARB_shader_atomic_counters" } },       /* ATOMIC_COUNTER_BUFFER */
    { 0x9192, 0x9193, 44, 0, { "GL_ARB_query_buffer_object", "GL_AMD_query_buffer_object" } },
    { 0x80EE, 0x80EF, 46, 0, { "GL_ARB_indirect_parameters" } },   /* PARAMETER_BUFFER */
};

/* Whether the current context has `target` (so that its binding exists). */
static const target_t *target_find(uint32_t target)
{
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        if (targets[i].target == target) {
            const target_t *tg = &targets[i];
            int major = 0, minor = 0;
            int api = w15_context_api(&major, &minor);
            int ver = major * 10 + minor;
            if ((api == 1 && ver >= tg->gl_ver) || (api == 2 && tg->es_ver && ver >= tg->es_ver))
                return tg;
            for (int k = 0; k < 3 && tg->ext[k]; k++)
                if (w15_context_has_ext(tg->ext[k]))
                    return tg;
            return NULL;
        }
    }
    return NULL;
}

/* The buffer bound to `target` in the current context; 0 when none, or
 * when the context does not have that target. */
static uint32_t target_buffer(uint32_t target)
{
    const target_t *tg = target_find(target);
    if (!tg)
        return 0;
    return (uint32_t)w15_context_get_int(tg->binding, 0);
}

/* The size of a buffer (for glMapBuffer*, which map all of it): through
 * the target, or the name with the DSA query of the same family. */
typedef void (*get_bp_iv_fn)(unsigned, unsigned, int *);
typedef void (*get_bp_i64v_fn)(unsigned, unsigned, int64_t *);

static uint64_t buffer_size(uint32_t id, const w15_slot_t *args)
{
    int64_t v = 0;
    int iv = 0;
    int e = errno;
    switch (id) {
    case W15F_glMapNamedBuffer:
        ((get_bp_i64v_fn)W15_REAL(W15F_glGetNamedBufferParameteri64v))((unsigned)args[0].u, GL_BUFFER_SIZE_, &v);
        break;
    case W15F_glMapNamedBufferEXT:
        ((get_bp_iv_fn)W15_REAL(W15F_glGetNamedBufferParameterivEXT))((unsigned)args[0].u, GL_BUFFER_SIZE_, &iv);
        v = iv;
        break;
    default:
        /* glMapBuffer/ARB/OES: glGetBufferParameteriv exists wherever
         * they do (GL 1.5, ARB_vertex_buffer_object, GLES) */
        ((get_bp_iv_fn)W15_REAL(W15F_glGetBufferParameteriv))((unsigned)args[0].u, GL_BUFFER_SIZE_, &iv);
        v = iv;
        break;
    }
    errno = e;
    return v > 0 ? (uint64_t)v : 0;
}

/* ------------------------------------------------------------------ */
/* Mappings                                                            */

enum { M_PROTECT = 0, M_COMPARE_PENDING, M_COMPARE, M_UFFD };

typedef struct map {
    /* set before the mapping is published in `slots`, then read by the
     * fault handler: the protected pages [plo, phi), their dirty bits */
    uintptr_t plo, phi;
    _Atomic uint64_t *dirty;
    _Atomic int mode;   /* M_*: M_COMPARE_PENDING when the handler gave up protecting */
    _Atomic int any;    /* some dirty bit may be set */
    int slot;           /* index in slots, -1 when not there */
    /* under maps_lock */
    struct map *next;
    uint32_t group, buffer;
    uint64_t offset, length; /* the mapped range of the buffer */
    uint8_t *ptr;            /* the mapping */
    uint32_t access;         /* GL_MAP_* bits (glMapBuffer's access translated) */
    uint8_t *shadow;         /* persistent: bytes as last recorded; otherwise the
                              * copy taken at map time, or NULL */
    size_t shadow_cap;       /* its allocated size (>= length: a reused spare) */
    int all_next;            /* the next capture records the whole range */
    int ending;              /* the unmap's diff: the shadow is not kept up to date */
    int pinned;              /* GL_AMD_pinned_memory: the program's own memory */
    /* protect mode, per protected page (under maps_lock): hot pages are
     * left writable (and dirty) from one capture to the next */
    uint8_t *hot;            /* 1: left writable */
    uint8_t *idle;           /* captures since the page last changed */
    uint32_t *stamp;         /* the capture that last protected it again (0: none) */
    uint32_t ncap;           /* captures of this mapping */
    size_t nhot;             /* pages with hot[] set */
} map_t;

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static map_t *mlist;              /* every mapping (maps_lock) */
static _Atomic int nmaps;         /* mappings in mlist */
static _Atomic int npersistent;   /* persistent writable mappings in mlist */
static size_t page_size;

/* The last shadow freed, kept for the next mapping (maps_lock): a program
 * that maps the same buffer again and again (a write-only map per frame)
 * would otherwise get fresh memory each time and pay a page fault per
 * 4 KiB of it on the copy, and the C library's trim of the heap on the
 * free; about as much as the copy itself (docs/PERFORMANCE.md "Start-up,
 * short programs, uploads, memory", session 9).  Up to SPARE_MAX bytes
 * are kept. */
#define SPARE_MAX ((size_t)16 << 20)
static uint8_t *spare;
static size_t spare_cap;

/* The fault handler's view: published mappings with protected pages. */
#define MAX_SLOTS 4096
static _Atomic(map_t *) slots[MAX_SLOTS];
static _Atomic int slot_hwm;      /* slots[0 .. slot_hwm) may be non-NULL */
static _Atomic int inflight;      /* fault handlers running */

/* Ranges released lately (unprotected, then dropped from slots): a write
 * that faulted just before is retried once rather than taken for a crash. */
#define RING 64
static struct {
    _Atomic uintptr_t lo, hi;
    _Atomic uint64_t seq;
} ring[RING];
static _Atomic uint64_t ring_next;
static __thread uint64_t retried_seq __attribute__((tls_model("initial-exec")));
static __thread uintptr_t retried_page __attribute__((tls_model("initial-exec")));

/* Scratch for reading mappings (guarded copies), under maps_lock. */
#define SCRATCH ((size_t)256 << 10)
static uint8_t *scratch;

/* Merge differing spans separated by fewer equal bytes than this (a
 * wip15BufferWrite costs about 25 bytes of its own). */
#define GAP 32

static int fork_ready;
static void at_fork_prepare(void) { pthread_mutex_lock(&maps_lock); }
static void at_fork_release(void) { pthread_mutex_unlock(&maps_lock); }

static void maps_init_once(void)
{
    if (!page_size) {
        long p = sysconf(_SC_PAGESIZE);
        page_size = p > 0 ? (size_t)p : 4096;
    }
    if (!fork_ready) {
        fork_ready = 1;
        pthread_atfork(at_fork_prepare, at_fork_release, at_fork_release);
    }
}

static uint32_t group_of(const w15_thread_t *t)
{
    return t->ctx ? t->ctx->share_group : 0;
}

static map_t *map_find(uint32_t group, uint32_t buffer)
{
    for (map_t *m = mlist; m; m = m->next)
        if (m->group == group && m->buffer == buffer)
            return m;
    return NULL;
}

static void map_unlink(map_t *m)
{
    for (map_t **pp = &mlist; *pp; pp = &(*pp)->next) {
        if (*pp == m) {
            *pp = m->next;
            break;
        }
    }
    if (m->access & GL_MAP_PERSISTENT_BIT_)
        atomic_fetch_sub(&npersistent, 1);
}

/* Is our SIGSEGV handler (crash.c) the one the kernel calls?  Without it
 * a protected page would kill the program. */
typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static int fault_handler_installed(void)
{
    static sigaction_fn real;
    if (!real)
        real = (sigaction_fn)w15_real_dlsym(RTLD_NEXT, "sigaction");
    struct sigaction cur;
    if (!real || real(SIGSEGV, NULL, &cur) != 0)
        return 0;
    return (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction != NULL;
}


/* ------------------------------------------------------------------ */
/* The fault handler's tables                                          */

/* Publish m in a free slot (under maps_lock: the only writer).  0, or -1 when
 * the table is full. */
static int slot_publish(map_t *m)
{
    int h = atomic_load_explicit(&slot_hwm, memory_order_relaxed);
    for (int i = 0; i < MAX_SLOTS; i++) {
        if (atomic_load_explicit(&slots[i], memory_order_relaxed) == NULL) {
            m->slot = i;
            if (i >= h)
                atomic_store(&slot_hwm, i + 1);
            atomic_store(&slots[i], m);
            return 0;
        }
    }
    return -1;
}

/* Take m out of the handler's view and wait until no handler can still be
 * reading it (a handler counts itself in `inflight` before it reads a slot). */
static void slot_remove(map_t *m)
{
    if (m->slot < 0)
        return;
    atomic_store(&slots[m->slot], NULL);
    m->slot = -1;
    while (atomic_load(&inflight))
        sched_yield();
}

/* ------------------------------------------------------------------ */
/* The kernel's write tracking (WIP15_MAPS=auto or uffd)               */

/* Linux 6.7 and later track writes to a range for us: a userfaultfd
 * registered in asynchronous write-protect mode (UFFD_FEATURE_WP_ASYNC)
 * makes the first write to a protected page clear its protection in the
 * kernel, with no signal and no user-space handler, whoever writes (the
 * program, GL's threads, or the kernel itself in a system call: no
 * EFAULT), and PAGEMAP_SCAN on /proc/self/pagemap lists the pages written
 * since and protects them again, atomically per page.  Debian 12's headers
 * (Linux 6.1) predate both, hence the constants here (the kernel's ABI,
 * include/uapi/linux/userfaultfd.h and fs.h). */
#ifndef UFFD_FEATURE_WP_UNPOPULATED
#define UFFD_FEATURE_WP_UNPOPULATED (1 << 13)
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1 << 15)
#endif
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef PAGEMAP_SCAN
struct page_region {
    uint64_t start, end, categories;
};
struct pm_scan_arg {
    uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
    uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_SCAN_WP_MATCHING (1 << 0)
#define PM_SCAN_CHECK_WPASYNC (1 << 1)
#define PAGE_IS_WRITTEN (1 << 1)
#endif

static int uffd = -1, pagemap = -1;
static int uffd_state; /* 0 not tried yet, 1 usable, -1 not (maps_lock) */

/* Protect [lo, hi) (registered) again. 0 or -1. */
static int uffd_protect(uintptr_t lo, uintptr_t hi)
{
    struct uffdio_writeprotect wp = {.range = {lo, hi - lo}, .mode = UFFDIO_WRITEPROTECT_MODE_WP};
    return ioctl(uffd, UFFDIO_WRITEPROTECT, &wp) == 0 ? 0 : -1;
}

static int uffd_register(uintptr_t lo, uintptr_t hi)
{
    struct uffdio_register reg = {.range = {lo, hi - lo}, .mode = UFFDIO_REGISTER_MODE_WP};
    if (ioctl(uffd, UFFDIO_REGISTER, &reg) != 0)
        return -1;
    if (uffd_protect(lo, hi) == 0)
        return 0;
    struct uffdio_range r = {lo, hi - lo};
    ioctl(uffd, UFFDIO_UNREGISTER, &r);
    return -1;
}

/* The pages of [lo, hi) written since they were last protected, protected
 * again, at most `max` runs into v.  The number of runs (with *next where
 * the walk stopped, < hi when v filled up), or -1. */
static long uffd_scan(uintptr_t lo, uintptr_t hi, struct page_region *v, size_t max, uintptr_t *next)
{
    struct pm_scan_arg a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.flags = PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC;
    a.start = lo;
    a.end = hi;
    a.vec = (uintptr_t)v;
    a.vec_len = max;
    a.category_mask = PAGE_IS_WRITTEN;
    a.return_mask = PAGE_IS_WRITTEN;
    long n = ioctl(pagemap, PAGEMAP_SCAN, &a);
    if (n < 0)
        return -1;
    *next = a.walk_end ? (uintptr_t)a.walk_end : hi;
    return n;
}

/* Whether the kernel's write tracking works here (under maps_lock; asked
 * once, at the first persistent mapping): userfaultfd (user-mode faults
 * only, which an unprivileged process may open; asynchronous faults never
 * reach user space anyway) with WP_ASYNC and WP_UNPOPULATED, and a
 * PAGEMAP_SCAN that finds one page written through a test mapping. */
static int uffd_ready(void)
{
    if (uffd_state)
        return uffd_state > 0;
    uffd_state = -1;
    if (w15_cfg.maps_compare || w15_cfg.maps_no_uffd)
        return 0;
    int e = errno;
    const char *why = "userfaultfd";
    uint8_t *page = MAP_FAILED;
    uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
    if (uffd < 0)
        uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (uffd < 0)
        goto fail;
    /* (shared memory too: WP_HUGETLBFS_SHMEM is older than WP_ASYNC) */
    struct uffdio_api api = {.api = UFFD_API,
                             .features = UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED |
                                         UFFD_FEATURE_WP_HUGETLBFS_SHMEM};
    why = "asynchronous write protection (Linux 6.7)";
    if (ioctl(uffd, UFFDIO_API, &api) != 0 ||
        (api.features & (UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED)) !=
            (UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED))
        goto fail;
    why = "/proc/self/pagemap";
    pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap < 0)
        goto fail;
    why = "PAGEMAP_SCAN (Linux 6.7)";
    page = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED || uffd_register((uintptr_t)page, (uintptr_t)page + 2 * page_size))
        goto fail;
    page[page_size + 1] = 1;
    struct page_region v[2];
    uintptr_t next;
    long n = uffd_scan((uintptr_t)page, (uintptr_t)page + 2 * page_size, v, 2, &next);
    if (n != 1 || v[0].start != (uintptr_t)page + page_size || v[0].end != (uintptr_t)page + 2 * page_size ||
        uffd_scan((uintptr_t)page, (uintptr_t)page + 2 * page_size, v, 2, &next) != 0)
        goto fail;
    munmap(page, 2 * page_size);
    uffd_state = 1;
    errno = e;
    return 1;
fail:
    if (w15_cfg.maps_uffd)
        w15_msg("WIP15_MAPS=uffd: no %s here (%s); watching persistent mappings with page protection",
                why, strerror(errno));
    if (page != MAP_FAILED)
        munmap(page, 2 * page_size);
    if (uffd >= 0)
        close(uffd);
    if (pagemap >= 0)
        close(pagemap);
    uffd = pagemap = -1;
    errno = e;
    return 0;
}

/* Stop tracking m's pages (their protection goes with the registration). */
static void uffd_unwatch(map_t *m)
{
    int e = errno;
    struct uffdio_range r = {m->plo, m->phi - m->plo};
    ioctl(uffd, UFFDIO_UNREGISTER, &r);
    errno = e;
}

static void ring_push(uintptr_t lo, uintptr_t hi)
{
    uint64_t seq = atomic_fetch_add(&ring_next, 1) + 1;
    unsigned i = (unsigned)(seq % RING);
    atomic_store(&ring[i].seq, 0);
    atomic_store(&ring[i].lo, lo);
    atomic_store(&ring[i].hi, hi);
    atomic_store(&ring[i].seq, seq);
}

/* Stop watching m's pages: writable again, out of the handler's view
 * (a write that faulted in the meantime finds them in the ring). */
static void unprotect(map_t *m)
{
    if (atomic_load(&m->mode) == M_UFFD) {
        uffd_unwatch(m);
        return;
    }
    if (m->slot < 0)
        return;
    int e = errno;
    if (m->phi > m->plo)
        mprotect((void *)m->plo, m->phi - m->plo, PROT_READ | PROT_WRITE);
    ring_push(m->plo, m->phi);
    slot_remove(m);
    errno = e;
}

/* The kernel writing into protected pages.  A system call that writes
 * into a write-protected page fails with EFAULT: no fault reaches any
 * handler.  The wrappers below (read, recv, fread, ...) make the
 * protected pages of their destination writable and dirty first (as a
 * fault would), lock-free like the fault handler (they may run in a signal
 * handler).  While any of them is in flight (`kwrites`), captures protect
 * nothing; a capture that is protecting (`protecting`, set around its
 * mprotect calls only) makes them wait until it is done (Dekker: each side
 * publishes its flag, then reads the other's). */
static _Atomic int kwrites, protecting;
static __thread int protecting_here __attribute__((tls_model("initial-exec")));

/* Before write-protecting pages of m (under maps_lock): 0, then
 * protect_end(); -1 when a kernel write is in flight or m has just been
 * given up (kernel_write_async): protect nothing now. */
static int protect_begin(const map_t *m)
{
    atomic_store(&protecting, 1);
    if (atomic_load(&kwrites) || atomic_load(&m->mode) == M_COMPARE_PENDING) {
        atomic_store(&protecting, 0);
        return -1;
    }
    protecting_here = 1;
    return 0;
}

static void protect_end(void)
{
    protecting_here = 0;
    atomic_store(&protecting, 0);
}

/* Make [p, p + n) writable for the kernel in every protected mapping it
 * touches (the caller holds a kwrites window): only the pages it covers,
 * marked dirty for the next capture, or, `for_good` (a write that happens
 * after the call returns), the whole mapping, which is compared whole at
 * every capture from then on (as when mprotect fails). */
static void unprotect_for_kernel(const void *p, size_t n, int for_good)
{
    /* (a signal handler that interrupted this thread's own protecting
     * must not wait for it) */
    while (!protecting_here && atomic_load(&protecting))
        sched_yield();
    uintptr_t lo = (uintptr_t)p, hi = lo + n < lo ? UINTPTR_MAX : lo + n;
    size_t pg = page_size;
    atomic_fetch_add(&inflight, 1);
    int h = atomic_load(&slot_hwm);
    for (int i = 0; i < h; i++) {
        map_t *m = atomic_load(&slots[i]);
        if (!m || hi <= m->plo || lo >= m->phi)
            continue;
        if (for_good) {
            /* pending first: a capture that protects after our kwrites
             * window sees it (protect_begin) */
            atomic_store(&m->mode, M_COMPARE_PENDING);
            mprotect((void *)m->plo, m->phi - m->plo, PROT_READ | PROT_WRITE);
            continue;
        }
        uintptr_t a = (lo > m->plo ? lo : m->plo) & ~(uintptr_t)(pg - 1);
        uintptr_t b = hi < m->phi ? hi : m->phi;
        b = (b + pg - 1) & ~(uintptr_t)(pg - 1);
        if (mprotect((void *)a, b - a, PROT_READ | PROT_WRITE) != 0) {
            atomic_store(&m->mode, M_COMPARE_PENDING);
            mprotect((void *)m->plo, m->phi - m->plo, PROT_READ | PROT_WRITE);
        }
        for (uintptr_t q = a; q < b; q += pg) {
            size_t k = (q - m->plo) / pg;
            atomic_fetch_or(&m->dirty[k / 64], (uint64_t)1 << (k % 64));
        }
        atomic_store(&m->any, 1);
    }
    atomic_fetch_sub(&inflight, 1);
}

/* 1 when counted in kwrites (kernel_write_end must follow), 0 when no
 * page has ever been protected (nothing to do, nothing counted). */
static int kernel_write_begin(const void *p, size_t n)
{
    if (!atomic_load(&slot_hwm))
        return 0;
    atomic_fetch_add(&kwrites, 1);
    if (n)
        unprotect_for_kernel(p, n, 0);
    return 1;
}

static void kernel_write_end(int counted)
{
    if (counted)
        atomic_fetch_sub(&kwrites, 1);
}

/* Asynchronous kernel writes (aio_read, lio_listio): the write happens
 * after the call returns, outside any window of kwrites.  The mappings the
 * destination touches give up protection for good. */
static void kernel_write_async(const void *p, size_t n)
{
    if (!n || !atomic_load(&slot_hwm))
        return;
    atomic_fetch_add(&kwrites, 1);
    unprotect_for_kernel(p, n, 1);
    atomic_fetch_sub(&kwrites, 1);
}

/* The interposed wrappers of system calls that write into program memory.
 * kw_real: the next definition of `name` (looked up once), NULL with
 * errno ENOSYS.  kw_open: one window of kwrites for the whole call (1 when
 * counted, then kernel_write_end(1) after the real call; 0 when no page
 * has ever been protected: the only cost then is one atomic load); kw_add:
 * one destination range inside the window. */
static void *kw_real(void *_Atomic *slot, const char *name)
{
    void *f = atomic_load_explicit(slot, memory_order_relaxed);
    if (!f && (f = w15_real_dlsym(RTLD_NEXT, name)))
        atomic_store_explicit(slot, f, memory_order_relaxed);
    if (!f)
        errno = ENOSYS;
    return f;
}

static inline int kw_open(void)
{
    return kernel_write_begin(NULL, 0);
}

static inline void kw_add(int c, const void *p, size_t n)
{
    if (c && p && n)
        kernel_write_end(kernel_write_begin(p, n));
}

#define KW_MAX_RANGES 1024 /* more iovecs or messages than the kernel takes (IOV_MAX, UIO_MAXIOV) */

static int kw_one(const void *p, size_t n)
{
    int c = kw_open();
    kw_add(c, p, n);
    return c;
}

static int kw_mul(const void *p, size_t size, size_t n)
{
    return kw_one(p, size && n > SIZE_MAX / size ? SIZE_MAX : size * n);
}

static void kw_add_iov(int c, const struct iovec *iov, size_t cnt)
{
    for (size_t i = 0; c && iov && i < cnt && i < KW_MAX_RANGES; i++)
        kw_add(c, iov[i].iov_base, iov[i].iov_len);
}

static int kw_iov(const struct iovec *iov, int cnt)
{
    int c = kw_open();
    kw_add_iov(c, iov, cnt > 0 ? (size_t)cnt : 0);
    return c;
}

/* What the kernel fills in a message header: the data, the sender's
 * address, the ancillary data and the header's own lengths and flags. */
static void kw_add_msg(int c, const struct msghdr *mh)
{
    if (!c || !mh)
        return;
    kw_add(c, mh, sizeof *mh);
    kw_add_iov(c, mh->msg_iov, mh->msg_iovlen);
    kw_add(c, mh->msg_name, mh->msg_namelen);
    kw_add(c, mh->msg_control, mh->msg_controllen);
}

static int kw_msg(const struct msghdr *mh)
{
    int c = kw_open();
    kw_add_msg(c, mh);
    return c;
}

static int kw_mmsg(const struct mmsghdr *v, unsigned int vlen)
{
    int c = kw_open();
    for (unsigned int i = 0; c && v && i < vlen && i < KW_MAX_RANGES; i++) {
        kw_add(c, &v[i], sizeof v[i]);
        kw_add_msg(c, &v[i].msg_hdr);
    }
    return c;
}

static int kw_from(const void *buf, size_t n, const void *addr, const socklen_t *alen)
{
    int c = kw_open();
    kw_add(c, buf, n);
    if (alen) {
        kw_add(c, alen, sizeof *alen);
        kw_add(c, addr, *alen);
    }
    return c;
}

/* Asynchronous reads: not counted (the window would end too early). */
static int kw_aio(const struct aiocb *cb)
{
    if (cb)
        kernel_write_async((const void *)cb->aio_buf, cb->aio_nbytes);
    return 0;
}

static int kw_lio(struct aiocb *const *list, int n)
{
    for (int i = 0; list && i < n && i < KW_MAX_RANGES; i++)
        if (list[i] && list[i]->aio_lio_opcode == LIO_READ)
            kw_aio(list[i]);
    return 0;
}

/* The wrapper `ret name params`: ENTER (errno kept) before the real call
 * with ARGS, kernel_write_end after it; FAIL when there is no real one. */
#define KW_WRAP(ret, name, params, args, enter, fail)                                                              \
    W15_EXPORT ret name params                                                                                     \
    {                                                                                                              \
        static void *_Atomic real_;                                                                                \
        ret(*f_) params = (ret(*) params)kw_real(&real_, #name);                                                   \
        if (!f_)                                                                                                   \
            return fail;                                                                                           \
        int e_ = errno;                                                                                            \
        int c_ = enter;                                                                                            \
        errno = e_;                                                                                                \
        ret r_ = f_ args;                                                                                          \
        kernel_write_end(c_);                                                                                      \
        return r_;                                                                                                 \
    }

KW_WRAP(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n), kw_one(buf, n), -1)
KW_WRAP(ssize_t, pread, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off), kw_one(buf, n), -1)
KW_WRAP(ssize_t, pread64, (int fd, void *buf, size_t n, off64_t off), (fd, buf, n, off), kw_one(buf, n), -1)
KW_WRAP(ssize_t, readv, (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt), kw_iov(iov, cnt), -1)
KW_WRAP(ssize_t, preadv, (int fd, const struct iovec *iov, int cnt, off_t off), (fd, iov, cnt, off),
        kw_iov(iov, cnt), -1)
KW_WRAP(ssize_t, preadv64, (int fd, const struct iovec *iov, int cnt, off64_t off), (fd, iov, cnt, off),
        kw_iov(iov, cnt), -1)
KW_WRAP(ssize_t, preadv2, (int fd, const struct iovec *iov, int cnt, off_t off, int fl), (fd, iov, cnt, off, fl),
        kw_iov(iov, cnt), -1)
KW_WRAP(ssize_t, preadv64v2, (int fd, const struct iovec *iov, int cnt, off64_t off, int fl),
        (fd, iov, cnt, off, fl), kw_iov(iov, cnt), -1)
KW_WRAP(ssize_t, recv, (int fd, void *buf, size_t n, int fl), (fd, buf, n, fl), kw_one(buf, n), -1)
KW_WRAP(ssize_t, recvfrom, (int fd, void *buf, size_t n, int fl, struct sockaddr *a, socklen_t *alen),
        (fd, buf, n, fl, a, alen), kw_from(buf, n, a, alen), -1)
KW_WRAP(ssize_t, recvmsg, (int fd, struct msghdr *mh, int fl), (fd, mh, fl), kw_msg(mh), -1)
KW_WRAP(int, recvmmsg, (int fd, struct mmsghdr *v, unsigned int vlen, int fl, struct timespec *to),
        (fd, v, vlen, fl, to), kw_mmsg(v, vlen), -1)
/* stdio: an unbuffered or large fread reads straight into the destination
 * through glibc's internal read, not ours */
#undef fread_unlocked
KW_WRAP(size_t, fread, (void *buf, size_t size, size_t n, FILE *f), (buf, size, n, f), kw_mul(buf, size, n), 0)
KW_WRAP(size_t, fread_unlocked, (void *buf, size_t size, size_t n, FILE *f), (buf, size, n, f),
        kw_mul(buf, size, n), 0)
/* POSIX asynchronous reads (glibc's helper threads call its internal
 * pread after these return) */
KW_WRAP(int, aio_read, (struct aiocb *cb), (cb), kw_aio(cb), -1)
KW_WRAP(int, aio_read64, (struct aiocb64 *cb), (cb), kw_aio((const struct aiocb *)(const void *)cb), -1)
KW_WRAP(int, lio_listio, (int mode, struct aiocb *const list[], int n, struct sigevent *sev), (mode, list, n, sev),
        kw_lio(list, n), -1)
KW_WRAP(int, lio_listio64, (int mode, struct aiocb64 *const list[], int n, struct sigevent *sev),
        (mode, list, n, sev), kw_lio((struct aiocb *const *)(const void *)list, n), -1)

int w15_maps_fault(const siginfo_t *si)
{
    if (!si || si->si_code != SEGV_ACCERR)
        return 0;
    if (!atomic_load_explicit(&slot_hwm, memory_order_relaxed) &&
        !atomic_load_explicit(&ring_next, memory_order_relaxed))
        return 0;
    size_t pg = page_size;
    uintptr_t a = (uintptr_t)si->si_addr;
    uintptr_t page = a & ~(uintptr_t)(pg - 1);
    int handled = 0;
    atomic_fetch_add(&inflight, 1);
    int h = atomic_load(&slot_hwm);
    for (int i = 0; i < h; i++) {
        map_t *m = atomic_load(&slots[i]);
        if (!m || a < m->plo || a >= m->phi)
            continue;
        /* writable first, dirty second: a capture clears the bit before
         * it protects the page again, so a writable page is never clean */
        if (mprotect((void *)page, pg, PROT_READ | PROT_WRITE) != 0) {
            /* out of memory areas (each protected run is one): give up
             * protecting this mapping, the next capture compares it whole */
            atomic_store(&m->mode, M_COMPARE_PENDING);
            if (mprotect((void *)m->plo, m->phi - m->plo, PROT_READ | PROT_WRITE) != 0)
                break;
        }
        size_t k = (page - m->plo) / pg;
        atomic_fetch_or(&m->dirty[k / 64], (uint64_t)1 << (k % 64));
        atomic_store(&m->any, 1);
        handled = 1;
        break;
    }
    if (!handled) {
        for (unsigned j = 0; j < RING; j++) {
            uint64_t s1 = atomic_load(&ring[j].seq);
            if (!s1)
                continue;
            uintptr_t lo = atomic_load(&ring[j].lo), hi = atomic_load(&ring[j].hi);
            if (atomic_load(&ring[j].seq) != s1 || a < lo || a >= hi)
                continue;
            /* released while this write was faulting: retry it once */
            if (retried_seq == s1 && retried_page == page) {
                retried_seq = 0;
                break;
            }
            retried_seq = s1;
            retried_page = page;
            handled = 1;
            break;
        }
    }
    atomic_fetch_sub(&inflight, 1);
    return handled;
}

/* ------------------------------------------------------------------ */
/* Threads that block SIGSEGV                                          */

/* A write to a protected page from a thread that blocks SIGSEGV does not
 * reach any handler: the kernel kills the process.  Natively such a write
 * never faults, and threads that block every signal are common (workers
 * started with all signals blocked so that the main thread gets them;
 * Mesa's own threads).  So the mask the kernel holds never blocks SIGSEGV
 * while protection may be used: pthread_sigmask and sigprocmask take
 * SIGSEGV out of the set they pass on and remember, per thread, that the
 * program asked for it to be blocked, which they report back in the old
 * set.  (A thread inherits the kernel's mask, so a thread created while
 * its creator "blocks" SIGSEGV reports it unblocked; a handler installed
 * with SIGSEGV in its sa_mask still blocks it while it runs.) */
static __thread int segv_held __attribute__((tls_model("initial-exec")));

int w15_maps_segv_blocked(void)
{
    return segv_held;
}

typedef int (*sigmask_fn)(int, const sigset_t *, sigset_t *);

/* The call through `real` (pthread_sigmask or sigprocmask) with SIGSEGV
 * held back from the kernel. */
static int mask_call(sigmask_fn real, int how, const sigset_t *set, sigset_t *old)
{
    if (!set || w15_cfg.maps_compare || (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)) {
        int r = real(how, set, old);
        if (r == 0 && old && segv_held)
            sigaddset(old, SIGSEGV);
        return r;
    }
    sigset_t s = *set; /* set and old may be the same */
    int has = sigismember(&s, SIGSEGV) == 1;
    int held = how == SIG_BLOCK ? (segv_held || has) : how == SIG_UNBLOCK ? (segv_held && !has) : has;
    if (has && how != SIG_UNBLOCK)
        sigdelset(&s, SIGSEGV);
    int was = segv_held;
    int r = real(how, &s, old);
    if (r == 0) {
        if (old && was)
            sigaddset(old, SIGSEGV);
        segv_held = held;
    }
    return r;
}

W15_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    static sigmask_fn real;
    if (!real && !(real = (sigmask_fn)w15_real_dlsym(RTLD_NEXT, "pthread_sigmask")))
        return ENOSYS;
    return mask_call(real, how, set, old);
}

W15_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
    static sigmask_fn real;
    if (!real && !(real = (sigmask_fn)w15_real_dlsym(RTLD_NEXT, "sigprocmask"))) {
        errno = ENOSYS;
        return -1;
    }
    return mask_call(real, how, set, old);
}

/* ------------------------------------------------------------------ */
/* Recording                                                           */

/* One wip15BufferWrite: bytes [src, src + n) at offset `off` of the
 * mapping.  0, or -1 when out of memory (recording has stopped). */
static int emit(w15_thread_t *t, const map_t *m, uint64_t off, const uint8_t *src, size_t n)
{
    const w15_func_sig_t *f = &w15_funcs[W15F_wip15BufferWrite];
    const w15_param_sig_t *ps = &w15_params[f->first_param];
    w15_buf_t *b = &t->buf;
    if (w15_pseudo_begin(t, W15F_wip15BufferWrite, 2 * W15_MAX_UVARI + 8))
        return -1;
    w15_put_uvari(b, m->buffer);
    if (ps[0].group != W15_NO_GROUP)
        w15_put_u32(b, ps[0].group);
    w15_put_uvari(b, m->offset + off);
    if (ps[1].group != W15_NO_GROUP)
        w15_put_u32(b, ps[1].group);
    if (w15_put_data(b, src, (uint32_t)n)) {
        w15_pseudo_cancel(t);
        w15_fail("out of memory while recording a mapped buffer's bytes; recording stopped");
        return -1;
    }
    if (ps[2].group != W15_NO_GROUP) {
        if (w15_buf_reserve(b, 4)) {
            w15_pseudo_cancel(t);
            w15_fail("out of memory while recording a mapped buffer's bytes; recording stopped");
            return -1;
        }
        w15_put_u32(b, ps[2].group);
    }
    return w15_pseudo_end(t);
}

static int scratch_ready(void)
{
    if (!scratch && !(scratch = malloc(SCRATCH))) {
        w15_fail("out of memory while recording a mapped buffer's bytes; recording stopped");
        return -1;
    }
    return 0;
}

/* Read [off, off + n) of the mapping into scratch (guarded); 0, or -1 when
 * the memory is gone. */
static int read_map(const map_t *m, size_t off, size_t n)
{
    return w15_guard_copy(scratch, m->ptr + off, n);
}

/* Record [off, off + n) of the mapping as it is (and copy it into the
 * shadow, when there is one).  0, -1 out of memory, -2 unreadable. */
static int record_range(w15_thread_t *t, map_t *m, size_t off, size_t n)
{
    if (scratch_ready())
        return -1;
    while (n) {
        size_t k = n < SCRATCH ? n : SCRATCH;
        if (read_map(m, off, k))
            return -2;
        if (emit(t, m, off, scratch, k))
            return -1;
        if (m->shadow)
            memcpy(m->shadow + off, scratch, k);
        off += k;
        n -= k;
    }
    return 0;
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The spans of [off, off + k) (k <= SCRATCH) that differ from the shadow:
 * read into scratch, recorded, the shadow brought up to date.  0, -1, -2
 * as record_range.  With `mark`, the protected pages a span touches get
 * idle 0. */
static int diff_block(w15_thread_t *t, map_t *m, size_t off, size_t k, int mark)
{
    if (read_map(m, off, k))
        return -2;
    const uint8_t *a = scratch, *s = m->shadow + off;
    size_t i = 0;
    while (i < k) {
        /* skip what is equal, in blocks first */
        while (i + 256 <= k && memcmp(a + i, s + i, 256) == 0)
            i += 256;
        while (i + 8 <= k && load64(a + i) == load64(s + i))
            i += 8;
        while (i < k && a[i] == s[i])
            i++;
        if (i >= k)
            break;
        /* a span: up to GAP equal bytes in a row end it */
        size_t start = i, end = i + 1, eq = 0;
        i++;
        while (i < k && eq < GAP) {
            if (i + 8 <= k) {
                if (load64(a + i) == load64(s + i)) {
                    eq += 8;
                } else {
                    end = i + 8;
                    eq = 0;
                }
                i += 8;
            } else {
                if (a[i] == s[i]) {
                    eq++;
                } else {
                    end = i + 1;
                    eq = 0;
                }
                i++;
            }
        }
        while (end > start + 1 && a[end - 1] == s[end - 1])
            end--;
        if (emit(t, m, off + start, a + start, end - start))
            return -1;
        if (mark) {
            size_t p0 = (size_t)((uintptr_t)m->ptr + off + start - m->plo) / page_size;
            size_t p1 = (size_t)((uintptr_t)m->ptr + off + end - 1 - m->plo) / page_size;
            for (size_t pg = p0; pg <= p1; pg++)
                m->idle[pg] = 0;
        }
        if (!m->ending)
            memcpy(m->shadow + off + start, a + start, end - start);
        i = end;
    }
    return 0;
}

/* Record the spans of [off, off + n) of the mapping that differ from the
 * shadow, and bring the shadow up to date.  0, -1, -2 as record_range.
 * With `mark`, the protected pages a span touches get idle 0.  Chunks of
 * CHUNK bytes are first compared in place (a guarded memcmp, no copy):
 * most of what a capture compares is unchanged (hot pages, the partial
 * pages, compare mode), and only runs of chunks that differ are copied
 * and diffed (a span never crosses an equal chunk: CHUNK > GAP). */
#define CHUNK ((size_t)4096)
static int record_diff_(w15_thread_t *t, map_t *m, size_t off, size_t n, int mark)
{
    if (scratch_ready())
        return -1;
    size_t end = off + n;
    while (off < end) {
        size_t c = end - off < CHUNK ? end - off : CHUNK;
        int eq = w15_guard_equal(m->ptr + off, m->shadow + off, c);
        if (eq < 0)
            return -2;
        if (eq) {
            off += c;
            continue;
        }
        /* a run of differing chunks, at most SCRATCH bytes */
        size_t k = c, skip = 0;
        while (off + k < end && k + CHUNK <= SCRATCH) {
            size_t c2 = end - off - k < CHUNK ? end - off - k : CHUNK;
            eq = w15_guard_equal(m->ptr + off + k, m->shadow + off + k, c2);
            if (eq < 0)
                return -2;
            if (eq) {
                skip = c2;
                break;
            }
            k += c2;
        }
        int r = diff_block(t, m, off, k, mark);
        if (r)
            return r;
        off += k + skip;
    }
    return 0;
}

static int record_diff(w15_thread_t *t, map_t *m, size_t off, size_t n)
{
    return record_diff_(t, m, off, n, 0);
}

/* Every word of m's dirty bits to 0. */
static void dirty_clear(map_t *m)
{
    size_t np = (m->phi - m->plo) / page_size;
    for (size_t w = 0; w < (np + 63) / 64; w++)
        atomic_store(&m->dirty[w], 0);
}

/* Give up protecting m: its pages writable, compared whole from now on. */
static void to_compare(map_t *m)
{
    unprotect(m);
    atomic_store(&m->mode, M_COMPARE);
}

/* Hot pages.  Write-protecting a page again costs a fault at its next
 * write (a signal, two mprotect calls and the TLB shootdowns they bring):
 * far more than comparing the page.  A page written again within HOT_AGAIN
 * captures of being protected (a ring, a buffer rewritten every frame) is
 * left writable and dirty instead, and compared at every capture, until it
 * has not changed for HOT_IDLE captures; at most HOT_MAX pages of a
 * mapping are hot, so a capture compares at most HOT_MAX pages it need not. */
#define HOT_AGAIN 32
#define HOT_IDLE 32
#define HOT_MAX 64

/* Capture the dirty pages [first, end) of a protected mapping: those that
 * do not stay hot are made clean and protected again FIRST, then the whole
 * run is compared.  0, -1, -2 as record_range; 1 when protection failed
 * (m is in compare mode now and was compared whole). */
static int capture_run(w15_thread_t *t, map_t *m, size_t first, size_t end)
{
    size_t lo = SIZE_MAX;
    /* a kernel write in flight: nothing is protected (the pages stay
     * dirty and writable, compared again next time) */
    int can = protect_begin(m) == 0;
    for (size_t k = can ? first : end + 1; k <= end; k++) {
        int prot = 0;
        if (k < end) {
            if (m->hot[k] && m->idle[k] >= HOT_IDLE) {
                m->hot[k] = 0;
                m->nhot--;
            } else if (!m->hot[k] && m->stamp[k] && m->ncap - m->stamp[k] <= HOT_AGAIN && m->nhot < HOT_MAX) {
                m->hot[k] = 1;
                m->nhot++;
            }
            prot = !m->hot[k];
        }
        if (prot) {
            if (lo == SIZE_MAX)
                lo = k;
            continue;
        }
        if (lo == SIZE_MAX)
            continue;
        /* clean first, protected second: a write in between is seen by
         * the comparison below */
        for (size_t p = lo; p < k; p++) {
            atomic_fetch_and(&m->dirty[p / 64], ~((uint64_t)1 << (p % 64)));
            m->stamp[p] = m->ncap;
            m->idle[p] = 0;
        }
        if (mprotect((void *)(m->plo + lo * page_size), (k - lo) * page_size, PROT_READ) != 0) {
            protect_end();
            to_compare(m);
            int r = record_diff(t, m, 0, m->length);
            return r ? r : 1;
        }
        lo = SIZE_MAX;
    }
    if (can)
        protect_end();
    else
        atomic_store(&m->any, 1);
    for (size_t k = first; k < end; k++)
        if (m->idle[k] < 255)
            m->idle[k]++;
    return record_diff_(t, m, m->plo + first * page_size - (uintptr_t)m->ptr, (end - first) * page_size, 1);
}

/* capture() of a mapping the kernel tracks: the written pages (protected
 * again by the scan itself, before they are compared: a write after that
 * is found next time) and the partial pages at either end, compared with
 * the shadow.  A scan that fails (the descriptor closed by the program,
 * say) gives the mapping up to compare mode. */
static int capture_uffd(w15_thread_t *t, map_t *m)
{
    uintptr_t base = (uintptr_t)m->ptr;
    size_t head = m->plo - base, tail = m->phi - base;
    struct page_region v[32];
    uintptr_t at = m->plo, next;
    int r = 0;
    if (m->all_next) {
        /* everything now; the written state cleared first */
        while (at < m->phi) {
            long n = uffd_scan(at, m->phi, v, 32, &next);
            if (n < 0)
                break;
            at = next;
        }
        if (at < m->phi)
            to_compare(m);
        m->all_next = 0;
        return record_range(t, m, 0, m->length);
    }
    if (head && (r = record_diff(t, m, 0, head)))
        return r;
    while (at < m->phi) {
        long n = uffd_scan(at, m->phi, v, 32, &next);
        if (n < 0) {
            to_compare(m);
            return record_diff(t, m, head, m->length - head);
        }
        for (long i = 0; i < n; i++)
            if ((r = record_diff(t, m, (size_t)(v[i].start - base), (size_t)(v[i].end - v[i].start))))
                return r;
        at = next;
    }
    if (tail < m->length && (r = record_diff(t, m, tail, m->length - tail)))
        return r;
    return 0;
}

/* A persistent mapping's changes since the last capture.  0, -1, -2 as
 * record_range. */
static int capture(w15_thread_t *t, map_t *m)
{
    if (atomic_load(&m->mode) == M_UFFD)
        return capture_uffd(t, m);
    if (atomic_load(&m->mode) == M_COMPARE_PENDING)
        to_compare(m);
    if (atomic_load(&m->mode) == M_COMPARE) {
        if (m->all_next) {
            m->all_next = 0;
            return record_range(t, m, 0, m->length);
        }
        return record_diff(t, m, 0, m->length);
    }
    uintptr_t base = (uintptr_t)m->ptr;
    size_t head = m->plo - base, tail = m->phi - base;
    size_t np = (m->phi - m->plo) / page_size;
    if (m->all_next) {
        /* clean and protected again, then everything */
        if (protect_begin(m) == 0) {
            atomic_store(&m->any, 0);
            dirty_clear(m);
            memset(m->hot, 0, np);
            m->nhot = 0;
            int failed = mprotect((void *)m->plo, m->phi - m->plo, PROT_READ) != 0;
            protect_end();
            if (failed)
                to_compare(m);
        }
        m->all_next = 0;
        return record_range(t, m, 0, m->length);
    }
    int r = 0;
    if (head && (r = record_diff(t, m, 0, head)))
        return r;
    m->ncap++;
    if (atomic_exchange(&m->any, 0)) {
        size_t nw = (np + 63) / 64;
        size_t run = SIZE_MAX; /* first page of the dirty run being gathered */
        for (size_t w = 0; w <= nw; w++) {
            uint64_t bits = w < nw ? atomic_load_explicit(&m->dirty[w], memory_order_relaxed) : 0;
            if ((bits == 0 && run == SIZE_MAX) || (bits == ~(uint64_t)0 && run != SIZE_MAX))
                continue;
            /* (bits past the last page are never set: a run ends by np) */
            for (size_t b = 0; b < 64; b++) {
                size_t k = w * 64 + b;
                if ((bits >> b) & 1) {
                    if (run == SIZE_MAX)
                        run = k;
                    continue;
                }
                if (run == SIZE_MAX)
                    continue;
                r = capture_run(t, m, run, k);
                if (r == 1)
                    return 0; /* gave up protecting: everything compared */
                if (r)
                    return r;
                run = SIZE_MAX;
            }
        }
        if (m->nhot)
            atomic_store(&m->any, 1);
    }
    if (tail < m->length && (r = record_diff(t, m, tail, m->length - tail)))
        return r;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Starting and ending mappings                                        */

/* A shadow for m's `length` bytes (under maps_lock): the spare when it is
 * large enough, else new memory.  0, or -1 out of memory. */
static int shadow_get(map_t *m)
{
    if (spare && spare_cap >= m->length) {
        m->shadow = spare;
        m->shadow_cap = spare_cap;
        spare = NULL;
        return 0;
    }
    m->shadow = malloc(m->length);
    m->shadow_cap = m->length;
    return m->shadow ? 0 : -1;
}

/* m's shadow is no longer needed (under maps_lock): it becomes the spare
 * when it fits SPARE_MAX and is larger than the spare there is. */
static void shadow_put(map_t *m)
{
    uint8_t *s = m->shadow;
    m->shadow = NULL;
    if (!s)
        return;
    if (m->shadow_cap <= SPARE_MAX && (!spare || spare_cap < m->shadow_cap)) {
        free(spare);
        spare = s;
        spare_cap = m->shadow_cap;
    } else {
        free(s);
    }
}

/* Forget m (under maps_lock): its pages writable again, memory freed. */
static void map_drop(map_t *m)
{
    map_unlink(m);
    atomic_fetch_sub(&nmaps, 1);
    unprotect(m);
    free(m->dirty);
    free(m->hot);
    free(m->idle);
    free(m->stamp);
    shadow_put(m);
    free(m);
}

/* Watch a new persistent mapping's whole pages (under maps_lock). */
static void protect_setup(map_t *m)
{
    uintptr_t a = (uintptr_t)m->ptr;
    m->plo = (a + page_size - 1) & ~(uintptr_t)(page_size - 1);
    m->phi = (a + m->length) & ~(uintptr_t)(page_size - 1);
    if (m->phi <= m->plo || w15_cfg.maps_compare)
        goto compare;
    if (uffd_ready() && uffd_register(m->plo, m->phi) == 0) {
        atomic_store(&m->mode, M_UFFD);
        return;
    }
    if (!fault_handler_installed())
        goto compare;
    size_t np = (m->phi - m->plo) / page_size;
    m->dirty = calloc((np + 63) / 64, sizeof *m->dirty);
    m->hot = calloc(np, 1);
    m->idle = calloc(np, 1);
    m->stamp = calloc(np, sizeof *m->stamp);
    if (!m->dirty || !m->hot || !m->idle || !m->stamp || slot_publish(m))
        goto compare;
    if (protect_begin(m) != 0) {
        unprotect(m);
        goto compare;
    }
    int failed = mprotect((void *)m->plo, m->phi - m->plo, PROT_READ) != 0;
    protect_end();
    if (failed) {
        unprotect(m);
        goto compare;
    }
    atomic_store(&m->mode, M_PROTECT);
    return;
compare:
    atomic_store(&m->mode, M_COMPARE);
}

static int is_named(uint32_t id)
{
    return id == W15F_glMapNamedBuffer || id == W15F_glMapNamedBufferEXT || id == W15F_glMapNamedBufferRange ||
           id == W15F_glMapNamedBufferRangeEXT || id == W15F_glUnmapNamedBuffer ||
           id == W15F_glUnmapNamedBufferEXT || id == W15F_glFlushMappedNamedBufferRange ||
           id == W15F_glFlushMappedNamedBufferRangeEXT;
}

/* Under maps_lock: buffer's old record goes (a mapping whose end went
 * unseen, or pinned memory whose data store is replaced), and the new
 * mapping of `length` bytes at p becomes its record when the program may
 * write through it (GL_MAP_WRITE_BIT): persistent ones (pinned memory
 * among them) watched from now on, the others given a copy of their bytes
 * to compare at unmap when that is how their writes are found. */
static void map_start(uint32_t group, uint32_t buffer, uint64_t offset, uint64_t length, uint8_t *p,
                      uint32_t access, int pinned, int rec)
{
    maps_init_once();
    map_t *old = map_find(group, buffer);
    if (old)
        map_drop(old);
    map_t *m = NULL;
    if (!(access & GL_MAP_WRITE_BIT_) || !length || !(m = calloc(1, sizeof *m)))
        return;
    m->slot = -1;
    m->group = group;
    m->buffer = buffer;
    m->offset = offset;
    m->length = length;
    m->ptr = p;
    m->access = access;
    m->pinned = pinned;
    int invalidated = (access & (GL_MAP_INVALIDATE_RANGE_BIT_ | GL_MAP_INVALIDATE_BUFFER_BIT_)) != 0;
    if (access & GL_MAP_PERSISTENT_BIT_) {
        if (shadow_get(m) || w15_guard_copy(m->shadow, p, length)) {
            const char *why = m->shadow ? "unreadable" : "out of memory";
            if (pinned)
                w15_msg("cannot follow the pinned memory of buffer %u (%s); the program's writes to it are not "
                        "recorded", buffer, why);
            else
                w15_msg("cannot follow a persistent mapping of buffer %u (%s); its writes are not recorded",
                        buffer, why);
            shadow_put(m);
            free(m);
            return;
        }
        m->all_next = invalidated;
        protect_setup(m);
        atomic_fetch_add(&npersistent, 1);
    } else if (rec && !invalidated && !(access & GL_MAP_FLUSH_EXPLICIT_BIT_)) {
        /* the bytes before the program writes: only changes are recorded
         * at unmap (without this copy, the whole range is) */
        if (shadow_get(m) == 0 && w15_guard_copy(m->shadow, p, length))
            shadow_put(m);
    }
    m->next = mlist;
    mlist = m;
    atomic_fetch_add(&nmaps, 1);
}

static void on_map(w15_thread_t *t, uint32_t id, const w15_slot_t *args, const w15_slot_t *ret, int rec)
{
    uint8_t *p = ret ? (uint8_t *)(uintptr_t)ret->p : NULL;
    if (!p)
        return;
    int ranged = id == W15F_glMapBufferRange || id == W15F_glMapBufferRangeEXT ||
                 id == W15F_glMapNamedBufferRange || id == W15F_glMapNamedBufferRangeEXT;
    uint32_t access;
    uint64_t offset = 0, length;
    if (ranged) {
        offset = (uint64_t)args[1].i;
        length = args[2].i > 0 ? (uint64_t)args[2].i : 0;
        access = (uint32_t)args[3].u;
    } else {
        uint32_t a = (uint32_t)args[1].u;
        access = a == GL_READ_ONLY_ ? GL_MAP_READ_BIT_
                 : a == GL_WRITE_ONLY_ ? GL_MAP_WRITE_BIT_
                 : a == GL_READ_WRITE_ ? GL_MAP_READ_BIT_ | GL_MAP_WRITE_BIT_
                                       : 0;
        length = (access & GL_MAP_WRITE_BIT_) ? buffer_size(id, args) : 0;
    }
    uint32_t buffer = is_named(id) ? (uint32_t)args[0].u : target_buffer((uint32_t)args[0].u);
    if (!buffer)
        return;
    pthread_mutex_lock(&maps_lock);
    map_start(group_of(t), buffer, offset, length, p, access, 0, rec);
    pthread_mutex_unlock(&maps_lock);
}

/* After a capture that could not read the mapping (gone without our
 * seeing its end): forget it. */
static void captured(map_t *m, int r)
{
    if (r == -2) {
        w15_msg("a mapping of buffer %u can no longer be read; its writes are no longer recorded", m->buffer);
        map_drop(m);
    }
}

static void on_unmap(w15_thread_t *t, uint32_t id, const w15_slot_t *args, int rec)
{
    if (!atomic_load(&nmaps))
        return;
    uint32_t buffer = is_named(id) ? (uint32_t)args[0].u : target_buffer((uint32_t)args[0].u);
    pthread_mutex_lock(&maps_lock);
    map_t *m = buffer ? map_find(group_of(t), buffer) : NULL;
    if (m) {
        if (rec) {
            if (m->access & GL_MAP_PERSISTENT_BIT_)
                capture(t, m);
            else if (m->access & GL_MAP_FLUSH_EXPLICIT_BIT_)
                ; /* the flushes recorded what the program wrote */
            else if (m->shadow) {
                m->ending = 1;
                record_diff(t, m, 0, m->length);
            } else {
                record_range(t, m, 0, m->length);
            }
        }
        map_drop(m);
    }
    pthread_mutex_unlock(&maps_lock);
}

static void on_flush(w15_thread_t *t, uint32_t id, const w15_slot_t *args, int rec)
{
    if (!rec || !atomic_load(&nmaps))
        return;
    uint32_t buffer = is_named(id) ? (uint32_t)args[0].u : target_buffer((uint32_t)args[0].u);
    pthread_mutex_lock(&maps_lock);
    map_t *m = buffer ? map_find(group_of(t), buffer) : NULL;
    if (m && (m->access & GL_MAP_PERSISTENT_BIT_)) {
        captured(m, capture(t, m));
    } else if (m && (m->access & GL_MAP_FLUSH_EXPLICIT_BIT_)) {
        /* relative to the mapping; outside it GL refuses the call */
        int64_t off = args[1].i, len = args[2].i;
        if (off >= 0 && len > 0 && (uint64_t)off <= m->length && (uint64_t)len <= m->length - (uint64_t)off)
            captured(m, record_range(t, m, (size_t)off, (size_t)len));
    }
    pthread_mutex_unlock(&maps_lock);
}

/* Calls that end mappings without an unmap (pre: the mapping's pages must
 * be writable and forgotten before GL frees them). */
static void on_implicit_end(w15_thread_t *t, uint32_t id, const w15_slot_t *args)
{
    if (!atomic_load(&nmaps))
        return;
    uint32_t group = group_of(t);
    switch (id) {
    case W15F_glDeleteBuffers:
    case W15F_glDeleteBuffersARB: {
        /* every named buffer is unmapped (and deleted) */
        int64_t n = args[0].i;
        const uint32_t *names = (const uint32_t *)args[1].p;
        uint32_t chunk[256];
        for (int64_t i = 0; n > 0 && names && i < n; i += 256) {
            size_t k = (size_t)(n - i < 256 ? n - i : 256);
            if (w15_guard_copy(chunk, names + i, k * sizeof *chunk))
                break;
            pthread_mutex_lock(&maps_lock);
            for (size_t j = 0; j < k; j++) {
                if (t->ctx && chunk[j] && (uintptr_t)t->ctx->maps == chunk[j])
                    t->ctx->maps = NULL; /* its GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD binding goes */
                map_t *m = chunk[j] ? map_find(group, chunk[j]) : NULL;
                if (m)
                    map_drop(m);
            }
            pthread_mutex_unlock(&maps_lock);
        }
        return;
    }
    case W15F_eglTerminate:
        /* the display's contexts go, and their buffers with them */
        pthread_mutex_lock(&maps_lock);
        while (mlist)
            map_drop(mlist);
        pthread_mutex_unlock(&maps_lock);
        return;
    default:
        break;
    }
    /* glBufferData, glBufferStorage and their DSA forms replace the data
     * store of a mutable buffer, unmapping it (a pinned buffer too); a
     * persistent mapping's buffer is immutable (the call fails and the
     * mapping stays) */
    uint32_t buffer;
    switch (id) {
    case W15F_glBufferData:
    case W15F_glBufferDataARB:
    case W15F_glBufferStorage:
    case W15F_glBufferStorageEXT:
        buffer = target_buffer((uint32_t)args[0].u);
        break;
    case W15F_glNamedBufferData:
    case W15F_glNamedBufferDataEXT:
    case W15F_glNamedBufferStorage:
    case W15F_glNamedBufferStorageEXT:
        buffer = (uint32_t)args[0].u;
        break;
    default:
        return;
    }
    pthread_mutex_lock(&maps_lock);
    map_t *m = buffer ? map_find(group, buffer) : NULL;
    if (m && (!(m->access & GL_MAP_PERSISTENT_BIT_) || m->pinned))
        map_drop(m);
    pthread_mutex_unlock(&maps_lock);
}

/* glBindBuffer*(target, buffer): the one binding GL cannot be asked. */
static void on_bind(w15_thread_t *t, const w15_slot_t *args)
{
    if ((uint32_t)args[0].u == GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD_ && t->ctx)
        t->ctx->maps = (void *)(uintptr_t)(uint32_t)args[1].u;
}

/* glBufferData*(GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD, size, data, usage):
 * the buffer is now the program's memory at data; followed from here on
 * like a persistent coherent mapping of the buffer. */
static void on_pin(w15_thread_t *t, uint32_t id, const w15_slot_t *args)
{
    if ((id != W15F_glBufferData && id != W15F_glBufferDataARB) ||
        (uint32_t)args[0].u != GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD_ || !t->ctx)
        return;
    uint32_t buffer = (uint32_t)(uintptr_t)t->ctx->maps;
    uint8_t *p = (uint8_t *)args[2].p;
    int64_t size = args[1].i;
    if (!buffer || !p || size <= 0)
        return;
    pthread_mutex_lock(&maps_lock);
    map_start(group_of(t), buffer, 0, (uint64_t)size, p, GL_MAP_WRITE_BIT_ | GL_MAP_PERSISTENT_BIT_, 1, 1);
    pthread_mutex_unlock(&maps_lock);
}

static void on_consume(w15_thread_t *t, int rec)
{
    if (!rec || !atomic_load_explicit(&npersistent, memory_order_relaxed) || !t->ctx)
        return;
    uint32_t group = t->ctx->share_group;
    pthread_mutex_lock(&maps_lock);
    for (map_t *m = mlist, *next; m; m = next) {
        next = m->next;
        if (m->group == group && (m->access & GL_MAP_PERSISTENT_BIT_))
            captured(m, capture(t, m));
    }
    pthread_mutex_unlock(&maps_lock);
}

typedef struct {
    void *handle;
    uint32_t group;
    int others;
} group_count_t;

static void count_group(w15_ctx_t *c, void *arg)
{
    group_count_t *g = arg;
    if (c->share_group == g->group && c->handle != g->handle)
        g->others++;
}

/* glXDestroyContext / eglDestroyContext: when the context is the last of
 * its share group, its buffers go with it. */
static void on_context_destroy(uint32_t id, const w15_slot_t *args)
{
    if (!atomic_load(&nmaps) || w15_funcs[id].nparams < 2 || !args[1].p)
        return;
    w15_ctx_t *c = w15_ctx_find((void *)(uintptr_t)args[1].p, 0);
    if (!c)
        return;
    group_count_t g = { c->handle, c->share_group, 0 };
    w15_ctx_each(count_group, &g);
    if (g.others)
        return;
    pthread_mutex_lock(&maps_lock);
    for (map_t *m = mlist, *next; m; m = next) {
        next = m->next;
        if (m->group == g.group)
            map_drop(m);
    }
    pthread_mutex_unlock(&maps_lock);
}

static int is_unmap(uint32_t id)
{
    return id == W15F_glUnmapBuffer || id == W15F_glUnmapBufferARB || id == W15F_glUnmapBufferOES ||
           id == W15F_glUnmapNamedBuffer || id == W15F_glUnmapNamedBufferEXT;
}

void w15_maps_pre(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args, int rec)
{
    int e = errno;
    if (flags & W15_FN_CONSUMES)
        on_consume(t, rec);
    if (flags & W15_FN_FLUSH_MAPPED)
        on_flush(t, id, args, rec);
    if (flags & W15_FN_UNMAP) {
        if (is_unmap(id))
            on_unmap(t, id, args, rec);
        else
            on_implicit_end(t, id, args);
    }
    if (flags & W15_FN_CONTEXT_DESTROY)
        on_context_destroy(id, args);
    errno = e;
}

void w15_maps_post(w15_thread_t *t, uint32_t id, uint32_t flags, const w15_slot_t *args,
                   const w15_slot_t *ret, int rec)
{
    int e = errno;
    if (flags & W15_FN_MAP)
        on_map(t, id, args, ret, rec);
    if (flags & W15_FN_BUFFER_BIND)
        on_bind(t, args);
    if (flags & W15_FN_UNMAP)
        on_pin(t, id, args);
    errno = e;
}
