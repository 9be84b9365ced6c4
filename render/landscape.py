"""The landscape: hex fields with labels, costs, terrain, cows, canteens, settlements.

What never changes is drawn once and shared by every game: one sprite per printed
field (its terrain, cost icons and symbols) at a hex size, and the outline of a tile.
A render lays those sprites where this game's tiles lie, writes the labels, then
draws the pieces and the marks of the last turn on top.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import Translator
from rules import Game, data
from rules.board import Field, hex_centre
from rules.recent import RecentTurn

from . import fonts, icons, textboxes
from .caches import cached_image
from .palette import (
    BOARD_GROUND,
    FIELD_EDGE,
    HIGHLIGHT,
    INK,
    LAKE,
    LAKE_WAVE,
    MEADOWS,
    MOUNTAIN,
    MOUNTAIN_ROCK,
    PANEL_EDGE,
    PAPER,
    PLAYER_RGB,
    PLAYER_TINT,
    RGB,
    SNOW,
    START_FIELD,
    TILE_EDGE,
    WHITE,
    seat_colour,
)
from .vocabulary import LABELS

RADIUS_MAX = 60
"""Hex radius in pixels (centre to corner) when the landscape has room for it."""
MAX_WIDTH = 1020
"""The landscape's room in the snapshot's width (the worker board takes the rest)."""
MARGIN = 12
LABEL_SIZE = fonts.TEXT
COUNT_SIZE = fonts.TEXT
START_SIZE = fonts.SMALL
SUPERSAMPLE = 2
FIELD_BYTES = 24 * 1024 * 1024
MARK_WIDTH = 10
"""Width of the ring in the mover's colour around a field built in the last turn; it
runs along the field's edge, a dark line of MARK_EDGE on each side."""
MARK_EDGE = 3
MARK_INSET = 2


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
        return hex_corners(self.centre(q, r), self.radius - inset)


def hex_corners(centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    cx, cy = centre
    return [
        (
            cx + size * math.cos(math.radians(60 * i - 30)),
            cy + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def _extent(hexes: Sequence[tuple[int, int]]) -> tuple[float, float, float, float]:
    """(min x, min y, width, height) of the hexes' centres, in hex radii."""
    return _extent_of(tuple(hexes))


@lru_cache(maxsize=64)
def _extent_of(hexes: tuple[tuple[int, int], ...]) -> tuple[float, float, float, float]:
    """`_extent`, kept: a game's landscape is the same from one picture to the next."""
    xs = [hex_centre(q, r)[0] for q, r in hexes]
    ys = [hex_centre(q, r)[1] for q, r in hexes]
    return min(xs), min(ys), max(xs) - min(xs) + math.sqrt(3), max(ys) - min(ys) + 2


def geometry_for(hexes: Sequence[tuple[int, int]], radius: int) -> LandscapeGeometry:
    min_x, min_y, width, height = _extent(hexes)
    return LandscapeGeometry(
        radius,
        math.ceil(width * radius) + 2 * MARGIN,
        math.ceil(height * radius) + 2 * MARGIN,
        (MARGIN + (math.sqrt(3) / 2 - min_x) * radius, MARGIN + (1 - min_y) * radius),
    )


def radius_to_fit(game: Game, width: int, height: int) -> int:
    """The largest hex radius (at most RADIUS_MAX) whose landscape fits width × height."""
    _, _, units_w, units_h = _extent([f.hex for f in game.fields.values()])
    return min(
        RADIUS_MAX,
        math.floor((width - 2 * MARGIN) / units_w),
        math.floor((height - 2 * MARGIN) / units_h),
    )


def geometry(game: Game) -> LandscapeGeometry:
    """The geometry of `game`'s landscape picture: the largest hexes that fit MAX_WIDTH."""
    radius = radius_to_fit(game, MAX_WIDTH, MAX_WIDTH)
    return geometry_for([f.hex for f in game.fields.values()], radius)


def _expand_cost(cost: Mapping[str, int]) -> tuple[str, ...]:
    goods: list[str] = []
    for good in data.GOODS:
        goods.extend([good] * cost.get(good, 0))
    return tuple(goods)


def _tile_shade(game: Game, tile: str) -> int:
    """0..2 so that neighbouring tiles get different meadow colours."""
    centre = next(p.centre for p in game.tiles if p.letter == tile)
    # tile centres are a*(2,1) + b*(-1,3); (a - b) mod 3 colours the tile lattice
    q, r = centre
    a = round((3 * q + r) / 7)
    b = round((2 * r - q) / 7)
    return (a - b) % 3


def _draw_mountain(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, line: int) -> None:
    peaks = ((-0.3, 0.34, 0.42), (0.22, 0.38, 0.5))
    for dx, base_half, height in peaks:
        px, base_y = cx + dx * r, cy + 0.5 * r
        top = (px, base_y - height * r * 1.6)
        left = (px - base_half * r, base_y)
        right = (px + base_half * r, base_y)
        draw.polygon([top, right, left], fill=MOUNTAIN_ROCK, outline=INK, width=line)
        snow = 0.3
        draw.polygon(
            [
                top,
                (top[0] + (right[0] - top[0]) * snow, top[1] + (right[1] - top[1]) * snow),
                (top[0] + (left[0] - top[0]) * snow, top[1] + (left[1] - top[1]) * snow),
            ],
            fill=SNOW,
        )


def _draw_waves(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, line: int) -> None:
    for dy, dx in ((-0.05, -0.28), (0.55, 0.3), (0.55, -0.4)):
        x0, y0 = cx + dx * r, cy + dy * r
        for k in range(2):
            box = [
                x0 + k * 0.2 * r - 0.1 * r,
                y0 - 0.06 * r,
                x0 + k * 0.2 * r + 0.1 * r,
                y0 + 0.06 * r,
            ]
            draw.arc(box, 200, 340, fill=LAKE_WAVE, width=line)


def _sprite_size(radius: int) -> tuple[int, int]:
    return (math.ceil(math.sqrt(3) * radius) + 4, 2 * radius + 4)


@cached_image("landscape fields", FIELD_BYTES)
def field_sprite(
    kind: str, cost: tuple[str, ...], double: bool, shade: int, radius: int
) -> Image.Image:
    """One printed field (RGB), centred in its sprite: ground, edge, terrain, cost,
    symbols; `hex_mask` cuts it out. `kind` is "plain", "mountain", "lake" or "start"
    (the start tile's field)."""
    width, height = _sprite_size(radius)
    fill = {"mountain": MOUNTAIN, "lake": LAKE, "start": START_FIELD}.get(kind, MEADOWS[shade])
    big = Image.new("RGB", (width * SUPERSAMPLE, height * SUPERSAMPLE), fill)
    draw = ImageDraw.Draw(big)
    centre = (width * SUPERSAMPLE / 2, height * SUPERSAMPLE / 2)
    big_r = radius * SUPERSAMPLE
    corners = hex_corners(centre, big_r)
    draw.line([*corners, corners[0]], fill=FIELD_EDGE, width=2 * SUPERSAMPLE, joint="curve")
    if kind == "mountain":
        _draw_mountain(draw, centre[0], centre[1] + 0.05 * big_r, big_r, SUPERSAMPLE)
    elif kind == "lake":
        _draw_waves(draw, centre[0], centre[1], big_r, 2 * SUPERSAMPLE)
    sprite = big.reduce(SUPERSAMPLE)
    cx, cy = width / 2, height / 2
    if double:
        icons.paste(sprite, icons.double_symbol(round(0.42 * radius)), _double_at(cx, cy, radius))
    if kind == "start":
        icons.paste(sprite, icons.star(round(0.62 * radius)), (cx, cy + 0.08 * radius))
    elif kind == "plain":
        _draw_cost(sprite, cost, cx, cy, radius)
    return sprite


@cached_image("landscape fields", FIELD_BYTES)
def hex_mask(radius: int) -> Image.Image:
    """The shape of a field sprite: its hex and one pixel more, so that neighbours
    overlap without a seam (a two-level mask: pasting through it is a plain copy, three
    times faster than blending through an alpha channel; the edges it leaves hard lie
    under a neighbour or the tile's outline)."""
    mask = Image.new("1", _sprite_size(radius), 0)
    centre = (mask.width / 2, mask.height / 2)
    ImageDraw.Draw(mask).polygon(hex_corners(centre, radius + 1), fill=1)
    return mask


def _double_at(cx: float, cy: float, radius: int) -> tuple[float, float]:
    return (cx - 0.56 * radius, cy - 0.36 * radius)


def _draw_cost(
    base: Image.Image, goods: tuple[str, ...], cx: float, cy: float, radius: int
) -> None:
    if len(goods) <= 2:
        rows = [goods]
        size = round(0.52 * radius)
        ys = [cy + 0.24 * radius]
    elif len(goods) == 3:
        rows = [goods]
        size = round(0.48 * radius)
        ys = [cy + 0.24 * radius]
    else:
        rows = [goods[:2], goods[2:]]
        size = round(0.44 * radius)
        ys = [cy + 0.06 * radius, cy + 0.52 * radius]
    gap = 2
    for row, y in zip(rows, ys, strict=True):
        width = len(row) * size + (len(row) - 1) * gap
        x = cx - width / 2 + size / 2
        for good in row:
            icons.paste(base, icons.good(good, size), (x, y))
            x += size + gap


@cached_image("landscape tile outline", 2 * 1024 * 1024)
def tile_outline(radius: int) -> Image.Image:
    """The thick outline of a tile (a centre hex and its six neighbours), centred."""
    hexes = [(0, 0), *data.HEX_DIRECTIONS]
    geo = geometry_for(hexes, radius)
    size = (geo.width * SUPERSAMPLE, geo.height * SUPERSAMPLE)
    big = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    centre = (geo.origin[0] * SUPERSAMPLE, geo.origin[1] * SUPERSAMPLE)
    inside = set(hexes)
    for q, r in hexes:
        x, y = hex_centre(q, r)
        corners = hex_corners(
            (centre[0] + x * radius * SUPERSAMPLE, centre[1] + y * radius * SUPERSAMPLE),
            radius * SUPERSAMPLE,
        )
        for i, (dq, dr) in enumerate(data.HEX_DIRECTIONS):
            if (q + dq, r + dr) not in inside:
                draw.line([corners[i], corners[(i + 1) % 6]], fill=TILE_EDGE, width=5 * SUPERSAMPLE)
                draw.ellipse(_dot(corners[i], 2.5 * SUPERSAMPLE), fill=TILE_EDGE)
    return big.reduce(SUPERSAMPLE)


def _dot(centre: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    return (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)


def _sprite_of(f: Field, shade: int, radius: int) -> Image.Image:
    kind = "start" if f.start else f.kind
    # only meadows take their tile's shade: one sprite serves every lake, mountain, start
    return field_sprite(
        kind, _expand_cost(f.cost), f.double, shade if kind == "plain" else 0, radius
    )


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


def start_label_box(cx: float, cy: float, radius: int) -> tuple[float, float, float, float]:
    """Where the start tile's label may lie: the lower part of its field, inside the
    hex's sides."""
    return (cx - 0.8 * radius, cy + 0.3 * radius, cx + 0.8 * radius, cy + 0.95 * radius)


def draw_ground(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int],
    t: Translator,
) -> None:
    """The printed landscape of `game`: field sprites, tile outlines, labels, start tile."""
    draw_print(picture, game, geo, offset)
    draw_labels(picture, game, geo, offset, t)


def draw_print(
    picture: Image.Image, game: Game, geo: LandscapeGeometry, offset: tuple[int, int]
) -> None:
    """The fields' sprites and the tiles' outlines: what never changes in a game (most
    of the landscape's drawing)."""
    ox, oy = offset
    radius = geo.radius
    shades = {p.letter: _tile_shade(game, p.letter) for p in game.tiles}
    mask = hex_mask(radius)
    for f in game.fields.values():
        sprite = _sprite_of(f, shades[f.tile], radius)
        cx, cy = geo.centre(f.q, f.r)
        picture.paste(sprite, _top_left(cx + ox, cy + oy, sprite), mask)
    outline = tile_outline(radius)
    for placement in game.tiles:
        cx, cy = geo.centre(*placement.centre)
        picture.paste(outline, _top_left(cx + ox, cy + oy, outline), outline)


def draw_labels(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int],
    t: Translator,
    only: Collection[str] | None = None,
) -> None:
    """The labels of the fields nobody has built on, and the start tile's (of the
    fields labelled `only`, if given)."""
    ox, oy = offset
    radius = geo.radius
    draw = ImageDraw.Draw(picture)
    for f in game.fields.values():
        if only is not None and f.label not in only:
            continue
        cx, cy = geo.centre(f.q, f.r)
        if not f.settlements:
            _draw_label(draw, f.label, f.kind, cx + ox, cy + oy, radius)
        if f.start:
            with textboxes.panel("start tile", start_label_box(cx + ox, cy + oy, radius)):
                fonts.draw_text(
                    draw,
                    (cx + ox, cy + oy + 0.6 * radius),
                    t.translate(LABELS["start_tile"]),
                    START_SIZE,
                    fill=INK,
                    bold=True,
                    anchor="mm",
                )


def _top_left(cx: float, cy: float, sprite: Image.Image) -> tuple[int, int]:
    return (fonts.pixel(cx - sprite.width / 2), fonts.pixel(cy - sprite.height / 2))


@dataclass(frozen=True)
class FieldMark:
    """A ring around a field: built during the last turn, in the builder's colour."""

    label: str
    colour: RGB


def draw_pieces(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int] = (0, 0),
    marks: Sequence[FieldMark] = (),
    only: Collection[str] | None = None,
) -> None:
    """Cows, canteens, settlements (on the fields labelled `only`, if given), and the
    rings of `marks`."""
    draw = ImageDraw.Draw(picture)
    radius = geo.radius
    ox, oy = offset
    seats = {p.id: seat for seat, p in enumerate(game.players)}
    for f in game.fields.values():
        if only is not None and f.label not in only:
            continue
        cx, cy = geo.centre(f.q, f.r)
        cx, cy = cx + ox, cy + oy
        if f.cow:
            icons.paste(
                picture, icons.cow(round(0.46 * radius)), (cx + 0.54 * radius, cy - 0.3 * radius)
            )
        if f.canteen:
            icons.paste(picture, icons.canteen(round(0.62 * radius)), (cx, cy + 0.2 * radius))
        if f.settlements:
            colour = seat_colour(seats.get(f.settlements[0], 0))
            # the cost is paid: a pale wash of the owner's colour replaces it
            draw.polygon(
                [(x + ox, y + oy) for x, y in geo.corners(f.q, f.r, inset=3)],
                fill=PLAYER_TINT[colour],
            )
            _draw_label(draw, f.label, f.kind, cx, cy, radius)
            if f.double:
                icons.paste(
                    picture, icons.double_symbol(round(0.42 * radius)), _double_at(cx, cy, radius)
                )
            icons.paste(picture, icons.house(colour, round(0.8 * radius)), (cx, cy + 0.2 * radius))
            count = len(f.settlements)
            if count > 1:
                bx, by = cx + 0.5 * radius, cy + 0.44 * radius
                badge = 0.25 * radius
                draw.ellipse(_dot((bx, by), badge), fill=WHITE, outline=INK, width=3)
                fonts.draw_text(
                    draw, (bx, by), f"{count}", COUNT_SIZE, fill=INK, bold=True, anchor="mm"
                )
    draw_marks(picture, game, geo, offset, marks)


def draw_marks(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int],
    marks: Sequence[FieldMark],
) -> None:
    """The rings of `marks` (drawn last, over the pieces)."""
    draw = ImageDraw.Draw(picture)
    ox, oy = offset
    for mark in marks:
        f = game.fields[mark.label]
        corners = [(x + ox, y + oy) for x, y in geo.corners(f.q, f.r, inset=MARK_INSET)]
        draw.line([*corners, corners[0]], fill=INK, width=MARK_WIDTH + 2 * MARK_EDGE, joint="curve")
        draw.line([*corners, corners[0]], fill=mark.colour, width=MARK_WIDTH, joint="curve")


def mark_box(
    game: Game, geo: LandscapeGeometry, offset: tuple[int, int], mark: FieldMark
) -> tuple[float, float, float, float]:
    """The box of `mark`'s ring on a picture whose landscape starts at `offset` (its
    field's corners and the ring's half width)."""
    f = game.fields[mark.label]
    corners = geo.corners(f.q, f.r, inset=MARK_INSET)
    half = MARK_WIDTH / 2 + MARK_EDGE
    xs = [x + offset[0] for x, _ in corners]
    ys = [y + offset[1] for _, y in corners]
    return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)


def field_marks(game: Game, turn: RecentTurn | None, highlight: str | None) -> list[FieldMark]:
    """Rings for the fields built in the last turn (in the builder's colour) and for
    `highlight` (a label) if it is not one of them."""
    marks = []
    if turn is not None:
        colour = PLAYER_RGB[seat_colour(game.seat_of(turn.player))]
        marks = [FieldMark(label, colour) for label in turn.builds]
    if highlight is not None and highlight.upper() in game.fields:
        label = highlight.upper()
        if all(mark.label != label for mark in marks):
            marks.append(FieldMark(label, HIGHLIGHT))
    return marks


def draw_landscape(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int],
    marks: Sequence[FieldMark],
    t: Translator,
) -> None:
    """The whole landscape in its frame, its top-left corner at `offset` (`marks` drawn
    last: what `render.layers` keeps is drawn with none)."""
    draw_printed_frame(picture, game, geo, offset)
    draw_over_print(picture, game, geo, offset, marks, t)


def draw_printed_frame(
    picture: Image.Image, game: Game, geo: LandscapeGeometry, offset: tuple[int, int]
) -> None:
    """The landscape's frame and its print (`draw_print`): the first part of
    `draw_landscape`, the same for the whole game (`print_key`), kept apart by
    `render.layers`."""
    ImageDraw.Draw(picture).rounded_rectangle(
        _frame(geo, offset), radius=12, fill=PAPER, outline=PANEL_EDGE, width=2
    )
    draw_print(picture, game, geo, offset)


def draw_over_print(
    picture: Image.Image,
    game: Game,
    geo: LandscapeGeometry,
    offset: tuple[int, int],
    marks: Sequence[FieldMark],
    t: Translator,
    only: Collection[str] | None = None,
) -> None:
    """The rest of `draw_landscape` over `draw_printed_frame`'s: the labels and the
    pieces (the same drawing in the same order, so the pixels are the same); of the
    fields labelled `only`, if given (what a band of rows shows: `bands`)."""
    with textboxes.panel("landscape", _frame(geo, offset)):
        draw_labels(picture, game, geo, offset, t, only)
        draw_pieces(picture, game, geo, offset, marks, only)


def _frame(geo: LandscapeGeometry, offset: tuple[int, int]) -> tuple[int, int, int, int]:
    x, y = offset
    return (x, y, x + geo.width - 1, y + geo.height - 1)


def landscape_picture(game: Game, marks: Sequence[FieldMark], t: Translator) -> Image.Image:
    """The landscape alone (RGB), as the snapshot shows it."""
    geo = geometry(game)
    picture = Image.new("RGB", (geo.width, geo.height), BOARD_GROUND)
    draw_landscape(picture, game, geo, (0, 0), marks, t)
    return picture


def field_key(field: Field, seats: Mapping[str, int]) -> tuple[object, ...]:
    """Everything `draw_landscape` reads of one field (marks aside): where it lies, its
    print, and what stands on it, a settlement by its owner's seat (`seats`)."""
    f = field
    return (
        f.label,
        f.q,
        f.r,
        f.tile,
        f.kind,
        tuple(sorted(f.cost.items())),
        f.double,
        f.start,
        f.cow,
        f.canteen,
        seats.get(f.settlements[0], 0) if f.settlements else None,
        len(f.settlements),
    )


BAND_ROWS = 60
"""The landscape is kept in bands of about this many rows (`bands`): a settlement, a
cow or a canteen redraws, maps and compresses its band, not the whole landscape. A
multiple of every reduction of a replay (2, 3, 4)."""
FIELD_SPILL = 8
"""How far above and below its hexagon a field's drawing may reach (none does: a
margin)."""


@lru_cache(maxsize=64)
def bands(
    geo: LandscapeGeometry, hexes: tuple[tuple[str, int, int], ...], shift: int
) -> tuple[tuple[int, int, int, tuple[str, ...]], ...]:
    """The landscape's bands of rows, (top, bottom, reach, the labels of the fields
    drawn in it, in the order they are drawn), for the fields `hexes` (label, q, r, in
    the game's order); `reach`: the highest row those fields' drawing starts on (a band
    is drawn from there: Pillow does not fill a polygon that starts above its picture's
    top quite as it fills it whole). The cuts are BAND_ROWS apart from `shift` (a
    replay's frame reduces the picture in blocks: each cut on a block's edge). Nothing
    of a field is drawn in a band its hexagon (and FIELD_SPILL) does not reach, so a
    band drawn with its fields alone, over the print, is the landscape's rows."""
    spans = []
    for label, q, r in hexes:
        _, cy = geo.centre(q, r)
        spans.append(
            (
                label,
                math.floor(cy - geo.radius - FIELD_SPILL),
                math.ceil(cy + geo.radius + FIELD_SPILL),
            )
        )
    cuts = [0, *range(shift + BAND_ROWS, geo.height - BAND_ROWS // 2, BAND_ROWS), geo.height]
    shown = []
    for top, bottom in itertools.pairwise(cuts):
        over = [(label, first) for label, first, last in spans if first < bottom and last > top]
        reach = max(0, min([top, *(first for _, first in over)]))
        shown.append((top, bottom, reach, tuple(label for label, _ in over)))
    return tuple(shown)


def print_key(game: Game) -> tuple[object, ...]:
    """Everything `draw_printed_frame` reads from `game`: the tiles and each field's
    print (what is built on it aside)."""
    return (
        tuple((p.letter, p.centre) for p in game.tiles),
        tuple(
            (f.label, f.q, f.r, f.tile, f.kind, tuple(sorted(f.cost.items())), f.double, f.start)
            for f in game.fields.values()
        ),
    )


def field_centres(
    game: Game, geo: LandscapeGeometry, offset: tuple[int, int] = (0, 0)
) -> Mapping[str, tuple[int, int]]:
    """Pixel centre of every field label on a picture whose landscape starts at `offset`."""
    result = {}
    for f in game.fields.values():
        x, y = geo.centre(f.q, f.r)
        result[f.label] = (fonts.pixel(x + offset[0]), fonts.pixel(y + offset[1]))
    return result
