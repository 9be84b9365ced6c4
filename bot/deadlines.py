"""Turn and auction deadlines: reminders, auction timeouts and votes to end a stalled game.

Each game has a turn deadline and an auction-answer deadline (seconds, in its row).
The clock of the awaited decision starts at the time of the game's last move (the
move log's `at` for the current version), so nothing needs scheduling: every due
time is computed from the database. What was already done for the current version
(`reminders.sent`) is stored too, so a restart neither forgets nor repeats a step.

For the decision awaited now, with T its deadline (auction or turn):
- at T/2 the awaited player is mentioned again, once;
- at T an auction answer (`pending.kind == "bid"`) is answered `pass` on their behalf
  through the service, like a button press (said in the channel, marked in the log);
- at T, 2T, 3T ... any other decision gets an "overdue" reminder whose button lets the
  other players vote to end the game; a majority of them ends it, and the standings
  at that moment are stored as its unfinished result (status `ended`).

One `DeadlineDriver` task drives all games: it sleeps until the next due time (or
`poll_seconds`, whichever is sooner, or until woken after a move). Its clock is
injectable, so tests move time instead of waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord import app_commands

from rules import Game

from . import logs, words
from .commands import channel_id_of, montana, tracked
from .notify import Notifier, message_link
from .service import GameService, Outcome, Refusal
from .store import ACTIVE, ENDED, LOBBY, OPEN_STATUSES, GameRow, Store
from .views import Components, bot_of, reply

log = logging.getLogger(__name__)

HOUR = 3600
DEFAULT_TURN_SECONDS = 48 * HOUR
DEFAULT_AUCTION_SECONDS = 24 * HOUR
DEFAULT_POLL_SECONDS = 60.0
MIN_SLEEP_SECONDS = 1.0
"""Never spin: a step is recorded before it is taken, so the next due time moves on."""
# The longest deadline is 720 h (30 days). The command options spell the number out:
# discord.py reads their annotations in the namespace of `bot.commands` (`tracked`).
NO_PINGS = discord.AllowedMentions.none()

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def parse_time(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def period_text(seconds: int) -> str:
    """48 h, 90 min, 1 h 30 min."""
    hours, rest = divmod(int(seconds), HOUR)
    minutes = rest // 60
    if hours and minutes:
        return f"{hours} h {minutes} min"
    return f"{hours} h" if hours else f"{max(minutes, 1)} min"


@dataclass(frozen=True)
class Deadlines:
    turn_seconds: int = DEFAULT_TURN_SECONDS
    auction_seconds: int = DEFAULT_AUCTION_SECONDS

    def describe(self) -> str:
        return (
            f"turn deadline {period_text(self.turn_seconds)}, "
            f"city auction answers {period_text(self.auction_seconds)}"
        )


@dataclass(frozen=True)
class Watch:
    """An active game's clock, as stored."""

    game_id: int
    version: int
    moved_at: datetime
    deadlines: Deadlines
    sent: int
    """Steps already taken for this version (0: none, 1: the half-time reminder, ...)."""


@dataclass(frozen=True)
class Awaited:
    player: str
    kind: str


def timestamp(moment: datetime) -> str:
    """A Discord timestamp: each reader sees it in their own time zone, e.g. "in 3 hours"."""
    return f"<t:{int(moment.timestamp())}:R>"


def deadline_of(watch: Watch, kind: str) -> datetime:
    period = watch.deadlines.auction_seconds if kind == "bid" else watch.deadlines.turn_seconds
    return watch.moved_at + timedelta(seconds=period)


def due_at(watch: Watch, kind: str) -> datetime:
    """When the next step for this decision is due."""
    period = watch.deadlines.auction_seconds if kind == "bid" else watch.deadlines.turn_seconds
    offset = period / 2 if watch.sent == 0 else period * watch.sent
    return watch.moved_at + timedelta(seconds=offset)


# ------------------------------------------------------------------ the store's part


class DeadlineStore:
    """The deadline tables (migration 3 of `bot.store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def deadlines(self, game_id: int) -> Deadlines:
        rows = await self.store.query(
            "SELECT turn_seconds, auction_seconds FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            return Deadlines()
        return Deadlines(int(rows[0]["turn_seconds"]), int(rows[0]["auction_seconds"]))

    async def set_deadlines(self, game_id: int, deadlines: Deadlines) -> None:
        await self.store.transaction(
            [
                (
                    "UPDATE games SET turn_seconds = ?, auction_seconds = ? WHERE id = ?",
                    (deadlines.turn_seconds, deadlines.auction_seconds, game_id),
                )
            ]
        )

    async def watches(self) -> list[Watch]:
        rows = await self.store.query(
            "SELECT g.id, g.version, g.turn_seconds, g.auction_seconds, g.updated_at, "
            "(SELECT at FROM moves m WHERE m.game_id = g.id AND m.version = g.version) "
            "AS moved_at, "
            "r.version AS reminded_version, r.sent AS sent "
            "FROM games g LEFT JOIN reminders r ON r.game_id = g.id "
            "WHERE g.status = ?",
            (ACTIVE,),
        )
        return [
            Watch(
                game_id=int(r["id"]),
                version=int(r["version"]),
                moved_at=parse_time(r["moved_at"] or r["updated_at"]),
                deadlines=Deadlines(int(r["turn_seconds"]), int(r["auction_seconds"])),
                sent=int(r["sent"]) if r["reminded_version"] == r["version"] else 0,
            )
            for r in rows
        ]

    async def record_step(self, game_id: int, version: int, sent: int, at: datetime) -> None:
        await self.store.transaction(
            [
                (
                    "INSERT INTO reminders (game_id, version, sent, last_at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                    "sent = excluded.sent, last_at = excluded.last_at",
                    (game_id, version, sent, at.isoformat(timespec="seconds")),
                )
            ]
        )

    async def mark_move(self, game_id: int, version: int, note: str) -> None:
        await self.store.transaction(
            [
                (
                    "UPDATE moves SET note = ? WHERE game_id = ? AND version = ?",
                    (note, game_id, version),
                )
            ]
        )

    async def add_vote(self, game_id: int, version: int, voter: str, at: datetime) -> list[str]:
        """Record `voter`'s vote for this state; the voters of this state so far."""
        await self.store.transaction(
            [
                (
                    "INSERT INTO end_votes (game_id, version, voter, at) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, voter) DO UPDATE SET version = excluded.version, "
                    "at = excluded.at",
                    (game_id, version, voter, at.isoformat(timespec="seconds")),
                )
            ]
        )
        rows = await self.store.query(
            "SELECT voter FROM end_votes WHERE game_id = ? AND version = ? ORDER BY at, voter",
            (game_id, version),
        )
        return [str(r["voter"]) for r in rows]

    async def end_game(self, game_id: int, version: int, result: dict[str, Any]) -> bool:
        """Active -> ended with `result` stored, if the game is still at `version`."""
        (count,) = await self.store.transaction(
            [
                (
                    "UPDATE games SET status = ?, result = ?, updated_at = ? "
                    "WHERE id = ? AND version = ? AND status = ?",
                    (
                        ENDED,
                        json.dumps(result),
                        utcnow().isoformat(timespec="seconds"),
                        game_id,
                        version,
                        ACTIVE,
                    ),
                )
            ]
        )
        return count > 0


def result_record(game: Game, voters: list[str]) -> dict[str, Any]:
    """What is stored for a game ended early: the ranking at that moment."""
    result = game.result()
    return {
        "finished": result.finished,
        "reason": "vote",
        "voters": voters,
        "awaited": game.awaiting,
        "ranking": [
            {
                "player": s.player,
                "place": s.place,
                "settlements": s.settlements,
                "cows_and_canteens": s.cows_and_canteens,
                "holdings": s.holdings,
            }
            for s in result.ranking
        ],
    }


@dataclass(frozen=True)
class VoteOutcome:
    voters: list[str]
    needed: int
    ended: bool
    voter_name: str


# ------------------------------------------------------------------ the driver


class DeadlineDriver:
    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        clock: Clock = utcnow,
        poll_seconds: float = DEFAULT_POLL_SECONDS,
    ) -> None:
        self.client = client
        self.service = service
        self.db = DeadlineStore(service.store)
        self.clock = clock
        self.poll_seconds = poll_seconds
        self._awaited: dict[int, tuple[int, Awaited | None]] = {}
        self._pass = asyncio.Lock()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # ---- the task

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="deadlines")

    async def stop(self) -> None:
        """Stop the task; a pass already running finishes first."""
        task, self._task = self._task, None
        if task is None:
            return
        async with self._pass:  # let a step in progress complete
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def wake(self) -> None:
        """Recompute the next due time (after a move or a settings change)."""
        self._wake.set()

    async def set_hours(
        self, game_id: int, turn_hours: int | None, auction_hours: int | None
    ) -> Deadlines:
        """Change a game's deadlines (None keeps one); returns them as they are now."""
        current = await self.db.deadlines(game_id)
        new = Deadlines(
            turn_seconds=turn_hours * HOUR if turn_hours is not None else current.turn_seconds,
            auction_seconds=(
                auction_hours * HOUR if auction_hours is not None else current.auction_seconds
            ),
        )
        await self.db.set_deadlines(game_id, new)
        self.wake()
        return new

    async def on_announced(self, outcome: Outcome) -> None:
        """The service's hook: a move restarts the clock of the awaited decision."""
        self.wake()

    async def _run(self) -> None:
        while True:
            delay = self.poll_seconds
            try:
                await self.run_due()
                upcoming = await self.next_due()
                if upcoming is not None:
                    delay = min(delay, (upcoming - self.clock()).total_seconds())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("checking the deadlines failed; trying again later")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(delay, MIN_SLEEP_SECONDS))

    # ---- what is due

    async def awaited(self, game_id: int, version: int) -> Awaited | None:
        cached = self._awaited.get(game_id)
        if cached is not None and cached[0] == version:
            return cached[1]
        row = await self.service.store.get(game_id)
        found: Awaited | None = None
        if row is not None and row.state_json is not None and row.version == version:
            game = GameService.game_of(row)
            if game.awaiting is not None:
                found = Awaited(game.awaiting, game.pending.kind)
        self._awaited[game_id] = (version, found)
        return found

    async def due_text(self, row: GameRow) -> str:
        """ "Ana's move is due in 5 hours." for the game's awaited decision ("" if none)."""
        watch = next((w for w in await self.db.watches() if w.game_id == row.id), None)
        if watch is None:
            return ""
        awaited = await self.awaited(row.id, watch.version)
        if awaited is None:
            return ""
        name = row.names.get(awaited.player, "The awaited player")
        return f" {name}'s move is due {timestamp(deadline_of(watch, awaited.kind))}."

    async def next_due(self) -> datetime | None:
        times = []
        for watch in await self.db.watches():
            awaited = await self.awaited(watch.game_id, watch.version)
            if awaited is not None:
                times.append(due_at(watch, awaited.kind))
        return min(times, default=None)

    async def run_due(self) -> int:
        """Take every step due now; returns how many were taken."""
        taken = 0
        async with self._pass:
            for watch in await self.db.watches():
                awaited = await self.awaited(watch.game_id, watch.version)
                if awaited is None:
                    continue
                now = self.clock()
                if now < due_at(watch, awaited.kind):
                    continue
                row = await self.service.store.get(watch.game_id)
                if row is None or row.version != watch.version or row.status != ACTIVE:
                    continue
                with logs.game_scope(row.id, row.play_channel_id):
                    try:
                        await self._step(row, watch, awaited, now)
                    except Exception:
                        # one game's trouble must not hold up the others' deadlines
                        log.exception("a deadline step failed")
                        continue
                taken += 1
        return taken

    async def _step(self, row: GameRow, watch: Watch, awaited: Awaited, now: datetime) -> None:
        bid = awaited.kind == "bid"
        period = watch.deadlines.auction_seconds if bid else watch.deadlines.turn_seconds
        elapsed = (now - watch.moved_at).total_seconds()
        overdue = elapsed >= period
        # after a long outage, catch up without sending every missed reminder
        sent = int(elapsed // period) + 1 if overdue else 1
        await self.db.record_step(row.id, row.version, max(sent, watch.sent + 1), now)
        game = self.service.game_of(row)
        if bid and overdue:
            await self._pass_for(row, game, awaited.player, period)
        elif overdue:
            await self._remind(row, watch, game, awaited.player, period, overdue=True)
        else:
            await self._remind(row, watch, game, awaited.player, period, overdue=False)

    # ---- the steps

    def _link(self, row: GameRow) -> str:
        if row.message_id is None:
            return ""
        url = message_link(row.guild_id, row.play_channel_id, row.message_id)
        return f" [Jump to the game]({url})."

    async def _remind(
        self, row: GameRow, watch: Watch, game: Game, player: str, period: int, *, overdue: bool
    ) -> None:
        line = words.prompt_line(game, lambda pid: f"<@{pid}>")
        view: discord.ui.View | None = None
        if not overdue:
            bid = game.pending.kind == "bid"
            due = timestamp(deadline_of(watch, game.pending.kind))
            text = f"⏰ Reminder — {line} Half of the {period_text(period)} deadline has passed" + (
                f"; if no answer comes, I pass for you {due}." if bid else f" (due {due})."
            )
        else:
            text = (
                f"⏰ Overdue — {line} The {period_text(period)} deadline has passed. "
                "The other players may now vote to end the game; the standings at that "
                "moment become its (unfinished) result."
            )
            view = Components()
            view.add_item(EndVoteButton(row.id, row.version))
        text += self._link(row)
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(int(player))]
                ),
                view=view if view is not None else discord.utils.MISSING,
            )
        except discord.HTTPException as error:
            log.warning("could not post a deadline reminder: %s", error)
        log.info(
            "reminded %s (%s, version %s)", player, "overdue" if overdue else "half", row.version
        )
        await Notifier(self.client, self.service.store).send_dm(
            player,
            row,
            ("Overdue: " if overdue else "Reminder: ") + words.waiting_for(game, row.names),
        )

    async def _pass_for(self, row: GameRow, game: Game, player: str, period: int) -> None:
        name = row.names.get(player, "The awaited player")
        note = (
            f"⏰ {name} did not answer the city auction within {period_text(period)}, "
            "so I passed for them."
        )
        try:
            await self.service.play(row.id, player, "pass", expected_version=row.version, note=note)
        except Refusal as refusal:
            log.info("no pass on timeout: %s", refusal.message)
            return
        await self.db.mark_move(row.id, row.version + 1, "deadline")
        log.info("passed for %s in the city auction (deadline, version %s)", player, row.version)

    # ---- votes to end

    async def vote(
        self, game_id: int, voter: str, version: int | None, *, channel_id: int | None = None
    ) -> VoteOutcome:
        """`voter` votes to end the game (`version`: the state the button was made for;
        `channel_id`: where it was pressed, which must be the game's)."""
        async with self.service.lock(game_id):
            row = await self.service.get(game_id)
            if channel_id is not None and channel_id not in (row.channel_id, row.play_channel_id):
                raise Refusal("That vote belongs to a game in another channel.")
            if row.status == LOBBY:
                raise Refusal("The game has not started yet.")
            if row.status != ACTIVE:
                raise Refusal("This game is over already.")
            if version is not None and version != row.version:
                raise Refusal(
                    "This vote is out of date: the game has moved on since, so it is not "
                    "overdue any more."
                )
            game = self.service.game_of(row)
            awaited = game.awaiting
            if not row.has_player(voter):
                raise Refusal("Only the players of this game can vote to end it.")
            if awaited is None:
                raise Refusal("This game is over already.")
            if voter == awaited:
                raise Refusal(
                    "You are the player the game is waiting for: make your move, or ask "
                    "the creator to `/montana abandon` the game."
                )
            deadlines = await self.db.deadlines(row.id)
            watch = next((w for w in await self.db.watches() if w.game_id == row.id), None)
            period = (
                deadlines.auction_seconds if game.pending.kind == "bid" else deadlines.turn_seconds
            )
            if watch is None or self.clock() < watch.moved_at + timedelta(seconds=period):
                raise Refusal(
                    "A vote to end the game is possible only once the awaited player is "
                    f"overdue ({period_text(period)} without a move). "
                    + words.waiting_for(game, row.names)
                )
            voters = await self.db.add_vote(row.id, row.version, voter, self.clock())
            others = [s.user_id for s in row.players if s.user_id != awaited]
            needed = len(others) // 2 + 1
            counted = [v for v in voters if v in others]
            if len(counted) < needed:
                return VoteOutcome(counted, needed, False, row.names.get(voter, "A player"))
            if not await self.db.end_game(row.id, row.version, result_record(game, counted)):
                raise Refusal("The game has moved on meanwhile; the vote is void.")
            log.info("ended by a vote of %s while %s was overdue", counted, awaited)
            await self._announce_end(row, game, counted, awaited)
            return VoteOutcome(counted, needed, True, row.names.get(voter, "A player"))

    async def _announce_end(
        self, row: GameRow, game: Game, voters: list[str], awaited: str
    ) -> None:
        names = row.names
        who = " and ".join(names.get(v, v) for v in voters)
        text = (
            f"The game was ended by a vote of {who}: {names.get(awaited, awaited)} "
            "was overdue. It is recorded as unfinished, with the standings at this moment.\n"
            + words.results(game, names)
        )
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        try:
            await channel.send(text[:2000], allowed_mentions=NO_PINGS)
            if row.message_id is not None:
                await channel.get_partial_message(row.message_id).edit(view=None)
        except discord.HTTPException as error:
            log.warning("could not post the end of the game: %s", error)


def driver_of(interaction: discord.Interaction[Any]) -> DeadlineDriver:
    return bot_of(interaction).deadlines


class EndVoteButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mv:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9})",
):
    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Vote to end the game",
                style=discord.ButtonStyle.danger,
                custom_id=f"mv:{game_id}:{version}",
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> EndVoteButton:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            async with bot_of(interaction).busy():
                outcome = await driver_of(interaction).vote(
                    self.game_id,
                    str(interaction.user.id),
                    self.version,
                    channel_id=interaction.channel_id,
                )
        except Refusal as refusal:
            await reply(interaction, refusal.message)
            return
        await answer_vote(interaction, outcome)


async def answer_vote(interaction: discord.Interaction[Any], outcome: VoteOutcome) -> None:
    """A vote short of the majority is said in the channel (no pings); the deciding
    vote's public message is the end of the game itself."""
    if outcome.ended:
        await reply(
            interaction, "Your vote is counted, and it ends the game: the standings are posted."
        )
        return
    await interaction.response.send_message(
        f"{outcome.voter_name} votes to end the game: {len(outcome.voters)} of the "
        f"{outcome.needed} votes needed.",
        allowed_mentions=NO_PINGS,
    )


# ------------------------------------------------------------------ commands


def may_manage(interaction: discord.Interaction[Any], row: GameRow) -> bool:
    return row.creator_id == str(interaction.user.id) or interaction.permissions.manage_channels


@montana.command(name="settings", description="Show or change this game's deadlines")
@app_commands.describe(
    turn_hours="Hours a player has for a turn (default 48)",
    auction_hours="Hours to answer the city auction before passing (default 24)",
)
@tracked
async def settings_command(
    interaction: discord.Interaction[Any],
    turn_hours: app_commands.Range[int, 1, 720] | None = None,
    auction_hours: app_commands.Range[int, 1, 720] | None = None,
) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    logs.bind_game(row.id, row.play_channel_id)
    current = await driver.db.deadlines(row.id)
    if turn_hours is None and auction_hours is None:
        due = await driver.due_text(row) if row.status == ACTIVE else ""
        await reply(interaction, f"This game's deadlines: {current.describe()}.{due}")
        return
    if not may_manage(interaction, row):
        raise Refusal(
            "Only the player who opened the game, or someone allowed to manage this "
            f"channel, can change its deadlines. Now: {current.describe()}."
        )
    if row.status not in OPEN_STATUSES:
        raise Refusal("This game is over.")
    new = await driver.set_hours(row.id, turn_hours, auction_hours)
    log.info("deadlines set by %s: %s", interaction.user.id, new)
    await interaction.response.send_message(
        f"{interaction.user.display_name} set the deadlines: {new.describe()}.",
        allowed_mentions=NO_PINGS,
    )


@montana.command(name="vote-end", description="Vote to end a game whose awaited player is overdue")
@tracked
async def vote_end(interaction: discord.Interaction[Any]) -> None:
    driver = driver_of(interaction)
    row = await driver.service.game_here(channel_id_of(interaction))
    outcome = await driver.vote(row.id, str(interaction.user.id), None)
    await answer_vote(interaction, outcome)


__all__ = [
    "DEFAULT_AUCTION_SECONDS",
    "DEFAULT_TURN_SECONDS",
    "DeadlineDriver",
    "DeadlineStore",
    "Deadlines",
    "EndVoteButton",
    "period_text",
]
