"""check_layers.py -- src/tracer's module layout, checked against its code.

Each module states in the opening comment of its header (of its .c file
when it has no header: its "Module:" paragraph) what it may use and what it
must never use (docs/INTERNALS.md, "Modules of src/tracer").  This script
reads those statements and the files' #include "..." lines and fails when

* a module includes the header of a module its "May use" does not name,
  or one its "Must never use" names;
* the modules' include graph has a cycle other than the lazy start
  (thread -> runtime: the first GL call starts the tracer).

Usage: python3 check_layers.py [SRC_TRACER_DIR]; exit status 0 or 1.
"""

import os
import re
import sys

# Files of one module that are not named after it.
ALIAS = {'recorder': 'record'}
# Included everywhere, owned by nobody in particular.
UNIVERSAL = {'attrs'}
# The one allowed edge against the layering.
LAZY_START = ('thread', 'runtime')


def module_of(fname):
    base = os.path.splitext(fname)[0]
    return ALIAS.get(base, base)


def statement(text):
    """The opening comment, flattened, or ''."""
    m = re.match(r'\s*/\*(.*?)\*/', text, re.S)
    if not m:
        return ''
    c = m.group(1)
    i = c.find('Module:')
    if i >= 0:
        c = c[i:]
    return re.sub(r'\s*\n\s*\*?\s?', ' ', c)


def clause(text, key):
    m = re.search(key + r' (.*?)(?:\.\s|\.$|:)', text + ' ')
    return m.group(1) if m else None


def main(argv):
    d = argv[1] if len(argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = sorted(f for f in os.listdir(d) if f.endswith(('.c', '.h')))
    modules = sorted({module_of(f) for f in files} - UNIVERSAL)
    headers = {os.path.splitext(f)[0] for f in files if f.endswith('.h')}
    errors = []
    may, never, uses = {}, {}, {}
    for f in files:
        text = open(os.path.join(d, f), encoding='utf-8').read()
        m = module_of(f)
        if m in UNIVERSAL:
            continue
        # the statement: the module's header (recorder.h for record), else
        # the .c file's "Module:" paragraph
        if (f.endswith('.h') and (m == os.path.splitext(f)[0] and m != 'record' or
                                  os.path.splitext(f)[0] == 'recorder')) or \
                (f.endswith('.c') and m not in headers and m not in may):
            st = statement(text)
            a, n = clause(st, 'May use'), clause(st, '[Mm]ust never use')
            if a is None or n is None:
                errors.append('%s: the opening comment says neither "May use ..." nor '
                              '"Must never use ..."' % f)
                continue
            words = lambda s: set(re.findall(r'[a-z]+', s))
            may[m] = modules if 'every module' in a else words(a) & set(modules)
            never[m] = set() if 'another module' in n or 'any other module' in n \
                else words(n) & set(modules)
            if 'another module' in n or 'any other module' in n:
                never[m] = set(modules) - may[m] - {m}
        for inc in re.findall(r'^\s*#\s*include\s+"([^"/]+)"', text, re.M):
            if os.path.splitext(inc)[0] in headers:
                used = module_of(inc)
                if used != m and used not in UNIVERSAL:
                    uses.setdefault(m, {}).setdefault(used, f)
    for m in modules:
        if m not in may:
            errors.append('module %s: no statement of what it may use' % m)
            continue
        for used, f in sorted(uses.get(m, {}).items()):
            if used in never[m]:
                errors.append('%s: %s uses %s, which it must never use' % (f, m, used))
            elif used not in may[m]:
                errors.append('%s: %s uses %s, which its "May use" does not name' % (f, m, used))
    # cycles
    graph = {m: set(u) for m, u in uses.items()}
    graph.get(LAZY_START[0], set()).discard(LAZY_START[1])
    state = {}

    def visit(n, path):
        state[n] = 1
        for x in sorted(graph.get(n, ())):
            if state.get(x) == 1:
                errors.append('include cycle: %s' % ' -> '.join(path[path.index(x):] + [x]))
            elif not state.get(x):
                visit(x, path + [x])
        state[n] = 2

    for m in sorted(graph):
        if not state.get(m):
            visit(m, [m])
    for e in errors:
        print('check_layers: %s' % e, file=sys.stderr)
    if not errors:
        print('check_layers: %d modules, no cycle but %s -> %s (the lazy start)'
              % (len(modules), LAZY_START[0], LAZY_START[1]))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
