#!/usr/bin/env python3
"""Runs a list of piglit tests natively and under a tracer; the results must
be identical test by test.

  run_piglit.py [options]

Each test of the list (default: quick.list beside this script) is run twice,
natively and under the tracer (by default `wip15 trace -o DIR/ID.wip15 --`),
both with the same environment, working directory and timeout.  The result
of one run is what piglit itself would record, before its own post-processing:

  - the "result" of the test's `PIGLIT: {...}` lines on stdout;
  - every subtest result of those lines ("subtest", "enumerate subtests");
  - how the process ended: "exit N", "signal SIGxxx" or "timeout".

The traced run must give the same three, and the tracer must have written at
least one trace (one per process, ID.wip15, ID.1.wip15, ...), each of which
`wip15 verify` accepts.  Anything else is a difference: a table of the
differences, a summary line, and exit status 1.

Options:
  --list FILE        the test list (default: quick.list here); format in
                     README.md
  -j, --jobs N       tests run at once (default 2)
  --timeout S        per-run timeout in seconds (default 60); a run that
                     outlives it is killed with its process group
  --wip15 PATH       the wip15 command (default: $WIP15, else the build
                     tree's src/tools/wip15 beside this source tree)
  --tracer-cmd CMD   the tracer command prefix, a template split like a
                     shell command line; {out} is DIR/ID (no extension),
                     {name} the test's name, {api} its window-system API
                     from the list (gl or egl, as apitrace's --api wants),
                     {wip15} the wip15 command.  Default:
                     "{wip15} trace -o {out}.wip15 --".  With another
                     tracer, the traces are the files DIR/ID.* and
                     DIR/ID.N.* (but .wtf-trace) and nothing verifies them
                     unless --verify-cmd is given.  For apitrace:
                     --tracer-cmd 'apitrace trace --api {api} -o {out}.trace'
  --verify-cmd CMD   run on each trace ({trace}); exit 0 means good.
                     Default: "{wip15} verify {trace}" with the default
                     tracer, none with --tracer-cmd.
  --no-verify        check only that the traces exist (benchmarks: the
                     time of a pass is then the tests' alone)
  --keep-traces DIR  write the traces into DIR and keep them (created if
                     missing; stale traces of the same tests are removed
                     first).  Default: a temporary directory, removed.
  --only REGEX       run only the tests whose name matches REGEX (Python
                     re.search); may be repeated (any of them)
  --mode M           both (default), native or traced: one pass only (for
                     benchmarks); a single pass reports results, compares
                     nothing and exits 0 unless the harness itself failed
  --piglit-dir DIR   piglit's installation (default: $PIGLIT_DIR, else
                     /usr/lib/x86_64-linux-gnu/piglit, /usr/lib/piglit,
                     /usr/local/lib/piglit)
  --platform P       PIGLIT_PLATFORM (default: $PIGLIT_PLATFORM, else
                     mixed_glx_egl, piglit's own default: GLX for desktop
                     GL, EGL on X11 for GLES and EGL tests)
  --xvfb MODE        auto (default: start a private Xvfb when DISPLAY is
                     unset), always, never
  --json FILE        write every run's details and the totals as JSON
  --show-all         print every test's results, not only differences
  -v, --verbose      print each test as it finishes

Exit status: 0 identical (or a single pass that ran), 1 differences,
2 usage or harness error, 77 piglit is not installed (CTest: skipped).
"""

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
PIGLIT_DIRS = ("/usr/lib/x86_64-linux-gnu/piglit", "/usr/lib/piglit", "/usr/local/lib/piglit")
DEFAULT_TRACER = "{wip15} trace -o {out}.wip15 --"
DEFAULT_VERIFY = "{wip15} verify {trace}"
SKIP_CODE = 77
KILLED_RE = re.compile(r"^wip15: .* was killed by signal (\d+) ", re.M)
CANNOT_RUN_RE = re.compile(r"^wip15: trace: cannot run .*: (.*)$", re.M)
NO_GL_RE = re.compile(r"^wip15: no trace was written: .* made no GL call$", re.M)
TAIL = 2000  # characters of stdout/stderr kept per run


class Test:
    """One line of the list: name, window-system API, environment, argv."""

    def __init__(self, name, api, env, argv, lineno):
        self.name = name
        self.api = api
        self.env = env
        self.argv = argv
        self.lineno = lineno
        self.id = None  # file-name-safe, unique; set by assign_ids


def parse_list(path, piglit_dir):
    """Reads the list file.  Each line: NAME<TAB>API<TAB>COMMAND, where
    COMMAND is a shell-like word list, optionally led by VAR=VALUE words;
    its program is looked up in piglit's bin/, and a relative argument that
    names a file under piglit's directory (a .shader_test) is made
    absolute."""
    tests = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 3:
                raise ValueError(f"{path}:{lineno}: expected NAME<TAB>API<TAB>COMMAND")
            name, api, command = parts
            if api not in ("gl", "egl"):
                raise ValueError(f"{path}:{lineno}: API must be gl or egl, not {api!r}")
            words = shlex.split(command)
            env = {}
            while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
                k, v = words.pop(0).split("=", 1)
                env[k] = v
            if not words:
                raise ValueError(f"{path}:{lineno}: no command")
            prog = words[0]
            if "/" not in prog:
                prog = os.path.join(piglit_dir, "bin", prog)
            argv = [prog]
            for w in words[1:]:
                if not w.startswith("-") and "/" in w and not os.path.isabs(w) \
                        and os.path.exists(os.path.join(piglit_dir, w)):
                    w = os.path.join(piglit_dir, w)
                argv.append(w)
            tests.append(Test(name, api, env, argv, lineno))
    return tests


def assign_ids(tests):
    """A file-name-safe, unique id per test (the trace's base name)."""
    seen = set()
    for t in tests:
        base = re.sub(r"[^A-Za-z0-9._+-]+", "_", t.name).strip("._") or "test"
        base = base[:150]
        if re.search(r"\.\d+$", base):  # ID.N.wip15 is a forked child's trace of ID
            base += "_"
        tid, n = base, 1
        while tid in seen:
            n += 1
            tid = f"{base}~{n}"
        seen.add(tid)
        t.id = tid


class Run:
    """The outcome of one run of one test."""

    def __init__(self):
        self.result = None      # piglit's "result", None when it printed none
        self.subtests = {}      # name -> result
        self.end = None         # "exit N", "signal SIGxxx", "timeout", "cannot run: ..."
        self.seconds = 0.0
        self.cpu = 0.0          # user + system seconds of the run's processes
        self.stdout = ""
        self.stderr = ""
        self.traces = []        # [{"path", "bytes", "ok", "message"}]
        self.problems = []      # trace problems (traced runs only)

    def key(self):
        return (self.result, tuple(sorted(self.subtests.items())), self.end)

    def describe(self):
        s = self.result or "no result"
        if self.subtests:
            counts = {}
            for v in self.subtests.values():
                counts[v] = counts.get(v, 0) + 1
            s += " [" + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + "]"
        return f"{s}, {self.end}"

    def as_json(self):
        return {"result": self.result, "subtests": self.subtests, "end": self.end,
                "seconds": round(self.seconds, 3),
                "cpu_seconds": round(self.cpu, 4), "traces": self.traces,
                "problems": self.problems, "stdout_tail": self.stdout[-TAIL:],
                "stderr_tail": self.stderr[-TAIL:]}


def parse_piglit_output(out, run):
    """Fills run.result and run.subtests from the PIGLIT: lines, the way
    piglit's framework reads them (a later line overrides an earlier one)."""
    for line in out.splitlines():
        if not line.startswith("PIGLIT:"):
            continue
        try:
            d = json.loads(line[len("PIGLIT:"):])
        except ValueError:
            run.result = "unparsable PIGLIT line"
            continue
        if not isinstance(d, dict):
            continue
        for n in d.get("enumerate subtests", []) or []:
            run.subtests.setdefault(str(n), "notrun")
        sub = d.get("subtest")
        if isinstance(sub, dict):
            for k, v in sub.items():
                run.subtests[str(k)] = str(v)
        if "result" in d:
            run.result = str(d["result"])


def signame(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def execute(argv, env, cwd, timeout):
    """Runs argv in its own process group; returns (returncode or None on
    timeout, stdout, stderr, seconds, cpu), cpu being the user and system
    seconds of the process and the children it waited for (wait4)."""
    t0 = time.monotonic()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, cwd=cwd, env=env,
                                start_new_session=True)
    except OSError as e:
        return f"cannot run: {e.strerror}", "", "", 0.0, 0.0
    bufs = {}

    def drain(key, f):
        bufs[key] = f.read()
        f.close()

    readers = [threading.Thread(target=drain, args=(k, f), daemon=True)
               for k, f in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    done = threading.Event()
    expired = []

    def watchdog():
        """SIGTERM to the run's process group at the timeout, SIGKILL 3 s later."""
        if done.wait(timeout):
            return
        expired.append(True)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            if done.wait(3):
                return

    dog = threading.Thread(target=watchdog, daemon=True)
    dog.start()
    _, status, ru = os.wait4(proc.pid, 0)
    secs = time.monotonic() - t0
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if expired:
        # the group's other processes may still hold the pipes
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for r in readers:
        r.join()
    dog.join()
    rc = None if expired else proc.returncode
    out = bufs.get("out", b"").decode("utf-8", "replace")
    err = bufs.get("err", b"").decode("utf-8", "replace")
    return rc, out, err, secs, ru.ru_utime + ru.ru_stime


class Harness:
    def __init__(self, args, piglit_dir, trace_dir, work_dir):
        self.args = args
        self.piglit_dir = piglit_dir
        self.trace_dir = trace_dir
        self.work_dir = work_dir
        self.default_tracer = args.tracer_cmd is None
        self.tracer = args.tracer_cmd or DEFAULT_TRACER
        if args.no_verify:
            self.verify = None
        elif args.verify_cmd is not None:
            self.verify = args.verify_cmd or None
        else:
            self.verify = DEFAULT_VERIFY if self.default_tracer else None
        self.lock = threading.Lock()
        self.done = 0
        # the traces' extension, from the word of the tracer command that
        # names them ({out}.wip15, {out}.trace), for trace_files
        m = re.search(r"\{out\}(\.[A-Za-z0-9]+)(?![A-Za-z0-9.{])", self.tracer)
        self.trace_ext = m.group(1) if m else None

    def base_env(self, test):
        env = dict(os.environ)
        env["PIGLIT_PLATFORM"] = self.args.platform
        env["PIGLIT_SOURCE_DIR"] = self.piglit_dir
        env.update(test.env)
        return env

    def fill(self, word, test, **extra):
        vals = {"out": os.path.join(self.trace_dir, test.id), "name": test.name,
                "api": test.api, "wip15": self.args.wip15}
        vals.update(extra)
        return word.format(**vals)

    def trace_files(self, test):
        """The traces the tracer wrote for this test: ID.EXT and ID.N.EXT,
        not the timing files.  With the extension known from the tracer
        command ({out}.EXT), they are looked up by name (ID.EXT, ID.1.EXT,
        ... up to the first missing one: a tracer numbers a process's trace
        with the first free number); else the directory is scanned, which
        costs ~0.6 ms per test once it holds a suite's traces."""
        base = os.path.join(self.trace_dir, test.id)
        if self.trace_ext:
            found = []
            n = 0
            while True:
                path = f"{base}{self.trace_ext}" if n == 0 else f"{base}.{n}{self.trace_ext}"
                if not os.path.exists(path):
                    break
                found.append(path)
                n += 1
            if found or not os.path.exists(f"{base}.1{self.trace_ext}"):
                return found
        pat = re.compile(r"^" + re.escape(test.id) + r"(\.\d+)?\.[A-Za-z0-9]+$")
        try:
            names = os.listdir(self.trace_dir)
        except OSError:
            return []
        return sorted(os.path.join(self.trace_dir, n) for n in names
                      if pat.match(n) and not n.endswith(".wtf-trace"))

    def remove_stale(self, tests):
        """Removes the files a former run left for these tests (ID.EXT,
        ID.N.EXT), in one scan of the directory before the runs."""
        ids = {t.id for t in tests}
        for n in os.listdir(self.trace_dir):
            if "." not in n:
                continue
            stem = n.rsplit(".", 1)[0]
            if stem in ids or (re.search(r"\.\d+$", stem) and stem.rsplit(".", 1)[0] in ids):
                os.unlink(os.path.join(self.trace_dir, n))

    def run(self, test, traced):
        run = Run()
        argv = list(test.argv)
        if traced:
            argv = [self.fill(w, test) for w in shlex.split(self.tracer)] + argv
        cwd = os.path.join(self.work_dir, ("traced-" if traced else "native-") + test.id)
        os.makedirs(cwd, exist_ok=True)
        rc, out, err, secs, cpu = execute(argv, self.base_env(test), cwd, self.args.timeout)
        shutil.rmtree(cwd, ignore_errors=True)
        run.seconds, run.cpu, run.stdout, run.stderr = secs, cpu, out, err
        parse_piglit_output(out, run)
        if rc is None:
            run.end = "timeout"
        elif isinstance(rc, str):
            run.end = rc
        elif rc < 0:
            run.end = signame(-rc)
        else:
            run.end = f"exit {rc}"
            if traced:
                # wip15's own words, whatever the tracer command line
                m = KILLED_RE.search(err)
                if m:
                    run.end = signame(int(m.group(1)))
                elif rc == 127 and CANNOT_RUN_RE.search(err):
                    run.end = "cannot run: " + CANNOT_RUN_RE.search(err).group(1)
                elif not self.default_tracer and rc > 128 and rc - 128 < 65:
                    # other tracers report a signalled child as 128+N
                    run.end = signame(rc - 128)
        if traced:
            self.check_traces(test, run, err)
        return run

    def check_traces(self, test, run, err):
        files = self.trace_files(test)
        # a test that skips before any GL call writes no trace, and
        # `wip15 trace` says so (it tells that from a library never loaded);
        # nor does a program that cannot be run (not installed)
        if not files and not NO_GL_RE.search(err) and not (run.end or "").startswith("cannot run"):
            run.problems.append("no trace written")
        for path in files:
            info = {"path": path, "bytes": os.path.getsize(path), "ok": True, "message": ""}
            if self.verify:
                argv = [self.fill(w, test, trace=path) for w in shlex.split(self.verify)]
                rc, out, err, _, _ = execute(argv, dict(os.environ), self.work_dir,
                                          max(self.args.timeout, 60))
                if rc != 0:
                    msg = (err.strip() or out.strip() or f"status {rc}").splitlines()[0]
                    msg = msg.replace(path + ": ", "").replace(path, os.path.basename(path))
                    msg = re.sub(r"^wip15: verify: ", "", msg)
                    info["ok"], info["message"] = False, msg
                    run.problems.append(f"verify: {msg}")
            run.traces.append(info)

    def run_job(self, job):
        test, traced = job
        r = self.run(test, traced)
        if self.args.verbose:
            with self.lock:
                self.done += 1
                mode = "traced" if traced else "native"
                print(f"[{self.done}] {mode:6} {test.name}: {r.describe()} ({r.seconds:.2f} s)"
                      + ("; " + "; ".join(r.problems) if r.problems else ""), flush=True)
        return job, r


def find_piglit(arg):
    cands = [arg] if arg else ([os.environ["PIGLIT_DIR"]] if os.environ.get("PIGLIT_DIR")
                               else list(PIGLIT_DIRS))
    for d in cands:
        if d and os.path.isdir(os.path.join(d, "bin")):
            return os.path.abspath(d)
    return None


def default_wip15():
    if os.environ.get("WIP15"):
        return os.environ["WIP15"]
    return os.path.join(SOURCE_ROOT, "build", "src", "tools", "wip15")


def start_xvfb():
    """Starts Xvfb on a free display (as scripts/xvfb.sh does); returns
    (proc, display) or (None, None)."""
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        return None, None
    for n in range(90, 141):
        if os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}"):
            continue
        proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
                                 "-noreset"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if os.path.exists(f"/tmp/.X11-unix/X{n}"):
                return proc, f":{n}"
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
    return None, None


def hold_display(display):
    """Opens an X connection (the bare connection setup, no authorisation
    data) and returns the socket, to be kept open for the whole run.  An X
    server started without -noreset (scripts/xvfb.sh's) resets whenever its
    last client disconnects, and a test that connects during the reset fails
    in XOpenDisplay: with one client always connected, it never resets.
    Returns None when the display is not a local one or refuses."""
    m = re.match(r"^(?:unix)?:(\d+)(?:\.\d+)?$", display or "")
    if not m:
        return None
    for addr in ("\0/tmp/.X11-unix/X" + m.group(1), "/tmp/.X11-unix/X" + m.group(1)):
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(5)
            s.connect(addr)
            s.sendall(struct.pack("<cxHHHH2x", b"l", 11, 0, 0, 0))
            if s.recv(1) == b"\x01":
                return s
            s.close()
        except OSError:
            pass
    return None


def release_display(held, xvfb):
    """Closes the connection hold_display opened and ends the Xvfb
    start_xvfb started (either may be None)."""
    if held:
        held.close()
    if xvfb:
        xvfb.terminate()
        xvfb.wait()


def why(native, traced):
    """What differs between the two runs, in words."""
    out = []
    if native.end != traced.end:
        out.append(f"{native.end} -> {traced.end}")
    if native.result != traced.result:
        out.append(f"result {native.result} -> {traced.result}")
    if native.subtests != traced.subtests and native.end != traced.end:
        diff = [k for k in set(native.subtests) | set(traced.subtests)
                if native.subtests.get(k) != traced.subtests.get(k)]
        out.append(f"{len(diff)} subtests differ")
    elif native.subtests != traced.subtests:
        diff = [k for k in sorted(set(native.subtests) | set(traced.subtests))
                if native.subtests.get(k) != traced.subtests.get(k)]
        shown = ", ".join(f"{k}: {native.subtests.get(k, '-')} -> {traced.subtests.get(k, '-')}"
                          for k in diff[:3])
        more = f" (+{len(diff) - 3} more)" if len(diff) > 3 else ""
        out.append(f"subtests {shown}{more}")
    out.extend(traced.problems)
    return "; ".join(out)


def counts(runs):
    c = {}
    for r in runs:
        k = r.result or "none"
        if r.end != "exit 0" and not (r.end or "").startswith("exit"):
            k = "crash/timeout"
        c[k] = c.get(k, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(c.items(), key=lambda kv: -kv[1]))


def table(rows, headers):
    widths = [len(h) for h in headers]
    for r in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, r)]
    widths[-1] = 0
    fmt = lambda r: "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    lines = [fmt(headers), fmt(["-" * len(h) for h in headers])]
    lines += [fmt(r) for r in rows]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(usage="%(prog)s [options]", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", default=os.path.join(HERE, "quick.list"))
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--wip15", default=default_wip15())
    ap.add_argument("--tracer-cmd")
    ap.add_argument("--verify-cmd")
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--keep-traces", metavar="DIR")
    ap.add_argument("--only", action="append", default=[], metavar="REGEX")
    ap.add_argument("--mode", choices=("both", "native", "traced"), default="both")
    ap.add_argument("--piglit-dir")
    ap.add_argument("--platform", default=os.environ.get("PIGLIT_PLATFORM") or "mixed_glx_egl")
    ap.add_argument("--xvfb", choices=("auto", "always", "never"), default="auto")
    ap.add_argument("--json", metavar="FILE")
    ap.add_argument("--show-all", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.jobs < 1 or args.timeout <= 0:
        ap.error("--jobs and --timeout must be positive")

    piglit_dir = find_piglit(args.piglit_dir)
    if not piglit_dir:
        print("run_piglit: piglit is not installed (Debian package `piglit`; or give "
              "--piglit-dir): skipped", file=sys.stderr)
        return SKIP_CODE
    try:
        tests = parse_list(args.list, piglit_dir)
        only = [re.compile(p) for p in args.only]
    except (OSError, ValueError, re.error) as e:
        print(f"run_piglit: {e}", file=sys.stderr)
        return 2
    if only:
        tests = [t for t in tests if any(p.search(t.name) for p in only)]
    if not tests:
        print("run_piglit: no test to run", file=sys.stderr)
        return 2
    assign_ids(tests)
    if "/" in args.wip15:
        args.wip15 = os.path.abspath(args.wip15)
    if args.mode != "native" and "{wip15}" in (args.tracer_cmd or DEFAULT_TRACER) + (args.verify_cmd or ""):
        if not os.access(args.wip15, os.X_OK):
            print(f"run_piglit: {args.wip15}: no wip15 command there (build it, or give --wip15)",
                  file=sys.stderr)
            return 2

    xvfb = None
    if args.xvfb == "always" or (args.xvfb == "auto" and not os.environ.get("DISPLAY")):
        xvfb, display = start_xvfb()
        if xvfb:
            os.environ["DISPLAY"] = display
        else:
            print("run_piglit: warning: no DISPLAY and no Xvfb: GLX tests will not run",
                  file=sys.stderr)
    held = hold_display(os.environ.get("DISPLAY"))
    if os.environ.get("DISPLAY") and not held:
        print(f"run_piglit: warning: cannot hold a connection to {os.environ['DISPLAY']}: "
              "tests may fail at random if the X server resets", file=sys.stderr)

    work_dir = tempfile.mkdtemp(prefix="wip15-piglit-")
    if args.keep_traces:
        trace_dir = os.path.abspath(args.keep_traces)
        os.makedirs(trace_dir, exist_ok=True)
    else:
        trace_dir = os.path.join(work_dir, "traces")
        os.makedirs(trace_dir)
    h = Harness(args, piglit_dir, trace_dir, work_dir)
    if args.mode != "native":
        h.remove_stale(tests)

    jobs = []
    for t in tests:
        if args.mode in ("both", "native"):
            jobs.append((t, False))
        if args.mode in ("both", "traced"):
            jobs.append((t, True))
    results = {}
    t0 = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for (t, traced), r in pool.map(h.run_job, jobs):
                results[(t.id, traced)] = r
    except KeyboardInterrupt:
        print("run_piglit: interrupted", file=sys.stderr)
        return 2
    finally:
        release_display(held, xvfb)
    wall = time.monotonic() - t0

    native = [results[(t.id, False)] for t in tests if (t.id, False) in results]
    traced = [results[(t.id, True)] for t in tests if (t.id, True) in results]
    rows, differ = [], 0
    for t in tests:
        n, tr = results.get((t.id, False)), results.get((t.id, True))
        if n and tr:
            same = n.key() == tr.key() and not tr.problems
            if not same:
                differ += 1
                rows.append([t.name, n.describe(), tr.describe(), why(n, tr)])
            elif args.show_all:
                rows.append([t.name, n.describe(), tr.describe(), "identical"])
        elif args.show_all:
            r = n or tr
            rows.append([t.name, n.describe() if n else "-", tr.describe() if tr else "-",
                         "; ".join(r.problems)])
    if rows:
        print(table(rows, ["test", "native", "traced", "difference"]))
        print()
    trace_bytes = sum(x["bytes"] for r in traced for x in r.traces)
    parts = [f"piglit: {len(tests)} tests"]
    if args.mode == "both":
        parts.append(f"{len(tests) - differ} identical, {differ} differ")
    if native:
        parts.append(f"native: {counts(native)} ({sum(r.seconds for r in native):.1f} s)")
    if traced:
        parts.append(f"traced: {counts(traced)} ({sum(r.seconds for r in traced):.1f} s, "
                     f"{len([1 for r in traced for _ in r.traces])} traces, "
                     f"{trace_bytes / 1e6:.1f} MB)")
    parts.append(f"wall {wall:.1f} s with {args.jobs} jobs")
    print("; ".join(parts))
    if args.keep_traces:
        print(f"traces kept in {trace_dir}")

    if args.json:
        doc = {"list": os.path.abspath(args.list), "mode": args.mode, "jobs": args.jobs,
               "tracer": h.tracer, "platform": args.platform, "wall_seconds": round(wall, 3),
               "trace_bytes": trace_bytes, "differ": differ,
               "tests": [{"name": t.name, "id": t.id, "api": t.api, "argv": t.argv,
                          "env": t.env,
                          "native": results[(t.id, False)].as_json() if (t.id, False) in results else None,
                          "traced": results[(t.id, True)].as_json() if (t.id, True) in results else None}
                         for t in tests]}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    shutil.rmtree(work_dir, ignore_errors=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
