"""Player boards, the general supply and the legend of icons.

A player board: name (and seat note), colour, start player / turn / awaited tags,
coins, cows, canteens, settlements left, goods and workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from i18n import Language, Translator, translator
from rules import Game, data

from . import fonts, icons, textboxes
from .caches import cached_image
from .palette import (
    BOARD_GROUND,
    GOLD_LIGHT,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_RGB,
    RGB,
    WHITE,
    seat_colour,
)
from .vocabulary import BOARD, GOODS, LABELS, PIECES, WORKER_COLOURS
from .words import (
    capitalised,
    display_name,
    legend_entry,
    players_legend,
    settlements_left,
    upgrade_label,
    upgrade_legend,
    workers_held,
    workers_legend,
)

BOARD_WIDTH = 470
BOARD_HEIGHT = 168
NAME_SIZE = fonts.LARGE
NOTE_SIZE = fonts.SMALL
TAG_SIZE = fonts.SMALL
COUNT_SIZE = fonts.TEXT
ICON = 30
WORKER = 32
HOUSE = 44
SUPPLY_HEIGHT = 52
LEGEND_SIZE = fonts.SMALL
LEGEND_LINE = 38
NAME_ROW = 28
"""The middle of the name row, from the board's top."""


def _tag(
    draw: ImageDraw.ImageDraw,
    right: float,
    y: float,
    text: str,
    fill: RGB,
    ink: RGB,
) -> float:
    """A rounded label ending at `right`; returns its left edge."""
    width = fonts.text_width(text, TAG_SIZE, bold=True) + 16
    draw.rounded_rectangle(
        (right - width, y - 15, right, y + 15), radius=10, fill=fill, outline=INK, width=2
    )
    fonts.draw_text(draw, (right - width / 2, y), text, TAG_SIZE, fill=ink, bold=True, anchor="mm")
    return right - width


def _count(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    sprite: Image.Image,
    x: float,
    y: float,
    text: str,
    ink: RGB = INK,
    size: int = COUNT_SIZE,
) -> float:
    """An icon and its count from `x`; returns the x after them."""
    icons.paste(picture, sprite, (x + sprite.width / 2, y))
    x += sprite.width + 4
    return x + fonts.draw_text(draw, (x, y), text, size, fill=ink, bold=True, anchor="lm")


def draw_player_board(
    picture: Image.Image,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    names: Mapping[str, str] | None,
    note: str | None,
    t: Translator,
) -> None:
    """One player's board with its top-left corner at `origin`; `note` (a seat note such
    as "AI plays") is written after the name."""
    player = game.players[seat]
    draw = ImageDraw.Draw(picture)
    frame = _draw_frame(draw, game, seat, origin)
    with textboxes.panel(f"player board {seat + 1}", frame):
        _draw_name_row(picture, draw, game, seat, origin, display_name(player.id, names), note, t)
        _draw_holdings(picture, draw, game, seat, origin, t)


HEADS = (47, 46, 45, 44)
"""Rows where a board's head (the frame's top, the name row and its tags) may end: the
name row's words and tags end above row 44, the holdings begin at row 47; only the
settlement of the name row (rows 7 to 49, at the left, where no holding is) reaches
across, and the parts below draw it too. Four rows: one is on a multiple of any
reduction up to 4."""
LEFTS = (21, 20, 19, 18, 17, 16)
"""Columns where the holdings' part may begin: past the colour stripe (to column 15)
and the ring (to 9 at the bottom corner), at or before the settlement (21) and the
holdings (24)."""
BOTTOMS = {161: 465, 162: 464, 163: 463, 164: 461}
"""Rows where the holdings' part may end (the holdings end on row 160), each with the
furthest column where it may end then: the widest ring (an awaited player's, 5 px)
rounds its bottom corner into the rows above 164. The holdings end on column 460."""
RIGHT_FROM = 461
HOLDINGS_ROWS = {"counts": 68, "goods": 106, "workers": 144}
"""The holdings' rows, each with its middle from the board's top: coins, cows,
canteens and settlements left; goods; workers and their limit."""
ROW_CUTS = ((89, 90, 91), (128, 127, 126, 125, 124, 123, 122, 121))
"""Rows where the holdings' part may be cut between two of its rows (each kept apart: a
turn changes one or two of them): the counts end on row 88 (the settlement) and the
goods begin on row 91; the goods end on row 120 and the workers begin on row 128
(whatever the counts and the language). Between the counts and the goods, three rows:
with a reduction of 4, one board in four keeps the two rows together."""


@dataclass(frozen=True)
class BoardCuts:
    """Where a board is cut into kept parts, from its top-left corner: the head above
    row `head`; below it, the holdings inside the ring (columns `left` to `right`, rows
    `head` to `bottom`), which do not change with the ring (an awaited player's is
    wider), cut apart between their rows on the rows `between` (one for each two rows
    of `HOLDINGS_ROWS`, None where they are kept together); and the rims round them (the
    ring and the stripe: left, right, bottom)."""

    head: int
    left: int
    right: int
    bottom: int
    between: tuple[int | None, ...]

    def boxes(self) -> dict[str, tuple[int, int, int, int]]:
        """Each part's box on the board but the holdings' (`holdings`), by name."""
        width, height = BOARD_WIDTH + 1, BOARD_HEIGHT + 1
        return {
            "head": (0, 0, width, self.head),
            "left": (0, self.head, self.left, height),
            "right": (self.right, self.head, width, height),
            "bottom": (self.left, self.bottom, self.right, height),
        }

    @cached_property
    def holdings(self) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
        """The holdings' parts' boxes on the board, by the rows each shows."""
        names = list(HOLDINGS_ROWS)
        groups, tops = [[names[0]]], [self.head]
        for row, cut in zip(names[1:], self.between, strict=True):
            if cut is None:
                groups[-1].append(row)
            else:
                groups.append([row])
                tops.append(cut)
        bottoms = [*tops[1:], self.bottom]
        return {
            tuple(rows): (self.left, top, self.right, bottom)
            for rows, top, bottom in zip(groups, tops, bottoms, strict=True)
        }


@lru_cache(maxsize=256)
def board_cuts(origin: tuple[int, int], align: int = 1) -> BoardCuts | None:
    """The cuts of a board at `origin` in the picture, each on a multiple of `align`
    there (the reduced frame's blocks then never straddle two parts); None if there are
    none such (the board is then kept whole)."""
    x0, y0 = origin

    def aligned(values: Iterable[int], start: int) -> list[int]:
        return [v for v in values if (start + v) % align == 0]

    heads, lefts = aligned(HEADS, y0), aligned(LEFTS, x0)
    between = tuple(next(iter(aligned(rows, y0)), None) for rows in ROW_CUTS)
    for bottom in aligned(BOTTOMS, y0):
        rights = aligned(range(RIGHT_FROM, BOTTOMS[bottom] + 1), x0)
        if heads and lefts and rights:
            return BoardCuts(heads[0], lefts[0], rights[0], bottom, between)
    return None


def draw_board_head(
    picture: Image.Image,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    names: Mapping[str, str] | None,
    note: str | None,
    t: Translator,
) -> None:
    """What `draw_player_board` draws in the head (`BoardCuts`), on a picture that ends
    there: the frame and the name row (the holdings reach no higher)."""
    player = game.players[seat]
    draw = ImageDraw.Draw(picture)
    _draw_frame(draw, game, seat, origin)
    _draw_name_row(picture, draw, game, seat, origin, display_name(player.id, names), note, t)


def draw_board_body(
    picture: Image.Image,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    t: Translator,
    holdings: bool = True,
) -> None:
    """What `draw_player_board` draws below the head (`BoardCuts`), on a picture that
    shows a part of it (`origin`: the board's corner, off the picture): the frame, the
    name row's settlement (its words and tags reach no lower) and the `holdings` (left
    out of the rims: they reach none)."""
    draw = ImageDraw.Draw(picture)
    _draw_frame(draw, game, seat, origin)
    _draw_name_house(picture, seat, origin)
    if holdings:
        _draw_holdings(picture, draw, game, seat, origin, t)


def draw_holdings_part(
    picture: Image.Image,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    t: Translator,
    rows: Iterable[str],
) -> None:
    """What `draw_player_board` draws in a part of the holdings (`BoardCuts.holdings`)
    showing `rows` of them, on a picture of that part alone (`origin`: the board's
    corner, off the picture): the panel's colour (the part lies inside the ring and the
    stripe, whoever is awaited), the name row's settlement and the rows."""
    picture.paste(PANEL, (0, 0, *picture.size))
    draw = ImageDraw.Draw(picture)
    _draw_name_house(picture, seat, origin)
    for row in rows:
        _draw_holdings_row(row, picture, draw, game, seat, origin, t)


def _draw_frame(
    draw: ImageDraw.ImageDraw, game: Game, seat: int, origin: tuple[int, int]
) -> tuple[int, int, int, int]:
    """The board's panel (ringed when its player is awaited) and its colour stripe."""
    x0, y0 = origin
    frame = (x0, y0, x0 + BOARD_WIDTH, y0 + BOARD_HEIGHT)
    awaited = game.awaiting == game.players[seat].id
    draw.rounded_rectangle(
        frame,
        radius=12,
        fill=PANEL,
        outline=HIGHLIGHT if awaited else PANEL_EDGE,
        width=5 if awaited else 2,
    )
    draw.rounded_rectangle(
        (x0 + 3, y0 + 3, x0 + 15, y0 + BOARD_HEIGHT - 3),
        radius=6,
        fill=PLAYER_RGB[seat_colour(seat)],
    )
    return frame


def _draw_name_house(picture: Image.Image, seat: int, origin: tuple[int, int]) -> None:
    x0, y0 = origin
    icons.paste(picture, icons.house(seat_colour(seat), HOUSE), (x0 + 42, y0 + NAME_ROW))


def _draw_name_row(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    name: str,
    note: str | None,
    t: Translator,
) -> None:
    """The settlement in the player's colour, the name and note, and the tags: who must
    play now, whose turn it is, the start player."""
    player_id = game.players[seat].id
    x0, y0 = origin
    top_y = y0 + NAME_ROW
    _draw_name_house(picture, seat, origin)
    tags = []
    if game.awaiting == player_id:
        tags.append((LABELS["awaited_tag"], HIGHLIGHT, WHITE))
    if not game.is_over and game.turn_player == player_id and not game.in_setup:
        tags.append((LABELS["turn_tag"], INK, WHITE))
    if seat == 0:
        tags.append((LABELS["start_player_tag"], GOLD_LIGHT, INK))
    right: float = x0 + BOARD_WIDTH - 10
    for label, fill, ink in tags:
        right = _tag(draw, right, top_y, t.translate(label), fill, ink) - 5
    name_x = x0 + 70
    room = right - name_x - 4
    if note:
        room = max(room * 0.6, room - fonts.text_width(note, NOTE_SIZE) - 12)
    name = fonts.fit(name, NAME_SIZE, room, bold=True)
    name_width = fonts.draw_text(
        draw, (name_x, top_y), name, NAME_SIZE, fill=INK, bold=True, anchor="lm"
    )
    if note:
        note_x = name_x + name_width + 10
        note = fonts.fit(note, NOTE_SIZE, right - note_x - 4)
        fonts.draw_text(draw, (note_x, top_y + 1), note, NOTE_SIZE, fill=MUTED, anchor="lm")


def _draw_holdings(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    t: Translator,
) -> None:
    """Coins, cows, canteens and settlements left; goods; workers and their limit: each
    row of `HOLDINGS_ROWS`."""
    for row in HOLDINGS_ROWS:
        _draw_holdings_row(row, picture, draw, game, seat, origin, t)


def _draw_holdings_row(
    row: str,
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    t: Translator,
) -> None:
    """One row of the holdings (`HOLDINGS_ROWS`)."""
    player = game.players[seat]
    x0, y0 = origin
    right = x0 + BOARD_WIDTH - 10
    y: float = y0 + HOLDINGS_ROWS[row]
    x: float = x0 + 24
    if row == "counts":
        x = _count(picture, draw, icons.coin(ICON), x, y, str(player.coins)) + 20
        x = _count(picture, draw, icons.cow(ICON + 2), x, y, str(player.cows)) + 20
        x = _count(picture, draw, icons.canteen(ICON + 2), x, y, str(player.canteens)) + 20
        left = settlements_left(player.settlements_left, t)
        house = icons.house(seat_colour(seat), HOUSE)
        _count(picture, draw, house, x, y, left, size=_fitted(left, right - (x + HOUSE + 4)))
    elif row == "goods":
        for good in data.GOODS:
            count = player.goods[good]
            sprite = icons.good(good, ICON)
            x = _count(picture, draw, sprite, x, y, str(count), INK if count else MUTED) + 14
    else:
        for colour in data.COLOURS:
            count = player.workers[colour]
            sprite = icons.worker(colour, WORKER)
            x = _count(picture, draw, sprite, x, y, str(count), INK if count else MUTED) + 18
        held = workers_held(player.worker_count, t)
        size = _fitted(held, right - (x + 4))
        fonts.draw_text(draw, (x + 4, y), held, size, fill=MUTED, bold=True, anchor="lm")


def _fitted(text: str, room: float) -> int:
    """The size of a count's words in `room`: COUNT_SIZE, or smaller down to 18 px."""
    return fonts.fitting_size(text, COUNT_SIZE, room, bold=True)


def player_board_picture(
    game: Game, player_id: str, names: Mapping[str, str] | None, note: str | None, t: Translator
) -> Image.Image:
    """One player's board alone ("my board")."""
    seat = game.seat_of(player_id)
    picture = Image.new("RGB", (BOARD_WIDTH + 20, BOARD_HEIGHT + 20), BOARD_GROUND)
    draw_player_board(picture, game, seat, (10, 10), names, note, t)
    return picture


SUPPLY_INK_PAST = 2
"""How far past its advance width a count's (or the title's) ink may reach: the strip is
cut no nearer (`supply_cuts`)."""


@dataclass(frozen=True)
class SupplyLayout:
    """Where the general supply's strip (`width` wide, its left edge at `left`) draws
    its title and each count: `items` are (what, count, x of the icon, x where its count
    ends), in order; `title_end` is where the title ends."""

    title: str
    width: int
    left: int
    title_end: float
    items: tuple[tuple[str, int, float, float], ...]


def _supply_counts(game: Game) -> list[tuple[str, int]]:
    """The supply's counts in the strip's order, each with what it counts: "good
    <good>", "cow" or "worker <colour>" (a worker's colour is named after a good)."""
    supply = game.supply
    counts = [(f"good {good}", supply.goods[good]) for good in data.GOODS]
    counts.append(("cow", supply.cows))
    return counts + [(f"worker {colour}", supply.workers[colour]) for colour in data.COLOURS]


def _supply_sprite(what: str) -> Image.Image:
    kind, _, name = what.partition(" ")
    if kind == "good":
        return icons.good(name, ICON)
    if kind == "worker":
        return icons.worker(name, WORKER)
    return icons.cow(ICON + 2)


def supply_layout(game: Game, left: int, width: int, t: Translator) -> SupplyLayout:
    """The strip's title and counts laid out from `left`: spread over the strip, never
    wider apart than 20 px."""
    title = capitalised(BOARD["supply"].name_in(t))
    return _supply_layout(title, tuple(_supply_counts(game)), left, width)


@lru_cache(maxsize=256)
def _supply_layout(
    title: str, counts: tuple[tuple[str, int], ...], left: int, width: int
) -> SupplyLayout:
    """(Kept: every picture lays the strip out, and most show counts shown before.)"""
    items = [(what, _supply_sprite(what), count) for what, count in counts]
    content = fonts.text_width(title, COUNT_SIZE, bold=True) + sum(
        sprite.width + 4 + fonts.text_width(str(count), COUNT_SIZE, bold=True)
        for _, sprite, count in items
    )
    gap = min(20.0, (width - 28 - content) / len(items))
    # added up as drawing them one after the other does (the same floats)
    x: float = left + 14
    title_width = fonts.drawn_width(title, COUNT_SIZE, bold=True)
    title_end = x + title_width
    x += title_width + gap
    placed = []
    for name, sprite, count in items:
        start = x
        x += sprite.width + 4
        end = x + fonts.drawn_width(str(count), COUNT_SIZE, bold=True)
        placed.append((name, count, start, end))
        x = end + gap
    return SupplyLayout(title, width, left, title_end, tuple(placed))


@lru_cache(maxsize=256)
def supply_cuts(layout: SupplyLayout, x0: int, align: int = 1) -> tuple[int, ...]:
    """Columns of the strip (laid out from 0, lying at column `x0` of the picture) where
    it may be cut into parts, each on a multiple of `align` in the picture: between the
    title and the first count and between two counts, where nothing drawn crosses (the
    strip's frame above and below is drawn in every part alike). Each part then shows
    the title or counts only: a count that changed redraws its part."""
    ends = [layout.title_end, *(end for *_, end in layout.items)]
    cuts = []
    for end, (_, _, start, _) in zip(ends, layout.items, strict=False):
        lowest, highest = math.ceil(end) + SUPPLY_INK_PAST, fonts.pixel(start) - 1
        cut = highest - (x0 + highest) % align
        if cut >= lowest:
            cuts.append(cut)
    return tuple(cuts)


def draw_supply(
    picture: Image.Image, game: Game, origin: tuple[int, int], width: int, t: Translator
) -> None:
    """The general supply: goods, cows and workers left to take (the shortage rule)."""
    x0, y0 = origin
    draw_supply_part(picture, supply_layout(game, x0, width, t), y0, 0, None)


def draw_supply_frame(picture: Image.Image, origin: tuple[int, int], width: int) -> None:
    """The general supply's strip without its title and counts."""
    x0, y0 = origin
    frame = (x0, y0, x0 + width, y0 + SUPPLY_HEIGHT)
    ImageDraw.Draw(picture).rounded_rectangle(
        frame, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2
    )


def draw_supply_part(
    picture: Image.Image,
    layout: SupplyLayout,
    top: int,
    left: int,
    right: int | None,
    framed: bool = False,
) -> None:
    """The strip's columns `left` to `right` (None: to its end) of `layout`, on a
    picture whose column 0 is the strip's column `left` (and whose row `top` is the
    strip's top): what lies there of the title and the counts, over the frame (drawn
    here if not `framed` already)."""
    draw = ImageDraw.Draw(picture)
    x0 = layout.left - left
    frame = (x0, top, x0 + layout.width, top + SUPPLY_HEIGHT)
    if not framed:
        draw_supply_frame(picture, (x0, top), layout.width)
    y = top + SUPPLY_HEIGHT / 2
    with textboxes.panel("supply", frame):
        if left == 0:
            fonts.draw_text(
                draw, (x0 + 14, y), layout.title, COUNT_SIZE, fill=INK, bold=True, anchor="lm"
            )
        for name, count, x, _ in layout.items:
            if x - layout.left >= left and (right is None or x - layout.left < right):
                _count(picture, draw, _supply_sprite(name), x - left, y, str(count))


# --- the legend -----------------------------------------------------------------------

Painter = Callable[[Image.Image, float, float], float]
"""Pastes an icon group with its left edge at x, centred on y; returns its width."""


def _icon(sprite: Image.Image) -> Painter:
    def paint(picture: Image.Image, x: float, y: float) -> float:
        icons.paste(picture, sprite, (x + sprite.width / 2, y))
        return sprite.width

    return paint


def _upgrade(good: str) -> Painter:
    def paint(picture: Image.Image, x: float, y: float) -> float:
        small, large = icons.good(good, ICON), icons.good(data.UPGRADES[good], ICON)
        icons.paste(picture, small, (x + ICON / 2, y))
        icons.paste(picture, icons.arrow(14), (x + ICON + 9, y))
        icons.paste(picture, large, (x + ICON + 18 + ICON / 2, y))
        return 2 * ICON + 18

    return paint


def _workers_icon(picture: Image.Image, x: float, y: float) -> float:
    for k, colour in enumerate(data.COLOURS):
        icons.paste(picture, icons.worker(colour, WORKER), (x + WORKER / 2 + k * (WORKER + 2), y))
    return len(data.COLOURS) * (WORKER + 2)


def _box_icon(picture: Image.Image, x: float, y: float) -> float:
    draw = ImageDraw.Draw(picture)
    draw.rounded_rectangle(
        (x, y - 14, x + 40, y + 14), radius=5, fill=WHITE, outline=PANEL_EDGE, width=2
    )
    return 40


def _houses_icon(picture: Image.Image, x: float, y: float) -> float:
    for k, colour in enumerate(data.PLAYER_COLOURS):
        icons.paste(picture, icons.house(colour, ICON), (x + ICON / 2 + k * (ICON + 2), y))
    return len(data.PLAYER_COLOURS) * (ICON + 2)


def legend_items(t: Translator) -> list[tuple[Painter, str]]:
    """(icon, words) of the legend: every good, the upgrade, the pieces, the workers and
    the letters on the pieces."""
    items: list[tuple[Painter, str]] = [
        (_icon(icons.good(g, ICON)), capitalised(GOODS[g].name_in(t))) for g in data.GOODS
    ]
    items.append((_upgrade("copper"), upgrade_legend("copper", t)))
    items.append((_upgrade("stone"), upgrade_label("stone", t)))
    items += [
        (_icon(icons.coin(ICON)), legend_entry(PIECES["coin"], t)),
        (_icon(icons.cow(ICON + 2)), legend_entry(PIECES["cow"], t)),
        (_workers_icon, workers_legend(t)),
        (_icon(icons.wild_worker(WORKER)), legend_entry(WORKER_COLOURS[data.WILD], t)),
        (_icon(icons.canteen(ICON + 2)), legend_entry(PIECES["canteen"], t)),
        (_box_icon, legend_entry(BOARD["small_box"], t)),
        (_houses_icon, players_legend(t)),
    ]
    return items


def _legend_rows(width: int, t: Translator) -> list[list[tuple[Painter, str, float]]]:
    """The legend's items packed into rows: each goes into the first row with room."""
    rows: list[list[tuple[Painter, str, float]]] = []
    used: list[float] = []
    probe = Image.new("RGBA", (200, 60))
    for painter, text in legend_items(t):
        item_width = painter(probe, 0, 30) + 6 + fonts.text_width(text, LEGEND_SIZE) + 16
        for row, row_width in zip(rows, used, strict=True):
            if row_width + item_width - 16 <= width - 24:
                row.append((painter, text, item_width))
                used[rows.index(row)] += item_width
                break
        else:
            rows.append([(painter, text, item_width)])
            used.append(item_width)
    return rows


@lru_cache(maxsize=64)
def legend_height(width: int, language: Language) -> int:
    """The legend's height (a number: kept, as every snapshot lays out its column)."""
    return len(_legend_rows(width, translator(language))) * LEGEND_LINE + 14


@cached_image("legend", 4 * 1024 * 1024)
def legend_picture(width: int, language: Language) -> Image.Image:
    """Icons with their one name (the vocabulary) in `language`, wrapped to `width`."""
    t = translator(language)
    rows = _legend_rows(width, t)
    picture = Image.new("RGB", (width, legend_height(width, language)), BOARD_GROUND)
    draw = ImageDraw.Draw(picture)
    frame = (0, 0, width - 1, picture.height - 1)
    draw.rounded_rectangle(frame, radius=12, fill=PANEL, outline=PANEL_EDGE, width=2)
    y = 7 + LEGEND_LINE / 2
    with textboxes.panel("legend", frame):
        for row in rows:
            x = 12.0
            for painter, text, item_width in row:
                icon_width = painter(picture, x, y)
                fonts.draw_text(
                    draw, (x + icon_width + 6, y), text, LEGEND_SIZE, fill=INK, anchor="lm"
                )
                x += item_width
            y += LEGEND_LINE
    return picture
