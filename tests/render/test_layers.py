"""Pictures drawn by what changed are the pictures drawn whole (issue 37.2, 37.4).

`compose.snapshot(reuse=True)` pastes the parts kept in `render.layers` (the
landscape, the supply, the worker board with its standing workers, each player's
board) and draws only the rest; `compose.snapshot()` draws everything, as every
picture was drawn before: the reference. Whole games are drawn both ways, one turn
after another (so the kept parts of earlier turns and of the other games are there to
be wrongly reused), in several languages, with names, seat notes and a highlight.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Hashable

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from i18n import Language, Translator, translator
from render import (
    caches,
    compose,
    fonts,
    landscape,
    layers,
    players,
    replay,
    textboxes,
    workerboard,
)
from render.palette import BOARD_GROUND
from render.replay import turn_states
from rules import Game

from .helpers import game_at

GAMES: list[tuple[int, int, Language]] = [(2, 5, "en"), (3, 7, "ja"), (4, 5, "fr"), (4, 3, "pl")]
"""(players, seed, language): each played to its end."""


def _names(game: Game) -> dict[str, str]:
    return {pid: f"{pid.title()} Longname-{i}" for i, pid in enumerate(game.player_ids)}


def _notes(game: Game) -> dict[str, str]:
    return {game.player_ids[-1]: "AI plays"}


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


@pytest.mark.parametrize(("players", "seed", "language"), GAMES)
def test_every_turn_of_a_game_is_drawn_alike_with_the_parts_kept(
    players: int, seed: int, language: Language
) -> None:
    game = game_at(players, "end", seed=seed)
    names, notes = _names(game), _notes(game)
    labels = sorted(game.fields)
    differing = []
    for index, state in enumerate(turn_states(game)):
        highlight = labels[index % len(labels)] if index % 3 == 0 else None
        whole = compose.snapshot(
            state.game, highlight=highlight, names=names, seat_notes=notes, language=language
        )
        kept = compose.snapshot(
            state.game,
            highlight=highlight,
            names=names,
            seat_notes=notes,
            language=language,
            reuse=True,
        )
        if not _same(whole.image, kept.image):
            differing.append(state.frame.turn)
        assert kept.header == whole.header and kept.marks == whole.marks
    assert differing == [], f"turns drawn differently: {differing}"
    assert len(layers.LAYERS) > 0


@pytest.mark.parametrize(
    ("players", "phase", "language"),
    [(2, "start", "ja"), (3, "mid", "en"), (4, "end", "ja"), (4, "mid", "pl")],
)
def test_the_bots_png_is_the_png_of_the_whole_drawing(
    players: int, phase: str, language: Language
) -> None:
    game = game_at(players, phase)
    names, notes = _names(game), _notes(game)
    reference = compose.snapshot(game, names=names, seat_notes=notes, language=language)
    expected = render.to_png(reference.image)
    # drawn cold, then with every part kept, then after the kept parts of other games
    caches.clear_all()
    assert render.render_game(game, names=names, seat_notes=notes, language=language) == expected
    assert render.render_game(game, names=names, seat_notes=notes, language=language) == expected
    for other in (game_at(2, "mid"), game_at(4, "end", seed=3)):
        render.render_game(other, language=language)
    assert render.render_game(game, names=names, seat_notes=notes, language=language) == expected


@pytest.mark.parametrize(
    ("players", "seed", "language", "turns", "reduction"),
    [(3, 7, "ja", None, 2), (4, 5, "fr", (30, 60), 3), (2, 5, "en", (0, 30), 4)],
)
def test_every_replay_frame_is_the_frame_drawn_whole(
    players: int, seed: int, language: Language, turns: tuple[int, int] | None, reduction: int
) -> None:
    """A frame is the kept parts reduced and mapped apart (each on its own canvas of the
    ground, aligned to the reduction) and what was drawn over them reduced from the
    picture: the same palette indices as the whole picture reduced and mapped."""
    game = game_at(players, "end", seed=seed)
    names = _names(game)
    args = (game, names, _notes(game), language, turns, reduction, None)
    whole = replay._draw_frames(*args, reuse=False)
    kept = replay._draw_frames(*args, reuse=True)
    assert len(whole.images) == len(kept.images) > 10
    differing = [
        frame.turn
        for frame, a, b in zip(whole.shown, whole.images, kept.images, strict=True)
        if a.size != b.size or a.tobytes() != b.tobytes() or a.getpalette() != b.getpalette()
    ]
    assert differing == []
    assert replay._encode(whole.images) == replay._encode(kept.images)


def test_the_kept_parts_are_bounded() -> None:
    assert caches.REGISTRY["snapshot layers"] is layers.LAYERS
    assert caches.memory()["snapshot layers"][1] <= layers.LAYER_BYTES


def test_a_text_is_as_wide_as_its_letters_wherever_freetype_says_so() -> None:
    """`fonts.text_width` adds up the letters' widths of plain text (a font without
    kerning): every prefix of every text of a snapshot, in each language, at each size
    and weight, is as wide as FreeType measures it whole."""
    texts: set[str] = set()
    for language in ("en", "fr", "pl", "ja"):
        caches.clear_all()  # the shared art's words are drawn (and recorded) again
        with textboxes.recording() as drawn:
            compose.snapshot(game_at(4, "end", seed=3), names=_names(game_at(4, "end")),
                             language=language)  # fmt: skip
        texts.update(box.text for box in drawn)
    assert len(texts) > 100
    checked = 0
    for text in sorted(texts):
        for size in fonts.SCALE:
            for bold in (False, True):
                for end in range(1, len(text) + 1, 3):
                    prefix = text[:end]
                    whole = sum(
                        fonts._run_width(i, size, bold, run) for i, run in fonts.split_runs(prefix)
                    )
                    assert fonts.text_width(prefix, size, bold) == whole, (prefix, size, bold)
                    checked += 1
    assert checked > 10_000


def _holdings(game: Game) -> list[dict[str, tuple[object, ...]]]:
    """Each player's holdings, by the board's row that shows them."""
    return [
        {
            "counts": (p.coins, p.cows, p.canteens, p.settlements_left),
            "goods": tuple(p.goods.items()),
            "workers": tuple(p.workers.items()),
        }
        for p in game.players
    ]


def test_a_turn_passing_redraws_the_holdings_of_no_board_whose_holdings_stayed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 37.2, a frame redraws only what moved: when the turn passes, the boards of
    the players who gained or paid nothing get their tags redrawn (whose turn it is),
    not their goods, workers and counts, which are most of a board."""
    drawn: list[int] = []
    real = players._draw_holdings_row

    def spied(
        row: str,
        picture: Image.Image,
        draw: ImageDraw.ImageDraw,
        game: Game,
        seat: int,
        origin: tuple[int, int],
        t: Translator,
    ) -> None:
        drawn.append(seat)
        real(row, picture, draw, game, seat, origin, t)

    monkeypatch.setattr(players, "_draw_holdings_row", spied)
    game = game_at(4, "end", seed=3)
    names = _names(game)
    caches.clear_all()
    before: list[dict[str, tuple[object, ...]]] | None = None
    checked = redrawn = 0
    for state in turn_states(game):
        drawn.clear()
        compose.snapshot(state.game, names=names, language="pl", reuse=True, align=2)
        now = _holdings(state.game)
        if before is not None:
            stayed = [seat for seat in range(len(now)) if now[seat] == before[seat]]
            assert set(drawn).isdisjoint(stayed), state.frame.turn
            checked += len(stayed)
            redrawn += len(drawn)
        before = now
    assert checked > 100 and redrawn > 50


@pytest.mark.parametrize(
    ("players_count", "seed", "language", "align"),
    [(4, 3, "pl", 2), (3, 7, "ja", 3), (2, 5, "fr", 1)],
)
def test_a_turn_redraws_only_the_rows_of_holdings_that_changed(
    monkeypatch: pytest.MonkeyPatch, players_count: int, seed: int, language: Language, align: int
) -> None:
    """Issue 37.2/37.4: a player board's holdings are three rows (coins, cows, canteens
    and settlements left; goods; workers), and a turn mostly changes one or two of them
    (a worker taken, a good delivered for coins): the parts of the picture drawn again
    (then mapped onto the palette and compressed) cover only the rows that changed."""
    missed = _spy_on_drawn_parts(monkeypatch)
    game = game_at(players_count, "end", seed=seed)
    caches.clear_all()
    before: list[dict[str, tuple[object, ...]]] | None = None
    origins: list[tuple[int, int]] = []
    partly = 0
    for state in turn_states(game):
        missed.clear()
        drawn = compose.snapshot(state.game, language=language, reuse=True, align=align)
        assert drawn.kept is not None
        boxes = [
            (x, y, x + part.width, y + part.height)
            for key, part, (x, y) in drawn.kept.parts
            if key in missed
        ]
        now = _holdings(state.game)
        for seat, (x0, y0) in enumerate(drawn.player_board_origins):
            redrawn = {
                row
                for row, middle in players.HOLDINGS_ROWS.items()
                for left, top, right, bottom in boxes
                if left <= x0 + 200 < right and top <= y0 + middle < bottom
            }
            # (a header taller by a line moves the boards: their parts are cut anew)
            if before is not None and origins == drawn.player_board_origins:
                changed = {row for row in now[seat] if now[seat][row] != before[seat][row]}
                assert redrawn <= changed, (state.frame.turn, seat)
                partly += 0 < len(changed) < len(now[seat])
        before, origins = now, drawn.player_board_origins
    assert partly > 10


@pytest.mark.parametrize(("players_count", "seed", "language"), [(2, 5, "en"), (4, 3, "ja")])
def test_a_board_cut_into_parts_is_the_board_drawn_whole(
    players_count: int, seed: int, language: Language
) -> None:
    """Each part of a board (`players.board_cuts`: the head, the rows of holdings, the
    rims) drawn alone on its own picture and pasted is the board drawn whole, on every
    turn of a game, wherever the board lies against the reduction's blocks (a cut may
    fall only where nothing drawn crosses it, on a multiple of the reduction)."""
    game = game_at(players_count, "end", seed=seed)
    names, notes = _names(game), _notes(game)
    t = translator(language)
    places = [(align, x, y) for align in (1, 2, 3, 4) for x in range(align) for y in range(align)]
    size = (players.BOARD_WIDTH + 8, players.BOARD_HEIGHT + 8)
    differing, together = [], 0
    for index, state in enumerate(turn_states(game)):
        for seat, player in enumerate(state.game.players):
            align, x, y = places[(index * players_count + seat) % len(places)]
            origin = (4 + x, 4 + y)
            note = notes.get(player.id)
            whole = Image.new("RGB", size, BOARD_GROUND)
            players.draw_player_board(whole, state.game, seat, origin, names, note, t)
            cuts = players.board_cuts(origin, align)
            if cuts is None:  # kept whole
                continue
            parts = Image.new("RGB", size, BOARD_GROUND)
            boxes = [*cuts.boxes().items(), *cuts.holdings.items()]
            for name, (left, top, right, bottom) in boxes:
                corner = (-left, -top)
                part = Image.new("RGB", (right - left, bottom - top), BOARD_GROUND)
                if name == "head":
                    players.draw_board_head(part, state.game, seat, corner, names, note, t)
                elif isinstance(name, tuple):
                    players.draw_holdings_part(part, state.game, seat, corner, t, name)
                else:
                    players.draw_board_body(part, state.game, seat, corner, t, holdings=False)
                # every cut (the board's own edges aside) on a multiple of the reduction
                assert left == 0 or (origin[0] + left) % align == 0
                assert top == 0 or (origin[1] + top) % align == 0
                parts.paste(part, (origin[0] + left, origin[1] + top))
            together += len(cuts.holdings) < len(players.HOLDINGS_ROWS)
            if not _same(whole, parts):
                differing.append((state.frame.turn, seat))
    assert differing == []
    assert together > 0


def test_a_title_that_comes_back_is_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 37.2: in a replay the header's title (who is awaited, and their task) comes
    back with each player's turn; its words are drawn once, then pasted."""
    titles: list[str] = []
    real = compose._draw_title

    def spied(
        picture: Image.Image,
        draw: ImageDraw.ImageDraw,
        game: Game,
        header: compose.Header,
        names: dict[str, str],
        notes: dict[str, str],
    ) -> None:
        titles.append(header.title)
        real(picture, draw, game, header, names, notes)

    monkeypatch.setattr(compose, "_draw_title", spied)
    game = game_at(4, "end", seed=3)
    caches.clear_all()
    frames = replay._draw_frames(game, _names(game), {}, "en", None, 2, None)
    assert len(frames.shown) > 100
    assert len(titles) < len(frames.shown) / 3


def test_a_worker_placed_redraws_only_its_panel_of_the_worker_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 37.2: the worker board's panels are kept apart; a turn that placed a worker
    on the bank, or in a harvest area, or turned the wheel, redraws that panel only."""
    drawn: list[str | None] = []
    real = workerboard.draw_standing

    def spied(
        picture: Image.Image, game: Game, offset: tuple[int, int], panel: str | None = None
    ) -> None:
        drawn.append(panel)
        real(picture, game, offset, panel)

    monkeypatch.setattr(workerboard, "draw_standing", spied)
    game = game_at(4, "end", seed=3)
    caches.clear_all()
    before: dict[str, tuple[object, ...]] | None = None
    redrawn = 0
    for state in turn_states(game):
        drawn.clear()
        compose.snapshot(state.game, language="en", reuse=True, align=2)
        now = {panel: workerboard.standing_key(state.game, panel) for panel in workerboard.PANELS}
        if before is not None:
            changed = {panel for panel in now if now[panel] != before[panel]}
            assert set(drawn) <= changed, state.frame.turn
            redrawn += len(drawn)
        before = now
    assert redrawn > 50


def test_a_moves_picture_maps_the_title_rows_only_when_the_title_changed() -> None:
    """Issue 37.4: the header's title (the awaited player and their task) is a kept
    part of the picture, on the palette already; what is drawn for each move (and
    mapped onto the palette again) starts below it, at the status line."""
    game = game_at(4, "mid")
    drawn = compose.snapshot(game, language="fr", reuse=True, drawn_only=True)
    assert drawn.kept is not None
    title_rows = [box for box, _ in drawn.kept.drawn if box[1] < compose.TITLE_KEPT_ROWS]
    assert all(box[0] >= drawn.size[0] - compose.TITLE_KEPT_ALIGN for box in title_rows)
    assert any(key[0] == "header title part" for key, _, _ in drawn.kept.parts)  # type: ignore[index]


@pytest.mark.parametrize("name", ["Z̈̈̈̈̈̈̈̈̈̈ala", "🐄 Ś ジョン"])
def test_a_status_line_reaching_into_the_title_rows_is_drawn_over_them(name: str) -> None:
    """A name whose accents stack high reaches above the status line's room: the
    title's rows are then drawn with the header, as in the picture drawn whole."""
    game = game_at(3, "mid")
    names = {pid: name for pid in game.player_ids}
    reference = compose.snapshot(game, names=names, language="pl")
    caches.clear_all()
    picture = Image.open(io.BytesIO(render.render_game(game, names=names, language="pl")))
    expected = Image.open(io.BytesIO(render.to_png(reference.image)))
    header = (0, 0, picture.width, reference.header_height)
    assert picture.crop(header).tobytes() == expected.crop(header).tobytes()


def test_the_header_maps_its_words_not_its_empty_width() -> None:
    """Issue 37.4: below the title, a move's picture draws (and maps onto the palette,
    and compresses) the header only as far right as its words reach; the rest of the
    dark band is a kept part. The picture is the one drawn whole."""
    game = game_at(4, "mid")
    drawn = compose.snapshot(game, language="en", reuse=True, drawn_only=True)
    assert drawn.kept is not None
    width = drawn.size[0]
    status_rows = [
        box
        for box, _ in drawn.kept.drawn
        if box[1] >= compose.TITLE_ROWS and box[3] <= drawn.header_height + 1
    ]
    assert status_rows and all(box[2] < width * 0.9 for box in status_rows)
    reference = compose.snapshot(game, language="en")
    assert render.render_game(game, language="en") == render.to_png(reference.image)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_wide_and_accented_names_are_drawn_alike_in_the_headers_boxes(language: Language) -> None:
    """Names that are wide (capitals, emoji, Japanese) or accented above and below are
    drawn in the header's boxes as in the picture drawn whole, turn after turn (the
    status line and the last turn name them)."""
    game = game_at(3, "end", seed=7)
    wide = ["Ąlą Żółw-Łęcki", "ジョン 🐄🐄 Ŵ", "W" * 24]
    names = {pid: name for pid, name in zip(game.player_ids, wide, strict=True)}
    for index, state in enumerate(turn_states(game)):
        if index % 4:
            continue
        reference = compose.snapshot(state.game, names=names, language=language)
        picture = render.render_game(state.game, names=names, language=language)
        assert picture == render.to_png(reference.image), state.frame.turn


def _spy_on_drawn_parts(monkeypatch: pytest.MonkeyPatch) -> list[Hashable]:
    """The keys of the kept parts drawn (not taken as kept) from now on."""
    drawn_keys: list[Hashable] = []
    real = layers.layer

    def spied(
        key: Hashable,
        size: tuple[int, int],
        draw: Callable[[Image.Image], None],
        ground: Image.Image | None = None,
    ) -> Image.Image:
        def drawing(image: Image.Image) -> None:
            drawn_keys.append(key)
            draw(image)

        return real(key, size, drawing, ground)

    monkeypatch.setattr(layers, "layer", spied)
    return drawn_keys


def _field_keys(game: Game) -> dict[str, tuple[object, ...]]:
    seats = {p.id: seat for seat, p in enumerate(game.players)}
    return {f.label: landscape.field_key(f, seats) for f in game.fields.values()}


@pytest.mark.parametrize(("players_count", "seed", "language"), [(4, 3, "en"), (3, 7, "ja")])
def test_a_settlement_redraws_the_landscapes_bands_its_field_reaches_not_the_landscape(
    monkeypatch: pytest.MonkeyPatch, players_count: int, seed: int, language: Language
) -> None:
    """Issue 37.2/37.4: the landscape is kept in bands of rows, each keyed by the fields
    it shows: a turn that builds, or moves a cow or a canteen, draws again (then maps
    and compresses) only the bands those fields reach, never the whole landscape."""
    drawn_keys = _spy_on_drawn_parts(monkeypatch)
    game = game_at(players_count, "end", seed=seed)
    caches.clear_all()
    changing_turns = 0
    previous: dict[str, tuple[object, ...]] | None = None
    origin = (0, 0)
    for state in turn_states(game):
        drawn_keys.clear()
        drawn = compose.snapshot(state.game, language=language, reuse=True, align=2)
        assert drawn.kept is not None
        bands = len([key for key, _, _ in drawn.kept.parts if key[0] == "landscape band"])  # type: ignore[index]
        redrawn = [key for key in drawn_keys if key[0] == "landscape band"]  # type: ignore[index]
        fields = _field_keys(state.game)
        if previous is not None:
            changed = [label for label in fields if fields[label] != previous[label]]
            moved = drawn.landscape_origin != origin
            if changed and not moved:
                changing_turns += 1
                # a field's hexagon reaches into at most four bands of rows
                assert 0 < len(redrawn) <= 4 * len(changed) < bands, state.frame.turn
            elif not moved:
                assert redrawn == [], state.frame.turn
        previous, origin = fields, drawn.landscape_origin
    assert changing_turns > 5


@pytest.mark.parametrize(("players_count", "seed", "language"), [(4, 5, "fr"), (2, 7, "ja")])
def test_the_landscapes_bands_are_the_landscape_drawn_whole_at_every_alignment(
    players_count: int, seed: int, language: Language
) -> None:
    """Each band of the landscape, drawn alone with the fields it shows, is those rows
    of the landscape drawn whole, whatever alignment the bands are cut to (a replay's
    reduction: 2, 3 or 4; 1 for the bot's PNG), and each cut is on that alignment."""
    game = game_at(players_count, "end", seed=seed)
    caches.clear_all()
    for index, state in enumerate(turn_states(game)):
        align = 1 + index % 4
        kept = compose.snapshot(state.game, language=language, reuse=True, align=align)
        # the landscape drawn whole, without the last turn's marks (drawn over the parts)
        whole = landscape.landscape_picture(state.game, (), translator(language))
        assert kept.kept is not None
        bands = [
            (part, origin)
            for key, part, origin in kept.kept.parts
            if key[0] == "landscape band"  # type: ignore[index]
        ]
        assert len(bands) > 10
        left, top = kept.landscape_origin
        for part, (x, y) in bands:
            assert y == top or y % align == 0, "a cut between two bands straddles a block"
            row = y - top
            expected = whole.crop((x - left, row, x - left + part.width, row + part.height))
            assert _same(part, expected), (state.frame.turn, row)


def _supply_counts(game: Game) -> list[int]:
    supply = game.supply
    return [*supply.goods.values(), supply.cows, *supply.workers.values()]


@pytest.mark.parametrize(("language", "align"), [("en", 1), ("ja", 2), ("pl", 3), ("fr", 4)])
def test_a_supply_count_that_changed_redraws_that_count_only(
    language: Language, align: int
) -> None:
    """Issue 37.2: almost every turn takes from the general supply or gives back to it;
    the strip is kept in cells, and a turn redraws only the counts that changed (when
    no count took a digit more or less, which moves the counts after it): not the
    strip's title and its other counts (a cell kept from an earlier turn that showed
    the same is not drawn at all)."""
    game = game_at(4, "end", seed=3)
    caches.clear_all()
    before: list[int] | None = None
    redrawn = 0
    for state in turn_states(game):
        with textboxes.recording() as drawn:
            compose.snapshot(state.game, language=language, reuse=True, align=align)
        texts = Counter(box.text for box in drawn if box.panel == "supply")
        now = _supply_counts(state.game)
        if before is not None and [len(str(n)) for n in now] == [len(str(n)) for n in before]:
            changed = Counter(str(n) for n, m in zip(now, before, strict=True) if n != m)
            assert texts <= changed, state.frame.turn
            redrawn += texts.total()
        before = now
    assert redrawn > 50


@pytest.mark.parametrize("language", ["en", "ja", "pl"])
def test_the_supply_strip_kept_in_cells_is_the_strip_drawn_whole(language: Language) -> None:
    """Issue 37.2: the strip's cells pasted side by side, at every turn of a game and on
    every alignment of a replay, are the strip drawn whole, pixel for pixel, and each
    cell's cut lies on a multiple of the alignment."""
    for players_count, seed in ((2, 5), (4, 3)):
        game = game_at(players_count, "end", seed=seed)
        for index, state in enumerate(turn_states(game)):
            whole = compose.snapshot(state.game, language=language)
            x, y = whole.supply_origin
            box = (x, y, x + whole.geometry.width + 1, y + players.SUPPLY_HEIGHT + 1)
            align = 1 + index % 4
            kept = compose.snapshot(state.game, language=language, reuse=True, align=align)
            assert kept.kept is not None
            strip = [
                (part, origin)
                for key, part, origin in kept.kept.parts
                if isinstance(key, tuple) and str(key[0]).startswith("supply")
            ]
            laid = Image.new("RGB", whole.image.size, (0, 0, 0))
            for part, origin in strip:
                laid.paste(part, origin)
                assert origin[0] % align == 0 or origin[0] == x
            assert _same(laid.crop(box), whole.image.crop(box)), (state.frame.turn, align)
