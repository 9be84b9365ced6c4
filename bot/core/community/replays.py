"""Replays of a game (issue 23): the animated GIF and the step-by-step pictures.

Both are drawn off the event loop, in the picture worker processes when the bot has
them (`executor`), else in a thread. A replay takes a few seconds: `Replays.replay`
reports its progress while it waits, and a request for a replay being drawn already
(the same game at the same state, the same turns and language) waits for that one
instead of drawing it again; the last replays drawn are kept a while (several players
pressing Replay under a game's end get the same GIF at once). One replay is drawn at a
time, so that the pictures of moves always find a free worker. A step picture (one
turn of the game, and that turn in words) is one snapshot: the game folded from its
record to that turn, then the picture of that version (issue 37.3: the one the bot
posted, kept by `bot.core.delivery.kept_pictures`) served, or drawn once and kept for
the step views and the web's replay slider alike. A turn the game does not have is
refused (`NoSuchTurn`) before anything is folded or drawn.

The drawing functions run in another process: they take and return plain data (a
`Game`, names, bytes) and tell their progress through a small file.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import tempfile
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.core.delivery.kept_pictures import PictureShelf, inputs_of
from bot.core.play.repeats import ReplayPosts
from bot.core.store import DrawnKey, GameRow
from bot.core.wording import words
from i18n import SOURCE_LANGUAGE, is_language, translator
from render import render_game
from render.replay import Replay, TurnFrame, render_replay, turn_count, turn_state, turn_states
from rules import Event, Game

PROGRESS_SECONDS = 1.0
"""How often a waiting request looks at the drawing's progress."""
AT_ONCE = 1
"""Replays drawn at the same time: a replay keeps a worker busy for seconds, and the
other worker(s) must stay free for the pictures of moves. Others wait their turn (their
progress stays at 0 %)."""
KEPT_BYTES = 24 * 1024 * 1024
"""The replays drawn last are kept up to this size, so that pressing Replay again under
the same game (several players at its end) posts the same GIF at once."""

STORIES_KEPT = 16
"""Games whose turns (`step_story`) are kept for their step views."""

OnProgress = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Request:
    """What a replay is drawn from: the same request is drawn once at a time."""

    game_id: int
    version: int
    epoch: int
    turns: tuple[int, int] | None
    language: str


@dataclass(frozen=True)
class StepPicture:
    """One turn of a game: its picture and what happened in it."""

    png: bytes
    frame: TurnFrame
    last: int
    """The game's latest turn (the step view's end)."""
    events: tuple[Event, ...]


def _write_progress(path: str, part: float) -> None:
    partial = f"{path}.part"
    Path(partial).write_text(f"{part:.3f}")
    os.replace(partial, path)


def read_progress(path: str) -> float:
    """The part of the drawing done, as the drawing process last wrote it (0.0 before)."""
    try:
        return float(Path(path).read_text() or 0)
    except (OSError, ValueError):
        return 0.0


def draw_replay(
    game: Game,
    names: dict[str, str],
    language: str,
    turns: tuple[int, int] | None,
    progress_path: str | None,
) -> Replay:
    """In a worker: the replay of `game`, its progress written to `progress_path`."""

    def progress(part: float) -> None:
        if progress_path is not None:
            _write_progress(progress_path, part)

    return render_replay(game, names=names, language=language, turns=turns, progress=progress)


class NoSuchTurn(ValueError):
    """A turn number the game does not have (`last`: its latest; 0 is the setup)."""

    def __init__(self, turn: object, last: int) -> None:
        super().__init__(f"turn {turn!r} is not a turn of this game (0 to {last})")
        self.last = last


def checked_turn(game: Game, turn: int) -> int:
    """`turn` if the game has it (0, the setup, to `turn_count`), else `NoSuchTurn`."""
    last = turn_count(game)
    if not 0 <= turn <= last:
        raise NoSuchTurn(turn, last)
    return turn


@dataclass(frozen=True)
class StepFacts:
    """One turn of a game without its picture: what the step view says, and the
    version whose picture it shows."""

    frame: TurnFrame
    last: int
    events: tuple[Event, ...]
    version: int


def step_story(game: Game) -> dict[int, StepFacts]:
    """In a worker: every turn's `StepFacts`, by turn number, in one fold of the record
    (a step view asks for many turns of one state of the game)."""
    last = turn_count(game)
    story: dict[int, StepFacts] = {}
    for state in turn_states(game):
        facts = StepFacts(state.frame, last, state.events, state.game.version)
        story.setdefault(state.frame.turn, facts)
    return story


def facts_of(story: dict[int, StepFacts], turn: int) -> StepFacts:
    """The step `turn_state` shows for `turn`: the first turn numbered `turn` or more."""
    return story[min(number for number in story if number >= turn)]


def turn_versions(game: Game) -> dict[int, int]:
    """The version of the game each turn's step shows (`turn_state`'s: the end of that
    turn, 0 the setup; the turn in progress, the game now), by turn number. A fold of
    the record, no drawing."""
    versions: dict[int, int] = {}
    for state in turn_states(game):
        versions.setdefault(state.frame.turn, state.game.version)
    return versions


def draw_turn(game: Game, turn: int, names: dict[str, str], language: str) -> bytes:
    """In a worker: the picture of the game at the end of `turn` (checked)."""
    state = turn_state(game, checked_turn(game, turn))
    return render_game(state.game, names=names, language=language)


def draw_step(game: Game, turn: int, names: dict[str, str], language: str) -> StepPicture:
    """In a worker: the game at the end of `turn` (checked: `NoSuchTurn`), drawn."""
    last = turn_count(game)
    state = turn_state(game, checked_turn(game, turn))
    png = render_game(state.game, names=names, language=language)
    return StepPicture(png, state.frame, last, state.events)


Drawer = Callable[
    [Game, dict[str, str], str, tuple[int, int] | None, str | None],
    Replay,
]


def shown_names(row: GameRow, language: str) -> dict[str, str]:
    """The seats' names a picture of `row` shows in `language` (a forgotten player's
    worded: `words.forgotten_worded`)."""
    return words.names_worded(
        row.seat_names, translator(language if is_language(language) else SOURCE_LANGUAGE)
    )


class Replays:
    """The replays being drawn, one drawing per `Request`.

    `executor`: the picture worker processes (None: a thread of the loop's default
    executor). `drawer` is what draws (tests wrap it to hold a drawing open)."""

    def __init__(
        self,
        executor: concurrent.futures.Executor | None = None,
        *,
        drawer: Drawer = draw_replay,
        shelf: PictureShelf | None = None,
    ) -> None:
        self._executor = executor
        self._drawer = drawer
        self.shelf = shelf
        """The pictures kept per version (None: each step is drawn)."""
        self._stories: OrderedDict[tuple[int, int, int], dict[int, StepFacts]] = OrderedDict()
        """The turns of the games stepped through last (`step_story`), by game state."""
        self._drawing: dict[Request, asyncio.Task[Replay]] = {}
        self._progress: dict[Request, float] = {}
        self._kept: OrderedDict[Request, Replay] = OrderedDict()
        self._turns = asyncio.Semaphore(AT_ONCE)
        self.drawn = 0
        """Replays drawn since start (a request that waited for another's is not one)."""
        self.posts = ReplayPosts()
        """The replays posted for everyone (each at most once per game state and part)."""

    @staticmethod
    def request(row: GameRow, turns: tuple[int, int] | None, language: str) -> Request:
        return Request(row.id, row.version, row.undo_epoch, turns, language)

    def drawing(self, request: Request) -> bool:
        return request in self._drawing

    async def replay(
        self,
        row: GameRow,
        game: Game,
        *,
        turns: tuple[int, int] | None,
        language: str,
        on_progress: OnProgress | None = None,
    ) -> Replay:
        """The replay of `game` (the state `row` holds), drawn now or by the request
        already drawing it; `on_progress(part)` is awaited now and then while it is drawn.
        Raises ValueError when `turns` holds no turn of the game."""
        request = self.request(row, turns, language)
        kept = self._kept.get(request)
        if kept is not None:
            self._kept.move_to_end(request)
            return kept
        task = self._drawing.get(request)
        if task is None:
            task = asyncio.create_task(self._draw(request, game, shown_names(row, language)))
            self._drawing[request] = task
            task.add_done_callback(lambda _: self._forget(request))
        while not task.done():
            await asyncio.wait({task}, timeout=PROGRESS_SECONDS)
            if on_progress is not None and not task.done():
                await on_progress(self._progress.get(request, 0.0))
        return task.result()

    def _forget(self, request: Request) -> None:
        self._drawing.pop(request, None)
        self._progress.pop(request, None)

    async def _draw(self, request: Request, game: Game, names: Mapping[str, str]) -> Replay:
        async with self._turns:
            replay = await self._draw_now(request, game, names)
        self._keep(request, replay)
        return replay

    def _keep(self, request: Request, replay: Replay) -> None:
        self._kept[request] = replay
        while sum(len(r.gif) for r in self._kept.values()) > KEPT_BYTES and len(self._kept) > 1:
            self._kept.popitem(last=False)

    async def _draw_now(self, request: Request, game: Game, names: Mapping[str, str]) -> Replay:
        self.drawn += 1
        loop = asyncio.get_running_loop()
        with tempfile.TemporaryDirectory(prefix="montana-replay-") as folder:
            path = os.path.join(folder, "progress")
            future = loop.run_in_executor(
                self._executor,
                self._drawer,
                game,
                dict(names),
                request.language,
                request.turns,
                path,
            )
            while not future.done():
                await asyncio.wait({future}, timeout=PROGRESS_SECONDS / 2)
                self._progress[request] = read_progress(path)
            return future.result()

    async def step(self, row: GameRow, game: Game, turn: int, language: str) -> StepPicture:
        """The picture of `game` at the end of `turn` (`NoSuchTurn` if it has none, and
        nothing is drawn): the one kept for that version, else drawn off the loop and
        kept."""
        checked_turn(game, turn)
        loop = asyncio.get_running_loop()
        names = shown_names(row, language)
        if self.shelf is None:
            return await loop.run_in_executor(
                self._executor, draw_step, game, turn, names, language
            )
        facts = facts_of(await self._story(row, game), turn)

        async def draw() -> bytes:
            return await loop.run_in_executor(
                self._executor, draw_turn, game, turn, names, language
            )

        key = DrawnKey(row.id, row.undo_epoch, facts.version, language)
        png = await self.shelf.picture(key, draw, inputs=inputs_of(None, names), any_inputs=True)
        return StepPicture(png, facts.frame, facts.last, facts.events)

    async def _story(self, row: GameRow, game: Game) -> dict[int, StepFacts]:
        """The turns of `game` at `row`'s state, folded once per state (kept a while)."""
        state = (row.id, row.undo_epoch, row.version)
        story = self._stories.get(state)
        if story is None:
            loop = asyncio.get_running_loop()
            story = await loop.run_in_executor(self._executor, step_story, game)
            self._stories[state] = story
            while len(self._stories) > STORIES_KEPT:
                self._stories.popitem(last=False)
        self._stories.move_to_end(state)
        return story

    async def close(self) -> None:
        """Wait for the replays being drawn (their requests get them)."""
        for task in list(self._drawing.values()):
            with contextlib.suppress(Exception):
                await task


MAX_CHOICES = 25
"""Discord's limit of options in a select."""
NEAR = 2
"""The turns either side of the one shown that the "go to turn" select always offers."""


def turn_choices(current: int, last: int, limit: int = MAX_CHOICES) -> list[int]:
    """The turns a "go to turn" select offers, at most `limit`: all of them in a short
    game; in a long one the setup, the last turn, the turns around the one shown, and
    the rest spread evenly (each added turn is the one farthest from those chosen), so
    any part of the game is one or two jumps away."""
    if last + 1 <= limit:
        return list(range(last + 1))
    near = range(max(0, current - NEAR), min(last, current + NEAR) + 1)
    chosen = {0, last, *near}
    while len(chosen) < limit:
        chosen.add(max(range(last + 1), key=lambda t: min(abs(t - c) for c in chosen)))
    return sorted(chosen)


__all__ = [
    "MAX_CHOICES",
    "Drawer",
    "NoSuchTurn",
    "Replays",
    "Request",
    "StepFacts",
    "StepPicture",
    "checked_turn",
    "draw_replay",
    "draw_step",
    "draw_turn",
    "facts_of",
    "step_story",
    "turn_choices",
    "turn_versions",
]
