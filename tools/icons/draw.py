"""Draw Kairos's app icon (the tray's clock face, large and anti-aliased) as a 1024x1024 PNG.

The whole icon set in src-tauri/icons is made from it by the Tauri CLI:
    python3 tools/icons/draw.py /tmp/kairos-icon.png
    ~/.cache/kairos-tauri-cli/node_modules/.bin/tauri icon /tmp/kairos-icon.png -o src-tauri/icons
Pure standard library (zlib), so it runs on any machine with Python.
"""
import math
import struct
import sys
import zlib

SIZE = 1024
SAMPLES = 3  # per axis: 9 samples per pixel for smooth edges
BLUE = (0x2A, 0x7A, 0xE2)
WHITE = (255, 255, 255)


def inside_hand(x, y):
    c = SIZE / 2
    w = SIZE * 0.035
    # Hour hand up to 12, minute hand to 3 (a quarter past), as in the tray icon.
    up = abs(x - c) <= w and c - SIZE * 0.31 <= y <= c + w
    right = abs(y - c) <= w and c - w <= x <= c + SIZE * 0.25
    return up or right


def colour(x, y):
    c = SIZE / 2
    r = math.hypot(x - c, y - c)
    if r > SIZE * 0.47:
        return None
    if r > SIZE * 0.43:
        return WHITE  # the rim
    return WHITE if inside_hand(x, y) else BLUE


def pixel(px, py):
    acc = [0, 0, 0, 0]
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            c = colour(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES)
            if c is not None:
                acc[0] += c[0]
                acc[1] += c[1]
                acc[2] += c[2]
                acc[3] += 255
    n = SAMPLES * SAMPLES
    covered = acc[3] / 255
    if covered == 0:
        return b"\0\0\0\0"
    return bytes([round(acc[0] / covered), round(acc[1] / covered), round(acc[2] / covered), round(acc[3] / n)])


def png(width, height, rows):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\0" + row for row in rows)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    rows = [b"".join(pixel(x, y) for x in range(SIZE)) for y in range(SIZE)]
    with open(sys.argv[1], "wb") as f:
        f.write(png(SIZE, SIZE, rows))
