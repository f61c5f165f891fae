/* mktrace.c -- writes the fixture traces of the tools tests with the format
 * library's writer and encoders.
 *
 *   mktrace OUTDIR
 *
 * Files written (all deterministic):
 *   values.wip15      every value type, enums and bitmasks with gl.xml group
 *                     names, strings needing escapes, exact floats, a 64 KiB
 *                     blob, wip15.ptr NULL/offset pointers, other extras,
 *                     two threads, frames (glXSwapBuffers)
 *   frames.wip15      3 threads x 4 frames, zlib blobs, whole-file LZ4 stream
 *   big.wip15         20000 calls (for `dump | head`)
 *   floats.wip15      arrays of random float and double bit patterns;
 *   floats.txt        their bits in hex ("f XXXXXXXX" / "d XXXXXXXXXXXXXXXX")
 *   truncated.wip15   values.wip15 cut inside its last operation
 *   corrupt.wip15     values.wip15 followed by an unknown opcode byte
 *   badblob.wip15     an LZ4 blob that does not decompress
 *   badptr.wip15      a wip15.ptr extra of the wrong size
 *   undeclared.wip15  a call to a function that was never declared
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wip15/format.h"

static w15_buf_t B;
static w15_writer_t *W;
static const char *cur_path;

static void die(const char *what)
{
    fprintf(stderr, "mktrace: %s: %s\n", cur_path ? cur_path : "", what);
    exit(1);
}

static void need(size_t n)
{
    if (w15_buf_reserve(&B, n) < 0)
        die("out of memory");
}

static void commit(void)
{
    B.committed = B.len;
    if (B.len > (1u << 20)) {
        w15_error_t err;
        if (w15_writer_submit(W, &B, &err) < 0)
            die(err.msg);
    }
}

static void open_trace(const char *dir, const char *name, w15_comp_t method, int stream)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cur_path = path;
    w15_writer_opts_t o;
    w15_writer_opts_default(&o);
    o.blob_method = method;
    o.stream_lz4 = stream;
    o.max_functions = 64;
    o.max_groups = 32;
    w15_error_t err;
    W = w15_writer_open(path, 1, &o, &err);
    if (!W)
        die(err.msg);
    if (w15_buf_init(&B, 1 << 16) < 0)
        die("out of memory");
}

static void close_trace(void)
{
    w15_error_t err;
    B.committed = B.len;
    if (w15_writer_submit(W, &B, &err) < 0)
        die(err.msg);
    if (w15_writer_close(W, &err) < 0)
        die(err.msg);
    W = NULL;
    w15_buf_free(&B);
}

/* ---- declarations ---- */

#define T(b, g, a) ((w15_type_t){W15_##b, g, a})
#define S(b) T(b, 0, 0)
#define SG(b) T(b, 1, 0)
#define A(b) T(b, 0, 1)
#define AG(b) T(b, 1, 1)

static void decl_group(uint32_t idx, w15_group_type_t type, const char *name)
{
    if (w15_put_decl_group(&B, idx, type, name) < 0)
        die("out of memory");
    commit();
}

static void decl_func(uint32_t idx, const char *name, w15_type_t res, uint32_t n,
                      const w15_type_t *args)
{
    if (w15_put_decl_func(&B, idx, name, res, n, args) < 0)
        die("out of memory");
    commit();
}

/* ---- values ---- */

static void call(uint32_t f)
{
    need(5);
    w15_put_u8(&B, W15_OP_CALL);
    w15_put_u32(&B, f);
}
static void u(uint64_t v) { need(W15_MAX_UVARI); w15_put_uvari(&B, v); }
static void i64(int64_t v) { need(W15_MAX_UVARI); w15_put_svari(&B, v); }
static void grp(uint32_t g) { need(4); w15_put_u32(&B, g); }
static void cnt(uint32_t n) { need(4); w15_put_u32(&B, n); }
static void f32(float v) { need(4); w15_put_f32(&B, v); }
static void f64(double v) { need(8); w15_put_f64(&B, v); }
static void bl(uint8_t v) { need(1); w15_put_u8(&B, v); }
static void str(const char *s, uint32_t n) { need(4 + (size_t)n); w15_put_string(&B, s, n); }
static void cstr(const char *s) { str(s, (uint32_t)strlen(s)); }
static void data(const void *p, uint32_t n)
{
    if (w15_put_data(&B, p, n) < 0)
        die("out of memory");
}
/* extras: count, then (name, Data) pairs */
static void extras(uint32_t n) { cnt(n); }
static void extra_name(const char *name) { cstr(name); }
static void end(void) { commit(); }

/* wip15.ptr payload: (u32 param, u64 value) pairs */
static void ptr_extra(uint32_t n, const uint32_t *param, const uint64_t *value)
{
    uint8_t buf[12 * 8];
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *p = buf + 12 * i;
        for (int k = 0; k < 4; k++)
            p[k] = (uint8_t)(param[i] >> (8 * k));
        for (int k = 0; k < 8; k++)
            p[4 + k] = (uint8_t)(value[i] >> (8 * k));
    }
    extra_name("wip15.ptr");
    data(buf, 12 * n);
}

/* ---- shared function table ---- */

enum {
    F_THREAD, F_BEGIN, F_ENABLE, F_CLEAR, F_BINDTEX, F_CLEARCOLOR, F_DEPTHRANGE, F_UNIFORM1IV,
    F_GETSTRING, F_SHADERSOURCE, F_BUFFERDATA, F_TEXIMAGE2D, F_MAPBUFFER, F_ISENABLED,
    F_FENCESYNC, F_DEBUGCB, F_SWAP, F_DRAWBUFFERS, F_TESTBOOLS, F_TESTUINTS, F_TESTGROUPS,
    F_TESTSTRINGS, F_TESTEXTRA, F_TESTFLOATS, F_TESTDOUBLES, F_DRAWARRAYS, F_FINISH,
    F_EGLCREATECONTEXT, F_GLXCHOOSEVISUAL, F_GLXCREATECONTEXTATTRIBS, F_TEXPARAMI, F_TEXPARAMF,
    F_COUNT
};
enum {
    G_ENABLECAP, G_CLEARMASK, G_TEXTARGET, G_TEXTURES, G_STRINGNAME, G_SHADERS, G_BUFTARGET,
    G_BUFUSAGE, G_PIXFORMAT, G_PIXTYPE, G_BUFACCESS, G_SYNCCOND, G_SYNCS, G_DRAWBUF, G_NOMASK,
    G_NOENUM, G_PRIMITIVE, G_TEXPARAM, G_COUNT
};

static void declare_all(void)
{
    decl_group(G_ENABLECAP, W15_GROUP_ENUM, "EnableCap");
    decl_group(G_CLEARMASK, W15_GROUP_BITMASK, "ClearBufferMask");
    decl_group(G_TEXTARGET, W15_GROUP_ENUM, "TextureTarget");
    decl_group(G_TEXTURES, W15_GROUP_GL_TEXTURES, "Texture");
    decl_group(G_STRINGNAME, W15_GROUP_ENUM, "StringName");
    decl_group(G_SHADERS, W15_GROUP_GL_SHADERS, "Shader");
    decl_group(G_BUFTARGET, W15_GROUP_ENUM, "BufferTargetARB");
    decl_group(G_BUFUSAGE, W15_GROUP_ENUM, "BufferUsageARB");
    decl_group(G_PIXFORMAT, W15_GROUP_ENUM, "PixelFormat");
    decl_group(G_PIXTYPE, W15_GROUP_ENUM, "PixelType");
    decl_group(G_BUFACCESS, W15_GROUP_ENUM, "BufferAccessARB");
    decl_group(G_SYNCCOND, W15_GROUP_ENUM, "SyncCondition");
    decl_group(G_SYNCS, W15_GROUP_GL_SYNCS, "sync");
    decl_group(G_DRAWBUF, W15_GROUP_ENUM, "DrawBufferMode");
    decl_group(G_NOMASK, W15_GROUP_BITMASK, "NoSuchMask");
    decl_group(G_NOENUM, W15_GROUP_ENUM, "NoSuchGroup");
    decl_group(G_PRIMITIVE, W15_GROUP_ENUM, "PrimitiveType");
    decl_group(G_TEXPARAM, W15_GROUP_ENUM, "TextureParameterName");

    const w15_type_t v = S(VOID);
    decl_func(F_THREAD, "wip15ThreadSwitch", v, 4, (w15_type_t[]){S(UINT), S(PTR), S(UINT), S(STRING)});
    decl_func(F_BEGIN, "wip15TraceBegin", v, 1, (w15_type_t[]){S(STRING)});
    decl_func(F_ENABLE, "glEnable", v, 1, (w15_type_t[]){SG(UINT)});
    decl_func(F_CLEAR, "glClear", v, 1, (w15_type_t[]){SG(UINT)});
    decl_func(F_BINDTEX, "glBindTexture", v, 2, (w15_type_t[]){SG(UINT), SG(UINT)});
    decl_func(F_CLEARCOLOR, "glClearColor", v, 4,
              (w15_type_t[]){S(FLOAT), S(FLOAT), S(FLOAT), S(FLOAT)});
    decl_func(F_DEPTHRANGE, "glDepthRange", v, 2, (w15_type_t[]){S(DOUBLE), S(DOUBLE)});
    decl_func(F_UNIFORM1IV, "glUniform1iv", v, 3, (w15_type_t[]){S(INT), S(INT), A(INT)});
    decl_func(F_GETSTRING, "glGetString", S(STRING), 1, (w15_type_t[]){SG(UINT)});
    decl_func(F_SHADERSOURCE, "glShaderSource", v, 4,
              (w15_type_t[]){SG(UINT), S(INT), A(STRING), A(INT)});
    decl_func(F_BUFFERDATA, "glBufferData", v, 4,
              (w15_type_t[]){SG(UINT), S(INT), S(DATA), SG(UINT)});
    decl_func(F_TEXIMAGE2D, "glTexImage2D", v, 9,
              (w15_type_t[]){SG(UINT), S(INT), S(INT), S(INT), S(INT), S(INT), SG(UINT), SG(UINT),
                             S(DATA)});
    decl_func(F_MAPBUFFER, "glMapBuffer", S(PTR), 2, (w15_type_t[]){SG(UINT), SG(UINT)});
    decl_func(F_ISENABLED, "glIsEnabled", S(BOOL), 1, (w15_type_t[]){SG(UINT)});
    decl_func(F_FENCESYNC, "glFenceSync", SG(PTR), 2, (w15_type_t[]){SG(UINT), S(UINT)});
    decl_func(F_DEBUGCB, "glDebugMessageCallback", v, 2, (w15_type_t[]){S(FUNCPTR), S(PTR)});
    decl_func(F_SWAP, "glXSwapBuffers", v, 2, (w15_type_t[]){S(PTR), S(UINT)});
    decl_func(F_DRAWBUFFERS, "glDrawBuffers", v, 2, (w15_type_t[]){S(INT), AG(UINT)});
    decl_func(F_TESTBOOLS, "testBools", v, 2, (w15_type_t[]){S(BOOL), A(BOOL)});
    decl_func(F_TESTUINTS, "testUints", v, 2, (w15_type_t[]){A(UINT), A(UINT)});
    decl_func(F_TESTGROUPS, "testGroups", v, 3, (w15_type_t[]){SG(UINT), SG(UINT), SG(INT)});
    decl_func(F_TESTSTRINGS, "testStrings", S(STRING), 3,
              (w15_type_t[]){S(STRING), S(STRING), S(STRING)});
    decl_func(F_TESTEXTRA, "testExtra", v, 1, (w15_type_t[]){S(DATA)});
    decl_func(F_TESTFLOATS, "testFloats", v, 1, (w15_type_t[]){A(FLOAT)});
    decl_func(F_TESTDOUBLES, "testDoubles", v, 1, (w15_type_t[]){A(DOUBLE)});
    decl_func(F_DRAWARRAYS, "glDrawArrays", v, 3, (w15_type_t[]){SG(UINT), S(INT), S(INT)});
    decl_func(F_FINISH, "glFinish", v, 0, NULL);
    decl_func(F_EGLCREATECONTEXT, "eglCreateContext", S(PTR), 4,
              (w15_type_t[]){S(PTR), S(PTR), S(PTR), A(INT)});
    decl_func(F_GLXCHOOSEVISUAL, "glXChooseVisual", S(PTR), 3,
              (w15_type_t[]){S(PTR), S(INT), A(INT)});
    decl_func(F_GLXCREATECONTEXTATTRIBS, "glXCreateContextAttribsARB", S(PTR), 5,
              (w15_type_t[]){S(PTR), S(PTR), S(PTR), S(BOOL), A(INT)});
    decl_func(F_TEXPARAMI, "glTexParameteri", v, 3, (w15_type_t[]){SG(UINT), SG(UINT), S(INT)});
    decl_func(F_TEXPARAMF, "glTexParameterf", v, 3, (w15_type_t[]){SG(UINT), SG(UINT), S(FLOAT)});
}

static void thread_switch(uint64_t tid, uint64_t ctx, uint64_t seq, const char *name)
{
    call(F_THREAD);
    u(tid);
    u(ctx);
    u(seq);
    cstr(name);
    extras(0);
    end();
}

static float bits_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static double bits_d(uint64_t b)
{
    double d;
    memcpy(&d, &b, 8);
    return d;
}

static void write_values(const char *dir)
{
    open_trace(dir, "values.wip15", W15_COMP_LZ4, 0);
    declare_all();

    call(F_BEGIN); cstr("wip15 test"); extras(0); end();
    thread_switch(1000, 0x5500aa00, 0, "main");
    /* enums: known, unknown small value, value of another group (global
     * fallback), unknown group */
    call(F_ENABLE); u(0x0B71); grp(G_ENABLECAP); extras(0); end();
    call(F_ENABLE); u(0x1); grp(G_ENABLECAP); extras(0); end();
    call(F_ENABLE); u(0x8B30); grp(G_ENABLECAP); extras(0); end();
    call(F_ENABLE); u(0xDEADBEEF); grp(G_ENABLECAP); extras(0); end();
    /* bitmasks: two bits, zero, single bit, bits plus leftovers */
    call(F_CLEAR); u(0x4100); grp(G_CLEARMASK); extras(0); end();
    call(F_CLEAR); u(0); grp(G_CLEARMASK); extras(0); end();
    call(F_CLEAR); u(0x400); grp(G_CLEARMASK); extras(0); end();
    call(F_CLEAR); u(0x4500 | 0x30000000); grp(G_CLEARMASK); extras(0); end();
    /* objects: plain numbers */
    call(F_BINDTEX); u(0x0DE1); grp(G_TEXTARGET); u(7); grp(G_TEXTURES); extras(0); end();
    /* floats and doubles that need exact printing */
    call(F_CLEARCOLOR); f32(0.1f); f32(1.0f / 3.0f); f32(-0.0f); f32(bits_f(1)); extras(0); end();
    call(F_CLEARCOLOR); f32(bits_f(0x7f800000)); f32(bits_f(0xff800000)); f32(bits_f(0x7fc00000));
    f32(bits_f(0x7f800001)); extras(0); end();
    call(F_CLEARCOLOR); f32(16777216.0f); f32(3.4028235e38f); f32(1e-10f); f32(100.0f); extras(0);
    end();
    call(F_DEPTHRANGE); f64(0.1); f64(1.0 / 3.0); extras(0); end();
    call(F_DEPTHRANGE); f64(-0.0); f64(bits_d(0xfff8000000000000ull)); extras(0); end();
    call(F_DEPTHRANGE); f64(bits_d(1)); f64(1e300); extras(0); end();
    /* ints */
    call(F_UNIFORM1IV); i64(-1); i64(3); cnt(3); i64(INT64_MIN); i64(INT64_MAX); i64(-42);
    extras(0); end();
    /* results */
    call(F_GETSTRING); u(0x1F02); grp(G_STRINGNAME); cstr("4.5 (Core Profile) Mesa 22.3.6");
    extras(0); end();
    call(F_MAPBUFFER); u(0x8892); grp(G_BUFTARGET); u(0x88B9); grp(G_BUFACCESS);
    u(0x7f0012345678ull); extras(0); end();
    call(F_ISENABLED); u(0x0B71); grp(G_ENABLECAP); bl(1); extras(0); end();
    call(F_FENCESYNC); u(0x9117); grp(G_SYNCCOND); u(0); u(0x55d0c0ffee00ull); grp(G_SYNCS);
    extras(0); end();
    /* strings needing escapes; NULL via wip15.ptr */
    {
        const char *src[2] = {"#version 330\nvoid main() {\n\tgl_Position = vec4(0);\n}\n",
                              "// \"quoted\" \\ back\r\n"};
        call(F_SHADERSOURCE); u(3); grp(G_SHADERS); i64(2); cnt(2); cstr(src[0]); cstr(src[1]);
        cnt(0); /* lengths array: NULL, recorded in wip15.ptr */
        extras(1);
        uint32_t p[1] = {3};
        uint64_t val[1] = {0};
        ptr_extra(1, p, val);
        end();
    }
    {
        static const char bin[] = {'a', 0x01, 0x7f, (char)0x80, (char)0xff, 0, 'z'};
        static const char utf8[] = "gr\xc3\xbc\xc3\x9f dich \xe2\x82\xac";
        call(F_TESTSTRINGS); str(bin, sizeof bin); cstr(utf8); cstr("");
        str("\xed\xa0\x80 surrogate", 13);
        extras(1);
        uint32_t p[1] = {2};
        uint64_t val[1] = {0};
        ptr_extra(1, p, val);
        end();
    }
    /* a 64 KiB compressible blob, a small one (stored raw), an empty one */
    {
        static uint8_t big[65536];
        for (size_t i = 0; i < sizeof big; i++)
            big[i] = (uint8_t)(i & 0xff);
        call(F_BUFFERDATA); u(0x8892); grp(G_BUFTARGET); i64(65536); data(big, sizeof big);
        u(0x88E4); grp(G_BUFUSAGE); extras(0); end();
        call(F_BUFFERDATA); u(0x8893); grp(G_BUFTARGET); i64(12); data("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c", 12);
        u(0x88E8); grp(G_BUFUSAGE); extras(0); end();
    }
    /* pixels: NULL, then an offset into a pixel unpack buffer */
    for (int k = 0; k < 2; k++) {
        call(F_TEXIMAGE2D); u(0x0DE1); grp(G_TEXTARGET); i64(0); i64(0x8058); i64(256); i64(256);
        i64(0); u(0x1908); grp(G_PIXFORMAT); u(0x1401); grp(G_PIXTYPE); data("", 0);
        extras(1);
        uint32_t p[1] = {8};
        uint64_t val[1] = {k ? 0x10 : 0};
        ptr_extra(1, p, val);
        end();
    }
    call(F_DEBUGCB); u(0); extras(0); end(); /* FUNCPTR has no element */
    call(F_DRAWBUFFERS); i64(2); cnt(2); u(0x8CE0); u(0x8CE1); grp(G_DRAWBUF); extras(0); end();
    call(F_TESTBOOLS); bl(0); cnt(3); bl(0); bl(1); bl(2); extras(0); end();
    call(F_TESTUINTS); cnt(3); u(1); u(2); u(3); cnt(100);
    for (int k = 0; k < 100; k++)
        u((uint64_t)k * k);
    extras(0); end();
    call(F_TESTGROUPS); u(0x3); grp(G_NOMASK); u(0x1234); grp(G_NOENUM); i64(-2); grp(G_ENABLECAP);
    extras(0); end();
    call(F_TESTEXTRA); data("abc", 3);
    extras(2);
    extra_name("test.note"); data("hello", 5);
    extra_name("odd name\n"); data("", 0);
    end();
    /* attribute lists: EGL pairs, glXChooseVisual's keys without values,
     * GLX pairs */
    call(F_EGLCREATECONTEXT); u(0x1000); u(0x2000); u(0); cnt(3); i64(0x3098); i64(2); i64(0x3038);
    u(0x3000); extras(0); end();
    call(F_GLXCHOOSEVISUAL); u(0x1000); i64(0); cnt(11);
    {
        static const int64_t a[11] = {4, 5, 8, 1, 9, 1, 10, 1, 12, 1, 0};
        for (int k = 0; k < 11; k++)
            i64(a[k]);
    }
    u(0x4000); extras(0); end();
    call(F_GLXCREATECONTEXTATTRIBS); u(0x1000); u(0x2000); u(0); bl(1); cnt(7);
    {
        static const int64_t a[7] = {0x2091, 3, 0x2092, 3, 0x9126, 1, 0};
        for (int k = 0; k < 7; k++)
            i64(a[k]);
    }
    u(0x5000); extras(0); end();

    /* values of enum-valued pnames print by name (glapi/pnames.txt), other
     * values and non-integral floats as numbers */
    call(F_TEXPARAMI); u(0x0DE1); grp(G_TEXTARGET); u(0x2801); grp(G_TEXPARAM); i64(0x2600); extras(0); end();
    call(F_TEXPARAMI); u(0x0DE1); grp(G_TEXTARGET); u(0x813C); grp(G_TEXPARAM); i64(2); extras(0); end();
    call(F_TEXPARAMF); u(0x0DE1); grp(G_TEXTARGET); u(0x2800); grp(G_TEXPARAM); f32(9729.0f); extras(0); end();
    call(F_TEXPARAMF); u(0x0DE1); grp(G_TEXTARGET); u(0x2801); grp(G_TEXPARAM); f32(0.5f); extras(0); end();

    /* a second thread, two frames */
    call(F_DRAWARRAYS); u(4); grp(G_PRIMITIVE); i64(0); i64(3); extras(0); end();
    call(F_SWAP); u(0x1234); u(0x400002); extras(0); end();
    thread_switch(1001, 0, 0, "worker");
    call(F_FINISH); extras(0); end();
    thread_switch(1000, 0x5500aa00, 32, "main");
    call(F_DRAWARRAYS); u(4); grp(G_PRIMITIVE); i64(0); i64(6); extras(0); end();
    call(F_DRAWARRAYS); u(4); grp(G_PRIMITIVE); i64(6); i64(6); extras(0); end();
    call(F_SWAP); u(0x1234); u(0x400002); extras(0); end();
    call(F_FINISH); extras(1); extra_name("test.last"); data("12345678", 8); end();
    close_trace();
}

static void write_frames(const char *dir)
{
    open_trace(dir, "frames.wip15", W15_COMP_ZLIB, 1);
    declare_all();
    call(F_BEGIN); cstr("wip15 test"); extras(0); end();
    uint64_t seq[3] = {0, 0, 0};
    static uint8_t blob[4096];
    for (size_t i = 0; i < sizeof blob; i++)
        blob[i] = (uint8_t)(i / 64);
    for (int frame = 0; frame < 4; frame++) {
        for (uint64_t th = 0; th < 3; th++) {
            char name[16];
            snprintf(name, sizeof name, "thread %d", (int)th);
            thread_switch(2000 + th, th == 0 ? 0x1000 : 0, seq[th], name);
            int n = th == 0 ? 10 + frame : 3;
            for (int c = 0; c < n; c++) {
                call(F_DRAWARRAYS); u(4); grp(G_PRIMITIVE); i64(0); i64(3 * c); extras(0); end();
                seq[th]++;
            }
            if (th == 1) {
                call(F_BUFFERDATA); u(0x8892); grp(G_BUFTARGET); i64(4096); data(blob, sizeof blob);
                u(0x88E4); grp(G_BUFUSAGE); extras(0); end();
                seq[th]++;
            }
            if (th == 0) {
                call(F_SWAP); u(0x1234); u(0x400002); extras(0); end();
                seq[th]++;
            }
        }
    }
    call(F_FINISH); extras(0); end();
    close_trace();
}

static void write_big(const char *dir)
{
    open_trace(dir, "big.wip15", W15_COMP_LZ4, 0);
    declare_all();
    thread_switch(1, 0, 0, "main");
    for (int c = 0; c < 20000; c++) {
        call(F_DRAWARRAYS); u(4); grp(G_PRIMITIVE); i64(c); i64(3); extras(0); end();
        if (c % 100 == 99) {
            call(F_SWAP); u(0x1234); u(0x400002); extras(0); end();
        }
    }
    close_trace();
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

static void write_floats(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/floats.txt", dir);
    FILE *txt = fopen(path, "w");
    if (!txt)
        die("cannot write floats.txt");
    enum { N = 2000 };
    static uint32_t fb[N];
    static uint64_t db[N];
    for (int i = 0; i < N; i++) {
        uint32_t b;
        do {
            b = (uint32_t)rng();
            if (i % 4 == 1) /* values of ordinary size */
                b = (b & 0x807fffffu) | ((uint32_t)(120 + rng() % 16) << 23);
            if (i % 4 == 2) /* subnormals */
                b &= 0x807fffffu;
        } while ((b & 0x7f800000u) == 0x7f800000u); /* no inf/nan */
        fb[i] = b;
        uint64_t d;
        do {
            d = rng();
            if (i % 4 == 1)
                d = (d & 0x800fffffffffffffull) | ((uint64_t)(1015 + rng() % 16) << 52);
            if (i % 4 == 2)
                d &= 0x800fffffffffffffull;
        } while ((d & 0x7ff0000000000000ull) == 0x7ff0000000000000ull);
        db[i] = d;
    }
    for (int i = 0; i < N; i++)
        fprintf(txt, "f %08x\n", (unsigned)fb[i]);
    for (int i = 0; i < N; i++)
        fprintf(txt, "d %016llx\n", (unsigned long long)db[i]);
    if (fclose(txt) != 0)
        die("cannot write floats.txt");

    open_trace(dir, "floats.wip15", W15_COMP_LZ4, 0);
    declare_all();
    call(F_TESTFLOATS); cnt(N);
    for (int i = 0; i < N; i++)
        f32(bits_f(fb[i]));
    extras(0); end();
    call(F_TESTDOUBLES); cnt(N);
    for (int i = 0; i < N; i++)
        f64(bits_d(db[i]));
    extras(0); end();
    close_trace();
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot read back");
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc((size_t)sz + 1);
    if (!p || fread(p, 1, (size_t)sz, f) != (size_t)sz)
        die("cannot read back");
    fclose(f);
    *n = (size_t)sz;
    return p;
}

static void spill(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0)
        die("cannot write copy");
}

static void write_damaged(const char *dir)
{
    char src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/values.wip15", dir);
    size_t n;
    uint8_t *p = slurp(src, &n);
    /* the last op is glFinish with one 8-byte extra: cut inside it */
    snprintf(dst, sizeof dst, "%s/truncated.wip15", dir);
    spill(dst, p, n - 6);
    p[n] = 0x07; /* an opcode that does not exist */
    snprintf(dst, sizeof dst, "%s/corrupt.wip15", dir);
    spill(dst, p, n + 1);
    free(p);

    /* an LZ4 blob whose bytes are garbage: header written by hand, so the
     * writer does not compress it */
    open_trace(dir, "badblob.wip15", W15_COMP_LZ4, 0);
    declare_all();
    call(F_TESTEXTRA);
    need(W15_DATA_HEADER + 10);
    w15_put_u8(&B, W15_COMP_LZ4);
    w15_put_u32(&B, 100);
    w15_put_u32(&B, 10);
    w15_put_bytes(&B, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 10);
    extras(0);
    end();
    call(F_FINISH); extras(0); end();
    close_trace();

    open_trace(dir, "badptr.wip15", W15_COMP_LZ4, 0);
    declare_all();
    call(F_FINISH); extras(1); extra_name("wip15.ptr"); data("\0\0\0\0\0", 5); end();
    close_trace();

    open_trace(dir, "undeclared.wip15", W15_COMP_LZ4, 0);
    decl_func(0, "glFinish", S(VOID), 0, NULL);
    call(0); extras(0); end();
    call(5); extras(0); end();
    close_trace();
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: mktrace OUTDIR\n");
        return 2;
    }
    mkdir(argv[1], 0777); /* may exist */
    write_values(argv[1]);
    write_frames(argv[1]);
    write_big(argv[1]);
    write_floats(argv[1]);
    write_damaged(argv[1]);
    return 0;
}
