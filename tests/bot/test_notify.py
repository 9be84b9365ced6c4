"""Direct messages for players who asked for them, through real discord.py."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from bot.core.clock.deadlines import parse_time
from tests.bot.driver import Table, make_bot, open_game, to_main_decision
from tests.bot.fakediscord import FakeDiscord

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


async def awaited(table: Table, game_id: int) -> str | None:
    _, game = await table.game(game_id)
    return game.awaiting


async def test_dm_links_the_game_and_closed_dms_never_break_a_move(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    channel = fake_discord.channel
    ana = fake_discord.add_user("ana")
    ben = fake_discord.add_user("ben", dms_open=False)
    cy = fake_discord.add_user("cy")
    shown = await fake_discord.slash(ana, channel, "montana", "me", "notify")
    assert shown.ephemeral and "channel mentions only" in shown.content
    for user in (ana, ben):
        chose = await fake_discord.slash(
            user, channel, "montana", "me", "notify", options={"mode": "dm"}
        )
        assert chose.ephemeral and "direct message" in chose.content
    table = Table(fake_discord, bot, {str(u.id): u for u in (ana, ben, cy)})
    lobby = (await fake_discord.slash(ana, channel, "montana", "game", "new")).original
    assert lobby is not None
    for user in (ben, cy):
        await fake_discord.press(user, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(channel.id)
    assert row is not None
    game_id, thread_id = row.id, row.play_channel_id
    # play until each of the three has been handed the game a few times
    handed: dict[str, int] = {}
    previous = None
    for _ in range(60):
        now = await awaited(table, game_id)
        assert now is not None
        if now != previous:
            handed[now] = handed.get(now, 0) + 1
        previous = now
        if len(handed) == 3 and min(handed.values()) >= 2:
            break
        _, game = await table.game(game_id)
        assert await table.tap_move(game_id, game.legal_actions(now)[0]) is not None
    assert len(handed) == 3 and min(handed.values()) >= 2, handed
    # Ana: one DM per hand-over, each linking to the game message that mentions her
    dms = fake_discord.dms(ana)
    assert len(dms) == handed[str(ana.id)]
    for dm in dms:
        found = LINK.search(dm.content)
        assert found is not None, dm.content
        guild, where, message_id = (int(x) for x in found.groups())
        assert (guild, where) == (fake_discord.guild_id, thread_id)
        linked = fake_discord.world.messages[message_id]
        assert linked.channel_id == thread_id and f"<@{ana.id}>" in linked.content
        assert "ana" in dm.content.lower() and not dm.pinged_ids
    # Ben's DMs are closed: each attempt was refused by Discord and skipped, the game went on
    refused = [r for r in fake_discord.requests("POST /channels") if r.status == 403]
    assert len(refused) == handed[str(ben.id)]
    assert fake_discord.dms(ben) == []
    assert sum(f"<@{ben.id}>" in m.content for m in fake_discord.messages_in(thread_id)) >= 2
    # Cy kept channel mentions only
    assert fake_discord.dms(cy) == []
    # back to channel mentions: no more DMs for Ana
    await fake_discord.slash(ana, channel, "montana", "me", "notify", options={"mode": "channel"})
    before = len(fake_discord.dms(ana))
    for _ in range(40):
        now = await awaited(table, game_id)
        assert now is not None
        _, game = await table.game(game_id)
        await table.tap_move(game_id, game.legal_actions(now)[0])
        if now != str(ana.id) and await awaited(table, game_id) == str(ana.id):
            break
    assert await awaited(table, game_id) == str(ana.id)
    assert len(fake_discord.dms(ana)) == before


async def test_a_deadline_reminder_is_also_sent_by_dm_to_who_asked(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    late = await awaited(table, game_id)
    assert late is not None
    user = table.user(late)
    await fake_discord.slash(user, thread, "montana", "me", "notify", options={"mode": "dm"})
    row = await table.row(game_id)
    (last,) = await bot.store.moves(game_id, offset=row.version - 1, limit=1)
    moment = parse_time(last.at) + timedelta(hours=25)
    await bot.deadlines.stop()
    bot.deadlines.clock = lambda: moment
    assert await bot.deadlines.run_due() == 1
    (dm,) = fake_discord.dms(user)
    assert dm.content.startswith(f"Reminder: The game is waiting for {row.names[late]}")
    link = f"https://discord.com/channels/{fake_discord.guild_id}/{thread.id}/{row.message_id}"
    assert link in dm.content
