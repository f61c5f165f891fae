"""emit_replay.py -- stage three for the replayer: gen/replay_table.c, the
per-command call thunks and the replay table (src/replay/table.h) printed
from the model (model.py + replay_model.py) through
templates/replay_table.c.in.

A thunk casts the real function's address to the command's PFN type and
calls it with the decoded arguments (rp_val_t, one per parameter); commands
with the same C signature share one thunk.  A row of rp_funcs (indexed like
w15_funcs) gives the thunk, how the command replays (call, custom, skip),
its hand-written handler and its replay roles (rp_roles).
"""

import os

from emit import header, tpl
from replay_model import ROLES, RESULT

KINDS = ['CALL', 'CUSTOM', 'SKIP']


def _arg(pm, i):
    """C expression of argument i, from rp_val_t a[i], cast to the C type."""
    decl = pm.p.decl
    if pm.p.stars or pm.slot == 'p':
        return '(%s)a[%d].vp' % (decl, i)
    return '(%s)a[%d].%s' % (decl, i, pm.slot)


def _store(f):
    """Statement prefix that stores the result in *r."""
    r = f.result
    if r.base == 'Void' and not r.p.stars:
        return ''
    if r.p.stars or r.slot == 'p':
        return 'r->vp = (void *)'
    return 'r->%s = ' % r.slot


def emit_replay_table_c(m):
    sigs = {}
    thunks = []
    rows = []
    roles = []
    handlers = m.replay_handlers
    hidx = {h: i + 1 for i, h in enumerate(handlers)}
    for f in m.funcs:
        c = f.cmd
        key = (c.result.decl, tuple(p.decl for p in c.params))
        if f.replay_kind == 'skip':
            tname = 'NULL'
        else:
            tname = sigs.get(key)
            if tname is None:
                tname = 'rpt_%d' % len(sigs)
                sigs[key] = tname
                call = '((PFN_%s)fn)(%s)' % (f.name, ', '.join(
                    _arg(pm, i) for i, pm in enumerate(f.params)))
                unused = ''.join(
                    ['    (void)a;\n' if not f.params else '',
                     '    (void)r;\n' if not _store(f) else ''])
                thunks.append(tpl('replay_thunk.c').substitute(
                    name=tname, example=f.name, unused=unused,
                    call='    %s%s;' % (_store(f), call)))
        first = len(roles)
        for ro in f.replay_roles:
            roles.append('    {%d, RP_ROLE_%s, %s, %d, %d}, /* %s */' % (
                ro.param, ro.role, ro.kind, ro.arg, ro.count, f.name))
        rows.append('    {%s, %d, %d, RP_KIND_%s, %d}, /* %s */' % (
            tname, first, len(roles) - first, KINDS[['call', 'custom', 'skip'].index(f.replay_kind)],
            hidx.get(f.replay_handler, 0), f.name))
    scopes = []
    for name in sorted(m.replay_scopes):
        scopes.append('    [W15_GROUP_%s] = %d, /* %s */' % (
            m.namespace_types[name],
            1 if m.replay_scopes[name] == 'context' else 2, name))
    decls = '\n'.join('int rp_h_%s(rp_exec_t *x, const rp_call_t *c);' % h for h in handlers)
    return tpl('replay_table.c').substitute(
        header=header(m, 'replay_table.c',
                      'Call thunks and the replay table of src/replay/table.h.'),
        thunks='\n'.join(thunks) or '/* none */',
        handler_decls=decls or '/* none */',
        handlers='\n'.join(['    NULL,'] + ['    rp_h_%s,' % h for h in handlers]),
        handler_names='\n'.join(['    "",'] + ['    "%s",' % h for h in handlers]),
        nhandlers=len(handlers) + 1,
        roles='\n'.join(roles) or '    {0}',
        nroles=len(roles),
        funcs='\n'.join(rows) or '    {0}',
        nfuncs=len(rows),
        nthunks=len(sigs),
        scopes='\n'.join(scopes) or '    [0] = 0,',
        result=RESULT,
        bindings='\n'.join('    0x%x,' % v for v in m.replay_bindings) or '    0',
        nbindings=len(m.replay_bindings))


assert ROLES[0] == 'NONE'


OUTPUTS = {'replay_table.c': emit_replay_table_c}


def write_all(m, outdir):
    """Write every replay output into outdir (as emit.write_all does)."""
    os.makedirs(outdir, exist_ok=True)
    for name, fn in sorted(OUTPUTS.items()):
        text = fn(m)
        path = os.path.join(outdir, name)
        with open(path + '.tmp', 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(path + '.tmp', path)
