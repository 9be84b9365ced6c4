"""The outbox and its delivery, without Discord (`bot.core.delivery.outbox`).

A scripted front end stands for Discord: down for a while, then back; refusing a
permission; with closed DMs. What the players must end up seeing: every move's words,
once, in version order, and one current prompt; DMs even while posts fail; retries
spaced out, seldom while only people can fix it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.assembly import game_service
from bot.core.delivery.outbox import Blocked, Dropped, Outcome, Posted, TryAgain
from bot.core.play.service import GameService
from bot.core.store import GameRow, Seat, Store
from i18n import translatable, translator
from rules import Game

ANA = Seat("111", "Ana")
BEN = Seat("222", "Ben")


class TinyRenderer:
    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        return b"PNG %d" % game.version

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return b"PNG board"


@dataclass
class Discord:
    """Posts what it is given unless told to fail; remembers every post."""

    failing: Exception | None = None
    posts: list[Outcome] = field(default_factory=list)
    attempts: int = 0

    async def announce(self, outcome: Outcome) -> Posted:
        self.attempts += 1
        if self.failing is not None:
            raise self.failing
        self.posts.append(outcome)
        return Posted(1000 + len(self.posts))


@dataclass
class Inboxes:
    closed: set[str] = field(default_factory=set)
    sent: list[tuple[str, int | None]] = field(default_factory=list)
    refused: int = 0

    async def notify_turn(
        self, user_id: str, row: GameRow, game: Game, message_id: int | None, key: str
    ) -> None:
        if user_id in self.closed:
            self.refused += 1
            raise Dropped("their direct messages are closed")
        self.sent.append((user_id, message_id))


@dataclass
class Setup:
    service: GameService
    discord: Discord
    inboxes: Inboxes
    game_id: int = 0

    async def game(self) -> tuple[GameRow, Game]:
        row = await self.service.get(self.game_id)
        return row, self.service.game_of(row)

    async def move(self) -> Outcome:
        """The awaited player's first legal choice."""
        _, game = await self.game()
        assert game.awaiting is not None
        return await self.service.play(
            self.game_id, game.awaiting, game.legal_actions(game.awaiting)[0]
        )

    async def later(self, seconds: float = 0.0) -> datetime:
        """A moment past the latest retry time of what is owed (plus `seconds`)."""
        owed = await self.service.store.owed(self.game_id)
        return max(entry.next_at for entry in owed) + timedelta(seconds=1 + seconds)


def at(moment: datetime) -> Callable[[], datetime]:
    """A clock standing still at `moment`."""
    return lambda: moment


@pytest.fixture
async def setup(tmp_path: Path):
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    discord, inboxes = Discord(), Inboxes()
    service = game_service(store, renderer=TinyRenderer(), announcer=discord, notifier=inboxes)
    row = await service.open_lobby(guild_id=1, channel_id=10, thread_id=None, creator=ANA)
    await service.join(row.id, BEN)
    await service.start(row.id, ANA.user_id, seed=3)
    discord.posts.clear()  # the start's own post: the tests begin after it
    discord.attempts = 0
    yield Setup(service, discord, inboxes, row.id)
    await store.close()


async def test_after_an_outage_every_moves_words_are_posted_in_order_and_one_prompt(
    setup: Setup,
) -> None:
    setup.discord.failing = TryAgain("Discord answered 503")
    told: list[str] = []
    for _ in range(6):  # several moves, several players, while Discord is down
        outcome = await setup.move()
        assert not outcome.announced and outcome.problem == "Discord answered 503"
        told.append(outcome.text)
    assert setup.discord.posts == []
    row, _ = await setup.game()
    owed_versions = [e.version for e in await setup.service.store.owed(row.id) if e.kind == "post"]
    assert owed_versions == sorted(owed_versions) and owed_versions[-1] == row.version

    setup.discord.failing = None
    moment = await setup.later()
    setup.service.delivery.clock = lambda: moment
    assert await setup.service.delivery.run_due() == len(owed_versions)
    posts = setup.discord.posts
    assert [p.ticket.key for p in posts if p.ticket] == sorted(
        p.ticket.key for p in posts if p.ticket
    )
    # the words of each move once, in order; only the newest carries picture and prompt
    assert [p.text for p in posts] == told
    assert [p.prompt for p in posts] == [False] * (len(posts) - 1) + [True]
    assert all(p.picture == b"" for p in posts[:-1]) and posts[-1].picture.startswith(b"PNG")
    # the message that was tried before looks first; those never tried need not
    assert [p.ticket.retry for p in posts if p.ticket] == [True] + [False] * (len(posts) - 1)
    row, _ = await setup.game()
    assert (row.message_id, row.prompt_version) == (1000 + len(posts), row.version)
    assert await setup.service.store.owed(row.id) == []
    # nothing is owed, nothing more is posted
    assert await setup.service.delivery.run_due() == 0 and len(setup.discord.posts) == len(posts)


async def test_retries_are_spaced_out_and_seldom_while_only_people_can_fix_it(
    setup: Setup,
) -> None:
    delivery = setup.service.delivery
    setup.discord.failing = TryAgain("Discord answered 503")
    await setup.move()  # the first attempt, right after the move
    waits: list[float] = []
    for _ in range(4):
        (entry,) = await setup.service.store.owed(setup.game_id)
        moment = entry.next_at
        waits.append(round((entry.next_at - entry.created_at).total_seconds()))
        delivery.clock = at(moment - timedelta(seconds=0.5))
        assert await delivery.run_due() == 0 and setup.discord.attempts == len(waits)
        delivery.clock = at(moment)
        await delivery.run_due()  # due now: tried again, fails again
    (entry,) = await setup.service.store.owed(setup.game_id)
    assert entry.attempts == 5
    # each wait twice the one before (2 s, 4 s, 8 s, ... from the first failure)
    assert [b - a for a, b in itertools.pairwise(waits)] == [4, 8, 16]
    setup.discord.failing = Blocked("I lack **Send Messages** there")
    delivery.clock = lambda: entry.next_at
    await delivery.run_due()
    (blocked,) = await setup.service.store.owed(setup.game_id)
    assert blocked.next_at - entry.next_at == timedelta(seconds=delivery.backoff.blocked)
    assert blocked.last_error == "I lack **Send Messages** there"
    # a new move tries at once, whatever the back-off
    setup.discord.failing = None
    await setup.move()
    assert await setup.service.store.owed(setup.game_id) == []


async def test_a_dm_goes_out_while_the_post_fails_and_only_while_it_is_their_turn(
    setup: Setup,
) -> None:
    prefs = setup.service.prefs
    await prefs.set_dm(ANA.user_id, True)
    await prefs.set_dm(BEN.user_id, True)
    setup.inboxes.closed.add(BEN.user_id)
    setup.discord.failing = TryAgain("Discord answered 503")
    handed: list[str] = []
    while len(handed) < 2:  # a hand-over to each
        before = (await setup.game())[1].awaiting
        outcome = await setup.move()
        if outcome.awaited != before and outcome.awaited is not None:
            handed.append(outcome.awaited)
    # Ana's DM went out though the post did not (it links the channel then);
    # Ben's DMs are closed: given up at once, never tried again
    assert (ANA.user_id, None) in setup.inboxes.sent
    assert setup.inboxes.refused == handed.count(BEN.user_id) >= 1
    owed = await setup.service.store.owed(setup.game_id)
    assert {entry.kind for entry in owed} == {"post"}
    setup.discord.failing = None
    moment = await setup.later()
    setup.service.delivery.clock = lambda: moment
    await setup.service.delivery.run_due()
    assert setup.inboxes.refused == handed.count(BEN.user_id)
    assert len(setup.inboxes.sent) == handed.count(ANA.user_id)


async def test_during_an_outage_the_task_sleeps_until_the_failing_post_is_due_again(
    setup: Setup,
) -> None:
    """Issue 29.3: the posts queued behind a failing one wait as long as it does; the
    task does not wake for them (an empty pass every half second, before)."""
    delivery = setup.service.delivery
    moment = datetime.now(UTC)
    delivery.clock = at(moment)
    setup.discord.failing = TryAgain("Discord answered 503")
    for _ in range(4):
        await setup.move()
    head, *queued = [e for e in await setup.service.store.owed(setup.game_id) if e.kind == "post"]
    assert len(queued) == 3 and head.attempts == 4
    assert {entry.next_at for entry in queued} == {head.next_at} and head.next_at > moment
    assert await delivery.next_due() == head.next_at
    attempts = setup.discord.attempts
    delivery.MIN_SLEEP_SECONDS = 0.001  # a task that polled would pass hundreds of times
    delivery.start()
    try:
        while delivery.passes == 0:  # its first pass (a busy machine may be slow to it)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
    finally:
        await delivery.stop()
    assert delivery.passes == 1 and setup.discord.attempts == attempts


async def test_eight_moves_in_an_outage_do_not_lengthen_the_wait_and_all_go_out_at_once_after(
    setup: Setup,
) -> None:
    """Issue 29.4: the wait grows with the time since the first failure (each move makes
    an attempt, which used to double it); once Discord is back, the next attempt (one
    wait away at most) posts every move's words, in order, the newest as the prompt."""
    delivery, store = setup.service.delivery, setup.service.store
    setup.discord.failing = TryAgain("Discord answered 503")
    now = datetime.now(UTC)
    start = now.replace(microsecond=now.microsecond // 1000 * 1000)  # as the outbox keeps it
    told: list[str] = []
    for n in range(8):  # a move every 5 s
        delivery.clock = at(start + timedelta(seconds=5 * n))
        told.append((await setup.move()).text)
    last = start + timedelta(seconds=35)
    head, *queued = [e for e in await store.owed(setup.game_id) if e.kind == "post"]
    assert head.attempts == 8 and head.failing_since == start
    # first wait 2 s, then as long again as it has failed: 35 s (8 attempts used to make 256 s)
    assert head.next_at - last == timedelta(seconds=2 + 35)
    assert all(entry.next_at == head.next_at for entry in queued)
    # Discord stays down; the task tries when due, and the wait reaches its cap
    waits: list[float] = []
    while (due := await delivery.next_due()) is not None and len(waits) < 10:
        delivery.clock = at(due)
        await delivery.run_due()
        (head, *_) = await store.owed(setup.game_id)
        waits.append((head.next_at - due).total_seconds())
    assert waits == [74, 148, 296, 300, 300, 300, 300, 300, 300, 300]
    assert setup.discord.posts == []
    # back now: the next attempt is at most one wait (the cap) away, and everything goes
    setup.discord.failing = None
    back = delivery.clock() + timedelta(seconds=1)
    due = await delivery.next_due()
    assert due is not None and timedelta(0) < due - back <= timedelta(seconds=delivery.backoff.most)
    delivery.clock = at(due)
    assert await delivery.run_due() == 8
    assert [p.text for p in setup.discord.posts] == told
    assert [p.prompt for p in setup.discord.posts] == [False] * 7 + [True]
    assert await store.owed(setup.game_id) == [] and await delivery.next_due() is None


@dataclass
class Probed:
    """The scripted Discord, which also says whether it answers again (`Prober`)."""

    discord: Discord
    asked: int = 0

    async def announce(self, outcome: Outcome) -> Posted:
        return await self.discord.announce(outcome)

    async def probe(self, row: GameRow) -> bool:
        self.asked += 1
        return self.discord.failing is None


async def test_after_a_long_outage_the_posts_go_out_seconds_after_discord_is_back(
    setup: Setup,
) -> None:
    """Issue 29.4: with the waits at their cap (5 minutes), a cheap question every 10 s
    finds Discord back, and every game that failed for now is tried at once."""
    delivery, store = setup.service.delivery, setup.service.store
    front = Probed(setup.discord)
    delivery.announcer = front
    setup.discord.failing = TryAgain("Discord answered 503")
    start = datetime.now(UTC)
    delivery.clock = at(start)
    told = [(await setup.move()).text for _ in range(3)]
    # twenty minutes down: the task runs whenever it asks to (the clock moved there)
    moment = start
    while moment < start + timedelta(minutes=20):
        due = await delivery.next_due()
        assert due is not None and due > moment
        moment = due
        delivery.clock = at(moment)
        await delivery.one_pass()
    head, *_ = await store.owed(setup.game_id)
    # failing for 20 minutes: the next attempt is the cap (5 minutes) after the last
    assert head.failing_since is not None and moment - head.failing_since >= timedelta(minutes=20)
    assert timedelta(seconds=10) < head.next_at - moment <= timedelta(seconds=delivery.backoff.most)
    # posts were tried by the back-off only (3 by the moves); the questions every 10 s
    assert setup.discord.attempts < 3 + 12 and front.asked >= 20 * 6 - 1
    assert setup.discord.posts == []
    setup.discord.failing = None
    back = moment + timedelta(seconds=1)
    due = await delivery.next_due()
    assert due is not None and timedelta(0) < due - back <= timedelta(seconds=10)
    delivery.clock = at(due)
    await delivery.one_pass()
    assert [p.text for p in setup.discord.posts] == told
    assert [p.prompt for p in setup.discord.posts] == [False, False, True]
    assert await store.owed(setup.game_id) == [] and await delivery.next_due() is None


async def test_why_a_move_is_not_shown_is_said_in_the_games_language_after_a_restart(
    setup: Setup,
) -> None:
    """Issue 24.5: the outbox keeps a problem as its marked sentence and fields, so a
    process started later, which has only the outbox, words it in the reader's language
    (it used to give back the English words the first process logged)."""
    locked = translatable(
        "the game's thread <#{thread}> is locked. A moderator can unlock it; then {/board} "
        "shows the game."
    )
    setup.discord.failing = Blocked(locked, fields={"thread": 77})
    first = await setup.move()
    assert not first.announced and first.problem.startswith("the game's thread <#77> is locked")

    # a restart: a new service on the same database; its delivery, before the retry is
    # due, reads why the message is still owed from the outbox alone
    restarted = game_service(
        setup.service.store, renderer=TinyRenderer(), announcer=setup.discord, notifier=Inboxes()
    )
    report = await restarted.delivery.deliver(setup.game_id)
    assert report is not None and report.problem is not None
    assert setup.discord.attempts == 1  # not due yet: only read, not tried again
    french = report.problem.text(translator("fr"))
    assert french.startswith("le fil de la partie <#77> est verrouillé")
    assert "`/montana plateau`" in french
    assert report.problem.words == first.problem
    # words the outbox cannot key (a failure's own text) stay as they were said
    plain = TryAgain.from_stored("posting failed (OSError())")
    assert plain.text(translator("fr")) == "posting failed (OSError())"
