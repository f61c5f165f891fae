#!/usr/bin/env python3
"""End-to-end tests of the wip15 tracer on real GL programs (Mesa llvmpipe).

One invocation runs one test.  Usage:

  run_app.py [options] KIND NAME -- PROGRAM [ARGS...]

KIND is what is checked:

  native    run PROGRAM without the tracer: exit status as expected and a
            "NAME: ok" line on stdout.  Needs no wip15 at all.
  golden    native run, then `wip15 trace` run: same exit status, same stdout,
            `wip15 verify` exit status as expected, --calls counts, frames
            (`wip15 info`) == swap calls, and the normalised
            `wip15 dump --no-pseudo` equal to tests/apps/expected/NAME.dump.
  exit      golden for a program with a non-zero --exit status.
  threads   like golden without the golden file; instead checks with
            `wip15 dump --json` that every thread's glClearColor calls all
            arrived in program order (threads4.c).
  fork      like golden (the parent's trace), plus: the parent trace has no
            child-only call (glLineWidth); every other trace file the
            tracer wrote (a child's) verifies and has the child's calls.
  crash     the program dies of a signal: the traced run dies of the same
            one, the trace verifies or is reported truncated (never
            corrupt), and it holds the --swaps frames drawn before.
  frames    native and traced runs exit alike, the trace verifies, and
            frames (`wip15 info`) == swap calls == --swaps (demo_cube).
  gears     a program that never ends (glxgears): traced for --seconds,
            stopped with SIGINT, then the trace must verify or be truncated,
            and frames (`wip15 info`) == swap calls in the dump.
  glmark2   glmark2 --validate: traced run exits like the native one, every
            scene still prints "Validation: Success", the trace verifies
            and frames == swap calls.
  apitrace  the same program under `apitrace trace` and `wip15 trace`: the
            sequences of GL/GLX/EGL calls must be equal, function names,
            arguments and results (`wip15 dump --full --mark-unrecorded`
            against `apitrace dump`).  Normalised (compare_apitrace()):
            apitrace's own '// fake' calls and the calls it does not record
            (APITRACE_UNRECORDED) go; enumerants, booleans and bitmasks
            compare by value (GL_RGBA8 == 32856, True == true == 1, from
            glapi/*.xml); floats to 1e-6; apitrace's &x (one value behind a
            pointer) equals wip15's {x}; a blob compares by size; addresses
            above 4 GiB differ from run to run and X drawables from client
            to client, so they are not compared; an address on apitrace's
            side matches the memory wip15 recorded there (glReadPixels'
            pixels); an <unrecorded> of UNRECORDED_OK matches anything.

Options:
  --wip15 PATH         the wip15 command (default: build/src/tools/wip15)
  --expected-dir DIR   golden files (default: this script's dir/expected)
  --update             write the golden file from the current output instead
                       of comparing (golden, fork and exit kinds)
  --exit N             expected exit status of PROGRAM (default 0); a signal
                       is given as -SIG (e.g. -11)
  --verify N           expected `wip15 verify` status (default 0)
  --swaps N            crash, frames: swaps that must be in the trace
  --calls F=N,...      golden, exit, fork, crash: function F must be called
                       exactly N times in the trace (guards the golden files)
  --seconds S          gears: how long to let it run (default 3)
  --ok REGEX           native: what stdout must match (default "^\w+: ok")
  --needs-display      fail (not skip) when DISPLAY is unset
  --keep DIR           keep the traces in DIR (default: a temporary dir)
  --timing LEVEL       `wip15 trace --timing LEVEL` (default: the tool's)
  --gpu on|off         `wip15 trace --gpu`

Every kind that traces a program that exits normally or is stopped by
SIGINT (golden, exit, frames, gears, glmark2) also loads the .wtf-trace with
the real WTF loader (check_wtf): one "script" zone per thread of the trace,
frames == swap calls, and at --timing all one call scope per recorded call.

Normalisation of dumps (what is replaced before comparing with the golden
file), kept minimal so the golden files still say what the trace holds:
  - the leading call index (it counts the pseudo-calls --no-pseudo hides,
    whose number depends on how the tracer splits buffers);
  - the dump is made with --mark-unrecorded, which prints every address
    that is not an object handle (memory the trace does not hold: a
    pointer of unknown extent, client memory, a struct a library returns)
    as &0x...: one above 4 GiB fails the test unless UNRECORDED_OK lists
    its function and parameter with the reason (then it becomes
    <unrecorded>); below 4 GiB it is a buffer offset and stays 0x...;
  - hexadecimal values above 32 bits that remain -> <ptr>: object handles
    (Display *, GLXContext, EGL handles, syncs), which in a PIE process on
    x86-64 all lie above 4 GiB; so <ptr> never hides an argument whose
    memory was lost; 32-bit hex values (buffer offsets, enums and bits the
    tool cannot name) stay;
  - X drawables (window ids depend on the X client slot) in the glX
    functions' drawable parameters -> <xid>;
  - the result of calls whose result depends on the machine or on timing:
    glGetString/glGetStringi/glXQuery*String/glXGetClientString/
    eglQueryString (driver and CPU names) and glClientWaitSync (whether the
    fence had signalled) -> <varies>;
  - how a blob was stored ("<data 4096 bytes, zlib 124, 00 ..." loses
    ", zlib 124"): the compressor's choice, not what the program passed.
Exit status: 0 pass, 1 fail, 2 usage.
"""

import argparse
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SWAP_FUNCS = {
    "glXSwapBuffers", "glXSwapBuffersMscOML", "eglSwapBuffers",
    "eglSwapBuffersWithDamageKHR", "eglSwapBuffersWithDamageEXT",
}
VARYING_RESULT = {
    "glGetString", "glGetStringi", "glXQueryExtensionsString", "glXQueryServerString",
    "glXGetClientString", "eglQueryString", "glClientWaitSync",
}
# Parameter positions holding X drawables.
XID_ARGS = {
    "glXMakeCurrent": {1}, "glXMakeContextCurrent": {1, 2}, "glXSwapBuffers": {1},
    "glXCreateWindow": {2}, "glXDestroyWindow": {1}, "glXQueryDrawable": {1},
}
TIMEOUT = 120
# Addresses whose memory the trace does not hold that a golden file may
# show (as <unrecorded>), each with the reason: (function, parameter index
# or "result") -> (reason, None or (index, text) another argument must be).
# Anything else printed as &0x... above 4 GiB is a capture that lost a
# string or an array: capture it (glapi/annotations.txt) instead.
UNRECORDED_OK = {
    ("glVertexAttribPointer", 5):
        ("a client-side vertex array: its data is read at draw time, docs/FORMAT.md "
         "'Known gaps'", None),
    ("glMapBufferRange", "result"):
        ("the mapping itself: writes through it are a known gap (docs/FORMAT.md)", None),
    ("glXGetVisualFromFBConfig", "result"):
        ("an XVisualInfo that Xlib allocates and the program XFree()s: Xlib's output, "
         "its Visual pointer differs from run to run", None),
    ("glGetIntegerv", 1):
        ("GL_COMPRESSED_TEXTURE_FORMATS: its count is another query's answer "
         "(GL_NUM_COMPRESSED_TEXTURE_FORMATS, glapi/pnames.txt); capturing it needs a "
         "tracer helper (asked of src/tracer in /work/coord/NOTES.md)",
         (0, "GL_COMPRESSED_TEXTURE_FORMATS")),
}


class Fail(Exception):
    pass


def log(msg):
    print(msg, flush=True)


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd, env=None, timeout=TIMEOUT, check_timeout=True):
    """Runs cmd; returns (status, stdout, stderr), status < 0 for a signal."""
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace",
                           timeout=timeout, preexec_fn=no_core)
    except subprocess.TimeoutExpired:
        raise Fail("timed out after %ds: %s" % (timeout, " ".join(cmd)))
    except OSError as e:
        raise Fail("cannot run %s: %s" % (cmd[0], e))
    return p.returncode, p.stdout, p.stderr


def same_status(native, traced):
    """A death by signal S may come back from `wip15 trace` as -S or 128+S."""
    if native == traced:
        return True
    return native < 0 and traced == 128 - native


def show(title, text):
    text = text.rstrip("\n")
    if text:
        log("--- %s ---\n%s" % (title, text if len(text) < 6000 else text[:6000] + "\n[...]"))


# ---------------------------------------------------------------- dump parsing

def _scan(line, i, stop_at_comma):
    """From line[i], the end of one value (stop_at_comma: of one argument,
    at a top-level ',' or the call's ')'); quotes, () [] {} <> nest."""
    depth, quote = 0, False
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (ch == "," if stop_at_comma else line.startswith(" [", i)):
            return i
        i += 1
    return i


def split_call(line):
    """'12 glFoo(a, {b, c}, "d,e") = r [x=y]' -> (name, [args], result-or-None, rest).
    Returns None for lines that are not calls."""
    m = re.match(r"\s*(\d+\s+)?([A-Za-z_]\w*)\(", line)
    if not m:
        return None
    name = m.group(2)
    i = m.end()
    args = []
    while i < len(line) and line[i] != ")":
        j = _scan(line, i, True)
        args.append(line[i:j].strip())
        i = j + 1 if j < len(line) and line[j] == "," else j
    if line[m.end():i].strip() == "":
        args = []
    rest = line[i + 1:]
    result = None
    if rest.startswith(" = "):
        j = _scan(rest, 3, False)
        result = rest[3:j]
        rest = rest[j:]
    return name, args, result, rest


PTR_RE = re.compile(r"\b0x0*[1-9a-fA-F][0-9a-fA-F]{8,}\b")
UNRECORDED_RE = re.compile(r"&0x([0-9a-fA-F]+)\b")


def check_unrecorded(name, pos, args, text):
    """Replaces each &0x... of `text` (argument `pos` of a call to `name`,
    or its "result"): an offset (below 4 GiB) by 0x..., an address that
    UNRECORDED_OK allows by <unrecorded>; any other address fails."""
    def sub(m):
        if int(m.group(1), 16) < 1 << 32:
            return "0x" + m.group(1)
        ok = UNRECORDED_OK.get((name, pos))
        if ok and (ok[1] is None or (ok[1][0] < len(args) and args[ok[1][0]] == ok[1][1])):
            return "<unrecorded>"
        raise Fail("%s %s is the address %s, whose memory the trace does not hold "
                   "(a lost string or array?): capture it, or list it in "
                   "run_app.py UNRECORDED_OK with the reason" %
                   (name, "result" if pos == "result" else "argument %d" % pos, m.group(0)[1:]))
    return UNRECORDED_RE.sub(sub, text)


BLOB_RE = re.compile(r"(<data \d+ bytes), (?:zlib|lz4|LZ4|none) \d+")


def normalize_line(line):
    parts = split_call(line)
    if parts is None:
        if UNRECORDED_RE.search(line):
            raise Fail("an unrecorded address outside a call: %r" % line)
        return PTR_RE.sub("<ptr>", line)
    name, args, result, rest = parts
    raw = list(args)
    args = [check_unrecorded(name, i, raw, a) for i, a in enumerate(args)]
    if result is not None:
        result = check_unrecorded(name, "result", raw, result)
    for i in XID_ARGS.get(name, ()):
        if i < len(args) and args[i] not in ("0", "None", "NULL"):
            args[i] = "<xid>"
    if name in VARYING_RESULT and result is not None:
        result = "<varies>"
    out = "%s(%s)" % (name, ", ".join(args))
    if result is not None:
        out += " = " + result
    out += rest
    return BLOB_RE.sub(r"\1", PTR_RE.sub("<ptr>", out.rstrip()))


def normalize_dump(text):
    return "\n".join(normalize_line(l) for l in text.splitlines() if l.strip()) + "\n"


def call_names(dump_text):
    names = []
    for line in dump_text.splitlines():
        p = split_call(line)
        if p:
            names.append(p[0])
    return names


# ---------------------------------------------------------------- the tool

class Wip15:
    def __init__(self, path, tmp, trace_opts=()):
        self.path = path
        self.tmp = tmp
        self.trace_opts = list(trace_opts)

    def trace(self, trace_file, cmd, env, timeout=TIMEOUT):
        return run([self.path, "trace"] + self.trace_opts + ["-o", trace_file, "--"] + cmd, env=env,
                   timeout=timeout)

    def tool(self, *args):
        return run([self.path] + list(args))

    def verify(self, trace_file, expected):
        """Checks `wip15 verify`; expected is a set of acceptable statuses.
        A status 1 is only accepted for a truncated (never a corrupt) file."""
        st, out, err = self.tool("verify", trace_file)
        show("wip15 verify", out + err)
        if st not in expected:
            raise Fail("wip15 verify %s: status %d, expected %s" %
                       (os.path.basename(trace_file), st, sorted(expected)))
        if st == 1 and "truncat" not in (out + err).lower():
            raise Fail("wip15 verify: status 1 but the trace is not just truncated")
        return st

    def dump(self, trace_file, *opts):
        st, out, err = self.tool("dump", *opts, trace_file)
        if st != 0:
            show("wip15 dump stderr", err)
            raise Fail("wip15 dump %s failed with status %d" % (" ".join(opts), st))
        return out

    def json_calls(self, trace_file):
        calls = []
        for n, line in enumerate(self.dump(trace_file, "--no-pseudo", "--json").splitlines()):
            if line.strip():
                try:
                    calls.append(json.loads(line))
                except ValueError as e:
                    raise Fail("wip15 dump --json line %d is not JSON: %s" % (n + 1, e))
        return calls

    def frames(self, trace_file):
        st, out, err = self.tool("info", trace_file)
        show("wip15 info", out + err)
        m = re.search(r"^frames:\s*(\d+)", out, re.M)
        if not m:
            raise Fail("wip15 info printed no 'frames:' line")
        return int(m.group(1))


def find_wip15(path):
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise Fail("wip15 command not found at %s (build target 'wip15')" % path)
    return path


def check_swaps_equal_frames(w, trace_file, dump_text=None):
    if dump_text is None:
        dump_text = w.dump(trace_file, "--no-pseudo")
    swaps = sum(1 for n in call_names(dump_text) if n in SWAP_FUNCS)
    frames = w.frames(trace_file)
    log("frames %d, swap calls %d" % (frames, swaps))
    if frames != swaps:
        raise Fail("wip15 info counts %d frames but the dump has %d swaps" % (frames, swaps))
    if swaps == 0:
        raise Fail("no swaps recorded")
    return swaps


def check_wtf(opts, w, trace_file, swaps=None, slack=0):
    """The .wtf-trace beside trace_file, loaded by the REAL WTF loader
    (tests/wtf/load_wtf.js; WIP15_WTF_LOADER and W15_LOAD_WTF_JS come from
    CTest): it loads; one zone of type "script" per thread of the WIP15
    trace, named "<tid>:<name>"; with `swaps`, as many frames in those zones
    together as swap calls (up to `slack` fewer); at --timing all, one call scope per recorded
    call of each thread, call numbers 0..n-1; with --gpu on, any GPU zone is
    "<thread zone> GPU" with frame-numbered scopes."""
    wtf = trace_file[:-len(".wip15")] + ".wtf-trace"
    if not os.path.exists(wtf):
        raise Fail("no timing file %s" % os.path.basename(wtf))
    loader, js = os.environ.get("WIP15_WTF_LOADER", ""), os.environ.get("W15_LOAD_WTF_JS", "")
    if not (loader and os.path.exists(loader) and js and os.path.exists(js) and shutil.which("node")):
        raise Fail("the real WTF loader is missing (WIP15_WTF_LOADER=%r, W15_LOAD_WTF_JS=%r, node)" % (loader, js))
    st, out, err = run(["node", js, "--calls", wtf])
    try:
        d = json.loads(out)
    except ValueError:
        raise Fail("load_wtf.js printed no JSON (status %d): %s" % (st, err[-500:]))
    if st != 0 or not d.get("ok"):
        raise Fail("the WTF loader rejected %s: %s" % (os.path.basename(wtf), d.get("error")))
    sst, sout, serr = w.tool("stats", "--json", trace_file)
    if sst != 0:
        raise Fail("wip15 stats --json failed: %s" % serr)
    threads = json.loads(sout)["threads"]
    zones = {z["name"]: z for z in d["zones"] if z["type"] == "script"}
    want = {"%d:%s" % (t["tid"], t["name"]): t for t in threads}
    if sorted(zones) != sorted(want):
        raise Fail("WTF zones %s, threads in the trace %s" % (sorted(zones), sorted(want)))
    frames = sum(z["frames"] for z in zones.values())
    log("wtf: %d zones, %d frames, %s" % (len(zones), frames,
        ", ".join("%s %d scopes" % (n, z["scopeCount"]) for n, z in sorted(zones.items()))))
    if swaps is not None and not swaps - slack <= frames <= swaps:
        raise Fail("%d frames in the .wtf-trace, %d swap calls in the trace" % (frames, swaps))
    if opts.timing == "all":
        for name, t in want.items():
            seqs = sorted(c[1] for c in zones[name]["calls"] if c[1] is not None)
            if seqs != list(range(t["calls"])):
                raise Fail("%s: %d call scopes (numbers %s...), %d calls in the trace" %
                           (name, len(seqs), seqs[:5], t["calls"]))
    for z in d["zones"]:
        if z["type"] == "native_gpu":
            if z["name"][:-len(" GPU")] not in zones or not z["name"].endswith(" GPU"):
                raise Fail("GPU zone %r belongs to no thread zone" % z["name"])
            nums = [c[1] for c in z["calls"]]
            if nums != sorted(set(nums)) or any(c[0] != "wip15.gpuFrame" for c in z["calls"]):
                raise Fail("GPU zone %r: scopes %s" % (z["name"], z["calls"][:5]))
            log("wtf: %s: %d GPU frames" % (z["name"], len(nums)))
    return d


def golden_compare(opts, name, text):
    path = os.path.join(opts.expected_dir, name + ".dump")
    if opts.update:
        os.makedirs(opts.expected_dir, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        log("updated %s (%d lines)" % (path, text.count("\n")))
        return
    if not os.path.exists(path):
        raise Fail("no golden file %s: run this test with --update (see tests/apps/README.md)" % path)
    with open(path) as f:
        want = f.read()
    if want == text:
        log("dump matches %s (%d lines)" % (os.path.relpath(path), text.count("\n")))
        return
    import difflib
    diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                        "expected/" + name + ".dump", "current", n=2))
    show("dump differs from golden", diff)
    raise Fail("normalised dump differs from %s" % path)


# ---------------------------------------------------------------- the kinds

def native_run(opts, cmd, env):
    st, out, err = run(cmd, env=env)
    show("native stdout", out)
    show("native stderr", err)
    if not same_status(opts.exit, st):
        raise Fail("native run exited with %d, expected %d" % (st, opts.exit))
    return st, out


def traced_run(opts, w, trace_file, cmd, env, native_status, native_out, compare_stdout=True):
    t0 = time.monotonic()
    st, out, err = w.trace(trace_file, cmd, env)
    log("traced run: status %d in %.2fs" % (st, time.monotonic() - t0))
    show("traced stdout", out)
    show("traced stderr", err)
    if not same_status(native_status, st):
        raise Fail("traced run exited with %d, native with %d" % (st, native_status))
    if compare_stdout and out != native_out:
        raise Fail("the program printed something else under the tracer")
    if not os.path.exists(trace_file):
        raise Fail("no trace file %s" % trace_file)
    return out


def kind_native(opts, cmd, env):
    st, out = native_run(opts, cmd, env)
    if opts.exit == 0 and not re.search(opts.ok, out, re.M):
        raise Fail("stdout does not match %r" % opts.ok)


def check_calls(opts, names):
    """--calls NAME=N,...: how many times each function must be in the
    trace, so that a golden file regenerated from a broken tracer cannot
    hide lost calls."""
    for item in filter(None, (opts.calls or "").split(",")):
        fn, _, n = item.partition("=")
        have = names.count(fn)
        if have != int(n):
            raise Fail("%d calls to %s in the trace, the program makes %s" % (have, fn, n))
    if opts.calls:
        log("call counts as expected: %s" % opts.calls)


def kind_golden(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    trace_file = os.path.join(w.tmp, "x.wip15")
    traced_run(opts, w, trace_file, cmd, env, st, out)
    w.verify(trace_file, {opts.verify})
    raw = w.dump(trace_file, "--no-pseudo", "--mark-unrecorded")
    check_calls(opts, call_names(raw))
    if opts.verify == 0:
        check_wtf(opts, w, trace_file, check_swaps_equal_frames(w, trace_file, raw))
    text = normalize_dump(raw)
    if opts.kind in ("golden", "exit"):
        golden_compare(opts, opts.name, text)
    return trace_file, text


def kind_threads(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    trace_file = os.path.join(w.tmp, "x.wip15")
    traced_run(opts, w, trace_file, cmd, env, st, out)
    w.verify(trace_file, {0})
    per_thread = {}
    for c in w.json_calls(trace_file):
        if c.get("function") != "glClearColor":
            continue
        if c.get("thread") is None:
            raise Fail("a glClearColor call has no thread: %r" % c)
        per_thread.setdefault(c["thread"], []).append([float(a) for a in c["args"]])
    if len(per_thread) != 4:
        raise Fail("glClearColor from %d threads, expected 4" % len(per_thread))
    seen = set()
    for tid, calls in sorted(per_thread.items()):
        if len(calls) != 64:
            raise Fail("thread %s: %d glClearColor calls, expected 64" % (tid, len(calls)))
        t = calls[0][0] / 0.25
        for i, a in enumerate(calls):
            if a != [t * 0.25, i / 64.0, 0.5, 1.0]:
                raise Fail("thread %s call %d: glClearColor%r, expected %r" %
                           (tid, i, tuple(a), (t * 0.25, i / 64.0, 0.5, 1.0)))
        seen.add(t)
    if seen != {0.0, 1.0, 2.0, 3.0}:
        raise Fail("thread indices %r" % sorted(seen))
    log("4 threads x 64 glClearColor calls, each thread in order")


def kind_fork(opts, w, cmd, env):
    trace_file, text = kind_golden(opts, w, cmd, env)
    names = call_names(text)
    if "glLineWidth" in names:
        raise Fail("the parent's trace holds the child's glLineWidth")
    if names.count("glClearColor") != 2:
        raise Fail("the parent's trace has %d glClearColor calls, expected 2" %
                   names.count("glClearColor"))
    golden_compare(opts, opts.name, text)
    others = sorted(f for f in os.listdir(w.tmp)
                    if f != "x.wip15" and (f.endswith(".wip15") or ".wip15." in f))
    if not others:
        log("note: the tracer wrote no trace for the child (allowed)")
    for f in others:
        child = os.path.join(w.tmp, f)
        log("child trace: %s" % f)
        w.verify(child, {0})
        cnames = call_names(w.dump(child, "--no-pseudo"))
        if "glLineWidth" not in cnames:
            raise Fail("child trace %s lacks the child's glLineWidth" % f)


def kind_crash(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    if st >= 0:
        raise Fail("the program did not die of a signal natively (status %d)" % st)
    trace_file = os.path.join(w.tmp, "x.wip15")
    traced_run(opts, w, trace_file, cmd, env, st, out)
    w.verify(trace_file, {0, 1})
    names = call_names(w.dump(trace_file, "--no-pseudo"))
    check_calls(opts, names)
    swaps = sum(1 for n in names if n in SWAP_FUNCS)
    log("%d calls, %d swaps in the trace" % (len(names), swaps))
    if swaps != opts.swaps:
        raise Fail("%d swaps in the trace, expected %d" % (swaps, opts.swaps))


def kind_gears(opts, w, cmd, env):
    trace_file = os.path.join(w.tmp, "x.wip15")
    full = [w.path, "trace"] + w.trace_opts + ["-o", trace_file, "--"] + cmd
    p = subprocess.Popen(full, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, errors="replace", start_new_session=True, preexec_fn=no_core)
    try:
        out, err = p.communicate(timeout=opts.seconds)
        raise Fail("%s ended by itself (status %d)" % (cmd[0], p.returncode))
    except subprocess.TimeoutExpired:
        pass
    os.killpg(p.pid, signal.SIGINT)  # the group we started: wip15 and the program
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise Fail("did not stop within 20s of SIGINT")
    log("traced run: stopped with SIGINT after %.1fs, status %d" % (opts.seconds, p.returncode))
    show("traced stdout", out[-3000:])
    show("traced stderr", err[-3000:])
    if p.returncode not in (-signal.SIGINT, 128 + signal.SIGINT, 0):
        raise Fail("unexpected status %d after SIGINT" % p.returncode)
    w.verify(trace_file, {0, 1})
    # stopped by SIGINT: the crash path converts the timing records still
    # in the thread's array, so the frames are there too, except the one
    # whose swap the signal interrupted (the WIP15 trace keeps that call:
    # its inputs were complete; its frame end is recorded after the call)
    check_wtf(opts, w, trace_file, check_swaps_equal_frames(w, trace_file), slack=1)


def kind_frames(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    trace_file = os.path.join(w.tmp, "x.wip15")
    traced_run(opts, w, trace_file, cmd, env, st, out, compare_stdout=False)
    w.verify(trace_file, {0})
    swaps = check_swaps_equal_frames(w, trace_file)
    if opts.swaps and swaps != opts.swaps:
        raise Fail("%d swaps in the trace, expected %d" % (swaps, opts.swaps))
    check_wtf(opts, w, trace_file, swaps)


def kind_glmark2(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    scenes = re.findall(r"Validation: (\w+)", out)
    if not scenes or any(s != "Success" for s in scenes):
        raise Fail("natively, validation results are %r" % scenes)
    trace_file = os.path.join(w.tmp, "x.wip15")
    tout = traced_run(opts, w, trace_file, cmd, env, st, out, compare_stdout=False)
    tscenes = re.findall(r"Validation: (\w+)", tout)
    if tscenes != scenes:
        raise Fail("validation under the tracer: %r, natively %r" % (tscenes, scenes))
    w.verify(trace_file, {0})
    check_wtf(opts, w, trace_file, check_swaps_equal_frames(w, trace_file))


# Calls apitrace (11.1, Debian 12) does not record at all, seen by tracing
# gl21_immediate_glx and gl33_core_glx with it: they are dropped from
# wip15's side of the comparison.
APITRACE_UNRECORDED = {
    "glGetError", "glGetString", "glXGetProcAddress", "glXGetProcAddressARB",
    "eglGetProcAddress",
}


def apitrace_calls(dump_text):
    """Calls of `apitrace dump --call-nos=no` as (name, [arg text], result
    text or None), one per call even when a string argument spans lines
    (shader sources).  Normalisation: calls apitrace marks '// fake' are its
    own (it injects glViewport and glScissor after the first MakeCurrent,
    and glBindAttribLocation for layout(location) attributes, for its
    retracer), so they are dropped; "name = " before each argument goes."""
    calls = []
    buf, in_string = [], False
    for line in dump_text.splitlines():
        buf.append(line)
        i = 0
        while i < len(line):  # does a string literal stay open past this line?
            if line[i] == "\\" and in_string:
                i += 1
            elif line[i] == '"':
                in_string = not in_string
            i += 1
        if in_string:
            continue
        text = "\n".join(buf)
        buf = []
        parts = split_call(text)
        if not parts or text.rstrip().endswith("// fake"):
            continue
        name, args, result, _ = parts
        args = [re.sub(r"^[A-Za-z_]\w* = ", "", a, count=1) for a in args]
        if result is not None:
            result = re.sub(r"\s*//[^\n]*$", "", result).strip()
        calls.append((name, args, result))
    return calls


def apitrace_names(dump_text):
    return [c[0] for c in apitrace_calls(dump_text)]


_ENUMS = {}


def enum_values():
    """Every GL/GLX/EGL enumerant's value by name, from the registries in
    glapi/ (so that GL_RGB8 and 32856, True and 1 compare equal)."""
    if not _ENUMS:
        import xml.etree.ElementTree as ET
        for reg in ("gl", "glx", "egl"):
            path = os.path.join(HERE, "..", "..", "glapi", reg + ".xml")
            for e in ET.parse(path).getroot().iter("enum"):
                v = e.get("value")
                if v is None:
                    continue
                try:
                    _ENUMS.setdefault(e.get("name"), int(v, 0) & 0xFFFFFFFFFFFFFFFF)
                except ValueError:
                    pass
        _ENUMS.update({"True": 1, "False": 0, "true": 1, "false": 0, "NULL": 0})
    return _ENUMS


class Val:
    """Canonical values both dumps are parsed into."""
    ANY = ("any",)        # wip15 does not hold it (UNRECORDED_OK), or an X drawable
    PTR = ("ptr",)        # an address above 4 GiB: differs from run to run
    FUNCPTR = ("funcptr",)


def parse_value(text):
    """One argument of either dump as a canonical value: int, float,
    ("str", bytes), ("blob", size), ("id", name), a list, or Val.*.
    apitrace's &x (a pointer to one value) is the list [x], as wip15 prints
    it; its &{a = 1, ...} (a struct) the list of the member values."""
    s, i = text, 0

    def ws():
        nonlocal i
        while i < len(s) and s[i] in " \t\n":
            i += 1

    def string():
        nonlocal i
        i += 1
        out = bytearray()
        while i < len(s) and s[i] != '"':
            c = s[i]
            if c == "\\" and i + 1 < len(s):
                e = s[i + 1]
                i += 2
                if e in "ntrab\\\"'?fv":
                    out += {"n": b"\n", "t": b"\t", "r": b"\r", "a": b"\a", "b": b"\b", "f": b"\f",
                            "v": b"\v"}.get(e, e.encode())
                elif e == "x":
                    m = re.match(r"[0-9a-fA-F]{1,2}", s[i:])
                    out.append(int(m.group(0), 16))
                    i += len(m.group(0))
                elif e in "01234567":
                    m = re.match(r"[0-7]{1,2}", s[i:])
                    digits = e + (m.group(0) if m else "")
                    out.append(int(digits, 8) & 0xff)
                    i += len(digits) - 1
                else:
                    out += ("\\" + e).encode()
                continue
            out += c.encode()
            i += 1
        i += 1
        return ("str", bytes(out))

    def atom():
        nonlocal i
        m = re.compile(r"-?(?:0x[0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan)\b|"
                       r"[A-Za-z_]\w*").match(s, i)
        if not m:
            raise ValueError("cannot parse %r at %d" % (s, i))
        i = m.end()
        t = m.group(0)
        if re.match(r"-?0x", t):
            v = int(t, 16)
            return Val.PTR if v >= 1 << 32 else v
        if re.match(r"-?(?:\d|\.\d|inf|nan)", t):
            f = float(t)
            return int(t) if re.fullmatch(r"-?\d+", t) else f
        if t == "blob":  # apitrace: blob(N)
            m = re.compile(r"\((\d+)\)").match(s, i)
            i = m.end()
            return ("blob", int(m.group(1)))
        e = enum_values().get(t)
        return e if e is not None else ("id", t)

    def value():
        nonlocal i
        ws()
        m = re.compile(r"GL_\w+\+0x([0-9a-fA-F]+)").match(s, i)
        if m:  # an offset into a bound buffer (wip15.offset): apitrace prints the number
            i = m.end()
            return int(m.group(1), 16)
        if s.startswith("<", i):
            j = s.index(">", i)
            inner = s[i + 1:j]
            i = j + 1
            m = re.match(r"(?:data|read back) (\d+) bytes", inner)
            if m:  # recorded bytes, or bytes read back (kept as a digest)
                return ("blob", int(m.group(1)))
            if inner.startswith("unreadable 0x"):
                return Val.PTR
            return {"funcptr": Val.FUNCPTR, "unrecorded": Val.ANY}.get(inner, ("id", inner))
        if s.startswith('"', i):
            return string()
        if s.startswith("&", i):
            i += 1
            v = value()
            return v if isinstance(v, list) else [v]
        if s.startswith("{", i):
            i += 1
            items = []
            ws()
            while i < len(s) and s[i] != "}":
                m = re.compile(r"[A-Za-z_]\w* = ").match(s, i)  # a struct member
                if m:
                    i = m.end()
                items.append(value())
                ws()
                if i < len(s) and s[i] == ",":
                    i += 1
                    ws()
            i += 1
            return items
        v = atom()
        ws()
        while s.startswith("|", i):  # GL_A | GL_B | 0x100
            i += 1
            ws()
            w2 = atom()
            if not (isinstance(v, int) and isinstance(w2, int)):
                return ("id", text.strip())
            v |= w2
            ws()
        return v

    v = value()
    ws()
    if i != len(s):
        raise ValueError("trailing text in %r" % s)
    return v


def same_value(theirs, ours):
    """Do apitrace's and wip15's canonical values say the same thing?"""
    if ours == Val.ANY or theirs == Val.ANY:
        return True
    if theirs == Val.PTR:
        # an address on apitrace's side: wip15 holds a handle there, or the
        # memory itself (glReadPixels' pixels, ...), which apitrace does not
        return (ours in (Val.PTR, Val.FUNCPTR) or isinstance(ours, list) or
                (isinstance(ours, tuple) and ours[0] in ("blob", "str")))
    if isinstance(theirs, list) or isinstance(ours, list):
        return (isinstance(theirs, list) and isinstance(ours, list) and len(theirs) == len(ours)
                and all(same_value(a, b) for a, b in zip(theirs, ours)))
    if isinstance(theirs, (int, float)) and isinstance(ours, (int, float)) and \
            not isinstance(theirs, bool) and not isinstance(ours, bool):
        if isinstance(theirs, int) and isinstance(ours, int):
            return theirs == ours or (theirs - ours) % (1 << 32) == 0  # signedness
        a, b = float(theirs), float(ours)
        return a == b or (a != a and b != b) or abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))
    return theirs == ours


def compare_apitrace(theirs, ours):
    """theirs: apitrace_calls(); ours: (name, [arg text], result text) of
    `wip15 dump --no-pseudo --full --mark-unrecorded`, unrecorded addresses
    already resolved.  Returns a list of differences (strings)."""
    diffs = []
    for n, ((tn, targs, tres), (on, oargs, ores)) in enumerate(zip(theirs, ours)):
        if tn != on:
            diffs.append("call %d: apitrace %s, wip15 %s" % (n, tn, on))
            continue
        if len(targs) != len(oargs):
            diffs.append("call %d %s: %d arguments in apitrace, %d in wip15" %
                         (n, tn, len(targs), len(oargs)))
            continue
        pairs = [(i, a, b) for i, (a, b) in enumerate(zip(targs, oargs))
                 if i not in XID_ARGS.get(tn, ())]
        if tres is not None and ores is not None and tn not in VARYING_RESULT:
            pairs.append(("result", tres, ores))
        for i, a, b in pairs:
            try:
                va, vb = parse_value(a), parse_value(b)
            except (ValueError, AttributeError) as e:
                diffs.append("call %d %s %s: cannot compare %r with %r (%s)" % (n, tn, i, a, b, e))
                continue
            if not same_value(va, vb):
                diffs.append("call %d %s argument %s: apitrace %s, wip15 %s" %
                             (n, tn, i, a[:120], b[:120]))
    return diffs


def kind_apitrace(opts, w, cmd, env):
    st, out = native_run(opts, cmd, env)
    api_file = os.path.join(w.tmp, "x.trace")
    ast, aout, aerr = run(["apitrace", "trace", "-o", api_file, "--"] + cmd, env=env)
    show("apitrace trace stderr", aerr)
    if not same_status(st, ast):
        raise Fail("under apitrace the program exited with %d" % ast)
    dst, dout, derr = run(["apitrace", "dump", "--color=never", "--call-nos=no", api_file])
    if dst != 0:
        raise Fail("apitrace dump failed: %s" % derr)
    theirs = apitrace_calls(dout)
    trace_file = os.path.join(w.tmp, "x.wip15")
    traced_run(opts, w, trace_file, cmd, env, st, out)
    w.verify(trace_file, {0})
    ours = []
    for line in w.dump(trace_file, "--no-pseudo", "--full", "--mark-unrecorded").splitlines():
        p = split_call(line)
        if not p or p[0] in APITRACE_UNRECORDED:
            continue
        name, args, result, _ = p
        raw = list(args)
        args = [check_unrecorded(name, i, raw, a) for i, a in enumerate(args)]
        if result is not None:
            result = check_unrecorded(name, "result", raw, result)
        ours.append((name, args, result))
    tnames, onames = [c[0] for c in theirs], [c[0] for c in ours]
    log("apitrace: %d calls, wip15: %d calls" % (len(theirs), len(ours)))
    if tnames != onames:
        import difflib
        show("function sequence diff (apitrace vs wip15)",
             "\n".join(difflib.unified_diff(tnames, onames, "apitrace", "wip15", n=3, lineterm="")))
        raise Fail("the call sequences differ")
    diffs = compare_apitrace(theirs, ours)
    if diffs:
        show("argument differences (apitrace vs wip15)", "\n".join(diffs[:40]))
        raise Fail("%d arguments differ from apitrace's" % len(diffs))
    log("every argument and result agrees with apitrace (%d calls)" % len(ours))


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["native", "golden", "threads", "fork", "crash", "exit",
                                     "frames", "gears", "glmark2", "apitrace"])
    ap.add_argument("name")
    ap.add_argument("--wip15", default=os.path.join(HERE, "..", "..", "build", "src", "tools",
                                                    "wip15"))
    ap.add_argument("--expected-dir", default=os.path.join(HERE, "expected"))
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--exit", type=int, default=0)
    ap.add_argument("--verify", type=int, default=0)
    ap.add_argument("--swaps", type=int, default=0)
    ap.add_argument("--calls")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--ok", default=r"^\w+: ok\b")
    ap.add_argument("--needs-display", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--timing", choices=["frames", "draws", "all"])
    ap.add_argument("--gpu", choices=["on", "off"])
    argv = sys.argv[1:]
    cmd = []
    if "--" in argv:
        cmd = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    opts = ap.parse_args(argv)
    if not cmd:
        ap.error("no PROGRAM")

    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if not env.get("DISPLAY"):
        env.setdefault("EGL_PLATFORM", "surfaceless")
    tmp = opts.keep or tempfile.mkdtemp(prefix="wip15-apps-%s-" % opts.name)
    os.makedirs(tmp, exist_ok=True)
    log("%s %s: %s" % (opts.kind, opts.name, " ".join(cmd)))
    try:
        if opts.needs_display and not env.get("DISPLAY"):
            raise Fail("DISPLAY is not set: this GLX test needs an X server (Xvfb)")
        if opts.kind == "native":
            kind_native(opts, cmd, env)
        else:
            topts = (["--timing", opts.timing] if opts.timing else []) + (["--gpu", opts.gpu] if opts.gpu else [])
            w = Wip15(find_wip15(opts.wip15), tmp, topts)
            {
                "golden": kind_golden, "exit": kind_golden, "threads": kind_threads,
                "fork": kind_fork, "crash": kind_crash, "frames": kind_frames, "gears": kind_gears,
                "glmark2": kind_glmark2, "apitrace": kind_apitrace,
            }[opts.kind](opts, w, cmd, env)
        log("PASS %s %s" % (opts.kind, opts.name))
        return 0
    except Fail as e:
        log("FAIL %s %s: %s" % (opts.kind, opts.name, e))
        return 1
    finally:
        if not opts.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
