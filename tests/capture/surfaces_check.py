#!/usr/bin/env python3
"""capture.surfaces.*: the trace's wip15ContextConfig, wip15DrawableSize and
wip15FrameDigest equal what the program itself found (docs/FORMAT.md
"Contexts, drawables and frames").

  surfaces_check.py --wip15 WIP15 [--digests] [--tamper WHAT] -- PROGRAM [ARGS...]

PROGRAM (surfaces_glx or surfaces_egl) is run under `wip15 trace` (with
--frame-digests when --digests); it must exit 0 having printed its lines
(surfaces_common.h: "config ...", "context ...", "drawable ID W H",
"digest FRAME W H FORMAT TYPE XXH3", "state ok FRAME"; it checked itself that
each swap left the state it looks at unchanged and no GL error).  Then:
  - exactly one wip15ContextConfig, for the program's context, before its
    first recorded use (MakeCurrent, clear, read, swap), whose bits (red green blue alpha depth stencil
    samples double srgb) are the program's;
  - the wip15DrawableSize calls are exactly the program's "drawable" lines,
    in order (first MakeCurrent, then each change);
  - with --digests: one wip15FrameDigest per swap (with --every N, per
    swap of frames 0, N, 2N, ... only), numbered with their frame,
    each with the size of the program's frame, a FORMAT/TYPE the program
    read too, and the same XXH3 as the program's read of that
    FORMAT/TYPE; without: none.
--from N records from frame N on (--frames N-): the configuration must
still be there, before the first recorded use of the context, the drawable
current at frame N first, the frame digests from N on.
With --digests the trace is also replayed (`wip15 replay --check`; not
with --from): every frame digest must match, whatever pack, pixel-transfer or framebuffer
state the program left at its swap (wip15/readstate.h).
--tamper config|size|digest changes the program's value before comparing:
the check must then FAIL (this proves the test can fail; exit 0 when it did).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

# calls that use the context: its configuration must precede the first
USES = ("glXMakeCurrent", "glXMakeContextCurrent", "eglMakeCurrent", "glClear", "glReadPixels",
        "glXSwapBuffers", "eglSwapBuffers", "wip15DrawableSize", "wip15FrameDigest")
KEYS = ["red", "green", "blue", "alpha", "depth", "stencil", "samples", "double", "srgb"]


def fail(msg):
    print("FAIL: " + msg)
    raise SystemExit(1)


def parse_program(out):
    prog = {"config": None, "context": None, "drawables": [], "digests": {}, "frames": [], "ok": False}
    for line in out.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "config":
            prog["config"] = {k: int(v) for k, v in (x.split("=") for x in w[1:])}
        elif w[0] == "context":
            prog["context"] = int(w[1], 16)
        elif w[0] == "drawable":
            prog["drawables"].append((int(w[1]), int(w[2]), int(w[3])))
            prog.setdefault("drawn_before", []).append(len(prog["frames"]))
        elif w[0] == "digest":
            f, width, height, fmt, typ, h = (int(x) for x in w[1:7])
            prog["digests"].setdefault(f, {})[(fmt, typ)] = (width, height, h)
        elif w[0] == "state" and w[1] == "ok":
            prog["frames"].append(int(w[2]))
        elif w[0] == "renderer":
            prog["renderer"] = [int(x) for x in w[1:]]
        elif line.endswith(": ok"):
            prog["ok"] = True
    return prog


def argval(a):
    if isinstance(a, dict):
        return a.get("value")
    if isinstance(a, str) and a.startswith("0x"):
        return int(a, 16)
    if a is None:
        return 0
    if a is True:
        return 1
    if a is False:
        return 0
    return a


def check(prog, calls, digests, start=0):
    if not prog["ok"] or prog["config"] is None or prog["context"] is None:
        fail("the program did not finish")
    if start:
        # recorded from frame `start`: the drawable current then, and what
        # changed after; the frames from `start` on
        before = [i for i, n in enumerate(prog["drawn_before"]) if n <= start]
        first = before[-1] if before else 0
        prog["drawables"] = prog["drawables"][first:]
        prog["frames"] = [f for f in prog["frames"] if f >= start]
    # glXQueryCurrentRendererIntegerMESA: 3 values for the version, 1 for
    # the video memory, as the program saw them
    if "renderer" in prog and not start:
        got = [c["args"][1] for c in calls if c["function"] == "glXQueryCurrentRendererIntegerMESA"]
        want = [prog["renderer"][:3], prog["renderer"][3:]]
        if got != want:
            fail("glXQueryCurrentRendererIntegerMESA recorded %s, the program read %s" % (got, want))
    # configuration
    cfgs = [c for c in calls if c["function"] == "wip15ContextConfig"]
    if len(cfgs) != 1:
        fail("%d wip15ContextConfig calls, expected 1" % len(cfgs))
    a = [argval(x) for x in cfgs[0]["args"]]
    if len(a) != 16:
        fail("wip15ContextConfig has %d arguments" % len(a))
    if a[0] != prog["context"]:
        fail("wip15ContextConfig context 0x%x, the program's is 0x%x" % (a[0], prog["context"]))
    got = dict(zip(KEYS, a[7:16]))
    if got != prog["config"]:
        fail("wip15ContextConfig bits %s, the program's config %s" % (got, prog["config"]))
    idx = {id(c): i for i, c in enumerate(calls)}
    uses = [i for i, c in enumerate(calls) if c["function"] in USES]
    if not uses or idx[id(cfgs[0])] > uses[0]:
        fail("wip15ContextConfig (call %d) is not before the context's first recorded use (call %s)" %
             (idx[id(cfgs[0])], uses[0] if uses else None))
    # drawable sizes
    sizes = [tuple(argval(x) for x in c["args"]) for c in calls if c["function"] == "wip15DrawableSize"]
    if sizes != prog["drawables"]:
        fail("wip15DrawableSize calls %s, the program's drawables %s" % (sizes, prog["drawables"]))
    # a size learnt at a MakeCurrent (no swap since) comes before the first
    # call after it that draws, clears or reads
    last_mc, seen_use = None, False
    for i, c in enumerate(calls):
        f = c["function"]
        if f in ("glXMakeCurrent", "glXMakeContextCurrent", "eglMakeCurrent"):
            last_mc, seen_use = i, False
        elif f in ("glXSwapBuffers", "eglSwapBuffers"):
            last_mc = None
        elif f in ("glClear", "glReadPixels") or f.startswith("glDraw"):
            seen_use = True
        elif f == "wip15DrawableSize" and last_mc is not None and seen_use:
            fail("wip15DrawableSize (call %d) after a draw or read that followed the MakeCurrent at call %d"
                 % (i, last_mc))
    # frame digests
    fds = [[argval(x) for x in c["args"]] for c in calls if c["function"] == "wip15FrameDigest"]
    swaps = [c for c in calls if c["function"] in ("glXSwapBuffers", "eglSwapBuffers")]
    if len(swaps) != len(prog["frames"]):
        fail("%d swaps in the trace, the program made %d" % (len(swaps), len(prog["frames"])))
    if not digests:
        if fds:
            fail("%d wip15FrameDigest calls without --frame-digests" % len(fds))
        return "config, %d drawable sizes" % len(sizes)
    want = [f for f in prog["frames"] if f % digests == 0]
    if [fd[0] for fd in fds] != want:
        fail("wip15FrameDigest for frames %s, expected %s (every %d-th of %s)" %
             ([fd[0] for fd in fds], want, digests, prog["frames"]))
    for frame, width, height, fmt, typ, h in fds:
        i = frame
        mine = prog["digests"].get(i, {})
        if (fmt, typ) not in mine:
            fail("frame %d: digest read as 0x%x/0x%x, which the program did not read (%s)" % (i, fmt, typ, sorted(mine)))
        pw, ph, phash = mine[(fmt, typ)]
        if (width, height) != (pw, ph):
            fail("frame %d: digest of %dx%d, the frame is %dx%d" % (i, width, height, pw, ph))
        if h != phash:
            fail("frame %d: digest %d, the program read %d (0x%x/0x%x)" % (i, h, phash, fmt, typ))
    return "config, %d drawable sizes, %d frame digests (0x%x/0x%x)" % (len(sizes), len(fds), fds[0][3], fds[0][4])


def tamper(prog, what):
    if what == "config":
        prog["config"]["depth"] += 1
    elif what == "size":
        d = prog["drawables"][-1]
        prog["drawables"][-1] = (d[0], d[1] + 1, d[2])
    elif what == "digest":
        last = max(prog["digests"])
        prog["digests"][last] = {k: (v[0], v[1], v[2] ^ 1) for k, v in prog["digests"][last].items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wip15", required=True)
    ap.add_argument("--digests", action="store_true")
    ap.add_argument("--every", type=int, default=0,
                    help="with --digests: --frame-digests=N, a digest for frames 0, N, 2N, ... only")
    ap.add_argument("--tamper", choices=["config", "size", "digest"])
    ap.add_argument("--shown", type=int, default=-1, metavar="N",
                    help="with --digests: at least N of the frame digests must have been taken from the "
                         "images the driver showed (the tracer's closing line says how many)")
    ap.add_argument("--from", dest="start", type=int, default=0,
                    help="record from frame N on (wip15 trace --frames N-)")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    o = ap.parse_args()
    cmd = o.cmd[1:] if o.cmd and o.cmd[0] == "--" else o.cmd
    if not cmd:
        ap.error("no program")
    with tempfile.TemporaryDirectory(prefix="w15surf") as tmp:
        trace = os.path.join(tmp, "s.wip15")
        # --shown reads the tracer's informational closing line
        tcmd = [o.wip15, "trace"] + ([] if o.shown >= 0 else ["-q"]) + ["--timing", "off", "-o", trace]
        if o.digests:
            tcmd.append("--frame-digests=%d" % o.every if o.every else "--frame-digests")
        if o.start:
            tcmd += ["--frames", "%d-" % o.start]
        env = dict(os.environ)
        env.pop("WIP15_FRAME_DIGESTS", None)
        p = subprocess.run(tcmd + ["--"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=env, timeout=240)
        sys.stdout.write(p.stderr)
        if p.returncode != 0:
            sys.stdout.write(p.stdout)
            fail("traced program exited %d" % p.returncode)
        prog = parse_program(p.stdout)
        v = subprocess.run([o.wip15, "verify", trace], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if v.returncode != 0:
            fail("wip15 verify: %s" % v.stdout)
        d = subprocess.run([o.wip15, "dump", "--json", trace], stdout=subprocess.PIPE, text=True, check=True)
        calls = [json.loads(x) for x in d.stdout.splitlines() if x.strip()]
        replay = None
        # not replayed: a trace recorded from a later frame (the replay
        # needs the state before it)
        if o.digests and not o.tamper and not o.start:
            # the replay reads its frames through the same state as the
            # tracer (wip15/readstate.h), whatever the program left set
            replay = subprocess.run([o.wip15, "replay", "--check", trace], stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=240)
    period = (o.every or 1) if o.digests else 0
    if o.tamper:
        tamper(prog, o.tamper)
        try:
            check(prog, calls, period, o.start)
        except SystemExit:
            print("ok: the check failed on a tampered %s, as it must" % o.tamper)
            return 0
        fail("the check passed on a tampered %s" % o.tamper)
    what = check(prog, calls, period, o.start)
    if o.shown >= 0:
        m = re.search(r"^wip15: (\d+) frame digests: (\d+) from the images shown, (\d+) read back$", p.stderr, re.M)
        if not m:
            fail("the tracer did not say how its frame digests were taken:\n" + p.stderr)
        if int(m.group(2)) < o.shown:
            fail("%s of %s frame digests taken from the images shown, fewer than %d" %
                 (m.group(2), m.group(1), o.shown))
        what += "; %s of %s digests from the images shown" % (m.group(2), m.group(1))
    if replay is not None:
        ndig = sum(1 for c in calls if c["function"] == "wip15FrameDigest")
        last = replay.stdout.strip().splitlines()[-1] if replay.stdout.strip() else ""
        if replay.returncode != 0 or " %d frames," % ndig not in last or not last.endswith(": 0 mismatches"):
            fail("wip15 replay --check should compare %d frames with no mismatch (exit %d):\n%s" %
                 (ndig, replay.returncode, replay.stdout))
        what += "; replayed: " + last
    print("ok: " + what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
