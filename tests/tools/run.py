#!/usr/bin/env python3
"""Tests of the `wip15` reading commands (info, dump, verify, stats).

    run.py --wip15 BIN --traces DIR CASE...     run cases (CTest does this)
    run.py --wip15 BIN --mktrace BIN CASE...    same, making the traces first
    run.py --build BUILD_DIR --update [CASE...] rewrite the golden files

Golden files live in tests/tools/expected/CASE.txt: the command's standard
output, then "--- stderr ---" and its standard error when there is any,
then "--- exit N ---".  The traces directory is written as @T@, and the
reader's detail after "truncated after N complete calls at byte B" is cut.
`--list` prints every case.
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")

# name -> (arguments, ...); @T@ is the traces directory
GOLDEN = {
    "help": ["--help"],
    "dump_values": ["dump", "@T@/values.wip15"],
    "dump_values_full": ["dump", "--full", "@T@/values.wip15"],
    "dump_values_json": ["dump", "--json", "@T@/values.wip15"],
    "dump_values_marked": ["dump", "--mark-unrecorded", "--calls", "0-60", "@T@/values.wip15"],
    "dump_filters": ["dump", "--thread", "1000", "--calls", "5-40", "--no-pseudo",
                     "@T@/values.wip15"],
    "dump_frames": ["dump", "@T@/frames.wip15"],
    "dump_truncated": ["dump", "--calls", "30-", "@T@/truncated.wip15"],
    "dump_corrupt": ["dump", "--calls", "30-", "@T@/corrupt.wip15"],
    "dump_badblob": ["dump", "@T@/badblob.wip15"],
    "dump_undeclared": ["dump", "@T@/undeclared.wip15"],
    "info_values": ["info", "@T@/values.wip15"],
    "info_values_json": ["info", "--json", "@T@/values.wip15"],
    "info_frames": ["info", "@T@/frames.wip15"],
    "info_truncated": ["info", "@T@/truncated.wip15"],
    "info_corrupt": ["info", "--json", "@T@/corrupt.wip15"],
    "stats_values": ["stats", "@T@/values.wip15"],
    "stats_frames": ["stats", "@T@/frames.wip15"],
    "stats_frames_json": ["stats", "--json", "@T@/frames.wip15"],
    "stats_top": ["stats", "--top", "3", "@T@/big.wip15"],
    "stats_truncated": ["stats", "--top", "2", "@T@/truncated.wip15"],
    "verify_good": ["verify", "@T@/values.wip15", "@T@/frames.wip15", "@T@/big.wip15",
                    "@T@/floats.wip15"],
    "verify_truncated": ["verify", "@T@/truncated.wip15"],
    "verify_corrupt": ["verify", "@T@/corrupt.wip15"],
    "verify_badblob": ["verify", "@T@/badblob.wip15"],
    "verify_badptr": ["verify", "@T@/badptr.wip15"],
    "verify_undeclared": ["verify", "@T@/undeclared.wip15"],
    "verify_quiet": ["verify", "-q", "@T@/values.wip15", "@T@/corrupt.wip15"],
    "verify_missing": ["verify", "@T@/no-such-file.wip15"],
}

# exit status of each verify on its own
VERIFY_CODES = {
    "values.wip15": 0, "frames.wip15": 0, "big.wip15": 0, "floats.wip15": 0,
    "truncated.wip15": 1, "corrupt.wip15": 1, "badblob.wip15": 1, "badptr.wip15": 1,
    "undeclared.wip15": 1, "no-such-file.wip15": 1,
}

USAGE_CODES = [
    ([], 2),
    (["--help"], 0),
    (["help"], 0),
    (["--version"], 0),
    (["no-such-command"], 2),
    (["--bogus"], 2),
    (["help", "no-such-command"], 2),
    (["dump"], 2),
    (["dump", "--bogus", "@T@/values.wip15"], 2),
    (["dump", "@T@/values.wip15", "@T@/values.wip15"], 2),
    (["dump", "--calls", "9-3", "@T@/values.wip15"], 2),
    (["dump", "--calls", "x", "@T@/values.wip15"], 2),
    (["dump", "--thread", "-1", "@T@/values.wip15"], 2),
    (["info"], 2),
    (["info", "--bogus", "@T@/values.wip15"], 2),
    (["stats"], 2),
    (["stats", "--top", "many", "@T@/values.wip15"], 2),
    (["verify"], 2),
    (["verify", "-x", "@T@/values.wip15"], 2),
]
COMMANDS = ["info", "dump", "verify", "stats"]


class Fail(Exception):
    pass


def run(ctx, args, **kw):
    argv = [ctx.wip15] + [a.replace("@T@", ctx.traces) for a in args]
    return subprocess.run(argv, capture_output=True, timeout=120, **kw)


def render(ctx, p):
    out = p.stdout.decode("utf-8", "backslashreplace")
    err = p.stderr.decode("utf-8", "backslashreplace")
    text = out
    if err:
        text += "--- stderr ---\n" + err
    text += "--- exit %d ---\n" % p.returncode
    text = text.replace(ctx.traces, "@T@")
    # the spec fixes "truncated after N complete calls at byte B"; the
    # reader may add detail after it, which these tests do not pin down
    return re.sub(r"(truncated after \d+ complete calls at byte \d+)[^\n\"]*", r"\1", text)


def golden(ctx, name):
    p = run(ctx, GOLDEN[name])
    text = render(ctx, p)
    path = os.path.join(EXPECTED, name + ".txt")
    if ctx.update:
        os.makedirs(EXPECTED, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        print("updated", path)
        return
    try:
        with open(path) as f:
            want = f.read()
    except FileNotFoundError:
        raise Fail("no golden file %s (run with --update)" % path)
    if text != want:
        import difflib
        diff = difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                    "expected/" + name + ".txt", "actual")
        raise Fail("output differs:\n" + "".join(diff))


def strict_json(line):
    def bad_constant(c):
        raise ValueError("non-standard JSON constant " + c)
    return json.loads(line, parse_constant=bad_constant)


def check_json_lines(ctx, args, expect_lines=None):
    p = run(ctx, args)
    if p.returncode != 0:
        raise Fail("%s: exit %d: %s" % (args, p.returncode, p.stderr.decode()))
    # RFC 8259: JSON text is UTF-8
    text = p.stdout.decode("utf-8")
    lines = text.splitlines()
    if expect_lines is not None and len(lines) != expect_lines:
        raise Fail("%s: %d lines, expected %d" % (args, len(lines), expect_lines))
    objs = []
    for i, line in enumerate(lines):
        try:
            objs.append(strict_json(line))
        except ValueError as e:
            raise Fail("%s: line %d is not JSON (%s): %s" % (args, i + 1, e, line[:200]))
    if shutil.which("jq"):
        q = subprocess.run(["jq", "-c", "."], input=p.stdout, capture_output=True)
        if q.returncode != 0:
            raise Fail("jq rejects %s: %s" % (args, q.stderr.decode()))
    return objs


def case_json_valid(ctx):
    calls = check_json_lines(ctx, ["dump", "--json", "@T@/values.wip15"])
    check_json_lines(ctx, ["dump", "--json", "--full", "@T@/frames.wip15"])
    check_json_lines(ctx, ["dump", "--json", "@T@/floats.wip15"], 2)
    check_json_lines(ctx, ["info", "--json", "@T@/values.wip15"], 1)
    check_json_lines(ctx, ["stats", "--json", "@T@/values.wip15"], 1)
    check_json_lines(ctx, ["stats", "--json", "@T@/frames.wip15"], 1)
    # spot checks of the documented shapes
    by_fn = {}
    for c in calls:
        by_fn.setdefault(c["function"], []).append(c)
    en = by_fn["glEnable"][0]["args"][0]
    if en != {"value": 0x0B71, "name": "GL_DEPTH_TEST"}:
        raise Fail("glEnable arg: %r" % en)
    cl = by_fn["glClear"][0]["args"][0]
    if cl["name"] != "GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT":
        raise Fail("glClear arg: %r" % cl)
    ts = by_fn["testStrings"][0]
    if ts["args"][0] != {"hex": "61017f80ff007a"} or ts["args"][2] is not None:
        raise Fail("testStrings args: %r" % ts["args"])
    if ts["args"][1] != "gr\u00fc\u00df dich \u20ac":
        raise Fail("testStrings utf-8: %r" % ts["args"][1])
    bd = by_fn["glBufferData"][0]["args"][2]
    if bd["size"] != 65536 or bd["method"] != "lz4" or bd["head"] != "00010203":
        raise Fail("glBufferData blob: %r" % bd)
    threads = {c["thread"] for c in calls}
    if threads != {None, 1000, 1001}:
        raise Fail("threads: %r" % threads)


def xxh3_64(data):
    """64-bit XXH3 (seed 0) of `data`, computed by libxxhash itself through
    ctypes: an oracle independent of the tool's own call."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("xxhash") or "libxxhash.so.0"
    try:
        lib = ctypes.CDLL(name)
    except OSError as e:
        raise Fail("cannot load libxxhash (%s): %s" % (name, e))
    lib.XXH3_64bits.restype = ctypes.c_uint64
    lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    return "%016x" % lib.XXH3_64bits(data, len(data))


def case_blob_digest(ctx):
    """Every blob's digest is XXH3 of its whole decompressed content, in the
    text and the JSON dump: a change of the last byte of a blob changes the
    line."""
    big = bytes(i & 0xff for i in range(65536))
    small = bytes(range(1, 13))
    want = {
        "glBufferData": [xxh3_64(big), xxh3_64(small)],
        "testExtra": [xxh3_64(b"abc")],
    }
    if xxh3_64(big) == xxh3_64(big[:-1] + bytes([big[-1] ^ 1])):
        raise Fail("the oracle does not see the last byte")
    calls = check_json_lines(ctx, ["dump", "--json", "@T@/values.wip15"])
    got = {}
    for c in calls:
        for a in c["args"]:
            if isinstance(a, dict) and "size" in a and "stored" in a:
                got.setdefault(c["function"], []).append(a.get("xxh3"))
        for x in c.get("extras", []):
            if x["name"] == "test.last" and x["data"].get("xxh3") != xxh3_64(b"12345678"):
                raise Fail("extra test.last: %r" % x)
    for fn, digests in want.items():
        if got.get(fn) != digests:
            raise Fail("json %s blobs: digests %r, expected %r" % (fn, got.get(fn), digests))
    text = run(ctx, ["dump", "@T@/values.wip15"]).stdout.decode()
    for line in ("<data 65536 bytes, lz4 522, 00 01 02 03 ..., xxh3 %s>" % xxh3_64(big),
                 "<data 12 bytes, 01 02 03 04 ..., xxh3 %s>" % xxh3_64(small),
                 "testExtra(<data 3 bytes, 61 62 63, xxh3 %s>)" % xxh3_64(b"abc"),
                 '["odd name\\n"=<data 0 bytes>]'):
        if line not in text:
            raise Fail("missing %r in the text dump" % line)


def case_pipe_head(ctx):
    """`wip15 dump big.wip15 | head -1` ends quietly with status 0."""
    argv = [ctx.wip15, "dump", os.path.join(ctx.traces, "big.wip15")]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()  # like head -1 exiting
    err = p.stderr.read()
    rc = p.wait(timeout=120)
    if not first.startswith(b"0 wip15ThreadSwitch("):
        raise Fail("first line: %r" % first)
    if rc != 0 or err:
        raise Fail("exit %d, stderr %r" % (rc, err))
    # and through a real shell pipeline with head
    sh = subprocess.run(["bash", "-c", 'set -o pipefail; "$0" dump "$1" | head -1',
                         ctx.wip15, os.path.join(ctx.traces, "big.wip15")],
                        capture_output=True, timeout=120)
    if sh.returncode != 0 or sh.stderr or sh.stdout.count(b"\n") != 1:
        raise Fail("sh pipeline: exit %d, stderr %r" % (sh.returncode, sh.stderr))
    # a write error other than a closed pipe is an error
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            q = subprocess.run([ctx.wip15, "dump", os.path.join(ctx.traces, "big.wip15")],
                               stdout=full, stderr=subprocess.PIPE, timeout=120)
        if q.returncode != 1 or b"write error" not in q.stderr:
            raise Fail("/dev/full: exit %d, stderr %r" % (q.returncode, q.stderr))


def load_bits(ctx):
    fl, db = [], []
    with open(os.path.join(ctx.traces, "floats.txt")) as f:
        for line in f:
            k, h = line.split()
            (fl if k == "f" else db).append(int(h, 16))
    return fl, db


def f32_bits(s):
    return struct.unpack("<I", struct.pack("<f", float(s)))[0]


def f64_bits(s):
    return struct.unpack("<Q", struct.pack("<d", float(s)))[0]


def case_float_roundtrip(ctx):
    fl, db = load_bits(ctx)
    p = run(ctx, ["dump", "--full", "@T@/floats.wip15"])
    if p.returncode != 0:
        raise Fail("dump: exit %d" % p.returncode)
    lines = p.stdout.decode().splitlines()
    got = {}
    for line in lines:
        idx, rest = line.split(" ", 1)
        fn, args = rest.split("(", 1)
        inner = args[args.index("{") + 1:args.rindex("}")]
        got[fn] = inner.split(", ")
    for name, want, conv, width in (("testFloats", fl, f32_bits, 9),
                                    ("testDoubles", db, f64_bits, 17)):
        vals = got[name]
        if len(vals) != len(want):
            raise Fail("%s: %d values, expected %d" % (name, len(vals), len(want)))
        for i, (s, w) in enumerate(zip(vals, want)):
            if conv(s) != w:
                raise Fail("%s[%d]: %s reads back as %x, expected %x" % (name, i, s, conv(s), w))
            digits = len(s.lstrip("-").split("e")[0].replace(".", "").lstrip("0"))
            exact_int = s.lstrip("-").isdigit() and float(s) == float(int(s))
            if digits > width and not exact_int:
                raise Fail("%s[%d]: %s is longer than needed" % (name, i, s))
    # the same through JSON
    objs = check_json_lines(ctx, ["dump", "--json", "@T@/floats.wip15"], 2)
    for obj, want, conv in ((objs[0], fl, f32_bits), (objs[1], db, f64_bits)):
        for i, (x, w) in enumerate(zip(obj["args"][0], want)):
            if conv(repr(x)) != w:
                raise Fail("json %s[%d]: %r, expected %x" % (obj["function"], i, x, w))
    # spelled values of values.wip15
    p = run(ctx, ["dump", "@T@/values.wip15"])
    text = p.stdout.decode()
    for want in ("glClearColor(0.1, 0.33333334, -0, 1e-45)",
                 "glClearColor(inf, -inf, nan, nan(0x1))",
                 "glClearColor(16777216, 3.4028235e+38, 1e-10, 100)",
                 "glDepthRange(0.1, 0.3333333333333333)",
                 "glDepthRange(-0, -nan)",
                 "glDepthRange(5e-324, 1e+300)"):
        if want not in text:
            raise Fail("missing %r in dump" % want)


def case_verify_codes(ctx):
    for name, code in VERIFY_CODES.items():
        p = run(ctx, ["verify", "@T@/" + name])
        if p.returncode != code:
            raise Fail("verify %s: exit %d, expected %d" % (name, p.returncode, code))
        out = p.stdout.decode()
        if code == 0 and not (out.startswith("%s/%s: ok, " % (ctx.traces, name)) and
                              out.endswith(" calls\n") and out.count("\n") == 1):
            raise Fail("verify %s: %r" % (name, out))
        if code and not p.stderr.startswith(b"wip15: verify: "):
            raise Fail("verify %s: stderr %r" % (name, p.stderr))
        q = run(ctx, ["verify", "-q", "@T@/" + name])
        if q.returncode != code or q.stdout or q.stderr:
            raise Fail("verify -q %s: exit %d, output %r %r" % (name, q.returncode, q.stdout,
                                                                  q.stderr))
    # the other readers: a truncated trace is readable (0), a corrupt one is not (1)
    for cmd in (["dump"], ["info"], ["stats"], ["dump", "--json"]):
        for name, code in (("truncated.wip15", 0), ("corrupt.wip15", 1),
                           ("badblob.wip15", 1 if cmd[0] == "dump" else 0),
                           ("no-such-file.wip15", 1)):
            p = run(ctx, cmd + ["@T@/" + name])
            if p.returncode != code:
                raise Fail("%s %s: exit %d, expected %d" % (cmd, name, p.returncode, code))


def case_usage_codes(ctx):
    for args, code in USAGE_CODES:
        p = run(ctx, args)
        if p.returncode != code:
            raise Fail("wip15 %s: exit %d, expected %d" % (" ".join(args), p.returncode, code))
        if code == 2 and not p.stderr:
            raise Fail("wip15 %s: usage error without a message" % " ".join(args))
    for cmd in COMMANDS:
        for args in ([cmd, "--help"], [cmd, "-h"], ["help", cmd]):
            p = run(ctx, args)
            if p.returncode != 0 or not p.stdout.startswith(b"usage: wip15 " + cmd.encode()):
                raise Fail("wip15 %s: exit %d, %r" % (" ".join(args), p.returncode,
                                                      p.stdout[:60]))
    p = run(ctx, ["--help"])
    for cmd in COMMANDS + ["trace", "frames", "export", "wtf-json"]:
        if ("\n   %s " % cmd).encode() not in p.stdout:
            raise Fail("--help does not list %s" % cmd)


CHECKS = {
    "blob_digest": case_blob_digest,
    "json_valid": case_json_valid,
    "pipe_head": case_pipe_head,
    "float_roundtrip": case_float_roundtrip,
    "verify_codes": case_verify_codes,
    "usage_codes": case_usage_codes,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wip15")
    ap.add_argument("--traces")
    ap.add_argument("--mktrace")
    ap.add_argument("--build", help="build directory (finds wip15 and mktrace)")
    ap.add_argument("--update", action="store_true", help="rewrite golden files")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("cases", nargs="*")
    ctx = ap.parse_args()
    if ctx.list:
        print("\n".join(sorted(GOLDEN) + sorted(CHECKS)))
        return 0
    if ctx.build:
        ctx.wip15 = ctx.wip15 or os.path.join(ctx.build, "src/tools/wip15")
        ctx.mktrace = ctx.mktrace or os.path.join(ctx.build, "tests/tools/mktrace")
    if not ctx.wip15:
        ap.error("--wip15 or --build is needed")
    tmp = None
    if not ctx.traces:
        if not ctx.mktrace:
            ap.error("--traces or --mktrace is needed")
        tmp = tempfile.mkdtemp(prefix="wip15-tools-")
        subprocess.run([ctx.mktrace, tmp], check=True)
        ctx.traces = tmp
    ctx.traces = os.path.abspath(ctx.traces)
    cases = ctx.cases or (sorted(GOLDEN) if ctx.update else sorted(GOLDEN) + sorted(CHECKS))
    failed = 0
    try:
        for name in cases:
            try:
                if name in GOLDEN:
                    golden(ctx, name)
                elif name in CHECKS:
                    if ctx.update:
                        continue
                    CHECKS[name](ctx)
                else:
                    raise Fail("unknown case")
                if not ctx.update:
                    print("ok", name)
            except Fail as e:
                failed += 1
                print("FAIL %s: %s" % (name, e))
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
