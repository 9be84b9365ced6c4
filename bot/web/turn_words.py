"""The page's words kept per game and extended by the moves since (issue 37.5).

Every version of a game asks for its page's words again (one event per open page's
language), and their log has a line for every turn since the setup: worded from
scratch (`pages.game_words`), that is the whole game replayed from its record at each
move, 20 ms for a long game, most of the web process's CPU. Here each game's turns are
kept as `render.replay.turn_states` folds them (`TurnFold`: the game replayed up to its
newest entry, the events of each turn ended, those of the turn in progress) with their
lines in each language asked for, and a new version folds and words only its new
entries and the turn in progress: the same words, byte for byte.

The fold goes on at the event loop when it is a few entries' work (a move); a game not
kept (the web process just started, a page opened on a game nobody looked at, a fold
evicted, or an older version asked for) is folded from scratch in a thread, which
touches nothing kept: the new fold is kept afterwards, at the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field

from bot.core.wording import words
from i18n import Language, translator
from render.replay import turn_frame
from rules import Event, Game
from rules.recent import turn_starts

from ..core.store import GameRow
from .pages import GameWords, log_line, worded

KEPT_GAMES = 128
"""Games whose turns are kept folded (the least recently asked for go first)."""
AT_ONCE = 40
"""At most this many entries to fold plus turns to word at the event loop (a move is a
few; about 0.1 ms each); more are done from scratch in a thread."""

Start = tuple[tuple[str, ...], int, str, tuple[tuple[int, int], ...], int]
"""What a game's replay starts from: players, seed, start field, tiles, schema 1 moves."""


def _start_of(game: Game) -> Start:
    return (
        tuple(game.player_ids),
        game.seed,
        game.start_field,
        tuple((tile.tile_index, tile.rotation) for tile in game.tiles),
        game.schema1_moves,
    )


@dataclass
class _Lines:
    """One language's lines of a fold's ended turns ("" for a turn that said nothing),
    with the names they were worded with."""

    names: dict[str, str]
    lines: list[str] = field(default_factory=list)


class TurnFold:
    """A game's turns so far, in no language, ready to take the next entries: what
    `render.replay.turn_states` yields (the turn's number, its events), folded once."""

    def __init__(self, game: Game) -> None:
        self._start = _start_of(game)
        self._replayed = Game.replay_start(game.record())
        self._entries: list[tuple[str, str]] = []
        self.ended: list[tuple[int, tuple[Event, ...]]] = []
        """Each turn ended (the setup's included): its number (0: the setup), its events."""
        self._events: list[Event] = []
        """The events of the turn in progress (since the last turn began)."""
        self._lines: dict[Language, _Lines] = {}

    @property
    def entries(self) -> int:
        return len(self._entries)

    def behind(self, game: Game) -> int | None:
        """How many entries `game` has past those folded; None if it is not this fold's
        game with the same entries first (another game, a shorter or another log)."""
        folded = len(self._entries)
        if len(game.log) < folded or _start_of(game) != self._start:
            return None
        if game.log[:folded] != self._entries:
            return None
        return len(game.log) - folded

    def fold(self, game: Game) -> None:
        """Fold `game`'s entries past those folded (`behind(game)` is not None), as
        `turn_states` does: a turn ends where the next one starts."""
        folded = len(self._entries)
        starts = set(turn_starts(game, max(folded, 1)))
        for index in range(folded, len(game.log)):
            if index in starts:
                self.ended.append((turn_frame(self._replayed).turn, tuple(self._events)))
                self._events = []
            player, notation = game.log[index]
            self._events += self._replayed.replay_action(player, notation)
            self._entries.append(game.log[index])

    def unworded(self, language: Language, names: dict[str, str]) -> int:
        """How many ended turns have no line yet in `language` with `names`."""
        kept = self._lines.get(language)
        if kept is None or kept.names != names:
            return len(self.ended)
        return len(self.ended) - len(kept.lines)

    def words(
        self, row: GameRow, game: Game, language: Language, names: dict[str, str]
    ) -> GameWords:
        """The page's words of `game` (folded: `behind(game) == 0`) at `row`'s mark,
        with `names` (`words.names_worded` of the row's) wording only the turns not
        worded yet in `language`."""
        t = translator(language)
        kept = self._lines.get(language)
        if kept is None or kept.names != names:
            kept = self._lines[language] = _Lines(names)
        for turn, events in self.ended[len(kept.lines) :]:
            kept.lines.append(log_line(turn, events, names, t))
        now = turn_frame(game).turn
        last = log_line(now, self._events, names, t)
        log = [line for line in (*kept.lines, last) if line]
        return worded(row, game, names, t, log, now)


def folded_words(row: GameRow, game: Game, language: Language) -> tuple[TurnFold, GameWords]:
    """A new fold of `game`, from scratch, and the page's words it gives (in a thread:
    nothing kept is touched)."""
    fold = TurnFold(game)
    fold.fold(game)
    names = words.names_worded(row.names, translator(language))
    return fold, fold.words(row, game, language, names)


@dataclass
class KeptWords:
    """The folds of the games asked for lately, by game and undo epoch."""

    size: int = KEPT_GAMES
    _folds: OrderedDict[tuple[int, int], TurnFold] = field(default_factory=OrderedDict)

    async def words(self, row: GameRow, game: Game, language: Language) -> GameWords:
        """The page's words of `game` at `row`'s mark: from the kept fold at once if it
        is a move's work, else folded from scratch in a thread (and kept)."""
        said = self.at_once(row, game, language)
        if said is not None:
            return said
        fold, afresh = await asyncio.to_thread(folded_words, row, game, language)
        self.keep(row, fold)
        return afresh

    def at_once(self, row: GameRow, game: Game, language: Language) -> GameWords | None:
        """The page's words of `game` from its kept fold, if that is a few entries' and
        turns' work (at the event loop); None otherwise (`folded_words` then `keep`)."""
        key = (row.id, row.undo_epoch)
        fold = self._folds.get(key)
        if fold is None:
            return None
        behind = fold.behind(game)
        if behind is None:
            return None
        names = words.names_worded(row.names, translator(language))
        if behind + fold.unworded(language, names) > AT_ONCE:
            return None
        self._folds.move_to_end(key)
        try:
            fold.fold(game)
        except Exception:
            del self._folds[key]  # half folded: never used again
            raise
        return fold.words(row, game, language, names)

    def keep(self, row: GameRow, fold: TurnFold) -> None:
        """Keep a fold made from scratch, unless one further on is kept already."""
        key = (row.id, row.undo_epoch)
        kept = self._folds.get(key)
        if kept is None or kept.entries <= fold.entries:
            self._folds[key] = fold
        self._folds.move_to_end(key)
        while len(self._folds) > self.size:
            self._folds.popitem(last=False)
