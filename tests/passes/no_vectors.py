#!/usr/bin/env python3
"""No vector type is left after --backend=scalar and --backend=dxil.

For every shader under the given directories that --backend=invocation
translates, runs spirv2llvm --backend=scalar and --backend=dxil and checks the
output with `opt -passes=verify` and s2l-vector-check (which walks every type
in the module: values, arguments, returns, allocas, globals, GEP source
types, load/store types, constants, nested in structs and arrays too).
--backend=dxil --dxil-native-vectors is checked with --allow-native (only
<1 x T> is forbidden there). Shaders the invocation back end rejects with an
clean error (an `unsupported:` construct, invalid input) are listed and
skipped; any other failure, or fewer
accepted shaders than --min-accepted, fails the test.

usage: no_vectors.py SPIRV2LLVM VECTOR_CHECK OPT --min-accepted N DIR...
"""
import argparse
import os
import subprocess
import sys

EXTS = (".comp", ".frag", ".vert", ".spvasm")


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=300)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spirv2llvm")
    ap.add_argument("vector_check")
    ap.add_argument("opt")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--min-accepted", type=int, default=1)
    args = ap.parse_args()

    shaders = []
    for d in args.dirs:
        for name in sorted(os.listdir(d)):
            if name.endswith(EXTS):
                shaders.append(os.path.join(d, name))

    accepted, skipped, failures = 0, [], []
    for path in shaders:
        inv = run([args.spirv2llvm, "--backend=invocation", path])
        if inv.returncode != 0:
            # Not accepted: an `unsupported:` construct, or input that is
            # invalid on purpose (shaders/examples/kazan-example.spvasm). A
            # crash or an internal error is a failure.
            msg = inv.stderr.decode(errors="replace").strip()
            if (inv.returncode in (1, 2) and "error:" in msg
                    and "internal error" not in msg):
                skipped.append((path, msg.splitlines()[-1]))
                continue
            failures.append(f"{path}: --backend=invocation failed "
                            f"(exit {inv.returncode}): {msg}")
            continue
        accepted += 1
        for flags, check_flags in ((["--backend=scalar"], []),
                                   (["--backend=dxil"], []),
                                   (["--backend=dxil", "--dxil-native-vectors"],
                                    ["--allow-native"])):
            what = f"{path} {' '.join(flags)}"
            out = run([args.spirv2llvm, *flags, path])
            if out.returncode != 0:
                failures.append(f"{what}: translation failed: "
                                + out.stderr.decode(errors="replace"))
                continue
            err = out.stderr.decode(errors="replace")
            if "warning:" in err:
                # A pass left an object unchanged (docs/dxil-passes.md).
                failures.append(f"{what}: {err.strip()}")
            ver = run([args.opt, "-passes=verify", "-disable-output"],
                      out.stdout)
            if ver.returncode != 0:
                failures.append(f"{what}: opt -passes=verify: "
                                + ver.stderr.decode(errors="replace"))
            chk = run([args.vector_check, *check_flags, "-"], out.stdout)
            if chk.returncode != 0:
                failures.append(f"{what}: "
                                + chk.stderr.decode(errors="replace"))

    for path, why in skipped:
        print(f"skipped (invocation back end): {path}: {why}")
    print(f"{accepted} shaders accepted, {len(skipped)} skipped, "
          f"{len(failures)} failures")
    for f in failures:
        print("FAIL:", f)
    if accepted < args.min_accepted:
        print(f"FAIL: only {accepted} shaders accepted, expected at least "
              f"{args.min_accepted}")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
