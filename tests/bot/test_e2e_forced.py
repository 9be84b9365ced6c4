"""Forced steps through the bot (issue 11.1, RULES.md 7.3): a decision with exactly one
legal option is applied at once, said in the move's message, marked in the move log,
and nobody is mentioned, messaged or shown buttons for it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.core.play.service import FORCED_NOTE
from bot.discord_app.client import MontanaBot
from rules import Action, data
from tests.bot.driver import (
    codes_on,
    edit_state,
    game_at_main,
    give_goods,
    original,
)
from tests.bot.fakediscord import FakeDiscord


async def notes_of(bot: MontanaBot, game_id: int) -> dict[int, tuple[str, str, str | None]]:
    """version -> (player, notation, note) of the move log as stored."""
    rows = await bot.store.query(
        "SELECT version, player, notation, note FROM moves WHERE game_id = ?", (game_id,)
    )
    return {r["version"]: (r["player"], r["notation"], r["note"]) for r in rows}


async def test_a_bidder_who_can_only_pass_is_never_asked(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """7.3 "a bidder who can afford no space and may only pass": passed at once, said,
    logged under their id, and neither mentioned, messaged nor given buttons."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", "c", seed=2)
    bot = table.bot
    row, game = await table.game(game_id)
    active = game.awaiting
    assert active is not None
    seat = game.seat_of(active)
    poor, rich = (game.players[(seat + k) % 3].id for k in (1, 2))
    # the poor bidder asked for direct messages: a forced step must send none
    await fake_discord.slash(
        table.user(poor), thread, "montana", "me", "notify", options={"mode": "dm"}
    )
    give_goods(db, game_id, "pumpkin", {active: 3, poor: 0, rich: 3})
    before = fake_discord.messages_in(thread)[-1]

    assert await table.tap_move(game_id, Action("city", ("1", "1"))) is not None

    row, game = await table.game(game_id)
    assert game.pending.kind == "bid" and game.awaiting == rich
    (message,) = [m for m in fake_discord.messages_in(thread) if m.id > before.id]
    names = row.names
    assert f"{names[poor]} could pay for no free space in the city and passed." in message.content
    assert f"<@{rich}>, the city auction" in message.content
    assert message.pinged_ids == [int(rich)] and int(poor) not in message.mentioned_ids
    assert fake_discord.dms(table.user(poor)) == []
    # the buttons are the answering player's: the poor one's press is refused
    pass_button = message.find_component(label="Pass")
    refused = await fake_discord.press(table.user(poor), message, pass_button["custom_id"])
    assert refused.ephemeral and "not your move" in refused.content
    # the log holds the pass under the poor bidder's id, marked as no choice of theirs
    logged = await notes_of(bot, game_id)
    forced = [v for v, (player, notation, note) in logged.items() if note == FORCED_NOTE]
    assert [logged[v][:2] for v in forced] == [(poor, "pass")]
    shown = original(await fake_discord.slash(table.user(rich), thread, "montana", "game", "log"))
    assert f"{forced[0]}. {names[poor]}: pass  (no other choice)" in shown.content


async def test_a_return_with_one_combination_is_not_asked(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """7.3 "a return with a single combination": a player holding 8 copper workers who
    trades their only cow for another copper worker gives one back without a question."""
    db = tmp_path / "m.sqlite3"
    table, game_id, _ = await game_at_main(fake_discord, db, "a", "b")
    bot = table.bot
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None

    def eight_copper_workers_and_a_cow(state: dict[str, Any]) -> None:
        supply = state["supply"]
        for player in state["players"]:
            if player["id"] != mover:
                continue
            for colour, held in player["workers"].items():
                supply["workers"][colour] += held - (data.MAX_WORKERS if colour == "copper" else 0)
                player["workers"][colour] = data.MAX_WORKERS if colour == "copper" else 0
            supply["cows"] -= 1 - player["cows"]
            player["cows"] = 1

    edit_state(db, game_id, eight_copper_workers_and_a_cow)
    prompt = table.prompt_message(row)

    result = await table.tap_move(game_id, Action("trade", ("worker", "copper")))

    assert result is not None
    row, game = await table.game(game_id)
    assert game.awaiting == mover and game.pending.kind == "main"
    assert game.log[-2:] == [(mover, "trade worker copper"), (mover, "return copper")]
    assert game.version - 1 in game.auto
    assert game.player(mover).workers["copper"] == data.MAX_WORKERS
    # the same player goes on: their prompt says it and offers the main action again,
    # with no question about which worker to give back
    assert table.prompt_message(row).id == prompt.id
    said = f"{row.names[mover]} traded a cow for a copper worker and had to give back a copper"
    assert said in prompt.content
    panel = original(result)
    assert said in panel.content and "a:recruit" in codes_on(panel)
    assert not any(code.startswith(("a:return", "p:ret")) for code in codes_on(panel))
    logged = await notes_of(bot, game_id)
    assert logged[game.version] == (mover, "return copper", FORCED_NOTE)
