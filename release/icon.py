#!/usr/bin/env python3
"""Draws Ludus's icon, an Alquerque board of lines on wood with a few pieces, as a PNG.

Only Python's standard library (zlib for PNG): python3 release/icon.py [SIZE] [OUT.png]
(default 256 and release/files/ludus.png). Each pixel is sampled 4x4 times, so edges are smooth.
The picture is the same every run.
"""
import math
import struct
import sys
import zlib

SIZE = int(sys.argv[1]) if len(sys.argv) > 1 else 256
OUT = sys.argv[2] if len(sys.argv) > 2 else "release/files/ludus.png"
SS = 4  # samples per pixel along each axis

# The board: 5x5 points on a square from 0.2 to 0.8 of the icon, lines between neighbours and
# the Alquerque diagonals through the points whose coordinates sum to an even number.
LO, HI = 0.2, 0.8
STEP = (HI - LO) / 4
def point(c, r):
    return (LO + c * STEP, LO + r * STEP)
SEGMENTS = []
for i in range(5):
    SEGMENTS.append((point(0, i), point(4, i)))
    SEGMENTS.append((point(i, 0), point(i, 4)))
SEGMENTS += [(point(0, 0), point(4, 4)), (point(4, 0), point(0, 4)),
             (point(2, 0), point(0, 2)), (point(2, 0), point(4, 2)),
             (point(0, 2), point(2, 4)), (point(4, 2), point(2, 4))]
LINE = 0.014
# Pieces: dark above, light below, as a game in progress (column, row, dark?).
PIECES = [(0, 0, True), (1, 0, True), (3, 0, True), (2, 1, True), (4, 1, True), (1, 2, True),
          (3, 2, False), (0, 3, False), (2, 3, False), (1, 4, False), (2, 4, False), (4, 4, False)]
RADIUS = 0.058

WOOD_TOP, WOOD_BOTTOM = (196, 140, 82), (150, 98, 52)
FRAME = (74, 48, 28)
INK = (58, 36, 20)
DARK, DARK_RIM = (40, 30, 26), (14, 10, 8)
LIGHT, LIGHT_RIM = (246, 236, 214), (120, 96, 70)


def rounded_square(x, y, inset, radius):
    """Whether (x, y) lies in the square [inset, 1-inset] with corners rounded by radius."""
    lo, hi = inset + radius, 1 - inset - radius
    dx = max(lo - x, 0, x - hi)
    dy = max(lo - y, 0, y - hi)
    return dx * dx + dy * dy <= radius * radius


def segment_distance(x, y, a, b):
    (ax, ay), (bx, by) = a, b
    vx, vy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy)))
    px, py = ax + t * vx - x, ay + t * vy - y
    return math.sqrt(px * px + py * py)


def sample(x, y):
    """The colour (r, g, b, a) at (x, y) in [0, 1]^2."""
    if not rounded_square(x, y, 0.02, 0.16):
        return (0, 0, 0, 0)
    if not rounded_square(x, y, 0.07, 0.12):
        return FRAME + (255,)
    for c, r, dark in PIECES:
        px, py = point(c, r)
        d = math.hypot(x - px, y - py)
        if d <= RADIUS:
            fill, rim = (DARK, DARK_RIM) if dark else (LIGHT, LIGHT_RIM)
            if d > RADIUS * 0.82:
                return rim + (255,)
            # A soft highlight towards the top left.
            shine = max(0.0, 1 - math.hypot(x - px + RADIUS * 0.35, y - py + RADIUS * 0.35) / RADIUS)
            return tuple(min(255, int(v + shine * (40 if dark else 12))) for v in fill) + (255,)
    for a, b in SEGMENTS:
        if segment_distance(x, y, a, b) <= LINE / 2:
            return INK + (255,)
    t = y
    grain = 0.06 * math.sin(x * 40 + 3 * math.sin(y * 9))
    return tuple(int((1 - t) * u + t * v) + int(grain * 60) for u, v in zip(WOOD_TOP, WOOD_BOTTOM)) + (255,)


def render(size):
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            acc = [0, 0, 0, 0]
            for sj in range(SS):
                for si in range(SS):
                    r, g, b, a = sample((i + (si + 0.5) / SS) / size, (j + (sj + 0.5) / SS) / size)
                    acc[0] += r * a
                    acc[1] += g * a
                    acc[2] += b * a
                    acc[3] += a
            n = SS * SS
            alpha = acc[3] / n
            if acc[3]:
                row += bytes(max(0, min(255, round(acc[k] / acc[3]))) for k in range(3))
            else:
                row += b"\0\0\0"
            row.append(round(alpha))
        rows.append(bytes(row))
    return b"".join(rows)


def png(size, pixels):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(pixels, 9))
            + chunk(b"IEND", b""))


if __name__ == "__main__":
    with open(OUT, "wb") as f:
        f.write(png(SIZE, render(SIZE)))
    print(f"{OUT}: {SIZE}x{SIZE}")
