/* fixture_lookup.c -- run by test_codegen.py: the fixture registry's
 * generated tables (gen/apitable.c of tests/codegen/fixture) linked with
 * src/common/apitable.c; checks the lookups and the table layout. */
#include <stdio.h>
#include <string.h>

#include "apitable.h"
#include "check.h"
#include "funcs.h"
#include "wip15/format.h"


static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static const w15_param_sig_t *param(int f, unsigned i) { return &w15_params[w15_funcs[f].first_param + i]; }

int main(void)
{
    CHECK(w15_nfuncs == W15F__COUNT);
    CHECK(w15_func_lookup("glClear") == W15F_glClear);
    CHECK(w15_func_lookup("eglCreateContext") == W15F_eglCreateContext);
    CHECK(w15_func_lookup("glXSwapBuffers") == W15F_glXSwapBuffers);
    CHECK(w15_func_lookup("glNope") == -1);
    CHECK(w15_func_lookup("") == -1);
    for (uint32_t i = 0; i < w15_nfuncs; i++)
        CHECK(w15_func_lookup(w15_str(w15_funcs[i].name)) == (int)i);

    int ec = w15_group_lookup("EnableCap");
    CHECK(ec >= 0 && w15_groups[ec].type == W15_GROUP_ENUM);
    CHECK(streq(w15_enum_name((uint32_t)ec, 0x0B71, 0), "GL_DEPTH_TEST"));
    /* not in the group: fall back to every enumerant */
    CHECK(streq(w15_enum_name((uint32_t)ec, 0x8892, 0), "GL_ARRAY_BUFFER"));
    int tu = w15_group_lookup("TextureUnit");
    CHECK(streq(w15_enum_name((uint32_t)tu, 0x84C0, 0), "GL_TEXTURE0"));
    CHECK(streq(w15_enum_name(W15_NO_GROUP, 0x3038, W15_API_EGL), "EGL_NONE"));
    CHECK(streq(w15_enum_name(W15_NO_GROUP, 0xffffffffffffffffull, W15_API_EGL), "EGL_DONT_CARE"));
    CHECK(w15_enum_name(W15_NO_GROUP, 0x12345678, 0) == NULL);
    int buf = w15_group_lookup("buffer");
    CHECK(buf >= 0 && w15_groups[buf].type == W15_GROUP_GL_BUFFERS);
    CHECK(w15_enum_name((uint32_t)buf, 1, 0) == NULL); /* object names are not enums */
    CHECK(w15_group_lookup("NoSuchGroup") == -1);

    /* glShaderSource(shader, count, string, length) */
    const w15_param_sig_t *s = param(W15F_glShaderSource, 2);
    CHECK(s->cap == W15_CAP_STR_ARRAY_IN && s->base == W15_STRING && s->is_array == 1);
    CHECK(s->len_op == W15_LEN_PARAM && s->len_a == 1 && s->len2 == 3);
    CHECK(param(W15F_glShaderSource, 0)->group == (uint16_t)w15_group_lookup("shader"));
    /* result slot after the parameters */
    CHECK(param(W15F_glGetString, 1)->cap == W15_CAP_STR_IN);
    CHECK(param(W15F_glClear, 1)->base == W15_VOID);
    /* glGetIntegerv data: helper pname_0_out */
    s = param(W15F_glGetIntegerv, 1);
    CHECK(s->cap == W15_CAP_ARRAY_OUT && s->len_op == W15_LEN_HELPER);
    CHECK(s->len_b < w15_ncompsize && streq(w15_compsize_names[s->len_b], "pname_0_out"));
    s = param(W15F_eglCreateContext, 3);
    CHECK(s->len_op == W15_LEN_TERMINATED && s->len_b == 0x3038 && s->ctype == W15_C_I32);

    CHECK(w15_funcs[W15F_glXSwapBuffers].flags == (W15_FN_FRAME_END | W15_FN_GENERAL));
    CHECK(w15_funcs[W15F_glTexImage2D].flags == (W15_FN_UPLOAD | W15_FN_PIXEL_UNPACK | W15_FN_GENERAL));
    CHECK(w15_funcs[W15F_glClear].api == (W15_API_GL | W15_API_GLES2));

    CHECK(w15_pname_count(0x0BA2) == 4);
    CHECK(w15_pname_count(0x0B71) == 1);
    CHECK(w15_pname_count(0x0B72) == 0);

    if (check_failed)
        printf("%d failure(s)\n", check_failed);
    return check_failed != 0;
}
