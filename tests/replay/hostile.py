#!/usr/bin/env python3
"""Replays damaged traces: `wip15 replay` must never crash on one.

  hostile.py --wip15 WIP15 [options] TRACE...
  hostile.py --make-corpus DIR --build BUILD

Each case takes one of the TRACEs, damages it in one way and replays it
(`wip15 replay -q --check`).  The replay may refuse the trace, stop at the
damage or report mismatches (exit 0 or 1); anything else is a failure: a
signal, another exit status, a report of AddressSanitizer or UBSan on
stderr (run it with the sanitizer tree's wip15), or a replay that outlives
--timeout.

The damage is aimed at what the replayer decodes.  For a trace without
stream compression (`wip15 trace --stream none`) `wip15 dump --json` of the
undamaged trace gives every call's byte offset and every blob's stored
bytes, so byte-level damage lands in the structure (opcodes, function
indices, types, counts, enum values, extras: wip15.ptr, wip15.offset,
client memory descriptions, digests), not in the bulk of the pixel and
buffer data, and call-level damage moves whole calls:

  flip     one bit of a structure byte
  byte     a structure byte set to 0x00, 0x01, 0x7f, 0x80 or 0xff
  run      1-4 structure bytes set to 0xff
  splice   1-32 structure bytes copied over other structure bytes
  several  2-4 of the four above at once
  cut      the file cut 0-16 bytes after the start of a call
  drop     one call removed (a glBindBuffer, a glMapBuffer, a
           wip15ClientMemory... missing before the calls that need it)
  dup      one call repeated (a delete or an unmap done twice)
  swap     two neighbouring calls exchanged
  payload  one bit of a blob's stored bytes

Each undamaged trace is replayed first and must pass the same way.  A
sanitizer report of a bad access to memory the GL driver allocated itself,
made from inside the driver, is the driver's bug (listed, not a failure):
Mesa copies an ARB program's text without a NUL and may run strlen over
the copy.  A bad access to the replayer's memory, from the driver or not,
is a failure.

A trace with stream compression (an LZ4 frame) gets flips, bytes and cuts
at any position.  Every case draws from its own generator, seeded with
--seed and its number, so `--case N` reruns case N alone with the same
damage, and a run's cases do not depend on --jobs or on which failed.

Options:
  --wip15 PATH     the wip15 command that replays (required)
  --seed S         the run's seed (default 1)
  --cases N        cases in all, spread over the traces (default 200)
  --case N         only case N (repeatable): reproduce a failure
  --jobs J         replays at once (default 2)
  --timeout S      seconds per replay (default 60)
  --keep DIR       write each failing case's trace into DIR
  --replay-opt O   an option for `wip15 replay` (repeatable; default --check)

--make-corpus DIR --build BUILD traces the test programs of the release
tree BUILD (tests/capture and tests/apps) into DIR without stream
compression, as the committed corpus tests/replay/data/hostile was made
(README.md there).

Exit status: 0 when no case failed, 1 otherwise, 2 on a usage error or
when an undamaged trace does not dump.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

DATA_HEADER = 9  # CompressionMethod, uint32 size, uint32 compressedSize
SPECIAL = (0x00, 0x01, 0x7f, 0x80, 0xff)
# kind -> weight, for traces with a structure map
KINDS = (('flip', 4), ('byte', 3), ('run', 1), ('splice', 2), ('several', 2), ('cut', 1),
         ('drop', 3), ('dup', 2), ('swap', 2), ('payload', 1))


def die(msg):
    print('hostile.py: ' + msg, file=sys.stderr)
    sys.exit(2)


def blobs_of(value, out):
    """Every Data object of a dumped value (nested in arrays), as (start, end)
    of its stored bytes."""
    if isinstance(value, list):
        for v in value:
            blobs_of(v, out)
    elif isinstance(value, dict) and 'stored' in value and 'offset' in value:
        start = value['offset'] + DATA_HEADER
        out.append((start, start + value['stored']))


class Trace:
    """One undamaged trace and, without stream compression, where its calls
    and blob bytes are."""

    def __init__(self, wip15, path):
        self.path = path
        self.name = os.path.basename(path)
        with open(path, 'rb') as f:
            self.data = f.read()
        self.calls = []      # (start, end) of every call, in file order
        self.structure = []  # (start, end): the bytes outside blobs' stored bytes
        self.payload = []    # (start, end) of the blobs' stored bytes
        if not self.data.startswith(b'WIP15'):  # an LZ4 frame around the stream
            return
        r = subprocess.run([wip15, 'dump', '--json', path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            die('%s does not dump (exit %d): %s' % (path, r.returncode, r.stderr.strip()[-500:]))
        starts = []
        for line in r.stdout.splitlines():
            call = json.loads(line)
            starts.append(call['offset'])
            blobs_of(call.get('args', []), self.payload)
            if 'result' in call:
                blobs_of(call['result'], self.payload)
            for x in call.get('extras', []):
                blobs_of(x['data'], self.payload)
        self.calls = list(zip(starts, starts[1:] + [len(self.data)]))
        self.payload = sorted(p for p in self.payload if p[1] > p[0])
        pos = 0
        for start, end in self.payload:
            if start > pos:
                self.structure.append((pos, start))
            pos = max(pos, end)
        if pos < len(self.data):
            self.structure.append((pos, len(self.data)))

    def has_map(self):
        return len(self.calls) >= 2


def pick(rnd, spans, skip=16):
    """A byte position uniformly among the spans (past the file header)."""
    spans = [(max(s, skip), e) for s, e in spans if e > max(s, skip)]
    total = sum(e - s for s, e in spans)
    if total == 0:
        return None
    k = rnd.randrange(total)
    for s, e in spans:
        if k < e - s:
            return s + k
        k -= e - s
    return None


def byte_damage(rnd, b, kind, spans):
    pos = pick(rnd, spans)
    if pos is None:
        return 'nothing to damage'
    if kind == 'flip':
        bit = rnd.randrange(8)
        b[pos] ^= 1 << bit
        return 'bit %d of byte %d flipped' % (bit, pos)
    if kind == 'byte':
        v = rnd.choice(SPECIAL)
        b[pos] = v
        return 'byte %d set to 0x%02x' % (pos, v)
    if kind == 'run':
        n = rnd.randrange(1, 5)
        for i in range(pos, min(pos + n, len(b))):
            b[i] = 0xff
        return 'bytes %d-%d set to 0xff' % (pos, pos + n - 1)
    src = pick(rnd, spans)
    n = rnd.randrange(1, 33)
    b[pos:pos + n] = b[src:src + n]
    return '%d bytes from %d copied to %d' % (n, src, pos)


def damage(rnd, t):
    """A damaged copy of trace t and what was done."""
    b = bytearray(t.data)
    if not t.has_map():
        kind = rnd.choice(('flip', 'byte', 'cut'))
        if kind == 'cut':
            pos = rnd.randrange(16, len(b))
            return bytes(b[:pos]), 'cut at byte %d' % pos
        return bytes(b), byte_damage(rnd, b, kind, [(0, len(b))])
    kind = rnd.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
    if kind in ('flip', 'byte', 'run', 'splice'):
        return bytes(b), byte_damage(rnd, b, kind, t.structure)
    if kind == 'several':
        what = [byte_damage(rnd, b, rnd.choice(('flip', 'byte', 'run', 'splice')), t.structure)
                for _ in range(rnd.randrange(2, 5))]
        return bytes(b), '; '.join(what)
    if kind == 'payload':
        if not t.payload:
            return bytes(b), byte_damage(rnd, b, 'flip', t.structure)
        return bytes(b), 'blob bytes: ' + byte_damage(rnd, b, 'flip', t.payload)
    i = rnd.randrange(1, len(t.calls))  # call 0 is wip15TraceBegin
    s, e = t.calls[i]
    if kind == 'cut':
        pos = min(s + rnd.randrange(17), len(b))
        return bytes(b[:pos]), 'cut at byte %d (call %d starts at %d)' % (pos, i, s)
    if kind == 'drop':
        return bytes(b[:s] + b[e:]), 'call %d (bytes %d-%d) removed' % (i, s, e - 1)
    if kind == 'dup':
        return bytes(b[:e] + b[s:e] + b[e:]), 'call %d (bytes %d-%d) repeated' % (i, s, e - 1)
    if i + 1 >= len(t.calls):
        i -= 1
        s, e = t.calls[i]
    s2, e2 = t.calls[i + 1]
    return bytes(b[:s] + b[s2:e2] + b[s:e] + b[e2:]), 'calls %d and %d swapped' % (i, i + 1)


# a library of the GL driver (Mesa): memory it allocated is its own
DRIVER = re.compile(r'/dri/|libLLVM|libGLX_mesa|libEGL_mesa|libglapi|libgallium')


def driver_owned(err):
    """Whether every sanitizer report in err is a bad access to memory the
    GL driver allocated itself, from within the driver (a bug of the
    driver's that a damaged call sequence reaches: Mesa copies an ARB
    program's text without its NUL and later runs strlen over the copy),
    not a bad pointer of the replayer's."""
    reports = err.split('ERROR: AddressSanitizer')[1:]
    if not reports or 'runtime error' in err:
        return False
    for rep in reports:
        alloc = rep.split('allocated by thread', 1)
        if len(alloc) < 2:
            return False
        frames = [ln for ln in alloc[1].splitlines() if re.match(r'\s+#\d+ ', ln)]
        owner = next((f for f in frames if '__interceptor_' not in f and 'in malloc' not in f), '')
        if not DRIVER.search(owner):
            return False
    return True


def run_case(a, traces, tmp, n):
    if n < 0:  # the undamaged trace -n - 1
        t = traces[-n - 1]
        blob, what = t.data, 'undamaged'
    else:
        rnd = random.Random('%d:%d' % (a.seed, n))
        t = traces[rnd.randrange(len(traces))]
        blob, what = damage(rnd, t)
    path = os.path.join(tmp, 'case%d.wip15' % n)
    with open(path, 'wb') as f:
        f.write(blob)
    cmd = [a.wip15, 'replay', '-q'] + a.replay_opt + [path]
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           errors='replace', timeout=a.timeout)
        status = r.returncode
        err = r.stderr
    except subprocess.TimeoutExpired as e:
        status = 'timeout after %g s' % a.timeout
        err = e.stderr.decode(errors='replace') if e.stderr else ''
    bad = (status not in (0, 1) or 'Sanitizer' in err or 'runtime error' in err)
    if bad and status in (0, 1) and driver_owned(err):
        a.driver.append('case %d: %s, %s: the driver read past its own memory' % (n, t.name, what))
        bad = False
    if bad and a.keep:
        os.makedirs(a.keep, exist_ok=True)
        kept = os.path.join(a.keep, 'seed%d-case%d-%s' % (a.seed, n, t.name))
        with open(kept, 'wb') as f:
            f.write(blob)
    os.unlink(path)
    if not bad:
        return None
    if isinstance(status, int) and status < 0:
        status = 'signal %d' % -status
    elif isinstance(status, int):
        status = 'exit %d' % status
    return 'case %d: %s, %s: %s\n%s' % (n, t.name, what, status, err[-3000:])


def make_corpus(a):
    """Traces the release tree's test programs into a.make_corpus."""
    progs = []
    a.build = os.path.abspath(a.build)
    cap = os.path.join(a.build, 'tests', 'capture')
    for c in ('legacy', 'interleaved', 'generic', 'restart', 'range', 'instanced', 'multidraw',
              'buffers', 'indirect', 'state', 'es1', 'es3', 'repeat'):
        progs.append(('arrays_' + c, [os.path.join(cap, 'arrays_egl'), c, os.devnull]))
    for c in ('map_buffer', 'flush_explicit', 'persistent_coherent', 'client_storage', 'dsa'):
        progs.append(('maps_' + c, [os.path.join(cap, 'maps_app'), c]))
    for c in ('query', 'indirect', 'dispatch', 'elements', 'attribs', 'pixels', 'invalid',
              'readback', 'readback_core', 'beginend', 'getters'):
        progs.append(('safety_' + c, [os.path.join(cap, 'safety_prog'), c]))
    for p in ('gles2_egl', 'gles3_egl'):
        progs.append((p, [os.path.join(a.build, 'tests', 'apps', p)]))
    # ARB assembly programs (glProgramStringARB: text of a length), from
    # piglit's shader_runner (GLX: needs DISPLAY)
    piglit = '/usr/lib/x86_64-linux-gnu/piglit'
    for name, test in (('piglit_fogcoord-dp4', 'arb_vertex_program/fogcoord-dp4'),
                       ('piglit_kil-swizzle', 'arb_fragment_program/kil-swizzle')):
        progs.append((name, [os.path.join(piglit, 'bin', 'shader_runner'),
                             os.path.join(piglit, 'tests', 'spec', test + '.shader_test'), '-auto', '-fbo']))
    env = {k: v for k, v in os.environ.items() if not k.startswith('WIP15_')}
    env['EGL_PLATFORM'] = 'surfaceless'
    wip15 = os.path.join(a.build, 'src', 'tools', 'wip15')
    os.makedirs(a.make_corpus, exist_ok=True)
    for name, argv in progs:
        out = os.path.join(a.make_corpus, name + '.w15')
        with tempfile.TemporaryDirectory() as d:
            tmp = os.path.join(d, 't.wip15')
            r = subprocess.run([wip15, 'trace', '-q', '--stream', 'none', '--frame-digests', '-o', tmp,
                                '--'] + argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, cwd=d)
            if r.returncode != 0:
                die('%s exited %d under the tracer: %s' % (' '.join(argv), r.returncode, r.stderr))
            os.replace(tmp, out)
        print('%s %d bytes' % (out, os.path.getsize(out)))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--wip15')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cases', type=int, default=200)
    ap.add_argument('--case', type=int, action='append', default=[])
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--keep')
    ap.add_argument('--replay-opt', action='append')
    ap.add_argument('--make-corpus')
    ap.add_argument('--build')
    ap.add_argument('traces', nargs='*')
    a = ap.parse_args()
    if a.make_corpus:
        if not a.build:
            ap.error('--make-corpus needs --build')
        return make_corpus(a)
    if not a.wip15 or not a.traces:
        ap.error('--wip15 and at least one TRACE are required')
    a.replay_opt = a.replay_opt or ['--check']
    paths = []
    for p in a.traces:
        if os.path.isdir(p):
            paths += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(('.w15', '.wip15')))
        else:
            paths.append(p)
    if not paths:
        die('no traces in %s' % ' '.join(a.traces))
    traces = [Trace(a.wip15, p) for p in paths]
    # each undamaged trace first (numbered -1, -2, ...): it must replay
    cases = a.case or list(range(-1, -len(traces) - 1, -1)) + list(range(a.cases))
    a.driver = []
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as ex:
        failures = [f for f in ex.map(lambda n: run_case(a, traces, tmp, n), cases) if f]
    for f in failures:
        print(f, file=sys.stderr)
    for f in a.driver:
        print(f)
    mapped = sum(t.has_map() for t in traces)
    print('%s: %d traces (%d with a structure map) and %d damaged replays of them, seed %d: %d failed%s'
          % ('FAIL' if failures else 'ok', len(traces), mapped, len([n for n in cases if n >= 0]), a.seed,
             len(failures), ', %d driver faults on its own memory' % len(a.driver) if a.driver else ''))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
