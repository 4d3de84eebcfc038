#!/usr/bin/env python3
"""Coverage of glslang's own test shaders (../shared/corpus/glslang).

Builds the corpus with the corpus's build-glslang-corpus.sh (unless the
output directory already holds it), translates every valid compute, fragment
and vertex shader of MANIFEST.txt with the manifest's target environment,
verifies the IR with `opt -passes=verify`, and prints a Markdown report:

  - translated and verified;
  - rejected with a diagnostic, grouped by what is unsupported;
  - crashed, hung or produced invalid IR.

Shaders that declare images or samplers (OpTypeImage, OpTypeSampler,
OpTypeSampledImage) are counted apart: images are a later issue, and the
goal is measured on the others.

Usage: coverage.py [--corpus-dir DIR] [--jobs N] [--write FILE] [--check]
  --check   exit 1 if anything crashed, hung or gave invalid IR, if a
            rejection does not say "unsupported: <what>", or if fewer than
            --goal percent (default 95) of the shaders without images or
            samplers translate.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared", "corpus"))
STAGES = {"comp", "frag", "vert"}
IMAGE_OPS = {25, 26, 27}  # OpTypeImage, OpTypeSampler, OpTypeSampledImage
OP_ENTRY_POINT = 15


def read_manifest(path):
    rows = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 5:
                continue
            rows.append({"file": cols[0], "stage": cols[1], "valid": cols[3],
                         "env": cols[4]})
    return rows


def scan_module(path):
    """(uses images or samplers, entry point names) from the binary."""
    data = open(path, "rb").read()
    if len(data) < 20:
        return False, []
    magic = struct.unpack("<I", data[:4])[0]
    fmt = "<" if magic == 0x07230203 else ">"
    words = struct.unpack(fmt + "%dI" % (len(data) // 4), data[:len(data) // 4 * 4])
    images, entries = False, []
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        if count == 0:
            break
        if op in IMAGE_OPS:
            images = True
        if op == OP_ENTRY_POINT and count > 3:
            raw = b"".join(struct.pack("<I", w) for w in words[i + 3:i + count])
            entries.append(raw.split(b"\0", 1)[0].decode("utf-8", "replace"))
        i += count
    return images, entries


def reason_of(message):
    """The group of a diagnostic: what it says is unsupported."""
    m = re.search(r"unsupported: (.*)", message)
    if not m:
        return None
    what = m.group(1)
    # Ids, numbers and word offsets vary between shaders; the reason does not.
    what = re.sub(r"%[A-Za-z0-9_.$]+", "%id", what)
    what = re.sub(r"\b\d+\b", "N", what)
    return what.strip()


def translate(job):
    s2l, opt, spv, env, entry, tmp = job
    out = os.path.join(tmp, os.path.basename(spv) + (entry or "") + ".ll")
    cmd = [s2l, "--target-env", env, "-o", out, spv]
    if entry:
        cmd[1:1] = ["--entry", entry]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "hang", "timeout after 120 s"
    err = p.stderr
    if p.returncode == 0:
        v = subprocess.run([opt, "-passes=verify", "-disable-output", out],
                           capture_output=True, text=True)
        os.unlink(out)
        if v.returncode != 0 or "LLVM ERROR" in err:
            return "invalid IR", (v.stderr.splitlines() or ["?"])[0]
        return "ok", ""
    if p.returncode == 1:
        lines = [l for l in err.splitlines() if l.startswith("spirv2llvm: error:")]
        if lines and "Sanitizer" not in err and "runtime error:" not in err:
            return "diagnostic", lines[0].replace(spv + ": ", "")
    return "crash", "exit %d: %s" % (p.returncode, (err.splitlines() or ["?"])[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus-dir", default=os.path.join(tempfile.gettempdir(),
                                                         "s2l-glslang-corpus"))
    ap.add_argument("--s2l", default=os.path.join(ROOT, "build", "bin", "spirv2llvm"))
    ap.add_argument("--opt", default="/usr/lib/llvm-19/bin/opt")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--write", help="also write the report to this file")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--goal", type=float, default=95.0)
    ap.add_argument("--shared-corpus", default=SHARED,
                    help="the corpus folder holding glslang/ "
                         "(default ../shared/corpus)")
    args = ap.parse_args()
    shared = args.shared_corpus

    manifest = os.path.join(shared, "glslang", "MANIFEST.txt")
    if not os.path.exists(manifest):
        # ctest reports exit 77 as SKIP (SKIP_RETURN_CODE).
        print("SKIP: %s not found (configure with -DSPIRV2LLVM_CORPUS_DIR=...)"
              % os.path.join(shared, "glslang"))
        return 77
    rows = [r for r in read_manifest(manifest)
            if r["valid"] == "valid" and r["stage"] in STAGES]
    missing = [r for r in rows
               if not os.path.exists(os.path.join(args.corpus_dir, r["file"] + ".spv"))]
    if missing:
        print("building the corpus into %s (%d modules missing)" %
              (args.corpus_dir, len(missing)), file=sys.stderr)
        b = subprocess.run(["bash", os.path.join(shared, "build-glslang-corpus.sh"),
                            args.corpus_dir], capture_output=True, text=True)
        if b.returncode != 0:
            print(b.stdout[-2000:], b.stderr[-2000:], file=sys.stderr)
            print("error: building the corpus failed", file=sys.stderr)
            return 2

    tmp = tempfile.mkdtemp(prefix="s2l-coverage-")
    jobs, meta = [], []
    for r in rows:
        spv = os.path.join(args.corpus_dir, r["file"] + ".spv")
        images, entries = scan_module(spv)
        for entry in (entries if len(entries) > 1 else [None]):
            jobs.append((args.s2l, args.opt, spv, r["env"], entry, tmp))
            meta.append((r, images))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(translate, jobs))
    shutil.rmtree(tmp, ignore_errors=True)

    # A shader's class is its worst entry point's.
    rank = {"ok": 0, "diagnostic": 1, "invalid IR": 2, "hang": 3, "crash": 4}
    per_file = {}
    for (r, images), (cls, msg) in zip(meta, results):
        cur = per_file.get(r["file"])
        if cur is None or rank[cls] > rank[cur[1]]:
            per_file[r["file"]] = (r, cls, msg, images)

    total = Counter()
    by_group = defaultdict(Counter)
    reasons = defaultdict(list)
    bad, unnamed = [], []
    for f, (r, cls, msg, images) in sorted(per_file.items()):
        group = "with images or samplers" if images else "without images or samplers"
        total[cls] += 1
        by_group[group][cls] += 1
        if cls == "diagnostic":
            reason = reason_of(msg)
            if reason is None:
                unnamed.append((f, msg))
                reason = "(not named) " + msg
            reasons[reason].append(f)
        elif cls != "ok":
            bad.append((f, cls, msg))

    out = []
    out.append("# Coverage of glslang's test shaders\n")
    out.append("Generated by `python3 tests/corpus/coverage.py --write docs/coverage.md` "
               "(ctest: `coverage`). Every valid compute, fragment and vertex shader of "
               "`../shared/corpus/glslang/MANIFEST.txt`, translated with the manifest's "
               "target environment and default options, the IR checked with "
               "`opt -passes=verify`.\n")
    out.append("| shaders | translated and verified | rejected (unsupported) | crash, hang or invalid IR | translated |")
    out.append("|---|---:|---:|---:|---:|")
    for group in ["without images or samplers", "with images or samplers"]:
        c = by_group[group]
        n = sum(c.values())
        pct = 100.0 * c["ok"] / n if n else 0.0
        out.append("| %s | %d | %d | %d | %.1f%% |" % (
            group, c["ok"], c["diagnostic"],
            c["crash"] + c["hang"] + c["invalid IR"], pct))
    n = sum(total.values())
    out.append("| **all %d** | %d | %d | %d | %.1f%% |\n" % (
        n, total["ok"], total["diagnostic"],
        total["crash"] + total["hang"] + total["invalid IR"],
        100.0 * total["ok"] / n if n else 0.0))
    out.append("## Rejections by reason\n")
    out.append("| shaders | unsupported | examples |")
    out.append("|---:|---|---|")
    for reason, files in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        out.append("| %d | %s | %s |" % (len(files), reason.replace("|", "\\|"),
                                          ", ".join(files[:3])))
    if bad:
        out.append("\n## Crashes, hangs and invalid IR\n")
        for f, cls, msg in bad:
            out.append("- %s: %s: %s" % (f, cls, msg))
    report = "\n".join(out) + "\n"
    print(report)
    if args.write:
        with open(args.write, "w") as f:
            f.write(report)

    c = by_group["without images or samplers"]
    n_plain = sum(c.values())
    pct = 100.0 * c["ok"] / n_plain if n_plain else 0.0
    problems = []
    if bad:
        problems.append("%d shaders crashed, hung or gave invalid IR" % len(bad))
    if unnamed:
        problems.append("%d rejections do not say what is unsupported, e.g. %s: %s"
                        % (len(unnamed), unnamed[0][0], unnamed[0][1]))
    if pct < args.goal:
        problems.append("%.1f%% of the shaders without images or samplers translate "
                        "(goal %.0f%%)" % (pct, args.goal))
    print("coverage: %d translated, %d rejected, %d crashed/hung/invalid of %d"
          % (total["ok"], total["diagnostic"], len(bad), n))
    if args.check and problems:
        for p in problems:
            print("error: " + p, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
