"""The lobby, the game flow's part before and around the game: a lobby opened, players
seated and leaving (the last human out abandons it; an opener who left hands their powers
to the next human seated), AI seats added and removed, the language of its public
messages, the start (seat order drawn, the game dealt, the first prompt announced) and the
abandon. The server's limits check each lobby and seat through the `before_seat` and
`before_start` hooks (`bot.core.play.hooks`).
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from bot.core.delivery.outbox import Outcome
from bot.core.play.announcing import Announcing
from bot.core.play.games import Games, events_json
from bot.core.play.hooks import Hooks
from bot.core.store import (
    ABANDONED,
    ACTIVE,
    DEFAULT_AI_LEVEL,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    ChannelBusy,
    GameRow,
    Seat,
    StaleVersion,
    StoreError,
    ai_seat_id,
    ai_seat_number,
    now,
)
from bot.core.wording import words
from bot.core.wording.refusals import NotSaved, Refusal, channel_busy, game_words, why_not_saved
from i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    Message,
    Translator,
    is_language,
    translatable,
    translatable_plural,
)
from rules import Game

log = logging.getLogger(__name__)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_AI_SEATS = 3
ALREADY_STARTED = translatable("This game has already started.")
ALREADY_OVER = translatable("This game is already over.")
ADD_AI_ONLY = translatable("Only the player who opened the game can add AI players.")
REMOVE_AI_ONLY = translatable("Only the player who opened the game can remove AI players.")


def opener_among(players: Sequence[Seat], opener: str) -> str:
    """The lobby's opener once `players` are seated: the same, or, when they have left,
    the first human seated after them (issue 21.5)."""
    if any(seat.user_id == opener for seat in players):
        return opener
    return next((seat.user_id for seat in players if not seat.is_ai), opener)


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


class Lobby:
    """Lobbies and seats, the start and the abandon."""

    def __init__(
        self, games: Games, announcing: Announcing, hooks: Hooks, seeds: random.Random
    ) -> None:
        self.games = games
        self.store = games.store
        self.announcing = announcing
        self.hooks = hooks
        self._seeds = seeds

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

        row = await self.games.row_of(game)
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
        row = await self.games.row_of(game)
        async with self.games.lock(row.id):
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
                row = await self.games.get(row.id)  # someone else joined or left meanwhile

    async def check_start(self, game: int | GameRow, user_id: str) -> GameRow:
        """Refuse a start that cannot happen, before the front end prepares for it
        (given a row already read, nothing is read again)."""
        row = await self.games.row_of(game)
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
        async with self.games.lock(row.id):
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
            owed = await self.announcing.owed(
                dealt, text, actor=None, handover=True, turn_player_before=None
            )
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
                row = await self.announcing.presence.stand_in_new_game(row)
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
            return await self.announcing.announce(outcome)

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
        row = await self.games.row_of(game)
        async with self.games.lock(row.id):
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
                await self.hooks.game_over(ended)
            return ended


__all__ = [
    "ALREADY_OVER",
    "ALREADY_STARTED",
    "MAX_AI_SEATS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Lobby",
    "ai_seat",
    "opener_among",
    "with_ai_seat",
    "without_ai_seat",
]
