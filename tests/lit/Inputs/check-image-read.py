"""Checks the output of Inputs/image-read.comp (tests/lit/cli/run-image-read.test).

usage: check-image-read.py OUT.bin TEX_SEED SRC.png SAMPLER
  Tex is init=random_u32:TEX_SEED (R8G8B8A8_UNORM), Src the PNG, SepTex
  init=iota_u32; SAMPLER is the combined sampler's state: "linear-repeat"
  or "default" (nearest, clamp to edge).
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pngio

out, seed, src_png, sampler = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
M = (1 << 64) - 1


def splitmix64(x):
    # BufferInit.h's formula, written out again.
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def word_texel(w):
    return [((w >> (8 * c)) & 255) / 255.0 for c in range(4)]


def tex(x, y):
    return word_texel(splitmix64((seed * 0xD1B54A32D192ED03 + y * 4 + x) & M) >> 32)


_, _, _, src = pngio.read_png(src_png)
values = struct.unpack("<256f", open(out, "rb").read())
errors = []
for y in range(4):
    for x in range(4):
        i = 4 * (y * 4 + x)
        if sampler == "linear-repeat":
            a, b = tex(x, y), tex((x + 1) % 4, y)
            half = [(a[c] + b[c]) / 2 for c in range(4)]
        else:
            half = tex(min(x + 1, 3), y)
        want = [tex(x, y), half, [v / 255.0 for v in src[y][x]],
                word_texel(y * 4 + x)]
        for k in range(4):
            got = values[4 * (i + k):4 * (i + k) + 4]
            if any(abs(g - w) > 1e-6 for g, w in zip(got, want[k])):
                errors.append("texel (%d,%d) value %d: got %r, want %r" %
                              (x, y, k, got, want[k]))
if errors:
    sys.exit("\n".join(errors))
