"""Operations: logs naming the game and never the token, the paged move log, the
channel's past games, and a clean stop on SIGTERM."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import re
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiosqlite
import pytest

from bot.__main__ import configure_logging
from bot.core.clock.deadlines import DeadlineStore
from bot.core.runtime import logs
from bot.core.store import MIGRATIONS, Store
from bot.core.store.dialect import statements_for
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot, open_game, original, to_main_decision
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakegateway import FakeGateway

TOKEN = "MTIzNDU2Nzg5.secret-bot-token.abcdef"


@contextmanager
def captured_logs(token: str | None = None) -> Iterator[io.StringIO]:
    """The bot's own logging set-up, writing into a buffer instead of stderr."""
    root = logging.getLogger()
    level = root.level
    stream = io.StringIO()
    handler = logs.configure_logging(token, stream)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def test_the_token_never_reaches_a_log_line() -> None:
    root = logging.getLogger()
    level = root.level
    configure_logging(TOKEN)  # what `python -m bot` runs once the settings are read
    installed = [h for h in root.handlers if getattr(h, "montana", False)]
    assert len(installed) == 1
    stream = io.StringIO()
    installed[0].setStream(stream)  # type: ignore[attr-defined]
    try:
        log = logging.getLogger("bot.test")
        log.info("logging in with %s", TOKEN)
        log.warning(f"the token is {TOKEN}")
        try:
            raise RuntimeError(f"login failed for {TOKEN}")
        except RuntimeError:
            log.warning("login failed", exc_info=True)
        with logs.game_scope(7, 99):
            log.info("settings %r", {"token": TOKEN})
    finally:
        root.removeHandler(installed[0])
        root.setLevel(level)
    text = stream.getvalue()
    assert "logging in with" in text and "login failed for" in text and "Traceback" in text
    assert TOKEN not in text and TOKEN[:20] not in text
    assert text.count(logs.MASK) == 4
    assert "[game 7 channel 99]" in text


async def test_log_lines_about_a_game_name_it_and_its_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    with captured_logs(TOKEN) as stream:
        bot = make_bot(tmp_path / "m.sqlite3", seed=3)
        await fake_discord.start(bot, token=TOKEN)
        table = Table(fake_discord, bot)
        game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b")
        await to_main_decision(table, game_id)
        creator = next(iter(table.users.values()))
        await fake_discord.slash(
            creator, thread, "montana", "game", "settings", options={"turn_hours": 5}
        )
    text = stream.getvalue()
    tag = f"[game {game_id} channel {thread.id}]"
    played = [line for line in text.splitlines() if " played " in line]
    assert played and all(tag in line for line in played)
    (changed,) = [line for line in text.splitlines() if "deadlines set by" in line]
    assert tag in changed
    assert TOKEN not in text


async def test_log_pages_through_the_whole_move_log(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b")
    rng = random.Random(1)
    row, game = await table.game(game_id)
    while row.version <= 45:  # more than two pages of 20
        pid, action = choose_action(game, rng)
        await table.type_move(thread, pid, action)
        row, game = await table.game(game_id)
    viewer = next(iter(table.users.values()))
    shown = await fake_discord.slash(viewer, thread, "montana", "game", "log")
    message = original(shown)
    pages = -(-row.version // 20)
    seen: dict[int, str] = {}

    def read_page(expected: int) -> None:
        assert f"page {expected} of {pages}" in message.content
        for number, line in re.findall(r"^(\d+)\. (.*)$", message.content, re.MULTILINE):
            seen[int(number)] = line

    read_page(1)
    labels = {c["label"]: c for c in message.interactive_components()}
    assert labels["Newer ▶"].get("disabled") and not labels["◀ Older"].get("disabled")
    for page in range(2, pages + 1):
        await fake_discord.press(viewer, message, label="◀ Older")
        read_page(page)
    labels = {c["label"]: c for c in message.interactive_components()}
    assert labels["◀ Older"].get("disabled")
    await fake_discord.press(viewer, message, label="Latest ⏭")
    read_page(1)
    await fake_discord.press(viewer, message, label="⏮ First moves")
    read_page(pages)
    # every move, each once, in the words of the log; a forced step (RULES.md 7.3) is
    # marked as such
    moves = await bot.store.moves(game_id)
    names = row.names
    assert sorted(seen) == list(range(1, row.version + 1))
    forced = {index + 1 for index in game.auto}
    assert forced, "the game made a forced step to mark"
    for move in moves:
        note = "  (no other choice)" if move.version in forced else ""
        assert seen[move.version] == f"{names[move.player]}: {move.notation}{note}"


async def test_history_lists_the_past_games_of_the_channel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=6)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    channel = fake_discord.channel
    empty = await fake_discord.slash(
        fake_discord.add_user("zed"), channel, "montana", "game", "history"
    )
    assert empty.ephemeral and "No finished game here yet" in empty.content
    game_id, thread, _ = await open_game(fake_discord, table, channel, "ana", "ben")
    # play the game to its end with the random policy, saved through the store like moves
    row, game = await table.game(game_id)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(*choose_action(game, rng))
    await bot.store.commit_move(
        game_id, row.version, game.to_dict(), game.version, game.log[row.version :], finished=True
    )
    winners = [s.player for s in game.result().ranking if s.place == 1]
    # a second game, abandoned in its lobby by its creator
    ana = next(u for u in table.users.values() if u.name == "ana")
    await fake_discord.slash(ana, channel, "montana", "game", "new")
    await fake_discord.slash(ana, channel, "montana", "game", "abandon")
    listed = await fake_discord.slash(ana, channel, "montana", "game", "history")
    assert listed.ephemeral
    lines = [line for line in listed.content.splitlines() if line.startswith("#")]
    assert len(lines) == 2
    abandoned, finished = lines
    assert "abandoned" in abandoned
    date = (await table.row(game_id)).updated_at[:10]
    names = row.names
    assert finished.startswith(f"#{game_id} · {date} · ")
    assert ", ".join(s.name for s in row.players) in finished
    assert finished.endswith("won by " + " and ".join(names[w] for w in winners))
    # from inside the game's thread it is listed too
    inside = await fake_discord.slash(ana, thread, "montana", "game", "history")
    assert f"#{game_id} · " in inside.content
    assert Game.from_dict((await table.row(game_id)).state or {}).is_over


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_finishes_cleanly_and_closes_the_database(
    fake_gateway: FakeGateway, tmp_path: Path, stop_signal: signal.Signals
) -> None:
    ana, ben = fake_gateway.add_user("ana"), fake_gateway.add_user("ben")
    db = tmp_path / "m.sqlite3"
    env = {
        **os.environ,
        "DISCORD_TOKEN": TOKEN,
        "MONTANA_DB": str(db),
        "MONTANA_GUILD_ID": str(fake_gateway.guild_id),
    }
    bot = await fake_gateway.spawn(sys.executable, "-m", "bot", env=env)
    await fake_gateway.wait_connected(timeout=30)
    await fake_gateway.wait_until(
        lambda: fake_gateway.requests("PUT /applications/{id}/guilds/{id}/commands"), timeout=10
    )
    created = await fake_gateway.slash(ana, fake_gateway.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None
    await fake_gateway.press(ben, lobby, label="Join")
    await fake_gateway.press(ana, lobby, label="Start")
    await fake_gateway.wait_until(
        lambda: fake_gateway.threads and fake_gateway.messages_in(fake_gateway.threads[-1]),
        timeout=20,
    )
    bot.process.send_signal(stop_signal)
    assert await asyncio.wait_for(bot.wait(), 15) == 0, bot.stderr
    assert TOKEN not in bot.stderr
    assert "stopping (signal received)" in bot.stderr
    assert re.search(r"\[game \d+ channel \d+\]", bot.stderr), bot.stderr
    # the database was closed: SQLite folds the write-ahead log back on the last close
    assert db.exists() and not Path(f"{db}-wal").exists()


async def test_forged_log_and_vote_buttons_of_another_channel_are_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    here, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "a", "b")
    elsewhere_channel = fake_discord.add_channel("other")
    other_table = Table(fake_discord, bot)
    there, _, _ = await open_game(fake_discord, other_table, elsewhere_channel, "c", "d")
    viewer = next(iter(table.users.values()))
    shown = original(await fake_discord.slash(viewer, thread, "montana", "game", "log"))
    for custom_id in (f"ml:{there}:1:o", f"mv:{there}:1"):
        forged = await fake_discord.press_forged(viewer, shown, custom_id)
        assert forged.ephemeral and "another channel" in forged.content
    # the own game's log page still answers
    own = await fake_discord.press_forged(viewer, shown, f"ml:{here}:1:l")
    assert "page 1 of" in own.text


async def test_an_existing_database_is_upgraded_with_its_games_kept(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # a file written by the bot before deadlines existed
        for statement in statements_for((*MIGRATIONS[0], *MIGRATIONS[1]), "sqlite"):
            db.execute(statement)
        db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        db.execute("INSERT INTO schema_version VALUES (2)")
        db.execute(
            "INSERT INTO games (channel_id, creator_id, status, players, state, version, "
            "created_at, updated_at) VALUES (5, '1', 'active', '[]', '{}', 1, 't', 't')"
        )
        db.execute("INSERT INTO moves VALUES (1, 1, '1', 'recruit', 't')")
    store = await Store.open(str(path))
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        row = await store.get(1)
        assert row is not None and (row.channel_id, row.status, row.version) == (5, "active", 1)
        assert [m.notation for m in await store.moves(1)] == ["recruit"]
        deadlines = await DeadlineStore(store).deadlines(1)
        assert (deadlines.turn_seconds, deadlines.auction_seconds) == (48 * 3600, 24 * 3600)
        # the rebuilt table takes the new status; the move log still refers to it
        assert await store.set_status(1, "ended", only_from=("active",))
        with pytest.raises(aiosqlite.IntegrityError):
            await store.transaction([("INSERT INTO moves VALUES (9, 1, '1', 'x', 't', NULL)", ())])
    finally:
        await store.close()
