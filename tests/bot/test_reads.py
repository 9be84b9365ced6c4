"""One read per interaction (issue 9, point 4): a button press or a command loads the
game's row once and passes it down; the store's version check guards the save."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.core.store import Store
from tests.bot.driver import Table, make_bot, open_game, to_main_decision
from tests.bot.fakediscord import FakeDiscord

ROW_READS = ("get", "open_game_in", "latest_game_in")


class ReadCounter:
    """Counts the game-row reads of a store while installed."""

    def __init__(self, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        for name in ROW_READS:
            monkeypatch.setattr(store, name, self._counting(getattr(store, name)))

    def _counting(self, read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await read(*args, **kwargs)

        return counted

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


async def test_a_press_and_a_typed_move_each_read_the_game_once(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    await bot.deadlines.stop()  # its own reads, between interactions, are not counted here
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    prompt = table.prompt_message(row)
    reads = ReadCounter(bot.store, monkeypatch)

    # a button that applies a move at once (Recruit): one read, the move saved
    pressed = await fake_discord.press(table.user(pid), prompt, label="Recruit")
    assert not pressed.errors
    assert reads.take() == 1
    assert (await table.row(game_id)).version > row.version
    reads.take()

    # a typed move: one read
    row, game = await table.game(game_id)
    reads.take()
    pid = game.awaiting
    assert pid is not None
    action = game.legal_actions(pid)[0]
    typed = await table.type_move(thread, pid, action)
    assert not typed.errors
    assert reads.take() == 1
    assert (await table.row(game_id)).version > row.version
    reads.take()

    # looking at the game: /montana status and /montana board read it once each
    await fake_discord.slash(table.user(pid), thread, "montana", "status")
    assert reads.take() == 1
    await fake_discord.slash(table.user(pid), thread, "montana", "board")
    assert reads.take() == 1


async def test_joining_a_lobby_reads_it_once(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    await bot.deadlines.stop()
    ana, ben, cleo = (fake_discord.add_user(n) for n in ("ana", "ben", "cleo"))
    created = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None
    reads = ReadCounter(bot.store, monkeypatch)
    await fake_discord.press(ben, lobby, label="Join")
    assert reads.take() == 1
    await fake_discord.slash(cleo, fake_discord.channel, "montana", "game", "join")
    assert reads.take() == 1
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None and [s.name for s in row.players] == ["Ana", "Ben", "Cleo"]
