"""The game flow, free of Discord: lobbies, moves, pictures, refusals in words.

Both front ends use this module: the Discord adapter (`bot.discord_app`)
and the offline console. A front end gives the service an `Announcer` that shows
each accepted move (a channel message, a terminal print) and returns the id of the
message carrying the new prompt, if any (and, optionally, a `TurnNotifier` for direct
messages).

Every move runs under a per-game asyncio lock and is saved with the store's
optimistic version check, so two presses of the same button can never both apply:
the second one finds the version moved on and gets `Refusal(STALE_WORDS)`. The messages a
move owes the players are saved with it (the outbox) and delivered right after by
`bot.core.delivery.outbox`, which retries what fails; a move whose save fails is refused
(`NotSaved`) with nothing written.

Steps nobody is asked for are saved with the move that led to them and said in its
message: the engine's forced steps (RULES.md 7.3, noted "forced" in the move log) and
passes in advance (`bot.core.play.passes`, applied here when the auction reaches their
player, noted "advance"). `undo` takes back a player's last move (`Game.undo`): the
earlier state is saved in the next undo epoch, which every button carries beside the
version, so no button made before the undo ever applies again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.core.delivery.notify import NotifyPrefs
from bot.core.delivery.outbox import (
    NOT_POSTED_YET,
    Announcer,
    Backoff,
    Delivery,
    NoticeSender,
    Outcome,
    Posted,
    Report,
    SilentAnnouncer,
    TurnNotifier,
)
from bot.core.delivery.picture_modes import ends_turn
from bot.core.delivery.presence import Presence, seat_notes
from bot.core.delivery.renderer import PillowRenderer, Renderer
from bot.core.play import passes
from bot.core.play.hooks import Hooks, NoQuietHours, QuietHoursOf
from bot.core.play.repeats import Pings, Reposts
from bot.core.runtime import logs, metrics
from bot.core.store import (
    ABANDONED,
    ACTIVE,
    DEFAULT_AI_LEVEL,
    DM,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    POST,
    Away,
    ChannelBusy,
    GameRow,
    OwedMessage,
    Seat,
    StaleVersion,
    Store,
    StoreError,
    ai_seat_id,
    ai_seat_number,
    is_ai_seat,
    now,
)
from bot.core.wording import words
from bot.core.wording.refusals import (
    BrokenGame,
    NotSaved,
    Refusal,
    channel_busy,
    game_words,
    not_saved,
    why_not_saved,
)
from i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    Message,
    Translator,
    is_language,
    translatable,
    translatable_plural,
    translator,
)
from render.words import reason_text
from rules import Action, Event, Game, IllegalAction, NotYourTurn, parse_action

log = logging.getLogger(__name__)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
STALE_WORDS = translatable(
    "This prompt is out of date: the game has moved on since. "
    "Use the buttons on the newest message (or {/board})."
)
STALE = STALE_WORDS.id
NO_GAME_HERE = translatable("There is no Montana game here. Start one with {/game new}.")
ALREADY_STARTED = translatable("This game has already started.")
ALREADY_OVER = translatable("This game is already over.")
TAKEN_OVER_WORDS = translatable(
    "The AI plays your seat in this game now. Take it back with {/me reclaim}, then make your move."
)
TAKEN_OVER = TAKEN_OVER_WORDS.id
UNDO_TAKEN_OVER = translatable(
    "The AI plays your seat in this game now, so you cannot take its moves back. Take "
    "your seat back with {/me reclaim} first."
)
AWAY_AI_WORDS = translatable(
    "You are away and the AI plays for you. {/me back} gives you all your games "
    "again, or {/me reclaim} this one; then make your move."
)
"""A press refused because the AI plays for its presser while they are away."""
FORCED_NOTE = "forced"
"""The move log's note for a step the engine applied because it was the only choice."""
IN_ADVANCE_NOTE = "advance"
"""The move log's note for a pass given in advance."""
AI_MOVE_NOTE = "ai"
"""The move log's note of a move the AI made for a person's seat."""


def opener_among(players: Sequence[Seat], opener: str) -> str:
    """The lobby's opener once `players` are seated: the same, or, when they have left,
    the first human seated after them (issue 21.5)."""
    if any(seat.user_id == opener for seat in players):
        return opener
    return next((seat.user_id for seat in players if not seat.is_ai), opener)


NO_BOARD = translatable("You are not playing in this game, so you have no board here.")


_reported_broken: set[tuple[int, int, int]] = set()
"""The broken games logged already (id, version, state): each is logged once."""


MAX_AI_SEATS = 3
AI_PLAYS = translatable("AI plays")
"""The picture's note by the name of a seat the AI plays for its owner (taken over)."""
AI_PLAYS_NOTE = AI_PLAYS.id
ADD_AI_ONLY = translatable("Only the player who opened the game can add AI players.")
REMOVE_AI_ONLY = translatable("Only the player who opened the game can remove AI players.")


def ai_seat(number: int, level: str = DEFAULT_AI_LEVEL) -> Seat:
    """The `number`-th AI seat of a game playing `level`: id `ai:<n>`, named "AI <n>",
    at the normal level; else id `ai:<n>:<level>`, named "AI <n> (<level>)"."""
    name = f"AI {number}" if level == DEFAULT_AI_LEVEL else f"AI {number} ({level})"
    return Seat(ai_seat_id(number, level), name)


def with_ai_seat(row: GameRow, level: str = DEFAULT_AI_LEVEL) -> tuple[Seat, ...]:
    """The lobby's seats with one more AI seat (numbered after the highest)."""
    ais = [s for s in row.players if s.is_ai]
    if len(ais) >= MAX_AI_SEATS:
        raise Refusal(translatable("A game has {n} AI seats at most."), n=MAX_AI_SEATS)
    if len(row.players) >= MAX_PLAYERS:
        raise Refusal(
            translatable("The game is full: Montana is for {n} players at most."), n=MAX_PLAYERS
        )
    taken = {ai_seat_number(s.user_id) for s in ais}
    number = next(n for n in range(1, 5) if n not in taken)
    return (*row.players, ai_seat(number, level))


def without_ai_seat(row: GameRow) -> tuple[Seat, ...]:
    """The lobby's seats with its last AI seat removed."""
    ais = [s for s in row.players if s.is_ai]
    if not ais:
        raise Refusal(translatable("There is no AI seat to remove."))
    last = ais[-1]
    return tuple(s for s in row.players if s != last)


@dataclass(frozen=True)
class Turn:
    """A game read once for one press: its row and the engine's state, checked for the
    presser (`GameService.check_turn`)."""

    row: GameRow
    game: Game
    expected_version: int | None


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


def all_seats_ai(row: GameRow) -> bool:
    """Whether the AI plays every seat of the game (it must not run alone)."""
    return bool(row.players) and all(row.ai_plays(seat.user_id) for seat in row.players)


class GameService:
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
        self.renderer: Renderer = renderer or PillowRenderer()
        self.announcer: Announcer = announcer or SilentAnnouncer()
        self.notifier = notifier
        self.prefs = NotifyPrefs(store)
        self._seeds = seed_source or random.SystemRandom()
        self._locks: dict[int, asyncio.Lock] = {}
        self.reposts = Reposts()
        """What {/board} re-posted (at most once per state)."""
        self.pings = Pings()
        """The decisions whose player was pinged (once per decision, also after an undo)."""
        self.hooks = Hooks()
        """Where the capabilities above the game flow hook in (`bot.core.play.hooks`)."""
        self.after_announce = self.hooks.after_announce
        """Called after each saved move or start (the deadline clock); a hook that fails
        is logged and skipped, never failing the move."""
        self.after_game_over = self.hooks.after_game_over
        """Called when a game under way ends (its last move, a vote, abandoned): its
        players' seats under way are free again (the matchmaking queue may match them)."""
        self.hours: QuietHoursOf = NoQuietHours()
        """The players' quiet hours (installed by `bot.core.clock.hours`)."""
        self.presence = Presence(store, load_game=self.game_of)
        """Heads-ups owed by moves; players away and back (`bot.core.delivery.presence`)."""
        self.delivery = Delivery(
            store,
            self.announcer,
            notifier=notifier,
            notices=notices,
            away_in=self.presence.away_in,
            quiet_end=self._quiet_end,
            render=self._picture,
            load_game=self.game_of,
            lock=self.lock,
            backoff=backoff,
        )
        """Delivers the messages moves owe; a front end that runs for long `start`s it,
        so what failed is tried again (and what a previous run left is delivered)."""
        self.presence.deliver = self.delivery.deliver

    async def _quiet_end(self, user_id: str, moment: datetime) -> datetime | None:
        return await self.hours.quiet_end(user_id, moment)

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ reading

    async def get(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise Refusal(translatable("That game does not exist (any more)."))
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def game_here(self, channel_id: int) -> GameRow:
        """The lobby or running game of this channel or thread."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        logs.bind_game(row.id, row.play_channel_id)
        return row

    async def latest_here(self, channel_id: int) -> GameRow:
        """The running game here, or else the last one (finished games can be looked at)."""
        row = await self.store.open_game_in(channel_id)
        if row is None:
            row = await self.store.latest_game_in(channel_id)
        if row is None:
            raise Refusal(NO_GAME_HERE)
        logs.bind_game(row.id, row.play_channel_id)
        return row

    @staticmethod
    def game_of(row: GameRow) -> Game:
        """The engine's state of a started game; `BrokenGame` when it does not load."""
        if row.state_json is None:
            raise Refusal(
                translatable(
                    "The game has not started yet: players join with the Join button or "
                    "{/game join}, then {/game start}."
                )
            )
        try:
            return Game.from_dict(json.loads(row.state_json))
        except Exception:
            reported = (row.id, row.version, hash(row.state_json))
            if reported not in _reported_broken:
                _reported_broken.add(reported)
                log.exception(
                    "game %s channel %s: its saved state (version %s) cannot be read; "
                    "the game is skipped until an operator repairs it",
                    row.id,
                    row.play_channel_id,
                    row.version,
                )
            raise BrokenGame(row.id) from None

    async def game_picture(self, row: GameRow, game: Game) -> bytes:
        return await self._picture(row, game, None, await self.presence.away_in(row))

    async def _picture(
        self, row: GameRow, game: Game, highlight: str | None, away: Mapping[str, Away]
    ) -> bytes:
        return await asyncio.to_thread(
            self.renderer.game_picture,
            game,
            highlight=highlight,
            names=row.seat_names,
            seat_notes={
                **await self.hooks.notes(row, game, away),
                **dict.fromkeys(row.taken_over, game_words(row).translate(AI_PLAYS)),
                **seat_notes(away, row, game_words(row)),
            },
            language=row.language,
        )

    async def board_picture(self, row: GameRow, user_id: str, language: str = "en") -> bytes:
        """`user_id`'s own board, in their language (only they see it)."""
        game = self.game_of(row)
        if not row.has_player(user_id):
            raise Refusal(NO_BOARD)
        return await asyncio.to_thread(
            self.renderer.board_picture, game, user_id, names=row.seat_names, language=language
        )

    # ------------------------------------------------------------------ the lobby

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
        await self.hooks.check_seat(guild_id, creator.user_id, lobby=True)
        try:
            return await self.store.create_lobby(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                creator=creator,
                language=language if is_language(language) else SOURCE_LANGUAGE,
            )
        except ChannelBusy as busy:
            row = await self.store.get(busy.game_id)
            raise Refusal(lambda t: channel_busy(row, t)) from None

    async def set_language(
        self, row: GameRow, user_id: str, language: str, *, may_manage: bool
    ) -> GameRow:
        """Change the language of the game's public messages and pictures (by the player
        who opened it, or a channel manager); the row after it."""
        if user_id != row.creator_id and not may_manage:
            raise Refusal(
                translatable(
                    "Only the player who opened the game, or someone allowed to manage this "
                    "channel, can change its language."
                )
            )
        if row.status not in OPEN_STATUSES:
            raise Refusal(translatable("This game is over."))
        if not is_language(language):
            raise Refusal(
                translatable("Unknown language {code}: choose one of {codes}."),
                code=language,
                codes=", ".join(LANGUAGES),
            )
        await self.store.set_language(row.id, language)
        return replace(row, language=language)

    async def row_of(self, game: int | GameRow) -> GameRow:
        """The row given, or read by id (a front end that read it already passes it)."""
        return game if isinstance(game, GameRow) else await self.get(game)

    async def join(self, game: int | GameRow, user: Seat) -> GameRow:
        """Seat `user` in the lobby; the row after it (built here, not read again)."""

        def joined(row: GameRow) -> tuple[Seat, ...]:
            if row.status != LOBBY:
                raise Refusal(translatable("This game has already started; join the next one."))
            if row.has_player(user.user_id):
                raise Refusal(translatable("You have already joined this game."))
            if len(row.players) >= MAX_PLAYERS:
                raise Refusal(
                    translatable("The game is full: Montana is for {n} players at most."),
                    n=MAX_PLAYERS,
                )
            return (*row.players, user)

        row = await self.row_of(game)
        if row.status == LOBBY and not row.has_player(user.user_id):
            await self.hooks.check_seat(row.guild_id, user.user_id, lobby=False)
        return await self._change_seats(row, joined)

    async def leave(self, game: int | GameRow, user_id: str) -> GameRow:
        """Take `user_id` out of the lobby (the last one out abandons it)."""

        def left(row: GameRow) -> tuple[Seat, ...]:
            if row.status != LOBBY:
                raise Refusal(
                    translatable(
                        "The game has started: it cannot be left, only abandoned "
                        "({/game abandon}, by its creator or a channel manager)."
                    )
                )
            if not row.has_player(user_id):
                raise Refusal(translatable("You have not joined this game."))
            rest = tuple(s for s in row.players if s.user_id != user_id)
            # AI seats alone are no table: the last human out abandons the lobby
            return rest if any(not s.is_ai for s in rest) else ()

        return await self._change_seats(game, left)

    async def add_ai(
        self, game: int | GameRow, user_id: str, level: str = DEFAULT_AI_LEVEL
    ) -> GameRow:
        """One more AI seat playing `level` in the lobby (its opener only; 1-3 AI seats,
        4 seats in all)."""

        def added(row: GameRow) -> tuple[Seat, ...]:
            self._check_lobby_opener(row, user_id, ADD_AI_ONLY)
            return with_ai_seat(row, level)

        return await self._change_seats(game, added)

    async def remove_ai(self, game: int | GameRow, user_id: str) -> GameRow:
        """The lobby's last AI seat removed (its opener only)."""

        def removed(row: GameRow) -> tuple[Seat, ...]:
            self._check_lobby_opener(row, user_id, REMOVE_AI_ONLY)
            return without_ai_seat(row)

        return await self._change_seats(game, removed)

    @staticmethod
    def _check_lobby_opener(row: GameRow, user_id: str, only: Message) -> None:
        if row.status != LOBBY:
            raise Refusal(translatable("This game has already started: its seats are set."))
        if row.creator_id != user_id:
            raise Refusal(only)

    async def _change_seats(
        self, game: int | GameRow, change: Callable[[GameRow], tuple[Seat, ...]]
    ) -> GameRow:
        """Save the lobby's new seats if nobody changed them meanwhile (else read the
        lobby again and retry); an empty lobby is abandoned. An opener who left hands
        the opener's powers (AI seats, settings, abandon) to the next human seated."""
        row = await self.row_of(game)
        async with self.lock(row.id):
            while True:
                players = change(row)
                try:
                    if players:
                        creator = opener_among(players, row.creator_id)
                        await self.store.set_players(
                            row.id,
                            players,
                            expected=row.players,
                            creator=creator if creator != row.creator_id else None,
                        )
                        return replace(row, players=players, creator_id=creator)
                    if await self.store.set_status(row.id, ABANDONED, only_from=(LOBBY,)):
                        return replace(row, status=ABANDONED, players=())
                except StaleVersion:
                    pass
                row = await self.get(row.id)  # someone else joined or left meanwhile

    async def check_start(self, game: int | GameRow, user_id: str) -> GameRow:
        """Refuse a start that cannot happen, before the front end prepares for it
        (given a row already read, nothing is read again)."""
        row = await self.row_of(game)
        if row.status != LOBBY:
            raise Refusal(ALREADY_STARTED)
        if not row.has_player(user_id):
            raise Refusal(translatable("Only a player who has joined can start the game."))
        if not row.humans:
            raise Refusal(
                translatable(
                    "A game needs at least one human player: join it, or remove an AI seat "
                    "and let someone join."
                )
            )
        await self.hooks.check_start(row)
        if len(row.players) < MIN_PLAYERS:
            raise Refusal(
                translatable_plural(
                    "Montana needs {least} to {most} players; {n} joined so far. "
                    "Others can press Join.",
                    "Montana needs {least} to {most} players; {n} joined so far. "
                    "Others can press Join.",
                ),
                n=len(row.players),
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
            )
        return row

    async def start(
        self,
        game: int | GameRow,
        user_id: str,
        *,
        seed: int | None = None,
        dealt: Game | None = None,
    ) -> Outcome:
        """Draw the seat order, deal the game and announce the first prompt.

        `game` is the game's id or its row as `check_start` returned it (not read again).
        `dealt`: a game already under way (read from a record) whose player ids are the
        lobby's seats: it goes on from where it stands, in its own seat order.
        """
        row = game if isinstance(game, GameRow) else await self.check_start(game, user_id)
        async with self.lock(row.id):
            t = game_words(row)
            if dealt is None:
                if seed is None:
                    seed = self._seeds.randrange(2**31)
                seats = list(row.players)
                random.Random(seed).shuffle(seats)
                dealt = Game.new([s.user_id for s in seats], seed=seed)
                names = {s.user_id: s.name for s in seats}
                text = t.pgettext(
                    "sentences",
                    "{text} {next}",
                    text=words.seating(dealt, names, t),
                    next=self._setup_text(dealt, names, t),
                )
            else:
                by_id = {s.user_id: s for s in row.players}
                seats = [by_id[pid] for pid in dealt.player_ids]
                seed = dealt.seed
                text = (
                    t.gettext("The game of a record, as it ended.")
                    if dealt.is_over
                    else t.gettext(
                        "The game goes on from a record, at turn {turn}.", turn=dealt.turn_number
                    )
                )
            told = {"header": events_json([words.note(text)]), "own": []}
            state_json = json.dumps(dealt.to_dict())
            owed = await self._owed(dealt, text, actor=None, handover=True, turn_player_before=None)
            try:
                stamp = now()
                await self.store.start(
                    row.id, seats, state_json, dealt.log, turn_events=told, at=stamp, owed=owed
                )
            except StaleVersion:
                raise Refusal(ALREADY_STARTED) from None
            except StoreError as error:
                failure = error
                raise NotSaved(
                    lambda t: t.gettext(
                        "The game did not start: I could not save it just now ({why}). "
                        "Please press Start again in a moment.",
                        why=why_not_saved(failure, t),
                    )
                ) from error
            row = replace(
                row,
                status=ACTIVE,
                players=tuple(seats),
                state_json=state_json,
                version=dealt.version,
                updated_at=stamp,
                turn_events=told,
            )
            if dealt.is_over and await self.store.set_status(row.id, FINISHED, only_from=[ACTIVE]):
                row = replace(row, status=FINISHED)
            log.info("started with %d players (seed %s)", len(seats), seed)
            # after the start is saved (see `bot.core.delivery.presence`: an away written meanwhile
            # is seen by one of the two); failing, the next start-up hands the seats over
            try:
                row = await self.presence.stand_in_new_game(row)
            except StoreError as error:
                log.warning("game %s: an away player's seat stays theirs: %s", row.id, error)
            outcome = Outcome(
                row=row,
                game=dealt,
                actor=None,
                events=[],
                text=text,
                picture=b"",
                previous_message_id=None,
            )
            return await self._announce(outcome)

    def _first_ping(self, game_id: int, game: Game) -> bool:
        """Whether the player `game` awaits is to be pinged: not when they were for this
        decision already (the move that reached it was taken back and made again)."""
        awaited = game.awaiting
        return awaited is None or self.pings.first(game_id, game.version, awaited)

    async def _owed(
        self,
        game: Game,
        text: str,
        *,
        actor: str | None,
        handover: bool,
        turn_player_before: str | None,
        in_place: int | None = None,
        highlight: str | None = None,
    ) -> list[OwedMessage]:
        """The messages a saved version owes the players: its post, a direct message for
        the player it now waits for if they asked for one, and a heads-up for the player
        after the one whose turn it started (`turn_player_before`: the turn's player
        before the move; `bot.core.delivery.presence`)."""
        owed = [
            OwedMessage(
                POST,
                game.version,
                {
                    "text": text,
                    "actor": actor,
                    "handover": handover,
                    "in_place": in_place,
                    "highlight": highlight,
                    # the `pictures` setting draws at the end of a turn (`picture_modes`)
                    "turn_ended": ends_turn(game, turn_player_before),
                },
            )
        ]
        awaited = game.awaiting
        if (
            self.notifier is not None
            and handover
            and awaited is not None
            and await self.prefs.wants_dm(awaited)
        ):
            owed.append(OwedMessage(DM, game.version, {"user": awaited}))
        return owed + await self.presence.heads_up_owed(game, turn_player_before)

    @staticmethod
    def _setup_text(game: Game, names: Mapping[str, str], t: Translator) -> str:
        held = words.series(
            (
                t.gettext(
                    "{who} has {workers}",
                    who=names.get(p.id, p.id),
                    workers=words.workers_text(p.workers, t),
                )
                for p in game.players
                if p.worker_count
            ),
            t,
        )
        if held:
            return t.gettext(
                "Everyone spins the wheel twice for their first workers — {held}.", held=held
            )
        return t.gettext("Everyone spins the wheel twice for their first workers.")

    async def abandon(self, game: int | GameRow, user_id: str, *, may_manage: bool) -> GameRow:
        row = await self.row_of(game)
        async with self.lock(row.id):
            if row.status not in OPEN_STATUSES:
                raise Refusal(ALREADY_OVER)
            if row.creator_id != user_id and not may_manage:
                raise Refusal(
                    translatable(
                        "Only the player who opened the game, or someone allowed to manage "
                        "this channel, can abandon it."
                    )
                )
            if not await self.store.set_status(row.id, ABANDONED, only_from=OPEN_STATUSES):
                raise Refusal(ALREADY_OVER)
            ended = replace(row, status=ABANDONED)
            if row.status == ACTIVE:
                await self.game_over(ended)
            return ended

    # ------------------------------------------------------------------ moves

    async def check_turn(
        self,
        game: int | GameRow,
        user_id: str,
        expected_version: int | None,
        expected_epoch: int | None = None,
        *,
        by_ai: bool = False,
    ) -> Turn:
        """Refuse early (before a slow defer) a press that cannot possibly apply.

        Given a game id the row is read here; given a row already read, nothing is read
        again. The `Turn` returned is what `play` needs, so a press reads its game once.
        `expected_epoch`: the undo epoch the button was made in (None: not checked).
        `by_ai`: the AI answers for the seat (`bot.core.ai_players.ai_seats`); a person may not
        while the AI plays their seat.
        """
        row = await self.row_of(game)
        checked = self._check(row, user_id, expected_version, expected_epoch)
        if not by_ai and row.ai_plays(user_id):
            if checked.awaiting == user_id and all_seats_ai(row):
                # a game paused with the AI alone: the person's move takes their seat back
                row = await self._resume_paused(row, user_id)
                checked = self._check(row, user_id, expected_version, expected_epoch)
            else:
                away = await self.presence.away_of(user_id)
                raise Refusal(
                    AWAY_AI_WORDS if away is not None and away.ai_plays else TAKEN_OVER_WORDS
                )
        return Turn(row, checked, expected_version)

    async def _resume_paused(self, row: GameRow, user_id: str) -> GameRow:
        """`user_id` takes their seat back from the AI, which played every seat."""
        seats = [p for p in row.taken_over if p != user_id]
        if not await self.store.set_taken_over(row.id, seats, expected=row.taken_over):
            row = await self.get(row.id)  # taken back meanwhile (this same press, twice)
            if user_id in row.taken_over:
                raise Refusal(STALE_WORDS)
            return row
        log.info("game %s: %s moves, taking their seat back from the AI", row.id, user_id)
        return replace(row, taken_over=tuple(seats))

    def _current(
        self, row: GameRow, expected_version: int | None, expected_epoch: int | None
    ) -> Game:
        """The game of an active row, if a button's version (and epoch) is still its own."""
        if row.status == LOBBY:
            raise Refusal(
                translatable(
                    "The game has not started yet: {/game start} once everyone has joined."
                )
            )
        if row.status != ACTIVE:
            raise Refusal(translatable("This game is over: no more moves."))
        if expected_version is not None and expected_version != row.version:
            raise Refusal(STALE_WORDS)
        if expected_epoch is not None and expected_epoch != row.undo_epoch:
            raise Refusal(STALE_WORDS)
        return self.game_of(row)

    def _check(
        self,
        row: GameRow,
        user_id: str,
        expected_version: int | None,
        expected_epoch: int | None = None,
    ) -> Game:
        game = self._current(row, expected_version, expected_epoch)
        if not row.has_player(user_id):
            raise Refusal(
                lambda t: t.gettext(
                    "You are not playing in this game — only its players can press its "
                    "buttons. {waiting} Open your own game with {/game new} in another "
                    "channel.",
                    waiting=words.waiting_for(game, row.names, t),
                )
            )
        if game.awaiting != user_id:
            raise Refusal(lambda t: words.not_your_move(game, row.names, t))
        return game

    @staticmethod
    def _reason(error: IllegalAction, names: Mapping[str, str], t: Translator) -> str:
        """The engine's reason in the vocabulary's words, with names instead of ids, as a
        sentence in `t`'s language."""
        if t.language == SOURCE_LANGUAGE:
            reason = words.engine_reason(str(error).split(". Allowed now:")[0].rstrip("."))
            for pid, name in names.items():
                reason = reason.replace(pid, name)
        else:
            reason = reason_text(error.reason, t, names)
        return t.gettext("{reason}.", reason=reason[:1].upper() + reason[1:])

    def refusal_text(
        self,
        error: IllegalAction,
        game: Game,
        user_id: str,
        names: Mapping[str, str],
        t: Translator | None = None,
    ) -> str:
        """The engine's reason in words, and what is allowed now (English unless `t`)."""
        t = t or translator(SOURCE_LANGUAGE)
        allowed = words.allowed_now(game, user_id, t)
        return f"{self._reason(error, names, t)} {allowed}".strip()

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
        """Apply one move for `user_id`, save it, render and announce it.

        `game` is the game's id, or the `Turn` that `check_turn` returned for this
        press (the game is then not read again). `expected_version` (and
        `expected_epoch`, its undo epoch) is the state the player saw (from a button);
        None for typed commands, which apply to the current state. `note` is said before
        the move's words (e.g. that the bot passed for a player on a deadline; for a move
        `by_ai`, it stays with the moves told while the same player goes on). The
        store's version and epoch check is the guard against a move saved meanwhile: the
        press is then refused as out of date. `expected_taken_over`: the seats the AI
        played in the state it decided on, when it moves for a person's seat; the move
        is out of date, too, if they changed (the person took the seat back meanwhile).
        """
        if not isinstance(game, Turn):
            game = await self.check_turn(
                game, user_id, expected_version, expected_epoch, by_ai=by_ai
            )
        async with self.lock(game.row.id):
            row = self.delivery.latest(game.row)
            return await self._play(
                row,
                game.game,
                user_id,
                move,
                note,
                by_ai=by_ai,
                expected_taken_over=expected_taken_over,
            )

    async def _play(
        self,
        row: GameRow,
        game: Game,
        user_id: str,
        move: str | Action,
        note: str,
        *,
        by_ai: bool = False,
        expected_taken_over: Sequence[str] | None = None,
    ) -> Outcome:
        game_id = row.id
        names = row.names
        if isinstance(move, str):
            try:
                move = parse_action(move)
            except IllegalAction as error:
                failure = error
                raise Refusal(
                    lambda t: self.refusal_text(failure, game, user_id, names, t)
                ) from None
        awaited_before, turn_player_before = game.awaiting, game.turn_player
        try:
            events = game.apply(user_id, move)
        except NotYourTurn:
            raise Refusal(lambda t: words.not_your_move(game, names, t)) from None
        except IllegalAction as error:
            failure = error
            raise Refusal(lambda t: self.refusal_text(failure, game, user_id, names, t)) from None
        events = words.with_silent_action(events, user_id, str(move))
        if note and by_ai:
            # told with the moves (kept while the same player's prompt is edited in place)
            events = [words.note(note), *events]
            note = ""
        passed_in_advance = await self._apply_passes_in_advance(row, game, events)
        new_moves = game.log[row.version :]
        notes = {index + 1: FORCED_NOTE for index in game.auto if index >= row.version}
        notes.update(dict.fromkeys(passed_in_advance, IN_ADVANCE_NOTE))
        if by_ai and not is_ai_seat(user_id):
            # the AI's moves for a person's seat (left out of their answer times)
            for version, (player, _) in enumerate(new_moves, start=row.version + 1):
                if player == user_id and version not in notes:
                    notes[version] = AI_MOVE_NOTE
        new_events = events
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
        text = words.describe(header + own if continuing else own, names, t=game_words(row))
        if note:
            text = f"{note}\n{text}" if text else note
        state_json = json.dumps(game.to_dict())
        stamp = now()
        # the same player's prompt is updated in place only while it is the game's newest
        # message (no move's message is still owed before it)
        in_place = row.message_id if continuing and row.prompt_version == row.version else None
        # a move taken back and made again pings the player it hands over to once
        handover = not continuing and self._first_ping(game_id, game)
        owed = await self._owed(
            game,
            text,
            actor=user_id,
            handover=handover,
            turn_player_before=turn_player_before,
            in_place=in_place,
            highlight=highlight_of(events),
        )
        # a game's end is written in the same transaction (its rating, `bot.core.play.hooks`)
        at_end = await self.hooks.ending(row, game, ended_at=stamp) if game.is_over else None
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
                owed=owed,
                expected_epoch=row.undo_epoch,
                notes=notes,
                expected_taken_over=expected_taken_over,
                at_end=at_end,
            )
        except StaleVersion:
            raise Refusal(STALE_WORDS) from None
        except StoreError as error:
            log.warning("game %s: a move could not be saved: %s", game_id, error)
            raise not_saved(error) from error
        log.info(
            "game %s channel %s: %s played %r (version %s -> %s)",
            game_id,
            row.play_channel_id,
            user_id,
            str(move),
            row.version,
            game.version,
        )
        metrics.move_saved(row.guild_id, by_ai=by_ai)
        new_row = replace(
            row,
            state_json=state_json,
            version=game.version,
            status=FINISHED if game.is_over else ACTIVE,
            updated_at=stamp,
            turn_events=told,
        )
        outcome = Outcome(
            row=new_row,
            game=game,
            actor=user_id,
            events=events,
            text=text,
            picture=b"",
            previous_message_id=row.message_id,
            awaited_changed=not continuing,
            in_place=in_place is not None,
        )
        outcome = await self._announce(outcome)
        # the ping counts once it reached the player: a post still owed when its move is
        # taken back (Discord down) is dropped with its ping, so the move made again pings
        if handover and outcome.announced and game.awaiting is not None:
            self.pings.note(game_id, game.version, game.awaiting)
        return outcome

    async def _apply_passes_in_advance(
        self, row: GameRow, game: Game, events: list[Event]
    ) -> list[int]:
        """Pass for every player the auction has reached who passed in advance (one pass
        may reach the next such player); their events are added to `events`. The
        versions of those passes."""
        if game.pending.kind != "bid":
            return []
        auction = passes.auction_opened_at(game)
        if auction is None:
            return []
        passing = await self.store.advance_passes(row.id, auction)
        applied: list[int] = []
        while (player := passes.due_pass(game, passing)) is not None:
            applied.append(game.version + 1)
            events += [words.in_advance(player), *game.apply(player, "pass")]
        return applied

    async def pass_in_advance(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        wanted: bool | None = None,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> bool:
        """Record `user_id`'s pass in advance in the running city auction (`wanted`
        True), withdraw it (False) or toggle it (None); whether it stands now. Only a
        player queued to answer later may (not the one it awaits, not its active player)."""
        row = await self.row_of(target)
        async with self.lock(row.id):
            game = self._current(row, expected_version, expected_epoch)
            names = row.names
            if not row.has_player(user_id):
                raise Refusal(translatable("You are not playing in this game."))
            auction = passes.auction_opened_at(game)
            if auction is None:
                raise Refusal(
                    translatable("No city auction is running now: there is nothing to pass.")
                )
            if user_id not in passes.queued_later(game):
                raise Refusal(lambda t: words.cannot_pass_in_advance(game, user_id, names, t))
            standing = user_id in await self.store.advance_passes(row.id, auction)
            wanted = not standing if wanted is None else wanted
            if wanted != standing:
                try:
                    done = await self.store.set_advance_pass(
                        row.id,
                        user_id,
                        auction,
                        wanted,
                        version=row.version,
                        undo_epoch=row.undo_epoch,
                    )
                except StoreError as error:
                    raise not_saved(error) from error
                if not done:
                    raise Refusal(STALE_WORDS)
            log.info(
                "game %s: %s %s in advance",
                row.id,
                user_id,
                "passes" if wanted else "withdrew the pass",
            )
            return wanted

    async def undo(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> Outcome:
        """Take back `user_id`'s last move (`Game.undo`), save the earlier state and show
        it again: a fresh prompt saying what was taken back, the previous prompt's
        buttons removed. Refused, with the reason, once another player has moved since,
        the wheel has been spun since, or the game is over."""
        row = await self.row_of(target)
        async with self.lock(row.id):
            row = self.delivery.latest(row)
            if row.status not in OPEN_STATUSES:
                raise Refusal(
                    translatable("This game is over: its moves can no longer be taken back.")
                )
            game = self._current(row, expected_version, expected_epoch)
            names = row.names
            if not row.has_player(user_id):
                raise Refusal(
                    translatable(
                        "You are not playing in this game: there is no move of yours here."
                    )
                )
            if user_id in row.taken_over:
                raise Refusal(UNDO_TAKEN_OVER)
            try:
                earlier = await asyncio.to_thread(game.undo, user_id)
            except IllegalAction as error:
                failure = error
                raise Refusal(lambda t: self._reason(failure, names, t)) from None
            _, taken = game.log[earlier.version]
            line = words.took_back(names.get(user_id, user_id), taken, game_words(row))
            header = [words.note(line)]
            own = await asyncio.to_thread(self._moves_so_far, earlier, user_id)
            told = {"header": events_json(header), "own": events_json(own)}
            text = words.describe(header + own, names, t=game_words(row))
            sent = await self.hooks.steps_done_at_undo(row, earlier)
            state_json = json.dumps(earlier.to_dict())
            owed = await self._owed(
                earlier,
                text,
                actor=user_id,
                handover=False,
                turn_player_before=earlier.turn_player,
            )
            stamp = now()
            try:
                await self.store.undo_moves(
                    row.id,
                    row.version,
                    row.undo_epoch,
                    state_json,
                    earlier.version,
                    undone_by=user_id,
                    turn_events=told,
                    reminders_sent=sent,
                    owed=owed,
                    at=stamp,
                )
            except StaleVersion:
                raise Refusal(STALE_WORDS) from None
            except StoreError as error:
                log.warning("game %s: an undo could not be saved: %s", row.id, error)
                trouble = error
                raise NotSaved(
                    lambda t: t.gettext(
                        "Nothing was taken back: I could not save it just now ({why}). "
                        "Please try again in a moment.",
                        why=why_not_saved(trouble, t),
                    )
                ) from error
            self.delivery.forget(row.id)
            log.info(
                "game %s channel %s: %s took back %r (version %s -> %s, epoch %s)",
                row.id,
                row.play_channel_id,
                user_id,
                taken,
                row.version,
                earlier.version,
                row.undo_epoch + 1,
            )
            new_row = replace(
                row,
                state_json=state_json,
                version=earlier.version,
                undo_epoch=row.undo_epoch + 1,
                updated_at=stamp,
                turn_events=told,
                prompt_version=None,
            )
            outcome = Outcome(
                row=new_row,
                game=earlier,
                actor=user_id,
                events=[],
                text=text,
                picture=b"",
                previous_message_id=row.message_id,
                awaited_changed=False,
            )
            return await self._announce(outcome)

    @staticmethod
    def _moves_so_far(game: Game, player_id: str) -> list[Event]:
        """The events of `player_id`'s moves at the end of the game's log (what their
        prompt message tells while they go on deciding), replayed from the record."""
        log_ = game.log
        start = len(log_)
        while start > 0 and log_[start - 1][0] == player_id:
            start -= 1
        if start == len(log_):
            return []
        forced = set(game.auto)
        replayed = Game.replay_start(game.record())
        events: list[Event] = []
        for index, (pid, notation) in enumerate(log_):
            step = replayed.replay_action(pid, notation)
            if index == start - 1:
                # the forced steps after another player's move are the player's own
                marks = [i for i, event in enumerate(step) if event.kind == "forced"]
                events += step[marks[0] :] if marks else []
            elif index >= start:
                chosen = index not in forced and not notation.startswith("spin ")
                events += words.with_silent_action(step, pid, notation) if chosen else step
        return events

    async def _announce(self, outcome: Outcome) -> Outcome:
        """Deliver what the game owes now (this version's message last); the caller holds
        the game's lock. The outcome says whether it was shown, and if not, why."""
        try:
            report = await self.delivery.deliver_held(outcome.row, outcome.game)
        except Exception:
            # the move is saved and its message owed: the delivery task tries again
            log.exception(
                "game %s channel %s: delivering version %s failed",
                outcome.row.id,
                outcome.row.play_channel_id,
                outcome.version,
            )
            report = Report(outcome.row)
        outcome = self._reported(outcome, report)
        await self.hooks.announced(outcome)
        if outcome.row.status not in OPEN_STATUSES:
            await self.game_over(outcome.row)
        return outcome

    async def game_over(self, row: GameRow) -> None:
        """Tell the `after_game_over` hooks that `row`'s game, under way, has ended; a
        hook that fails is logged and skipped."""
        await self.hooks.game_over(row)

    @staticmethod
    def _reported(outcome: Outcome, report: Report) -> Outcome:
        """`outcome` as its delivery went: shown (where, with what left out) or not (why)."""
        posted: Posted | None = report.posted.get(outcome.version)
        if posted is None:
            problem = report.problem.words if report.problem is not None else ""
            return replace(
                outcome,
                row=report.row,
                announced=False,
                problem=problem or NOT_POSTED_YET.id,
                problem_words=report.problem if problem else None,
            )
        return replace(
            outcome,
            row=report.row,
            message_id=posted.message_id,
            announced=True,
            notes=posted.notes,
        )

    async def repost(self, target: int | GameRow, *, ping: bool = True, note: str = "") -> Outcome:
        """Announce the current state again (a fresh prompt; the old one goes stale),
        after whatever the game still owes. `ping`: mention the awaited player (a prompt
        that was never shown); not when shown again on demand (`/montana board`). `note`:
        words said first (why)."""
        row = await self.row_of(target)
        async with self.lock(row.id):
            row = self.delivery.latest(row)
            game = self.game_of(row)
            text = words.describe(
                events_of(row.turn_events.get("header", []))
                + events_of(row.turn_events.get("own", [])),
                row.names,
                t=game_words(row),
            )
            text = f"{note}\n{text}" if note and text else note or text
            owed = [
                OwedMessage(POST, row.version, {"text": text, "handover": ping, "repost": True})
            ]
            try:
                await self.store.owe(row.id, owed)
            except StoreError as error:
                failure = error
                raise Refusal(
                    lambda t: t.gettext(
                        "I could not post the game just now ({why}); please try again in a moment.",
                        why=why_not_saved(failure, t),
                    )
                ) from error
            outcome = Outcome(
                row=row,
                game=game,
                actor=None,
                events=[],
                text=text,
                picture=b"",
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
]
