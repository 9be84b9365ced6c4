"""Pictures drawn in worker processes (`MONTANA_PICTURE_PROCESSES`).

Drawing is mostly Python code holding the GIL: in a thread (`asyncio.to_thread`, what
`PillowRenderer` gets) it is off the event loop but still starves it, each loop step
waiting for the GIL behind the drawing threads, and it uses one core however many the
machine has. Here the calling thread only waits for a worker process
(`python -m bot.bench --games 20`: press -> picture posted p99 410 ms against 797 ms in a
thread, on 2 cores).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Mapping

from bot.core.delivery.renderer import PillowRenderer, Renderer
from bot.core.runtime.workers import worker_pool
from rules import Game


def _draw_game(
    game: Game,
    highlight: str | None,
    names: dict[str, str],
    seat_notes: dict[str, str],
    language: str = "en",
) -> bytes:
    return PillowRenderer().game_picture(
        game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
    )


def _draw_board(game: Game, player_id: str, names: dict[str, str], language: str = "en") -> bytes:
    return PillowRenderer().board_picture(game, player_id, names=names, language=language)


class ProcessRenderer:
    """`PillowRenderer` in `workers` spawned processes, which end with the bot."""

    def __init__(self, workers: int = 2) -> None:
        self._pool = worker_pool(workers)

    @property
    def executor(self) -> concurrent.futures.Executor:
        """The worker processes, for other drawings (replays: `bot.core.community.replays`)."""
        return self._pool

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        notes = dict(seat_notes or {})
        return self._pool.submit(_draw_game, game, highlight, dict(names), notes, language).result()

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return self._pool.submit(_draw_board, game, player_id, dict(names), language).result()

    def close(self) -> None:
        """Wait for the pictures being drawn, then stop the workers."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def blank_png() -> bytes:
    """A valid 8x8 PNG of one colour, for pictures nobody looks at."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 180, 120)).save(buffer, format="PNG")
    return buffer.getvalue()


class BlankRenderer:
    """`blank_png` for every picture: for runs that measure or test something else."""

    def __init__(self) -> None:
        self.png = blank_png()

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        return self.png

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return self.png


class SampledRenderer:
    """`real` for every `every`-th picture and the final one; `blank_png` otherwise.

    A whole game posts a couple of hundred pictures; drawing only some of them keeps
    long runs (tests, benches) short where the drawing is not what they look at.
    """

    def __init__(self, every: int = 10, real: Renderer | None = None) -> None:
        self.every = max(1, every)
        self.calls = 0
        self.real = real if real is not None else PillowRenderer()
        self._blank = blank_png()

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.calls += 1
        if self.every == 1 or game.is_over or self.calls % self.every == 1:
            return self.real.game_picture(
                game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
            )
        return self._blank

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return self.real.board_picture(game, player_id, names=names, language=language)


__all__ = ["BlankRenderer", "ProcessRenderer", "SampledRenderer", "blank_png"]
