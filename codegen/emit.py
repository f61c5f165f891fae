"""emit.py -- stage three of the generator: print each output file from the
model (model.py) through the string.Template files in codegen/templates/
(<output name>.in).
Python computes values; the C shapes live in the templates.
"""

import os
import re
from string import Template

from model import (API_BITS, ATTRIBS, BASE_ENUMS, BASES, CAPS, CTYPES, FLAGS, GROUP_TYPES,
                   LEN_OPS, NO_PARAM, OFFSET_TARGETS, PNAME_ENUM_VALUED)

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'templates')
_cache = {}


def tpl(name):
    if name not in _cache:
        with open(os.path.join(TEMPLATES, name + '.in'), encoding='utf-8') as f:
            _cache[name] = Template(f.read())
    return _cache[name]


def header(m, fname, what):
    inputs = ', '.join(os.path.basename(p) for p in m.inputs)
    return tpl('header.txt').substitute(file=fname, inputs=inputs, what=what)


def c_decl(decl, name):
    return decl + ('' if decl.endswith('*') else ' ') + name


def c_ret(decl):
    """Result type followed by what must precede the function name."""
    return decl + ('' if decl.endswith('*') else ' ')


class StrPool:
    def __init__(self):
        self.off = {}
        self.items = []
        self.size = 0

    def add(self, s):
        if s not in self.off:
            self.off[s] = self.size
            self.items.append(s)
            self.size += len(s.encode()) + 1
        return self.off[s]

    def c(self):
        lines = []
        cur = ''
        for s in self.items:
            piece = s.replace('\\', '\\\\').replace('"', '\\"') + '\\0'
            if len(cur) + len(piece) > 90:
                lines.append('    "%s"' % cur)
                cur = ''
            cur += piece
        if cur:
            lines.append('    "%s"' % cur)
        return '\n'.join(lines) if lines else '    ""'


def _or_zero(rows):
    return '\n'.join(rows) if rows else '    {0}'


def emit_funcs_h(m):
    defines = '\n'.join('#define W15F_%s %d' % (f.name, i) for i, f in enumerate(m.funcs))
    pseudo = '\n'.join('#define W15F_%s %d' % (f.name, len(m.funcs) + i)
                       for i, f in enumerate(m.pseudo))
    return tpl('funcs.h').substitute(
        header=header(m, 'funcs.h', 'W15F_<name>: index of each command in w15_funcs.'),
        defines=defines, count=len(m.funcs), pseudo=pseudo or '/* none */',
        npseudo=len(m.pseudo))


def _type_text(t):
    text = t.text
    if not text or text.startswith('#include'):
        return None
    return text


def emit_protos_h(m):
    seen = set()
    types = []
    for reg in m.registries:
        types.append('/* %s */' % os.path.basename(reg.path))
        for t in reg.types:
            text = _type_text(t)
            if text is None or t.name in seen:
                continue
            seen.add(t.name)
            types.append(text)
    pfns = []
    for f in m.funcs:
        c = f.cmd
        params = ', '.join(c_decl(p.decl, p.name) for p in c.params) or 'void'
        pfns.append('typedef %s(APIENTRYP PFN_%s)(%s);' % (c_ret(c.result.decl), f.name, params))
    return tpl('protos.h').substitute(
        header=header(m, 'protos.h', 'C types of the registries and PFN_<name> per command.'),
        types='\n'.join(types), pfns='\n'.join(pfns))


def _pack(pm, expr):
    if pm.ctype == 'FUNCPTR':
        return 'FP_(%s)' % expr
    return expr


# uvari operand per unsigned ctype: the value masked to its C width
_UV_CAST = {'U8': 'uint8_t', 'U16': 'uint16_t', 'U32': 'uint32_t', 'U64': 'uint64_t',
            'LONG': 'uint64_t', 'I8': 'uint8_t', 'I16': 'uint16_t', 'I32': 'uint32_t',
            'I64': 'uint64_t'}


def _fast_put(pm, expr, gidx):
    """The fast-path encoding of one by-value parameter or result named
    `expr`, as (C statement, largest size in bytes); None when only the
    general recorder (record.c put_scalar) can encode it.  Mirrors
    record.c fast_op / put_scalar byte for byte."""
    if pm.is_array or not (pm.cap == 'VALUE' or (pm.cap == 'PTR' and pm.base == 'Ptr')):
        return None
    b, ct = pm.base, pm.ctype
    if b in ('Void', 'FunctionPtr'):
        put, size = '', 0
    elif b == 'UnsignedInt' and ct in _UV_CAST:
        put, size = 'p_ = w15_fput_uv(p_, (%s)(%s));' % (_UV_CAST[ct], expr), 10
    elif b == 'Int' and ct in ('I8', 'I16', 'I32', 'I64', 'LONG', 'U8', 'U16', 'U32'):
        put, size = 'p_ = w15_fput_sv(p_, (int64_t)(%s));' % expr, 10
    elif b == 'Ptr' and ct == 'PTR':
        put, size = 'p_ = w15_fput_uv(p_, (uint64_t)(uintptr_t)(%s));' % expr, 10
    elif b == 'Bool' and ct in _UV_CAST:
        put, size = 'p_ = w15_fput_u8(p_, (%s) != 0);' % expr, 1
    elif b == 'Float' and ct == 'F32':
        put, size = 'p_ = w15_fput_f32(p_, %s);' % expr, 4
    elif b == 'Double' and ct == 'F64':
        put, size = 'p_ = w15_fput_f64(p_, %s);' % expr, 8
    else:
        return None
    if pm.group:
        put += (' ' if put else '') + 'p_ = w15_fput_g(p_, %d);' % gidx[pm.group]
        size += 4
    return put, size


def _fast_fields(f, gidx):
    """Template fields of the fast shape (record.h), or None."""
    if f.general:
        return None
    puts, size = [], 5 + 4  # opcode, index, extra count
    for pm in f.params + [f.result]:
        fp = _fast_put(pm, 'r_' if pm is f.result else pm.name, gidx)
        if fp is None:
            return None
        puts.append(fp[0])
        size += fp[1]
    lines = ['    %s\n' % x if x else '' for x in puts]
    return dict(puts=''.join(lines[:-1]), rputs=lines[-1], maxbytes=size)


def emit_wrappers_c(m):
    customs, wrappers, ptrs = [], [], []
    gidx = group_index(m)
    for f in m.funcs:
        c = f.cmd
        params = ', '.join(c_decl(p.decl, p.name) for p in c.params) or 'void'
        ret = c_ret(c.result.decl)
        ptrs.append('    (void *)%s,' % f.name)
        if 'CUSTOM' in f.flags:
            customs.append('extern %s%s(%s);' % (ret, f.name, params))
            continue
        stores = ['s_[%d].%s = %s;' % (i, pm.slot, _pack(pm, pm.name))
                  for i, pm in enumerate(f.params)]
        pack = ''.join('    %s\n' % ' '.join(stores[i:i + 4]) for i in range(0, len(stores), 4))
        args = ', '.join(p.name for p in c.params)
        fields = dict(name=f.name, ret=ret, params=params, args=args,
                      nslots=max(1, len(c.params)), pack=pack,
                      init='' if c.params else ' = {{0}}')
        fast = _fast_fields(f, gidx)
        kind = 'fast_' if fast else ''
        if fast:
            fields.update(fast)
            # general-if: those calls go to the general path before the fast one starts
            slow = ''
            if f.general_if:
                cond = '    if (W15_UNLIKELY(%s == %s))' % (f.general_if[0], hex(f.general_if[1]))
                slow = (cond + ' {\n        w15s_%s(%s);\n        return;\n    }\n' % (f.name, args)
                        if c.result.decl == 'void' else cond + '\n        return w15s_%s(%s);\n' % (f.name, args))
            fields['slow'] = slow
        if c.result.decl == 'void':
            wrappers.append(tpl('wrapper_%svoid.c' % kind).substitute(fields))
        else:
            r = f.result
            wrappers.append(tpl('wrapper_%sret.c' % kind).substitute(
                fields, rslot=r.slot, rval=_pack(r, 'r_')))
    ptrs += ['    0, /* %s: written by the tracer */' % f.name for f in m.pseudo]
    return tpl('wrappers.c').substitute(
        header=header(m, 'wrappers.c', 'One exported wrapper per command (shape: src/tracer/record.h).'),
        customs='\n'.join(customs) or '/* none */', wrappers='\n'.join(wrappers),
        ptrs='\n'.join(ptrs))


def emit_compsize_ids_h(m):
    names = sorted(m.helpers)
    defines = '\n'.join('#define W15_CS_%s %d' % (n, i) for i, n in enumerate(names))
    inst = []
    for n in names:
        h = m.helpers[n]
        inst.append('    X(%s)' % ', '.join([n, h.kind, str(h.pack)] + [str(a) for a in h.args]))
    return tpl('compsize_ids.h').substitute(
        header=header(m, 'compsize_ids.h', 'COMPSIZE helper instances.'),
        defines=defines, count=len(names),
        instances=' \\\n'.join(inst) if inst else '    /* none */')


def group_index(m):
    return {name: i for i, name in enumerate(sorted(m.groups))}


def emit_apitable_c(m):
    pool = StrPool()
    gidx = group_index(m)
    # field widths of src/common/apitable.h
    every = m.funcs + m.pseudo
    if len(every) > 0xffff or len(gidx) >= 0xffff:
        raise ValueError('too many functions or groups for the apitable.h fields')
    for f in every:
        if len(f.params) >= 0xff:
            raise ValueError('%s: too many parameters for w15_param_sig_t' % f.name)
    helpers = {n: i for i, n in enumerate(sorted(m.helpers))}
    funcs, params = [], []
    first = 0
    for f in every:
        funcs.append('    {%d, %d, %d, %d, %d, 0, 0x%x}, /* %s */' % (
            pool.add(f.name), first, len(f.params), f.api_bits, f.context_param, f.flag_bits,
            f.name))
        for pm in f.params + [f.result]:
            if pm.len_op == 'HELPER':
                len_b = helpers[pm.helper]
            else:
                len_b = pm.len_b
            params.append('    {%d, %d, %d, %d, %d, %s, %d, %d, %d, %d, %d, %d, 0},' % (
                pool.add(pm.name), BASES.index(pm.base), pm.is_array, CAPS.index(pm.cap),
                CTYPES.index(pm.ctype),
                str(gidx[pm.group]) if pm.group else 'W15_NO_GROUP',
                LEN_OPS.index(pm.len_op), pm.len_a, len_b, pm.len2, ATTRIBS.index(pm.attribs),
                OFFSET_TARGETS.index(pm.offset)))
        first += len(f.params) + 1
    groups, enums = [], []
    for name in sorted(m.groups):
        g = m.groups[name]
        gtype = 'W15_GROUP_' + g.type
        groups.append('    {%d, %s, 0, 0, %d, %d}, /* %d */' % (
            pool.add(name), gtype, len(enums), len(g.enums), gidx[name]))
        for v, n, b in g.enums:
            enums.append('    {0x%xu, %d, %d},' % (v, pool.add(n), b))
    all_enums = ['    {0x%xu, %d, %d},' % (v, pool.add(n), b) for v, n, b in m.all_enums]
    order = sorted(range(len(every)), key=lambda i: every[i].name.encode())
    by_name = []
    for i in range(0, len(order), 16):
        by_name.append('    ' + ', '.join(str(x) for x in order[i:i + 16]) + ',')
    cs_names = ['    "%s",' % n for n in sorted(m.helpers)]
    pnames = ['    {0x%x, %d, %d}, /* %s */' % (v, n, f, name) for v, n, name, f in m.pnames]
    return tpl('apitable.c').substitute(
        header=header(m, 'apitable.c', 'The tables of src/common/apitable.h.'),
        checks=c_checks(), strpool=pool.c(), funcs=_or_zero(funcs), nfuncs=len(m.funcs),
        npseudo=len(m.pseudo),
        params=_or_zero(params), groups=_or_zero(groups), ngroups=len(groups),
        enums=_or_zero(enums), nenums=len(enums), all_enums=_or_zero(all_enums),
        nall_enums=len(all_enums), by_name='\n'.join(by_name) or '    0',
        cs_names='\n'.join(cs_names + ['    0']), ncompsize=len(cs_names),
        pnames=_or_zero(pnames), npnames=len(pnames))


def c_checks():
    """_Static_assert lines: every C enumerator that mirrors a list of
    model.py has the value the generator writes (the build stops, naming
    both sides, when one of them moves)."""
    out = []

    def check(cname, value, pyname):
        out.append('_Static_assert(%s == %s, "codegen/model.py %s: %s must be %s");' % (
            cname, value, pyname, cname, value))

    for name, lst, prefix, count in (
            ('CTYPES', CTYPES, 'W15_C_', 'W15_C_COUNT_'),
            ('CAPS', CAPS, 'W15_CAP_', 'W15_CAP_COUNT_'),
            ('LEN_OPS', LEN_OPS, 'W15_LEN_', 'W15_LEN_COUNT_'),
            ('ATTRIBS', ATTRIBS, 'W15_ATTRIBS_', 'W15_ATTRIBS_COUNT_'),
            ('OFFSET_TARGETS', OFFSET_TARGETS, 'W15_OFF_', 'W15_OFF_COUNT_'),
            ('GROUP_TYPES', GROUP_TYPES, 'W15_GROUP_', 'W15_GROUP_TYPE_COUNT_'),
            ('BASES', BASE_ENUMS, 'W15_', 'W15_BASE_COUNT_')):
        for i, n in enumerate(lst):
            check(prefix + n, i, '%s[%d]' % (name, i))
        check(count, len(lst), 'len(%s)' % name)
    for i, n in enumerate(FLAGS):
        check('W15_FN_' + n, '(1u << %d)' % i, 'FLAGS[%d]' % i)
    for n, v in sorted(API_BITS.items(), key=lambda kv: kv[1]):
        check('W15_API_' + n, v, "API_BITS['%s']" % n)
    check('W15_PNAME_ENUM_VALUED', PNAME_ENUM_VALUED, 'PNAME_ENUM_VALUED')
    check('W15_NO_PARAM', '0x%xu' % NO_PARAM, 'NO_PARAM')
    return '\n'.join(out)


OUTPUTS = {
    'funcs.h': emit_funcs_h,
    'protos.h': emit_protos_h,
    'wrappers.c': emit_wrappers_c,
    'compsize_ids.h': emit_compsize_ids_h,
    'apitable.c': emit_apitable_c,
}


def check_compsize_source(m, path, need=None):
    """Refuse when src/tracer/compsize.c lacks a W15_CS_KIND_<kind> macro
    for a helper kind the model (or the list `need`) uses.  Returns a list
    of messages."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    have = set(re.findall(r'#\s*define\s+W15_CS_KIND_(\w+)\s*\(', text))
    if need is None:
        need = sorted({h.kind for h in m.helpers.values()})
    return ['%s: no W15_CS_KIND_%s(name, pack, ...) macro for COMPSIZE helper kind "%s"'
            % (path, k, k) for k in need if k not in have]


def write_all(m, outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, fn in sorted(OUTPUTS.items()):
        text = fn(m)
        path = os.path.join(outdir, name)
        tmp = path + '.tmp'
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, path)


def kinds_of_ids_header(path):
    """Helper kinds listed by a generated compsize_ids.h."""
    with open(path, encoding='utf-8') as f:
        return sorted(set(re.findall(r'^\s*X\(\w+,\s*(\w+),', f.read(), re.M)))
