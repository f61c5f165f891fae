"""benchlib.py -- what the bench/tracer scripts share.

  build_paths(script, argv, prog, lib=False)
      the build directory (argv[1], default ../../build beside this file),
      and the paths of bench/tracer/PROG, the wip15 command and (lib)
      libwip15.so in it; exits naming the first one missing.
  configs(*more)
      ['native', 'wip15', *more] and 'apitrace' when it is installed.
  rotated(cfgs, i)
      the configurations in round i's order: each comes first in turn, so
      that none always runs right after another (caches, clock boost).
  traced(c, args, wip15, trace)
      args as configuration c runs them: under `wip15 trace -q -o TRACE --`
      for 'wip15' (and 'wip15-...'), `apitrace trace --api egl -o TRACE`
      for 'apitrace', as they are for 'native'.
  surfaceless_env(), Scratch, key_values(text), run_child(cmd, env, who)
      the environment (EGL_PLATFORM=surfaceless, no WIP15_* settings), a
      scratch directory emptied after each run, the "key value ..." lines
      the bench programs print, a child's stdout and resource usage.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def build_paths(script, argv, prog, lib=False):
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(here, '..', '..', 'build'))
    paths = {'build': build, 'prog': os.path.join(build, 'bench', 'tracer', prog),
             'wip15': os.path.join(build, 'src', 'tools', 'wip15')}
    if lib:
        paths['lib'] = os.path.join(build, 'src', 'tracer', 'libwip15.so')
    for k in ('prog', 'wip15', 'lib'):
        if k in paths and not os.path.exists(paths[k]):
            sys.exit('%s: missing %s (build the project first)' % (script, paths[k]))
    return paths


def configs(*more):
    return ['native', 'wip15'] + list(more) + (['apitrace'] if shutil.which('apitrace') else [])


def rotated(cfgs, i):
    i %= len(cfgs)
    return cfgs[i:] + cfgs[:i]


def traced(c, args, wip15, trace):
    if c.startswith('wip15'):
        return [wip15, 'trace', '-q', '-o', trace, '--'] + args
    if c == 'apitrace':
        return ['apitrace', 'trace', '--api', 'egl', '-o', trace] + args
    return args


def surfaceless_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith('WIP15_')}
    env['EGL_PLATFORM'] = 'surfaceless'
    return env


class Scratch:
    """A temporary directory for the traces of one run at a time."""

    def __init__(self, prefix):
        self.dir = tempfile.mkdtemp(prefix=prefix)

    def path(self, name):
        return os.path.join(self.dir, name)

    def trace_bytes(self):
        return sum(os.path.getsize(self.path(f)) for f in os.listdir(self.dir)
                   if f.endswith(('.wip15', '.trace')))

    def clear(self):
        for f in os.listdir(self.dir):
            os.unlink(self.path(f))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dir, ignore_errors=True)


def key_values(text):
    f = text.split()
    return {f[i]: float(f[i + 1]) for i in range(0, len(f) - 1, 2) if f[i].isidentifier()}


def run_child(cmd, env, who):
    """stdout and resource usage (os.wait4) of cmd; exits when it fails."""
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    if rc != 0:
        sys.exit('%s: %s exited %d' % (who, ' '.join(cmd), rc))
    return out, ru

