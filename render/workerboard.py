"""The worker board: recruitment wheel, bank, city and the four harvest areas.

Everything printed on the board is drawn once (`static_board`, shared by every game);
a render pastes the wheel turned to its last stop, the workers standing on the boxes,
the representatives in the city, and rings in the mover's colour around what the last
turn used (with pale workers or representatives where they have left since).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import Translator
from rules import Game, data
from rules.recent import RecentTurn

from . import fonts, icons, textboxes
from .caches import cached_image
from .palette import (
    BOARD_GROUND,
    GOLD_LIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_RGB,
    RGB,
    WHITE,
    seat_colour,
)
from .vocabulary import AREAS, BOARD
from .words import capitalised

WIDTH = 950
TOP_HEIGHT = 310
AREA_TOP = TOP_HEIGHT + 10
AREA_HEIGHT = 218
HEIGHT = AREA_TOP + AREA_HEIGHT
WORKER = 32
PAWN = 44
TITLE_SIZE = fonts.LARGE
AREA_TITLE_SIZE = fonts.TEXT
TEXT_SIZE = fonts.TEXT
SMALL_SIZE = fonts.SMALL
MARK_WIDTH = 8
MARK_EDGE = 3

WHEEL_BOX = (0, 0, 262, TOP_HEIGHT)
BANK_BOX = (272, 0, 512, TOP_HEIGHT)
CITY_BOX = (522, 0, WIDTH, TOP_HEIGHT)
WHEEL_CENTRE = (131, 172)
WHEEL_RADIUS = 122
AREA_WIDTH = (WIDTH - 30) / 4
BANK_CELL = (110, 120)
CITY_CELL = (58, 48)
BOX_SIZE = (76, 46)
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class BoardLayout:
    """Where the movable pieces go, shared by the static art and the pieces."""

    bank_cells: tuple[Box, ...]
    bank_spots: tuple[tuple[tuple[float, float], ...], ...]
    harvest_boxes: dict[tuple[str, int, str], Box]
    """(area, place 1..3, "large"/"small") -> the box's rectangle."""
    harvest_spots: dict[tuple[str, int, str], tuple[tuple[float, float], ...]]
    """(area, place 1..3, "large"/"small") -> centres of its two worker spots."""
    city_cells: dict[tuple[int, int], tuple[float, float]]


def _panel(draw: ImageDraw.ImageDraw, box: Box) -> None:
    draw.rounded_rectangle(box, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)


def area_box(index: int) -> Box:
    """The panel of harvest area `index` (0..3, the `data.AREAS` order)."""
    left = index * (AREA_WIDTH + 10)
    return (left, AREA_TOP, left + AREA_WIDTH, AREA_TOP + AREA_HEIGHT)


PANELS: dict[str, Box] = {
    "wheel": WHEEL_BOX,
    "bank": BANK_BOX,
    "city": CITY_BOX,
    **{area: area_box(i) for i, area in enumerate(data.AREAS)},
}
"""The worker board's panels by name (the areas by their engine names)."""
TITLE_ROOM: dict[str, float] = {"wheel": 238, "bank": 216, "city": 170}
"""How wide each top panel's title may be: the city's column costs start at its right."""
AREA_TITLE_LEFT = 36
"""A harvest area's title starts after its good's icon."""


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _spots(centre: tuple[float, float], count: int) -> tuple[tuple[float, float], ...]:
    """Centres of `count` workers side by side around `centre`."""
    step = WORKER + 2
    return tuple((centre[0] + (k - (count - 1) / 2) * step, centre[1]) for k in range(count))


@lru_cache(maxsize=1)
def layout() -> BoardLayout:
    x0, y0, _, _ = BANK_BOX
    cells = []
    for i in range(len(data.BANK)):
        col, row = i % 2, i // 2
        left = x0 + 8 + col * (BANK_CELL[0] + 4)
        top = y0 + 44 + row * (BANK_CELL[1] + 6)
        cells.append((left, top, left + BANK_CELL[0], top + BANK_CELL[1]))
    bank_spots = tuple(
        _spots((_centre(cell)[0], cell[1] + 88), needed)
        for cell, (needed, _coins) in zip(cells, data.BANK, strict=True)
    )
    harvest_boxes: dict[tuple[str, int, str], Box] = {}
    harvest_spots: dict[tuple[str, int, str], tuple[tuple[float, float], ...]] = {}
    for a, area in enumerate(data.AREAS):
        area_left = a * (AREA_WIDTH + 10)
        for place in range(1, len(data.HARVEST_PLACES[area]) + 1):
            y = AREA_TOP + 88 + (place - 1) * 50
            for box, x in (("large", area_left + 104), ("small", area_left + 186)):
                rect = (
                    x - BOX_SIZE[0] / 2,
                    y - BOX_SIZE[1] / 2,
                    x + BOX_SIZE[0] / 2,
                    y + BOX_SIZE[1] / 2,
                )
                harvest_boxes[(area, place, box)] = rect
                harvest_spots[(area, place, box)] = _spots((x, y), data.BOX_ANY_COLOUR)
    _, cy0, cx1, _ = CITY_BOX
    grid_left = cx1 - 8 - 4 * CITY_CELL[0]
    city_cells = {
        (row, col): (
            grid_left + (col - 0.5) * CITY_CELL[0],
            cy0 + 80 + (row - 0.5) * (CITY_CELL[1] + 6),
        )
        for row in range(1, data.CITY_ROWS + 1)
        for col in range(1, len(data.CITY_COSTS) + 1)
    }
    return BoardLayout(tuple(cells), bank_spots, harvest_boxes, harvest_spots, city_cells)


def _segment_angle(segment: int) -> float:
    """Centre angle (radians, 0 = up, clockwise) of wheel segment 1..8."""
    return 2 * math.pi * (segment - 1) / len(data.WHEEL)


def _polar(centre: tuple[float, float], angle: float, radius: float) -> tuple[float, float]:
    return (centre[0] + radius * math.sin(angle), centre[1] - radius * math.cos(angle))


@cached_image("wheel", 4 * 1024 * 1024)
def wheel_picture(stop: int | None) -> Image.Image:
    """The recruitment wheel (its own square), the last stop lit and the arrow on it."""
    size = 2 * WHEEL_RADIUS + 8
    scale = 3
    big = Image.new("RGBA", (size * scale, size * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    c = size * scale / 2
    r = WHEEL_RADIUS * scale
    n = len(data.WHEEL)
    for i in range(n):
        start = -90 + 360 * (i - 0.5) / n
        fill = GOLD_LIGHT if stop == i + 1 else ((236, 226, 200) if i % 2 else (222, 210, 180))
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
        tip = _polar((c, c), angle, 0.48 * r)
        side = 0.08 * r
        left = _polar((c, c), angle - math.pi / 2, side)
        right = _polar((c, c), angle + math.pi / 2, side)
        draw.polygon([tip, left, right], fill=INK)
    draw.ellipse([c - 0.1 * r, c - 0.1 * r, c + 0.1 * r, c + 0.1 * r], fill=INK)
    picture = big.reduce(scale)
    with textboxes.panel("wheel", (0, 0, size, size)):
        _draw_wheel_workers(picture)
    return picture


def _draw_wheel_workers(picture: Image.Image) -> None:
    """The segments' numbers and their two workers each."""
    text = ImageDraw.Draw(picture)
    half = (picture.width / 2, picture.height / 2)
    for i, pair in enumerate(data.WHEEL):
        angle = _segment_angle(i + 1)
        fonts.draw_text(
            text,
            _polar(half, angle, 0.9 * WHEEL_RADIUS),
            str(i + 1),
            SMALL_SIZE,
            fill=MUTED,
            bold=True,
            anchor="mm",
        )
        for k, colour in enumerate(pair):
            radius = 0.7 * WHEEL_RADIUS
            offset = (k - 0.5) * (WORKER + 2) / radius
            sprite = (
                icons.wild_worker(WORKER) if colour == data.WILD else icons.worker(colour, WORKER)
            )
            icons.paste(picture, sprite, _polar(half, angle + offset, radius))


def _upgrade_icon(picture: Image.Image, x: float, y: float, size: int = 24) -> float:
    """Small copper -> large copper, drawn from x; returns the width used."""
    icons.paste(picture, icons.good("copper", size), (x + size / 2, y))
    icons.paste(picture, icons.arrow(14), (x + size + 8, y))
    icons.paste(picture, icons.good("bigcopper", size), (x + size + 16 + size / 2, y))
    return 2 * size + 16


def _text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int = TEXT_SIZE) -> float:
    """Bold ink text from x, centred on y; returns its width."""
    return fonts.draw_text(draw, (x, y), text, size, fill=INK, bold=True, anchor="lm")


def _reward(picture: Image.Image, draw: ImageDraw.ImageDraw, row: int, x: float, y: float) -> None:
    reward = data.CITY_REWARDS[row]
    if reward["coins"]:
        icons.paste(picture, icons.coin(26), (x + 13, y))
        x += 28 + _text(draw, x + 28, y, f"{reward['coins']}") + 8
    if reward["cows"]:
        icons.paste(picture, icons.cow(30), (x + 15, y))
        x += 36
    if reward["upgrades"]:
        x += _text(draw, x, y, f"{reward['upgrades']}×") + 3
        _upgrade_icon(picture, x, y)
    if reward["goods"]:
        x += _text(draw, x, y, f"{reward['goods']}×") + 3
        for good in data.CITY_GOODS:
            icons.paste(picture, icons.good(good, 24), (x + 12, y))
            x += 26


@cached_image("worker board", 4 * 1024 * 1024)
def static_board() -> Image.Image:
    """The worker board with nothing standing on it."""
    picture = Image.new("RGB", (WIDTH, HEIGHT), BOARD_GROUND)
    draw = ImageDraw.Draw(picture)
    _panel(draw, WHEEL_BOX)
    _panel(draw, BANK_BOX)
    with textboxes.panel("bank", BANK_BOX):
        _draw_bank(picture, draw)
    _panel(draw, CITY_BOX)
    with textboxes.panel("city", CITY_BOX):
        _draw_city(picture, draw)
    for a, area in enumerate(data.AREAS):
        _panel(draw, area_box(a))
        with textboxes.panel(area, area_box(a)):
            _draw_area(picture, draw, a, area)
    return picture


def _draw_bank(picture: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    spots = layout()
    for i, (cell, (_needed, coins)) in enumerate(zip(spots.bank_cells, data.BANK, strict=True)):
        draw.rounded_rectangle(cell, radius=8, fill=WHITE, outline=PANEL_EDGE, width=2)
        fonts.draw_text(
            draw, (cell[0] + 8, cell[1] + 4), f"{i + 1}", SMALL_SIZE, fill=MUTED, bold=True
        )
        centre_x = _centre(cell)[0]
        icons.paste(picture, icons.coin(28), (centre_x - 20, cell[1] + 40))
        _text(draw, centre_x - 4, cell[1] + 40, f"+{coins}", fonts.LARGE)
        for spot in spots.bank_spots[i]:
            icons.paste(picture, icons.empty_worker(WORKER), spot)


def _draw_city(picture: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    spots = layout()
    cy0 = CITY_BOX[1]
    for col, cost in enumerate(data.CITY_COSTS, start=1):
        x, _ = spots.city_cells[(1, col)]
        icons.paste(picture, icons.good("pumpkin", 24), (x - 12, cy0 + 44))
        _text(draw, x + 4, cy0 + 44, f"{cost}")
    for row in range(1, data.CITY_ROWS + 1):
        _, y = spots.city_cells[(row, 1)]
        fonts.draw_text(
            draw, (CITY_BOX[0] + 10, y), f"{row}", SMALL_SIZE, fill=MUTED, bold=True, anchor="lm"
        )
        _reward(picture, draw, row, CITY_BOX[0] + 28, y)
        for col in range(1, len(data.CITY_COSTS) + 1):
            x, y = spots.city_cells[(row, col)]
            w, h = CITY_CELL[0] / 2 - 3, CITY_CELL[1] / 2
            draw.rounded_rectangle(
                (x - w, y - h, x + w, y + h), radius=6, fill=WHITE, outline=PANEL_EDGE, width=2
            )


def _draw_area(picture: Image.Image, draw: ImageDraw.ImageDraw, a: int, area: str) -> None:
    spots = layout()
    left, top, _, _ = area_box(a)
    good = data.AREA_GOOD[area]
    icons.paste(picture, icons.good(good, 26), (left + 20, top + 22))
    heads_y = top + 52
    large_x = _centre(spots.harvest_boxes[(area, 1, "large")])[0]
    icons.paste(picture, icons.worker(data.AREA_COLOUR[area], WORKER), (large_x, heads_y))
    icons.paste(picture, icons.coin(22), (left + 18, heads_y))
    icons.paste(picture, icons.arrow(12), (left + 36, heads_y))
    icons.paste(picture, icons.good(good, 22), (left + 54, heads_y))
    small_x = _centre(spots.harvest_boxes[(area, 1, "small")])[0]
    fonts.draw_text(
        draw,
        (small_x, heads_y),
        f"+{data.SMALL_BOX_YIELD}",
        SMALL_SIZE,
        fill=MUTED,
        bold=True,
        anchor="mm",
    )
    for place, (coins, amount) in enumerate(data.HARVEST_PLACES[area], start=1):
        y = _centre(spots.harvest_boxes[(area, place, "large")])[1]
        _text(draw, left + 10, y, f"{coins}→{amount}")
        for box in ("large", "small"):
            draw.rounded_rectangle(
                spots.harvest_boxes[(area, place, box)],
                radius=6,
                fill=WHITE,
                outline=PANEL_EDGE,
                width=2,
            )


def draw_titles(picture: Image.Image, origin: tuple[int, int], t: Translator) -> None:
    """The panels' titles in `t`'s language, on the board pasted at `origin` (drawn on
    every picture, so that the board's art is shared by every language)."""
    ox, oy = origin
    draw = ImageDraw.Draw(picture)
    for part, box in PANELS.items():
        moved = (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)
        with textboxes.panel(part, moved):
            if part in AREAS:
                title = capitalised(AREAS[part].name_in(t))
                room = box[2] - box[0] - AREA_TITLE_LEFT - 6
                size = fonts.fitting_size(title, AREA_TITLE_SIZE, room, bold=True)
                _text(draw, moved[0] + AREA_TITLE_LEFT, moved[1] + 22, title, size)
            else:
                title = capitalised(BOARD[part].name_in(t))
                size = fonts.fitting_size(title, TITLE_SIZE, TITLE_ROOM[part], bold=True)
                fonts.draw_text(
                    draw, (moved[0] + 12, moved[1] + 6), title, size, fill=INK, bold=True
                )


def _ring(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, pad: float = 5) -> None:
    """A rounded ring in a player's colour (with a dark edge) along `box`'s edge."""
    outer = (box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad)
    draw.rounded_rectangle(outer, radius=10, outline=INK, width=MARK_WIDTH + 2 * MARK_EDGE)
    e = MARK_EDGE
    inner = (outer[0] + e, outer[1] + e, outer[2] - e, outer[3] - e)
    draw.rounded_rectangle(inner, radius=8, outline=colour, width=MARK_WIDTH)


def _shift(box: Box, ox: int, oy: int) -> Box:
    return (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)


def _player_rgb(game: Game, player_id: str) -> RGB:
    return PLAYER_RGB[seat_colour(game.seat_of(player_id))]


def draw_pieces(
    picture: Image.Image, game: Game, offset: tuple[int, int], turn: RecentTurn | None = None
) -> None:
    """Wheel stop, workers on the bank and the harvest boxes, representatives in the city,
    and the marks of `turn` (the last turn)."""
    draw_standing(picture, game, offset)
    draw_moves(picture, game, offset, turn)


def _sections() -> dict[str, tuple[int, int, int, int]]:
    """Each panel's part of the board, cut halfway across the ground between the panels
    (9 px: `render.layers` reduces each part on its own, on the board's ground, so that
    the ground round a cut must be a block of any reduction wide, 4 px, on either side)."""
    top_cut = (TOP_HEIGHT + AREA_TOP + 1) // 2
    tops = [0, (WHEEL_BOX[2] + BANK_BOX[0] + 1) // 2, (BANK_BOX[2] + CITY_BOX[0] + 1) // 2, WIDTH]
    areas = [0] + [int(area_box(i)[2] + area_box(i + 1)[0] + 1) // 2 for i in range(3)] + [WIDTH]
    sections = {
        name: (tops[i], 0, tops[i + 1], top_cut) for i, name in enumerate(("wheel", "bank", "city"))
    }
    for i, area in enumerate(data.AREAS):
        sections[area] = (areas[i], top_cut, areas[i + 1], HEIGHT)
    return sections


SECTIONS: dict[str, tuple[int, int, int, int]] = _sections()
"""The board's parts kept apart (`render.layers`), by panel: a worker placed redraws
its panel's part, not the whole board."""


def standing_key(game: Game, panel: str | None = None) -> tuple[object, ...]:
    """What `draw_standing` reads from `game` (for `panel` alone: one of SECTIONS)."""
    wheel = (game.wheel,)
    bank = (tuple(tuple(colours) for colours in game.bank),)
    areas = {
        area: (area, tuple((tuple(p.large), tuple(p.small)) for p in game.harvest[area]))
        for area in data.AREAS
    }
    if panel is None:
        return (*wheel, *bank, tuple(areas.values()))
    others: dict[str, tuple[object, ...]] = {"wheel": wheel, "bank": bank, "city": ()}
    return others[panel] if panel in others else areas[panel]


def draw_standing(
    picture: Image.Image, game: Game, offset: tuple[int, int], panel: str | None = None
) -> None:
    """The wheel turned to its last stop and the workers on the bank and the harvest
    boxes (what changes only when a worker is placed or the wheel turns); with `panel`,
    only those on that panel (none stands beyond its panel)."""
    ox, oy = offset
    spots = layout()
    if panel in (None, "wheel"):
        wheel = wheel_picture(game.wheel)
        picture.paste(
            wheel,
            (ox + WHEEL_CENTRE[0] - wheel.width // 2, oy + WHEEL_CENTRE[1] - wheel.height // 2),
            wheel,
        )
    if panel in (None, "bank"):
        for space, colours in zip(spots.bank_spots, game.bank, strict=True):
            for (x, y), colour in zip(space, colours, strict=False):
                icons.paste(picture, icons.worker(colour, WORKER), (x + ox, y + oy))
    for area in data.AREAS:
        if panel not in (None, area):
            continue
        for place, harvest_place in enumerate(game.harvest[area], start=1):
            for box, colours in (("large", harvest_place.large), ("small", harvest_place.small)):
                for (x, y), colour in zip(
                    spots.harvest_spots[(area, place, box)], colours, strict=False
                ):
                    icons.paste(picture, icons.worker(colour, WORKER), (x + ox, y + oy))


def draw_moves(
    picture: Image.Image, game: Game, offset: tuple[int, int], turn: RecentTurn | None
) -> None:
    """The marks of `turn` and the representatives in the city (over the marks)."""
    ox, oy = offset
    spots = layout()
    draw = ImageDraw.Draw(picture)
    if turn is not None:
        _draw_turn_marks(picture, draw, game, turn, offset)
    for seat, position in enumerate(game.representatives):
        if position is not None:
            x, y = spots.city_cells[position]
            icons.paste(picture, icons.pawn(seat_colour(seat), PAWN), (x + ox, y + oy))


def moves_boxes(game: Game, offset: tuple[int, int], turn: RecentTurn | None) -> list[Box]:
    """Where `draw_moves` draws (before the rings' spread): the wheel when it was turned,
    each box or city cell the turn used, each representative."""
    ox, oy = offset
    spots = layout()
    boxes: list[Box] = []
    if turn is not None:
        if turn.wheel_stops:
            boxes.append(WHEEL_BOX)
        for placed in turn.placements:
            if placed.space is not None:
                boxes.append(spots.bank_cells[placed.space - 1])
            else:
                assert placed.area is not None and placed.place is not None
                assert placed.box is not None
                boxes.append(spots.harvest_boxes[(placed.area, placed.place, placed.box)])
        for row, col in turn.auction_result.values():
            x, y = spots.city_cells[(row, col)]
            boxes.append(
                (
                    x - CITY_CELL[0] / 2,
                    y - CITY_CELL[1] / 2,
                    x + CITY_CELL[0] / 2,
                    y + CITY_CELL[1] / 2,
                )
            )
    for position in game.representatives:
        if position is not None:
            x, y = spots.city_cells[position]
            boxes.append((x - PAWN / 2, y - PAWN / 2, x + PAWN / 2, y + PAWN / 2))
    return [_shift(box, ox, oy) for box in boxes]


def _draw_turn_marks(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    turn: RecentTurn,
    offset: tuple[int, int],
) -> None:
    ox, oy = offset
    spots = layout()
    for stop in turn.wheel_stops:
        _mark_segment(draw, stop, _player_rgb(game, turn.player), offset)
    for placed in turn.placements:
        colour = _player_rgb(game, placed.player)
        if placed.space is not None:
            box = spots.bank_cells[placed.space - 1]
            standing: Sequence[str] = game.bank[placed.space - 1]
            worker_spots = spots.bank_spots[placed.space - 1]
        else:
            assert placed.area is not None and placed.place is not None and placed.box is not None
            key = (placed.area, placed.place, placed.box)
            box = spots.harvest_boxes[key]
            harvest_place = game.harvest[placed.area][placed.place - 1]
            standing = harvest_place.large if placed.box == "large" else harvest_place.small
            worker_spots = spots.harvest_spots[key]
        _ring(draw, _shift(box, ox, oy), colour)
        if not standing:  # cleared at the end of the turn: show who stood there, pale
            for (x, y), worker_colour in zip(worker_spots, placed.colours, strict=False):
                icons.paste(picture, icons.faded("worker", worker_colour, WORKER), (x + ox, y + oy))
    standing_now = {game.players[seat].id for seat, pos in enumerate(game.representatives) if pos}
    for player, (row, col) in turn.auction_result.items():
        x, y = spots.city_cells[(row, col)]
        w, h = CITY_CELL[0] / 2 - 3, CITY_CELL[1] / 2
        _ring(draw, (x - w + ox, y - h + oy, x + w + ox, y + h + oy), _player_rgb(game, player))
        if player not in standing_now:
            colour_name = seat_colour(game.seat_of(player))
            icons.paste(picture, icons.faded("pawn", colour_name, PAWN), (x + ox, y + oy))


def _mark_segment(
    draw: ImageDraw.ImageDraw, segment: int, colour: RGB, offset: tuple[int, int]
) -> None:
    """Outline wheel segment `segment` in `colour` (its workers were taken)."""
    centre = (WHEEL_CENTRE[0] + offset[0], WHEEL_CENTRE[1] + offset[1])
    n = len(data.WHEEL)
    half = math.pi / n
    angle = _segment_angle(segment)
    inner, outer = 0.16 * WHEEL_RADIUS, WHEEL_RADIUS - 2
    steps = 12
    arc_out = [_polar(centre, angle - half + 2 * half * k / steps, outer) for k in range(steps + 1)]
    arc_in = [_polar(centre, angle + half - 2 * half * k / steps, inner) for k in range(steps + 1)]
    outline = [*arc_out, *arc_in, arc_out[0]]
    draw.line(outline, fill=INK, width=MARK_WIDTH + 2 * MARK_EDGE, joint="curve")
    draw.line(outline, fill=colour, width=MARK_WIDTH, joint="curve")
