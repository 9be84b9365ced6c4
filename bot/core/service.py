"""The game flow, free of Discord: lobbies, moves, pictures, refusals in words.

Both front ends use this module: the Discord adapter (`bot.discord_app`)
and the offline console. A front end gives the service an `Announcer` that shows
each accepted move (a channel message, a terminal print) and returns the id of the
message carrying the new prompt, if any.

Every move runs under a per-game asyncio lock and is saved with the store's
optimistic version check, so two presses of the same button can never both apply:
the second one finds the version moved on and gets `Refusal(STALE)`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from rules import Action, Event, Game, IllegalAction, NotYourTurn, parse_action

from . import logs, words
from .store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    ChannelBusy,
    GameRow,
    Seat,
    StaleVersion,
    Store,
    now,
)

log = logging.getLogger(__name__)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
STALE = (
    "This prompt is out of date: the game has moved on since. "
    "Use the buttons on the newest message (or `/montana board`)."
)


class Refusal(Exception):
    """A request the bot declines; `message` is meant for the player who asked."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Renderer(Protocol):
    def game_picture(
        self, game: Game, *, highlight: str | None, names: Mapping[str, str]
    ) -> bytes: ...

    def board_picture(self, game: Game, player_id: str, *, names: Mapping[str, str]) -> bytes: ...


class PillowRenderer:
    """The project's renderer (`render/`)."""

    def game_picture(self, game: Game, *, highlight: str | None, names: Mapping[str, str]) -> bytes:
        import render

        return render.render_game(game, highlight=highlight, names=names)

    def board_picture(self, game: Game, player_id: str, *, names: Mapping[str, str]) -> bytes:
        import render

        return render.render_player_board(game, player_id, names=names)


@dataclass(frozen=True)
class Outcome:
    """An accepted move (or the start of a game) and what to show for it."""

    row: GameRow
    """The game's row after the move."""
    game: Game
    actor: str | None
    """Who moved (None for the start of the game)."""
    events: list[Event]
    text: str
    """What happened, in words."""
    picture: bytes
    previous_message_id: int | None
    """The message holding the previous prompt (its buttons are now stale)."""
    awaited_changed: bool = True
    """False while the same player goes on deciding: their prompt message is updated in
    place (`text` is then the running account of their moves) instead of a new one."""
    message_id: int | None = field(default=None, compare=False)
    announced: bool = True
    """False when showing the move failed (it is saved all the same)."""

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def finished(self) -> bool:
        return self.game.is_over

    @property
    def awaited(self) -> str | None:
        return self.game.awaiting


@dataclass(frozen=True)
class Turn:
    """A game read once for one press: its row and the engine's state, checked for the
    presser (`GameService.check_turn`)."""

    row: GameRow
    game: Game
    expected_version: int | None


class Announcer(Protocol):
    async def announce(self, outcome: Outcome) -> int | None:
        """Show the outcome; return the id of the message now holding the prompt."""
        ...


class SilentAnnouncer:
    async def announce(self, outcome: Outcome) -> int | None:
        return None


def highlight_of(events: Sequence[Event]) -> str | None:
    """The field built last in `events` (the picture marks it), if any."""
    for event in reversed(events):
        if event.kind == "build":
            field_label = event.data.get("field")
            return str(field_label) if field_label else None
    return None


def events_json(events: Sequence[Event]) -> list[list[Any]]:
    return [[e.kind, e.player, e.data] for e in events]


def events_of(data: Sequence[Sequence[Any]]) -> list[Event]:
    return [Event(kind, player, dict(d)) for kind, player, d in data]


def clean_name(name: str) -> str:
    """A display name safe to print in a sentence (no mention or markdown tricks)."""
    text = " ".join(name.split())[:32] or "player"
    for char in "*_`~|>@#":
        text = text.replace(char, "")
    return text or "player"


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        renderer: Renderer | None = None,
        announcer: Announcer | None = None,
        seed_source: random.Random | None = None,
    ) -> None:
        self.store = store
        self.renderer: Renderer = renderer or PillowRenderer()
        self.announcer: Announcer = announcer or SilentAnnouncer()
        self._seeds = seed_source or random.SystemRandom()
        self._locks: dict[int, asyncio.Lock] = {}
        self.after_announce: list[Callable[[Outcome], Awaitable[None]]] = []
        """Called after each announced move or start (DMs, the deadline clock); a hook
        that fails is logged and skipped, never failing the move."""

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ reading

    async def get(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise Refusal("That game does not exist (any more).")
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def game_here(self, channel_id: int) -> GameRow:
        """The lobby or running game of this channel or thread."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            raise Refusal("There is no Montana game here. Start one with `/montana new`.")
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def latest_here(self, channel_id: int) -> GameRow:
        """The running game here, or else the last one (finished games can be looked at)."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            row = await self.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal("There is no Montana game here. Start one with `/montana new`.")
        logs.bind_game(row.id, row.play_channel_id)
        return row

    @staticmethod
    def game_of(row: GameRow) -> Game:
        state = row.state
        if state is None:
            raise Refusal(
                "The game has not started yet: players join with the Join button or "
                "`/montana join`, then `/montana start`."
            )
        return Game.from_dict(state)

    async def game_picture(self, row: GameRow, game: Game) -> bytes:
        return await asyncio.to_thread(
            self.renderer.game_picture, game, highlight=None, names=row.names
        )

    async def board_picture(self, row: GameRow, user_id: str) -> bytes:
        game = self.game_of(row)
        if not row.has_player(user_id):
            raise Refusal("You are not playing in this game, so you have no board here.")
        return await asyncio.to_thread(self.renderer.board_picture, game, user_id, names=row.names)

    # ------------------------------------------------------------------ the lobby

    async def open_lobby(
        self, *, guild_id: int | None, channel_id: int, thread_id: int | None, creator: Seat
    ) -> GameRow:
        creator = Seat(creator.user_id, clean_name(creator.name))
        try:
            return await self.store.create_lobby(
                guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, creator=creator
            )
        except ChannelBusy as busy:
            row = await self.store.get(busy.game_id)
            where = f"<#{row.play_channel_id}>" if row is not None else "this channel"
            state = "is waiting for players" if row and row.status == LOBBY else "is under way"
            raise Refusal(
                f"A Montana game {state} here already ({where}). Finish it or "
                "`/montana abandon` it before opening another."
            ) from None

    async def row_of(self, game: int | GameRow) -> GameRow:
        """The row given, or read by id (a front end that read it already passes it)."""
        return game if isinstance(game, GameRow) else await self.get(game)

    async def join(self, game: int | GameRow, user: Seat) -> GameRow:
        """Seat `user` in the lobby; the row after it (built here, not read again)."""

        def joined(row: GameRow) -> tuple[Seat, ...]:
            if row.status != LOBBY:
                raise Refusal("This game has already started; join the next one.")
            if row.has_player(user.user_id):
                raise Refusal("You have already joined this game.")
            if len(row.players) >= MAX_PLAYERS:
                raise Refusal(f"The game is full: Montana is for {MAX_PLAYERS} players at most.")
            return (*row.players, Seat(user.user_id, clean_name(user.name)))

        return await self._change_seats(game, joined)

    async def leave(self, game: int | GameRow, user_id: str) -> GameRow:
        """Take `user_id` out of the lobby (the last one out abandons it)."""

        def left(row: GameRow) -> tuple[Seat, ...]:
            if row.status != LOBBY:
                raise Refusal(
                    "The game has started: it cannot be left, only abandoned "
                    "(`/montana abandon`, by its creator or a channel manager)."
                )
            if not row.has_player(user_id):
                raise Refusal("You have not joined this game.")
            return tuple(s for s in row.players if s.user_id != user_id)

        return await self._change_seats(game, left)

    async def _change_seats(
        self, game: int | GameRow, change: Callable[[GameRow], tuple[Seat, ...]]
    ) -> GameRow:
        """Save the lobby's new seats if nobody changed them meanwhile (else read the
        lobby again and retry); an empty lobby is abandoned."""
        row = await self.row_of(game)
        async with self.lock(row.id):
            while True:
                players = change(row)
                try:
                    if players:
                        await self.store.set_players(row.id, players, expected=row.players)
                        return replace(row, players=players)
                    if await self.store.set_status(row.id, ABANDONED, only_from=(LOBBY,)):
                        return replace(row, status=ABANDONED)
                except StaleVersion:
                    pass
                row = await self.get(row.id)  # someone else joined or left meanwhile

    async def check_start(self, game: int | GameRow, user_id: str) -> GameRow:
        """Refuse a start that cannot happen, before the front end prepares for it
        (given a row already read, nothing is read again)."""
        row = await self.row_of(game)
        if row.status != LOBBY:
            raise Refusal("This game has already started.")
        if not row.has_player(user_id):
            raise Refusal("Only a player who has joined can start the game.")
        if len(row.players) < MIN_PLAYERS:
            raise Refusal(
                f"Montana needs {MIN_PLAYERS} to {MAX_PLAYERS} players; "
                f"{len(row.players)} joined so far. Others can press Join."
            )
        return row

    async def start(self, game: int | GameRow, user_id: str, *, seed: int | None = None) -> Outcome:
        """Draw the seat order, deal the game and announce the first prompt.

        `game` is the game's id or its row as `check_start` returned it (not read again).
        """
        row = game if isinstance(game, GameRow) else await self.check_start(game, user_id)
        async with self.lock(row.id):
            if seed is None:
                seed = self._seeds.randrange(2**31)
            seats = list(row.players)
            random.Random(seed).shuffle(seats)
            dealt = Game.new([s.user_id for s in seats], seed=seed)
            names = {s.user_id: s.name for s in seats}
            text = words.seating(dealt, names) + " " + self._setup_text(dealt, names)
            told = {"header": events_json([words.note(text)]), "own": []}
            state_json = json.dumps(dealt.to_dict())
            try:
                stamp = now()
                await self.store.start(
                    row.id, seats, state_json, dealt.log, turn_events=told, at=stamp
                )
            except StaleVersion:
                raise Refusal("This game has already started.") from None
            row = replace(
                row,
                status=ACTIVE,
                players=tuple(seats),
                state_json=state_json,
                version=dealt.version,
                updated_at=stamp,
                turn_events=told,
            )
            log.info("started with %d players (seed %s)", len(seats), seed)
            picture = await self.game_picture(row, dealt)
            outcome = Outcome(
                row=row,
                game=dealt,
                actor=None,
                events=[],
                text=text,
                picture=picture,
                previous_message_id=None,
            )
            return await self._announce(outcome)

    @staticmethod
    def _setup_text(game: Game, names: Mapping[str, str]) -> str:
        held = "; ".join(
            f"{names.get(p.id, p.id)} has {words.workers_text(p.workers)}"
            for p in game.players
            if p.worker_count
        )
        text = "Everyone spins the wheel twice for their first workers"
        return f"{text} — {held}." if held else f"{text}."

    async def abandon(self, game: int | GameRow, user_id: str, *, may_manage: bool) -> GameRow:
        row = await self.row_of(game)
        async with self.lock(row.id):
            if row.status not in OPEN_STATUSES:
                raise Refusal("This game is already over.")
            if row.creator_id != user_id and not may_manage:
                raise Refusal(
                    "Only the player who opened the game, or someone allowed to manage "
                    "this channel, can abandon it."
                )
            if not await self.store.set_status(row.id, ABANDONED, only_from=OPEN_STATUSES):
                raise Refusal("This game is already over.")
            return replace(row, status=ABANDONED)

    # ------------------------------------------------------------------ moves

    async def check_turn(
        self, game: int | GameRow, user_id: str, expected_version: int | None
    ) -> Turn:
        """Refuse early (before a slow defer) a press that cannot possibly apply.

        Given a game id the row is read here; given a row already read, nothing is read
        again. The `Turn` returned is what `play` needs, so a press reads its game once.
        """
        row = await self.row_of(game)
        return Turn(row, self._check(row, user_id, expected_version), expected_version)

    def _check(self, row: GameRow, user_id: str, expected_version: int | None) -> Game:
        if row.status == LOBBY:
            raise Refusal(
                "The game has not started yet: `/montana start` once everyone has joined."
            )
        if row.status != ACTIVE:
            raise Refusal("This game is over: no more moves.")
        if expected_version is not None and expected_version != row.version:
            raise Refusal(STALE)
        game = self.game_of(row)
        if not row.has_player(user_id):
            raise Refusal(
                "You are not playing in this game — only its players can press its buttons. "
                + words.waiting_for(game, row.names)
                + " Open your own game with `/montana new` in another channel."
            )
        if game.awaiting != user_id:
            raise Refusal("It is not your move. " + words.waiting_for(game, row.names))
        return game

    def refusal_text(
        self, error: IllegalAction, game: Game, user_id: str, names: Mapping[str, str]
    ) -> str:
        """The engine's reason with ids replaced by names, and what is allowed now in words."""
        reason = str(error).split(". Allowed now:")[0].rstrip(".")
        for pid, name in names.items():
            reason = reason.replace(pid, name)
        reason = reason[:1].upper() + reason[1:]
        allowed = words.allowed_now(game, user_id)
        return f"{reason}. {allowed}".strip()

    async def play(
        self,
        game: int | Turn,
        user_id: str,
        move: str | Action,
        *,
        expected_version: int | None = None,
        note: str = "",
    ) -> Outcome:
        """Apply one move for `user_id`, save it, render and announce it.

        `game` is the game's id, or the `Turn` that `check_turn` returned for this
        press (the game is then not read again). `expected_version` is the state
        version the player saw (from a button); None for typed commands, which apply
        to the current state. `note` is said before the move's words (e.g. that the
        bot passed for a player on a deadline). The store's version check is the guard
        against a move saved meanwhile: the press is then refused as out of date.
        """
        if not isinstance(game, Turn):
            game = await self.check_turn(game, user_id, expected_version)
        async with self.lock(game.row.id):
            return await self._play(game.row, game.game, user_id, move, note)

    async def _play(
        self, row: GameRow, game: Game, user_id: str, move: str | Action, note: str
    ) -> Outcome:
        game_id = row.id
        names = row.names
        if isinstance(move, str):
            try:
                move = parse_action(move)
            except IllegalAction as error:
                raise Refusal(self.refusal_text(error, game, user_id, names)) from None
        awaited_before = game.awaiting
        try:
            events = game.apply(user_id, move)
        except NotYourTurn:
            raise Refusal("It is not your move. " + words.waiting_for(game, names)) from None
        except IllegalAction as error:
            raise Refusal(self.refusal_text(error, game, user_id, names)) from None
        new_moves = game.log[row.version :]
        new_events = words.with_silent_action(events, user_id, str(move))
        # While the same player goes on deciding, their prompt message is updated and
        # tells their moves so far; when someone else must act, a new message tells
        # the whole sequence of the player who just finished.
        continuing = game.awaiting == awaited_before and row.message_id is not None
        header = events_of(row.turn_events.get("header", []))
        own = events_of(row.turn_events.get("own", [])) + new_events
        told = (
            {"header": events_json(header), "own": events_json(own)}
            if continuing
            else {"header": events_json(own), "own": []}
        )
        text = words.describe(header + own if continuing else own, names)
        if note:
            text = f"{note}\n{text}" if text else note
        state_json = json.dumps(game.to_dict())
        stamp = now()
        try:
            await self.store.commit_move(
                game_id,
                row.version,
                state_json,
                game.version,
                new_moves,
                finished=game.is_over,
                turn_events=told,
                at=stamp,
            )
        except StaleVersion:
            raise Refusal(STALE) from None
        log.info(
            "game %s channel %s: %s played %r (version %s -> %s)",
            game_id,
            row.play_channel_id,
            user_id,
            str(move),
            row.version,
            game.version,
        )
        new_row = replace(
            row,
            state_json=state_json,
            version=game.version,
            status=FINISHED if game.is_over else ACTIVE,
            updated_at=stamp,
            turn_events=told,
        )
        picture = await asyncio.to_thread(
            self.renderer.game_picture, game, highlight=highlight_of(events), names=names
        )
        outcome = Outcome(
            row=new_row,
            game=game,
            actor=user_id,
            events=events,
            text=text,
            picture=picture,
            previous_message_id=row.message_id,
            awaited_changed=not continuing,
        )
        return await self._announce(outcome)

    async def _announce(self, outcome: Outcome) -> Outcome:
        try:
            message_id = await self.announcer.announce(outcome)
        except Exception:
            # the move is saved; `/montana board` re-posts the prompt
            log.exception(
                "game %s channel %s: announcing version %s failed",
                outcome.row.id,
                outcome.row.play_channel_id,
                outcome.version,
            )
            return replace(outcome, announced=False)
        if message_id is not None:
            await self.store.set_prompt_message(outcome.row.id, outcome.version, message_id)
        outcome = replace(outcome, message_id=message_id)
        for hook in self.after_announce:
            try:
                await hook(outcome)
            except Exception as error:
                log.warning(
                    "game %s channel %s: after-move hook failed: %r",
                    outcome.row.id,
                    outcome.row.play_channel_id,
                    error,
                )
        return outcome

    async def repost(self, target: int | GameRow) -> Outcome:
        """Announce the current state again (a fresh prompt; the old one goes stale)."""
        row = await self.row_of(target)
        async with self.lock(row.id):
            game = self.game_of(row)
            picture = await self.game_picture(row, game)
            outcome = Outcome(
                row=row,
                game=game,
                actor=None,
                events=[],
                text=words.describe(
                    events_of(row.turn_events.get("header", []))
                    + events_of(row.turn_events.get("own", [])),
                    row.names,
                ),
                picture=picture,
                previous_message_id=row.message_id,
            )
            return await self._announce(outcome)

    async def log_page(
        self, game: int | GameRow, page: int, per_page: int = 20
    ) -> tuple[list[str], int]:
        """Lines of the move log (notation) for `page` (1 = the latest) and the page count."""
        row = await self.row_of(game)
        game_id = row.id
        total = await self.store.move_count(game_id)
        pages = max(1, -(-total // per_page))
        page = min(max(page, 1), pages)
        offset = max(0, total - page * per_page)
        limit = total - (page - 1) * per_page - offset
        moves = await self.store.moves(game_id, offset=offset, limit=max(limit, 0))
        lines = words.log_lines(((m.version, m.player, m.notation) for m in moves), row.names)
        return lines, pages


__all__ = [
    "FINISHED",
    "STALE",
    "Announcer",
    "GameService",
    "Outcome",
    "PillowRenderer",
    "Refusal",
    "Renderer",
    "Seat",
    "SilentAnnouncer",
    "Turn",
]
