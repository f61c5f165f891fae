#!/usr/bin/env python3
"""gen.py -- generate the tracer's wrappers and tables from the Khronos
registries and the project's annotations.

    gen.py --gl gl.xml --glx glx.xml --egl egl.xml \
           --annotations glapi/annotations.txt [--annotations more.txt] \
           [--compsize src/tracer/compsize.c] --out DIR [--stats]

Writes DIR/{funcs.h,protos.h,wrappers.c,apitable.c,compsize_ids.h} and
DIR/replay_table.c (emit_replay.py).

    gen.py --check-compsize DIR/compsize_ids.h src/tracer/compsize.c [--stamp F]

only checks that compsize.c defines a W15_CS_KIND_<kind> macro for every
helper kind the generated list uses (CMake runs it apart, so that editing
compsize.c does not regenerate the wrappers).
Any of --gl/--glx/--egl may be left out (tests use a fixture registry).
Exit status: 0 ok, 1 refused input (message on stderr), 2 usage.
"""

import argparse
import collections
import os
import sys
import time

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import emit       # noqa: E402
import emit_replay  # noqa: E402
import model      # noqa: E402
import registry   # noqa: E402


def stats(m, seconds):
    out = []
    per = collections.Counter()
    for f in m.funcs:
        per[f.registry] += 1
        for a in sorted(f.api):
            per['api ' + a] += 1
    out.append('commands: %d (%s)' % (len(m.funcs), ', '.join(
        '%s %d' % (k, v) for k, v in sorted(per.items()))))
    caps = collections.Counter(pm.cap for f in m.funcs for pm in f.params)
    out.append('params by capture: ' + ', '.join('%s %d' % kv for kv in sorted(caps.items())))
    ptr = collections.Counter()
    for f in m.funcs:
        for pm in f.params + [f.result]:
            if pm.cap == 'PTR':
                ptr[pm.reason or '?'] += 1
    out.append('pointer params/results left as PTR: %d; top reasons: %s' % (
        sum(ptr.values()), ', '.join('%s %d' % kv for kv in ptr.most_common(12))))
    out.append('groups %d, group enumerants %d, all enumerants %d, helpers %d, pnames %d' % (
        len(m.groups), sum(len(g.enums) for g in m.groups.values()), len(m.all_enums),
        len(m.helpers), len(m.pnames)))
    out.append('generation time: %.2f s' % seconds)
    return '\n'.join(out)


def check_only(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != '--stamp'):
        print('usage: gen.py --check-compsize IDS_H COMPSIZE_C [--stamp FILE]', file=sys.stderr)
        return 2
    try:
        errs = emit.check_compsize_source(None, argv[1], emit.kinds_of_ids_header(argv[0]))
    except OSError as e:
        print('gen.py: %s' % e, file=sys.stderr)
        return 1
    for e in errs:
        print('gen.py: %s' % e, file=sys.stderr)
    if errs:
        return 1
    if len(argv) == 4:
        with open(argv[3], 'w') as f:
            f.write('ok\n')
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ['--check-compsize']:
        return check_only(argv[1:])
    ap.add_argument('--gl')
    ap.add_argument('--glx')
    ap.add_argument('--egl')
    ap.add_argument('--annotations', action='append', required=True)
    ap.add_argument('--compsize', help='src/tracer/compsize.c to check against')
    ap.add_argument('--out', required=True)
    ap.add_argument('--stats', action='store_true')
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        regs = [registry.load(kind, path) for kind, path in
                (('gl', args.gl), ('glx', args.glx), ('egl', args.egl)) if path]
        if not regs:
            ap.error('give at least one of --gl, --glx, --egl')
        m = model.build(regs, args.annotations)
        if args.compsize:
            errs = emit.check_compsize_source(m, args.compsize)
            if errs:
                raise model.AnnotationError('\n'.join(errs))
        emit.write_all(m, args.out)
        emit_replay.write_all(m, args.out)
    except (model.AnnotationError, ValueError, OSError) as e:
        print('gen.py: %s' % e, file=sys.stderr)
        return 1
    except registry.ET.ParseError as e:
        print('gen.py: XML: %s' % e, file=sys.stderr)
        return 1
    if args.stats:
        print(stats(m, time.monotonic() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
