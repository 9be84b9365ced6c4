"""Taking a move back through the bot (issue 11.2): the Undo buttons and `/montana undo`,
the earlier state restored exactly (state, picture, move log), refusals, buttons of the
undone line of play, a restart, and the deadline clock after an undo."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bot.core.clock.deadlines import parse_time
from bot.core.store import GameRow, UndoneMove
from bot.discord_app.components import PICTURE_NAME
from rules import Action, Game
from tests.bot.driver import Table, codes_on, game_at_main, give_pumpkins, make_bot, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.test_deadlines import manual_clock

UNDO = "↩ Undo"


async def two_players(fake: FakeDiscord, db: Path) -> tuple[Table, int, FakeChannel]:
    return await game_at_main(fake, db, "ana", "ben")


def a_bank_move(game: Game) -> Action:
    """A move of the awaited player that ends their turn without a spin."""
    pid = game.awaiting
    assert pid is not None
    return next(a for a in game.legal_actions(pid) if a.verb == "bank")


def posted_after(fake: FakeDiscord, thread: FakeChannel, message: FakeMessage) -> list[FakeMessage]:
    return [m for m in fake.messages_in(thread) if m.id > message.id]


async def test_the_undo_button_restores_the_exact_earlier_state(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_players(fake_discord, tmp_path / "m.sqlite3")
    before_row, before = await table.game(game_id)
    mover = before.awaiting
    assert mover is not None
    other = next(pid for pid in before.player_ids if pid != mover)
    names = before_row.names
    earlier_prompt = table.prompt_message(before_row)
    move = a_bank_move(before)
    assert await table.tap_move(game_id, move) is not None
    row, game = await table.game(game_id)
    assert game.awaiting == other
    prompt = table.prompt_message(row)
    # the next player's prompt carries the mover's Undo, named for them
    assert f"{UNDO} ({names[mover]})" in prompt.button_labels()
    undo_id = prompt.find_component(label=f"{UNDO} ({names[mover]})")["custom_id"]
    # only the mover may press it: the others get a friendly word and nothing changes
    refused = await fake_discord.press(table.user(other), prompt, undo_id)
    assert refused.ephemeral and f"only {names[mover]} can press it" in refused.content
    assert (await table.row(game_id)).version == row.version

    await fake_discord.press(table.user(mover), prompt, undo_id)

    after_row, after = await table.game(game_id)
    assert after.to_dict() == before.to_dict()
    assert after_row.version == before_row.version and after_row.undo_epoch == 1
    # the move log is the game's record again; what was undone is in the audit trail
    moves = await table.bot.store.moves(game_id)
    assert [(m.player, m.notation) for m in moves] == before.log
    undone = await table.bot.store.undone_moves(game_id)
    assert [(u.player, u.notation, u.undone_by) for u in undone] == [
        (pid, notation, mover) for pid, notation in game.log[before.version :]
    ]
    assert all(isinstance(u, UndoneMove) and u.undo_epoch == 1 for u in undone)
    # a fresh prompt for the earlier state: the line said, nobody pinged, the same
    # picture as when the game was there before; the previous prompt is dead
    (message,) = posted_after(fake_discord, thread, prompt)
    assert message.content.startswith(f"↩ {names[mover]} took back: put ")
    assert f"<@{mover}>, your turn" in message.content
    assert message.pinged_ids == []
    assert message.files[PICTURE_NAME] == earlier_prompt.files[PICTURE_NAME]
    assert not prompt.interactive_components()
    assert after_row.message_id == message.id and after_row.prompt_version == after.version
    assert "a:recruit" in codes_on(message)
    # the game goes on from there
    assert await table.tap_move(game_id, move) is not None
    assert (await table.game(game_id))[1].log == game.log


async def test_the_receipt_of_a_move_offers_undo_and_the_panel_comes_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, _ = await two_players(fake_discord, tmp_path / "m.sqlite3")
    _, before = await table.game(game_id)
    mover = before.awaiting
    assert mover is not None
    result = await table.tap_move(game_id, a_bank_move(before))
    assert result is not None
    receipt = original(result)
    assert receipt.ephemeral and receipt.content.startswith("Done: ")
    assert receipt.button_labels() == [UNDO]
    pressed = await fake_discord.press(table.user(mover), receipt, label=UNDO)
    _, after = await table.game(game_id)
    assert after.to_dict() == before.to_dict()
    # the mover's panel shows their choices again
    panel = original(pressed)
    assert panel.id == receipt.id and "took back" in panel.content
    assert "a:recruit" in codes_on(panel)


async def test_undo_is_refused_after_another_player_acted_or_a_spin(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await two_players(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    names = row.names
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    _, game = await table.game(game_id)
    other = game.awaiting
    assert other is not None and other != mover
    # the other player acts: the first mover's move cannot be taken back any more
    await table.type_move(thread, other, a_bank_move(game))
    row, game = await table.game(game_id)
    assert game.awaiting == mover
    said = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert said.content == f"Nothing to take back: {names[other]} has moved since."
    assert (await table.game(game_id))[1].to_dict() == game.to_dict()
    # a recruit spins the wheel: its result is revealed, so it cannot be taken back
    await table.type_move(thread, mover, Action("recruit"))
    row, game = await table.game(game_id)
    assert game.awaiting == mover and game.log[-1][1].startswith("spin ")
    assert not any(label.startswith(UNDO) for label in table.prompt_message(row).button_labels())
    said = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert said.content == "Nothing to take back: the wheel has been spun since."
    assert (await table.game(game_id))[1].to_dict() == game.to_dict()


async def test_a_button_of_an_undone_line_stays_out_of_date(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """After an undo the version goes down and comes back up along another line of
    play: a button made for the undone line carries its version and epoch, and is out of
    date even when the game is at that version again, also after a restart."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_players(fake_discord, db)
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    start = table.prompt_message(row)
    # a step panel opened before the move (for the state the undo will return to)
    work = await fake_discord.press(table.user(mover), start, label="Work…")
    old_panel = original(work)
    code, (kind, select_id) = next(iter(codes_on(old_panel).items()))
    assert kind == "select" and code.startswith("p:")
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    row, game = await table.game(game_id)
    old_prompt = table.prompt_message(row)
    old_ids = old_prompt.custom_ids()
    assert all(i.split(":")[2] == str(row.version) for i in old_ids)  # epoch 0: no suffix
    said = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert "took back" in said.content
    # back at the version the panel was made for, in the next epoch: out of date
    assert (await table.row(game_id)).version == start_version(select_id)
    stale = await fake_discord.select(table.user(mover), old_panel, select_id, [code])
    assert "out of date" in stale.content
    # the same move again: the game is at the undone line's version once more ...
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    row, game = await table.game(game_id)
    assert row.version == game.version and game.awaiting is not None
    new_ids = table.prompt_message(row).custom_ids()
    assert all(i.split(":")[2] == f"{row.version}.1" for i in new_ids)
    # ... and, after a restart too, the undone line's buttons change nothing
    await fake_discord.stop(table.bot)
    table.bot = make_bot(db, seed=9)
    await fake_discord.start(table.bot)
    for custom_id in old_ids:
        code = custom_id.split(":", 3)[3]
        presser = mover if code == "undo" else game.awaiting
        if code == "board":
            continue  # looking at one's own board changes nothing, whenever
        forged = await fake_discord.press_forged(table.user(presser), old_prompt, custom_id)
        assert "out of date" in forged.text, (code, forged.text)
    assert (await table.game(game_id))[1].to_dict() == game.to_dict()


def start_version(custom_id: str) -> int:
    return int(custom_id.split(":")[2].split(".")[0])


async def test_after_an_undo_the_decision_keeps_its_clock_without_a_reminder_at_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The clock of the decision taken back to is the one it had (from its move's time):
    the steps due by the undo count as done, so neither the reminders of the undone
    line nor the undo make one come at once, and the next one comes on that clock."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_players(fake_discord, db)
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    # the mover's decision began 60 h ago; at half of their 48 h they were reminded
    began = await backdate(table, row, hours=60)
    driver = await manual_clock(table.bot, game_id, 0)
    driver.clock = lambda: began + timedelta(hours=25)
    assert await driver.run_due() == 1
    # they moved after 26 h; the next player was reminded at half of their time
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    moved = await backdate(table, await table.row(game_id), hours=34)
    driver.clock = lambda: moved + timedelta(hours=25)
    assert await driver.run_due() == 1
    # now, 60 h after the decision began, the mover takes their move back
    said = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert "took back" in said.content
    undo_post = fake_discord.messages_in(thread)[-1]
    driver.clock = lambda: began + timedelta(hours=60, minutes=1)
    assert await driver.run_due() == 0
    assert fake_discord.messages_in(thread)[-1].id == undo_post.id
    # the decision's own clock goes on: overdue again at twice its deadline
    driver.clock = lambda: began + timedelta(hours=95)
    assert await driver.run_due() == 0
    driver.clock = lambda: began + timedelta(hours=96, minutes=1)
    assert await driver.run_due() == 1
    overdue = fake_discord.messages_in(thread)[-1]
    assert "Overdue" in overdue.content and overdue.pinged_ids == [int(mover)]


async def test_an_undo_after_the_half_time_passed_unreminded_reminds_nobody_at_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_players(fake_discord, db)
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    moved_at = await backdate(table, row, hours=30)  # moved before any reminder went out
    driver = await manual_clock(table.bot, game_id, 0)
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    undo_post = fake_discord.messages_in(thread)[-1]
    driver.clock = lambda: moved_at + timedelta(hours=30, minutes=1)
    assert await driver.run_due() == 0
    assert fake_discord.messages_in(thread)[-1].id == undo_post.id


async def backdate(table: Table, row: GameRow, *, hours: float) -> datetime:
    """Move the time of the game's last move `hours` back (the player took that long);
    the new time."""
    (move,) = await table.bot.store.moves(row.id, offset=row.version - 1, limit=1)
    moved_at = parse_time(move.at) - timedelta(hours=hours)
    await table.bot.store.transaction(
        [
            (
                "UPDATE moves SET at = ? WHERE game_id = ? AND version = ?",
                (moved_at.isoformat(timespec="seconds"), row.id, row.version),
            )
        ]
    )
    return moved_at


async def test_messages_owed_for_a_move_taken_back_are_dropped(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A move whose message Discord has not taken yet is taken back: that message is
    never posted (the outbox drops it), only the undo's."""
    table, game_id, thread = await two_players(fake_discord, tmp_path / "m.sqlite3")
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    prompt = table.prompt_message(row)
    fault = fake_discord.inject("POST /channels/{id}/messages", 503, channel=thread)
    result = await table.tap_move(game_id, a_bank_move(game))
    assert result is not None and "not shown yet" in result.text and fault.hits == 1
    moved = await table.row(game_id)
    said = await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert "took back" in said.content
    (posted,) = posted_after(fake_discord, thread, prompt)
    assert posted.content.startswith("↩ ")
    rows = await table.bot.store.query(
        "SELECT version, delivered_at, last_error FROM outbox WHERE game_id = ? AND version > ?",
        (game_id, row.version),
    )
    assert [r["version"] for r in rows] == [moved.version]
    assert rows[0]["delivered_at"] is not None and rows[0]["last_error"] == "taken back"
    assert await table.bot.store.owed(game_id) == []


async def test_the_deadlines_follow_the_line_of_play_after_an_undo(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A version reached again along another line of play awaits another decision: the
    deadline task does not take it for the one it saw at that version before the undo."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await two_players(fake_discord, db)
    give_pumpkins(db, game_id, 3)
    _, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    driver = await manual_clock(table.bot, game_id, 1)
    assert await driver.run_due() == 0
    assert await table.tap_move(game_id, a_bank_move(game)) is not None
    banked, game = await table.game(game_id)
    other = game.awaiting
    assert other is not None and game.pending.kind == "main"
    driver = await manual_clock(table.bot, game_id, 1)
    assert await driver.run_due() == 0  # the task has seen the other's turn at this version
    await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    assert await table.tap_move(game_id, Action("city", ("1", "1"))) is not None
    row, game = await table.game(game_id)
    assert row.version == banked.version and game.pending.kind == "bid"
    assert game.awaiting == other
    # half of the 24 h to answer the auction (not of a 48 h turn) has passed
    driver = await manual_clock(table.bot, game_id, 13)
    assert await driver.run_due() == 1
    reminder = fake_discord.messages_in(thread)[-1]
    assert "I pass for you" in reminder.content and reminder.pinged_ids == [int(other)]
