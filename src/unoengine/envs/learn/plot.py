"""The learning curve as pictures with no plotting library: an SVG, and a PNG drawn pixel by pixel.

Both show the win rate against the heuristic on held-out games (y) against the CPU seconds of
training (x), with the 95% interval as a band and the even-match line at 50%. The PNG writes its
few labels (digits, ``%``, ``CPU s``, ``win %``) with a 5 x 7 pixel font of its own, so no font or
plotting library is needed: :func:`write_curve_pictures` writes both.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Final

WIDTH: Final = 640
HEIGHT: Final = 400
MARGIN: Final = 50
Y_LOW: Final = 0.40
Y_HIGH: Final = 0.60
"""The y axis: win rates from 40% to 60% (where the curve lives)."""


_GLYPHS: Final = {  # 5 x 7 pixels, one row per number, the leftmost pixel the highest bit
    "0": (14, 17, 19, 21, 25, 17, 14), "1": (4, 12, 4, 4, 4, 4, 14), "2": (14, 17, 1, 2, 4, 8, 31),
    "3": (31, 2, 4, 2, 1, 17, 14), "4": (2, 6, 10, 18, 31, 2, 2), "5": (31, 16, 30, 1, 1, 17, 14),
    "6": (6, 8, 16, 30, 17, 17, 14), "7": (31, 1, 2, 4, 8, 8, 8), "8": (14, 17, 17, 14, 17, 17, 14),
    "9": (14, 17, 17, 15, 1, 2, 12), "%": (24, 25, 2, 4, 8, 19, 3), ".": (0, 0, 0, 0, 0, 12, 12),
    "C": (14, 17, 16, 16, 16, 17, 14), "P": (30, 17, 17, 30, 16, 16, 16), "U": (17, 17, 17, 17, 17, 17, 14),
    "s": (0, 0, 14, 16, 14, 1, 30), "w": (0, 0, 17, 17, 21, 21, 10), "i": (4, 0, 12, 4, 4, 4, 14),
    "n": (0, 0, 22, 25, 17, 17, 17), " ": (0, 0, 0, 0, 0, 0, 0),
}


def _scale(rows: Sequence[Mapping[str, float]]) -> tuple[float, float]:
    return max(float(r["cpu_seconds"]) for r in rows) or 1.0, Y_HIGH - Y_LOW


def _xy(row: Mapping[str, float], key: str, x_max: float) -> tuple[float, float]:
    x = MARGIN + (WIDTH - 2 * MARGIN) * float(row["cpu_seconds"]) / x_max
    value = min(max(float(row[key]), Y_LOW), Y_HIGH)
    y = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (value - Y_LOW) / (Y_HIGH - Y_LOW)
    return x, y


def svg(rows: Sequence[Mapping[str, float]]) -> str:
    """The curve as an SVG document."""
    x_max, _ = _scale(rows)
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(r, "win_rate", x_max) for r in rows))
    band = [_xy(r, "high", x_max) for r in rows] + [_xy(r, "low", x_max) for r in reversed(rows)]
    even = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (0.5 - Y_LOW) / (Y_HIGH - Y_LOW)
    ticks = []
    for k in range(5):
        value = Y_LOW + k * (Y_HIGH - Y_LOW) / 4
        y = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * k / 4
        ticks.append(f'<text x="{MARGIN - 6}" y="{y + 4:.0f}" text-anchor="end">{value:.0%}</text>')
    for k in range(5):
        x = MARGIN + (WIDTH - 2 * MARGIN) * k / 4
        ticks.append(f'<text x="{x:.0f}" y="{HEIGHT - MARGIN + 18}" text-anchor="middle">{x_max * k / 4:.0f}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" '
            f'font-size="12">\n<rect width="100%" height="100%" fill="white"/>\n'
            f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in band)}" fill="#9ecae1" opacity="0.6"/>\n'
            f'<line x1="{MARGIN}" y1="{even:.1f}" x2="{WIDTH - MARGIN}" y2="{even:.1f}" stroke="#d62728" '
            f'stroke-dasharray="6 4"/>\n'
            f'<polyline points="{line}" fill="none" stroke="#08519c" stroke-width="2"/>\n'
            f'<rect x="{MARGIN}" y="{MARGIN}" width="{WIDTH - 2 * MARGIN}" height="{HEIGHT - 2 * MARGIN}" '
            f'fill="none" stroke="black"/>\n' + "\n".join(ticks) +
            f'\n<text x="{WIDTH / 2:.0f}" y="{HEIGHT - 12}" text-anchor="middle">CPU seconds of training</text>\n'
            f'<text x="14" y="{HEIGHT / 2:.0f}" transform="rotate(-90 14 {HEIGHT / 2:.0f})" text-anchor="middle">'
            f'wins against HeuristicBot (held-out deals, 95% band)</text>\n</svg>\n')


def png(rows: Sequence[Mapping[str, float]]) -> bytes:
    """The curve as a PNG (RGB): the band, the 50% line, the curve and the frame; no text."""
    x_max, _ = _scale(rows)
    pixels = bytearray(b"\xff" * (WIDTH * HEIGHT * 3))

    def put(x: float, y: float, colour: tuple[int, int, int]) -> None:
        xi, yi = round(x), round(y)
        if 0 <= xi < WIDTH and 0 <= yi < HEIGHT:
            at = (yi * WIDTH + xi) * 3
            pixels[at:at + 3] = bytes(colour)

    def segment(a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int], width: int = 1) -> None:
        steps = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
        for i in range(steps + 1):
            t = i / steps
            x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
            for d in range(-(width // 2), width // 2 + 1):
                put(x, y + d, colour)

    for r0, r1 in pairwise(rows):  # the band, column by column
        (xa, ha), (xb, hb) = _xy(r0, "high", x_max), _xy(r1, "high", x_max)
        (_, la), (_, lb) = _xy(r0, "low", x_max), _xy(r1, "low", x_max)
        for xi in range(int(xa), int(xb) + 1):
            t = 0.0 if xb == xa else (xi - xa) / (xb - xa)
            top, bottom = ha + (hb - ha) * t, la + (lb - la) * t
            for yi in range(int(top), int(bottom) + 1):
                put(xi, yi, (190, 218, 236))
    even = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (0.5 - Y_LOW) / (Y_HIGH - Y_LOW)
    for xi in range(MARGIN, WIDTH - MARGIN, 10):
        segment((xi, even), (xi + 5, even), (214, 39, 40))
    for k in range(1, 4):  # grid at 45%, 55%
        y = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * k / 4
        if abs(y - even) > 1:
            for xi in range(MARGIN, WIDTH - MARGIN, 4):
                put(xi, y, (200, 200, 200))
    points = [_xy(r, "win_rate", x_max) for r in rows]
    for a, b in pairwise(points):
        segment(a, b, (8, 81, 156), 3)
    corners = [(MARGIN, MARGIN), (WIDTH - MARGIN, MARGIN), (WIDTH - MARGIN, HEIGHT - MARGIN), (MARGIN, HEIGHT - MARGIN)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        segment(a, b, (0, 0, 0))
    def text(x: float, y: float, words: str, anchor: str = "left", size: int = 2) -> None:
        """``words`` in the pixel font, ``size`` pixels a dot, its top at ``y``."""
        width = len(words) * 6 * size
        left = x - (width if anchor == "right" else width / 2 if anchor == "middle" else 0)
        for k, ch in enumerate(words):
            for row, bits in enumerate(_GLYPHS.get(ch, _GLYPHS[" "])):
                for col in range(5):
                    if bits >> (4 - col) & 1:
                        for dy in range(size):
                            for dx in range(size):
                                put(left + (k * 6 + col) * size + dx, y + row * size + dy, (0, 0, 0))

    for k in range(5):
        y = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * k / 4
        text(MARGIN - 6, y - 7, f"{(Y_LOW + k * (Y_HIGH - Y_LOW) / 4) * 100:.0f}%", "right")
        x = MARGIN + (WIDTH - 2 * MARGIN) * k / 4
        text(x, HEIGHT - MARGIN + 8, f"{x_max * k / 4:.0f}", "middle")
    text(WIDTH / 2, HEIGHT - 18, "CPU s", "middle")
    text(MARGIN, MARGIN - 22, "win %")
    raw = b"".join(b"\x00" + bytes(pixels[y * WIDTH * 3:(y + 1) * WIDTH * 3]) for y in range(HEIGHT))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def write_curve_pictures(rows: Sequence[Mapping[str, float]], stem: Path) -> None:
    """``stem.svg`` and ``stem.png`` of the curve (nothing for an empty curve)."""
    if not rows:
        return
    stem.with_suffix(".svg").write_text(svg(rows))
    stem.with_suffix(".png").write_bytes(png(rows))
