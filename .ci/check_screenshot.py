"""Fails unless a PNG screenshot shows a board: not blank, with the board's colours in the middle
(for the title screen, `title`: not blank, with the games' small boards somewhere in the middle).

Reads the PNG with the standard library only (zlib), so CI needs no imaging package.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color not in (2, 6):
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {color})")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    path, game = sys.argv[1], sys.argv[2]
    w, h, ch, rows = read_png(path)
    colours = set()
    board_like = 0
    samples = 0
    # The board fills the left part of the window (the panel is on the right).
    for y in range(h // 5, 4 * h // 5, 4):
        row = rows[y]
        for x in range(w // 10, 6 * w // 10, 4):
            r, g, b = row[x * ch], row[x * ch + 1], row[x * ch + 2]
            colours.add((r >> 3, g >> 3, b >> 3))
            samples += 1
            # Wood-theme squares and Alquerque's board are warm light browns.
            if r > 150 and g > 110 and b < 170 and r > b + 40:
                board_like += 1
    share = board_like / max(samples, 1)
    print(f"{path}: {w}x{h}, {len(colours)} colours, board-coloured share {share:.2f}")
    if len(colours) < 8:
        raise SystemExit(f"{path}: the picture is blank ({len(colours)} colours)")
    if game == "title":
        # The title screen pictures both games with small boards among its buttons.
        if share < 0.01:
            raise SystemExit(f"{path}: no game pictured on the title screen (board-coloured share {share:.2f})")
        return
    if share < 0.25:
        raise SystemExit(f"{path}: no {game} board in the picture (board-coloured share {share:.2f})")


if __name__ == "__main__":
    main()
