#!/usr/bin/env python3
"""Builds tests/piglit/quick.list from piglit's own profiles.

Two steps (README.md, "How the list was chosen"):

  make_list.py candidates [--piglit-dir DIR] > cand.list
      Every test of the quick_gl and quick_shader profiles that falls in one
      of the CATEGORIES below (large groups sampled evenly), as a list
      run_piglit.py reads, with the command line piglit itself would run
      (-auto, -fbo as its framework adds them).

  make_list.py select --results R1.json [--results R2.json ...]
                      --traces DIR > quick.list
      From runs of the candidates (run_piglit.py --json, --keep-traces
      DIR; at least two, so that tests whose native result changes from
      run to run are seen): keeps the tests that ran natively with a
      result other than skip, the same result every time, within
      --max-seconds; takes every test of the "all" categories, then adds
      tests in order of the new GL/GLX/EGL entry points their traces call
      per second, up to the category's share (CATEGORIES).  The API column
      (gl or egl) comes from the trace: egl when it made EGL calls.

  make_list.py sample [--n N] [--shader-runner M] [--seed S] > wide.list
      A random sample of the tests of the same profiles that quick.list
      does not hold (N programs and M shader_runner files; defaults 500
      and 200, seed 20261124), for a wider check than CI runs:
      run_piglit.py --list wide.list, piglit_replay.py --list wide.list
      (README.md, "A wider sample").

Python standard library only; the wip15 command is used for `wip15 stats`.
"""

import argparse
import ast
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
PROFILES = ("quick_gl", "quick_shader")

# (category, regex searched in the test name, candidates, keep).  A test
# belongs to the first category whose regex it matches.  candidates: how
# many of the category's tests `candidates` lists (None: all; else that
# many, evenly spaced in name order); keep: how many of those that run
# `select` keeps (None: every one; else that many, chosen for the GL
# entry points they add, see cmd_select).
CATEGORIES = [
    ("errors", r"error", None, None),
    ("query buffer objects", r"@arb_query_buffer_object@", None, None),
    ("persistent and coherent maps", r"@arb_buffer_storage@", None, None),
    ("map buffer range", r"@arb_map_buffer_range@|@arb_map_buffer_alignment@", None, None),
    ("64-bit vertex attributes (programs)", r"^spec@arb_vertex_attrib_64bit@[^@]*$", None, None),
    ("64-bit vertex attributes (shader_runner vs_in)", r"^spec@arb_vertex_attrib_64bit@execution@vs_in@",
     40, 16),
    ("64-bit vertex attributes (shader_runner)", r"^spec@arb_vertex_attrib_64bit@", 10, None),
    ("buffer objects",
     r"@(arb_vertex_buffer_object|arb_copy_buffer|arb_clear_buffer_object|arb_pixel_buffer_object"
     r"|arb_invalidate_subdata|arb_sparse_buffer|amd_pinned_memory|!opengl 1\.5|arb_texture_buffer_object"
     r"|arb_texture_buffer_range|apple_object_purgeable)@|^security@initialized-vbo"
     r"|^spec@arb_direct_state_access@.*buffer", None, 50),
    ("uniform and storage buffers",
     r"^spec@(arb_uniform_buffer_object|arb_shader_storage_buffer_object)@[^@]*$", None, 20),
    ("vertex arrays and client arrays",
     r"@(arb_vertex_array_object|apple_vertex_array_object|arb_vertex_array_bgra|ext_vertex_array_bgra"
     r"|arb_vertex_attrib_binding|arb_instanced_arrays|arb_draw_instanced|ext_draw_instanced"
     r"|arb_draw_elements_base_vertex|oes_draw_elements_base_vertex|arb_draw_indirect|arb_multi_draw_indirect"
     r"|arb_indirect_parameters|arb_base_instance|ext_base_instance|arb_vertex_type_2_10_10_10_rev"
     r"|arb_vertex_type_10f_11f_11f_rev|arb_half_float_vertex|oes_vertex_half_float|nv_primitive_restart"
     r"|arb_shader_draw_parameters|ext_direct_state_access|arb_vertex_program)@[^@]*$"
     r"|^spec@!opengl [0-9.]+@.*(draw|array|vertex|attrib|elements|vbo|dlist|stride|primitive-restart)",
     None, 70),
    ("readpixels", r"read-?pix", 30, 15),
    ("GLES 2/3 (programs)", r"_gles[123]\b|@!opengl es [23]\.0@|@oes_|@ext_texture_format_bgra8888@", 80, 40),
    ("GLES 3 (shader_runner)", r"^spec@glsl-es-3\.[01]0@execution@", 15, 8),
    ("EGL", r"^spec@egl", None, None),
    ("GLX", r"^glx@", 40, None),
    ("textures",
     r"tex|@(arb_texture_[a-z0-9_]+|ext_texture_[a-z0-9_]+|arb_copy_image|arb_clear_texture"
     r"|arb_sampler_objects|arb_depth_texture|arb_seamless_cube_map|arb_get_texture_sub_image)@", 160, 40),
    ("framebuffers", r"@(ext_framebuffer_object|arb_framebuffer_object|ext_framebuffer_blit)@|fbo", 60, 15),
    ("queries, sync, transform feedback, debug",
     r"@(arb_occlusion_query2?|arb_timer_query|ext_timer_query|arb_pipeline_statistics_query|arb_sync"
     r"|ext_transform_feedback2?|arb_transform_feedback[23]|khr_debug|arb_debug_output"
     r"|nv_conditional_render)@", 60, 20),
    ("shaders (programs)", r"^shaders@|@(arb_separate_shader_objects|arb_program_interface_query"
     r"|arb_get_program_binary|arb_shader_subroutine|arb_explicit_uniform_location|arb_shader_objects"
     r"|arb_fragment_program|ati_fragment_shader|arb_shader_atomic_counters|arb_compute_shader"
     r"|arb_shader_image_load_store)@[^@]*$", 120, 30),
    ("shaders (shader_runner)",
     r"^spec@(glsl-1\.[1-5]0|glsl-[34]\.[0-4]0|arb_gpu_shader_fp64|arb_gpu_shader_int64|arb_compute_shader"
     r"|arb_tessellation_shader|arb_uniform_buffer_object|arb_shader_storage_buffer_object"
     r"|arb_separate_shader_objects)@(execution|linker|uniform_buffer)", 120, 30),
    ("legacy GL (1.x)", r"^spec@!opengl 1\.[0-5]@", 60, 15),
    ("GL 2.0 to 4.5", r"^spec@!opengl [234]\.[0-9]@", 60, 15),
    ("other extensions", r"^spec@", 120, 25),
]

# Tests that pass or fail with the machine's load, not with GL: never
# candidates, never selected (name regex, why).
EXCLUDE = [
    (r"@arb_timer_query@timestamp-get$", "fails when GL_TIMESTAMP drifts > 3 ms/s from the wall clock (load)"),
]


def excluded(name):
    return any(re.search(rx, name) for rx, _ in EXCLUDE)


def profile_tests(piglit_dir):
    """Yields (name, env, words) for every test of PROFILES, words being the
    command as piglit's framework runs it, the program relative to bin/ and
    files relative to piglit's directory."""
    for prof in PROFILES:
        path = os.path.join(piglit_dir, "tests", prof + ".xml.gz")
        root = ET.parse(gzip.open(path)).getroot()
        for t in root:
            opts = {o.get("name"): o.get("value") for o in t.findall("option")}
            cmd = ast.literal_eval(opts["command"])
            env = {e.get("name"): e.get("value") for e in t.iter("env")}
            kind = t.get("type")
            if kind == "shader":
                words = [cmd[0], cmd[1], "-auto", "-fbo"]
            elif kind == "gl_builtin":
                words = [cmd[0], "tests/" + cmd[1]] + cmd[2:]
            elif kind == "gl":
                concurrent = opts.get("run_concurrent") == "True"
                words = cmd + (["-auto", "-fbo"] if concurrent else ["-auto"])
            else:
                continue
            if "glx" in (opts.get("exclude_platforms") or ""):
                pass  # EGL tests: run on X11 EGL under mixed_glx_egl
            yield t.get("name"), env, words


def quote(w):
    return w if re.match(r"^[A-Za-z0-9_./=:,+@%-]+$", w) else "'" + w.replace("'", "'\\''") + "'"


def list_line(name, api, env, words):
    return "\t".join([name, api, " ".join([f"{k}={quote(v)}" for k, v in env.items()]
                                           + [quote(w) for w in words])])


def guess_api(name, words):
    if name.startswith("spec@egl") or re.search(r"_gles[123]\b|^shader_runner_gles|gles", words[0]):
        return "egl"
    if "@!opengl es" in name or "@glsl-es-" in name:
        return "egl"
    return "gl"


def evenly(items, n):
    if n is None or len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def cmd_candidates(args):
    piglit_dir = args.piglit_dir
    by_cat = {c[0]: [] for c in CATEGORIES}
    seen_cmd = set()
    for name, env, words in profile_tests(piglit_dir):
        key = tuple(words) + tuple(sorted(env.items()))
        if key in seen_cmd or excluded(name):   # the same command under two names
            continue
        seen_cmd.add(key)
        for cat, rx, _, _ in CATEGORIES:
            if re.search(rx, name):
                by_cat[cat].append((name, env, words))
                break
    out = sys.stdout
    out.write("# candidates (make_list.py candidates)\n")
    for cat, _, cap, _ in CATEGORIES:
        tests = evenly(sorted(by_cat[cat]), cap)
        out.write(f"# category: {cat} ({len(tests)} of {len(by_cat[cat])})\n")
        for name, env, words in tests:
            out.write(list_line(name, guess_api(name, words), env, words) + "\n")
    return 0


def cmd_sample(args):
    import random
    have = set()
    with open(os.path.join(HERE, "quick.list")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                have.add(line.split("\t")[0])
    seen_cmd, runner, other = set(), [], []
    for name, env, words in profile_tests(args.piglit_dir):
        key = tuple(words) + tuple(sorted(env.items()))
        if key in seen_cmd or name in have or excluded(name):
            continue
        seen_cmd.add(key)
        (runner if words[0].startswith("shader_runner") else other).append((name, env, words))
    rnd = random.Random(args.seed)
    pick = rnd.sample(other, min(args.n, len(other))) + rnd.sample(runner, min(args.shader_runner, len(runner)))
    out = sys.stdout
    out.write(f"# sample (make_list.py sample --n {args.n} --shader-runner {args.shader_runner} --seed {args.seed}):"
              f" tests of {', '.join(PROFILES)} not in quick.list ({len(other)} programs, {len(runner)}"
              f" shader_runner files)\n")
    for name, env, words in sorted(pick):
        out.write(list_line(name, guess_api(name, words), env, words) + "\n")
    return 0


def trace_functions(wip15, paths):
    """The set of functions `wip15 stats` lists for these traces."""
    funcs = set()
    for p in paths:
        try:
            out = subprocess.run([wip15, "stats", p], capture_output=True, text=True,
                                 timeout=120).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        in_table = False
        for line in out.splitlines():
            if line.startswith("functions:"):
                in_table = True
                continue
            if in_table:
                f = line.split()
                if not f:
                    in_table = False
                elif f[-1].startswith(("gl", "egl", "glX")) and f[0].isdigit():
                    funcs.add(f[-1])
    return funcs


def cmd_select(args):
    runs = []
    for path in args.results:
        with open(path, encoding="utf-8") as f:
            runs.append(json.load(f))
    # category of each candidate, from the candidates file's comments
    cat_of, line_of, order = {}, {}, []
    cat = None
    with open(args.candidates, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^# category: (.*) \(\d+ of \d+\)$", line)
            if m:
                cat = m.group(1)
                continue
            if not line or line.startswith("#"):
                continue
            name = line.split("\t")[0]
            cat_of[name], line_of[name] = cat, line
            order.append(name)
    keep = {c[0]: c[3] for c in CATEGORIES}

    # per test: native results of every run, seconds, trace files
    info = {}
    for r in runs:
        for t in r["tests"]:
            d = info.setdefault(t["name"], {"results": [], "seconds": [], "traced": [], "id": t["id"]})
            if t["native"]:
                n = t["native"]
                if "XOpenDisplay failed" in n["stderr_tail"]:
                    # the X server was resetting (run_piglit.py now holds a
                    # connection so that it cannot): no information
                    d["lost"] = d.get("lost", 0) + 1
                    continue
                d["results"].append((n["result"], tuple(sorted(n["subtests"].items())), n["end"]))
                d["seconds"].append(n["seconds"])
            if t["traced"]:
                d["traced"].append(t["traced"])
    dropped = {"skip": 0, "unstable": 0, "slow": 0, "no result": 0, "not run": 0}
    usable = []
    for name in order:
        d = info.get(name)
        if excluded(name):
            dropped["excluded"] = dropped.get("excluded", 0) + 1
            continue
        if not d or len(d["results"]) + d.get("lost", 0) < len(runs) or len(d["results"]) < 2:
            dropped["not run"] += 1
            continue
        res = d["results"]
        if any(x != res[0] for x in res):
            dropped["unstable"] += 1
            continue
        result, subtests, end = res[0]
        if result is None:
            dropped["no result"] += 1
            continue
        if result == "skip":
            dropped["skip"] += 1
            continue
        if statistics.median(d["seconds"]) > args.max_seconds or end == "timeout":
            dropped["slow"] += 1
            continue
        usable.append(name)

    # entry points and API from the traces
    funcs, api = {}, {}
    for name in usable:
        tid = info[name]["id"]
        paths = [os.path.join(args.traces, n) for n in os.listdir(args.traces)
                 if re.match(r"^" + re.escape(tid) + r"(\.\d+)?\.wip15$", n)]
        fs = trace_functions(args.wip15, paths)
        funcs[name] = fs
        api[name] = "egl" if any(f.startswith("egl") for f in fs) else "gl"

    # Every usable test of the categories kept whole; then, category by
    # category in CATEGORIES order, up to `keep` tests: each time the one
    # that adds the most entry points not yet covered per second of run
    # time, and once no test adds any, the rest evenly spaced in name order.
    secs = {n: statistics.median(info[n]["seconds"]) for n in usable}
    chosen, covered = [], set()
    for c in [c[0] for c in CATEGORIES]:
        pool = [n for n in usable if cat_of[n] == c]
        if keep[c] is None or len(pool) <= keep[c]:
            picked = pool
        else:
            picked = []
            while pool and len(picked) < keep[c]:
                best = max(pool, key=lambda n: len(funcs[n] - covered) / (secs[n] + 0.05))
                if not funcs[best] - covered:
                    break
                pool.remove(best)
                picked.append(best)
                covered |= funcs[best]
            picked += evenly(pool, keep[c] - len(picked))
        for n in picked:
            covered |= funcs[n]
        chosen += picked
    spent = sum(secs[n] for n in chosen)

    out = sys.stdout
    out.write("# tests/piglit/quick.list: piglit tests run natively and under the tracer\n"
              "# (run_piglit.py; README.md says how this list was made and how to edit it).\n"
              "# NAME<TAB>API (gl: GLX or no window system; egl)<TAB>COMMAND (program in\n"
              "# piglit's bin/, files relative to piglit's directory)\n")
    out.write(f"# {len(chosen)} tests, {spent:.0f} s natively one by one on the machine that made it, "
              f"{len(covered)} distinct GL/GLX/EGL entry points; dropped from "
              f"{len(order)} candidates: " + ", ".join(f"{v} {k}" for k, v in dropped.items()) + "\n")
    chosen_set = set(chosen)
    for c in [c[0] for c in CATEGORIES]:
        names = [n for n in order if n in chosen_set and cat_of[n] == c]
        if not names:
            continue
        out.write(f"\n# category: {c} ({len(names)})\n")
        for n in names:
            name, _, rest_ = line_of[n].split("\t", 2)
            out.write("\t".join([name, api[n], rest_]) + "\n")
    print(f"make_list: {len(chosen)} tests, {spent:.1f} s, {len(covered)} entry points", file=sys.stderr)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("candidates")
    c.add_argument("--piglit-dir", default="/usr/lib/x86_64-linux-gnu/piglit")
    s = sub.add_parser("select")
    s.add_argument("--candidates", required=True)
    s.add_argument("--results", action="append", required=True)
    s.add_argument("--traces", required=True)
    s.add_argument("--wip15", default=os.environ.get("WIP15") or
                   os.path.join(SOURCE_ROOT, "build", "src", "tools", "wip15"))
    s.add_argument("--max-seconds", type=float, default=3.0,
                   help="drop tests slower than this natively")
    w = sub.add_parser("sample")
    w.add_argument("--piglit-dir", default="/usr/lib/x86_64-linux-gnu/piglit")
    w.add_argument("--n", type=int, default=500)
    w.add_argument("--shader-runner", type=int, default=200)
    w.add_argument("--seed", type=int, default=20261124)
    args = ap.parse_args()
    return {"candidates": cmd_candidates, "select": cmd_select, "sample": cmd_sample}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
