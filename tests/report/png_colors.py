#!/usr/bin/env python3
"""png_colors.py IMAGE.png COLOR:MIN[:TOL]... - count the pixels of each colour.

Decodes the PNG with the standard library only (zlib; 8-bit RGB or RGBA,
not interlaced, as Chromium writes its screenshots) and counts the pixels
within TOL (default 12) of each #rrggbb colour in every channel. Exits 1, naming the
colour, when one has fewer than MIN pixels; prints every count.
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG file")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if hdr is None:
        sys.exit(f"{path}: no IHDR chunk")
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, colour type {ctype}, "
                 f"interlace {interlace})")
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    width, height, bpp, rows = decode(sys.argv[1])
    wanted = []
    for arg in sys.argv[2:]:
        parts = arg.split(":")
        colour, minimum = parts[0], int(parts[1])
        tol = int(parts[2]) if len(parts) > 2 else 12
        rgb = tuple(int(colour.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
        wanted.append((colour, rgb, minimum, tol))
    counts = {c: 0 for c, _, _, _ in wanted}
    for row in rows:
        for x in range(0, len(row), bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            for colour, (wr, wg, wb), _, tol in wanted:
                if abs(r - wr) <= tol and abs(g - wg) <= tol and abs(b - wb) <= tol:
                    counts[colour] += 1
    bad = 0
    for colour, _, minimum, _ in wanted:
        print(f"{colour}: {counts[colour]} pixels (at least {minimum} wanted)")
        if counts[colour] < minimum:
            bad = 1
    print(f"image {width}x{height}")
    sys.exit(bad)


if __name__ == "__main__":
    main()
