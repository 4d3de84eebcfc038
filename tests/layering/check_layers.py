#!/usr/bin/env python3
"""Checks that spirv2llvm's libraries point one way (docs/architecture.md).

Two checks, each failing with the offending edge:
1. Targets: `cmake --graphviz` of a fresh configure; among the project's
   libraries every link goes to a lower layer (so there is no cycle), and
   the runtime does not link the translator.
2. Includes: a file under src/DIR includes only headers of DIR's layer or
   below ("parser/Module.h" from src/codegen is fine; "api/Pipeline.h" from
   src/runtime is not), and public headers (include/spirv2llvm/X.h) count
   as part of the layer that implements them.

usage: check_layers.py --source SRC_DIR
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Bottom to top. Directories under src/ and the CMake target of each.
LAYERS = [
    ("support", "s2l_support"),
    ("image", "s2l_image"),
    ("parser", "s2l_parser"),
    ("frontend", "s2l_frontend"),
    ("cfg", "s2l_cfg"),
    ("uniformity", "s2l_uniformity"),
    ("codegen", "s2l_codegen"),
    ("passes", "s2l_passes"),
    ("target", "s2l_target"),
    ("api", "s2l_translate"),
    ("runtime", "s2l_runtime"),
    ("graphics", "s2l_graphics"),
    ("capi", "s2l_capi"),
    ("amber", "s2l_amber"),
    ("cli", "s2l_cli"),
]
RANK = {d: i for i, (d, _) in enumerate(LAYERS)}
TARGET_RANK = {t: i for i, (_, t) in enumerate(LAYERS)}
# Layers that must not depend on each other even though one is above the
# other: the runtime runs an llvm::Module, it does not translate.
FORBIDDEN = {("runtime", "api"), ("runtime", "frontend"),
             ("runtime", "codegen"), ("runtime", "uniformity"),
             ("runtime", "cfg"), ("runtime", "parser"),
             ("target", "codegen"), ("passes", "codegen")}
# Public headers and the layer they belong to.
PUBLIC = {
    "spirv2llvm/Status.h": "support",
    "spirv2llvm/abi.h": "support",
    "spirv2llvm/Interface.h": "support",
    "spirv2llvm/ImageFormat.h": "image",
    "spirv2llvm/ImageFormats.def": "image",
    "spirv2llvm/PngImage.h": "image",
    "spirv2llvm/Image.h": "image",
    "spirv2llvm/Translation.h": "target",
    "spirv2llvm/Passes.h": "passes",
    "spirv2llvm/spirv2llvm.h": "api",
    "spirv2llvm/Jit.h": "runtime",
    "spirv2llvm/Compute.h": "runtime",
    "spirv2llvm/CompileCache.h": "runtime",
    "spirv2llvm/Graphics.h": "graphics",
    "spirv2llvm-c/spirv2llvm.h": "capi",
}


def check_targets(source):
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        dot = os.path.join(tmp, "deps.dot")
        # A configure of its own (no build): running cmake in the build tree
        # under test would regenerate it while other tests use it.
        r = subprocess.run(["cmake", "-S", source, "-B",
                            os.path.join(tmp, "build"), "-G", "Ninja",
                            "-DSPIRV2LLVM_BUILD_BENCH=OFF",
                            "--graphviz=" + dot],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return ["cmake --graphviz failed: " + r.stderr[-500:]]
        text = open(dot).read()
    names = dict(re.findall(r'"(node\d+)" \[ label = "([^"]+)"', text))
    edges = re.findall(r'"(node\d+)" -> "(node\d+)"', text)
    seen = 0
    for a, b in edges:
        ta, tb = names.get(a), names.get(b)
        if ta in TARGET_RANK and tb in TARGET_RANK:
            seen += 1
            if TARGET_RANK[tb] >= TARGET_RANK[ta]:
                errors.append("target %s links %s, a layer at or above its own"
                              % (ta, tb))
            la, lb = LAYERS[TARGET_RANK[ta]][0], LAYERS[TARGET_RANK[tb]][0]
            if (la, lb) in FORBIDDEN:
                errors.append("target %s must not link %s" % (ta, tb))
    if seen == 0:
        errors.append("no links between project libraries found in the graph")
    return errors


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of_header(h):
    if h in PUBLIC:
        return PUBLIC[h]
    top = h.split("/")[0]
    return top if top in RANK else None


def check_includes(source):
    errors = []
    files = 0
    roots = [(os.path.join(source, "src"), None),
             (os.path.join(source, "include"), "public"),
             (os.path.join(source, "tools", "spirv2llvm"), "cli")]
    for root, fixed in roots:
        for d, _, fs in os.walk(root):
            for f in fs:
                if not f.endswith((".h", ".cpp", ".c", ".inc")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                if fixed == "public":
                    own = PUBLIC.get(rel.replace(os.sep, "/"))
                elif fixed:
                    own = fixed
                else:
                    own = rel.split(os.sep)[0]
                if own not in RANK:
                    continue
                files += 1
                for h in INCLUDE.findall(open(path, errors="replace").read()):
                    lh = layer_of_header(h)
                    if lh is None:
                        continue
                    if RANK[lh] > RANK[own] or (own, lh) in FORBIDDEN:
                        errors.append("%s (layer %s) includes \"%s\" (layer %s)"
                                      % (os.path.relpath(path, source), own, h,
                                         lh))
    if files < 50:
        errors.append("only %d source files found under %s" % (files, source))
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    a = ap.parse_args()
    errors = check_includes(a.source) + check_targets(a.source)
    for e in errors:
        print("layering: " + e)
    if errors:
        return 1
    print("layering: ok (%d layers)" % len(LAYERS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
