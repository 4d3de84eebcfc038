#!/usr/bin/env python3
"""Checks the size limits of issue 15 in src/: no function body over 200
lines, no file over 1,200 lines.

A function is a brace block opened at namespace level (depth 0 outside
namespaces, or directly inside a namespace) whose opening line is not a
class, struct, enum, union or namespace; lambdas and nested blocks count
toward their enclosing function. Prints each violation as file:line and
exits non-zero if there is one; -v lists the ten longest functions too.
"""
import argparse
import pathlib
import re
import sys

MAX_FUNCTION = 200
MAX_FILE = 1200
NOT_FUNCTION = re.compile(r"^\s*(template\s*<.*>\s*)?(class|struct|enum|union|namespace|extern)\b")


def strip(text):
    """Text with comments, strings and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """(first line, length in lines, header) of each function body in path."""
    text = strip(path.read_text(errors="replace"))
    lines = text.split("\n")
    result = []
    # Stack of (kind, start line): kind is "ns", "type", "fn" or "block".
    stack = []
    for no, line in enumerate(lines, 1):
        for pos, ch in enumerate(line):
            if ch == "{":
                inside_fn = any(k == "fn" for k, _ in stack)
                if inside_fn:
                    stack.append(("block", no))
                    continue
                # The declaration this brace opens: text since the last ; or }.
                head = " ".join(lines[max(0, no - 6):no - 1] + [line[:pos]])
                head = re.split(r"[;}]", head)[-1].strip()
                if re.match(r"^(namespace\b|extern\s*\"?)", head) or head == "":
                    stack.append(("ns", no))
                elif NOT_FUNCTION.match(head) or re.search(r"=\s*$", head):
                    stack.append(("type", no))
                elif re.search(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>,\s*&]+)?$", head) or re.search(r"\)\s*:\s*.*$", head):
                    stack.append(("fn", no))
                else:
                    stack.append(("type", no))
            elif ch == "}":
                if not stack:
                    continue
                kind, start = stack.pop()
                if kind == "fn":
                    result.append((start, no - start + 1))
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default="src")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    bad = 0
    every = []
    for p in sorted(pathlib.Path(a.root).rglob("*")):
        if p.suffix not in (".cpp", ".h", ".c"):
            continue
        n = p.read_text(errors="replace").count("\n")
        if n > MAX_FILE:
            print(f"{p}: {n} lines (limit {MAX_FILE})")
            bad += 1
        for start, length in functions(p):
            every.append((length, f"{p}:{start}"))
            if length > MAX_FUNCTION:
                print(f"{p}:{start}: function of {length} lines (limit {MAX_FUNCTION})")
                bad += 1
    if a.v:
        for length, where in sorted(every, reverse=True)[:10]:
            print(f"  {length:4d} {where}")
    print(f"violations: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
