"""Small pictures (goods, coins, cows, canteens, workers, settlements) as cached sprites.

Each sprite is drawn four times larger and scaled down, which smooths its edges;
the result is kept per (kind, size), so a render only pastes ready images.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from . import fonts, textboxes
from .caches import cached_image
from .palette import (
    GOLD,
    GOLD_EDGE,
    INK,
    PLAYER_INK,
    PLAYER_RGB,
    RGB,
    WHITE,
    WORKER_INK,
    WORKER_RGB,
)
from .vocabulary import PLAYER_COLOURS, WORKER_COLOURS

SCALE = 4
ICON_BYTES = 16 * 1024 * 1024
_cached = cached_image("icons", ICON_BYTES)
"""Sprites per (kind, size, colour): a few hundred small images shared by every game."""
OUTLINE = (40, 32, 24)
Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, float], None]


def _sprite(size: int, paint: Painter, height: int | None = None) -> Image.Image:
    """Paint on a canvas SCALE times larger, in units where the sprite is 1 wide."""
    w, h = size, height or size
    big = Image.new("RGBA", (w * SCALE, h * SCALE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), w * SCALE)
    return big.reduce(SCALE)


def _pts(points: list[Point], unit: float) -> list[Point]:
    return [(x * unit, y * unit) for x, y in points]


def _box(x0: float, y0: float, x1: float, y1: float, unit: float) -> list[float]:
    return [x0 * unit, y0 * unit, x1 * unit, y1 * unit]


# --- goods ------------------------------------------------------------------------------


def _grain(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.05))
    d.line(_pts([(0.5, 0.98), (0.5, 0.2)], u), fill=(120, 84, 20), width=round(u * 0.1))
    for i in range(3):
        y = 0.34 + i * 0.2
        for side in (-1, 1):
            cx = 0.5 + side * 0.17
            d.ellipse(
                _box(cx - 0.16, y - 0.11, cx + 0.16, y + 0.11, u),
                fill=(232, 186, 60),
                outline=OUTLINE,
                width=w,
            )
    d.ellipse(_box(0.37, 0.02, 0.63, 0.32, u), fill=(232, 186, 60), outline=OUTLINE, width=w)


def _pumpkin(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.05))
    d.rectangle(_box(0.45, 0.08, 0.57, 0.3, u), fill=(70, 120, 40), outline=OUTLINE, width=w)
    d.ellipse(_box(0.05, 0.25, 0.6, 0.92, u), fill=(236, 120, 20), outline=OUTLINE, width=w)
    d.ellipse(_box(0.4, 0.25, 0.95, 0.92, u), fill=(236, 120, 20), outline=OUTLINE, width=w)
    d.ellipse(_box(0.25, 0.22, 0.75, 0.95, u), fill=(248, 146, 36), outline=OUTLINE, width=w)


def _nugget(fill: RGB, shine: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        w = max(1, round(u * 0.06))
        shape = [
            (0.1, 0.4),
            (0.34, 0.16),
            (0.7, 0.2),
            (0.9, 0.48),
            (0.78, 0.82),
            (0.4, 0.88),
            (0.12, 0.7),
        ]
        d.polygon(_pts(shape, u), fill=fill, outline=OUTLINE, width=w)
        d.polygon(_pts([(0.3, 0.34), (0.5, 0.28), (0.42, 0.46)], u), fill=shine)

    return paint


def _ingot(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.05))
    top = [(0.22, 0.2), (0.78, 0.2), (0.95, 0.42), (0.05, 0.42)]
    front = [(0.05, 0.42), (0.95, 0.42), (0.95, 0.82), (0.05, 0.82)]
    d.polygon(_pts(front, u), fill=(176, 88, 36), outline=OUTLINE, width=w)
    d.polygon(_pts(top, u), fill=(226, 140, 78), outline=OUTLINE, width=w)
    d.line(_pts([(0.3, 0.31), (0.7, 0.31)], u), fill=(250, 200, 150), width=w)


def _block(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.05))
    d.rectangle(_box(0.05, 0.18, 0.95, 0.86, u), fill=(132, 132, 138), outline=OUTLINE, width=w)
    for y in (0.4, 0.63):
        d.line(_pts([(0.05, y), (0.95, y)], u), fill=OUTLINE, width=w)
    for x, y0, y1 in ((0.5, 0.18, 0.4), (0.3, 0.4, 0.63), (0.7, 0.4, 0.63), (0.5, 0.63, 0.86)):
        d.line(_pts([(x, y0), (x, y1)], u), fill=OUTLINE, width=w)


GOOD_PAINTERS: dict[str, Painter] = {
    "grain": _grain,
    "pumpkin": _pumpkin,
    "copper": _nugget((196, 104, 46), (250, 190, 140)),
    "stone": _nugget((160, 160, 166), (225, 225, 230)),
    "bigcopper": _ingot,
    "bigstone": _block,
}


@_cached
def good(name: str, size: int) -> Image.Image:
    """A good: grain ear, pumpkin, copper nugget, stone pebble, copper ingot, stone block."""
    return _sprite(size, GOOD_PAINTERS[name])


# --- other pieces -------------------------------------------------------------------------


def _coin(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.06))
    d.ellipse(_box(0.06, 0.06, 0.94, 0.94, u), fill=GOLD, outline=GOLD_EDGE, width=w)
    d.ellipse(_box(0.24, 0.24, 0.76, 0.76, u), outline=GOLD_EDGE, width=w)


def _cow(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.05))
    d.polygon(
        _pts([(0.08, 0.3), (0.26, 0.36), (0.2, 0.2)], u),
        fill=(230, 220, 200),
        outline=OUTLINE,
        width=w,
    )
    d.polygon(
        _pts([(0.92, 0.3), (0.74, 0.36), (0.8, 0.2)], u),
        fill=(230, 220, 200),
        outline=OUTLINE,
        width=w,
    )
    d.ellipse(_box(0.2, 0.2, 0.8, 0.82, u), fill=WHITE, outline=OUTLINE, width=w)
    d.ellipse(_box(0.24, 0.28, 0.48, 0.5, u), fill=(40, 34, 30))
    d.ellipse(_box(0.28, 0.62, 0.72, 0.95, u), fill=(240, 170, 170), outline=OUTLINE, width=w)
    d.ellipse(_box(0.38, 0.74, 0.45, 0.82, u), fill=OUTLINE)
    d.ellipse(_box(0.55, 0.74, 0.62, 0.82, u), fill=OUTLINE)
    d.ellipse(_box(0.34, 0.44, 0.42, 0.52, u), fill=WHITE)
    d.ellipse(_box(0.58, 0.44, 0.66, 0.52, u), fill=OUTLINE)


def _canteen(d: ImageDraw.ImageDraw, u: float) -> None:
    w = max(1, round(u * 0.06))
    d.arc(_box(0.1, 0.0, 0.9, 0.7, u), 180, 360, fill=(90, 60, 30), width=round(u * 0.07))
    d.rectangle(_box(0.42, 0.12, 0.58, 0.3, u), fill=(90, 90, 90), outline=OUTLINE, width=w)
    d.ellipse(_box(0.1, 0.25, 0.9, 0.98, u), fill=(96, 132, 84), outline=OUTLINE, width=w)
    d.ellipse(_box(0.26, 0.4, 0.74, 0.84, u), outline=(200, 215, 180), width=w)


def _house(fill: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        w = max(1, round(u * 0.06))
        shape = [
            (0.5, 0.04),
            (0.96, 0.42),
            (0.86, 0.42),
            (0.86, 0.96),
            (0.14, 0.96),
            (0.14, 0.42),
            (0.04, 0.42),
        ]
        d.polygon(_pts(shape, u), fill=fill, outline=OUTLINE, width=w)

    return paint


def _meeple(fill: RGB, outline: RGB = OUTLINE) -> Painter:
    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        w = max(1, round(u * 0.06))
        body = [
            (0.5, 0.28),
            (0.98, 0.4),
            (0.96, 0.54),
            (0.76, 0.54),
            (0.94, 0.98),
            (0.6, 0.98),
            (0.5, 0.86),
            (0.4, 0.98),
            (0.06, 0.98),
            (0.24, 0.54),
            (0.04, 0.54),
            (0.02, 0.4),
        ]
        d.polygon(_pts(body, u), fill=fill, outline=outline, width=w)
        d.ellipse(_box(0.32, 0.0, 0.68, 0.36, u), fill=fill, outline=outline, width=w)

    return paint


def _pawn(fill: RGB) -> Painter:
    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        w = max(1, round(u * 0.06))
        d.polygon(
            _pts([(0.3, 0.4), (0.7, 0.4), (0.9, 0.96), (0.1, 0.96)], u),
            fill=fill,
            outline=OUTLINE,
            width=w,
        )
        d.ellipse(_box(0.26, 0.02, 0.74, 0.5, u), fill=fill, outline=OUTLINE, width=w)

    return paint


def _with_letter(
    base: Image.Image, letter: str, ink: RGB, centre_y: float, scale: float = 0.42
) -> Image.Image:
    picture = base.copy()
    size = base.width
    with textboxes.panel("piece", (0, 0, picture.width, picture.height)):
        fonts.draw_text(
            ImageDraw.Draw(picture),
            (size / 2, size * centre_y),
            letter,
            fonts.LARGE if size * scale >= fonts.LARGE else fonts.SMALL,
            fill=ink,
            bold=True,
            anchor="mm",
        )
    return picture


@_cached
def coin(size: int) -> Image.Image:
    return _sprite(size, _coin)


@_cached
def cow(size: int) -> Image.Image:
    return _sprite(size, _cow)


@_cached
def canteen(size: int) -> Image.Image:
    return _sprite(size, _canteen)


@_cached
def house(colour: str, size: int) -> Image.Image:
    """A settlement in a player colour, with the colour's letter low in the body."""
    return _with_letter(
        _sprite(size, _house(PLAYER_RGB[colour])),
        PLAYER_COLOURS[colour].letter,
        PLAYER_INK[colour],
        0.74,
    )


@_cached
def plain_house(size: int, fill: RGB = WHITE) -> Image.Image:
    return _sprite(size, _house(fill))


@_cached
def double_symbol(size: int) -> Image.Image:
    """Two settlement outlines side by side: the double-settlement field."""
    picture = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    small = plain_house(round(size * 0.62))
    picture.alpha_composite(small, (0, round(size * 0.08)))
    picture.alpha_composite(small, (size - small.width, round(size * 0.3)))
    return picture


@_cached
def worker(colour: str, size: int) -> Image.Image:
    """A worker in its colour with the colour's letter (C, S, G, P)."""
    return _with_letter(
        _sprite(size, _meeple(WORKER_RGB[colour])),
        WORKER_COLOURS[colour].letter,
        WORKER_INK[colour],
        0.62,
        0.56,
    )


@_cached
def empty_worker(size: int) -> Image.Image:
    """The faint outline of a free worker spot."""

    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        _meeple((246, 246, 246), (200, 200, 200))(d, u)

    return _sprite(size, paint)


@_cached
def wild_worker(size: int) -> Image.Image:
    """A white worker with a question mark: any colour."""
    return _with_letter(
        _sprite(size, _meeple(WHITE)), WORKER_COLOURS["wild"].letter, INK, 0.62, 0.56
    )


@_cached
def pawn(colour: str, size: int) -> Image.Image:
    """A representative in a player colour, with the colour's letter."""
    return _with_letter(
        _sprite(size, _pawn(PLAYER_RGB[colour])),
        PLAYER_COLOURS[colour].letter,
        PLAYER_INK[colour],
        0.68,
    )


@_cached
def star(size: int, fill: RGB = (220, 40, 40)) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        points = []
        for i in range(10):
            radius = 0.48 if i % 2 == 0 else 0.2
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((0.5 + radius * math.cos(angle), 0.52 + radius * math.sin(angle)))
        d.polygon(_pts(points, u), fill=fill, outline=OUTLINE, width=max(1, round(u * 0.04)))

    return _sprite(size, paint)


@_cached
def arrow(size: int, fill: RGB = INK) -> Image.Image:
    """A right-pointing arrow (upgrades: small good -> large good)."""

    def paint(d: ImageDraw.ImageDraw, u: float) -> None:
        d.polygon(
            _pts(
                [
                    (0.05, 0.4),
                    (0.55, 0.4),
                    (0.55, 0.2),
                    (0.95, 0.5),
                    (0.55, 0.8),
                    (0.55, 0.6),
                    (0.05, 0.6),
                ],
                u,
            ),
            fill=fill,
        )

    return _sprite(size, paint)


@_cached
def faded(kind: str, colour: str, size: int) -> Image.Image:
    """A worker ("worker") or representative ("pawn") drawn pale: one that stood there
    during the last turn and has left since (cleared, or back from the city)."""
    sprite = worker(colour, size) if kind == "worker" else pawn(colour, size)
    picture = sprite.copy()
    alpha = picture.getchannel("A").point(lambda a: a * 45 // 100)
    picture.putalpha(alpha)
    return picture


def paste(target: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste `sprite` centred on `centre` (target is RGB or RGBA)."""
    x = fonts.pixel(centre[0] - sprite.width / 2)
    y = fonts.pixel(centre[1] - sprite.height / 2)
    target.paste(sprite, (x, y), sprite)
