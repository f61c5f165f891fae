/* apitable_test.c -- checks the tables generated from the real registries
 * (libwip15api) and src/tracer/compsize.c's helper table against them. */
#include <stdio.h>
#include <string.h>

#include "apitable.h"
#include "check.h"
#include "compsize_ids.h"
#include "funcs.h"
#include "record.h"
#include "wip15/format.h"

/* compsize.c's image helpers call the runtime's pixel code; not here. */
size_t w15_image_bytes(int pack, int three_d, uint32_t format, uint32_t type, int64_t w, int64_t h, int64_t d)
{
    (void)pack; (void)three_d; (void)format; (void)type;
    return (size_t)(w * h * d * 4);
}
size_t w15_teximage_bytes(uint32_t target, int64_t level, uint32_t format, uint32_t type)
{
    (void)target; (void)level; (void)format; (void)type;
    return 4;
}
size_t w15_teximage_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level, uint32_t format,
                              uint32_t type)
{
    (void)multi; (void)obj; (void)target; (void)level; (void)format; (void)type;
    return 4;
}
size_t w15_compressed_ext_bytes(int multi, uint32_t obj, uint32_t target, int64_t level)
{
    (void)multi; (void)obj; (void)target; (void)level;
    return 8;
}
size_t w15_compressed_bytes(uint32_t target, int64_t level)
{
    (void)target; (void)level;
    return 8;
}
size_t w15_uniform_components(uint32_t program, int64_t location)
{
    (void)program; (void)location;
    return 4;
}
size_t w15_pixel_map_values(uint32_t map)
{
    (void)map;
    return 1;
}
size_t w15_eval_map_values(uint32_t target, uint32_t query)
{
    (void)target; (void)query;
    return 1;
}
size_t w15_texel_bytes(uint32_t format, uint32_t type)
{
    (void)format; (void)type;
    return 4;
}
/* and guarded reads (the multimode helper reads its count array) */
int w15_guard_copy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
    return 0;
}


static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static const char *ename(const char *group, uint64_t v, uint32_t api)
{
    int g = w15_group_lookup(group);
    return g < 0 ? NULL : w15_enum_name((uint32_t)g, v, api);
}

int main(void)
{
    CHECK(w15_nfuncs == W15F__COUNT && w15_nfuncs > 3000);
    uint32_t nparams = 0;
    for (uint32_t i = 0; i < w15_nfuncs; i++) {
        const w15_func_sig_t *f = &w15_funcs[i];
        CHECK(w15_func_lookup(w15_str(f->name)) == (int)i);
        if (i)
            CHECK(strcmp(w15_str(w15_funcs[i - 1].name), w15_str(f->name)) < 0);
        CHECK(f->first_param == nparams);
        for (uint32_t k = 0; k <= f->nparams; k++) {
            const w15_param_sig_t *p = &w15_params[f->first_param + k];
            CHECK(p->group == W15_NO_GROUP || p->group < w15_ngroups);
            CHECK(p->len_a == W15_NO_PARAM || p->len_a < f->nparams);
            CHECK(p->len2 == W15_NO_PARAM || p->len2 < f->nparams);
            if (p->len_op == W15_LEN_PARAM_MUL_PARAM)
                CHECK(p->len_b < f->nparams);
            if (p->len_op == W15_LEN_HELPER)
                CHECK(p->len_b < w15_ncompsize && w15_compsize[p->len_b] != NULL);
            if (p->cap != W15_CAP_VALUE && p->cap != W15_CAP_PTR)
                CHECK(p->len_op != W15_LEN_NONE);
        }
        nparams += f->nparams + 1u;
    }
    CHECK(w15_func_lookup("glDrawArrays") == W15F_glDrawArrays);
    CHECK(w15_func_lookup("glDrawArrayz") == -1);

    /* groups sorted by name; enumerants of each sorted by value */
    for (uint32_t g = 0; g < w15_ngroups; g++) {
        const w15_group_sig_t *gr = &w15_groups[g];
        if (g)
            CHECK(strcmp(w15_str(w15_groups[g - 1].name), w15_str(gr->name)) < 0);
        CHECK(w15_group_lookup(w15_str(gr->name)) == (int)g);
        CHECK(gr->first_enum + gr->nenums <= w15_nenums);
        for (uint32_t e = 1; e < gr->nenums; e++)
            CHECK(w15_enums[gr->first_enum + e - 1].value <= w15_enums[gr->first_enum + e].value);
    }
    for (uint32_t e = 1; e < w15_nall_enums; e++)
        CHECK(w15_all_enums[e - 1].value <= w15_all_enums[e].value);

    CHECK(streq(ename("TextureTarget", 0x0DE1, W15_API_GL), "GL_TEXTURE_2D"));
    CHECK(streq(ename("PrimitiveType", 0x0004, W15_API_GL), "GL_TRIANGLES"));
    CHECK(streq(ename("ClearBufferMask", 0x4000, W15_API_GL), "GL_COLOR_BUFFER_BIT"));
    CHECK(streq(ename("EnableCap", 0x0B71, W15_API_GLES2), "GL_DEPTH_TEST"));
    CHECK(streq(ename("BufferTargetARB", 0x8892, W15_API_GLES2), "GL_ARRAY_BUFFER"));
    CHECK(streq(ename("TextureUnit", 0x84C0, W15_API_GL), "GL_TEXTURE0"));
    CHECK(streq(w15_enum_name(W15_NO_GROUP, 0x3038, W15_API_EGL), "EGL_NONE"));
    CHECK(streq(w15_enum_name(W15_NO_GROUP, 0x8011, W15_API_GLX), "GLX_RENDER_TYPE"));
    CHECK(ename("texture", 1, 0) == NULL);

    /* glTexImage2D(target, level, internalformat, ...): groups and pixels */
    const w15_func_sig_t *ti = &w15_funcs[W15F_glTexImage2D];
    CHECK(ti->flags & W15_FN_PIXEL_UNPACK);
    CHECK(ti->flags & W15_FN_UPLOAD);
    CHECK(w15_params[ti->first_param].group == (uint16_t)w15_group_lookup("TextureTarget"));
    CHECK(w15_params[ti->first_param + 8].cap == W15_CAP_DATA_IN);
    CHECK(w15_params[ti->first_param + 8].len_op == W15_LEN_HELPER);

    CHECK(w15_funcs[W15F_glXSwapBuffers].flags & W15_FN_FRAME_END);
    CHECK(w15_funcs[W15F_eglSwapBuffers].flags & W15_FN_FRAME_END);
    CHECK(w15_funcs[W15F_eglMakeCurrent].flags & W15_FN_MAKE_CURRENT);
    CHECK(w15_funcs[W15F_glXGetProcAddressARB].flags == (W15_FN_GET_PROC | W15_FN_CUSTOM | W15_FN_GENERAL));
    CHECK(w15_funcs[W15F_eglMakeCurrent].context_param == 3);
    CHECK(w15_funcs[W15F_glXMakeCurrent].context_param == 2);
    CHECK(w15_funcs[W15F_glDrawElements].context_param == W15_NO_PARAM);
    CHECK(!(w15_funcs[W15F_glEnable].flags & W15_FN_GENERAL));
    /* the capture's flags imply the general path */
    CHECK((w15_funcs[W15F_glDrawElements].flags & (W15_FN_VERTEX_DRAW | W15_FN_CONSUMES | W15_FN_GENERAL)) ==
          (W15_FN_VERTEX_DRAW | W15_FN_CONSUMES | W15_FN_GENERAL));
    CHECK(w15_funcs[W15F_glMapBufferRange].flags & W15_FN_MAP);
    CHECK(w15_funcs[W15F_glUnmapNamedBuffer].flags & W15_FN_UNMAP);
    CHECK(w15_funcs[W15F_eglCreateContext].flags & W15_FN_CONTEXT_CREATE);
    CHECK(w15_funcs[W15F_glFinish].flags & W15_FN_SYNC_POINT);
    CHECK(w15_params[w15_funcs[W15F_glXChooseVisual].first_param + 2].attribs == W15_ATTRIBS_GLX12);
    CHECK(w15_params[w15_funcs[W15F_eglCreateContext].first_param + 3].attribs == W15_ATTRIBS_PAIRS);
    /* the pseudo-calls follow the commands and are found by name */
    CHECK(W15F_wip15TraceBegin == W15F__COUNT && W15F_wip15ThreadSwitch == W15F__COUNT + 1);
    CHECK(w15_npseudo == 9 && w15_func_lookup("wip15ThreadSwitch") == W15F_wip15ThreadSwitch);
    CHECK(w15_func_lookup("wip15BufferWrite") == W15F_wip15BufferWrite &&
          w15_funcs[W15F_wip15BufferWrite].flags == W15_FN_PSEUDO);
    /* a pseudo-call parameter with a group: the buffer namespace */
    CHECK(w15_groups[w15_params[w15_funcs[W15F_wip15BufferWrite].first_param].group].type == W15_GROUP_GL_BUFFERS);
    CHECK(w15_funcs[W15F_wip15ThreadSwitch].flags == (W15_FN_PSEUDO | W15_FN_THREAD_SWITCH));
    CHECK(w15_funcs[W15F_wip15TraceBegin].nparams == 6 && w15_funcs[W15F_wip15ThreadSwitch].nparams == 4);
    CHECK(w15_funcs[W15F_glDrawElements].flags & W15_FN_DRAW);
    CHECK(w15_funcs[W15F_glCompileShader].flags & W15_FN_COMPILE);
    CHECK(w15_funcs[W15F_glPushDebugGroup].flags & W15_FN_GROUP_PUSH);
    CHECK(w15_funcs[W15F_glDrawArrays].api & W15_API_GLES2);
    CHECK(w15_funcs[W15F_glBegin].api == W15_API_GL);

    /* pname table and the helpers that use it */
    CHECK(w15_npname_counts > 500);
    for (uint32_t i = 1; i < w15_npname_counts; i++)
        CHECK(w15_pname_counts[i - 1].pname < w15_pname_counts[i].pname);
    CHECK(w15_pname_count(0x0BA2) == 4);   /* GL_VIEWPORT */
    CHECK(w15_pname_count(0x0BA6) == 16);  /* GL_MODELVIEW_MATRIX */
    CHECK(w15_pname_count(0x86A3) == 0);   /* GL_COMPRESSED_TEXTURE_FORMATS */
    w15_slot_t a[3] = { { .u = 0x0BA2 }, { .p = 0 }, { .u = 0 } };
    CHECK(w15_compsize[W15_CS_pname_0_out](a) == 4);
    a[1].u = 0x1004; /* glTexParameterfv(target, GL_TEXTURE_BORDER_COLOR, ...) */
    CHECK(w15_compsize[W15_CS_pname_1](a) == 4);
    /* glCallLists(3, GL_UNSIGNED_SHORT, lists): 6 bytes */
    a[0].i = 3; a[1].u = 0x1403;
    CHECK(w15_compsize[W15_CS_lists_0_1](a) == 6);
    /* names and helper table agree */
    CHECK(w15_ncompsize == W15_CS__COUNT);
    CHECK(streq(w15_compsize_names[W15_CS_pname_0_out], "pname_0_out"));
    for (uint32_t i = 0; i < w15_ncompsize; i++)
        CHECK(w15_compsize[i] != NULL);

    if (check_failed)
        printf("%d failure(s)\n", check_failed);
    else
        printf("ok: %u functions, %u params, %u groups, %u enums, %u pnames, %u helpers\n",
               w15_nfuncs, nparams, w15_ngroups, w15_nall_enums, w15_npname_counts, w15_ncompsize);
    return check_failed != 0;
}
