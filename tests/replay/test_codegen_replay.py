"""Unit tests of the replay part of the generator (codegen/replay_model.py,
codegen/emit_replay.py) on the fixture registry of tests/codegen/fixture/.
Run: python3 tests/replay/test_codegen_replay.py [-v] (exit 77 when a test
was skipped).  Environment: WIP15_SOURCE_DIR (default: two levels up), CC.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SRC = os.environ.get('WIP15_SOURCE_DIR') or os.path.abspath(
    os.path.join(os.path.dirname(__file__), '..', '..'))
FIX = os.path.join(SRC, 'tests', 'codegen', 'fixture')
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SRC, 'codegen'))

import emit          # noqa: E402
import emit_replay   # noqa: E402
import model         # noqa: E402
import registry      # noqa: E402

GOOD = '''
replay-scope buffer shared
replay-scope program shared
replay-creates glGenBuffers buffers
replay-location attrib glGetAttribLocation result program
replay-location uniform glUniform4fv location current
replay-offset glVertexAttribPointer pointer GL_VIEWPORT
replay-skip egl*
replay-skip glX*
replay-custom eglMakeCurrent make_current
replay-custom eglCreateContext create_context
'''


def build(text):
    regs = [registry.load(k, os.path.join(FIX, k + '.xml')) for k in ('gl', 'glx', 'egl')]
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as t:
        t.write(text)
    try:
        return model.build(regs, [os.path.join(FIX, 'annotations.txt'), t.name]), t.name
    finally:
        os.unlink(t.name)


class ReplayModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.m, _ = build(GOOD)
        cls.f = {f.name: f for f in cls.m.funcs}

    def test_kinds(self):
        self.assertEqual(self.f['glClear'].replay_kind, 'call')
        self.assertEqual(self.f['eglQueryString'].replay_kind, 'skip')
        self.assertEqual(self.f['eglMakeCurrent'].replay_kind, 'custom')
        self.assertEqual(self.f['eglMakeCurrent'].replay_handler, 'make_current')
        self.assertEqual(self.m.replay_handlers, ['create_context', 'make_current'])

    def test_roles(self):
        r = self.f['glGenBuffers'].replay_roles
        self.assertEqual([(x.param, x.role) for x in r], [(1, 'CREATE')])
        r = self.f['glGetAttribLocation'].replay_roles[0]
        self.assertEqual((r.param, r.role, r.arg), (0xff, 'LOCATION', 0))
        r = self.f['glUniform4fv'].replay_roles[0]
        self.assertEqual((r.param, r.role, r.arg), (0, 'LOCATION', 0xfe))
        r = self.f['glVertexAttribPointer'].replay_roles[0]
        self.assertEqual((r.param, r.role, r.kind), (5, 'OFFSET', 0))
        self.assertEqual(self.m.replay_bindings, [0x0BA2])

    def test_tracer_custom_skipped(self):
        m, _ = build('')
        f = {x.name: x for x in m.funcs}
        self.assertEqual(f['glXGetProcAddress'].replay_kind, 'skip')

    def test_scopes(self):
        self.assertEqual(self.m.replay_scopes, {'buffer': 'shared', 'program': 'shared'})


class ReplayRefusedTest(unittest.TestCase):
    def refused(self, text, *needles):
        with self.assertRaises(model.AnnotationError) as cm:
            build(text)
        msg = str(cm.exception)
        self.assertRegex(msg, r':\d+: ')
        for n in needles:
            self.assertIn(n, msg)

    def test_unknown_function(self):
        self.refused('replay-creates glGenNothing buffers\n', 'glGenNothing')

    def test_unknown_param(self):
        self.refused('replay-creates glGenBuffers names\n', '"names"')

    def test_not_an_object(self):
        self.refused('replay-creates glGenBuffers n\n', 'not an object name')

    def test_deletes_result(self):
        self.refused('replay-deletes glGetAttribLocation result\n', '"result"')

    def test_bad_scope(self):
        self.refused('replay-scope buffer global\n', 'shared or context')
        self.refused('replay-scope widget shared\n', 'namespace widget')

    def test_bad_location_kind(self):
        self.refused('replay-location colour glUniform4fv location current\n', 'unknown location kind')

    def test_location_not_integer(self):
        self.refused('replay-location uniform glUniform4fv value current\n', 'not an integer')

    def test_offset_not_pointer(self):
        self.refused('replay-offset glVertexAttribPointer size GL_VIEWPORT\n', 'not a pointer')
        self.refused('replay-offset glVertexAttribPointer pointer GL_NO_SUCH_ENUM\n', 'GL_NO_SUCH_ENUM')

    def test_scratch(self):
        m, _ = build(GOOD + 'cap glGetIntegerv data ptr why=state\nreplay-scratch glGetIntegerv data 16\n')
        f = {x.name: x for x in m.funcs}
        r = f['glGetIntegerv'].replay_roles[0]
        self.assertEqual((r.param, r.role, r.count), (1, 'SCRATCH', 16))
        self.refused('replay-scratch glGetShaderInfoLog infoLog 16\n', 'recorded without contents')
        self.refused('cap glGetIntegerv data ptr why=state\nreplay-scratch glGetIntegerv data 0\n', 'COUNT')

    def test_text(self):
        m, _ = build(GOOD + 'replay-text glBufferData data\n')
        f = {x.name: x for x in m.funcs}
        r = f['glBufferData'].replay_roles[0]
        self.assertEqual((r.param, r.role), (2, 'TEXT'))
        self.refused('replay-text glGetIntegerv data\n', 'recorded with its bytes')
        self.refused('replay-text glBufferData size\n', 'recorded with its bytes')

    def test_bad_handler(self):
        self.refused('replay-custom eglMakeCurrent Make-Current\n', 'C identifier')

    def test_unknown_directive(self):
        self.refused('replay-frobnicate glClear\n', 'unknown replay directive')


class ReplayEmitTest(unittest.TestCase):
    def test_table_compiles(self):
        m, _ = build(GOOD)
        d = tempfile.mkdtemp()
        try:
            emit.write_all(m, d)
            emit_replay.write_all(m, d)
            text = open(os.path.join(d, 'replay_table.c')).read()
            self.assertIn('RP_KIND_CUSTOM, 2}, /* eglMakeCurrent */', text)
            self.assertIn('RP_KIND_SKIP, 0}, /* eglQueryString */', text)
            self.assertIn('{1, RP_ROLE_CREATE, 0, 255, 0}, /* glGenBuffers */', text)
            self.assertIn('[W15_GROUP_GL_BUFFERS] = 2, /* buffer */', text)
            # one thunk per distinct signature
            self.assertEqual(text.count('static void rpt_'), len(set(
                (f.cmd.result.decl, tuple(p.decl for p in f.cmd.params))
                for f in m.funcs if f.replay_kind != 'skip')))
            cc = os.environ.get('CC') or shutil.which('cc') or shutil.which('gcc')
            if not cc:
                self.skipTest('no C compiler')
            inc = ['-I' + d, '-I' + os.path.join(SRC, 'src', 'replay'),
                   '-I' + os.path.join(SRC, 'src', 'common'), '-I' + os.path.join(SRC, 'include')]
            r = subprocess.run([cc, '-std=gnu11', '-Wall', '-Wextra', '-Werror', '-fsyntax-only'] +
                               inc + [os.path.join(d, 'replay_table.c')], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
        finally:
            shutil.rmtree(d)


if __name__ == '__main__':
    prog = unittest.main(exit=False)
    res = prog.result
    if not res.wasSuccessful():
        sys.exit(1)
    sys.exit(77 if res.skipped else 0)
