"""The full snapshot, laid out for a chat preview and a phone.

    +------------------------------------------------------------------+
    | [Ben] must recruit, work or build          (header band)         |
    | Turn 61: Ben's turn              (the final ranking, at the end) |
    | [A] Last turn (60): Ana built on C4 and C5, stopped building ... |
    +--------------------------------+---------------------------------+
    |                                | wheel | bank | city             |
    |          landscape             | mine | quarry | grain | pumpkin |
    |                                | player boards (2 per row)       |
    |                                | legend                          |
    | supply                         |                                 |
    +--------------------------------+---------------------------------+

Landscape format (width:height about 1.6, at most 2000 px wide): Discord's
preview box is about 1.57:1, and a picture much wider than it loses on phones. The
awaited player's name is written in their colour, large enough to read in the
preview; no text is smaller than MIN_TEXT_SIZE at full size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from rules import Game
from rules.recent import RecentTurn, last_turn

from . import fonts, icons, landscape, players, workerboard
from .palette import (
    BOARD_GROUND,
    GOLD,
    HEADER_MUTED,
    INK,
    PLAYER_INK,
    PLAYER_RGB,
    RESULTS_GROUND,
    WHITE,
    seat_colour,
)
from .vocabulary import LABELS
from .words import display_name, header_lines, result_lines

MARGIN = 10
GAP = 10
COLUMN_WIDTH = workerboard.WIDTH
MAX_WIDTH = 2 * MARGIN + landscape.MAX_WIDTH + GAP + COLUMN_WIDTH
"""2000 px: wider pictures shrink too much in a phone's chat column."""
HEADER_HEIGHT = 178
TITLE_SIZE = fonts.TITLE
"""The awaited player's name: its capitals stay 11 px tall in a 550 × 350 preview."""
TASK_SIZE = fonts.TASK
LINE_SIZE = fonts.LARGE
NOTE_SIZE = fonts.LARGE
RESULT_SIZE = fonts.TEXT
RESULT_LINE = 29
RESULTS_WIDTH = 980
MIN_TEXT_SIZE = fonts.SMALL
"""No text of any picture is smaller (readable on a phone with at most one zoom)."""


@dataclass
class Snapshot:
    """A rendered picture and what was written on it, for the caller and for tests."""

    image: Image.Image
    header: list[str]
    turn: RecentTurn | None
    geometry: landscape.LandscapeGeometry
    results: list[tuple[int, str, str]] = field(default_factory=list)
    landscape_origin: tuple[int, int] = (0, 0)
    worker_board_origin: tuple[int, int] = (0, 0)
    player_board_origins: list[tuple[int, int]] = field(default_factory=list)
    supply_origin: tuple[int, int] = (0, 0)
    marks: list[landscape.FieldMark] = field(default_factory=list)

    def field_centre(self, game: Game, label: str) -> tuple[int, int]:
        """Pixel centre of field `label` on this picture."""
        return landscape.field_centres(game, self.geometry, self.landscape_origin)[label]


def _draw_header(
    picture: Image.Image,
    game: Game,
    lines: list[str],
    names: Mapping[str, str] | None,
    notes: Mapping[str, str],
    turn: RecentTurn | None,
    results: list[tuple[int, str, str]],
) -> None:
    """The dark band: the awaited player's name in their colour and their task (or the
    winner and the final ranking), whose turn it is, and the last turn in words."""
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, picture.width, HEADER_HEIGHT), fill=INK)
    title, status, turn_line = lines
    # the text's right edge: the final ranking takes the right part of the band
    right = picture.width - 24 - (RESULTS_WIDTH + 12 if results else 0)
    y = 56
    x: float = 24
    awaited = game.awaiting
    if game.is_over:
        icons.paste(picture, icons.star(64, GOLD), (x + 32, y))
        x += 76
        title = fonts.fit(title, TITLE_SIZE, right - x, bold=True)
        fonts.draw_text(draw, (x, y), title, TITLE_SIZE, fill=GOLD, bold=True, anchor="lm")
    elif awaited is not None:
        colour = seat_colour(game.seat_of(awaited))
        icons.paste(picture, icons.house(colour, 68), (x + 34, y))
        x += 80
        name = fonts.fit(display_name(awaited, names), TITLE_SIZE, right * 0.45, bold=True)
        name_width = fonts.text_width(name, TITLE_SIZE, bold=True)
        draw.rounded_rectangle(
            (x, y - 40, x + name_width + 32, y + 40),
            radius=16,
            fill=PLAYER_RGB[colour],
            outline=WHITE,
            width=3,
        )
        fonts.draw_text(
            draw, (x + 16, y), name, TITLE_SIZE, fill=PLAYER_INK[colour], bold=True, anchor="lm"
        )
        x += name_width + 32 + 18
        note = notes.get(awaited)
        if note:
            note = fonts.fit(note, NOTE_SIZE, right * 0.25)
            x += fonts.draw_text(draw, (x, y), note, NOTE_SIZE, fill=HEADER_MUTED, anchor="lm") + 18
        task = fonts.fit(title, TASK_SIZE, right - x, bold=True)
        fonts.draw_text(draw, (x, y + 2), task, TASK_SIZE, fill=WHITE, bold=True, anchor="lm")
    status = fonts.fit(status, LINE_SIZE, right - 24)
    fonts.draw_text(draw, (24, 120), status, LINE_SIZE, fill=WHITE, anchor="lm")
    x = 24
    if turn is not None:
        icons.paste(picture, icons.house(seat_colour(game.seat_of(turn.player)), 44), (x + 22, 154))
        x += 54
    size = LINE_SIZE
    if fonts.text_width(turn_line, size) > right - x:
        size = fonts.TEXT
    fonts.draw_text(
        draw, (x, 156), fonts.fit(turn_line, size, right - x), size, fill=WHITE, anchor="lm"
    )
    if results:
        _draw_results(picture, draw, results)


def _draw_results(
    picture: Image.Image, draw: ImageDraw.ImageDraw, rows: list[tuple[int, str, str]]
) -> None:
    """The final ranking with its tie-break figures, in the right part of the header."""
    left = picture.width - 12 - RESULTS_WIDTH
    draw.rounded_rectangle(
        (left, 10, left + RESULTS_WIDTH, HEADER_HEIGHT - 10),
        radius=12,
        fill=RESULTS_GROUND,
        outline=GOLD,
        width=3,
    )
    title = LABELS["final_ranking"]
    fonts.draw_text(draw, (left + 16, 30), title, RESULT_SIZE, fill=INK, bold=True, anchor="lm")
    y = 30 + RESULT_LINE
    for place, name, figures in rows:
        if place == 1:
            icons.paste(picture, icons.star(24, GOLD), (left + 26, y))
        fonts.draw_text(
            draw, (left + 42, y), f"{place}.", RESULT_SIZE, fill=INK, bold=True, anchor="lm"
        )
        name = fonts.fit(name, RESULT_SIZE, 170, bold=True)
        fonts.draw_text(draw, (left + 68, y), name, RESULT_SIZE, fill=INK, bold=True, anchor="lm")
        figures = fonts.fit(figures, RESULT_SIZE, RESULTS_WIDTH - 266)
        fonts.draw_text(draw, (left + 250, y), figures, RESULT_SIZE, fill=INK, anchor="lm")
        y += RESULT_LINE


def board_rows(player_count: int) -> int:
    return (player_count + 1) // 2


def column_height(player_count: int) -> int:
    """Height of the right column: worker board, player boards, legend."""
    return (
        workerboard.HEIGHT
        + GAP
        + board_rows(player_count) * (players.BOARD_HEIGHT + GAP)
        + players.legend_height(COLUMN_WIDTH)
    )


def snapshot(
    game: Game,
    *,
    highlight: str | None = None,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
) -> Snapshot:
    """Draw the whole game."""
    notes = dict(seat_notes or {})
    turn = last_turn(game)
    lines = header_lines(game, turn, names, notes)
    results = result_lines(game, names) if game.is_over else []
    geo = landscape.geometry(game)
    right_height = column_height(len(game.players))
    left_height = geo.height + GAP + players.SUPPLY_HEIGHT
    body_height = max(left_height, right_height)
    top = HEADER_HEIGHT + GAP
    width = MARGIN + geo.width + GAP + COLUMN_WIDTH + MARGIN
    picture = Image.new("RGB", (width, top + body_height + MARGIN), BOARD_GROUND)
    _draw_header(picture, game, lines, names, notes, turn, results)

    supply_origin = (MARGIN, top + body_height - players.SUPPLY_HEIGHT)
    # the landscape in the middle of the room above the supply
    land_origin = (MARGIN, top + (body_height - left_height) // 2)
    marks = landscape.field_marks(game, turn, highlight)
    landscape.draw_landscape(picture, game, geo, land_origin, marks)
    players.draw_supply(picture, game, supply_origin, geo.width)

    column_x = MARGIN + geo.width + GAP
    board_origin = (column_x, top)
    picture.paste(workerboard.static_board(), board_origin)
    workerboard.draw_pieces(picture, game, board_origin, turn)
    y = top + workerboard.HEIGHT + GAP
    origins = []
    for seat, player in enumerate(game.players):
        origin = (
            column_x + (seat % 2) * (players.BOARD_WIDTH + GAP),
            y + (seat // 2) * (players.BOARD_HEIGHT + GAP),
        )
        players.draw_player_board(picture, game, seat, origin, names, notes.get(player.id))
        origins.append(origin)
    y += board_rows(len(game.players)) * (players.BOARD_HEIGHT + GAP)
    picture.paste(players.legend_picture(COLUMN_WIDTH), (column_x, y))
    return Snapshot(
        picture, lines, turn, geo, results, land_origin, board_origin, origins, supply_origin, marks
    )
