#!/usr/bin/env python3
"""The compile cache from the command line, across processes.

    cache_cli_test.py TEST SPIRV2LLVM SOURCE_DIR

TEST is one of
  concurrent  8 `spirv2llvm run` processes with one key and an empty cache
              at once: all succeed with the right results, the cache ends
              with one valid entry, no temporary file left, and the next
              run hits.
  amber       `spirv2llvm amber` with --cache-dir: compute and graphics
              scripts pass on a miss and on the hit that follows (-v says
              "loaded from the compile cache"), and through
              SPIRV2LLVM_CACHE_DIR.
  stale-temp  a temporary file a dead writer left an hour ago is removed
              by the next store; a recent one (a writer at work) is not.
Exits non-zero with a message on the first failure.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time


def fail(msg):
    sys.exit("FAIL: " + msg)


def saxpy_cmd(bin_, src, cache, dump):
    return [bin_, "run", os.path.join(src, "shaders/examples/saxpy.spvasm"),
            "--buffer", "0:4096:init=iota_f32", "--buffer",
            "1:4096:init=iota_f32", "--push-f32", "2", "--push-u32", "1024",
            "--dispatch", "16", "-q", "--dump", "1:" + dump,
            "--cache-dir", cache]


def check_saxpy(dump):
    with open(dump, "rb") as f:
        y = struct.unpack("<1024f", f.read())
    want = [3.0 * i for i in range(1024)]
    if list(y) != want:
        bad = next(i for i in range(1024) if y[i] != want[i])
        fail("%s: element %d is %r, want %r" % (dump, bad, y[bad], want[bad]))


def cache_field(out):
    m = re.search(r" cache=(\w+)\n", out)
    return m.group(1) if m else None


def test_concurrent(bin_, src, tmp):
    cache = os.path.join(tmp, "cache")
    n = 8
    procs = [subprocess.Popen(saxpy_cmd(bin_, src, cache,
                                        os.path.join(tmp, "y%d.bin" % i)),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for i in range(n)]
    outs = [p.communicate() for p in procs]
    for i, (p, (out, err)) in enumerate(zip(procs, outs)):
        if p.returncode != 0:
            fail("process %d exited %d: %s" % (i, p.returncode, err))
        if err:
            fail("process %d warned: %s" % (i, err))
        if cache_field(out) not in ("hit", "miss"):
            fail("process %d: %r" % (i, out))
        check_saxpy(os.path.join(tmp, "y%d.bin" % i))
    files = os.listdir(cache)
    entries = [f for f in files if f.endswith(".s2lc")]
    if len(entries) != 1 or len(files) != 1:
        fail("expected one entry and nothing else, found %r" % files)
    out = subprocess.run(saxpy_cmd(bin_, src, cache,
                                   os.path.join(tmp, "after.bin")),
                         capture_output=True, text=True, check=True).stdout
    if cache_field(out) != "hit":
        fail("the run after the concurrent ones did not hit: %r" % out)
    check_saxpy(os.path.join(tmp, "after.bin"))
    print("8 concurrent writers: ok (%d hit)" %
          sum(cache_field(o) == "hit" for o, _ in outs))


def run_amber(bin_, args, env=None):
    r = subprocess.run([bin_, "amber", "-v"] + args, capture_output=True,
                       text=True, env=env)
    if r.returncode != 0:
        fail("amber %r exited %d:\n%s%s" % (args, r.returncode, r.stdout,
                                            r.stderr))
    return r


def test_amber(bin_, src, tmp):
    scripts = [os.path.join(src, "tests/amber/scripts", s)
               for s in ("compute-specialize.amber", "draw-fragcoord.amber")]
    cache = os.path.join(tmp, "cache")
    first = run_amber(bin_, ["--cache-dir", cache] + scripts)
    if "loaded from the compile cache" in first.stderr:
        fail("a hit in an empty cache:\n" + first.stderr)
    stored = [f for f in os.listdir(cache) if f.endswith(".s2lc")]
    # compute-specialize: two specializations of one compute shader;
    # draw-fragcoord: a vertex and a fragment shader (or only a fragment
    # shader with a passthrough vertex stage).
    if len(stored) < 3:
        fail("expected at least 3 entries, found %r" % stored)
    second = run_amber(bin_, ["--cache-dir", cache] + scripts)
    hits = second.stderr.count("loaded from the compile cache")
    if hits < len(stored):
        fail("%d hits for %d entries:\n%s" % (hits, len(stored),
                                               second.stderr))
    if second.stdout.count("PASS") != 2:
        fail(second.stdout)
    env = dict(os.environ, SPIRV2LLVM_CACHE_DIR=cache)
    third = run_amber(bin_, scripts, env)
    if third.stderr.count("loaded from the compile cache") != hits:
        fail("SPIRV2LLVM_CACHE_DIR not used:\n" + third.stderr)
    print("amber: %d entries, %d hits on the second run" % (len(stored), hits))


def test_stale_temp(bin_, src, tmp):
    cache = os.path.join(tmp, "cache")
    os.makedirs(cache)
    old = os.path.join(cache, ".tmp-deadwriter00000")
    new = os.path.join(cache, ".tmp-busywriter00000")
    for p in (old, new):
        with open(p, "wb") as f:
            f.write(b"partial")
    hour_ago = time.time() - 2 * 3600
    os.utime(old, (hour_ago, hour_ago))
    r = subprocess.run(saxpy_cmd(bin_, src, cache,
                                 os.path.join(tmp, "y.bin")),
                       capture_output=True, text=True)
    if r.returncode != 0 or cache_field(r.stdout) != "miss":
        fail("run: %r %r" % (r.stdout, r.stderr))
    if os.path.exists(old):
        fail("the stale temporary file is still there")
    if not os.path.exists(new):
        fail("a recent temporary file was removed")
    print("stale temporary files: ok")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    test, bin_, src = sys.argv[1:]
    tmp = tempfile.mkdtemp(prefix="s2l-cache-cli-")
    try:
        {"concurrent": test_concurrent, "amber": test_amber,
         "stale-temp": test_stale_temp}[test](bin_, src, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
