#!/usr/bin/env python3
"""Runs `spirv2llvm amber` over every Amber script (*.amber, *.vkscript)
of the corpus and checks each outcome (PASS, FAIL or SKIP) against corpus-expected.txt.

usage: check-corpus.py SPIRV2LLVM CORPUS_DIR EXPECTED_FILE [--update]
                       [OPTION...]   (options for `spirv2llvm amber`)

Any difference fails the test: a script that stops passing is a
regression; one that starts passing (or fails or skips for a new reason)
means corpus-expected.txt and docs/amber.md need updating (--update
rewrites the file). A run that crashes or hangs fails too.
"""
import os
import subprocess
import sys


def main():
    binary, corpus, expected_path = [os.path.abspath(a) for a in sys.argv[1:4]]
    update = "--update" in sys.argv[4:]
    extra = [a for a in sys.argv[4:] if a != "--update"]
    if not os.path.isdir(corpus):
        # A clone without ../shared: ctest reports exit code 77 as skipped.
        print("SKIP: %s not found (configure with "
              "-DSPIRV2LLVM_CORPUS_DIR=...)" % corpus)
        return 77
    scripts = sorted(
        os.path.relpath(os.path.join(d, f), corpus)
        for d, _, files in os.walk(corpus)
        for f in files
        if f.endswith(".amber") or f.endswith(".vkscript"))
    if not scripts:
        print("no Amber scripts under " + corpus)
        return 1
    got = {}
    # Batches, so that a crash names a small set of scripts.
    for i in range(0, len(scripts), 25):
        batch = scripts[i:i + 25]
        try:
            r = subprocess.run([binary, "amber", "--threads", "2"] + extra + batch,
                               cwd=corpus, capture_output=True, text=True,
                               timeout=300)
        except subprocess.TimeoutExpired:
            print("TIMEOUT running " + " ".join(batch))
            return 1
        lines = r.stdout.splitlines()
        if not lines or "passed," not in lines[-1] or r.returncode not in (0, 1):
            print("CRASH (exit %d) running a batch starting at %s\n%s\n%s" %
                  (r.returncode, batch[0], r.stdout, r.stderr))
            return 1
        for line in lines[:-1]:
            word, rest = line.split(" ", 1)
            name = rest.split(": ", 1)[0]
            got[name] = (word, line)
    missing = [s for s in scripts if s not in got]
    if missing:
        print("no result for: " + ", ".join(missing))
        return 1

    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for s in scripts:
        counts[got[s][0]] += 1
    for top in sorted({s.split("/")[0] for s in scripts}):
        c = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        for s in scripts:
            if s.startswith(top + "/"):
                c[got[s][0]] += 1
        print("%s: %d passed, %d failed, %d skipped" %
              (top, c["PASS"], c["FAIL"], c["SKIP"]))
    print("total: %d passed, %d failed, %d skipped" %
          (counts["PASS"], counts["FAIL"], counts["SKIP"]))

    if update:
        with open(expected_path, "w") as f:
            f.write("# Expected outcome of each corpus script under "
                    "`spirv2llvm amber %s` (tests/amber/check-corpus.py).\n"
                    "# Reasons for every FAIL and SKIP: docs/amber.md.\n"
                    % " ".join(extra))
            for s in scripts:
                f.write("%s %s\n" % (got[s][0], s))
        print("wrote " + expected_path)
        return 0

    expected = {}
    with open(expected_path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                word, name = line.split(None, 1)
                expected[name] = word
    bad = 0
    for s in scripts:
        want = expected.get(s)
        if want != got[s][0]:
            bad += 1
            print("MISMATCH (expected %s): %s" % (want, got[s][1]))
    for s in expected:
        if s not in got:
            bad += 1
            print("MISMATCH: %s is expected but not in the corpus" % s)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
