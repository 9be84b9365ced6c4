"""The snapshot's kept parts (`render.layers`), built for `compose.snapshot(reuse=True)`:
the landscape in bands of rows over its print, the supply strip in cells, the worker
board's panels and each player's board in parts (its head, the rows of its holdings, the
rims of its ring). Each part is keyed by what it shows and drawn alone, its top-left
corner at (0, 0), only when no part with its key is kept; the cuts between parts lie
where nothing drawn crosses them, on multiples of `align` in the picture (a replay's
frame reduces the picture in blocks of `align`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache

from PIL import Image

from i18n import Language, Translator, translator
from rules import Game

from . import landscape, layers, players, workerboard
from .words import display_name


def kept_landscape(
    game: Game,
    geo: landscape.LandscapeGeometry,
    language: Language,
    land_origin: tuple[int, int],
    align: int,
    kept: layers.Kept,
) -> None:
    """The landscape without the last turn's marks, as kept: its frame and print once
    per game, and over them, band by band of rows (`landscape.bands`, each cut on a
    multiple of `align` in the picture), the labels and pieces of the fields each band
    shows, keyed by those fields alone: a settlement redraws its band."""
    t = translator(language)
    size = (geo.width, geo.height)
    printed = layers.layer(
        ("landscape print", size, geo.radius, landscape.print_key(game)),
        size,
        lambda image: landscape.draw_printed_frame(image, game, geo, (0, 0)),
    )
    seats = {p.id: seat for seat, p in enumerate(game.players)}
    fields = {f.label: landscape.field_key(f, seats) for f in game.fields.values()}
    hexes = tuple((f.label, f.q, f.r) for f in game.fields.values())
    tiles = tuple((p.letter, p.centre) for p in game.tiles)
    shift = -land_origin[1] % align
    for top, bottom, reach, labels in landscape.bands(geo, hexes, shift):
        key = (
            "landscape band",
            language,
            size,
            geo.radius,
            top,
            bottom,
            tiles,
            tuple(fields[label] for label in labels),
        )
        drawer = _land_band_drawer(game, geo, printed, (top, bottom, reach), labels, t)
        band = layers.layer(key, (geo.width, bottom - top), drawer)
        kept.parts.append((key, band, (land_origin[0], land_origin[1] + top)))


def _land_band_drawer(
    game: Game,
    geo: landscape.LandscapeGeometry,
    printed: Image.Image,
    rows: tuple[int, int, int],
    labels: tuple[str, ...],
    t: Translator,
) -> Callable[[Image.Image], None]:
    """What draws the landscape's band of `rows` (top, bottom, and `reach`: where the
    fields `labels` start being drawn): drawn from `reach`, so that no field is drawn
    from above the picture's top, then cut."""
    top, bottom, reach = rows

    def draw(image: Image.Image) -> None:
        canvas = printed.crop((0, reach, geo.width, bottom))
        landscape.draw_over_print(canvas, game, geo, (0, -reach), (), t, labels)
        image.paste(canvas.crop((0, top - reach, geo.width, bottom - reach)), (0, 0))

    return draw


def kept_supply(
    game: Game,
    geo: landscape.LandscapeGeometry,
    language: Language,
    supply_origin: tuple[int, int],
    kept: layers.Kept,
    align: int = 1,
) -> None:
    """The supply, in parts cut on multiples of `align`, as kept."""
    t = translator(language)
    # the strip in parts (`players.supply_cuts`): a count that changed redraws its own
    laid = players.supply_layout(game, 0, geo.width, t)
    for key, left, right in _supply_parts(laid, supply_origin[0], align):
        width = (geo.width + 1 if right is None else right) - left
        part = layers.layer(
            key, (width, players.SUPPLY_HEIGHT + 1), _supply_drawer(laid, left, right)
        )
        kept.parts.append((key, part, (supply_origin[0] + left, supply_origin[1])))


@lru_cache(maxsize=256)
def _supply_parts(
    laid: players.SupplyLayout, x0: int, align: int
) -> tuple[tuple[Hashable, int, int | None], ...]:
    """The supply strip's parts (its key, its first column and the column past its last,
    None for the strip's last) when it lies at column `x0`, cut on multiples of
    `align` there (`players.supply_cuts`). A middle part is keyed by its width and the
    counts in it only: it shows the frame's top and bottom edges wherever it lies."""
    parts: list[tuple[Hashable, int, int | None]] = []
    left = 0
    for right in (*players.supply_cuts(laid, x0, align), laid.width + 1):
        last = right == laid.width + 1
        shown = tuple(
            (name, count, x - left) for name, count, x, _ in laid.items if left <= x < right
        )
        key = (
            "supply",
            right - left,
            laid.title if left == 0 else None,
            laid.width - left if last else None,
            shown,
        )
        parts.append((key, left, None if last else right))
        left = right
    return tuple(parts)


def _supply_drawer(
    laid: players.SupplyLayout, left: int, right: int | None
) -> Callable[[Image.Image], None]:
    """What draws the supply strip's part from column `left` to `right` (None: to its
    end): the strip's frame (kept once per width: drawing it whole for each part took
    most of a part's time) cut to the part's columns, and what lies there of the title
    and the counts."""

    def draw(image: Image.Image) -> None:
        frame = layers.layer(
            ("supply frame", laid.width),
            (laid.width + 1, players.SUPPLY_HEIGHT + 1),
            lambda strip: players.draw_supply_frame(strip, (0, 0), laid.width),
        )
        image.paste(frame.crop((left, 0, left + image.width, image.height)), (0, 0))
        players.draw_supply_part(image, laid, 0, left, right, framed=True)

    return draw


def kept_boards(
    game: Game,
    shown: Mapping[str, str],
    notes: Mapping[str, str],
    language: Language,
    board_origin: tuple[int, int],
    origins: list[tuple[int, int]],
    kept: layers.Kept,
    align: int = 1,
) -> None:
    """The worker board with its standing workers, and each player's board, as kept
    (`_kept_board`: in parts on multiples of `align`)."""
    t = translator(language)

    size = (workerboard.WIDTH, workerboard.HEIGHT)

    def draw_titled(image: Image.Image) -> None:
        image.paste(workerboard.static_board(), (0, 0))
        workerboard.draw_titles(image, (0, 0), t)

    # the printed board with its titles (once per language), then its standing workers
    titled = layers.layer(("worker board titled", language), size, draw_titled)
    # each panel's part apart: a worker placed redraws its panel's
    for panel, box in workerboard.SECTIONS.items():
        key = ("worker board", language, panel, workerboard.standing_key(game, panel))
        part_size = (box[2] - box[0], box[3] - box[1])
        part = layers.layer(key, part_size, _section_drawer(game, titled, panel, box))
        kept.parts.append((key, part, (board_origin[0] + box[0], board_origin[1] + box[1])))
    for seat, (player, origin) in enumerate(zip(game.players, origins, strict=True)):
        _kept_board(game, seat, shown, notes.get(player.id), language, origin, align, kept)


def _section_drawer(
    game: Game, titled: Image.Image, panel: str, box: layers.Box
) -> Callable[[Image.Image], None]:
    """What draws the worker board's part `box` (of `panel`): the titled board's, and
    what stands there."""

    def draw(image: Image.Image) -> None:
        image.paste(titled.crop(box), (0, 0))
        workerboard.draw_standing(image, game, (-box[0], -box[1]), panel)

    return draw


def _kept_board(
    game: Game,
    seat: int,
    shown: Mapping[str, str],
    note: str | None,
    language: Language,
    origin: tuple[int, int],
    align: int,
    kept: layers.Kept,
) -> None:
    """A player's board as kept: whole, or cut (`players.board_cuts`) so that a turn
    passing on redraws the tags of two boards (whose turn, who is awaited: the ring)
    and the rows of holdings that changed for the player who played (their counts,
    goods or workers), not three whole boards."""
    t = translator(language)
    player = game.players[seat]
    awaited = game.awaiting == player.id
    head = (
        language,
        seat,
        display_name(player.id, shown),
        note,
        awaited,
        not game.is_over and game.turn_player == player.id and not game.in_setup,
    )
    shows: dict[str, tuple[object, ...]] = {
        "counts": (
            language,
            seat,
            player.coins,
            player.cows,
            player.canteens,
            player.settlements_left,
        ),
        "goods": (tuple(player.goods.items()),),
        "workers": (language, tuple(player.workers.items())),
    }
    cuts = players.board_cuts(origin, align)
    if cuts is None:
        holdings = (player.coins, player.cows, player.canteens, player.settlements_left)
        whole_key = ("player board", *head, *holdings, *shows["goods"], shows["workers"][1])
        size = (players.BOARD_WIDTH + 1, players.BOARD_HEIGHT + 1)
        whole = layers.layer(whole_key, size, _board_drawer(game, seat, shown, note, t, "whole"))
        kept.parts.append((whole_key, whole, origin))
        return
    boxes: list[tuple[tuple[object, ...], str | tuple[str, ...], layers.Box]] = []
    for name, box in cuts.boxes().items():
        if name == "head":
            boxes.append((("player board head", cuts, *head), name, box))
        else:
            boxes.append((("player board rim", name, cuts, seat, awaited), name, box))
    # each group of the holdings' rows apart, keyed by what it shows alone (the goods
    # are alike on every board that holds the same)
    for rows, box in cuts.holdings.items():
        shown_rows = tuple(value for row in rows for value in shows[row])
        boxes.append((("player board holdings", rows, box, *shown_rows), rows, box))
    for key, part_name, (left, top, right, bottom) in boxes:
        drawer = _board_drawer(game, seat, shown, note, t, part_name, (-left, -top))
        part = layers.layer(key, (right - left, bottom - top), drawer)
        kept.parts.append((key, part, (origin[0] + left, origin[1] + top)))


def _board_drawer(
    game: Game,
    seat: int,
    shown: Mapping[str, str],
    note: str | None,
    t: Translator,
    part: str | tuple[str, ...],
    corner: tuple[int, int] = (0, 0),
) -> Callable[[Image.Image], None]:
    """What draws `part` of a board (`players.BoardCuts`: a name, or the holdings' rows
    it shows; or the "whole" board) whose top-left corner is at `corner` of the part's
    picture."""

    def draw(image: Image.Image) -> None:
        if part == "whole":
            players.draw_player_board(image, game, seat, corner, shown, note, t)
        elif part == "head":
            players.draw_board_head(image, game, seat, corner, shown, note, t)
        elif isinstance(part, tuple):
            players.draw_holdings_part(image, game, seat, corner, t, part)
        else:
            players.draw_board_body(image, game, seat, corner, t, holdings=False)

    return draw
