"""Issue 25.2: "`/montana me games` … and, in a DM with the bot, in every server they
share with it". Discord applies `/montana`'s contexts (servers only) to all its
subcommands, so the list of every server is `/montana-games`, a top-level command
offered in a DM with the bot. Through real discord.py and the fake Discord, which offers
a command only where its synced `contexts` allow."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.core.clock.my_games import DigestTask, my_games
from bot.core.store import Shards
from bot.discord_app.clock.mine import DigestSender, with_footer, within_reach
from bot.discord_app.delivery.notify import Notifier
from i18n.commands import GAMES_COMMAND, TOURNAMENT_COMMAND
from tests.bot.driver import Table, make_bot, open_game, play_until
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_my_games import game_elsewhere


async def test_in_a_dm_my_games_of_every_server_are_listed_waiting_ones_first(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    here, here_thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(user for user in table.users.values() if user.name == "ana")
    await play_until(table, here, lambda game: game.awaiting == str(ana.id))
    lobby_channel = fake_discord.add_channel("lobby")
    await fake_discord.slash(ana, lobby_channel, "montana", "game", "new", options={"pace": "fast"})
    # another server the bot is in: a fast game waiting for Ana (due in 2 hours, before
    # the 48 hours of this server's), and one waiting for Dan
    other = fake_discord.join_guild("Board Gamers")
    fast = await game_elsewhere(bot, ana, waiting_for_ana=True, guild_id=other, channel_id=77)
    await bot.store.set_deadline_seconds(fast, 2 * 3600, 3600)
    await game_elsewhere(bot, ana, waiting_for_ana=False, guild_id=other, channel_id=78)
    # a server the bot has been removed from: its game is nobody's to play any more
    gone = fake_discord.join_guild("Gone")
    await game_elsewhere(bot, ana, waiting_for_ana=True, guild_id=gone, channel_id=79)
    fake_discord.leave_guild(gone)
    dm = fake_discord.dm_channel(ana)

    with pytest.raises(AssertionError, match="does not offer /montana in a DM"):
        await fake_discord.slash(ana, dm, "montana", "me", "games")
    listed = await fake_discord.slash(ana, dm, GAMES_COMMAND)

    assert listed.ephemeral
    heading, *lines = listed.content.split("\n")
    assert heading == "**Your games in every server** — 2 wait for you:"
    assert len(lines) == 4 and "<#79>" not in listed.content
    row = await table.row(here)
    # waiting for Ana, the soonest deadline first whatever the server: the other
    # server's fast game, opened last, then this server's
    assert lines[0].startswith("▶ **Your move** in **Board Gamers** › <#77> (with dan; fast)")
    assert lines[1].startswith(
        f"▶ **Your move** in **Montana Test** › <#{here_thread.id}> (with Ben; 48 hours / 24 hours)"
    )
    assert "your turn began <t:" in lines[1] and ":R>, due <t:" in lines[1]
    # a jump link with the server's id: it opens the message from a DM
    link = f"https://discord.com/channels/{fake_discord.guild_id}/{row.play_channel_id}/"
    assert f"{link}{row.message_id}" in lines[1]
    # then the games under way that wait for someone else, then the lobbies
    assert lines[2].startswith("⏳ **Board Gamers** › <#78> (with dan;")
    assert "waiting for dan, whose turn began <t:" in lines[2]
    assert lines[3].startswith(
        f"🪑 **Montana Test** › <#{lobby_channel.id}> — lobby (1/4 seated; fast)"
    )

    # in a server the command says the same: every server's games
    in_server = await fake_discord.slash(ana, fake_discord.channel, GAMES_COMMAND)
    assert in_server.content == listed.content
    # while `/montana me games` there lists that server's games only
    here_only = await fake_discord.slash(ana, fake_discord.channel, "montana", "me", "games")
    assert "Board Gamers" not in here_only.content and "<#77>" not in here_only.content


async def test_someone_without_games_is_told_how_to_open_one(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    cleo = fake_discord.add_user("cleo")
    cleo.locale = "fr"
    (games,) = [c for c in fake_discord.world.global_commands if c["name"] == GAMES_COMMAND]
    (montana,) = [c for c in fake_discord.world.global_commands if c["name"] == "montana"]

    answer = await fake_discord.slash(cleo, fake_discord.dm_channel(cleo), GAMES_COMMAND)

    assert answer.ephemeral
    assert answer.content.startswith("Vous n’avez de partie en cours ou ouverte sur aucun serveur.")
    assert f"</montana game new:{montana['id']}>" in answer.content
    assert "/montana partie nouvelle" in fake_discord.as_shown(answer.content, "fr")
    # the command a French client lists in its DMs
    assert games["name_localizations"]["fr"] == "montana-parties"


async def test_the_sync_offers_the_list_in_a_dm_with_the_bot(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """What the bot sends Discord when it syncs: `/montana-games` allowed in servers (0)
    and in a DM with the bot (1), for the server installation (0) only; `/montana` and
    `/montana-tournament` in servers only."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    (sync,) = [
        request
        for request in fake_discord.requests()
        if request.method == "PUT" and request.path.endswith("/commands")
    ]
    sent = {command["name"]: command for command in sync.json}
    assert set(sent) == {"montana", GAMES_COMMAND, TOURNAMENT_COMMAND}
    assert sent[GAMES_COMMAND]["contexts"] == [0, 1]
    assert sent[GAMES_COMMAND]["integration_types"] == [0]
    for in_servers_only in ("montana", TOURNAMENT_COMMAND):  # a tournament is a server's
        assert sent[in_servers_only]["dm_permission"] is False
        assert 1 not in (sent[in_servers_only].get("contexts") or [0])
    # a message naming the command names it by a mention of the synced id
    from i18n import translator

    mention = translator("en").gettext("{/montana-games}")
    assert mention == f"</{GAMES_COMMAND}:{bot.commands.ids[GAMES_COMMAND]}>"
    assert fake_discord.as_shown(mention, "pl") == "/montana-gry"


async def test_the_digest_leaves_out_the_games_of_a_server_the_bot_left(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    other = fake_discord.join_guild("Board Gamers")
    await game_elsewhere(bot, ana, waiting_for_ana=True, guild_id=other, channel_id=77)
    await fake_discord.slash(
        ana, fake_discord.channel, "montana", "me", "notify", options={"digest": True}
    )
    await bot.digests.stop()
    send = DigestSender(bot, Notifier(bot, bot.store))

    async def digest_on(day: int) -> int:
        task = DigestTask(bot.deadlines, send, clock=lambda: datetime(2030, 1, day, 9, tzinfo=UTC))
        await task.one_pass()
        return len(fake_discord.dms(ana))

    assert await digest_on(1) == 1
    assert "**Board Gamers** › <#77>" in fake_discord.dms(ana)[-1].content
    fake_discord.leave_guild(other)
    assert await digest_on(2) == 1, "only a game nobody can play any more: no digest"
    # a process serving some shards cannot tell a server of another shard gone (that
    # server is not among its guilds): its games are kept
    games = await my_games(bot.deadlines, str(ana.id), None)
    assert within_reach(bot, None, games) == []
    its_shard = (other >> 22) % 2
    assert within_reach(bot, Shards(2, (its_shard,)), games) == []
    assert within_reach(bot, Shards(2, (1 - its_shard,)), games) == games


def test_a_footer_that_does_not_fit_keeps_its_first_sentences() -> None:
    """The digest's small print: how to stop it comes before the hint, and is what
    stays when a long list leaves room for one sentence only."""
    stop, hint = "Stop these with `digest: False`.", "Your games of every server: /x." * 3
    assert with_footer("a" * 1900, stop, hint) == "a" * 1900 + "\n-# " + stop
    assert with_footer("a" * 100, stop, hint) == "a" * 100 + "\n-# " + stop + " " + hint
    assert with_footer("a" * 1990, stop, hint) == "a" * 1990
