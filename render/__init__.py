"""Pictures of a Montana game: a game state in, PNG bytes out.

    png = render_game(game, highlight="C4", names={"123": "Ana"}, language="fr")

Every word is in `language` (en, fr, pl, ja: the message catalogue of `i18n`), fitted
to its panel (`render.textboxes` records where each text went). The same state in the
same language always gives the same bytes. Static art (each printed field, the worker
board, icons, the masks of words, each language's legend) is drawn once and shared by
every game, in caches of bounded size (`render.caches`), so a render lays out sprites
and draws the pieces. The parts of a picture that look as they did in one drawn before
(the landscape, the supply, the worker board, each player's board) are kept too, drawn
and mapped onto the palette (`render.layers`): a move's picture draws and maps only
the header and what the last turn changed, over the kept parts laid in those boxes
only (no picture of the whole size is made), and compresses only the bands of rows
that do not show what a picture before showed (`render.pngbands`): the same pixels.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from functools import lru_cache

from PIL import Image

from i18n import LANGUAGES, Language, is_language, translator
from rules import Game
from rules.recent import last_turn

from . import compose, landscape, layers, palette, players, pngbands, textboxes

_DRAWING = threading.Lock()
"""Drawing shares cached fonts and sprites: one thread draws at a time (the bot renders
in worker threads); PNG encoding, the slower half, runs outside the lock."""


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of `image` mapped onto the renderer's fixed palette.

    The pictures are flat colours plus anti-aliased edges, so a palette looks the same
    to the eye and makes the file several times smaller (quicker to load on a phone)
    and faster to encode; a fixed palette (`palette.png_palette`) is mapped in a few
    milliseconds where an adaptive one is computed in tens, and it is deterministic.
    """
    indexed = image.quantize(palette=palette.png_palette(), dither=Image.Dither.NONE)
    return pngbands.encode(indexed)


def _language(code: str) -> Language:
    if not is_language(code):
        raise ValueError(f"no pictures in {code!r}: the languages are {', '.join(LANGUAGES)}")
    return code


def render_game(
    game: Game,
    *,
    highlight: str | None = None,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """The full snapshot as PNG: header, landscape, worker board and player boards.

    The last turn (read from the game's log) is marked in the mover's colour and said
    in words in the header. `highlight` marks one more field label; `names` maps
    player ids to the names shown (an id without a name is shown as itself);
    `seat_notes` maps player ids to a short note shown beside their name ("AI plays"),
    already worded in the picture's language. Every other word is in `language` (one
    of `i18n.LANGUAGES`: "en", "fr", "pl", "ja").
    """
    code = _language(language)
    recording = textboxes.is_recording()
    with _DRAWING:
        drawn = compose.snapshot(
            game,
            highlight=highlight,
            names=names,
            seat_notes=seat_notes,
            language=code,
            reuse=not recording,
            drawn_only=not recording,
        )
    if drawn.kept is None:
        return to_png(drawn.image)
    # the kept parts come mapped onto the palette already, and the rows made of them
    # only come compressed (outside the lock: the kept parts are never drawn on)
    return _png(drawn.size, drawn.kept)


@lru_cache(maxsize=1)
def _ground_index() -> int:
    ground = Image.new("RGB", (1, 1), palette.BOARD_GROUND)
    index = ground.quantize(palette=palette.png_palette(), dither=Image.Dither.NONE).getpixel(
        (0, 0)
    )
    assert isinstance(index, int)
    return index


def _png(size: tuple[int, int], kept: layers.Kept) -> bytes:
    """The PNG `to_png` makes of the picture (`size` large) of the kept parts and the
    boxes drawn over them: the parts come mapped onto the palette (`layers.indexed`),
    the board's ground is one index, only the boxes drawn are mapped now, and only the
    bands of rows not kept compressed are compressed (`render.pngbands`)."""
    fixed = palette.png_palette()
    pieces = [
        pngbands.Piece(key, layers.indexed(key, part, fixed), origin)
        for key, part, origin in kept.parts
    ]
    for box, drawn in kept.drawn:
        mapped = drawn.quantize(palette=fixed, dither=Image.Dither.NONE)
        pieces.append(pngbands.Piece(None, mapped, box[:2]))
    return pngbands.encode_pieces(size, fixed.getpalette() or [], _ground_index(), pieces)


def render_landscape(
    game: Game,
    *,
    highlight: str | None = None,
    names: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """The landscape alone as PNG, the last turn's builds ringed (`names` is accepted
    for a uniform signature); the start tile's label in `language`."""
    del names
    t = translator(_language(language))
    with _DRAWING:
        marks = landscape.field_marks(game, last_turn(game), highlight)
        image = landscape.landscape_picture(game, marks, t)
    return to_png(image)


def render_player_board(
    game: Game,
    player_id: str,
    *,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: str = "en",
) -> bytes:
    """One player's board as PNG (for an ephemeral "my board" answer), its words in
    `language`."""
    t = translator(_language(language))
    note = (seat_notes or {}).get(player_id)
    with _DRAWING:
        image = players.player_board_picture(game, player_id, names, note, t)
    return to_png(image)


__all__ = ["render_game", "render_landscape", "render_player_board"]
