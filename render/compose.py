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

import math
import threading
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from i18n import Language, Translator, translator
from rules import Game
from rules.recent import RecentTurn, last_turn

from . import fonts, icons, landscape, layers, parts, players, textboxes, words, workerboard
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
RESULT_NAME_WIDTH = 170
RESULT_FIGURES_LEFT = 250
MIN_TEXT_SIZE = fonts.SMALL
"""No text of any picture is smaller (readable on a phone with at most one zoom)."""


TURN_LINE_Y = 156
"""The middle of the last turn's first line; each further line comes TURN_LINE_STEP lower
and makes the header that much taller."""
TURN_LINE_STEP = 28
SHORTEST_NAME = 4
"""Names and notes are cut (with an ellipsis) to no fewer characters than this."""


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
    header_height: int = HEADER_HEIGHT
    """The header band's height: HEADER_HEIGHT, more when the last turn takes lines."""
    kept: layers.Kept | None = None
    """With `reuse`: the kept parts pasted and the boxes drawn after them
    (`render_game` maps only those boxes onto the palette)."""
    size: tuple[int, int] = (0, 0)
    """The picture's width and height (with `drawn_only`, `image` is a scratch canvas
    as wide, and maybe taller)."""

    def field_centre(self, game: Game, label: str) -> tuple[int, int]:
        """Pixel centre of field `label` on this picture."""
        return landscape.field_centres(game, self.geometry, self.landscape_origin)[label]


@dataclass(frozen=True)
class Header:
    """The header's texts as they fit the band: sizes chosen, names cut if need be."""

    title: str
    title_size: int
    status: str
    status_size: int
    turn_lines: list[str]
    turn_size: int
    right: float
    """Where the texts end (the final ranking takes the band's right part)."""

    @property
    def height(self) -> int:
        return HEADER_HEIGHT + (len(self.turn_lines) - 1) * TURN_LINE_STEP


def _shortened(values: Mapping[str, str], limit: int) -> dict[str, str]:
    """Each value cut to `limit` characters with an ellipsis (the longer ones only)."""
    return {key: v if len(v) <= limit else v[:limit].rstrip() + "…" for key, v in values.items()}


def fit_names(
    make: Callable[[Mapping[str, str], Mapping[str, str]], str],
    names: Mapping[str, str],
    notes: Mapping[str, str],
    size: int,
    room: float,
    bold: bool = False,
) -> str:
    """The sentence `make(names, notes)` at most `room` wide at `size`, the players'
    names and notes cut shorter (never the game's own words) until it fits."""
    text = make(names, notes)
    limit = max((len(v) for v in (*names.values(), *notes.values())), default=0)
    while fonts.text_width(text, size, bold) > room and limit > SHORTEST_NAME:
        limit -= 1
        text = make(_shortened(names, limit), _shortened(notes, limit))
    return text


def header_texts(
    game: Game,
    turn: RecentTurn | None,
    names: Mapping[str, str],
    notes: Mapping[str, str],
    width: int,
    results: bool,
    t: Translator,
) -> Header:
    """The header's title (when the game is over; else the task after the awaited
    player's name), status line and last turn, fitted to a picture `width` wide:
    smaller text down to 18 px, then shorter names (status, title), and the last turn
    on as many lines as it needs."""
    right = width - 24 - (RESULTS_WIDTH + 12 if results else 0)
    room = right - 24
    if game.is_over:
        title_room = right - 100
        title = words.game_over_title(game, names, t)
        title_size = fonts.fitting_size(title, TITLE_SIZE, title_room, True, fonts.HEADLINE)
        title = fit_names(
            lambda shown, _: words.game_over_title(game, shown, t),
            names,
            {},
            title_size,
            title_room,
            bold=True,
        )
    else:
        title, title_size = words.title_task(game, t), TASK_SIZE  # fitted when drawn
    status = words.status_line(game, names, notes, t)
    status_size = fonts.fitting_size(status, LINE_SIZE, room)
    status = fit_names(
        lambda shown, shown_notes: words.status_line(game, shown, shown_notes, t),
        names,
        notes,
        status_size,
        room,
    )
    turn_lines, turn_size = _turn_lines(turn, names, width, results, t)
    return Header(title, title_size, status, status_size, turn_lines, turn_size, right)


def _draw_header(
    picture: Image.Image,
    game: Game,
    header: Header,
    names: Mapping[str, str],
    notes: Mapping[str, str],
    turn: RecentTurn | None,
    results: list[tuple[int, str, str]],
    t: Translator,
    reuse: bool = False,
) -> None:
    """The dark band: the awaited player's name in their colour and their task (or the
    winner and the final ranking), whose turn it is, and the last turn in words. With
    `reuse`, the title's rows are pasted as kept (`_kept_title`)."""
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, picture.width, header.height), fill=INK)
    right = header.right
    with textboxes.panel("header", (0, 0, right, header.height)):
        if reuse:
            picture.paste(_kept_title(picture.width, game, header, names, notes)[1], (0, 0))
        else:
            _draw_title(picture, draw, game, header, names, notes)
        fonts.draw_text(
            draw, (24, STATUS_Y), header.status, header.status_size, fill=WHITE, anchor="lm"
        )
        x = 24
        if turn is not None:
            house = icons.house(seat_colour(game.seat_of(turn.player)), 44)
            icons.paste(picture, house, (x + 22, TURN_LINE_Y - 2))
            x += 54
        for i, line in enumerate(header.turn_lines):
            y = TURN_LINE_Y + i * TURN_LINE_STEP
            fonts.draw_text(draw, (x, y), line, header.turn_size, fill=WHITE, anchor="lm")
    if results:
        _draw_results(picture, draw, results, header.height, t)


STATUS_Y = 120
"""The middle of the status line (whose turn it is)."""
TITLE_ROWS = 100
"""The header's rows the title lies in (the name's box: rows 16 to 96); the rest of
the header is drawn after it."""


def _kept_title(
    width: int,
    game: Game,
    header: Header,
    names: Mapping[str, str],
    notes: Mapping[str, str],
) -> tuple[Hashable, Image.Image]:
    """The header's first TITLE_ROWS rows (`width` wide) as `_draw_title` draws them on
    the header's ground, kept (`render.layers`), and its key: in a replay the title
    comes back with each player's turn (who is awaited, and their task), and each of
    its words costs about 1.5 ms to draw."""
    awaited = game.awaiting
    key = (
        "header title",
        width,
        header.right,
        header.title,
        header.title_size,
        game.is_over,
        None if awaited is None else game.seat_of(awaited),
        None if awaited is None else names[awaited],
        None if awaited is None else notes.get(awaited),
    )

    def draw(image: Image.Image) -> None:
        image.paste(INK, (0, 0, *image.size))
        _draw_title(image, ImageDraw.Draw(image), game, header, names, notes)

    return key, layers.layer(key, (width, TITLE_ROWS), draw)


TITLE_KEPT_ROWS = 96
TITLE_KEPT_ALIGN = 12
"""The title's rows above the status line, on a width that is a multiple of this, are
a kept part of the picture (`_title_part`): a multiple of every reduction of a replay,
so that it is reduced alone as it is in the picture."""


def _title_part(
    width: int,
    game: Game,
    header: Header,
    names: Mapping[str, str],
    notes: Mapping[str, str],
) -> tuple[Hashable, Image.Image]:
    """The title's first TITLE_KEPT_ROWS rows, cut to a multiple of TITLE_KEPT_ALIGN
    wide, as a kept part (its key, its picture): its rows are neither drawn nor mapped
    onto the palette again for a move's picture (the status line below changes at
    every move, the title much less)."""
    title_key, title = _kept_title(width, game, header, names, notes)
    cut = width - width % TITLE_KEPT_ALIGN
    key = ("header title part", cut, title_key)

    def draw(image: Image.Image) -> None:
        image.paste(title.crop((0, 0, cut, TITLE_KEPT_ROWS)), (0, 0))

    return key, layers.layer(key, (cut, TITLE_KEPT_ROWS), draw)


def _draw_title(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    game: Game,
    header: Header,
    names: Mapping[str, str],
    notes: Mapping[str, str],
) -> None:
    """The winners (a star), or the awaited player's name in their colour, their seat
    note and their task."""
    y = 56
    x: float = 24
    right = header.right
    awaited = game.awaiting
    if game.is_over:
        icons.paste(picture, icons.star(64, GOLD), (x + 32, y))
        fonts.draw_text(
            draw, (x + 76, y), header.title, header.title_size, fill=GOLD, bold=True, anchor="lm"
        )
        return
    if awaited is None:
        return
    colour = seat_colour(game.seat_of(awaited))
    icons.paste(picture, icons.house(colour, 68), (x + 34, y))
    x += 80
    name, note, task_size = _title_layout(
        names[awaited], notes.get(awaited), header.title, x, right
    )
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
    if note:
        x += fonts.draw_text(draw, (x, y), note, NOTE_SIZE, fill=HEADER_MUTED, anchor="lm") + 18
    fonts.draw_text(draw, (x, y + 2), header.title, task_size, fill=WHITE, bold=True, anchor="lm")


NAME_ROOM = 0.45
NOTE_ROOM = 0.25
"""The awaited player's name and note take at most these parts of the header's width,"""
LEAST_NAME_ROOM = 200
LEAST_NOTE_ROOM = 90
"""... and give up room, down to these widths, so that their task keeps a larger size."""


def _title_layout(
    name: str, note: str | None, task: str, left: float, right: float
) -> tuple[str, str | None, int]:
    """The awaited player's name and note (cut with an ellipsis if need be) and the size
    of their task, all on one line from `left` to `right`: the task stays at LARGE
    size or more while cutting the name and note can make room for it, and never
    goes below 18 px."""
    for smallest in (fonts.LARGE, fonts.SMALL):
        name_room, note_room = right * NAME_ROOM, right * NOTE_ROOM
        while True:
            shown = fonts.fit(name, TITLE_SIZE, name_room, bold=True)
            x = left + fonts.text_width(shown, TITLE_SIZE, bold=True) + 32 + 18
            shown_note = fonts.fit(note, NOTE_SIZE, note_room) if note else None
            if shown_note:
                x += fonts.text_width(shown_note, NOTE_SIZE) + 18
            size = fonts.fitting_size(task, TASK_SIZE, right - x, True, smallest)
            if fonts.text_width(task, size, bold=True) <= right - x:
                return shown, shown_note, size
            if name_room <= LEAST_NAME_ROOM and note_room <= LEAST_NOTE_ROOM:
                break
            name_room = max(LEAST_NAME_ROOM, name_room - 60)
            note_room = max(LEAST_NOTE_ROOM, note_room - 60)
    return shown, shown_note, size


def _draw_results(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    rows: list[tuple[int, str, str]],
    height: int,
    t: Translator,
) -> None:
    """The final ranking with its tie-break figures, in the right part of the header
    (`height` tall)."""
    left = picture.width - 12 - RESULTS_WIDTH
    frame = (left, 10, left + RESULTS_WIDTH, height - 10)
    draw.rounded_rectangle(frame, radius=12, fill=RESULTS_GROUND, outline=GOLD, width=3)
    with textboxes.panel("final ranking", frame):
        title = t.translate(LABELS["final_ranking"])
        title_size = fonts.fitting_size(title, RESULT_SIZE, RESULTS_WIDTH - 32, bold=True)
        fonts.draw_text(draw, (left + 16, 30), title, title_size, fill=INK, bold=True, anchor="lm")
        y = 30 + RESULT_LINE
        for place, name, figures in rows:
            if place == 1:
                icons.paste(picture, icons.star(24, GOLD), (left + 26, y))
            fonts.draw_text(
                draw, (left + 42, y), f"{place}.", RESULT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            name = fonts.fit(name, RESULT_SIZE, RESULT_NAME_WIDTH, bold=True)
            fonts.draw_text(
                draw, (left + 68, y), name, RESULT_SIZE, fill=INK, bold=True, anchor="lm"
            )
            room = RESULTS_WIDTH - RESULT_FIGURES_LEFT - 16
            size = fonts.fitting_size(figures, RESULT_SIZE, room)
            fonts.draw_text(
                draw, (left + RESULT_FIGURES_LEFT, y), figures, size, fill=INK, anchor="lm"
            )
            y += RESULT_LINE


def board_rows(player_count: int) -> int:
    return (player_count + 1) // 2


def column_height(player_count: int, language: Language) -> int:
    """Height of the right column: worker board, player boards, legend."""
    return (
        workerboard.HEIGHT
        + GAP
        + board_rows(player_count) * (players.BOARD_HEIGHT + GAP)
        + players.legend_height(COLUMN_WIDTH, language)
    )


def picture_width(game: Game) -> int:
    """The snapshot's width (its landscape's and the column's)."""
    return MARGIN + landscape.geometry(game).width + GAP + COLUMN_WIDTH + MARGIN


@dataclass(frozen=True)
class Layout:
    """Where each part of the snapshot lies: what `snapshot` draws at, and what
    `render.targets` says can be touched there (one source of truth for both)."""

    size: tuple[int, int]
    header_height: int
    geometry: landscape.LandscapeGeometry
    landscape_origin: tuple[int, int]
    worker_board_origin: tuple[int, int]
    player_board_origins: list[tuple[int, int]]
    supply_origin: tuple[int, int]
    legend_origin: tuple[int, int]


def layout(game: Game, header_height: int, language: Language) -> Layout:
    """The snapshot's parts laid out under a header `header_height` tall."""
    geo = landscape.geometry(game)
    right_height = column_height(len(game.players), language)
    left_height = geo.height + GAP + players.SUPPLY_HEIGHT
    body_height = max(left_height, right_height)
    top = header_height + GAP
    column_x = MARGIN + geo.width + GAP
    y = top + workerboard.HEIGHT + GAP
    return Layout(
        size=(column_x + COLUMN_WIDTH + MARGIN, top + body_height + MARGIN),
        header_height=header_height,
        geometry=geo,
        # the landscape in the middle of the room above the supply
        landscape_origin=(MARGIN, top + (body_height - left_height) // 2),
        worker_board_origin=(column_x, top),
        player_board_origins=[
            (
                column_x + (seat % 2) * (players.BOARD_WIDTH + GAP),
                y + (seat // 2) * (players.BOARD_HEIGHT + GAP),
            )
            for seat in range(len(game.players))
        ],
        supply_origin=(MARGIN, top + body_height - players.SUPPLY_HEIGHT),
        legend_origin=(column_x, y + board_rows(len(game.players)) * (players.BOARD_HEIGHT + GAP)),
    )


def picture_layout(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: Language = "en",
) -> Layout:
    """The snapshot's layout, without drawing it (only the header's words are laid out:
    the last turn said on more lines makes it taller)."""
    del seat_notes  # the notes are on the title and status lines, one line each
    t = translator(language)
    shown = {pid: display_name(pid, names) for pid in game.player_ids}
    results = bool(result_lines(game, shown, t)) if game.is_over else False
    lines = _turn_lines(last_turn(game), shown, picture_width(game), results, t)[0]
    return layout(game, HEADER_HEIGHT + (len(lines) - 1) * TURN_LINE_STEP, language)


def _turn_lines(
    turn: RecentTurn | None, names: Mapping[str, str], width: int, results: bool, t: Translator
) -> tuple[list[str], int]:
    """The last turn in words on as many lines as it needs in a picture `width` wide
    (the final ranking beside it when `results`), and their size."""
    right = width - 24 - (RESULTS_WIDTH + 12 if results else 0)
    turn_room = right - 24 - (54 if turn is not None else 0)
    line = words.turn_line(turn, names, t)
    turn_size = fonts.fitting_size(line, LINE_SIZE, turn_room, smallest=fonts.TEXT)
    return fonts.wrap(line, turn_size, turn_room), turn_size


def snapshot(
    game: Game,
    *,
    highlight: str | None = None,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: Language = "en",
    reuse: bool = False,
    drawn_only: bool = False,
    align: int = 1,
) -> Snapshot:
    """Draw the whole game, its words in `language`. With `reuse`, the parts that look
    as they did in a picture drawn before (`render.layers`) are pasted, not drawn: the
    same pixels, drawn in a fraction of the time (the text recordings of the tests see
    only what is drawn).

    With `drawn_only` as well, nothing of the size of the picture is made: the header,
    the last turn's marks and the worker board's moves are drawn on a scratch canvas
    over the kept parts pasted in their boxes only (each box widened to multiples of
    `align`), and come cropped in `kept.drawn`; `image` is that canvas (`size` gives
    the picture's), right only in those boxes, and drawn over by the next snapshot:
    the bot's PNG and a replay's frame are made of the kept parts and those boxes."""
    t = translator(language)
    notes = {pid: note for pid, note in (seat_notes or {}).items() if note}
    shown = {pid: display_name(pid, names) for pid in game.player_ids}
    turn = last_turn(game)
    lines = header_lines(game, turn, shown, notes, t)
    results = result_lines(game, shown, t) if game.is_over else []
    width = picture_width(game)
    header = header_texts(game, turn, shown, notes, width, bool(results), t)
    laid = layout(game, header.height, language)
    geo, size, top = laid.geometry, laid.size, header.height + GAP
    land_origin, supply_origin = laid.landscape_origin, laid.supply_origin
    board_origin, origins = laid.worker_board_origin, laid.player_board_origins
    legend_origin = laid.legend_origin
    marks = landscape.field_marks(game, turn, highlight)
    legend = players.legend_picture(COLUMN_WIDTH, language)
    snapshot = Snapshot(
        Image.new("RGB", (1, 1)),
        lines,
        turn,
        geo,
        results,
        land_origin,
        board_origin,
        origins,
        supply_origin,
        marks,
        header.height,
        size=size,
    )
    if not reuse:
        picture = Image.new("RGB", size, BOARD_GROUND)
        _draw_header(picture, game, header, shown, notes, turn, results, t)
        landscape.draw_landscape(picture, game, geo, land_origin, marks, t)
        players.draw_supply(picture, game, supply_origin, geo.width, t)
        picture.paste(workerboard.static_board(), board_origin)
        workerboard.draw_titles(picture, board_origin, t)
        workerboard.draw_pieces(picture, game, board_origin, turn)
        for seat, (player, origin) in enumerate(zip(game.players, origins, strict=True)):
            players.draw_player_board(picture, game, seat, origin, shown, notes.get(player.id), t)
        picture.paste(legend, legend_origin)
        snapshot.image = picture
        return snapshot

    kept = layers.Kept()
    parts.kept_landscape(game, geo, language, land_origin, align, kept)
    parts.kept_supply(game, geo, language, supply_origin, kept, align)
    parts.kept_boards(game, shown, notes, language, board_origin, origins, kept, align)
    kept.parts.append((("legend", COLUMN_WIDTH, language), legend, legend_origin))
    # what is drawn over the kept parts (generously: a ring spreads past its box)
    boxes = [(0, 0, width, top)]
    status_top = fonts.ink_top(header.status, header.status_size, STATUS_Y)
    # the final ranking is drawn over the title's rows, a tall status line may reach them
    if not results and status_top >= TITLE_KEPT_ROWS:
        title_key, title = _title_part(width, game, header, shown, notes)
        kept.parts.append((title_key, title, (0, 0)))
        ground_key, ground = _header_ground(width, header.height)
        kept.parts.append((ground_key, ground, (0, TITLE_KEPT_ROWS)))
        boxes = _header_boxes(header, turn is not None, width)
        if title.width < width:
            boxes.append((title.width, 0, width, TITLE_KEPT_ROWS))
        if ground.width < width:
            boxes.append((ground.width, TITLE_KEPT_ROWS, width, top))
    boxes.extend(_around(landscape.mark_box(game, geo, land_origin, m), size) for m in marks)
    boxes.extend(_around(b, size) for b in workerboard.moves_boxes(game, board_origin, turn))
    boxes = [_aligned(box, size, align) for box in boxes]

    def draw(picture: Image.Image) -> None:
        _draw_header(picture, game, header, shown, notes, turn, results, t, reuse=True)
        landscape.draw_marks(picture, game, geo, land_origin, marks)
        workerboard.draw_moves(picture, game, board_origin, turn)

    if drawn_only:
        with _SCRATCH_LOCK:
            picture = _scratch(size)
            below_header = header.height + 1  # the header's rows are all drawn over
            for left, box_top, right, bottom in boxes:
                if bottom > below_header:
                    _lay(picture, (left, max(box_top, below_header), right, bottom), kept.parts)
            draw(picture)
            kept.drawn = [(box, picture.crop(box)) for box in boxes]
    else:
        picture = Image.new("RGB", size, BOARD_GROUND)
        for _, part, origin in kept.parts:
            picture.paste(part, origin)
        draw(picture)
        kept.drawn = [(box, picture.crop(box)) for box in boxes]
    snapshot.image = picture
    snapshot.kept = kept
    return snapshot


def _header_ground(width: int, height: int) -> tuple[Hashable, Image.Image]:
    """The header's rows below the title's kept rows as they are before its lines are
    drawn: the dark band to its last row (`height`, drawn inclusive), cut to a multiple
    of TITLE_KEPT_ALIGN wide like the title's part (the rest is drawn). Kept: the
    lines are drawn over it in their own boxes (`_header_boxes`), not the band's whole
    width."""
    cut = width - width % TITLE_KEPT_ALIGN
    key = ("header ground", cut, height)

    def draw(image: Image.Image) -> None:
        image.paste(INK, (0, 0, *image.size))

    return key, layers.layer(key, (cut, height + 1 - TITLE_KEPT_ROWS), draw)


TEXT_SPILL = 16
"""How far past its advance width a line's ink may reach (a glyph's overhang)."""


def _header_boxes(header: Header, marked: bool, width: int) -> list[layers.Box]:
    """Where the header's lines are drawn over its ground (`_header_ground`): the title's
    last rows, then every row below them as far right as the status line and the last
    turn's lines (after the mover's house, `marked`) reach: a move's picture maps and
    compresses the words, not the band's empty width."""
    status_right = 24 + fonts.text_width(header.status, header.status_size)
    turn_left = 24 + (54 if marked else 0)
    widths = [fonts.text_width(line, header.turn_size) for line in header.turn_lines]
    right = max(status_right, turn_left + max(widths, default=0)) + TEXT_SPILL
    return [
        (0, TITLE_KEPT_ROWS, width, TITLE_ROWS),
        (0, TITLE_ROWS, min(width, math.ceil(right)), header.height + 1),
    ]


_SCRATCH_LOCK = threading.Lock()
_SCRATCH: dict[int, Image.Image] = {}
SCRATCH_WIDTHS = 2
"""Scratch canvases kept (one per picture width, about 10 MB each): the latest widths.
A canvas is as tall as the tallest picture of its width drawn yet: the header is drawn
to the picture's width, nothing to its height (the boxes end within the picture)."""


def _scratch(size: tuple[int, int]) -> Image.Image:
    """A scratch canvas `size[0]` wide, at least `size[1]` tall (its pixels are what the
    last snapshot left)."""
    width, height = size
    picture = _SCRATCH.pop(width, None)
    if picture is None or picture.height < height:
        picture = Image.new("RGB", (width, height), BOARD_GROUND)
        while len(_SCRATCH) >= SCRATCH_WIDTHS:
            del _SCRATCH[next(iter(_SCRATCH))]
    _SCRATCH[width] = picture  # the latest last
    return picture


def _lay(picture: Image.Image, box: layers.Box, parts: layers.Parts) -> None:
    """`box` of the picture as the kept parts make it: the board's ground, the parts
    pasted over it in order."""
    left, top, right, bottom = box
    picture.paste(BOARD_GROUND, box)
    for _, part, (x, y) in parts:
        inside = (
            max(left, x),
            max(top, y),
            min(right, x + part.width),
            min(bottom, y + part.height),
        )
        if inside[0] < inside[2] and inside[1] < inside[3]:
            cut = (inside[0] - x, inside[1] - y, inside[2] - x, inside[3] - y)
            picture.paste(part.crop(cut), inside[:2])


def _aligned(box: layers.Box, size: tuple[int, int], align: int) -> layers.Box:
    """`box` widened to multiples of `align` (within the picture)."""
    left, top, right, bottom = box
    return (
        left - left % align,
        top - top % align,
        min(size[0], -(-right // align) * align),
        min(size[1], -(-bottom // align) * align),
    )


MARGIN_DRAWN = 16
"""How far past a box what was drawn in it may spread (a ring's width and more)."""


def _around(box: tuple[float, float, float, float], size: tuple[int, int]) -> layers.Box:
    """`box` widened by MARGIN_DRAWN, in whole pixels, within the picture."""
    left, top, right, bottom = box
    return (
        max(0, math.floor(left) - MARGIN_DRAWN),
        max(0, math.floor(top) - MARGIN_DRAWN),
        min(size[0], math.ceil(right) + MARGIN_DRAWN + 1),
        min(size[1], math.ceil(bottom) + MARGIN_DRAWN + 1),
    )
