/* context.h -- the context current on each thread.  Owns what the tracer
 * knows of it: its handle (record.c reports each successful MakeCurrent),
 * its API and version (read once per MakeCurrent, lazily, with the real
 * glGetString(GL_VERSION)), and reads of its state with the real
 * glGetIntegerv, only for pnames the caller knows exist there, so no query
 * raises a GL error.  Per-context facts the capture needs later (the
 * framebuffer configuration, drawable sizes) belong here.  May use thread,
 * resolve and the generated tables.  Must never use record, timing or
 * pixels: they ask the context module, not the reverse. */
#ifndef W15_CONTEXT_H
#define W15_CONTEXT_H

#include "thread.h"

/* What the tracer knows of one GLX/EGL context, from its creation (or the
 * first MakeCurrent that names it) until it is destroyed; found by handle.
 * Each capture module keeps its own per-context state behind its pointer
 * here (allocated by that module, freed by it when the context goes). */
typedef struct w15_ctx {
    void *handle;          /* the GLXContext / EGLContext */
    uint32_t share_group;  /* contexts that share objects have the same number
                            * (its first context's id; surfaces.c sets it at
                            * creation from the share argument) */
    uint32_t id;           /* 1, 2, ... in order of first sight */
    char *exts;            /* context.c: " ext1 ext2 ... " once asked (w15_context_has_ext) */
    int compat;            /* context.c: legacy features: -1 not asked yet, 0, 1 */
    uint32_t targets;      /* pixels.c: the buffer targets of enum w15_offset_target
                            * it has (bit 1 << target), W15_TARGETS_KNOWN once asked */
    int client_pointers;   /* record.c: 1 once a pointer call (an attribute or a
                            * legacy array pointer, the GL_ARRAY_BUFFER offset rule)
                            * set a client-memory pointer (no buffer bound) */
    void *arrays;          /* arrays.c */
    uint8_t in_begin;      /* arrays.c: 1 between a glBegin GL executed and its glEnd;
                            * GL rejects every query there, so the tracer makes no
                            * GL call of its own (w15_context_get_int answers the
                            * default) and records OUTSIDE_BEGIN calls without
                            * contents (record.c) */
    void *maps;            /* maps.c: the buffer bound at GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD
                            * (a name, not a pointer; GL cannot be asked) */
    void *surfaces;        /* surfaces.c */
    struct w15_ctx *next;
} w15_ctx_t;
#define W15_TARGETS_KNOWN (1u << 31)

/* The record of context `handle` (non-NULL): found, or created when
 * `create` (a new share group of its own).  NULL when not found, or out of
 * memory.  Thread-safe; meant for creation, MakeCurrent and destruction,
 * not for every call (a thread keeps its current one in t->ctx). */
w15_ctx_t *w15_ctx_find(void *handle, int create);
/* Forget context `handle` (after its destruction); the modules have freed
 * their state.  t->ctx of threads where it is current is the caller's. */
void w15_ctx_forget(void *handle);
/* 1 once two contexts existed at the same time (and from then on): calls
 * that read or write objects another context may share are then ordered
 * across threads too (wip15.gseq, capture.c). */
int w15_ctx_several(void);
/* Whether context record c is current on some thread (takes
 * w15_threads_lock). */
int w15_ctx_current_anywhere(const w15_ctx_t *c);
/* Visit every known context (under the registry's lock; fn must not call
 * w15_ctx_find / w15_ctx_forget). */
void w15_ctx_each(void (*fn)(w15_ctx_t *c, void *arg), void *arg);

/* The calling thread's current context's record (t->ctx), NULL when none. */
w15_ctx_t *w15_context_current(void);

/* Find the real glGetString / glGetIntegerv (at start). */
void w15_context_init(void);
/* After a successful MakeCurrent of `ctx` (NULL: none) on thread t: sets
 * t->context and t->ctx (creating the context's record when it was created
 * before the tracer saw it). */
void w15_context_changed(w15_thread_t *t, void *ctx);
/* The calling thread's current context's API: 0 none or unknown, 1
 * desktop GL, 2 GLES; and its version. */
int w15_context_api(int *major, int *minor);
/* Whether the current context advertises extension `ext` ("GL_ARB_foo"):
 * 1 or 0 (0 without a current context).  The list is read once per context
 * (glGetStringi on GL >= 3.0 / GLES >= 3.0, else glGetString(GL_EXTENSIONS)),
 * never raising a GL error. */
int w15_context_has_ext(const char *ext);
/* Read and cache what the functions here ask GL once per context
 * (version, profile, extensions): arrays.c, before a glBegin, since
 * nothing may be asked until its glEnd. */
void w15_context_prime(void);
/* Whether the current context has the legacy (compatibility) features:
 * GL below 3.1, GL 3.1 with GL_ARB_compatibility, a GL >= 3.2 compatibility
 * profile, or GLES 1.x.  1 or 0. */
int w15_context_compat(void);
/* At least version major.minor of the current context's API `api` (1 GL,
 * 2 GLES)?  1 or 0. */
int w15_context_version(int api, int major, int minor);

/* The real glGetIntegerv(pname) in the current context, `dflt` when it is
 * not available; keeps errno.  The caller makes sure `pname` exists in the
 * context's API and version (w15_context_api). */
int w15_context_get_int(unsigned pname, int dflt);

#endif
