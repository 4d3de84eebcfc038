"""Checks the dumps of tests/lit/cli/run-image-write.test against values
computed here from Inputs/image-write.comp's formulas."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pngio

prefix = sys.argv[1]
errors = []


def expect(name, got, want):
    if got != want:
        errors.append("%s: got %r, want %r" % (name, got, want))


def unorm(v, bits):
    # Round to nearest even, as Vulkan's float -> UNORM conversion does.
    return round(min(max(v, 0.0), 1.0) * ((1 << bits) - 1))


# A: rgba8, RGBA8 PNG.
w, h, depth, rows = pngio.read_png(prefix + ".a.png")
expect("A size", (w, h, depth), (4, 2, 8))
for y in range(2):
    for x in range(4):
        expect("A(%d,%d)" % (x, y), rows[y][x],
               (unorm(x / 3.0, 8), unorm(float(y), 8), 128, 255))

# B: r32ui, RGBA16 PNG (integers clamped to 65535, opaque) and raw words.
w, h, depth, rows = pngio.read_png(prefix + ".b.png")
expect("B size", (w, h, depth), (4, 2, 16))
words = struct.unpack("<8I", open(prefix + ".b.bin", "rb").read())
for y in range(2):
    for x in range(4):
        v = x * 30000 + y * 7
        expect("B(%d,%d)" % (x, y), rows[y][x], (min(v, 65535), 0, 0, 65535))
        expect("B raw (%d,%d)" % (x, y), words[y * 4 + x], v)

# C: r32f, RGBA16 PNG ([0,1] to 0..65535).
w, h, depth, rows = pngio.read_png(prefix + ".c.png")
expect("C size", (w, h, depth), (4, 2, 16))
for y in range(2):
    for x in range(4):
        expect("C(%d,%d)" % (x, y), rows[y][x],
               (unorm(x * 0.25 + y * 0.125, 16), 0, 0, 65535))

# D: 2D array of 2 layers, stacked top to bottom.
w, h, depth, rows = pngio.read_png(prefix + ".d.png")
expect("D size", (w, h, depth), (4, 4, 8))
for l in range(2):
    for y in range(2):
        for x in range(4):
            expect("D(%d,%d,%d)" % (x, y, l), rows[l * 2 + y][x],
                   (unorm(x / 3.0, 8), unorm(float(y), 8), unorm(float(l), 8),
                    unorm(0.25, 8)))

if errors:
    sys.exit("\n".join(errors))
