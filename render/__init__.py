"""Pictures of a Montana game: a game state in, PNG bytes out.

    png = render_game(game, highlight="C4", names={"123": "Ana"})

The same state always gives the same bytes. Static art (landscape tiles, the worker
board) is drawn once per layout and cached, so a render only draws the pieces.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping

from PIL import Image

from rules import Game

from . import compose, landscape, players

_DRAWING = threading.Lock()
"""Drawing shares cached fonts and sprites: one thread draws at a time (the bot renders
in worker threads); PNG encoding, the slower half, runs outside the lock."""

PNG_COMPRESS_LEVEL = 3
PALETTE_COLOURS = 256


def to_png(image: Image.Image) -> bytes:
    """PNG bytes of `image` reduced to a 256-colour palette.

    The pictures are flat colours plus anti-aliased edges, so a palette looks the same
    to the eye and makes the file about three times smaller (quicker to load on a
    phone) and faster to encode. Fast octree without dithering is deterministic.
    """
    palette = image.quantize(
        colors=PALETTE_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def render_game(
    game: Game, *, highlight: str | None = None, names: Mapping[str, str] | None = None
) -> bytes:
    """The full snapshot as PNG: header, landscape, worker board and player boards.

    `highlight` marks a field label (the last build); `names` maps player ids to the
    names shown (an id without a name is shown as itself).
    """
    with _DRAWING:
        image = compose.snapshot(game, highlight=highlight, names=names).image
    return to_png(image)


def render_landscape(
    game: Game, *, highlight: str | None = None, names: Mapping[str, str] | None = None
) -> bytes:
    """The landscape alone as PNG (`names` is accepted for a uniform signature)."""
    del names
    with _DRAWING:
        image = landscape.landscape_picture(game, highlight)
    return to_png(image)


def render_player_board(
    game: Game, player_id: str, *, names: Mapping[str, str] | None = None
) -> bytes:
    """One player's board as PNG (for an ephemeral "my board" answer)."""
    with _DRAWING:
        image = players.player_board_picture(game, player_id, names)
    return to_png(image)


__all__ = ["render_game", "render_landscape", "render_player_board"]
