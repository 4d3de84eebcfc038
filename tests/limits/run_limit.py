#!/usr/bin/env python3
"""Generates a module with gen_limits.py and translates it (one ctest each).

Usage: run_limit.py SPIRV2LLVM CASE N EXPECT [spirv2llvm args...]
  EXPECT  "ok": the module translates (exit 0, IR written);
          "run": (run-* cases) `spirv2llvm run` dispatches it once and the
          buffer holds what gen_limits.expected_levels() says;
          otherwise a substring of the limit message, which must come with
          exit status 1 and the word "limit".
A crash, a signal or any other exit status fails. ctest's TIMEOUT on the
test is the guard against hangs; this script measures nothing.
"""
import os
import struct
import subprocess
import sys
import tempfile

s2l, case, n, expect = sys.argv[1:5]
extra = sys.argv[5:]
here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    spv = os.path.join(tmp, case + ".spv")
    ll = os.path.join(tmp, case + ".ll")
    subprocess.run([sys.executable, os.path.join(here, "gen_limits.py"),
                    case, spv, n], check=True)
    if expect == "run":
        sys.path.insert(0, here)
        import gen_limits
        out = os.path.join(tmp, "out.bin")
        size = 4 * gen_limits.RUN_GROUP
        r = subprocess.run([s2l, "run", spv, "--buffer", "0:%d" % size,
                            "--dump", "0:" + out, "-q", *extra],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        print("exit %d: %s%s" % (r.returncode, r.stdout.strip(),
                                 r.stderr.strip()[:500]))
        if r.returncode != 0:
            sys.exit(1)
        data = open(out, "rb").read()
        got = list(struct.unpack("<%dI" % (len(data) // 4), data))
        want = [gen_limits.expected_levels(int(n), x)
                for x in range(gen_limits.RUN_GROUP)]
        bad = [x for x in range(len(want)) if got[x] != want[x]]
        for x in bad[:5]:
            print("invocation %d: %d levels, expected %d" % (x, got[x], want[x]))
        sys.exit(1 if bad else 0)
    r = subprocess.run([s2l, *extra, spv, "-o", ll],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    err = r.stderr.strip()
    print("exit %d: %s" % (r.returncode, err[:500]))
    if expect == "ok":
        ok = r.returncode == 0 and os.path.getsize(ll) > 0
        ok = ok and "define" in open(ll).read(1 << 16)
    else:
        lines = err.splitlines()
        ok = (r.returncode == 1 and len(lines) == 1 and
              lines[0].startswith("spirv2llvm: error: ") and
              expect in lines[0] and "limit" in lines[0])
    sys.exit(0 if ok else 1)
