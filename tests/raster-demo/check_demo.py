#!/usr/bin/env python3
"""Runs s2l-raster-demo at a small size and checks the PNG it writes.

usage: check_demo.py DEMO WORKDIR [WIDTH HEIGHT]

The picture must be WIDTH x HEIGHT RGBA8, its four corners the same colour
(nothing is drawn there: the background), the centre (on the sphere) of
another colour, and the middle third of the picture must hold many
colours (texture, lighting and antialiased edges), not a flat fill. The
PNG is decoded here with zlib alone: no imaging library is needed.
"""
import os
import struct
import subprocess
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type != 6 or interlace:
        sys.exit(f"{path}: depth {depth}, colour type {color_type}, "
                 f"interlace {interlace}; want 8-bit RGBA, not interlaced")
    raw = zlib.decompress(idat)
    stride, bpp = width * 4, 4
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if filt == 1:
                line[i] = (line[i] + a) & 255
            elif filt == 2:
                line[i] = (line[i] + b) & 255
            elif filt == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, rows


def main():
    demo, workdir = sys.argv[1], sys.argv[2]
    width, height = (int(sys.argv[3]), int(sys.argv[4])) \
        if len(sys.argv) > 4 else (160, 120)
    os.makedirs(workdir, exist_ok=True)
    out = os.path.join(workdir, "raster-demo.png")
    if os.path.exists(out):
        os.remove(out)
    run = subprocess.run([demo, out, str(width), str(height), "--threads",
                          "2"], capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    if run.returncode != 0:
        sys.exit(f"s2l-raster-demo failed ({run.returncode}):\n{run.stderr}")
    w, h, rows = read_png(out)
    if (w, h) != (width, height):
        sys.exit(f"the picture is {w}x{h}, want {width}x{height}")

    def pixel(x, y):
        return tuple(rows[y][4 * x:4 * x + 4])

    corners = {pixel(0, 0), pixel(w - 1, 0), pixel(0, h - 1),
               pixel(w - 1, h - 1)}
    if len(corners) != 1:
        sys.exit(f"the corners differ (no uniform background): {corners}")
    background = corners.pop()
    centre = pixel(w // 2, h // 2)
    if centre == background:
        sys.exit(f"the centre is the background colour {background}: "
                 "the sphere is not drawn")
    middle = {pixel(x, y) for y in range(h // 3, 2 * h // 3)
              for x in range(w // 3, 2 * w // 3)}
    if len(middle) < 50:
        sys.exit(f"only {len(middle)} colours in the middle third: "
                 "not a lit, textured surface")
    print(f"ok: background {background}, centre {centre}, "
          f"{len(middle)} colours in the middle third")


if __name__ == "__main__":
    main()
