"""model.py -- stage two of the generator: from the parsed registries
(registry.py) and the project's annotations (glapi/annotations.txt) build
the model the emitters print: every command with its API bits, flags and,
per parameter and result, how the tracer captures it; the groups (gl.xml
enum groups and our object-name namespaces) with their enumerants; the
COMPSIZE helper instances; the glGet pname table.

Rules (the annotation file holds the data, this module the mechanics):

* API bits come from <feature api=...> (gl, gles1, gles2, glsc2, glx, egl)
  and <extension supported=...> (gl|glcore -> GL, ...), narrowed by
  <require api=...>.  A command no feature or extension names gets the
  API of its file (gl.xml -> GL, glx.xml -> GLX, egl.xml -> EGL).
* Every command of the three files gets a wrapper, aliases included; an
  alias inherits len/class/group of its target's parameter where its own
  parameter has none and the two agree in type and position.
* Scalar C types map to a base type and memory ctype through `type` lines.
* Object names: gl.xml class="..." through `class` lines; C types that are
  handles through `object-type` lines; everything else through `object`
  lines (function glob + parameter name).
* Enum groups: the gl.xml group= of a parameter when that group has at
  least one enumerant; otherwise the `enum-default` group of the C type
  (an empty group: readers fall back to w15_all_enums).
* Pointers: see capture() below; `cap` lines override per parameter.
* The general path: a command whose calls the runtime must see in
  w15_pre/w15_post (flag GENERAL: annotated, or implied by FRAME_END,
  MAKE_CURRENT, PIXEL_UNPACK, PIXEL_PACK, CUSTOM) gets no inline fast path.
* MakeCurrent: every MAKE_CURRENT command names its context parameter in a
  `context` line (w15_func_sig_t.context_param).
* Attribute lists (w15_param_sig_t.attribs): PAIRS for `terminated` lists,
  others through `attribs` lines.
* Pseudo-calls (`pseudo` lines): calls the tracer writes itself; indices
  after the registry's commands (W15F__COUNT, ...), in the lines' order,
  flag PSEUDO plus the line's own flag.
* The C enums of src/common/apitable.h and include/wip15/format.h that
  mirror the lists below are checked at build time (emit.py c_checks).
"""

import fnmatch
import re

import replay_model

# w15_api bits (src/common/apitable.h)
API_BITS = {'GL': 1, 'GLES1': 2, 'GLES2': 4, 'GLSC2': 8, 'GLX': 16, 'EGL': 32}
_API_OF_NAME = {'gl': 'GL', 'glcore': 'GL', 'gles1': 'GLES1', 'gles2': 'GLES2',
                'glsc2': 'GLSC2', 'glx': 'GLX', 'egl': 'EGL'}
_DEFAULT_API = {'gl': 'GL', 'glx': 'GLX', 'egl': 'EGL'}

BASES = ['Void', 'UnsignedInt', 'Int', 'Ptr', 'Bool', 'Float', 'Double',
         'String', 'Data', 'FunctionPtr']
# w15_base_t enumerator of each base (W15_<name>, include/wip15/format.h)
BASE_ENUMS = ['VOID', 'UINT', 'INT', 'PTR', 'BOOL', 'FLOAT', 'DOUBLE', 'STRING', 'DATA',
              'FUNCPTR']
CTYPES = ['VOID', 'I8', 'U8', 'I16', 'U16', 'I32', 'U32', 'I64', 'U64',
          'F32', 'F64', 'PTR', 'FUNCPTR', 'LONG']
CAPS = ['VALUE', 'STR_IN', 'STR_OUT', 'STR_ARRAY_IN', 'ARRAY_IN', 'ARRAY_OUT',
        'DATA_IN', 'DATA_OUT', 'PTR']
LEN_OPS = ['NONE', 'CONST', 'PARAM', 'PARAM_MUL', 'PARAM_MUL_PARAM', 'DEREF',
           'HELPER', 'TERMINATED', 'NUL']
FLAGS = ['FRAME_END', 'MAKE_CURRENT', 'GET_PROC', 'CUSTOM', 'DRAW', 'UPLOAD',
         'READBACK', 'CLEAR', 'COMPILE', 'LINK', 'SYNC', 'GROUP_PUSH',
         'GROUP_POP', 'MARKER', 'PIXEL_UNPACK', 'PIXEL_PACK', 'GENERAL',
         'PSEUDO', 'TRACE_BEGIN', 'THREAD_SWITCH', 'VERTEX_DRAW', 'MAP', 'UNMAP',
         'FLUSH_MAPPED', 'CONSUMES', 'SYNC_POINT', 'CONTEXT_CREATE', 'CONTEXT_DESTROY',
         'VERTEX_STATE', 'BUFFER_BIND', 'OUTSIDE_BEGIN', 'EGL_ERROR']
# Flags that send a command's calls through the general path (GENERAL):
# the runtime has work around every such call (src/tracer/capture.h).
GENERAL_IMPLIED = {'FRAME_END', 'MAKE_CURRENT', 'PIXEL_UNPACK', 'PIXEL_PACK', 'CUSTOM',
                   'VERTEX_DRAW', 'MAP', 'UNMAP', 'FLUSH_MAPPED', 'CONSUMES', 'SYNC_POINT',
                   'CONTEXT_CREATE', 'CONTEXT_DESTROY', 'VERTEX_STATE', 'UPLOAD', 'READBACK',
                   'EGL_ERROR', 'LINK'}
# Flags of `pseudo` lines only.
PSEUDO_FLAGS = ('TRACE_BEGIN', 'THREAD_SWITCH')
# enum w15_attribs (src/common/apitable.h): how tools print an attribute list
ATTRIBS = ['NONE', 'PAIRS', 'GLX12']
# enum w15_offset_target (src/common/apitable.h): the buffer binding point
# under which a pointer parameter is an offset (`offset` lines); GL_<name>
OFFSET_TARGETS = ['NONE', 'ARRAY_BUFFER', 'ELEMENT_ARRAY_BUFFER', 'PIXEL_PACK_BUFFER',
                  'PIXEL_UNPACK_BUFFER', 'DRAW_INDIRECT_BUFFER', 'DISPATCH_INDIRECT_BUFFER',
                  'PARAMETER_BUFFER', 'QUERY_BUFFER']
# Why a pointer is deliberately left without contents (`cap ... ptr why=WHY`);
# the list of unknown extents (gen.py --unknown-extents) names it.
PTR_WHYS = {
    'opaque': 'never dereferenced by GL (a user pointer, a native handle, a label key)',
    'client-array': 'client memory a draw reads (vertex arrays, indirect commands): '
                    'captured at draws as wip15ClientMemory; an offset under a bound buffer',
    'state': 'the size depends on GL object state (a texture level, a uniform, a table), '
             'not on the arguments; the tracer does not query it',
    'mapping': 'a mapping of a buffer: written bytes are captured at unmap/flush',
    'struct': 'a window-system structure (XVisualInfo), not GL data',
    'unknowable': 'the specification gives no size the tracer can compute',
}
NO_PARAM = 0xff
# enum w15_group_type of include/wip15/format.h, without the W15_GROUP_ prefix
GROUP_TYPES = ['ENUM', 'BITMASK', 'GL_BUFFERS', 'GL_SAMPLERS', 'GL_TEXTURES', 'GL_QUERIES',
               'GL_FRAMEBUFFERS', 'GL_RENDERBUFFERS', 'GL_SYNCS', 'GL_PROGRAMS',
               'GL_PROGRAM_PIPELINES', 'GL_SHADERS', 'GL_VAOS', 'GL_TRANSFORM_FEEDBACKS',
               'EGL_OES_IMAGES', 'GLX_FBCONFIGS', 'GLX_CONTEXTS', 'EGL_DISPLAYS', 'EGL_CONFIGS',
               'EGL_CONTEXTS', 'EGL_SURFACES', 'EGL_SYNCS', 'GLX_DISPLAYS', 'GLX_DRAWABLES',
               'GL_DISPLAY_LISTS']
# Helper kinds that read pixel-store state: their commands take a pixel
# pointer that is a buffer offset while a pixel buffer is bound.
PIXEL_KINDS = ('image', 'bitmap', 'stipple')
# Vendor and extension tags: an enumerant name ending in one of these is
# not the preferred name of its value.
VENDOR_SUFFIXES = set('''ARB EXT KHR OES NV NVX AMD APPLE ATI SGI SGIX SGIS SUN SUNX IBM
    INTEL MESA MESAX 3DFX HP PGI INGR OML OVR QCOM ANGLE IMG ARM DMP FJ VIV
    GREMEDY S3 REND WIN HI NOK ANDROID TIZEN HUAWEI EMSCRIPTEN MTK CHROMIUM
    NOKIA SEC'''.split())


def slot_of(ctype):
    """Field of w15_slot_t a value of this ctype is packed into."""
    if ctype.startswith('I'):
        return 'i'
    if ctype.startswith('U') or ctype == 'LONG':
        return 'u'
    return {'F32': 'f', 'F64': 'd', 'PTR': 'p', 'FUNCPTR': 'p'}[ctype]



# w15_pname_count_t.flags bits (src/common/apitable.h)
PNAME_ENUM_VALUED = 1

class AnnotationError(Exception):
    """An annotation line the generator refuses; str() names file:line."""


class Line:
    def __init__(self, path, num, words):
        self.path, self.num, self.words = path, num, words

    def error(self, msg):
        return AnnotationError('%s:%d: %s: %s' % (self.path, self.num,
                                                  ' '.join(self.words), msg))


def read_annotations(paths):
    lines = []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            for num, text in enumerate(f, 1):
                text = text.split('#', 1)[0].strip()
                if text:
                    lines.append(Line(path, num, text.split()))
    return lines


class PModel:
    """How one parameter (or the result, name "result") is captured."""

    def __init__(self, p, index):
        self.p = p
        self.index = index
        self.name = p.name if p.name is not None else 'result'
        self.base = 'Void'
        self.ctype = 'VOID'
        self.slot = None
        self.is_array = 0
        self.cap = 'VALUE'
        self.group = None
        self.len_op = 'NONE'
        self.len_a = NO_PARAM
        self.len_b = 0
        self.len2 = NO_PARAM
        self.helper = None    # helper instance name for HELPER
        self.reason = None    # why a pointer fell back to PTR
        self.attribs = 'NONE' # attribute-list style (ATTRIBS)
        self.offset = 'NONE'  # OFFSET_TARGETS: an offset while a buffer is bound there

    def __repr__(self):
        return '<%s %s %s %s len=%s(%s,%s) len2=%s group=%s>' % (
            self.name, self.cap, self.base, self.ctype, self.len_op,
            self.len_a, self.len_b, self.len2, self.group)


class FModel:
    def __init__(self, cmd):
        self.cmd = cmd
        self.name = cmd.name
        self.registry = cmd.registry
        self.api = set()
        self.flags = set()
        self.params = []
        self.result = None
        self.context_param = NO_PARAM  # MAKE_CURRENT: the context parameter
        self.general_if = None  # (param name, value): that call takes the general path

    @property
    def api_bits(self):
        return sum(API_BITS[a] for a in self.api)

    @property
    def general(self):
        """The runtime must see this command's calls (no fast path); a
        parameter that may be an offset needs the binding asked."""
        return ('GENERAL' in self.flags or bool(self.flags & GENERAL_IMPLIED) or
                any(pm.offset != 'NONE' for pm in self.params))

    @property
    def flag_bits(self):
        flags = self.flags | ({'GENERAL'} if self.general else set())
        return sum(1 << FLAGS.index(f) for f in flags)


class _PseudoParam:
    """A parameter of a pseudo-call, shaped like registry.Param for PModel."""

    def __init__(self, name):
        self.name = name


class PseudoFunc(FModel):
    """A call the tracer writes itself (a `pseudo` line)."""

    def __init__(self, name, flag, params):
        self.cmd = None
        self.name = name
        self.registry = None
        self.api = set()
        self.flags = {'PSEUDO', flag} if flag else {'PSEUDO'}
        self.context_param = NO_PARAM
        self.params = []
        for i, (pname, base, is_array, group) in enumerate(params):
            pm = PModel(_PseudoParam(pname), i)
            pm.base, pm.is_array, pm.group = base, is_array, group
            pm.ctype = {'UnsignedInt': 'U64', 'Int': 'I64', 'Bool': 'U8', 'Float': 'F32',
                        'Double': 'F64'}.get(base, 'PTR')
            self.params.append(pm)
        self.result = PModel(_PseudoParam(None), len(params))


class Group:
    def __init__(self, name, gtype):
        self.name = name
        self.type = gtype     # "ENUM", "BITMASK" or a W15_GROUP_ suffix
        self.enums = []       # [(value, name, api_bits)] sorted for lookup


class Helper:
    """One instance of a COMPSIZE helper kind at fixed argument positions."""

    def __init__(self, kind, pack, args):
        self.kind = kind
        self.pack = pack
        self.args = args      # ints; -1 for an absent argument

    @property
    def name(self):
        return '_'.join([self.kind] + [('n' if a < 0 else str(a)) for a in self.args]
                        + (['out'] if self.pack else []))


class Model:
    def __init__(self):
        self.funcs = []          # FModel sorted by name
        self.groups = {}         # name -> Group
        self.all_enums = []      # (value, name, api_bits) sorted
        self.helpers = {}        # name -> Helper
        self.pnames = []         # (value, count, name, flags) sorted by value
        self.pseudo = []         # PseudoFunc, in index order after funcs
        self.types = []          # registry Type objects, per registry
        self.inputs = []
        self.registries = []


def _uniq_value(v):
    return v & 0xffffffffffffffff


class Builder:
    def __init__(self, registries, lines):
        self.regs = registries
        self.lines = lines
        self.m = Model()
        self.m.registries = registries
        self.cmds = {}
        for r in registries:
            for name, c in r.commands.items():
                if name in self.cmds:
                    raise AnnotationError('%s: command %s also in %s' % (
                        r.path, name, self.cmds[name].registry))
                self.cmds[name] = c
        self.enum_by_name = {}
        for r in registries:
            for e in r.enums:
                self.enum_by_name.setdefault(e.name, e)
        self.group_members = {}
        self.bitmask_groups = set()
        for r in registries:
            self.bitmask_groups |= r.bitmask_groups
            if r.kind != 'gl':
                continue
            for e in r.enums:
                for g in e.groups:
                    self.group_members.setdefault(g, []).append(e)
        self.types = {}
        self.chartypes = set()
        self.namespaces = {}
        self.classes = {}
        self.object_types = {}
        self.object_rules = []
        self.enum_defaults = {}
        self.enum_param_rules = []
        self.terminated = []
        self.compsize = {}
        self.cap_lines = []
        self.flag_lines = []
        self.unflag_lines = []
        self.pname_lines = []
        self.enum_valued_lines = []
        self.context_lines = []
        self.general_if_lines = []
        self.attribs_lines = []
        self.pseudo_lines = []
        self.offset_lines = []
        self.replay_lines = []   # replay-* directives (replay_model.py)

    # -- annotations --------------------------------------------------
    def parse_lines(self):
        for ln in self.lines:
            w = ln.words
            d = w[0]
            if d == 'type' and len(w) == 4:
                if w[2] not in BASES or w[3] not in CTYPES:
                    raise ln.error('unknown base or ctype')
                self.types[w[1]] = (w[2], w[3])
            elif d == 'chartype' and len(w) >= 2:
                self.chartypes.update(w[1:])
            elif d == 'namespace' and len(w) == 3:
                if w[2] not in GROUP_TYPES:
                    raise ln.error('unknown group type %s (W15_GROUP_* of wip15/format.h)' % w[2])
                self.namespaces[w[1]] = w[2]
            elif d == 'class' and len(w) == 3:
                self.classes[w[1].replace('_', ' ')] = self.need_ns(ln, w[2])
            elif d == 'object-type' and len(w) == 3:
                self.object_types[w[1]] = self.need_ns(ln, w[2])
            elif d == 'object' and len(w) == 4:
                self.need_ns(ln, w[3])
                self.object_rules.append(ln)
            elif d == 'enum-param' and len(w) == 4:
                self.enum_param_rules.append(ln)
            elif d == 'enum-default' and len(w) == 4:
                if w[3] not in ('ENUM', 'BITMASK'):
                    raise ln.error('group type must be ENUM or BITMASK')
                self.enum_defaults[w[1]] = (w[2], w[3])
            elif d == 'terminated' and len(w) == 5:
                self.terminated.append(ln)
            elif d == 'compsize' and len(w) >= 3:
                key = w[1]
                if not (key.startswith('(') and key.endswith(')')):
                    raise ln.error('expected (ARGS)')
                self.compsize[key[1:-1]] = ln
            elif d == 'cap' and len(w) >= 4:
                self.cap_lines.append(ln)
            elif d == 'flag' and len(w) >= 3:
                for f in w[1].split('|'):
                    if f not in FLAGS:
                        raise ln.error('unknown flag %s' % f)
                    if f == 'PSEUDO' or f in PSEUDO_FLAGS:
                        raise ln.error('%s belongs to `pseudo` lines' % f)
                self.flag_lines.append(ln)
            elif d == 'context' and len(w) == 3:
                self.context_lines.append(ln)
            elif d == 'general-if' and len(w) == 4:
                self.general_if_lines.append(ln)
            elif d == 'attribs' and len(w) == 4:
                if w[3].upper() not in ATTRIBS[1:]:
                    raise ln.error('unknown attribute-list style %s (%s)' % (
                        w[3], ', '.join(a.lower() for a in ATTRIBS[1:])))
                self.attribs_lines.append(ln)
            elif d == 'pseudo' and len(w) >= 3:
                self.pseudo_lines.append(ln)
            elif d == 'offset' and len(w) == 4:
                if not w[3].startswith('GL_') or w[3][3:] not in OFFSET_TARGETS[1:]:
                    raise ln.error('unknown offset target %s (%s)' % (
                        w[3], ', '.join('GL_' + t for t in OFFSET_TARGETS[1:])))
                self.offset_lines.append(ln)
            elif d == 'unflag' and len(w) >= 3:
                for f in w[1].split('|'):
                    if f not in FLAGS:
                        raise ln.error('unknown flag %s' % f)
                self.unflag_lines.append(ln)
            elif d == 'pname' and len(w) >= 3:
                self.pname_lines.append(ln)
            elif d == 'enum-valued' and len(w) >= 2:
                self.enum_valued_lines.append(ln)
            elif replay_model.is_replay_line(w):
                self.replay_lines.append(ln)
            else:
                raise ln.error('unknown directive or wrong number of words')

    def need_ns(self, ln, name):
        if name not in self.namespaces:
            raise ln.error('namespace %s not declared by a `namespace` line' % name)
        return name

    # -- API bits -----------------------------------------------------
    def api_maps(self):
        cmd_api, enum_api = {}, {}
        self.core_enums = {e for r in self.regs for f in r.features for rq in f.requires
                           if not rq.remove for e in rq.enums}
        for r in self.regs:
            blocks = [(f.api.split('|'), f.requires) for f in r.features]
            blocks += [(x.supported, x.requires) for x in r.extensions]
            for apis, reqs in blocks:
                for rq in reqs:
                    if rq.remove:
                        continue
                    names = rq.api.split('|') if rq.api else apis
                    bits = {_API_OF_NAME[a] for a in names if a in _API_OF_NAME}
                    for c in rq.commands:
                        cmd_api.setdefault(c, set()).update(bits)
                    for e in rq.enums:
                        enum_api.setdefault(e, set()).update(bits)
        return cmd_api, enum_api

    # -- helpers ------------------------------------------------------
    def helper(self, kind, pack, args):
        h = Helper(kind, pack, args)
        self.m.helpers.setdefault(h.name, h)
        return h.name

    def scalar(self, ptype, where):
        ptype = ptype.replace(' ', '_')
        if ptype not in self.types:
            raise AnnotationError('C type "%s" (%s) has no `type` line in the annotations'
                                  % (ptype, where))
        return self.types[ptype]

    def object_group(self, f, pm, depth=0):
        """Namespace of a value (depth 0) or of the elements a pointer
        points to (depth 1): gl.xml class, then `object-type`, then
        `object` lines."""
        p = pm.p
        if p.cls:
            if p.cls not in self.classes:
                raise AnnotationError('gl.xml class "%s" (%s %s) has no `class` line'
                                      % (p.cls, f.name, pm.name))
            return self.classes[p.cls]
        key = p.ptype + '*' * (p.stars - depth)
        if key in self.object_types:
            return self.object_types[key]
        for ln in self.object_rules:
            if pm.name == ln.words[2] and fnmatch.fnmatchcase(f.name, ln.words[1]):
                ln.used = True
                return ln.words[3]
        return None

    def enum_group(self, p):
        g = p.group
        if g and self.group_members.get(g) and p.ptype in self.enum_defaults:
            gtype = 'BITMASK' if (g in self.bitmask_groups or
                                  self.enum_defaults[p.ptype][1] == 'BITMASK') else 'ENUM'
            return g, gtype
        if g and self.group_members.get(g) and p.ptype in ('GLint', 'GLuint'):
            # e.g. glTexImage2D's GLint internalformat: group InternalFormat
            return g, ('BITMASK' if g in self.bitmask_groups else 'ENUM')
        if p.ptype in self.enum_defaults:
            return self.enum_defaults[p.ptype]
        return None

    def enum_param(self, f, pm):
        """An `enum-param` line naming this scalar: (group, type)."""
        for ln in self.enum_param_rules:
            if pm.name == ln.words[2] and fnmatch.fnmatchcase(f.name, ln.words[1]):
                ln.used = True
                g = ln.words[3]
                return g, 'BITMASK' if g in self.bitmask_groups else 'ENUM'
        return None

    def use_group(self, name, gtype):
        g = self.m.groups.get(name)
        if g is None:
            g = self.m.groups[name] = Group(name, gtype)
        return name

    # -- lengths ------------------------------------------------------
    def parse_len(self, f, pm, text):
        """Set pm.len_* from a len spec; return False when unknown."""
        c = f.cmd
        text = text.strip()
        if re.fullmatch(r'\d+', text):
            pm.len_op, pm.len_b = 'CONST', int(text)
            return True
        if c.param(text) >= 0:
            pm.len_op, pm.len_a = 'PARAM', c.param(text)
            return True
        m = re.fullmatch(r'(\w+)\s*\*\s*(\w+)', text)
        if m:
            a, b = m.group(1), m.group(2)
            if c.param(a) >= 0 and re.fullmatch(r'\d+', b):
                pm.len_op, pm.len_a, pm.len_b = 'PARAM_MUL', c.param(a), int(b)
                return True
            if c.param(a) >= 0 and c.param(b) >= 0:
                pm.len_op, pm.len_a, pm.len_b = 'PARAM_MUL_PARAM', c.param(a), c.param(b)
                return True
        m = re.fullmatch(r'(\w+)\s*/\s*(\d+)', text)
        if m and c.param(m.group(1)) >= 0:
            pm.len_op = 'HELPER'
            pm.helper = self.helper('div', 0, [c.param(m.group(1)), int(m.group(2))])
            return True
        m = re.fullmatch(r'\*(\w+)', text)
        if m and c.param(m.group(1)) >= 0:
            pm.len_op, pm.len_a = 'DEREF', c.param(m.group(1))
            return True
        m = re.fullmatch(r'term:(\w+)', text)
        if m:
            pm.len_op, pm.len_b = 'TERMINATED', int(m.group(1), 0)
            return True
        if text == 'nul':
            pm.len_op = 'NUL'
            return True
        m = re.fullmatch(r'(?:COMPSIZE|helper:(\w+))\(([\w,\s]*)\)', text)
        if m:
            args = [a.strip() for a in m.group(2).split(',') if a.strip()]
            if m.group(1):
                kind, names = m.group(1), args
            else:
                if args == [pm.name]:
                    pm.len_op = 'NUL'
                    return True
                ln = self.compsize.get(','.join(args))
                if ln is None:
                    return False
                ln.used = True
                kind, names = ln.words[2], ln.words[3:]
            pos = []
            for n in names:
                if n == '-':
                    pos.append(-1)
                elif n == 'self':
                    pos.append(pm.index)
                elif re.fullmatch(r'\d+', n):
                    pos.append(int(n))
                elif c.param(n) >= 0:
                    pos.append(c.param(n))
                else:
                    raise AnnotationError('%s: helper %s argument "%s" is not a parameter'
                                          % (f.name, kind, n))
            if kind == 'strn' and len(pos) == 2 and pos[0] == pm.index and pos[1] >= 0:
                # a string of `length` bytes, NUL-terminated when length < 0:
                # the recorder's own rule for a string with a length parameter
                pm.len_op, pm.len_a = 'PARAM', pos[1]
                return True
            pm.len_op = 'HELPER'
            pm.helper = self.helper(kind, 0 if pm.p.const else 1, pos)
            return True
        return False

    # -- capture ------------------------------------------------------
    def capture(self, f, pm, override=None):
        """Decide how pm is captured.  `override` is a (cap, len, len2)
        from a `cap` line."""
        p = pm.p
        where = '%s %s' % (f.name, pm.name)
        if p.stars == 0:
            if p.ptype == 'void':
                return
            pm.base, pm.ctype = self.scalar(p.ptype, where)
            pm.slot = slot_of(pm.ctype)
            ns = self.object_group(f, pm)
            if ns:
                pm.group = self.use_group(ns, self.namespaces[ns])
            else:
                eg = self.enum_param(f, pm) or self.enum_group(p)
                if eg:
                    pm.group = self.use_group(*eg)
            return
        pm.base, pm.ctype, pm.slot = 'Ptr', 'PTR', 'p'
        key = p.ptype + '*' * p.stars
        if override is None and key in self.object_types:
            ns = self.object_types[key]
            pm.group = self.use_group(ns, self.namespaces[ns])
            return
        # element type
        if p.stars == 1 and p.ptype in self.chartypes:
            ekind = 'char'
        elif p.stars == 2 and p.ptype in self.chartypes:
            ekind = 'strings'
        elif p.stars == 1 and p.ptype == 'void':
            ekind = 'void'
        else:
            ekind = 'typed'
        if ekind == 'typed':
            if p.stars == 1:
                ebase, ectype = self.scalar(p.ptype, where)
            else:
                ebase, ectype = 'Ptr', 'PTR'
        lenspec = p.len
        cap = None
        if override:
            cap, lenspec, l2 = override[:3]
            if cap == 'PTR':
                pm.cap = 'PTR'
                pm.reason = override[3] or 'annotated'
                return
        if lenspec is None and override is None:
            for ln in self.terminated:
                w = ln.words
                if (w[1] == f.registry and w[2] == p.ptype and
                        fnmatch.fnmatchcase(pm.name, w[3])):
                    ln.used = True
                    lenspec = 'term:' + w[4]
                    break
        known = lenspec is not None and self.parse_len(f, pm, lenspec)
        if lenspec is None and ekind == 'char' and p.const:
            pm.len_op, known = 'NUL', True
        if not known:
            pm.len_op, pm.len_a, pm.len_b, pm.helper = 'NONE', NO_PARAM, 0, None
            pm.cap = 'PTR'
            pm.reason = ('no len' if lenspec is None else 'len ' + lenspec)
            return
        if cap is None:
            if ekind == 'char':
                cap = 'STR_IN' if p.const else 'STR_OUT'
            elif ekind == 'strings':
                cap = 'STR_ARRAY_IN'
            elif ekind == 'void':
                cap = 'DATA_IN' if p.const else 'DATA_OUT'
            else:
                cap = 'ARRAY_IN' if p.const else 'ARRAY_OUT'
        pm.cap = cap
        if cap in ('STR_IN', 'STR_OUT'):
            pm.base, pm.ctype = 'String', 'I8'
        elif cap == 'STR_ARRAY_IN':
            pm.base, pm.ctype, pm.is_array = 'String', 'PTR', 1
        elif cap in ('DATA_IN', 'DATA_OUT'):
            pm.base, pm.ctype = 'Data', 'U8'
        else:
            if ekind != 'typed':
                raise AnnotationError('%s: %s needs a typed pointer' % (where, cap))
            pm.base, pm.ctype, pm.is_array = ebase, ectype, 1
            ns = self.object_group(f, pm, 1)
            if ns:
                pm.group = self.use_group(ns, self.namespaces[ns])
            elif p.stars == 1:
                eg = self.enum_group(p)
                if eg:
                    pm.group = self.use_group(*eg)
        c = f.cmd
        if override and override[2] is not None:
            pm.len2 = override[2]
        elif cap == 'STR_OUT':
            i = c.param('length')
            if i >= 0 and c.params[i].stars == 1 and not c.params[i].const:
                pm.len2 = i
        elif cap == 'STR_ARRAY_IN':
            i = c.param('length')
            if i >= 0 and c.params[i].stars == 1 and c.params[i].const:
                pm.len2 = i

    # -- the whole model ----------------------------------------------
    def build(self):
        self.parse_lines()
        cmd_api, enum_api = self.api_maps()
        funcs = {}
        for name in sorted(self.cmds):
            c = self.cmds[name]
            f = FModel(c)
            f.api = cmd_api.get(name) or {_DEFAULT_API[c.registry]}
            funcs[name] = f
        self.inherit_aliases()
        overrides = self.cap_overrides()
        for name in sorted(funcs):
            f = funcs[name]
            c = f.cmd
            for i, p in enumerate(c.params):
                pm = PModel(p, i)
                self.capture(f, pm, overrides.pop((name, p.name), None))
                f.params.append(pm)
            f.result = PModel(c.result, len(c.params))
            self.capture(f, f.result, overrides.pop((name, 'result'), None))
            for pm in f.params:
                if pm.helper and self.m.helpers[pm.helper].kind in PIXEL_KINDS:
                    pm.offset = ('PIXEL_PACK_BUFFER' if pm.p.stars and not pm.p.const
                                 else 'PIXEL_UNPACK_BUFFER')
        self.apply_offsets(funcs)
        self.apply_flags(funcs)
        self.apply_context(funcs)
        self.apply_general_if(funcs)
        self.apply_attribs(funcs)
        self.build_pseudo(funcs)
        replay_model.build(self, funcs, self.replay_lines)
        self.m.funcs = [funcs[n] for n in sorted(funcs)]
        self.check_unused()
        self.build_groups(enum_api)
        self.build_pnames()
        return self.m

    def inherit_aliases(self):
        for c in self.cmds.values():
            t = self.cmds.get(c.alias) if c.alias else None
            if t is None or len(t.params) != len(c.params):
                continue
            for p, q in zip(c.params, t.params):
                if p.stars != q.stars:
                    continue
                if p.len is None and q.len is not None:
                    p.len = q.len.replace(q.name, p.name) if q.name != p.name else q.len
                    # a len naming another param must name ours
                    for a, b in zip(t.params, c.params):
                        if a.name != b.name:
                            p.len = re.sub(r'\b%s\b' % re.escape(a.name), b.name, p.len)
                if p.cls is None and q.cls is not None:
                    p.cls = q.cls
                if p.group is None and q.group is not None:
                    p.group = q.group

    def match_funcs(self, ln, glob):
        if not any(ch in glob for ch in '*?['):
            names = [glob] if glob in self.cmds else []
        else:
            names = [n for n in self.cmds if fnmatch.fnmatchcase(n, glob)]
        if not names:
            raise ln.error('no function in the registries matches "%s"' % glob)
        return sorted(names)

    def cap_overrides(self):
        """cap FUNC PARAM CAP [LEN] [len2=PARAM]"""
        out = {}
        for ln in self.cap_lines:
            w = ln.words
            cap = w[3].upper()
            if cap not in CAPS:
                raise ln.error('unknown capture %s' % w[3])
            for name in self.match_funcs(ln, w[1]):
                c = self.cmds[name]
                if w[2] != 'result' and c.param(w[2]) < 0:
                    raise ln.error('%s has no parameter "%s"' % (name, w[2]))
                lenspec, len2, why = None, None, None
                for extra in w[4:]:
                    if extra.startswith('why='):
                        why = extra[4:]
                        if cap != 'PTR' or why not in PTR_WHYS:
                            raise ln.error('why= goes with ptr: one of %s' % ', '.join(sorted(PTR_WHYS)))
                    elif extra.startswith('len2='):
                        i = c.param(extra[5:])
                        if i < 0:
                            raise ln.error('%s has no parameter "%s"' % (name, extra[5:]))
                        len2 = i
                    else:
                        lenspec = extra
                if cap not in ('PTR', 'VALUE') and lenspec is None:
                    raise ln.error('%s needs a length' % cap)
                out[(name, w[2])] = (cap, lenspec, len2, why)
        return out

    def apply_offsets(self, funcs):
        """offset FUNCGLOB PARAM TARGET: PARAM (a pointer) is an offset into
        the buffer bound to TARGET while one is.  A GLintptr parameter that
        is always an offset (glDispatchComputeIndirect's indirect, the
        drawcount of glMultiDraw*IndirectCount) keeps its value and gets
        the wip15.offset entry too.  Pixel pointers (helper kinds
        image, bitmap, stipple) are offsets under the pixel buffers by
        themselves; a command with such a parameter gets PIXEL_UNPACK or
        PIXEL_PACK."""
        for ln in self.offset_lines:
            target = ln.words[3][3:]
            for name in self.match_funcs(ln, ln.words[1]):
                f = funcs[name]
                i = f.cmd.param(ln.words[2])
                if i < 0:
                    raise ln.error('%s has no parameter "%s"' % (name, ln.words[2]))
                pm = f.params[i]
                if not pm.p.stars and pm.p.ptype not in ('GLintptr', 'GLintptrARB'):
                    raise ln.error('%s %s is not a pointer or a GLintptr' % (name, ln.words[2]))
                if pm.offset not in ('NONE', target):
                    raise ln.error('%s %s is already an offset under GL_%s' % (
                        name, ln.words[2], pm.offset))
                pm.offset = target
        for f in funcs.values():
            for pm in f.params:
                if pm.offset == 'PIXEL_UNPACK_BUFFER':
                    f.flags.add('PIXEL_UNPACK')
                elif pm.offset == 'PIXEL_PACK_BUFFER':
                    f.flags.add('PIXEL_PACK')

    def apply_flags(self, funcs):
        for ln in self.flag_lines:
            flags = ln.words[1].split('|')
            for glob in ln.words[2:]:
                for name in self.match_funcs(ln, glob):
                    funcs[name].flags.update(flags)
        for ln in self.unflag_lines:
            flags = ln.words[1].split('|')
            for glob in ln.words[2:]:
                for name in self.match_funcs(ln, glob):
                    funcs[name].flags.difference_update(flags)

    def apply_general_if(self, funcs):
        """general-if FUNCGLOB PARAM VALUE: a fast-path command whose calls
        with scalar PARAM == VALUE take the general path (the capture sees
        them; the others stay on the fast path)."""
        for ln in self.general_if_lines:
            try:
                v = int(ln.words[3], 0)
            except ValueError:
                raise ln.error('VALUE must be an integer')
            for name in self.match_funcs(ln, ln.words[1]):
                f = funcs[name]
                i = f.cmd.param(ln.words[2])
                if i < 0:
                    raise ln.error('%s has no parameter "%s"' % (name, ln.words[2]))
                if f.params[i].cap != 'VALUE' or f.params[i].base not in ('Int', 'UnsignedInt'):
                    raise ln.error('%s %s is not an integer passed by value' % (name, ln.words[2]))
                f.general_if = (ln.words[2], v)

    def apply_context(self, funcs):
        """context FUNCGLOB PARAM: the context a MAKE_CURRENT command makes
        current."""
        for ln in self.context_lines:
            for name in self.match_funcs(ln, ln.words[1]):
                f = funcs[name]
                i = f.cmd.param(ln.words[2])
                if i < 0:
                    raise ln.error('%s has no parameter "%s"' % (name, ln.words[2]))
                if 'MAKE_CURRENT' not in f.flags:
                    raise ln.error('%s is not flagged MAKE_CURRENT' % name)
                if f.params[i].base != 'Ptr':
                    raise ln.error('%s %s is not a handle (base %s)' % (
                        name, ln.words[2], f.params[i].base))
                f.context_param = i
        for name in sorted(funcs):
            f = funcs[name]
            if 'MAKE_CURRENT' in f.flags and f.context_param == NO_PARAM:
                raise AnnotationError('%s is flagged MAKE_CURRENT but no `context` line names '
                                      'its context parameter' % name)

    def apply_attribs(self, funcs):
        """Attribute lists: `terminated` ones are PAIRS; `attribs FUNCGLOB
        PARAM STYLE` names the others."""
        for f in funcs.values():
            for pm in f.params:
                if pm.len_op == 'TERMINATED':
                    pm.attribs = 'PAIRS'
        for ln in self.attribs_lines:
            for name in self.match_funcs(ln, ln.words[1]):
                f = funcs[name]
                i = f.cmd.param(ln.words[2])
                if i < 0:
                    raise ln.error('%s has no parameter "%s"' % (name, ln.words[2]))
                pm = f.params[i]
                if not pm.is_array or pm.base not in ('Int', 'UnsignedInt'):
                    raise ln.error('%s %s is not recorded as an array of integers' % (
                        name, ln.words[2]))
                pm.attribs = ln.words[3].upper()

    def build_pseudo(self, funcs):
        """pseudo NAME FLAG PARAM:BASE[[]][@GROUP]...  (FLAG '-': none)"""
        seen = set()
        for ln in self.pseudo_lines:
            w = ln.words
            name, flag = w[1], w[2]
            if not name.startswith('wip15'):
                raise ln.error('a pseudo-call name starts with "wip15"')
            if name in funcs or name in seen:
                raise ln.error('%s is already a function' % name)
            if flag != '-' and flag not in PSEUDO_FLAGS:
                raise ln.error('unknown pseudo-call flag %s (-, %s)' % (flag, ', '.join(PSEUDO_FLAGS)))
            params = []
            for spec in w[3:]:
                m = re.fullmatch(r'(\w+):(\w+)(\[\])?(?:@(\w+))?', spec)
                if not m or m.group(2) not in BASES or m.group(2) == 'Void':
                    raise ln.error('parameter "%s" is not NAME:BASE[[]][@GROUP] (BASE: %s)' % (
                        spec, ' '.join(BASES[1:])))
                group = m.group(4)
                if group is not None:
                    if group in self.namespaces:
                        group = self.use_group(group, self.namespaces[group])
                    elif group in self.group_members or group in (
                            g for g, _ in self.enum_defaults.values()):
                        group = self.use_group(group, 'BITMASK' if group in self.bitmask_groups
                                               else 'ENUM')
                    else:
                        raise ln.error('unknown group %s (a namespace or an enum group)' % group)
                params.append((m.group(1), m.group(2), 1 if m.group(3) else 0, group))
            seen.add(name)
            self.m.pseudo.append(PseudoFunc(name, None if flag == '-' else flag, params))

    def check_unused(self):
        for ln in self.object_rules:
            if not getattr(ln, 'used', False):
                raise ln.error('matches no parameter of the registries')
        for ln in self.terminated + self.enum_param_rules:
            if not getattr(ln, 'used', False):
                raise ln.error('matches no parameter of the registries')

    def build_groups(self, enum_api):
        def rank(e):
            # preferred name first: defined by a core version, no vendor
            # suffix, not an alias, shorter, then alphabetical
            suffixed = e.name.rsplit('_', 1)[-1] in VENDOR_SUFFIXES
            return (e.name not in self.core_enums, suffixed, e.alias is not None,
                    len(e.name), e.name)

        def bits(e, reg):
            apis = enum_api.get(e.name) or {_DEFAULT_API[reg.kind]}
            if e.api:
                apis = {_API_OF_NAME[a] for a in e.api.split('|') if a in _API_OF_NAME} or apis
            return sum(API_BITS[a] for a in apis)

        allv = []
        for reg in self.regs:
            for e in reg.enums:
                if e.cast and e.cast not in ('EGLint', 'EGLenum'):
                    continue
                allv.append((_uniq_value(e.value), rank(e), e.name, bits(e, reg), e))
        allv.sort(key=lambda t: (t[0], t[1]))
        seen = set()
        for v, r, n, b, e in allv:
            if (v, n, b) in seen:
                continue
            seen.add((v, n, b))
            self.m.all_enums.append((v, n, b))
        gl = [r for r in self.regs if r.kind == 'gl']
        for g in self.m.groups.values():
            if g.type not in ('ENUM', 'BITMASK'):
                continue
            members = []
            for e in self.group_members.get(g.name, []):
                reg = gl[0]
                members.append((_uniq_value(e.value), rank(e), e.name, bits(e, reg)))
            members.sort(key=lambda t: (t[0], t[1]))
            dedup = []
            for v, r, n, b in members:
                if dedup and dedup[-1][1] == n:
                    continue
                dedup.append((v, n, b))
            g.enums = dedup

    def build_pnames(self):
        counts = {}
        errors = []
        for ln in self.pname_lines:
            try:
                n = int(ln.words[1])
            except ValueError:
                raise ln.error('count must be a number')
            for name in ln.words[2:]:
                e = self.enum_by_name.get(name)
                if e is None:
                    errors.append(str(ln.error('no enum "%s" in the registries' % name)))
                    continue
                v = _uniq_value(e.value)
                if v in counts and counts[v][0] != n:
                    raise ln.error('%s: count %d conflicts with %s = %d' % (
                        name, n, counts[v][1], counts[v][0]))
                counts.setdefault(v, (n, name))
        # pnames whose one value is itself an enumerant (GL_TEXTURE_MIN_FILTER
        # takes GL_NEAREST ...): readers print that value by name
        enum_valued = set()
        for ln in self.enum_valued_lines:
            for name in ln.words[1:]:
                e = self.enum_by_name.get(name)
                if e is None:
                    errors.append(str(ln.error('no enum "%s" in the registries' % name)))
                    continue
                v = _uniq_value(e.value)
                if counts.get(v, (0,))[0] != 1:
                    errors.append(str(ln.error('enum-valued %s needs a "pname 1" line' % name)))
                    continue
                enum_valued.add(v)
        if errors:
            raise AnnotationError('\n'.join(errors))
        self.m.pnames = sorted((v, n, name, PNAME_ENUM_VALUED if v in enum_valued else 0)
                               for v, (n, name) in counts.items())


def build(registries, annotation_paths):
    """Build the model.  Raises AnnotationError naming the offending
    annotation (file:line) or registry item."""
    b = Builder(registries, read_annotations(annotation_paths))
    m = b.build()
    m.inputs = [r.path for r in registries] + list(annotation_paths)
    return m
