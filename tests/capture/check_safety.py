#!/usr/bin/env python3
"""check_safety.py -- one capture.safety.<case> test (tests/capture/safety.cmake).

    check_safety.py --wip15 WIP15 --prog SAFETY_PROG --work DIR CASE
    check_safety.py --extents --gen GEN_PY --root SRC_DIR --work DIR

A program case runs safety_prog CASE natively and under `wip15 trace`: the
exit status and every line it prints (its glGetError values, what it read
back) must be the same.  Then `wip15 dump --json -v` of the trace must hold,
call by call, what EXPECT says: offsets (wip15.offset: target and value),
unreadable memory (wip15.unreadable), read-back digests (wip15.digest: the
size and XXH3 the program printed), captured bytes.  `readback` and `readback_core` run twice:
without and with --readback-data (then the bytes are in the trace, and their
XXH3 is the one the program printed).

--extents regenerates the list of pointers without a known extent
(codegen/gen.py --unknown-extents) and compares it with the committed
codegen/unknown_extents.txt.
Exit 0 pass, 1 fail, 77 skip (no surfaceless EGL / GL 4.5 compatibility).
"""

import argparse
import difflib
import json
import os
import subprocess
import sys

# Per case: (function, occurrence from 0, argument index, expectation).
# Expectations: ('offset', TARGET, VALUE), ('unreadable',), ('ptr',) (a
# pointer recorded without contents: a hex string or null), ('data', HEX)
# (a blob whose leading bytes are HEX), ('digest',) (checked against the
# program's "readback" lines), ('spans',) (the same, for a digest of the
# rows of a packed image: with --readback-data only the size is checked),
# ('value', V) (a scalar value).
EXPECT = {
    'query': [
        ('glGetQueryObjectuiv', 0, 2, ('offset', 'GL_QUERY_BUFFER', 8)),
        ('glGetQueryObjecti64v', 0, 2, ('offset', 'GL_QUERY_BUFFER', 16)),
        ('glGetQueryObjectuiv', 1, 2, ('array', [0])),  # nothing drawn
    ],
    'indirect': [
        ('glDrawArraysIndirect', 0, 1, ('offset', 'GL_DRAW_INDIRECT_BUFFER', 16)),
        ('glDrawElementsIndirect', 0, 2, ('offset', 'GL_DRAW_INDIRECT_BUFFER', 12)),
        ('glMultiDrawArraysIndirect', 0, 1, ('offset', 'GL_DRAW_INDIRECT_BUFFER', 0)),
        ('glMultiDrawArraysIndirectCountARB', 0, 1, ('offset', 'GL_DRAW_INDIRECT_BUFFER', 16)),
        ('glMultiDrawArraysIndirectCountARB', 0, 2, ('offset', 'GL_PARAMETER_BUFFER', 4)),
    ],
    'dispatch': [
        ('glDispatchComputeIndirect', 0, 0, ('offset', 'GL_DISPATCH_INDIRECT_BUFFER', 16)),
    ],
    'elements': [
        ('glDrawElements', 0, 3, ('offset', 'GL_ELEMENT_ARRAY_BUFFER', 6)),
        ('glDrawRangeElements', 0, 5, ('offset', 'GL_ELEMENT_ARRAY_BUFFER', 0)),
        ('glDrawElements', 1, 3, ('data', '000001000200020001000000')),
        ('glDrawElementsInstancedBaseVertexBaseInstance', 0, 3, ('data', '0403020100')),
    ],
    'attribs': [
        ('glVertexAttribPointer', 0, 5, ('offset', 'GL_ARRAY_BUFFER', 16)),
        ('glVertexAttribLPointer', 0, 4, ('offset', 'GL_ARRAY_BUFFER', 16)),
        ('glVertexPointer', 0, 3, ('offset', 'GL_ARRAY_BUFFER', 8)),
        ('glVertexAttribPointer', 1, 5, ('ptr',)),
    ],
    'pixels': [
        ('glTexImage2D', 0, 8, ('offset', 'GL_PIXEL_UNPACK_BUFFER', 64)),
        ('glCompressedTexImage2D', 0, 7, ('offset', 'GL_PIXEL_UNPACK_BUFFER', 32)),
        ('glReadPixels', 0, 6, ('offset', 'GL_PIXEL_PACK_BUFFER', 128)),
        ('glReadnPixels', 0, 7, ('offset', 'GL_PIXEL_PACK_BUFFER', 256)),
        ('glGetTexImage', 0, 4, ('offset', 'GL_PIXEL_PACK_BUFFER', 512)),
        ('glGetTextureImage', 0, 5, ('offset', 'GL_PIXEL_PACK_BUFFER', 1024)),
        ('glTexSubImage3D', 0, 10, ('data', '000102030405060708090a0b')),
    ],
    'invalid': [
        ('glShaderSource', 0, 2, ('ptr',)),
        ('glDrawElements', 0, 3, ('ptr',)),
        ('glUniform4fv', 0, 2, ('ptr',)),
        ('glShaderSource', 1, 2, ('unreadable',)),
        ('glShaderSource', 2, 2, ('unreadable',)),
        ('glGetnUniformfv', 0, 3, ('array', [9])),  # its own buffer, untouched
        # refused whatever the state: an empty digest
        ('glGetTexImage', 0, 4, ('spans', 'glGetTexImageLevel99')),
        ('glGetTexImage', 1, 4, ('spans', 'glGetTexImageCube')),
        ('glGetTexImage', 2, 4, ('spans', 'glGetTexImageLevelNeg')),
        ('glGetCompressedTexImage', 0, 2, ('spans', 'glGetCompressedTexImageCube')),
        ('glReadPixels', 0, 6, ('spans', 'glReadPixelsEmpty')),
        ('glReadPixels', 1, 6, ('spans', 'glReadPixelsNegative')),
        ('glGetIntegerv', 0, 1, ('ptr',)),
        ('glTexImage2D', 1, 8, ('ptr',)),
        ('glDrawElements', 1, 3, ('ptr',)),
        ('glTexImage2D', 2, 8, ('unreadable',)),
        ('glBufferSubData', 0, 3, ('unreadable',)),
        ('glBufferData', 0, 2, ('unreadable',)),
        ('glUniformMatrix4fv', 0, 3, ('unreadable',)),
        ('eglCreateContext', 1, 3, ('unreadable',)),
    ],
    # inside glBegin/glEnd GL rejects them: pointers only (and the program
    # sees no more GL errors or debug messages than natively); a glBegin
    # compiled into a display list is not executed
    'beginend': [
        ('glReadPixels', 0, 6, ('ptr',)),
        ('glGetTexImage', 0, 4, ('ptr',)),
        ('glTexSubImage2D', 0, 8, ('ptr',)),
        ('glBufferSubData', 0, 3, ('ptr',)),
        ('glGetQueryObjectuiv', 0, 2, ('ptr',)),
        ('glReadPixels', 1, 6, ('digest', 'glReadPixelsCompiled')),
        ('glReadPixels', 2, 6, ('digest', 'glReadPixels')),
    ],
    'readback': [
        ('glReadPixels', 0, 6, ('digest', 'glReadPixels')),
        ('glReadnPixels', 0, 7, ('digest', 'glReadnPixels')),
        ('glGetBufferSubData', 0, 3, ('digest', 'glGetBufferSubData')),
        ('glGetTextureImage', 0, 5, ('digest', 'glGetTextureImage')),
        ('glGetTextureImage', 1, 5, ('digest', 'glGetTextureImageCompat')),
        ('glGetTextureImage', 2, 5, ('digest', 'glGetTextureImageCompatCube')),
        ('glGetTextureImage', 3, 5, ('digest', 'glGetTextureImageCompatLevel1')),
        ('glGetTextureImage', 4, 5, ('spans', 'glGetTextureImageCompatLevel9')),  # refused: empty
        ('glGetTextureImage', 5, 5, ('digest', 'glGetTextureImageCompatLevel9Debug')),
        ('glGetTextureImage', 6, 5, ('digest', 'glGetTextureImageCompatLevel1Debug')),
        ('glGetCompressedTexImage', 0, 2, ('digest', 'glGetCompressedTexImage')),
        ('glGetCompressedTextureImage', 0, 3, ('digest', 'glGetCompressedTextureImage')),
        ('glGetCompressedTextureImageEXT', 0, 3, ('digest', 'glGetCompressedTextureImageEXT')),
        ('glGetCompressedMultiTexImageEXT', 0, 3, ('digest', 'glGetCompressedMultiTexImageEXT')),
        # not compressed: GL refuses the call and writes nothing (an empty digest)
        ('glGetCompressedTexImage', 1, 2, ('spans', 'glGetCompressedTexImageUncompressed')),
        ('glGetCompressedTextureImageEXT', 1, 3, ('spans', 'glGetCompressedTextureImageEXTUncompressed')),
        ('glGetCompressedMultiTexImageEXT', 1, 3, ('spans', 'glGetCompressedMultiTexImageEXTUncompressed')),
        ('glGetTexImage', 0, 4, ('digest', 'glGetTexImage')),
        ('glGetTextureImageEXT', 0, 5, ('digest', 'glGetTextureImageEXT')),
        ('glGetMultiTexImageEXT', 0, 5, ('digest', 'glGetMultiTexImageEXT')),
        ('glReadPixels', 1, 6, ('spans', 'glReadPixelsPacked')),
        ('glGetTextureSubImage', 0, 11, ('spans', 'glGetTextureSubImage')),
    ],
    'readback_core': [
        ('glGetTextureImage', 0, 5, ('digest', 'tex2D')),
        ('glGetTextureImage', 1, 5, ('digest', 'tex2DLevel1')),
        ('glGetTextureImage', 2, 5, ('digest', 'texCube')),
        ('glGetTextureImage', 3, 5, ('digest', 'tex2DArray')),
        ('glGetCompressedTextureImage', 0, 3, ('digest', 'compressedCube')),
        ('glGetCompressedTextureSubImage', 0, 9, ('digest', 'compressedCubeFaces')),
        ('glGetCompressedTextureSubImage', 1, 9, ('spans', 'compressedPacked')),
        ('glGetCompressedTextureImage', 1, 3, ('spans', 'compressedImagePacked')),
        ('glGetCompressedTexImage', 0, 2, ('spans', 'compressedTexImagePacked')),
        ('glGetTextureSubImage', 0, 11, ('spans', 'texSub3DSkip')),
        ('glGetTextureImage', 4, 5, ('digest', 'texNone')),
        ('glGetTextureImage', 5, 5, ('digest', 'texLevel40')),
    ],
    # state-sized getters: glGetUniform*v (the uniform's values, an array's
    # element: one), glGetPixelMap*v (the map's size), glGetMap*v (the
    # evaluator's order)
    'getters': [
        ('glGetUniformfv', 0, 2, ('array', [0.5, 1.5, 2.5])),
        ('glGetUniformfv', 1, 2, ('array', [0.25 * i for i in range(16)])),
        ('glGetUniformfv', 2, 2, ('array', [6.5])),
        ('glGetUniformfv', 3, 2, ('array', [8.0, 8.5])),
        ('glGetUniformfv', 4, 2, ('array', [1.0, 2.0, 3.0, 4.0])),
        ('glGetUniformdv', 0, 2, ('array', [0.5, 1.0, 1.5, 2.0, 2.5, 3.0])),
        ('glGetUniformiv', 0, 2, ('array', [-3, 9])),
        ('glGetUniformiv', 1, 2, ('array', [3])),
        ('glGetUniformfv', 5, 2, ('ptr',)),  # no uniform at 9999
        ('glGetUniformfv', 6, 2, ('ptr',)),  # -1
        ('glGetUniformfv', 7, 2, ('ptr',)),  # not a program
        ('glGetUniformfv', 8, 2, ('ptr',)),  # not linked
        # location 3 of one program name: float, vec4 after a relink,
        # ivec2 after glCreateShaderProgramv (statesize.c's cache)
        ('glGetUniformfv', 9, 2, ('array', [2.5])),
        ('glGetUniformfv', 10, 2, ('array', [1.0, 2.0, 3.0, 4.0])),
        ('glGetUniformiv', 2, 2, ('array', [5, -6])),
        ('glGetPixelMapfv', 0, 1, ('array', [0.0, 0.25, 0.5, 0.75, 1.0])),
        ('glGetPixelMapusv', 0, 1, ('array', [3, 1, 2])),
        ('glGetPixelMapuiv', 0, 1, ('ptr',)),  # not a map
        ('glGetMapfv', 0, 2, ('array', [0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 1.0, 0.0, 0.0])),
        ('glGetMapiv', 0, 2, ('array', [2, 3])),
        ('glGetMapdv', 0, 2, ('array', [0.0, 1.0, -1.0, 1.0])),
        # control point (i, j) of uorder 2 x vorder 3 given at i * 4 + j * 8
        ('glGetMapfv', 1, 2, ('array', [0.125 * (i * 4 + j * 8 + c)
                                         for i in range(2) for j in range(3) for c in range(4)])),
        ('glGetMapfv', 2, 2, ('ptr',)),  # not a query
    ],
}


class Fail(Exception):
    pass


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def calls_of(wip15, trace):
    rc, out, err = run([wip15, 'dump', '--json', '-v', trace])
    if rc != 0:
        raise Fail('wip15 dump failed (%d): %s' % (rc, err.strip()))
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def find(calls, fn, occ):
    seen = [c for c in calls if c['function'] == fn]
    if occ >= len(seen):
        raise Fail('the trace has %d call(s) of %s, expected at least %d' % (len(seen), fn, occ + 1))
    return seen[occ]


def readbacks(out):
    r = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4 and w[0] == 'readback':
            r[w[1]] = (int(w[2]), w[3])
    return r


def check_arg(call, argi, exp, rb, with_data):
    what = '%s #%d arg %d' % (call['function'], call['index'], argi)
    a = call['args'][argi]
    kind = exp[0]
    if kind == 'offset':
        want = {'offset': exp[2], 'target': exp[1]}
        if a != want:
            raise Fail('%s: expected %s, found %s' % (what, want, a))
    elif kind == 'unreadable':
        if not (isinstance(a, dict) and 'unreadable' in a):
            raise Fail('%s: expected unreadable memory, found %s' % (what, a))
    elif kind == 'ptr':
        if not (a is None or isinstance(a, str)):
            raise Fail('%s: expected a pointer without contents, found %s' % (what, a))
    elif kind == 'data':
        if not (isinstance(a, dict) and a.get('head', '').startswith(exp[1]) and
                a.get('size') == len(exp[1]) // 2):
            raise Fail('%s: expected the bytes %s, found %s' % (what, exp[1], a))
    elif kind == 'array':
        if a != exp[1]:
            raise Fail('%s: expected %s, found %s' % (what, exp[1], a))
    elif kind == 'spans' and with_data:
        # the bytes kept are the whole extent; the digest (of the rows GL
        # wrote) is not printed then
        if exp[1] not in rb:
            raise Fail('the program printed no readback line for %s' % exp[1])
        # (an empty blob is printed as the digest of no bytes)
        if not (isinstance(a, dict) and a.get('size', a.get('readback')) == rb[exp[1]][0]):
            raise Fail('%s: expected %d bytes, found %s' % (what, rb[exp[1]][0], a))
    elif kind in ('digest', 'spans'):
        if exp[1] not in rb:
            raise Fail('the program printed no readback line for %s' % exp[1])
        size, h = rb[exp[1]]
        if with_data:
            ok = isinstance(a, dict) and a.get('size') == size and a.get('xxh3') == h
            wanted = 'the %d bytes read back (xxh3 %s)' % (size, h)
        elif kind == 'spans' and size == 0:
            ok = a == {'readback': 0, 'xxh3': h}  # an empty image: no rows
            wanted = 'a digest of no bytes, xxh3 %s' % h
        elif kind == 'spans':
            # `wip15 dump` shows which rows the digest covers
            sp = a.get('spans') if isinstance(a, dict) else None
            ok = (isinstance(sp, dict) and {k: a[k] for k in ('readback', 'xxh3')} == {'readback': size, 'xxh3': h}
                  and sp.get('rows', 0) > 0 and sp.get('span', 0) > 0 and sp.get('images', 0) > 0)
            wanted = 'a digest of %d bytes, xxh3 %s, with the rows it covers' % (size, h)
        else:
            ok = a == {'readback': size, 'xxh3': h}
            wanted = 'a digest of %d bytes, xxh3 %s' % (size, h)
        if not ok:
            raise Fail('%s: expected %s, found %s' % (what, wanted, a))
    else:
        raise Fail('bad expectation %s' % (exp,))


def program_case(args):
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, EGL_PLATFORM='surfaceless', WIP15_TIMING='off')
    rc0, out0, err0 = run([args.prog, args.case], env)
    if rc0 == 77:
        print(out0.strip())
        return 77
    if rc0 != 0:
        raise Fail('the program fails natively (%d): %s' % (rc0, err0.strip()))
    modes = [False, True] if args.case.startswith('readback') else [False]
    for with_data in modes:
        trace = os.path.join(args.work, '%s%s.wip15' % (args.case, '_data' if with_data else ''))
        if os.path.exists(trace):
            os.unlink(trace)
        cmd = [args.wip15, 'trace', '-o', trace, '--timing', 'off']
        if with_data:
            cmd.append('--readback-data')
        rc1, out1, err1 = run(cmd + ['--', args.prog, args.case], env)
        if rc1 != rc0:
            raise Fail('exit status %d traced, %d natively; stderr:\n%s' % (rc1, rc0, err1))
        if out1 != out0:
            diff = '\n'.join(difflib.unified_diff(out0.splitlines(), out1.splitlines(), 'native',
                                                  'traced', lineterm=''))
            raise Fail('the program printed something else under the tracer:\n' + diff)
        rc, vout, verr = run([args.wip15, 'verify', trace])
        if rc != 0:
            raise Fail('wip15 verify: %s%s' % (vout, verr))
        calls = calls_of(args.wip15, trace)
        rb = readbacks(out0)
        for fn, occ, argi, exp in EXPECT[args.case]:
            check_arg(find(calls, fn, occ), argi, exp, rb, with_data)
        if args.case == 'getters':
            # the replay compares the values the trace holds with its own
            # glGetUniform*v results (RP_ROLE_CHECK): one read-back each
            want = sum(1 for e in EXPECT['getters'] if e[3][0] == 'array' and e[0].startswith('glGetUniform'))
            rc, rout, rerr = run([args.wip15, 'replay', '--check', '--strict', trace], env)
            last = rout.strip().splitlines()[-1] if rout.strip() else ''
            if rc != 0 or not last.startswith('checked %d readbacks,' % want) or \
                    not last.endswith(': 0 mismatches'):
                raise Fail('wip15 replay --check (%d) should compare %d read-backs with no mismatch: '
                           '%s\n%s' % (rc, want, last, rerr))
        if args.case == 'invalid':
            # one warning per function with unreadable memory
            for fn in ('glShaderSource', 'glBufferSubData'):
                n = err1.count('%s: the memory' % fn)
                if n != 1:
                    raise Fail('expected one unreadable-memory warning for %s, found %d:\n%s' % (fn, n, err1))
    print('capture.safety.%s: ok (%d checks)' % (args.case, len(EXPECT[args.case])))
    return 0


def extents_case(args):
    os.makedirs(args.work, exist_ok=True)
    g = os.path.join(args.root, 'glapi')
    out = os.path.join(args.work, 'unknown_extents.txt')
    rc, o, e = run([sys.executable, args.gen, '--gl', os.path.join(g, 'gl.xml'),
                    '--glx', os.path.join(g, 'glx.xml'), '--egl', os.path.join(g, 'egl.xml'),
                    '--annotations', os.path.join(g, 'annotations.txt'),
                    '--annotations', os.path.join(g, 'pnames.txt'),
                    '--out', os.path.join(args.work, 'gen'), '--unknown-extents', out])
    if rc != 0:
        raise Fail('gen.py failed: %s' % e)
    committed = os.path.join(args.root, 'codegen', 'unknown_extents.txt')
    with open(out) as f:
        new = f.read().splitlines()
    with open(committed) as f:
        old = f.read().splitlines()
    if new != old:
        diff = '\n'.join(difflib.unified_diff(old, new, 'committed', 'generated', lineterm=''))
        raise Fail('codegen/unknown_extents.txt is not current (regenerate it with gen.py '
                   '--unknown-extents):\n' + diff)
    print('capture.safety.extents: ok (%d entries)' % sum(1 for l in new if not l.startswith('#')))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--wip15')
    ap.add_argument('--prog')
    ap.add_argument('--work', required=True)
    ap.add_argument('--extents', action='store_true')
    ap.add_argument('--gen')
    ap.add_argument('--root')
    ap.add_argument('case', nargs='?')
    args = ap.parse_args()
    try:
        if args.extents:
            return extents_case(args)
        return program_case(args)
    except (Fail, subprocess.TimeoutExpired) as e:
        print('FAIL(capture.safety.%s): %s' % (args.case or 'extents', e))
        return 1


if __name__ == '__main__':
    sys.exit(main())
