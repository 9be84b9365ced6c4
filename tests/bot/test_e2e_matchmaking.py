"""Finding a table (issue 25 point 5) through real discord.py and the fake Discord:
`/montana game find` queues the asker once per server and shows them their entry alone,
with a Withdraw button; a queue of compatible players starts one game in the server's
games channel (else where the last of them asked), mentions them once and clears them
from the queue, while the incompatible stay; an entry expires after 7 days."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from bot.core.community.matchmaking import expiry_cut
from bot.core.store import ACTIVE, stamp_of
from tests.bot.driver import game_at_main, make_bot, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.test_server_admin import ADMIN


async def queued_ids(fake: FakeDiscord, bot: object) -> list[str]:
    store = bot.store  # type: ignore[attr-defined]
    since = expiry_cut(datetime.now(UTC))
    return [p.user_id for p in await store.queued_in(fake.guild_id, since=since)]


async def find(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, **options: object):
    return await fake.slash(user, channel, "montana game find", options=options)


async def test_three_compatible_players_start_one_game_and_leave_the_queue(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben, cleo, dan, eve = (
        fake_discord.add_user(name) for name in ("ana", "ben", "cleo", "dan", "eve")
    )
    general = fake_discord.channel
    other = fake_discord.add_channel("other")
    slow = await find(fake_discord, dan, general, players="3", pace="slow")
    eve.locale = "fr"  # her own words in French, and the game's language by default
    french = await find(fake_discord, eve, general, players="3")
    assert "Votre place dans la file d’attente de ce serveur" in french.text
    assert "une partie de 3 joueurs, rythme normal (délai de tour 24\xa0heures" in french.text
    first = await find(fake_discord, ana, general, players="3")
    assert first.ephemeral
    assert (
        "a game of 3 players, pace normal (turn deadline 24 hours, city auction answers "
        "12 hours), language: English" in first.text
    )
    assert slow.ephemeral and "pace slow (turn deadline 72 hours" in slow.text
    assert "Français. Inscription" in french.text
    await find(fake_discord, ben, general, players="2-3")
    assert await bot.store.open_game_in(other.id) is None
    # the third compatible player completes the table, in the channel where they asked
    last = await find(fake_discord, cleo, other)
    assert last.ephemeral
    assert "A table was found at once: your game has started in <#" in original(last).content
    row = await bot.store.open_game_in(other.id)
    assert row is None  # the game plays in a thread of that channel, leaving it free
    threads = [t for t in fake_discord.threads if t.parent_id == other.id]
    assert len(threads) == 1
    game = await bot.store.open_game_in(threads[0].id)
    assert game is not None and game.status == ACTIVE
    assert {s.user_id for s in game.players} == {str(u.id) for u in (ana, ben, cleo)}
    assert (game.turn_seconds, game.auction_seconds) == (24 * 3600, 12 * 3600)
    assert game.language == "en"
    # announced once in the channel, mentioning the three
    announced = [
        m for m in fake_discord.messages_in(other) if "the queue found a table" in m.content
    ]
    assert len(announced) == 1
    assert set(announced[0].pinged_ids) == {ana.id, ben.id, cleo.id}
    assert f"<#{threads[0].id}>" in announced[0].content
    # they left the queue; the slow and the French player wait on
    assert await queued_ids(fake_discord, bot) == [str(dan.id), str(eve.id)]
    # the first prompt is in the thread
    assert fake_discord.messages_in(threads[0])


async def test_the_servers_games_channel_is_used_and_the_players_limit_respected(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    games = fake_discord.add_channel("games")
    await fake_discord.slash(
        admin, fake_discord.channel, "montana server settings", options={"games_channel": games}
    )
    ana, ben, cleo = (fake_discord.add_user(name) for name in ("ana", "ben", "cleo"))
    await find(fake_discord, ana, fake_discord.channel, players="2", pace="fast")
    await find(fake_discord, ben, fake_discord.channel, players="2", pace="fast")
    threads = [t for t in fake_discord.threads if t.parent_id == games.id]
    assert len(threads) == 1
    game = await bot.store.open_game_in(threads[0].id)
    assert game is not None and game.status == ACTIVE
    assert (game.turn_seconds, game.auction_seconds) == (2 * 3600, 3600)
    # a member at the server's limit of games under way is refused a place
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    refused = await find(fake_discord, ana, fake_discord.channel, players="2", pace="fast")
    assert refused.ephemeral and "You play 1 game under way in this server" in refused.text
    assert await queued_ids(fake_discord, bot) == []
    # and one who reaches it while queued is not matched
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "2"})
    await find(fake_discord, ana, fake_discord.channel, players="2", pace="fast")
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    waiting = await find(fake_discord, cleo, fake_discord.channel, players="2", pace="fast")
    assert "Your place in this server's queue" in original(waiting).content
    assert await queued_ids(fake_discord, bot) == [str(ana.id), str(cleo.id)]
    assert len([t for t in fake_discord.threads if t.parent_id == games.id]) == 1
    # under the limit again, the next look at the queue matches them
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "2"})
    again = await find(fake_discord, cleo, fake_discord.channel)
    assert "A table was found at once" in original(again).content
    assert await queued_ids(fake_discord, bot) == []
    assert len([t for t in fake_discord.threads if t.parent_id == games.id]) == 2


async def test_once_per_server_and_withdraw(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    first = await find(fake_discord, ana, fake_discord.channel, players="4")
    again = await find(fake_discord, ana, fake_discord.channel, players="2", pace="slow")
    assert again.ephemeral
    assert "You are in this server's queue already" in again.text
    assert "a game of 4 players, pace normal" in again.text  # the first entry, unchanged
    assert await queued_ids(fake_discord, bot) == [str(ana.id)]
    entry = (await bot.store.queued_in(fake_discord.guild_id, since=""))[0]
    assert entry.counts == (4,) and entry.pace == "normal"
    withdrawn = await fake_discord.press(ana, original(first), label="Withdraw")
    assert "You left this server's queue" in withdrawn.text
    assert await queued_ids(fake_discord, bot) == []
    # a Withdraw pressed again (on the other message) says so, and changes nothing
    twice = await fake_discord.press(ana, original(again), label="Withdraw")
    assert "You are not in this server's queue" in twice.text
    back = await find(fake_discord, ana, fake_discord.channel, players="2", pace="slow")
    assert "a game of 2 players, pace slow" in back.text


async def test_an_entry_expires_after_seven_days(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db)
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    await find(fake_discord, ana, fake_discord.channel, players="2")
    # the clock moved: Ana queued 7 days and a minute ago
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE match_queue SET queued_at = ?",
            (stamp_of(datetime.now(UTC) - timedelta(days=7, minutes=1)),),
        )
    assert await queued_ids(fake_discord, bot) == []
    await find(fake_discord, ben, fake_discord.channel, players="2")
    assert await bot.store.open_game_in(fake_discord.channel.id) is None
    assert not fake_discord.threads
    assert await queued_ids(fake_discord, bot) == [str(ben.id)]
    # Ana may queue again: her expired entry is replaced
    renewed = await find(fake_discord, ana, fake_discord.channel, players="2")
    assert "You are in this server's queue already" not in renewed.text
    assert len(fake_discord.threads) == 1


async def test_a_table_completed_from_a_games_thread_opens_beside_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, _, played = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    cleo, dan = fake_discord.add_user("cleo"), fake_discord.add_user("dan")
    await find(fake_discord, cleo, fake_discord.channel, players="2")
    await find(fake_discord, dan, played, players="2")  # asked inside Ana and Ben's game
    new = [t for t in fake_discord.threads if t.id != played.id]
    assert len(new) == 1 and new[0].parent_id == fake_discord.channel.id
    game = await bot.store.open_game_in(new[0].id)
    assert game is not None and {s.user_id for s in game.players} == {str(cleo.id), str(dan.id)}
    announced = [
        m for m in fake_discord.messages_in(fake_discord.channel) if "found a table" in m.content
    ]
    assert len(announced) == 1 and set(announced[0].pinged_ids) == {cleo.id, dan.id}


async def test_the_servers_opener_role_applies_to_finding_a_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35.7: a table `/montana game find` seats is a game opened, so a server
    that lets only a role open games refuses the others the queue, in words; the role's
    members and the server's managers queue as before."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    host = fake_discord.add_user("host", permissions=discord.Permissions(send_messages=True))
    guest = fake_discord.add_user("guest")
    assert host.role_id is not None
    await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={"opener_role": host.role_id},
    )
    refused = await find(fake_discord, guest, fake_discord.channel, players="2")
    assert refused.ephemeral
    assert f"only members with the role <@&{host.role_id}> can open a game" in refused.text
    assert "Nothing was changed" in refused.text
    assert not any(i.startswith("mq:withdraw") for i in original(refused).custom_ids())
    assert await queued_ids(fake_discord, bot) == []
    await find(fake_discord, host, fake_discord.channel, players="3")
    await find(fake_discord, admin, fake_discord.channel, players="3")
    assert sorted(await queued_ids(fake_discord, bot)) == sorted([str(host.id), str(admin.id)])


async def test_a_member_queued_before_the_opener_role_is_not_seated(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35.7, the gap left: a member who queued before the server let only a role
    open games (or who lost the role since) is not seated by matchmaking: when a table
    with them is found, they are taken out of the queue instead (`/montana game find`
    then tells them the role is needed), and the others wait for a table they may open."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    host = fake_discord.add_user("host", permissions=discord.Permissions(send_messages=True))
    guest = fake_discord.add_user("guest")
    await find(fake_discord, guest, fake_discord.channel, players="2")
    assert await queued_ids(fake_discord, bot) == [str(guest.id)]
    await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={"opener_role": host.role_id},
    )
    waiting = await find(fake_discord, host, fake_discord.channel, players="2")
    assert "A table was found" not in waiting.text
    assert await bot.store.open_game_in(fake_discord.channel.id) is None
    said = [m.content for m in fake_discord.messages_in(fake_discord.channel)]
    assert not [text for text in said if "found a table" in text]
    assert await queued_ids(fake_discord, bot) == [str(host.id)]
    told = await find(fake_discord, guest, fake_discord.channel, players="2")
    assert f"only members with the role <@&{host.role_id}> can open a game" in told.text
    # a member who may open a game makes the table
    found = await find(fake_discord, admin, fake_discord.channel, players="2")
    assert "A table was found at once" in found.text
    assert await queued_ids(fake_discord, bot) == []
