"""replay_model.py -- the replay part of the model (stage two): what the
`replay-*` annotations say about each command, validated against the
registries like every other annotation (model.py calls build() once the
commands, parameters and groups are known).

Directives (glapi/annotations.txt, section "replay"):

  replay-scope NAMESPACE shared|context
        object names of NAMESPACE belong to the share group of the context
        (shared) or to each context alone (context).
  replay-creates FUNCGLOB PARAM [range=PARAM2]
        PARAM ('result' for the result) holds the names the call creates,
        in PARAM's namespace; with range=, the result is the first of
        PARAM2 consecutive names (glGenLists).
  replay-deletes FUNCGLOB PARAM [range=PARAM2]
        PARAM holds names the call deletes (scalar or array); with range=,
        PARAM is the first of PARAM2 consecutive names (glDeleteLists).
  replay-location KIND FUNCGLOB PARAM PROGRAM
        PARAM (scalar or array; 'result' for the result) is a KIND location
        or index (uniform, attrib, uniform-block, subroutine,
        subroutine-uniform) of the program named by parameter PROGRAM, or
        of the program in use when PROGRAM is `current`.  As a result it
        defines the mapping (recorded -> replayed); as a parameter it is
        mapped.
  replay-offset FUNCGLOB PARAM BINDING
        PARAM, a pointer the trace holds as a number (no contents), is an
        offset into the buffer bound at BINDING (a GL_*_BINDING enum) when
        one is bound, and client memory otherwise (until the trace records
        client memory: issue 8).
  replay-scratch FUNCGLOB PARAM COUNT
        PARAM is an output whose extent depends on GL state the trace does
        not hold (a uniform's type, a pixel map's size): the replay calls
        the function with zeroed scratch memory of COUNT elements, the most
        GL can write there, so its errors and state changes replay.
  replay-check-values FUNCGLOB PARAM
        PARAM is an output whose values the trace holds (an array_out
        sized by the capture: a uniform's components): `wip15 replay
        --check` compares them with what the replayed call wrote.
  replay-text FUNCGLOB PARAM
        PARAM is text of a length given by another parameter (recorded with
        its contents, that many bytes), which programs pass NUL-terminated
        and the driver may read up to a NUL (Mesa's glProgramStringARB):
        the replay gives GL the bytes followed by a NUL.
  replay-use-program FUNCGLOB PARAM
        the call makes PARAM the program in use (for `current`).
  replay-custom FUNCGLOB HANDLER
        replayed by hand: rp_h_HANDLER() in src/replay/wsi.c.
  replay-skip FUNCGLOB
        not replayed at all.

For replay-custom and replay-skip a later line overrides an earlier one for
the same command (so a wide `replay-skip glX*` can be followed by the
commands that are replayed by hand).  Every glob must match a command,
every parameter must exist, created/deleted parameters must be object names.
"""

import re

ROLES = ['NONE', 'CREATE', 'DELETE', 'LOCATION', 'USE_PROGRAM', 'OFFSET', 'SCRATCH']
LOCATION_KINDS = ['uniform', 'attrib', 'uniform-block', 'subroutine', 'subroutine-uniform']
RESULT = 0xff
NO_ARG = 0xff
CURRENT = 0xfe


class Role:
    def __init__(self, param, role, kind=0, arg=NO_ARG, count=0):
        self.param, self.role, self.kind, self.arg, self.count = param, role, kind, arg, count

    def __repr__(self):
        return '<%s p=%s kind=%s arg=%s>' % (self.role, self.param, self.kind, self.arg)


def _captured_role(ln, b, funcs, w, cap, what, role, count=0):
    """Role `role` for parameter w[2] of the commands w[1] matches, each a
    pointer captured as `cap` (else refused: it is not `what`)."""
    for name in b.match_funcs(ln, w[1]):
        idx, pm = _param(ln, b, name, w[2], allow_result=False)
        if not pm.p.stars or pm.cap != cap:
            raise ln.error('%s %s is not %s' % (name, w[2], what))
        funcs[name].replay_roles.append(Role(idx, role, count=count))


def _param(ln, b, fname, pname, allow_result=True):
    f = b.m_funcs[fname]
    if pname == 'result' and allow_result:
        if f.result.base == 'Void':
            raise ln.error('%s returns nothing' % fname)
        return RESULT, f.result
    for pm in f.params:
        if pm.name == pname:
            return pm.index, pm
    raise ln.error('%s has no parameter "%s"' % (fname, pname))


def _kv(ln, words, key):
    if not words:
        return None
    if len(words) == 1 and words[0].startswith(key + '='):
        return words[0][len(key) + 1:]
    raise ln.error('unexpected "%s" (expected %s=PARAM)' % (' '.join(words), key))


def build(b, funcs, lines):
    """Attach replay_kind ('call', 'custom', 'skip'), replay_handler and
    replay_roles to every FModel of `funcs` (name -> FModel); set
    b.m.replay_scopes and b.m.replay_handlers.  Raises AnnotationError
    naming file:line."""
    b.m_funcs = funcs
    m = b.m
    m.replay_scopes = {}
    m.replay_bindings = []   # GL_*_BINDING values of replay-offset lines
    m.namespace_types = dict(b.namespaces)   # namespace -> W15_GROUP_ suffix
    for f in funcs.values():
        # the tracer's hand-written wrappers (GetProcAddress) have nothing
        # to replay unless a line says otherwise
        f.replay_kind = 'skip' if 'CUSTOM' in f.flags else 'call'
        f.replay_handler, f.replay_roles = None, []
    for ln in lines:
        w = ln.words
        d = w[0]
        if d == 'replay-scope' and len(w) == 3:
            if w[1] not in b.namespaces:
                raise ln.error('namespace %s not declared by a `namespace` line' % w[1])
            if w[2] not in ('shared', 'context'):
                raise ln.error('scope must be shared or context')
            m.replay_scopes[w[1]] = w[2]
        elif d in ('replay-creates', 'replay-deletes') and len(w) in (3, 4):
            rng = _kv(ln, w[3:], 'range')
            for name in b.match_funcs(ln, w[1]):
                idx, pm = _param(ln, b, name, w[2], allow_result=(d == 'replay-creates'))
                if not pm.group or b.namespaces.get(pm.group) is None:
                    raise ln.error('%s %s is not an object name (no namespace)' % (name, w[2]))
                arg = NO_ARG
                if rng is not None:
                    arg, rp = _param(ln, b, name, rng, allow_result=False)
                    if rp.cap != 'VALUE':
                        raise ln.error('%s range %s must be a scalar' % (name, rng))
                funcs[name].replay_roles.append(
                    Role(idx, 'CREATE' if d == 'replay-creates' else 'DELETE', 0, arg))
        elif d == 'replay-location' and len(w) == 5:
            if w[1] not in LOCATION_KINDS:
                raise ln.error('unknown location kind %s (%s)' % (w[1], ', '.join(LOCATION_KINDS)))
            for name in b.match_funcs(ln, w[2]):
                idx, pm = _param(ln, b, name, w[3])
                if pm.base not in ('Int', 'UnsignedInt'):
                    raise ln.error('%s %s is not an integer' % (name, w[3]))
                if w[4] == 'current':
                    arg = CURRENT
                else:
                    arg, _ = _param(ln, b, name, w[4], allow_result=False)
                funcs[name].replay_roles.append(
                    Role(idx, 'LOCATION', LOCATION_KINDS.index(w[1]) + 1, arg))
        elif d == 'replay-offset' and len(w) == 4:
            e = b.enum_by_name.get(w[3])
            if e is None:
                raise ln.error('no enum "%s" in the registries' % w[3])
            v = e.value & 0xffffffff
            if v not in m.replay_bindings:
                m.replay_bindings.append(v)
            for name in b.match_funcs(ln, w[1]):
                idx, pm = _param(ln, b, name, w[2], allow_result=False)
                if not pm.p.stars:
                    raise ln.error('%s %s is not a pointer' % (name, w[2]))
                funcs[name].replay_roles.append(
                    Role(idx, 'OFFSET', m.replay_bindings.index(v)))
        elif d == 'replay-object' and len(w) == 4:
            # a pointer parameter that is an object of namespace w[3]
            # handed over as a plain pointer (glObjectPtrLabel's GLsync)
            if w[3] not in b.namespaces:
                raise ln.error('namespace %s not declared by a `namespace` line' % w[3])
            for name in b.match_funcs(ln, w[1]):
                idx, pm = _param(ln, b, name, w[2], allow_result=False)
                if not pm.p.stars:
                    raise ln.error('%s %s is not a pointer' % (name, w[2]))
                funcs[name].replay_roles.append(Role(idx, 'OBJECT', 'W15_GROUP_' + b.namespaces[w[3]]))
        elif d == 'replay-scratch' and len(w) == 4:
            if not re.fullmatch(r'[1-9][0-9]{0,6}', w[3]):
                raise ln.error('COUNT must be a number of elements from 1 to 9999999')
            _captured_role(ln, b, funcs, w, 'PTR', 'a pointer recorded without contents (cap ... ptr)',
                           'SCRATCH', count=int(w[3]))
        elif d == 'replay-check-values' and len(w) == 3:
            _captured_role(ln, b, funcs, w, 'ARRAY_OUT',
                           'an output whose values the trace holds (cap ... array_out)', 'CHECK')
        elif d == 'replay-text' and len(w) == 3:
            _captured_role(ln, b, funcs, w, 'DATA_IN', 'an input recorded with its bytes (cap ... data_in)',
                           'TEXT')
        elif d == 'replay-use-program' and len(w) == 3:
            for name in b.match_funcs(ln, w[1]):
                idx, pm = _param(ln, b, name, w[2], allow_result=False)
                funcs[name].replay_roles.append(Role(idx, 'USE_PROGRAM'))
        elif d == 'replay-custom' and len(w) == 3:
            if not re.fullmatch(r'[a-z][a-z0-9_]*', w[2]):
                raise ln.error('handler must be a lower-case C identifier')
            for name in b.match_funcs(ln, w[1]):
                funcs[name].replay_kind, funcs[name].replay_handler = 'custom', w[2]
        elif d == 'replay-skip' and len(w) == 2:
            for name in b.match_funcs(ln, w[1]):
                funcs[name].replay_kind, funcs[name].replay_handler = 'skip', None
        else:
            raise ln.error('unknown replay directive or wrong number of words')
    # a debug callback's userParam (cap ... ptr why=opaque): GL never
    # dereferences it, the replay passes the recorded value on.  (Not the
    # other opaque pointers: glObjectPtrLabel's is a GLsync the replay
    # would have to map, native handles are the window system's.)
    for name, f in funcs.items():
        for pm in b.m_funcs[name].params:
            if getattr(pm, 'reason', None) == 'opaque' and pm.cap == 'PTR' and pm.name == 'userParam':
                f.replay_roles.append(Role(pm.index, 'PASS'))
    m.replay_handlers = sorted({f.replay_handler for f in funcs.values() if f.replay_handler})
    del b.m_funcs


def is_replay_line(words):
    return words[0].startswith('replay-')
