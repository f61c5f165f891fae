"""registry.py -- read a Khronos API registry (gl.xml, glx.xml, egl.xml)
into plain Python objects.

Stage one of the generator: this module only parses.  It knows nothing of
the tracer, prints no C and makes no decisions beyond normalising text (a
parameter's C type is kept exactly as the registry writes it, whitespace
collapsed).
"""

import re
import xml.etree.ElementTree as ET


class Type:
    """One <type>: `name`, the C text of its declaration (`text`, with
    <apientry/> written as APIENTRY) and the names it requires."""

    def __init__(self, name, text, requires, comment=None):
        self.name = name
        self.text = text
        self.requires = requires
        self.comment = comment

    def __repr__(self):
        return 'Type(%r)' % self.name


class Enum:
    """One <enum>.  `value` is an int (negative values of EGL casts kept
    negative, the caller decides the width); `groups` the gl.xml group
    names from the enum's own group= attribute and from its <enums> block;
    `api` is the api= attribute or None; `cast` the C type of an
    EGL_CAST(type, value) or None."""

    def __init__(self, name, value, groups, api, alias, ns, bitmask, cast):
        self.name = name
        self.value = value
        self.groups = groups
        self.api = api
        self.alias = alias
        self.namespace = ns
        self.bitmask = bitmask
        self.cast = cast

    def __repr__(self):
        return 'Enum(%s=%#x)' % (self.name, self.value)


class Param:
    """A parameter, or a command's result (name None for results).
    `decl` is the C type as written ("const GLchar *const*"); `ptype` the
    registry type name inside it, or the builtin type word(s) ("int",
    "void", "unsigned long"); `stars` the pointer depth; `const` whether
    the pointed-to element is const."""

    def __init__(self, name, decl, ptype, group, cls, length):
        self.name = name
        self.decl = decl
        self.ptype = ptype
        self.group = group
        self.cls = cls
        self.len = length
        self.stars = decl.count('*')
        self.const = 'const' in decl.split('*')[0].split()

    def __repr__(self):
        return 'Param(%r %r)' % (self.decl, self.name)


class Command:
    def __init__(self, name, result, params, alias, registry):
        self.name = name
        self.result = result
        self.params = params
        self.alias = alias
        self.registry = registry  # "gl", "glx" or "egl"

    def param(self, name):
        for i, p in enumerate(self.params):
            if p.name == name:
                return i
        return -1

    def __repr__(self):
        return 'Command(%r)' % self.name


class Require:
    """One <require> or <remove> block of a feature or extension."""

    def __init__(self, api, commands, enums, remove=False):
        self.api = api
        self.commands = commands
        self.enums = enums
        self.remove = remove


class Feature:
    def __init__(self, name, api, number, requires):
        self.name = name
        self.api = api
        self.number = number
        self.requires = requires


class Extension:
    def __init__(self, name, supported, requires):
        self.name = name
        self.supported = supported  # list of api names
        self.requires = requires


class Registry:
    """Everything read from one XML file.  `kind` is "gl", "glx" or "egl"
    (taken from the caller, used to tell the files apart)."""

    def __init__(self, kind, path):
        self.kind = kind
        self.path = path
        self.types = []       # in file order (the order C needs)
        self.enums = []       # in file order
        self.commands = {}    # name -> Command
        self.features = []
        self.extensions = []
        self.bitmask_groups = set()  # groups of <enums type="bitmask">


_EGL_CAST = re.compile(r'^EGL_CAST\(\s*([^,]+?)\s*,\s*(.+?)\s*\)$')


def _int(text):
    text = text.strip()
    if text.startswith('(') and text.endswith(')'):
        text = text[1:-1].strip()
    return int(text.rstrip('uUlL'), 0)


def parse_value(text):
    """(value, cast) of an <enum value=...>; value None when not numeric."""
    cast = None
    m = _EGL_CAST.match(text.strip())
    if m:
        cast, text = m.group(1), m.group(2)
    try:
        return _int(text), cast
    except ValueError:
        return None, cast


def _text_of(elem, stop_at_name=True):
    """C text of a <proto>/<param>: every text and tail up to <name>."""
    out = [elem.text or '']
    ptype = None
    for child in elem:
        if child.tag == 'name' and stop_at_name:
            break
        if child.tag == 'ptype':
            ptype = (child.text or '').strip()
        out.append(child.text or '')
        out.append(child.tail or '')
    return ' '.join(''.join(out).split()), ptype


def _norm_decl(decl):
    """Canonical spelling: "const GLchar *const*", "GLuint *", "void **"."""
    out = ''
    prev = None
    for tok in decl.replace('*', ' * ').split():
        if tok == '*':
            out += '*' if prev in ('*', 'const*') else ' *'
            prev = '*'
        elif prev == '*':
            out += tok
            prev = 'const*' if tok == 'const' else tok
        else:
            out += (' ' if out else '') + tok
            prev = tok
    return out


def _builtin_ptype(decl):
    words = [w for w in decl.replace('*', ' ').split() if w != 'const']
    return ' '.join(words)


def _param(elem, is_result):
    decl, ptype = _text_of(elem)
    if is_result:
        name = None
    else:
        n = elem.find('name')
        name = n.text.strip()
    decl = _norm_decl(decl)
    if ptype is None:
        ptype = _builtin_ptype(decl)
    return Param(name, decl, ptype, elem.get('group'), elem.get('class'), elem.get('len'))


def _type(elem):
    name = elem.get('name')
    parts = [elem.text or '']
    for child in elem:
        if child.tag == 'name':
            name = (child.text or '').strip()
            parts.append(child.text or '')
        elif child.tag == 'apientry':
            parts.append('APIENTRY')
        else:
            parts.append(child.text or '')
        parts.append(child.tail or '')
    text = ''.join(parts).strip()
    return Type(name, text, elem.get('requires'), elem.get('comment'))


def _require(elem, remove=False):
    cmds = [c.get('name') for c in elem.findall('command')]
    enums = [e.get('name') for e in elem.findall('enum')]
    return Require(elem.get('api'), cmds, enums, remove)


def load(kind, path):
    """Parse one registry file.  Raises ValueError/ET.ParseError with the
    file name on malformed input."""
    reg = Registry(kind, path)
    root = ET.parse(path).getroot()
    for types in root.findall('types'):
        for t in types.findall('type'):
            reg.types.append(_type(t))
    for block in root.findall('enums'):
        ns = block.get('namespace')
        bgroup = block.get('group')
        bitmask = block.get('type') == 'bitmask'
        if bitmask and bgroup:
            reg.bitmask_groups.add(bgroup)
        for e in block.findall('enum'):
            value, cast = parse_value(e.get('value', ''))
            if value is None:
                continue
            groups = []
            for g in (e.get('group') or '').split(','):
                if g and g not in groups:
                    groups.append(g)
            reg.enums.append(Enum(e.get('name'), value, groups, e.get('api'),
                                  e.get('alias'), ns, bitmask, cast))
    for cmds in root.findall('commands'):
        for c in cmds.findall('command'):
            result = _param(c.find('proto'), True)
            name = c.find('proto').find('name').text.strip()
            params = [_param(p, False) for p in c.findall('param')]
            al = c.find('alias')
            if name in reg.commands:
                raise ValueError('%s: command %s defined twice' % (path, name))
            reg.commands[name] = Command(name, result, params,
                                         al.get('name') if al is not None else None, kind)
    for f in root.findall('feature'):
        reqs = [_require(r) for r in f.findall('require')]
        reqs += [_require(r, True) for r in f.findall('remove')]
        reg.features.append(Feature(f.get('name'), f.get('api'), f.get('number'), reqs))
    for exts in root.findall('extensions'):
        for x in exts.findall('extension'):
            reqs = [_require(r) for r in x.findall('require')]
            reg.extensions.append(Extension(x.get('name'),
                                            (x.get('supported') or '').split('|'), reqs))
    return reg
