"""Minimal PNG reading and writing for the `run --image` tests.

Written from the PNG specification (RFC 2083) with zlib only, so that the
tests check spirv2llvm's PNG files with code that shares nothing with
libpng or spirv2llvm. Reads 8- and 16-bit RGBA (colour type 6), the only
kinds `run --dump` writes, with every filter type; writes 8-bit RGBA.
"""
import struct
import zlib


def read_png(path):
    """Returns (width, height, bit_depth, rows): rows[y][x] is an (r, g, b, a)
    tuple of ints."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]:
            raise ValueError("%s: bad CRC in %r" % (path, kind))
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if colour != 6 or depth not in (8, 16) or interlace:
        raise ValueError("%s: not 8/16-bit RGBA without interlacing: %r" % (path, header))
    bpp = 4 * depth // 8
    stride = width * bpp
    raw = zlib.decompress(idat)
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                raise ValueError("%s: filter type %d" % (path, ftype))
        fmt = ">%d%s" % (width * 4, "B" if depth == 8 else "H")
        values = struct.unpack(fmt, bytes(line))
        rows.append([tuple(values[4 * x:4 * x + 4]) for x in range(width)])
        prev = line
    return width, height, depth, rows


def write_png(path, width, height, pixel):
    """Writes an 8-bit RGBA PNG; pixel(x, y) gives the (r, g, b, a) bytes."""
    raw = b"".join(
        b"\x00" + bytes(c for x in range(width) for c in pixel(x, y))
        for y in range(height))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body)))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw)))
        f.write(chunk(b"IEND", b""))
