"""What draws a game's pictures for the service: the `Renderer` protocol, and the
project's own (`render/`) behind it. `bot.core.delivery.pictures` runs it in worker processes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from rules import Game


class Renderer(Protocol):
    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        """The snapshot; `seat_notes`: a short note by a player's name ("away until ...")."""
        ...

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes: ...


class PillowRenderer:
    """The project's renderer (`render/`)."""

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        import render

        return render.render_game(
            game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
        )

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        import render

        return render.render_player_board(game, player_id, names=names, language=language)
