#!/usr/bin/env python3
"""bench/piglit/run.py -- the cost of tracing a suite of short programs.

  python3 bench/piglit/run.py [--build DIR] [--rounds N] [--jobs J]
                              [--only REGEX ...] [--list FILE] [--no-apitrace]
                              [--decompose] [--top N] [--configs A,B,...]
                              [--chunk K] [--save FILE]

Runs the whole piglit list (tests/piglit/quick.list, 2 jobs) once per
configuration and round, the configurations interleaved within each round:

  native    the tests alone
  wip15     each test under `wip15 trace -o DIR/ID.wip15 --` (defaults)
  apitrace  each test under `apitrace trace --api {gl|egl} -o DIR/ID.trace`
            (the API from the list's second column; skipped when apitrace
            is not installed or with --no-apitrace)

With --decompose, three more configurations show where a traced test's
extra time goes (each through `env`, whose exec is the first of them):

  env       `env PROGRAM`: the cost of one more exec (a launcher's own)
  late      `env LD_PRELOAD=libwip15.so WIP15_FRAMES=100000 WIP15_TIMING=off`:
            the library loaded and started, every call through the
            wrappers, nothing recorded (no frame reaches 100000)
  preload   `env LD_PRELOAD=libwip15.so`: recording, without the launcher

Three more, by name only (--configs), split the recording's cost further:

  nolz4     preload with WIP15_COMPRESSION=none WIP15_STREAM=none (nothing
            compressed: neither zstd nor LZ4)
  notiming  preload with WIP15_TIMING=off (no .wtf-trace, no clock reads)
  lz4       preload with WIP15_STREAM=lz4 (LZ4 frames and LZ4 blobs instead
            of the default zstd stream)

--configs names the configurations and their order within a round
(native first; e.g. --configs native,wip15,preload), in place of the
defaults and --decompose.  Odd rounds run them in reverse order: the
machine drifts within a round, and a fixed order made the later
configurations look dearer (docs/PERFORMANCE.md, "Correction").

With --chunk K the configurations are interleaved K tests at a time
instead of pass by pass: every configuration runs the same K tests before
the next K (order rotated per chunk), and a configuration's pass is the
sum of its chunks.  This VM's speed drifts by up to 30 % within an hour,
and passes half a minute apart measured the drift (one run's rounds
ranged 1.03-1.30x); chunks seconds apart cancel it (docs/PERFORMANCE.md,
"Start-up, short programs").  --save FILE writes every pass's per-test
seconds, CPU seconds (each run's own, from wait4) and trace bytes as JSON.

With --top N it also lists, per traced configuration, the N tests that
took the most time over native (medians over the rounds), so a suite's
extra time can be traced to the tests that pay it.

It prints, per configuration, the median wall time of the list, its ratio
to native, the lowest and highest ratio of one round's pass to native's
pass of the same round (the noise: on a 2-core VM a pass moves by a few
per cent from one round to the next), the median CPU time of the pass
(user + system of every process it ran, from getrusage; steadier than
wall time) and its ratio to native, the median total bytes of the traces
(.wip15 alone; the .wtf-trace timing files beside them are counted
apart), how many tests gave a result other than native's in the same
round (a tracer that crashes a test also changes its time), and the mean
over the tests of the time a test took more than natively (each test's
median over the rounds).  Each pass is tests/piglit/run_piglit.py --mode
native|traced --json, so the tests run exactly as in the test.

The machine must be otherwise idle for the numbers to mean anything.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import re
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(ROOT, "tests", "piglit", "run_piglit.py")


def tracer_cmd(args, cfg):
    """The run_piglit.py --tracer-cmd of a traced configuration (None: the
    default, `wip15 trace`)."""
    lib = os.path.join(args.build, "src", "tracer", "libwip15.so")
    return {
        "wip15": None,
        "apitrace": "apitrace trace --api {api} -o {out}.trace",
        "env": "env",
        "late": f"env LD_PRELOAD={lib} WIP15_FRAMES=100000 WIP15_TIMING=off WIP15_OUTPUT={{out}}.wip15",
        "preload": f"env LD_PRELOAD={lib} WIP15_OUTPUT={{out}}.wip15",
        "nolz4": f"env LD_PRELOAD={lib} WIP15_COMPRESSION=none WIP15_STREAM=none WIP15_OUTPUT={{out}}.wip15",
        "notiming": f"env LD_PRELOAD={lib} WIP15_TIMING=off WIP15_OUTPUT={{out}}.wip15",
        "lz4": f"env LD_PRELOAD={lib} WIP15_STREAM=lz4 WIP15_OUTPUT={{out}}.wip15",
    }[cfg]


def one_pass(args, cfg, tmp, rnd):
    out = os.path.join(tmp, f"{cfg}-{rnd}.json")
    traces = os.path.join(tmp, f"traces-{cfg}")
    shutil.rmtree(traces, ignore_errors=True)
    cmd = [sys.executable, RUNNER, "--list", args.list, "--jobs", str(args.jobs), "--json", out,
           "--wip15", os.path.join(args.build, "src", "tools", "wip15")]
    for p in args.only:
        cmd += ["--only", p]
    if cfg == "native":
        cmd += ["--mode", "native"]
    else:
        cmd += ["--mode", "traced", "--no-verify", "--keep-traces", traces]
        if tracer_cmd(args, cfg):
            cmd += ["--tracer-cmd", tracer_cmd(args, cfg)]
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    if r.returncode not in (0, 1):
        sys.exit(f"bench/piglit: {cfg}: run_piglit.py failed ({r.returncode}):\n{r.stderr}")
    with open(out, encoding="utf-8") as f:
        doc = json.load(f)
    wtf = 0
    if os.path.isdir(traces):
        wtf = sum(os.path.getsize(os.path.join(traces, n)) for n in os.listdir(traces)
                  if n.endswith(".wtf-trace"))
    shutil.rmtree(traces, ignore_errors=True)
    key = "native" if cfg == "native" else "traced"
    results = {t["name"]: (t[key]["result"], tuple(sorted(t[key]["subtests"].items())), t[key]["end"])
               for t in doc["tests"]}
    secs = {t["name"]: t[key]["seconds"] for t in doc["tests"]}
    tcpu = {t["name"]: t[key]["cpu_seconds"] for t in doc["tests"]}
    tbytes = {t["name"]: sum(x["bytes"] for x in t[key]["traces"]) for t in doc["tests"]}
    return {"wall": doc["wall_seconds"], "cpu": cpu, "bytes": doc["trace_bytes"], "wtf": wtf,
            "results": results, "tests": len(doc["tests"]), "secs": secs, "tcpu": tcpu,
            "tbytes": tbytes}




def chunked_rounds(args, cfgs, tmp, runs):
    """--chunk K: every round runs the list K tests at a time, each chunk
    under every configuration in turn (the order rotated from chunk to
    chunk) before the next chunk, through run_piglit.py's own harness in
    this process.  A configuration's pass is the sum of its chunks, so each
    configuration is measured within seconds of the others: a drift of the
    machine over minutes (this VM's speed moves by 30 % within an hour)
    falls on all of them alike, which separate passes do not give."""
    sys.path.insert(0, os.path.dirname(RUNNER))
    import run_piglit as rp
    import concurrent.futures
    piglit_dir = rp.find_piglit(None)
    if not piglit_dir:
        sys.exit("bench/piglit: piglit is not installed")
    tests = rp.parse_list(args.list, piglit_dir)
    if args.only:
        pats = [re.compile(p) for p in args.only]
        tests = [t for t in tests if any(p.search(t.name) for p in pats)]
    rp.assign_ids(tests)
    xvfb = None
    if not os.environ.get("DISPLAY"):
        xvfb, display = rp.start_xvfb()
        if xvfb:
            os.environ["DISPLAY"] = display
    held = rp.hold_display(os.environ.get("DISPLAY"))
    harness = {}
    for c in cfgs:
        ns = argparse.Namespace(tracer_cmd=None if c == "native" else tracer_cmd(args, c),
                                wip15=os.path.join(args.build, "src", "tools", "wip15"),
                                no_verify=True, verify_cmd=None, timeout=60.0,
                                platform=os.environ.get("PIGLIT_PLATFORM") or "mixed_glx_egl",
                                verbose=False)
        tdir = os.path.join(tmp, f"traces-{c}")
        os.makedirs(tdir, exist_ok=True)
        harness[c] = (rp.Harness(ns, piglit_dir, tdir, tmp), tdir)
    chunks = [tests[i:i + args.chunk] for i in range(0, len(tests), args.chunk)]
    try:
        for rnd in range(args.rounds):
            acc = {c: {"wall": 0.0, "cpu": 0.0, "bytes": 0, "wtf": 0, "results": {}, "secs": {},
                       "tcpu": {}, "tbytes": {}, "tests": len(tests)} for c in cfgs}
            for ci, chunk in enumerate(chunks):
                k = (rnd * len(chunks) + ci) % len(cfgs)
                order = cfgs[k:] + cfgs[:k]
                if (rnd + ci) % 2:
                    order = order[::-1]
                for c in order:
                    h, tdir = harness[c]
                    traced = c != "native"
                    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t0 = time.monotonic()
                    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                        done = list(pool.map(lambda t: (t, h.run(t, traced)), chunk))
                    a = acc[c]
                    a["wall"] += time.monotonic() - t0
                    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    a["cpu"] += (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
                    for t, r in done:
                        a["results"][t.name] = (r.result, tuple(sorted(r.subtests.items())), r.end)
                        a["secs"][t.name] = r.seconds
                        a["tcpu"][t.name] = r.cpu
                        a["tbytes"][t.name] = sum(x["bytes"] for x in r.traces)
                        a["bytes"] += a["tbytes"][t.name]
                    for n in os.listdir(tdir):
                        if n.endswith(".wtf-trace"):
                            a["wtf"] += os.path.getsize(os.path.join(tdir, n))
                        os.unlink(os.path.join(tdir, n))
            for c in cfgs:
                runs[c].append(acc[c])
                print(f"round {rnd + 1}/{args.rounds} {c:8} {acc[c]['wall']:8.2f} s "
                      f"{acc[c]['bytes'] / 1e6:9.1f} MB", file=sys.stderr, flush=True)
    finally:
        rp.release_display(held, xvfb)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--list", default=os.path.join(ROOT, "tests", "piglit", "quick.list"))
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--no-apitrace", action="store_true")
    ap.add_argument("--decompose", action="store_true",
                    help="also env, late and preload (see above)")
    ap.add_argument("--configs", help="comma-separated configurations, in order (native first)")
    ap.add_argument("--top", type=int, default=0,
                    help="list the N tests with the most extra time per configuration")
    ap.add_argument("--chunk", type=int, default=0, metavar="K",
                    help="interleave the configurations K tests at a time (see chunked_rounds)")
    ap.add_argument("--save", metavar="FILE",
                    help="write every pass's per-test seconds, CPU seconds and trace bytes as JSON")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)

    cfgs = ["native", "wip15"]
    if not args.no_apitrace and shutil.which("apitrace"):
        cfgs.append("apitrace")
    if args.decompose:
        cfgs[1:1] = ["env", "late", "preload"]
    if args.configs:
        cfgs = args.configs.split(",")
        known = {"native", "wip15", "apitrace", "env", "late", "preload", "nolz4", "notiming", "lz4"}
        if cfgs[0] != "native" or not set(cfgs) <= known or len(set(cfgs)) != len(cfgs):
            sys.exit(f"bench/piglit: --configs {args.configs}: expected native first, then "
                     f"distinct names from {', '.join(sorted(known - {'native'}))}")
    tmp = tempfile.mkdtemp(prefix="w15-piglit-bench-")
    runs = {c: [] for c in cfgs}
    try:
        if args.chunk > 0:
            chunked_rounds(args, cfgs, tmp, runs)
        for rnd in range(args.rounds if args.chunk <= 0 else 0):
            # odd rounds run the configurations in reverse order, so a drift
            # of the machine over a round does not favour the first ones
            for c in (cfgs if rnd % 2 == 0 else cfgs[::-1]):
                r = one_pass(args, c, tmp, rnd)
                runs[c].append(r)
                print(f"round {rnd + 1}/{args.rounds} {c:8} {r['wall']:8.2f} s "
                      f"{r['bytes'] / 1e6:9.1f} MB", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        if args.save:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump({c: [{k: r[k] for k in ("wall", "cpu", "bytes", "wtf", "secs", "tcpu", "tbytes")}
                               for r in runs[c]] for c in cfgs}, f)

    ntests = runs["native"][0]["tests"]
    base = statistics.median(r["wall"] for r in runs["native"])
    print(f"\npiglit list: {ntests} tests, {args.jobs} jobs, {args.rounds} rounds (medians)")
    base_cpu = statistics.median(r["cpu"] for r in runs["native"])
    print(f"{'config':10} {'wall s':>8} {'x native':>9} {'rounds':>11} {'cpu s':>7} {'x native':>9}"
          f" {'trace MB':>9} {'wtf MB':>7} {'changed':>8} {'+ms/test':>9} {'+cpu ms':>8}")
    def extra(c):
        """per test: median of c's rounds - median of native's, in ms"""
        return {n: 1000 * (statistics.median(r["secs"][n] for r in runs[c]) -
                           statistics.median(r["secs"][n] for r in runs["native"]))
                for n in runs["native"][0]["secs"]}
    def per_test(c):
        """mean over the tests of extra(c)"""
        return statistics.mean(extra(c).values())
    def per_test_cpu(c):
        """mean over the tests of the CPU time a test took more than
        natively (each test's median over the rounds), in ms"""
        return statistics.mean(1000 * (statistics.median(r["tcpu"][n] for r in runs[c]) -
                                       statistics.median(r["tcpu"][n] for r in runs["native"]))
                               for n in runs["native"][0]["tcpu"])
    notes = []
    for c in cfgs:
        wall = statistics.median(r["wall"] for r in runs[c])
        size = statistics.median(r["bytes"] for r in runs[c])
        wtf = statistics.median(r["wtf"] for r in runs[c])
        diff = set()
        for r, n in zip(runs[c], runs["native"]):
            diff |= {k for k, v in r["results"].items() if n["results"].get(k) != v}
        changed = max(sum(1 for k, v in r["results"].items() if n["results"].get(k) != v)
                      for r, n in zip(runs[c], runs["native"]))
        cpu = statistics.median(r["cpu"] for r in runs[c])
        # the spread of the ratio to native's pass of the same round
        ratios = [r["wall"] / n["wall"] for r, n in zip(runs[c], runs["native"])]
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        if c == "native":
            print(f"{c:10} {wall:8.2f} {1.0:9.3f} {'-':>11} {cpu:7.2f} {1.0:9.3f} {'-':>9} {'-':>7}"
                  f" {'-':>8}")
            continue
        wtf_s = f"{wtf / 1e6:7.1f}" if c == "wip15" else f"{'-':>7}"
        print(f"{c:10} {wall:8.2f} {wall / base:9.3f} {spread:>11} {cpu:7.2f} {cpu / base_cpu:9.3f}"
              f" {size / 1e6:9.1f} {wtf_s} {changed:8d} {per_test(c):+9.2f} {per_test_cpu(c):+8.2f}")
        if diff:
            notes.append(f"{c}: results other than native's: " + ", ".join(sorted(diff)[:10])
                         + (f" (+{len(diff) - 10} more)" if len(diff) > 10 else ""))
    for n in notes:
        print(n)
    if args.top:
        for c in cfgs[1:]:
            d = extra(c)
            top = sorted(d.items(), key=lambda kv: -kv[1])[:args.top]
            total = sum(d.values())
            share = (f" ({100 * sum(v for _, v in top) / total:.0f} % of the list's extra)"
                     if total > 0.05 * sum(abs(v) for v in d.values()) else "")
            print(f"\n{c}: the {len(top)} tests with the most extra time{share}:")
            for n, v in top:
                print(f"  {v:+9.1f} ms  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
