"""The landscape: hex fields with labels, costs, terrain, cows, canteens, settlements.

The parts that never change during a game (terrain, labels, costs, the double
symbol, the start tile, field and tile edges) are drawn once per landscape layout
and cached; each render copies that base and draws the pieces on top.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rules import Game, data
from rules.board import Field, hex_centre

from . import fonts, icons
from .palette import (
    FIELD_EDGE,
    HIGHLIGHT,
    INK,
    LAKE,
    LAKE_WAVE,
    MEADOWS,
    MOUNTAIN,
    MOUNTAIN_ROCK,
    PAPER,
    PLAYER_TINT,
    SNOW,
    START_FIELD,
    TILE_EDGE,
    WHITE,
    seat_colour,
)

RADIUS = 70
"""Hex radius in pixels (centre to corner) of the full picture."""
MARGIN = 14
LABEL_SIZE = 26
SUPERSAMPLE = 2

FieldKey = tuple[str, int, int, str, str, tuple[tuple[str, int], ...], bool, bool]


@dataclass(frozen=True)
class LandscapeGeometry:
    """Where each field lies on the landscape picture."""

    radius: int
    width: int
    height: int
    origin: tuple[float, float]
    """Pixel position of hex (0, 0)'s centre."""

    def centre(self, q: int, r: int) -> tuple[float, float]:
        x, y = hex_centre(q, r)
        return (self.origin[0] + x * self.radius, self.origin[1] + y * self.radius)

    def corners(self, q: int, r: int, inset: float = 0) -> list[tuple[float, float]]:
        """Corners clockwise from the upper right; corner i to i+1 faces HEX_DIRECTIONS[i]."""
        cx, cy = self.centre(q, r)
        size = self.radius - inset
        return [
            (
                cx + size * math.cos(math.radians(60 * i - 30)),
                cy + size * math.sin(math.radians(60 * i - 30)),
            )
            for i in range(6)
        ]


def geometry_for(hexes: list[tuple[int, int]], radius: int = RADIUS) -> LandscapeGeometry:
    xs = [hex_centre(q, r)[0] for q, r in hexes]
    ys = [hex_centre(q, r)[1] for q, r in hexes]
    half_width = math.sqrt(3) / 2
    width = math.ceil((max(xs) - min(xs) + 2 * half_width) * radius) + 2 * MARGIN
    height = math.ceil((max(ys) - min(ys) + 2) * radius) + 2 * MARGIN
    origin = (
        MARGIN + (half_width - min(xs)) * radius,
        MARGIN + (1 - min(ys)) * radius,
    )
    return LandscapeGeometry(radius, width, height, origin)


def geometry(game: Game, radius: int = RADIUS) -> LandscapeGeometry:
    """The geometry of `game`'s landscape picture."""
    return geometry_for([f.hex for f in game.fields.values()], radius)


def field_key(f: Field) -> FieldKey:
    return (f.label, f.q, f.r, f.tile, f.kind, tuple(sorted(f.cost.items())), f.double, f.start)


def layout_key(game: Game) -> tuple[FieldKey, ...]:
    """What the static art depends on: the fields' places, kinds, costs and the start tile."""
    return tuple(field_key(f) for f in game.fields.values())


def _expand_cost(cost: tuple[tuple[str, int], ...]) -> list[str]:
    order = {good: i for i, good in enumerate(data.GOODS)}
    goods: list[str] = []
    for good, count in sorted(cost, key=lambda item: order[item[0]]):
        goods.extend([good] * count)
    return goods


def _tile_shade(key: tuple[FieldKey, ...], tile: str) -> int:
    """0..2 so that neighbouring tiles get different meadow colours."""
    centre = [k for k in key if k[3] == tile]
    q = sum(k[1] for k in centre) // len(centre)
    r = sum(k[2] for k in centre) // len(centre)
    # tile centres are a*(2,1) + b*(-1,3); (a - b) mod 3 colours the tile lattice
    a = round((3 * q + r) / 7)
    b = round((2 * r - q) / 7)
    return (a - b) % 3


def _draw_mountain(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    peaks = ((-0.3, 0.34, 0.42), (0.22, 0.38, 0.5))
    for dx, base_half, height in peaks:
        px, base_y = cx + dx * r, cy + 0.5 * r
        top = (px, base_y - height * r * 1.6)
        left = (px - base_half * r, base_y)
        right = (px + base_half * r, base_y)
        draw.polygon([top, right, left], fill=MOUNTAIN_ROCK, outline=INK, width=SUPERSAMPLE)
        snow = 0.3
        draw.polygon(
            [
                top,
                (top[0] + (right[0] - top[0]) * snow, top[1] + (right[1] - top[1]) * snow),
                (top[0] + (left[0] - top[0]) * snow, top[1] + (left[1] - top[1]) * snow),
            ],
            fill=SNOW,
        )


def _draw_waves(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    for dy, dx in ((-0.05, -0.28), (0.55, 0.3), (0.55, -0.4)):
        x0, y0 = cx + dx * r, cy + dy * r
        for k in range(2):
            box = [
                x0 + k * 0.2 * r - 0.1 * r,
                y0 - 0.06 * r,
                x0 + k * 0.2 * r + 0.1 * r,
                y0 + 0.06 * r,
            ]
            draw.arc(box, 200, 340, fill=LAKE_WAVE, width=2 * SUPERSAMPLE)


@lru_cache(maxsize=16)
def static_base(key: tuple[FieldKey, ...], radius: int = RADIUS) -> Image.Image:
    """The landscape without its movable pieces (cows, canteens, settlements)."""
    geo = geometry_for([(k[1], k[2]) for k in key], radius)
    big_geo = geometry_for([(k[1], k[2]) for k in key], radius * SUPERSAMPLE)
    big = Image.new("RGB", (geo.width * SUPERSAMPLE, geo.height * SUPERSAMPLE), PAPER)
    draw = ImageDraw.Draw(big)
    by_hex = {(k[1], k[2]): k for k in key}
    shades = {tile: _tile_shade(key, tile) for tile in {k[3] for k in key}}
    big_r = radius * SUPERSAMPLE
    for k in key:
        label, q, r, tile, kind, _cost, _double, start = k
        fill = {"mountain": MOUNTAIN, "lake": LAKE}.get(kind, MEADOWS[shades[tile]])
        if start:
            fill = START_FIELD
        draw.polygon(big_geo.corners(q, r), fill=fill, outline=FIELD_EDGE, width=2 * SUPERSAMPLE)
        cx, cy = big_geo.centre(q, r)
        if kind == "mountain":
            _draw_mountain(draw, cx, cy + 0.05 * big_r, big_r)
        elif kind == "lake":
            _draw_waves(draw, cx, cy, big_r)
    for k in key:
        _label, q, r, tile = k[:4]
        corners = big_geo.corners(q, r)
        for i, (dq, dr) in enumerate(data.HEX_DIRECTIONS):
            neighbour = by_hex.get((q + dq, r + dr))
            if neighbour is None or neighbour[3] != tile:
                draw.line([corners[i], corners[(i + 1) % 6]], fill=TILE_EDGE, width=5 * SUPERSAMPLE)
    base = big.resize((geo.width, geo.height), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(base)
    for k in key:
        label, q, r, _tile, kind, cost, double, start = k
        cx, cy = geo.centre(q, r)
        _draw_label(draw, label, kind, cx, cy, radius)
        if double:
            icons.paste(base, icons.double_symbol(26), (cx - 0.54 * radius, cy - 0.34 * radius))
        if start:
            icons.paste(base, icons.star(40), (cx, cy + 0.1 * radius))
            fonts.draw_text(
                draw, (cx, cy + 0.5 * radius), "START", 17, fill=INK, bold=True, anchor="mm"
            )
        elif kind == "plain":
            _draw_cost(base, _expand_cost(cost), cx, cy, radius)
    return base


def _draw_label(
    draw: ImageDraw.ImageDraw, label: str, kind: str, cx: float, cy: float, radius: int
) -> None:
    dark_ground = kind in ("mountain", "lake")
    fonts.draw_text(
        draw,
        (cx, cy - 0.6 * radius),
        label,
        LABEL_SIZE,
        fill=WHITE if dark_ground else INK,
        bold=True,
        anchor="mm",
        stroke=INK if dark_ground else None,
        stroke_width=2 if dark_ground else 0,
    )


def _draw_cost(base: Image.Image, goods: list[str], cx: float, cy: float, radius: int) -> None:
    if len(goods) <= 2:
        rows = [goods]
        size = round(0.52 * radius)
        ys = [cy + 0.24 * radius]
    elif len(goods) == 3:
        rows = [goods]
        size = round(0.46 * radius)
        ys = [cy + 0.24 * radius]
    else:
        rows = [goods[:2], goods[2:]]
        size = round(0.42 * radius)
        ys = [cy + 0.08 * radius, cy + 0.5 * radius]
    gap = 3
    for row, y in zip(rows, ys, strict=True):
        width = len(row) * size + (len(row) - 1) * gap
        x = cx - width / 2 + size / 2
        for good in row:
            icons.paste(base, icons.good(good, size), (x, y))
            x += size + gap


def draw_pieces(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int] = (0, 0),
    highlight: str | None = None,
) -> None:
    """Cows, canteens, settlements and the highlight, on a copy of the static base."""
    draw = ImageDraw.Draw(picture)
    radius = geo.radius
    ox, oy = offset
    seats = {p.id: seat for seat, p in enumerate(game.players)}
    for f in game.fields.values():
        cx, cy = geo.centre(f.q, f.r)
        cx, cy = cx + ox, cy + oy
        if f.cow:
            icons.paste(
                picture, icons.cow(round(0.46 * radius)), (cx + 0.54 * radius, cy - 0.32 * radius)
            )
        if f.canteen:
            icons.paste(picture, icons.canteen(round(0.62 * radius)), (cx, cy + 0.2 * radius))
        if f.settlements:
            owner = f.settlements[0]
            colour = seat_colour(seats.get(owner, 0))
            # the cost is paid: a pale tint of the owner's colour replaces it
            draw.polygon(
                [(x + ox, y + oy) for x, y in geo.corners(f.q, f.r, inset=3)],
                fill=PLAYER_TINT[colour],
            )
            _draw_label(draw, f.label, f.kind, cx, cy, radius)
            if f.double:
                icons.paste(
                    picture, icons.double_symbol(26), (cx - 0.54 * radius, cy - 0.34 * radius)
                )
            icons.paste(picture, icons.house(colour, round(0.8 * radius)), (cx, cy + 0.2 * radius))
            count = len(f.settlements)
            if count > 1:
                bx, by = cx + 0.5 * radius, cy + 0.42 * radius
                badge = 0.22 * radius
                draw.ellipse(
                    [bx - badge, by - badge, bx + badge, by + badge],
                    fill=WHITE,
                    outline=INK,
                    width=3,
                )
                fonts.draw_text(draw, (bx, by), f"{count}", 24, fill=INK, bold=True, anchor="mm")
        if highlight is not None and f.label == highlight.upper():
            corners = [(x + ox, y + oy) for x, y in geo.corners(f.q, f.r, inset=4)]
            draw.line([*corners, corners[0]], fill=HIGHLIGHT, width=7, joint="curve")


def landscape_picture(game: Game, highlight: str | None = None) -> Image.Image:
    """The landscape alone (RGB)."""
    geo = geometry(game)
    picture = static_base(layout_key(game)).copy()
    draw_pieces(picture, game, geo, highlight=highlight)
    return picture


def field_centres(game: Game, offset: tuple[int, int] = (0, 0)) -> Mapping[str, tuple[int, int]]:
    """Pixel centre of every field label on a picture whose landscape starts at `offset`."""
    geo = geometry(game)
    result = {}
    for f in game.fields.values():
        x, y = geo.centre(f.q, f.r)
        result[f.label] = (round(x + offset[0]), round(y + offset[1]))
    return result
