/* names.c -- names of the format's enumerations and error codes. */
#include "internal.h"

#include <stdio.h>

static const char *const base_names[W15_BASE_COUNT_] = {
    "Void", "UnsignedInt", "Int", "Ptr", "Bool", "Float", "Double", "String", "Data", "FunctionPtr",
};

static const char *const comp_names[W15_COMP_COUNT_] = {"None", "Zlib", "LZ4"};

static const char *const group_type_names[W15_GROUP_TYPE_COUNT_] = {
    "Enum", "BitMask", "GLBuffers", "GLSamplers", "GLTextures", "GLQueries", "GLFramebuffers",
    "GLRenderbuffers", "GLSyncs", "GLPrograms", "GLProgramPipelines", "GLShaders", "GLVAOs",
    "GLTransformFeedbacks", "EGLOESImages", "GLXFBConfigs", "GLXContexts",
    /* project extensions, docs/FORMAT.md "Group types" */
    "EGLDisplays", "EGLConfigs", "EGLContexts", "EGLSurfaces", "EGLSyncs", "GLXDisplays",
    "GLXDrawables", "GLDisplayLists",
};

static const char *const error_messages[W15_E_COUNT_] = {
#define W15_X_MSG(name, msg) msg,
    W15_ERRORS(W15_X_MSG)
#undef W15_X_MSG
};

const char *w15_base_name(unsigned base)
{
    return base < W15_BASE_COUNT_ ? base_names[base] : "?";
}

const char *w15_comp_name(unsigned comp)
{
    return comp < W15_COMP_COUNT_ ? comp_names[comp] : "?";
}

const char *w15_group_type_name(unsigned type)
{
    return type < W15_GROUP_TYPE_COUNT_ ? group_type_names[type] : "?";
}

const char *w15_errcode_message(w15_errcode_t code)
{
    return (unsigned)code < W15_E_COUNT_ ? error_messages[code] : "?";
}

void w15_set_error(w15_error_t *err, w15_errcode_t code, uint64_t offset, const char *fmt, ...)
{
    if (!err)
        return;
    err->code = code;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}
