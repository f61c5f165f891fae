#!/usr/bin/env python3
"""Self-test of run_app.py's dump parsing and normalisation (no GL needed)."""
import os
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_app  # noqa: E402


class Normalize(unittest.TestCase):
    def test_split(self):
        name, args, result, rest = run_app.split_call(
            '12 glShaderSource(1, 2, {"a, (b", "c\\"d"}, {43, -1}) [wip15.x=<blob 4 bytes>]')
        self.assertEqual(name, "glShaderSource")
        self.assertEqual(args, ["1", "2", '{"a, (b", "c\\"d"}', "{43, -1}"])
        self.assertIsNone(result)
        self.assertEqual(rest, " [wip15.x=<blob 4 bytes>]")
        self.assertEqual(run_app.split_call("3 glFinish()")[1], [])
        self.assertIsNone(run_app.split_call("wip15: warning"))

    def test_result(self):
        self.assertEqual(run_app.split_call("7 glCreateProgram() = 3")[2], "3")
        self.assertEqual(run_app.split_call('1 glGetString(GL_RENDERER) = "llvm pipe"')[2],
                         '"llvm pipe"')

    def test_normalize(self):
        n = run_app.normalize_line
        self.assertEqual(n("5 glXMakeCurrent(0x55b40e245bd0, 2097154, 0x55b40e264e80) = True"),
                         "glXMakeCurrent(<ptr>, <xid>, <ptr>) = True")
        self.assertEqual(n("6 glXMakeCurrent(0x55b40e245bd0, 0, NULL) = True"),
                         "glXMakeCurrent(<ptr>, 0, NULL) = True")
        self.assertEqual(n('9 glGetString(GL_VERSION) = "4.5 Mesa 22.3.6"'),
                         "glGetString(GL_VERSION) = <varies>")
        # Buffer offsets and small hex values are kept.
        self.assertEqual(n("10 glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0x40)"),
                         "glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0x40)")
        self.assertEqual(n("11 glClientWaitSync(0x7f0012345678, 1, 1000) = GL_ALREADY_SIGNALED"),
                         "glClientWaitSync(<ptr>, 1, 1000) = <varies>")

    def test_unrecorded(self):
        n = run_app.normalize_line
        # a handle is a real pointer value: <ptr>
        self.assertEqual(n("3 eglTerminate(0x55b40e245bd0) = true"), "eglTerminate(<ptr>) = true")
        # an address whose memory was not recorded never becomes <ptr>
        with self.assertRaises(run_app.Fail) as cm:
            n("26 glGetUniformBlockIndex(3, &0x5560c62fb0e1) = 0")
        self.assertIn("glGetUniformBlockIndex argument 1", str(cm.exception))
        with self.assertRaises(run_app.Fail):
            n("9 glGetIntegerv(GL_MAX_VIEWPORT_DIMS, &0x7ffe2aa76140)")
        with self.assertRaises(run_app.Fail):
            n("9 glFoo() = &0x7ffe2aa76140")
        # ... unless UNRECORDED_OK gives the reason, argument conditions included
        self.assertEqual(n("46 glVertexAttribPointer(0, 2, GL_FLOAT, false, 0, &0x563e12217240)"),
                         "glVertexAttribPointer(0, 2, GL_FLOAT, false, 0, <unrecorded>)")
        self.assertEqual(n("66 glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, &0x7ffe2aa76140)"),
                         "glGetIntegerv(GL_COMPRESSED_TEXTURE_FORMATS, <unrecorded>)")
        self.assertEqual(n("63 glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 4096, 1) = &0x5560e4a4cc40"),
                         "glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 4096, 1) = <unrecorded>")
        # an offset into a bound buffer is the value itself
        self.assertEqual(n("48 glVertexAttribPointer(1, 2, GL_FLOAT, false, 16, &0x8)"),
                         "glVertexAttribPointer(1, 2, GL_FLOAT, false, 16, 0x8)")

    def test_blob(self):
        self.assertEqual(
            run_app.normalize_line("17 glBufferData(GL_ARRAY_BUFFER, 4096, <data 4096 bytes, "
                                   "zlib 124, 00 00 00 00 ...>, GL_STATIC_DRAW)"),
            "glBufferData(GL_ARRAY_BUFFER, 4096, <data 4096 bytes, 00 00 00 00 ...>, "
            "GL_STATIC_DRAW)")

    def test_status(self):
        self.assertTrue(run_app.same_status(-11, 139))
        self.assertTrue(run_app.same_status(-11, -11))
        self.assertFalse(run_app.same_status(-11, 0))
        self.assertFalse(run_app.same_status(3, 131))

    def test_apitrace_names(self):
        text = ('// process.name = "x"\nglCreateShader(type = GL_VERTEX_SHADER) = 1\n'
                'glShaderSource(shader = 1, string = {"a;\nb(\n"})\n'
                'glViewport(x = 0, y = 0, width = 64, height = 64) // fake\n')
        self.assertEqual(run_app.apitrace_names(text), ["glCreateShader", "glShaderSource"])


class Apitrace(unittest.TestCase):
    def test_calls(self):
        text = ('glShaderSource(shader = 1, count = 1, string = &"a, (b\nc", length = NULL)\n'
                'glXGetVisualFromFBConfig(dpy = 0x55, config = 0x56) = &{visual = 0x7f, depth = 24}\n'
                'glViewport(x = 0, y = 0, width = 64, height = 64) // fake\n')
        self.assertEqual(run_app.apitrace_calls(text), [
            ("glShaderSource", ["1", "1", '&"a, (b\nc"', "NULL"], None),
            ("glXGetVisualFromFBConfig", ["0x55", "0x56"], "&{visual = 0x7f, depth = 24}")])

    def test_values(self):
        p = run_app.parse_value
        self.assertEqual(p("GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT"), 0x4100)
        self.assertEqual(p("GL_RGBA8"), p("32856"))
        self.assertEqual(p("True"), p("true"))
        self.assertEqual(p("&4"), p("{4}"))
        self.assertEqual(p('&"a\nb"'), p('{"a\\nb"}'))  # apitrace: raw newline; wip15: \n
        self.assertEqual(p("blob(64)"), p("<data 64 bytes, lz4 40, 00 00 80 bf ..., xxh3 0763f09286c5bd7a>"))
        self.assertEqual(p("0x7ffd5932c0ec"), run_app.Val.PTR)
        self.assertEqual(p("0x8"), 8)

    def test_compare(self):
        theirs = [("glLightfv", ["GL_LIGHT0", "GL_POSITION", "{0, 0, 1, 0}"], None),
                  ("glReadPixels", ["16", "32", "1", "1", "GL_RGBA", "GL_UNSIGNED_BYTE",
                                    "0x7ffd5932c0ec"], None),
                  ("glXMakeCurrent", ["0x56457682cbd0", "2097154", "0x56457684be90"], "True"),
                  ("glClearColor", ["0.3", "0.5", "0.5", "1"], None)]
        ours = [("glLightfv", ["GL_LIGHT0", "GL_POSITION", "{0, 0, 1, 0}"], None),
                ("glReadPixels", ["16", "32", "1", "1", "GL_RGBA", "GL_UNSIGNED_BYTE",
                                  "<data 4 bytes, 7f 7f 7f ff, xxh3 0123456789abcdef>"], None),
                ("glXMakeCurrent", ["0x55eba90c9dc0", "4194306", "0x55eba9113cd0"], "true"),
                ("glClearColor", ["0.30000001", "0.5", "0.5", "1"], None)]
        self.assertEqual(run_app.compare_apitrace(theirs, ours), [])
        bad = [list(c) for c in ours]
        bad[0][1] = ["GL_LIGHT0", "GL_POSITION", "{0, 0, 1}"]  # an element lost
        bad[3][1] = ["0.5", "0.5", "0.5", "1"]                  # a wrong value
        bad[2][2] = "false"                                      # a wrong result
        diffs = run_app.compare_apitrace(theirs, [tuple(c) for c in bad])
        self.assertEqual(len(diffs), 3, diffs)


if __name__ == "__main__":
    unittest.main()
