"""Heads-up and away (issue 11 points 4 and 5), free of Discord.

**Heads-up.** A player who opted in (`/montana me notify heads_up:`) is told when the
player seated just before them starts a turn, so they know they are next: a line in the
game's thread mentioning them alone, or a direct message if their notify mode is DM.
What counts (`heads_up_for`):

* a turn starts when the engine's turn player changes: a move ended the turn of the
  player before (or the setup, for the start player's first turn). A canteen turn is
  the same player's turn again and tells nobody; the setup spins are no turns;
* never in a 2-player game: the player after the one starting is the one who has just
  ended their own turn, so a heads-up would tell them nothing;
* never to the player the game awaits at that moment (they are pinged anyway), nor when
  the turn starting is the game's last (the final round's last seat), nor to a player
  who is away.

It is owed by the move that started the turn, saved with it (the outbox, `NOTICE`), and
delivered exactly once by `bot.core.delivery.outbox`, also after a restart; one still owed
when that turn is over (or when the player is awaited by then) is dropped.

**Away.** `/montana me away` marks a player away from all their games for up to 14
days (`MAX_AWAY`); `/montana me back` (or the end of that time) ends it. While away,
the deadlines of the decisions awaited from them are paused (`bot.core.clock.deadlines`): no
half-time reminder, no overdue, no auction pass. When they come back, the clock of each
decision awaited from them restarts from that moment — the moment of `/montana me back`,
or the end of the away time — with a full deadline and its reminders counted afresh.
A decision handed to them while away waits the same way. Moving while away is allowed
and changes nothing (the next decision waits too). The picture notes "away until 3 Dec"
(the date in UTC) by their name; the prompt and `/montana status` say the moment with a
Discord timestamp, which each reader sees in their own time zone. The other players of
each of their games under way are told once, by a line in the game's thread (no ping),
when they go away (or change the end) and when they come back.

**The AI while away.** A player may choose, with the away (`/montana me away ai:`),
that the AI plays for them meanwhile (`AWAY_AI`; the default `AWAY_PAUSE` only pauses).
Then the AI takes their seat in each of their games under way and in each game that
starts meanwhile (`stand_in`): the seat is taken over as by a vote (`GameRow.taken_over`,
"Ana (AI)" in the words, "away until 3 Dec, AI plays" on the picture) and recorded in
`away_seats`, so that the end of the away — `/montana me back`, its time up, or a new
away without the AI — gives back exactly those seats and never one the other players
voted over. A seat the player takes back meanwhile (`/montana me reclaim`) stays theirs
until the away ends; their deadlines stay paused, as in any away. The hand-over is
written after the away itself and put right again at start-up (`stand_in_everyone`), so
a crash between the two loses nothing; and a game that starts while the away is written
is looked at by both (the away reads the games after writing itself, the start reads
the aways after writing itself), so neither misses the other.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.core.delivery.notify import NotifyPrefs
from bot.core.store import (
    ACTIVE,
    AWAY_AI,
    AWAY_PAUSE,
    NOTICE,
    Away,
    GameRow,
    OwedMessage,
    Store,
    StoreError,
    moment_of,
)
from bot.core.wording import words
from i18n import Translator
from render.words import ENGLISH
from rules import Game

log = logging.getLogger(__name__)

MAX_AWAY = timedelta(days=14)
HAND_OVER_TRIES = 3
"""How often the AI's hands on a player's seats are put right when a game changes
meanwhile (each try reads the games again)."""
HEADS_UP = "heads_up"
"""A notice: the player before you has started their turn."""
WENT_AWAY = "away"
"""A notice: a player is away until a moment (or has changed that moment)."""
CAME_BACK = "back"
"""A notice: a player is back."""
YOUR_TURN = "your_turn"
"""A notice: the move's post did not ping the awaited player, inside their quiet hours
(`bot.core.clock.hours`); it is owed for the start of their active hours instead."""


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Notice:
    """A line for the players that is no move, as owed in the outbox."""

    kind: str
    """`HEADS_UP`, `WENT_AWAY` or `CAME_BACK`."""
    user: str
    """Heads-up: the player told (who is next). Away and back: the player away."""
    turn_player: str | None = None
    """Heads-up: whose turn has started."""
    turn: int | None = None
    """Heads-up: that turn's number (`Game.turn_number`). Your turn: the game's version."""
    until: datetime | None = None
    """Away: when the away time ends."""
    dm: bool = False
    """Heads-up: by direct message instead of in the game's thread."""
    ai: bool = False
    """Away: the AI plays for them meanwhile. Back: the AI gives their seat back."""

    def body(self) -> dict[str, Any]:
        return {
            "notice": self.kind,
            "user": self.user,
            "turn_player": self.turn_player,
            "turn": self.turn,
            "until": self.until.isoformat() if self.until is not None else None,
            "dm": self.dm,
            "ai": self.ai,
        }

    @classmethod
    def of(cls, body: Mapping[str, Any]) -> Notice:
        until = body.get("until")
        turn = body.get("turn")
        return cls(
            kind=str(body.get("notice", "")),
            user=str(body.get("user", "")),
            turn_player=body.get("turn_player"),
            turn=int(turn) if turn is not None else None,
            until=moment_of(until) if until else None,
            dm=bool(body.get("dm")),
            ai=bool(body.get("ai")),
        )

    def void_reason(self, row: GameRow, game: Game) -> str | None:
        """Why this notice, still owed, is not to be delivered any more (None: it is)."""
        if row.status != ACTIVE:
            return "the game is over"
        if self.kind == YOUR_TURN:
            if row.version != self.turn or game.awaiting != self.user:
                return "the game has moved on"
            if row.ai_plays(self.user):
                return "the AI plays their seat"
        if self.kind == HEADS_UP:
            if game.turn_number != self.turn or game.turn_player != self.turn_player:
                return "that turn is over"
            if game.awaiting == self.user:
                return "they are awaited now"
            if row.ai_plays(self.user):
                return "the AI plays their seat"
        return None

    @property
    def replaces_earlier(self) -> tuple[str, str, int | None] | None:
        """What an earlier notice must share for this one to make it void (a heads-up for
        the same player and turn, owed twice after a move was taken back and made again)."""
        return (self.kind, self.user, self.turn) if self.kind in (HEADS_UP, YOUR_TURN) else None


def heads_up_for(game: Game, turn_player_before: str | None) -> tuple[str, str] | None:
    """(player to tell, player whose turn has started) when reaching `game` from a state
    whose turn player was `turn_player_before` starts a turn that owes a heads-up; None
    otherwise (see the module's docstring). Opt-in and away are the caller's to check."""
    if game.is_over or game.in_setup or len(game.players) < 3:
        return None
    starting = game.turn_player
    if starting == turn_player_before:
        return None  # the same turn goes on, or a canteen turn of the same player
    if game.final_round and game.turn == game.last_seat:
        return None  # the game ends with this turn: nobody comes next
    following = game.players[(game.turn + 1) % len(game.players)].id
    if following == game.awaiting:
        return None
    return following, starting


def away_length(days: int, hours: int) -> timedelta:
    """The away time asked for; `ValueError` with words for the player (in English;
    `away_refusal` says them in a language) when it is none or longer than `MAX_AWAY`."""
    length = _asked(days, hours)
    if days < 0 or hours < 0 or length <= timedelta(0) or length > MAX_AWAY:
        raise ValueError(away_refusal(days, hours))
    return length


def _asked(days: int, hours: int) -> timedelta:
    """The length asked for; a count forged beyond any calendar (issue 35 point 6) is
    kept within a million days or hours, far beyond `MAX_AWAY`, either way."""
    bound = 10**6
    return timedelta(days=max(-bound, min(days, bound)), hours=max(-bound, min(hours, bound)))


def away_refusal(days: int, hours: int, t: Translator = ENGLISH) -> str:
    """Why an away time was refused (none asked for, or longer than 14 days)."""
    length = _asked(days, hours)
    if days < 0 or hours < 0 or length <= timedelta(0):
        return t.gettext(
            "Say how long you are away: {/me away} with {/me away:days} or {/me away:hours} "
            "(for example {/me away:days=3}), at most 14 days."
        )
    return t.gettext(
        "You can be away for at most 14 days at a time, not {length}. Set 14 days now and "
        "extend it later with {/me away} again.",
        length=words.length_text(length, t),
    )


def seat_notes(away: Mapping[str, Away], row: GameRow, t: Translator = ENGLISH) -> dict[str, str]:
    """What the picture of `row` shows by each away player's name: "away until 3 Dec",
    and ", AI plays" when the AI plays their seat there meanwhile (for their away, or
    handed over by a vote)."""
    return {
        player: words.away_note(entry.until, t, ai=player in row.taken_over)
        for player, entry in away.items()
    }


def held_for_away(
    games: Sequence[GameRow], records: Mapping[int, bool], user_id: str
) -> tuple[GameRow, ...]:
    """The games of `games` whose seat the AI still holds for `user_id`'s away (as the
    store's `away_seats` records it: handed over, not taken back): those its end gives
    back."""
    return tuple(row for row in games if records.get(row.id) is False and user_id in row.taken_over)


@dataclass(frozen=True)
class AwayChange:
    """A player gone away or come back, and the games whose players are told."""

    user_id: str
    away: Away | None
    """The away now in force; None: they are back."""
    games: tuple[GameRow, ...]
    paused: tuple[GameRow, ...] = ()
    """The games awaiting a decision of theirs: paused (away) or restarted (back)."""
    handed: tuple[GameRow, ...] = ()
    """Away: the games whose seat the AI took now. Back: those it gave back."""


class Presence:
    """Heads-ups owed by moves, and players going away and coming back (in the store)."""

    def __init__(
        self,
        store: Store,
        *,
        load_game: Callable[[GameRow], Game],
        deliver: Callable[[int], Awaitable[object]] | None = None,
    ) -> None:
        self.store = store
        self.load_game = load_game
        self.deliver = deliver
        """Delivers a game's owed messages now (the service's delivery)."""
        self.prefs = NotifyPrefs(store)
        self.after_hand_over: list[Callable[[int], object]] = []
        """Called with each game whose seat an away handed to the AI (the AI players'
        wake-up: the game may wait for that seat)."""

    # ---- reading

    async def away_among(
        self, user_ids: Sequence[str], at: datetime | None = None
    ) -> dict[str, Away]:
        """The players of `user_ids` away at `at` (default: now)."""
        moment = at or utcnow()
        found = await self.store.aways(list(user_ids))
        return {user: away for user, away in found.items() if away.active_at(moment)}

    async def away_in(self, row: GameRow) -> dict[str, Away]:
        """The players of a game away now."""
        return await self.away_among([seat.user_id for seat in row.players])

    async def away_of(self, user_id: str, at: datetime | None = None) -> Away | None:
        """The away of `user_id` at `at` (default: now), if they are away."""
        return (await self.away_among([user_id], at)).get(user_id)

    async def next_end(self) -> datetime | None:
        """When the earliest away time ends (None: nobody is away)."""
        return min((away.until for away in (await self.store.aways()).values()), default=None)

    # ---- heads-up

    async def heads_up_owed(self, game: Game, turn_player_before: str | None) -> list[OwedMessage]:
        """The heads-up the state `game` owes (see `heads_up_for`), for a player who
        opted in and is not away; saved with the move that reached it."""
        due = heads_up_for(game, turn_player_before)
        if due is None:
            return []
        told, starting = due
        if not await self.prefs.wants_heads_up(told) or await self.away_of(told) is not None:
            return []
        notice = Notice(
            HEADS_UP,
            told,
            turn_player=starting,
            turn=game.turn_number,
            dm=await self.prefs.wants_dm(told),
        )
        return [OwedMessage(NOTICE, game.version, notice.body())]

    # ---- away and back

    async def _awaiting(self, rows: Sequence[GameRow], user_id: str) -> tuple[GameRow, ...]:
        """The games of `rows` whose pending decision is `user_id`'s (broken ones left out)."""
        found = []
        for row in rows:
            try:
                game = self.load_game(row)
            except Exception:  # its state cannot be read (logged by the loader)
                continue
            if game.awaiting == user_id:
                found.append(row)
        return tuple(found)

    async def go_away(
        self,
        user_id: str,
        length: timedelta | None,
        at: datetime | None = None,
        *,
        ai: bool | None = None,
    ) -> AwayChange:
        """Mark `user_id` away for `length` from `at` (default: now), replacing an away
        they had set (`length` None: until the end of that one, whose `ValueError` it
        is when there is none); the players of their games under way are owed a notice.
        `ai`: whether the AI plays for them meanwhile (None: as the away replaced said,
        else not) — its seats are handed over or given back at once."""
        since = at or utcnow()
        earlier = (await self.store.aways([user_id])).get(user_id)
        if earlier is not None and not earlier.active_at(since):
            earlier = None
        if length is not None:
            until = since + length
        elif earlier is not None:
            until = earlier.until
        else:
            raise ValueError(away_refusal(0, 0))
        if ai is None:
            ai = earlier is not None and earlier.ai_plays
        away = Away(user_id, since, until, AWAY_AI if ai else AWAY_PAUSE)
        games = tuple(await self.store.active_games_of(user_id))
        notice = Notice(WENT_AWAY, user_id, until=away.until, ai=ai)
        await self.store.set_away(
            away, [(row.id, OwedMessage(NOTICE, row.version, notice.body())) for row in games]
        )
        handed = await self.stand_in(user_id, since)
        log.info(
            "%s is away until %s (%d games, the AI took %d seats)",
            user_id,
            away.until.isoformat(),
            len(games),
            len(handed),
        )
        return AwayChange(user_id, away, games, await self._awaiting(games, user_id), handed)

    async def stand_in(self, user_id: str, at: datetime | None = None) -> tuple[GameRow, ...]:
        """Put the AI's hands on `user_id`'s seats right for their away at `at` (default:
        now): while the AI plays for them, it takes their seat in each game under way
        (but one they took back meanwhile, or one the AI plays already); else it gives
        back the seats an away of theirs handed over. The games whose seat it took."""
        for _ in range(HAND_OVER_TRIES):
            away = await self.away_of(user_id, at)
            wanted = away is not None and away.ai_plays
            records = await self.store.away_seats(user_id)
            games = await self.store.active_games_of(user_id)
            take = [
                row
                for row in games
                if wanted and row.id not in records and not row.ai_plays(user_id)
            ]
            give = [] if wanted else held_for_away(games, records, user_id)
            if not take and not give:
                return ()
            if await self.store.hand_away_seats(user_id, take, give):
                for row in take:
                    log.info("game %s: the AI plays for %s while they are away", row.id, user_id)
                    for hook in self.after_hand_over:
                        hook(row.id)
                return tuple(take)
        raise StoreError(f"the seats of {user_id} kept changing; the AI's hands are not set")

    async def stand_in_new_game(self, row: GameRow) -> GameRow:
        """A game just started: the AI takes the seats of its players away with the AI
        playing for them; the row as it is then."""
        away = await self.away_among([seat.user_id for seat in row.humans])
        standing_in = [user for user, entry in away.items() if entry.ai_plays]
        if not standing_in:
            return row
        for user in standing_in:
            await self.stand_in(user)
        return replace(row, taken_over=(await self._row(row.id)).taken_over)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id)
        if row is None:
            raise StoreError(f"game {game_id} is not in the database")
        return row

    async def stand_in_everyone(self) -> None:
        """At start-up: the AI's hands right for every player away with the AI, or with
        seats an away handed over (a crash between an away and its hand-over)."""
        try:
            aways = await self.store.aways()
            recorded = await self.store.users_with_away_seats()
        except StoreError as error:
            log.warning("the AI's hands on away players' seats were not checked: %s", error)
            return
        users = {user for user, away in aways.items() if away.ai_plays}
        for user in sorted(users | set(recorded)):
            try:
                await self.stand_in(user)
            except StoreError as error:
                log.warning("the AI's hands on the seats of %s: %s", user, error)

    async def come_back(
        self, user_id: str, at: datetime | None = None, *, only_until: datetime | None = None
    ) -> AwayChange | None:
        """End `user_id`'s away at `at` (default: now): the clock of each decision awaited
        from them restarts then, the seats their away handed to the AI are theirs again,
        and their games' players are owed a notice. None when they were not away (with
        `only_until`: not away until exactly then)."""
        moment = at or utcnow()
        for _ in range(HAND_OVER_TRIES):
            games = tuple(await self.store.active_games_of(user_id))
            records = await self.store.away_seats(user_id)
            give = held_for_away(games, records, user_id)
            given = {row.id for row in give}
            awaiting = await self._awaiting(games, user_id)
            owed = [
                (
                    row.id,
                    OwedMessage(
                        NOTICE,
                        row.version,
                        Notice(CAME_BACK, user_id, ai=row.id in given).body(),
                    ),
                )
                for row in games
            ]
            ended = await self.store.end_away(
                user_id,
                moment,
                only_until=only_until,
                restarts=[(row.id, row.version) for row in awaiting],
                owed=owed,
                give_back=give,
            )
            if ended:
                log.info(
                    "%s is back (%d games, %d clocks restarted, %d seats given back)",
                    user_id,
                    len(games),
                    len(awaiting),
                    len(give),
                )
                return AwayChange(user_id, None, games, awaiting, give)
            away = (await self.store.aways([user_id])).get(user_id)
            if away is None or (only_until is not None and away.until != only_until):
                return None
        raise StoreError(f"the games of {user_id} kept changing; still away")

    async def end_due(self, at: datetime) -> list[AwayChange]:
        """End every away whose time is up by `at`, each at its own end (so the clocks
        restart from then, also when the bot was down at that moment)."""
        changes = []
        for away in (await self.store.aways()).values():
            if away.active_at(at):
                continue
            change = await self.come_back(away.user_id, away.until, only_until=away.until)
            if change is not None:
                changes.append(change)
        return changes

    async def tell(self, change: AwayChange) -> None:
        """Deliver the notices a change owes now (they stay owed, and are retried, if
        Discord fails; one game's failure does not keep the others from theirs)."""
        if self.deliver is None:
            return
        for row in change.games:
            try:
                await self.deliver(row.id)
            except Exception:
                log.exception("game %s: delivering a notice failed", row.id)


__all__ = [
    "CAME_BACK",
    "HEADS_UP",
    "MAX_AWAY",
    "WENT_AWAY",
    "YOUR_TURN",
    "AwayChange",
    "Notice",
    "Presence",
    "away_length",
    "away_refusal",
    "heads_up_for",
    "seat_notes",
]
