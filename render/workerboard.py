"""The worker board: recruitment wheel, bank, city and the four harvest areas.

Everything printed on the board is drawn once (`static_board`); a render pastes the
wheel turned to its last stop, the workers standing on the boxes and the
representatives in the city.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rules import Game, data

from . import fonts, icons
from .palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    WHITE,
    seat_colour,
)

WIDTH = 1280
TOP_HEIGHT = 370
AREA_HEIGHT = 290
HEIGHT = TOP_HEIGHT + AREA_HEIGHT + 10
WORKER = 36
TITLE_SIZE = 28
TEXT_SIZE = 24

WHEEL_CENTRE = (170, 196)
WHEEL_RADIUS = 150
BANK_BOX = (340, 10, 690, TOP_HEIGHT - 6)
CITY_BOX = (700, 10, WIDTH - 10, TOP_HEIGHT - 6)
AREA_TITLES = {
    "mine": "Mine",
    "quarry": "Quarry",
    "wheatfield": "Grain field",
    "garden": "Pumpkin garden",
}
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class BoardLayout:
    """Where the movable pieces go, shared by the static art and the pieces."""

    bank_spots: tuple[tuple[tuple[float, float], ...], ...]
    harvest_spots: dict[tuple[str, int, str], tuple[tuple[float, float], ...]]
    """(area, place 1..3, "large"/"small") -> centres of its two worker spots."""
    city_cells: dict[tuple[int, int], tuple[float, float]]


def _panel(draw: ImageDraw.ImageDraw, box: Box, title: str) -> None:
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    fonts.draw_text(draw, (box[0] + 14, box[1] + 8), title, TITLE_SIZE, fill=INK, bold=True)


@lru_cache(maxsize=1)
def layout() -> BoardLayout:
    bank_spots = []
    x0, y0, x1, _ = BANK_BOX
    cell_w = (x1 - x0 - 30) / 2
    for i in range(len(data.BANK)):
        col, row = i % 2, i // 2
        left = x0 + 10 + col * (cell_w + 10)
        top = y0 + 50 + row * 152
        needed = data.BANK[i][0]
        spots = tuple(
            (left + cell_w / 2 + (k - (needed - 1) / 2) * (WORKER + 6), top + 106)
            for k in range(needed)
        )
        bank_spots.append(spots)
    harvest_spots: dict[tuple[str, int, str], tuple[tuple[float, float], ...]] = {}
    area_w = (WIDTH - 50) / 4
    for a, area in enumerate(data.AREAS):
        left = 10 + a * (area_w + 10)
        for place in range(1, 4):
            y = TOP_HEIGHT + 10 + 110 + (place - 1) * 68
            large_x = left + 170
            small_x = left + 258
            harvest_spots[(area, place, "large")] = ((large_x - 19, y), (large_x + 19, y))
            harvest_spots[(area, place, "small")] = ((small_x - 19, y), (small_x + 19, y))
    city_cells = {}
    cx0, cy0, cx1, cy1 = CITY_BOX
    grid_left = cx0 + 196
    cell_w = (cx1 - 10 - grid_left) / 4
    cell_h = (cy1 - cy0 - 100) / 4
    for row in range(1, data.CITY_ROWS + 1):
        for col in range(1, len(data.CITY_COSTS) + 1):
            city_cells[(row, col)] = (
                grid_left + (col - 0.5) * cell_w,
                cy0 + 92 + (row - 0.5) * cell_h,
            )
    return BoardLayout(tuple(bank_spots), harvest_spots, city_cells)


def _segment_angle(segment: int) -> float:
    """Centre angle (radians, 0 = up, clockwise) of wheel segment 1..8."""
    return 2 * math.pi * (segment - 1) / len(data.WHEEL)


def _polar(angle: float, radius: float) -> tuple[float, float]:
    cx, cy = WHEEL_CENTRE
    return (cx + radius * math.sin(angle), cy - radius * math.cos(angle))


@lru_cache(maxsize=len(data.WHEEL) + 1)
def wheel_picture(stop: int | None) -> Image.Image:
    """The recruitment wheel (its own square), the last stop marked by the arrow."""
    size = 2 * WHEEL_RADIUS + 20
    scale = 3
    big = Image.new("RGBA", (size * scale, size * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * scale / 2
    r = WHEEL_RADIUS * scale
    n = len(data.WHEEL)
    for i in range(n):
        start = -90 + 360 * (i - 0.5) / n
        fill = (255, 236, 170) if stop == i + 1 else ((236, 226, 200) if i % 2 else (222, 210, 180))
        draw.pieslice(
            [c - r, c - r, c + r, c + r],
            start,
            start + 360 / n,
            fill=fill,
            outline=INK,
            width=2 * scale,
        )
    draw.ellipse([c - r, c - r, c + r, c + r], outline=INK, width=3 * scale)
    if stop is not None:
        angle = _segment_angle(stop)
        tip = (c + 0.9 * r * math.sin(angle), c - 0.9 * r * math.cos(angle))
        side = 0.09 * r
        left = (c + side * math.sin(angle - math.pi / 2), c - side * math.cos(angle - math.pi / 2))
        right = (c + side * math.sin(angle + math.pi / 2), c - side * math.cos(angle + math.pi / 2))
        draw.polygon([tip, left, right], fill=HIGHLIGHT, outline=INK, width=2 * scale)
    draw.ellipse([c - 0.14 * r, c - 0.14 * r, c + 0.14 * r, c + 0.14 * r], fill=INK)
    picture = big.resize((size, size), Image.Resampling.LANCZOS)
    text = ImageDraw.Draw(picture)
    half = size / 2
    for i, pair in enumerate(data.WHEEL):
        angle = _segment_angle(i + 1)
        sx, sy = (
            half + 0.84 * WHEEL_RADIUS * math.sin(angle),
            half - 0.84 * WHEEL_RADIUS * math.cos(angle),
        )
        fonts.draw_text(text, (sx, sy), str(i + 1), 20, fill=MUTED, bold=True, anchor="mm")
        for k, colour in enumerate(pair):
            offset = (k - 0.5) * 0.24
            wx = half + 0.58 * WHEEL_RADIUS * math.sin(angle + offset)
            wy = half - 0.58 * WHEEL_RADIUS * math.cos(angle + offset)
            sprite = icons.wild_worker(30) if colour == data.WILD else icons.worker(colour, 30)
            icons.paste(picture, sprite, (wx, wy))
    return picture


def _upgrade_icon(picture: Image.Image, x: float, y: float) -> float:
    """Small copper -> large copper, drawn from x; returns the width used."""
    icons.paste(picture, icons.good("copper", 28), (x + 14, y))
    icons.paste(picture, icons.arrow(16), (x + 35, y))
    icons.paste(picture, icons.good("bigcopper", 28), (x + 56, y))
    return 70


def _reward(picture: Image.Image, draw: ImageDraw.ImageDraw, row: int, x: float, y: float) -> None:
    reward = data.CITY_REWARDS[row]
    if reward["coins"]:
        icons.paste(picture, icons.coin(26), (x + 13, y))
        x += (
            fonts.draw_text(
                draw, (x + 28, y), f"{reward['coins']}", TEXT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            + 36
        )
    if reward["cows"]:
        icons.paste(picture, icons.cow(30), (x + 15, y))
        x += 34
    if reward["upgrades"]:
        x += (
            fonts.draw_text(
                draw, (x, y), f"{reward['upgrades']}×", TEXT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            + 2
        )
        _upgrade_icon(picture, x, y)
    if reward["goods"]:
        x += (
            fonts.draw_text(
                draw,
                (x, y),
                f"{reward['goods']} of",
                TEXT_SIZE - 2,
                fill=INK,
                bold=True,
                anchor="lm",
            )
            + 4
        )
        for good in data.CITY_GOODS:
            icons.paste(picture, icons.good(good, 24), (x + 12, y))
            x += 26


@lru_cache(maxsize=1)
def static_board() -> Image.Image:
    """The worker board with nothing standing on it."""
    spots = layout()
    picture = Image.new("RGB", (WIDTH, HEIGHT), (233, 224, 200))
    draw = ImageDraw.Draw(picture)
    _panel(draw, (10, 10, 330, TOP_HEIGHT - 6), "Wheel")
    _panel(draw, BANK_BOX, "Bank")
    x0, y0, x1, _ = BANK_BOX
    cell_w = (x1 - x0 - 30) / 2
    for i, (_needed, coins) in enumerate(data.BANK):
        col, row = i % 2, i // 2
        left = x0 + 10 + col * (cell_w + 10)
        top = y0 + 50 + row * 152
        draw.rounded_rectangle(
            (left, top, left + cell_w, top + 142), radius=8, fill=WHITE, outline=PANEL_EDGE, width=2
        )
        fonts.draw_text(draw, (left + 10, top + 8), f"{i + 1}", 20, fill=MUTED, bold=True)
        icons.paste(picture, icons.coin(40), (left + cell_w / 2 - 30, top + 44))
        fonts.draw_text(
            draw,
            (left + cell_w / 2 - 4, top + 44),
            f"+{coins}",
            36,
            fill=INK,
            bold=True,
            anchor="lm",
        )
        for spot in spots.bank_spots[i]:
            icons.paste(picture, icons.empty_worker(WORKER), spot)
    _panel(draw, CITY_BOX, "City")
    cx0, cy0 = CITY_BOX[:2]
    fonts.draw_text(draw, (cx0 + 14, cy0 + 64), "row: reward", 18, fill=MUTED, anchor="lm")
    for col, cost in enumerate(data.CITY_COSTS, start=1):
        x, _ = spots.city_cells[(1, col)]
        icons.paste(picture, icons.good("pumpkin", 30), (x - 14, cy0 + 64))
        fonts.draw_text(draw, (x + 4, cy0 + 64), f"{cost}", 28, fill=INK, bold=True, anchor="lm")
    for row in range(1, data.CITY_ROWS + 1):
        _, y = spots.city_cells[(row, 1)]
        fonts.draw_text(draw, (cx0 + 14, y), f"{row}", 22, fill=MUTED, bold=True, anchor="lm")
        _reward(picture, draw, row, cx0 + 34, y)
        for col in range(1, len(data.CITY_COSTS) + 1):
            x, y = spots.city_cells[(row, col)]
            draw.rounded_rectangle(
                (x - 34, y - 26, x + 34, y + 26), radius=6, fill=WHITE, outline=PANEL_EDGE, width=2
            )
    area_w = (WIDTH - 50) / 4
    for a, area in enumerate(data.AREAS):
        left = 10 + a * (area_w + 10)
        top = TOP_HEIGHT + 10
        good = data.AREA_GOOD[area]
        _panel(draw, (left, top, left + area_w, top + AREA_HEIGHT - 10), "")
        icons.paste(picture, icons.good(good, 32), (left + 26, top + 26))
        fonts.draw_text(
            draw,
            (left + 48, top + 26),
            AREA_TITLES[area],
            TITLE_SIZE - 2,
            fill=INK,
            bold=True,
            anchor="lm",
        )
        icons.paste(
            picture, icons.worker(data.AREA_COLOUR[area], 28), (left + area_w - 24, top + 26)
        )
        for place, (coins, amount) in enumerate(data.HARVEST_PLACES[area], start=1):
            large = spots.harvest_spots[(area, place, "large")]
            small = spots.harvest_spots[(area, place, "small")]
            y = large[0][1]
            icons.paste(picture, icons.coin(26), (left + 20, y))
            fonts.draw_text(
                draw, (left + 36, y), f"{coins}", TEXT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            icons.paste(picture, icons.arrow(14), (left + 64, y))
            fonts.draw_text(
                draw, (left + 74, y), f"{amount}", TEXT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            icons.paste(picture, icons.good(good, 26), (left + 101, y))
            for box in (large, small):
                bx = (box[0][0] + box[1][0]) / 2
                draw.rounded_rectangle(
                    (bx - 40, y - 29, bx + 40, y + 29),
                    radius=6,
                    fill=WHITE,
                    outline=PANEL_EDGE,
                    width=2,
                )
        large_x = spots.harvest_spots[(area, 1, "large")][0][0] + 19
        small_x = spots.harvest_spots[(area, 1, "small")][0][0] + 19
        header_y = top + 60
        fonts.draw_text(draw, (left + 60, header_y), "pay → take", 17, fill=MUTED, anchor="mm")
        fonts.draw_text(draw, (large_x, header_y), "large", 17, fill=MUTED, anchor="mm")
        fonts.draw_text(
            draw, (small_x, header_y), f"small +{data.SMALL_BOX_YIELD}", 17, fill=MUTED, anchor="mm"
        )
    return picture


def draw_pieces(picture: Image.Image, game: Game, offset: tuple[int, int]) -> None:
    """Wheel stop, workers on the bank and the harvest boxes, representatives in the city."""
    ox, oy = offset
    spots = layout()
    wheel = wheel_picture(game.wheel)
    picture.paste(
        wheel,
        (ox + WHEEL_CENTRE[0] - wheel.width // 2, oy + WHEEL_CENTRE[1] - wheel.height // 2 + 10),
        wheel,
    )
    for space, colours in zip(spots.bank_spots, game.bank, strict=True):
        for (x, y), colour in zip(space, colours, strict=False):
            icons.paste(picture, icons.worker(colour, WORKER), (x + ox, y + oy))
    for area in data.AREAS:
        for place, harvest_place in enumerate(game.harvest[area], start=1):
            for box, colours in (("large", harvest_place.large), ("small", harvest_place.small)):
                for (x, y), colour in zip(
                    spots.harvest_spots[(area, place, box)], colours, strict=False
                ):
                    icons.paste(picture, icons.worker(colour, WORKER), (x + ox, y + oy))
    for seat, position in enumerate(game.representatives):
        if position is not None:
            x, y = spots.city_cells[position]
            icons.paste(picture, icons.pawn(seat_colour(seat), 44), (x + ox, y + oy))
