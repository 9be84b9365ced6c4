"""Running tournaments through the fake Discord: signing players up with the sign-up
message's buttons, finishing each table's game, and what the pure seating and standings
functions expect of the record (the tests compare the bot's tables with them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.community import tournament_pairing as pairing
from bot.core.community import tournaments as core
from bot.core.store import GameRow
from bot.core.store.tournaments import TournamentRecord
from tests.bot.driver import Table, original
from tests.bot.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.bot.test_e2e_ratings import to_the_last_move


def pure() -> Any:
    """The pure functions the bot calls (to compute what it should have done)."""
    return pairing


async def new_tournament(
    fake: FakeDiscord, organiser: FakeUser, **options: object
) -> tuple[int, FakeMessage]:
    result = await fake.slash(organiser, fake.channel, "montana-tournament new", options=options)
    message = original(result)
    assert not message.ephemeral, result.text
    tournaments = await fake.client.store.tournaments_of(fake.guild_id)  # type: ignore[attr-defined]
    return tournaments[0].id, message


async def sign_up(fake: FakeDiscord, message: FakeMessage, users: Sequence[FakeUser]) -> None:
    for user in users:
        pressed = await fake.press(user, message, label="Join")
        assert pressed.response_type == 7, pressed.text  # the message updated, no reply


async def record_of(bot: Any, tournament_id: int) -> TournamentRecord:
    record: TournamentRecord | None = await bot.store.tournament_record(tournament_id)
    assert record is not None
    return record


async def game_of(bot: Any, game_id: int | None) -> GameRow:
    assert game_id is not None
    row: GameRow | None = await bot.store.get(game_id)
    assert row is not None
    return row


def expected_seating(record: TournamentRecord, number: int, dropped: set[str]) -> Any:
    """What the pure function seats as round `number`, from the rounds before it."""
    entrants = [e.user_id for e in record.entrants]
    played = core.played_of(record)[: number - 1]
    return pure().seat_round(core.plan_from(record.tournament), entrants, played, dropped)


async def finish_round(
    fake: FakeDiscord, bot: Any, record: TournamentRecord, users: dict[str, FakeUser]
) -> None:
    """Play every game of the record's current round to its end (the last move typed by
    its player in the game's thread)."""
    table = Table(fake, bot, users=users)
    for t in record.tables[record.last_round]:
        assert t.game_id is not None
        row = await bot.store.get(t.game_id)
        if row.status != "active":
            continue
        player, action = await to_the_last_move(table, t.game_id, seed=t.game_id)
        thread = fake.channel_by_id(row.play_channel_id)
        await table.type_move(thread, player, action)
    await bot.ai.idle()
    await bot.tournament_watch.idle()


def announcements(fake: FakeDiscord, words: str) -> list[FakeMessage]:
    found = []
    for channel in [fake.channel, *fake.world.channels.values()]:
        found += [m for m in fake.messages_in(channel) if words in m.content]
    return list({m.id: m for m in found}.values())
