"""Limits and fair AI work (issue 21 points 3-4), through real discord.py and the fake
Discord: each limit's refusal in words (with its value and the way out), the server's
own values from the store, unfilled lobbies closing after their days, a game the AI
alone would play paused until a person takes a seat back, one search shared by many
hints (and the AI seat deciding the same state), and the hints' rate limit.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.core.server.limits import HintRate, Limits
from bot.core.store import ABANDONED, LOBBY
from rules.simulate import choose_action
from tests.bot.driver import Table, codes_on, game_at_main, make_bot, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.test_deadlines import manual_clock


def hint_button(prompt_codes: dict[str, tuple[str, str]]) -> str:
    return prompt_codes["hint"][1]


async def test_open_lobbies_are_limited_per_member_and_server(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    channels = [fake_discord.channel, *(fake_discord.add_channel(f"c{n}") for n in range(3))]
    for channel in channels[:2]:
        opened = await fake_discord.slash(ana, channel, "montana", "game", "new")
        assert not original(opened).ephemeral
    third = await fake_discord.slash(ana, channels[2], "montana", "game", "new")
    assert third.ephemeral
    assert "You have 2 open lobbies in this server, the most allowed" in third.text
    assert "close one with /montana game abandon in its channel" in fake_discord.as_shown(
        third.text, "en-US"
    )
    assert await bot.store.open_game_in(channels[2].id) is None
    # another member is not limited by Ana's lobbies
    bens = await fake_discord.slash(ben, channels[2], "montana", "game", "new")
    assert not original(bens).ephemeral
    # the server's own value, kept in the store
    await bot.store.set_guild_settings(fake_discord.guild_id, {"open_lobbies": "1"})
    await fake_discord.slash(ben, channels[2], "montana", "game", "abandon")
    bens = await fake_discord.slash(ben, channels[2], "montana", "game", "new")
    assert not original(bens).ephemeral  # his one lobby again
    fourth = await fake_discord.slash(ana, channels[3], "montana", "game", "new")
    assert fourth.ephemeral and "You have 1 open lobby in this server" in fourth.text


async def test_games_under_way_are_limited_per_member(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, _ = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    ana, ben = (table.user(s.user_id) for s in (await table.row(game_id)).players)
    cleo = fake_discord.add_user("cleo")
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    other = fake_discord.add_channel("other")
    opened = await fake_discord.slash(ana, other, "montana", "game", "new")
    assert opened.ephemeral
    assert "You play 1 game under way in this server, the most allowed" in opened.text
    assert "finish or abandon it" in opened.text
    # joining another game is refused alike
    lobby = original(await fake_discord.slash(cleo, other, "montana", "game", "new"))
    joined = await fake_discord.press(ben, lobby, label="Join")
    assert joined.ephemeral and "You play 1 game under way" in joined.text
    row = await bot.store.open_game_in(other.id)
    assert row is not None and [s.user_id for s in row.players] == [str(cleo.id)]
    # raising the limit lets Ben join; the start checks every seated player again
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "2"})
    await fake_discord.press(ben, lobby, label="Join")
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": None})
    assert (await bot.store.guild_settings(fake_discord.guild_id)) == {}
    await bot.store.set_guild_settings(fake_discord.guild_id, {"active_games": "1"})
    started = await fake_discord.press(cleo, lobby, label="Start")
    assert "plays 1 game under way in this server already" in started.text
    assert "they can leave this lobby" in started.text
    row = await bot.store.open_game_in(other.id)
    assert row is not None and row.status == LOBBY


async def test_an_unfilled_lobby_closes_after_its_days_saying_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    assert "this lobby closes <t:" in lobby.content and "(7 days after it opened)" in lobby.content
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    # a restart forgets nothing: the lobbies and their age are in the database
    await fake_discord.stop(bot)
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    await bot.lobby_expiry.stop()  # the clock is moved by hand below
    opened = datetime.now(UTC)
    bot.lobby_expiry.clock = lambda: opened + timedelta(days=6, hours=23)
    upcoming = await bot.lobby_expiry.one_pass()
    assert upcoming is not None and timedelta(days=6) < upcoming - opened <= timedelta(days=7)
    assert (await bot.store.get(row.id)).status == LOBBY  # type: ignore[union-attr]
    bot.lobby_expiry.clock = lambda: opened + timedelta(days=7, minutes=1)
    assert await bot.lobby_expiry.one_pass() is None
    closed = await bot.store.get(row.id)
    assert closed is not None and closed.status == ABANDONED
    assert "this lobby closed: it did not start within 7 days" in lobby.content
    assert lobby.button_labels() == []
    # the channel is free again
    again = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    assert not original(again).ephemeral
    # a server's own expiry
    await bot.store.set_guild_settings(fake_discord.guild_id, {"lobby_days": "2"})
    bot.lobby_expiry.clock = lambda: datetime.now(UTC) + timedelta(days=2, minutes=1)
    await bot.lobby_expiry.one_pass()
    assert "did not start within 2 days" in original(again).content


async def paused_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> tuple[Table, int, FakeChannel, FakeUser]:
    """Ana and an AI seat; Ana goes away with the AI playing for her: the AI would be
    alone, so the game pauses (said once, whatever wakes it)."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    ana = fake_discord.add_user("ana")
    table.users[str(ana.id)] = ana
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    await fake_discord.press(ana, lobby, label="Add AI")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    game_id, thread = row.id, fake_discord.channel_by_id(row.play_channel_id)
    await bot.ai.idle()
    await fake_discord.slash(ana, thread, "montana", "me", "away", options={"days": 1, "ai": True})
    await bot.ai.idle()
    row = await table.row(game_id)
    assert row.taken_over == (str(ana.id),)
    paused = [m for m in fake_discord.messages_in(thread) if "The game is paused" in m.content]
    assert len(paused) == 1, [m.content for m in fake_discord.messages_in(thread)]
    assert "the AI now plays every seat" in paused[0].content
    assert "/montana me reclaim (Ana)" in fake_discord.as_shown(paused[0].content, "en-US")
    assert "moves in a few seconds" not in paused[0].content
    assert paused[0].pinged_ids == []
    # nothing moves, however often the game is woken (a sweep, a restart)
    for _ in range(3):
        bot.ai.wake(game_id)
        await bot.ai.idle()
    assert (await table.row(game_id)).version == row.version
    assert len([m for m in fake_discord.messages_in(thread) if "paused" in m.content]) == 1
    return table, game_id, thread, ana


async def test_a_game_the_ai_alone_would_play_pauses_until_a_reclaim(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, ana = await paused_game(fake_discord, tmp_path)
    await fake_discord.slash(ana, thread, "montana", "me", "reclaim")
    await table.bot.ai.idle()
    row, game = await table.game(game_id)
    # the AI seat played on, if it was its turn, until the game waits for her
    assert row.taken_over == () and game.awaiting == str(ana.id)


async def test_a_paused_game_goes_on_with_the_move_of_its_player(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, ana = await paused_game(fake_discord, tmp_path)
    row, game = await table.game(game_id)
    assert game.awaiting == str(ana.id)  # the AI seat played on to her before the away
    _, action = choose_action(game, random.Random(1))
    assert await table.tap_move(game_id, action) or await table.type_move(
        thread, str(ana.id), action
    )
    await table.bot.ai.idle()
    after, game = await table.game(game_id)
    assert after.taken_over == () and after.version > row.version
    moves = await table.bot.store.moves(game_id, offset=row.version, limit=1)
    assert moves[0].player == str(ana.id)


async def test_many_hints_for_one_state_are_one_search_and_limited_per_member(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    moment = [1000.0]
    bot.ai.hint_rate.clock = lambda: moment[0]
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    prompt = table.prompt_message(row)
    searches = bot.ai.searches
    suggestions = set()
    # four presses at once wait for one search
    pressed = await asyncio.gather(
        *(
            fake_discord.press(table.user(pid), prompt, hint_button(codes_on(prompt)))
            for _ in range(4)
        )
    )
    for answered in pressed:
        hint = answered.followups[-1] if answered.followups else original(answered)
        assert hint.ephemeral
        suggestions.add(hint.content.split("**")[1])
    typed = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    assert "The AI suggests" in typed.text
    assert bot.ai.searches == searches + 1, "five hints for one state: one search"
    assert len(suggestions) == 1
    # the sixth within a minute is refused politely, saying when to try again
    refused = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    assert refused.ephemeral or all(m.ephemeral for m in refused.messages)
    assert "the most hints allowed (5 a minute); please try again in 60 seconds" in refused.text
    moment[0] += 45
    later = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    assert "please try again in 15 seconds" in later.text
    moment[0] += 16
    allowed = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    assert "The AI suggests" in allowed.text
    assert bot.ai.searches == searches + 1
    # the AI taking the seat at a deadline plays the takeover's level (normal), not the
    # hints' (hard, issue 27): one more search of that state, at its own level
    await fake_discord.slash(
        table.user(row.creator_id),
        thread,
        "montana",
        "game",
        "settings",
        options={"absent": "ai-move"},
    )
    driver = await manual_clock(bot, game_id, 49)
    assert await driver.run_due() == 1
    await bot.ai.idle()
    assert bot.ai.searches == searches + 2
    moves = await bot.store.moves(game_id, offset=row.version, limit=1)
    assert [move.player for move in moves] == [pid]


def test_a_servers_saved_values_replace_only_the_defaults_they_name() -> None:
    assert Limits.of({}) == Limits(open_lobbies=2, lobby_days=7, active_games=10)
    chosen = Limits.of({"open_lobbies": "4", "lobby_days": "soon", "active_games": "0"})
    # an unreadable or zero value keeps the default; other names are other settings
    assert chosen == Limits(open_lobbies=4)
    assert Limits.of({"language": "fr", "hints_per_minute": "9"}).hints_per_minute == 9


def test_the_hint_rate_counts_per_member_in_a_sliding_minute() -> None:
    moment = [0.0]
    rate = HintRate(clock=lambda: moment[0])
    limits = Limits(hints_per_minute=2)
    assert rate.take("ana", limits) is None
    moment[0] = 30
    assert rate.take("ana", limits) is None
    assert rate.take("ben", limits) is None  # each member their own count
    over = rate.take("ana", limits)
    assert over is not None and over.fields == {"n": 30, "limit": 2}
    moment[0] = 60  # the first hint is a minute old: one more
    assert rate.take("ana", limits) is None
    assert rate.take("ana", limits) is not None
