#!/usr/bin/env python3
"""Counts the switch statements over SPIR-V opcodes in src/ (issue 15).

A switch counts as "over opcodes" when its first case label names a core
opcode (spv::OpX, or OpX after a using-declaration) or a GLSL.std.450
instruction (GLSLstd450X). Prints one line per switch (file:line, kind)
and the totals; exits non-zero when the core count exceeds the limit given
with --max (the issue's target is a dozen).
"""
import argparse
import pathlib
import re
import sys

CASE = re.compile(r"\bcase\s+((?:spv::Op::|spv::|Op::)?Op[A-Z]\w*|(?:GLSLstd450|spv::GLSLstd450)\w+|[\w:]+)")
SWITCH = re.compile(r"\bswitch\s*\(")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default="src")
    ap.add_argument("--max", type=int, default=None)
    ap.add_argument("-q", action="store_true", help="totals only")
    a = ap.parse_args()
    core, ext = [], []
    for p in sorted(pathlib.Path(a.root).rglob("*")):
        if p.suffix not in (".cpp", ".h", ".inc", ".def"):
            continue
        text = p.read_text(errors="replace")
        for m in SWITCH.finditer(text):
            c = CASE.search(text, m.end())
            if not c:
                continue
            label = c.group(1)
            line = text.count("\n", 0, m.start()) + 1
            if re.match(r"(spv::Op::|spv::|Op::)?Op[A-Z]", label):
                core.append(f"{p}:{line}")
            elif "GLSLstd450" in label:
                ext.append(f"{p}:{line}")
    if not a.q:
        for w in core:
            print(f"{w}: core opcode switch")
        for w in ext:
            print(f"{w}: GLSL.std.450 switch")
    print(f"core opcode switches: {len(core)}")
    print(f"GLSL.std.450 switches: {len(ext)}")
    if a.max is not None and len(core) > a.max:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
