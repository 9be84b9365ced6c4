"""The game flow, free of Discord: the `GameService` every front end plays through (the
Discord adapter, the web, the offline console, the benchmarks), composed of parts that each
own one concern:

- `bot.core.play.games`: reading games, their locks, a button's version checked;
- `bot.core.play.lobby`: lobbies and seats, AI seats, the language, the start, the abandon;
- `bot.core.play.turns`: moves, passes in advance, the engine's refusals in words;
- `bot.core.play.undo`: a player's last move taken back;
- `bot.core.play.announcing`: what a saved version owes the players and its delivery,
  re-posts, pictures, the move log's pages;
- `bot.core.play.hooks`: where the capabilities above hook in (limits, ratings, quiet
  hours, the deadline clock, the AI seats, matchmaking).

A front end gives the service an `Announcer` that shows each accepted move (a channel
message, a terminal print) and returns the id of the message carrying the new prompt, if
any (and, optionally, a `TurnNotifier` for direct messages). It builds the service through
`bot.core.assembly.game_service`, which installs every capability's hooks.

Every move runs under a per-game asyncio lock and is saved with the store's optimistic
version check, so two presses of the same button can never both apply: the second one
finds the version moved on and gets `Refusal(STALE_WORDS)`. The messages a move owes the
players are saved with it (the outbox) and delivered right after by
`bot.core.delivery.outbox`, which retries what fails; a move whose save fails is refused
(`NotSaved`) with nothing written.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.core.delivery.outbox import (
    Announcer,
    Backoff,
    NoticeSender,
    Outcome,
    SilentAnnouncer,
    TurnNotifier,
)
from bot.core.delivery.renderer import PillowRenderer, Renderer
from bot.core.play.announcing import AI_PLAYS_NOTE, NO_BOARD, Announcing
from bot.core.play.games import STALE, STALE_WORDS, Games
from bot.core.play.hooks import Hooks, NoQuietHours, QuietHoursOf
from bot.core.play.lobby import Lobby
from bot.core.play.turns import (
    AI_MOVE_NOTE,
    AWAY_AI_WORDS,
    FORCED_NOTE,
    IN_ADVANCE_NOTE,
    TAKEN_OVER,
    TAKEN_OVER_WORDS,
    Turn,
    Turns,
    all_seats_ai,
)
from bot.core.play.undo import Undo
from bot.core.store import DEFAULT_AI_LEVEL, FINISHED, GameRow, Seat, Store
from bot.core.wording.refusals import BrokenGame, NotSaved, Refusal
from i18n import SOURCE_LANGUAGE, Translator
from rules import Action, Game, IllegalAction


class GameService:
    """The game flow's parts, composed; each method the front ends call is a part's."""

    game_of = staticmethod(Games.game_of)
    """The engine's state of a started game; `BrokenGame` when it does not load."""

    def __init__(
        self,
        store: Store,
        *,
        renderer: Renderer | None = None,
        announcer: Announcer | None = None,
        notifier: TurnNotifier | None = None,
        notices: NoticeSender | None = None,
        seed_source: random.Random | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self.store = store
        drawing: Renderer = renderer or PillowRenderer()
        self.announcer: Announcer = announcer or SilentAnnouncer()
        self.notifier = notifier
        self.hooks = Hooks()
        """Where the capabilities above the game flow hook in (`bot.core.play.hooks`)."""
        self.after_announce = self.hooks.after_announce
        """Called after each saved move or start (the deadline clock); a hook that fails
        is logged and skipped, never failing the move."""
        self.after_game_over = self.hooks.after_game_over
        """Called when a game under way ends (its last move, a vote, abandoned): its
        players' seats under way are free again (the matchmaking queue may match them)."""
        self.hours: QuietHoursOf = NoQuietHours()
        """The players' quiet hours (installed by `bot.core.clock.flow`)."""

        # the parts, each on those below it
        self.games = Games(store)
        self.announcing = Announcing(
            self.games,
            self.hooks,
            renderer=drawing,
            announcer=self.announcer,
            notifier=notifier,
            notices=notices,
            quiet_end=self._quiet_end,
            backoff=backoff,
        )
        self.lobby = Lobby(
            self.games, self.announcing, self.hooks, seed_source or random.SystemRandom()
        )
        self.turns = Turns(self.games, self.announcing, self.hooks)
        self.undoing = Undo(self.games, self.announcing, self.hooks)

        # what the parts share with the front ends
        self.prefs = self.announcing.prefs
        self.reposts = self.announcing.reposts
        """What {/board} re-posted (at most once per state)."""
        self.pings = self.announcing.pings
        """The decisions whose player was pinged (once per decision, also after an undo)."""
        self.presence = self.announcing.presence
        """Heads-ups owed by moves; players away and back (`bot.core.delivery.presence`)."""
        self.delivery = self.announcing.delivery
        """Delivers the messages moves owe; a front end that runs for long `start`s it,
        so what failed is tried again (and what a previous run left is delivered)."""

    @property
    def renderer(self) -> Renderer:
        """What draws the pictures (`Announcing`'s, replaceable: a test counts what it draws)."""
        return self.announcing.renderer

    @renderer.setter
    def renderer(self, renderer: Renderer) -> None:
        self.announcing.renderer = renderer

    async def _quiet_end(self, user_id: str, moment: datetime) -> datetime | None:
        """The installed quiet hours' (read when asked: they are installed after)."""
        return await self.hours.quiet_end(user_id, moment)

    # ------------------------------------------------------------------ reading (`Games`)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self.games.lock(game_id)

    async def get(self, game_id: int) -> GameRow:
        return await self.games.get(game_id)

    async def game_here(self, channel_id: int) -> GameRow:
        """The lobby or running game of this channel or thread."""
        return await self.games.game_here(channel_id)

    async def latest_here(self, channel_id: int) -> GameRow:
        """The running game here, or else the last one (finished games can be looked at)."""
        return await self.games.latest_here(channel_id)

    async def row_of(self, game: int | GameRow) -> GameRow:
        """The row given, or read by id (a front end that read it already passes it)."""
        return await self.games.row_of(game)

    # ------------------------------------------------------------------ the lobby (`Lobby`)

    async def open_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator: Seat,
        language: str = SOURCE_LANGUAGE,
    ) -> GameRow:
        """A new game's lobby; `language`: that of its public messages and pictures."""
        return await self.lobby.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            creator=creator,
            language=language,
        )

    async def set_language(
        self, row: GameRow, user_id: str, language: str, *, may_manage: bool
    ) -> GameRow:
        """Change the language of the game's public messages and pictures."""
        return await self.lobby.set_language(row, user_id, language, may_manage=may_manage)

    async def join(self, game: int | GameRow, user: Seat) -> GameRow:
        """Seat `user` in the lobby; the row after it."""
        return await self.lobby.join(game, user)

    async def leave(self, game: int | GameRow, user_id: str) -> GameRow:
        """Take `user_id` out of the lobby (the last one out abandons it)."""
        return await self.lobby.leave(game, user_id)

    async def add_ai(
        self, game: int | GameRow, user_id: str, level: str = DEFAULT_AI_LEVEL
    ) -> GameRow:
        """One more AI seat playing `level` in the lobby (its opener only)."""
        return await self.lobby.add_ai(game, user_id, level)

    async def remove_ai(self, game: int | GameRow, user_id: str) -> GameRow:
        """The lobby's last AI seat removed (its opener only)."""
        return await self.lobby.remove_ai(game, user_id)

    async def check_start(self, game: int | GameRow, user_id: str) -> GameRow:
        """Refuse a start that cannot happen, before the front end prepares for it."""
        return await self.lobby.check_start(game, user_id)

    async def start(
        self,
        game: int | GameRow,
        user_id: str,
        *,
        seed: int | None = None,
        dealt: Game | None = None,
    ) -> Outcome:
        """Draw the seat order, deal the game and announce the first prompt."""
        return await self.lobby.start(game, user_id, seed=seed, dealt=dealt)

    async def abandon(self, game: int | GameRow, user_id: str, *, may_manage: bool) -> GameRow:
        return await self.lobby.abandon(game, user_id, may_manage=may_manage)

    # ------------------------------------------------------------------ moves (`Turns`, `Undo`)

    async def check_turn(
        self,
        game: int | GameRow,
        user_id: str,
        expected_version: int | None,
        expected_epoch: int | None = None,
        *,
        by_ai: bool = False,
    ) -> Turn:
        """Refuse early (before a slow defer) a press that cannot possibly apply."""
        return await self.turns.check_turn(
            game, user_id, expected_version, expected_epoch, by_ai=by_ai
        )

    async def play(
        self,
        game: int | Turn,
        user_id: str,
        move: str | Action,
        *,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
        note: str = "",
        by_ai: bool = False,
        expected_taken_over: Sequence[str] | None = None,
    ) -> Outcome:
        """Apply one move for `user_id`, save it, render and announce it."""
        if not isinstance(game, Turn):
            game = await self.check_turn(
                game, user_id, expected_version, expected_epoch, by_ai=by_ai
            )
        return await self.turns.play(
            game,
            user_id,
            move,
            expected_version=expected_version,
            expected_epoch=expected_epoch,
            note=note,
            by_ai=by_ai,
            expected_taken_over=expected_taken_over,
        )

    def refusal_text(
        self,
        error: IllegalAction,
        game: Game,
        user_id: str,
        names: Mapping[str, str],
        t: Translator | None = None,
    ) -> str:
        """The engine's reason in words, and what is allowed now (English unless `t`)."""
        return self.turns.refusal_text(error, game, user_id, names, t)

    async def pass_in_advance(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        wanted: bool | None = None,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> bool:
        """Record, withdraw or toggle `user_id`'s pass in advance; whether it stands now."""
        return await self.turns.pass_in_advance(
            target,
            user_id,
            wanted=wanted,
            expected_version=expected_version,
            expected_epoch=expected_epoch,
        )

    async def undo(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> Outcome:
        """Take back `user_id`'s last move and show the earlier state again."""
        return await self.undoing.undo(
            target, user_id, expected_version=expected_version, expected_epoch=expected_epoch
        )

    # ------------------------------------------------------------------ announcing

    async def game_picture(self, row: GameRow, game: Game) -> bytes:
        return await self.announcing.game_picture(row, game)

    async def board_picture(self, row: GameRow, user_id: str, language: str = "en") -> bytes:
        """`user_id`'s own board, in their language (only they see it)."""
        return await self.announcing.board_picture(row, user_id, language)

    async def repost(self, target: int | GameRow, *, ping: bool = True, note: str = "") -> Outcome:
        """Announce the current state again (a fresh prompt; the old one goes stale)."""
        return await self.announcing.repost(target, ping=ping, note=note)

    async def log_page(
        self,
        game: int | GameRow,
        page: int,
        per_page: int = 20,
        t: Translator | None = None,
        *,
        typed: bool = False,
    ) -> tuple[list[str], int]:
        """Lines of the move log (notation) for `page` (1 = the latest) and the page count;
        `t`: the reader's language, for a forgotten player's name (English by default);
        `typed`: a page that does not exist is refused (else the nearest is shown)."""
        return await self.announcing.log_page(game, page, per_page, t, typed=typed)

    async def game_over(self, row: GameRow) -> None:
        """Tell the `after_game_over` hooks that `row`'s game, under way, has ended; a
        hook that fails is logged and skipped."""
        await self.hooks.game_over(row)


__all__ = [
    "AI_MOVE_NOTE",
    "AI_PLAYS_NOTE",
    "AWAY_AI_WORDS",
    "FINISHED",
    "FORCED_NOTE",
    "IN_ADVANCE_NOTE",
    "NO_BOARD",
    "STALE",
    "STALE_WORDS",
    "TAKEN_OVER",
    "TAKEN_OVER_WORDS",
    "Announcer",
    "BrokenGame",
    "GameService",
    "NotSaved",
    "Outcome",
    "PillowRenderer",
    "Refusal",
    "Renderer",
    "Seat",
    "SilentAnnouncer",
    "Turn",
    "TurnNotifier",
    "all_seats_ai",
]
