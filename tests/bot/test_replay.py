"""`/montana game replay` (issue 23.1, 23.2), through the real discord.py and the fake
Discord: the animated GIF with its progress, a part of a game, two requests drawing
once, the Replay buttons (end of a game, history), and the step view, whose buttons
keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import sqlite3
import threading
from pathlib import Path

from PIL import Image

from bot.core.community.replays import draw_replay, turn_choices
from bot.core.delivery.pictures import BlankRenderer
from render.replay import Replay, turn_count
from rules import Action, Game
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot, open_game, original
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

GIF = "montana-replay.gif"
SLOW = 120
"""Seconds an interaction drawing a whole replay may run (a shared machine)."""
STEP = "montana-turn.png"


def gif_frames(gif: bytes) -> int:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    return int(getattr(image, "n_frames", 1))


async def _table(fake: FakeDiscord, db_path: Path) -> tuple[Table, int, FakeChannel]:
    table = Table(fake, make_bot(db_path, renderer=BlankRenderer(), seed=4))
    await fake.start(table.bot)
    game_id, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben")
    return table, game_id, thread


async def _played_to(table: Table, game_id: int, done: int | None) -> tuple[Game, Action | None]:
    """The game played by the random policy and saved (as moves are), to turn `done`
    (None: to one move before its end, that move returned)."""
    row, game = await table.game(game_id)
    rng = random.Random(5)
    final = None
    while not game.is_over:
        pid, action = choose_action(game, rng)
        if done is None:
            ahead = game.copy()
            ahead.apply(pid, action)
            if ahead.is_over:
                final = action
                break
        elif turn_count(game) >= done:
            break
        game.apply(pid, action)
    await table.bot.store.commit_move(
        game_id, row.version, game.to_dict(), game.version, game.log[row.version :]
    )
    return game, final


def _user(table: Table, name: str) -> FakeUser:
    return next(u for u in table.users.values() if u.name == name)


async def test_replay_shows_progress_then_posts_a_gif_of_every_turn_up_to_now(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await _table(fake_discord, tmp_path / "m.sqlite3")
    game, _ = await _played_to(table, game_id, 6)
    last = turn_count(game)
    result = await fake_discord.slash(
        _user(table, "ana"), thread, "montana", "game", "replay", timeout=SLOW
    )
    assert result.response_type == 5, "deferred: a replay takes seconds"
    message = original(result)
    assert not message.ephemeral, "the table sees the replay"
    assert any("Drawing the replay… 0 %" in str(edit.get("content")) for edit in result.edits)
    assert gif_frames(message.files[GIF]) == last + 1
    assert f"Replay of game #{game_id}, turns 0 to {last} ({last + 1} pictures)." in (
        message.content
    )
    assert table.bot.replays.drawn == 1


async def test_a_part_of_the_game_and_a_part_that_is_not_in_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await _table(fake_discord, tmp_path / "m.sqlite3")
    game, _ = await _played_to(table, game_id, 6)
    last = turn_count(game)
    ana = _user(table, "ana")
    part = await fake_discord.slash(
        ana, thread, "montana", "game", "replay", options={"turns": "2-4"}
    )
    assert gif_frames(original(part).files[GIF]) == 3
    assert "turns 2 to 4 (3 pictures)" in original(part).content
    for wrong in ("4-2", "soon", f"{last + 1}-{last + 9}"):
        refused = await fake_discord.slash(
            ana, thread, "montana", "game", "replay", options={"turns": wrong}
        )
        assert refused.ephemeral
        allowed = f"(0 is the setup; this game has turns 0 to {last})"
        assert "write turns as FROM-TO, e.g. 10-20" in refused.content
        assert allowed in refused.content
        assert not refused.files
    assert table.bot.replays.drawn == 1, "a refused request draws nothing"


async def test_two_requests_for_the_same_replay_draw_it_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await _table(fake_discord, tmp_path / "m.sqlite3")
    game, _ = await _played_to(table, game_id, 4)
    replays = table.bot.replays
    gate = threading.Event()
    asked = 0
    real_replay = replays.replay

    async def counted(*args: object, **kwargs: object) -> Replay:
        nonlocal asked
        asked += 1
        return await real_replay(*args, **kwargs)  # type: ignore[arg-type]

    def held(*args: object) -> Replay:
        assert gate.wait(20), "the test never let the drawing finish"
        return draw_replay(*args)  # type: ignore[arg-type]

    replays._drawer = held
    replays.replay = counted  # type: ignore[method-assign]
    ana, ben = _user(table, "ana"), _user(table, "ben")
    first = asyncio.create_task(
        fake_discord.slash(ana, thread, "montana", "game", "replay", timeout=SLOW)
    )
    second = asyncio.create_task(
        fake_discord.slash(ben, thread, "montana", "game", "replay", timeout=SLOW)
    )
    while asked < 2:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    gate.set()
    results = await asyncio.gather(first, second)
    assert replays.drawn == 1
    # issue 21.2: one of the two is posted for everyone, the other gets a link to it
    posted = [original(r) for r in results if not original(r).ephemeral]
    linked = [original(r) for r in results if original(r).ephemeral]
    assert len(posted) == 1 and len(linked) == 1
    assert gif_frames(posted[0].files[GIF]) == turn_count(game) + 1
    assert link_to(posted[0]) in linked[0].content and not linked[0].files
    assert "This replay was posted already for this point of the game" in linked[0].content


def link_to(message: FakeMessage) -> str:
    return f"/{message.channel_id}/{message.id}"


async def test_the_end_of_a_game_and_the_history_have_replay_buttons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await _table(fake_discord, tmp_path / "m.sqlite3")
    game, final = await _played_to(table, game_id, None)
    assert final is not None and game.awaiting is not None
    await table.type_move(thread, game.awaiting, final)
    _, over = await table.game(game_id)
    assert over.is_over
    ending = next(
        m for m in reversed(fake_discord.messages_in(thread)) if "Replay" in m.button_labels()
    )
    assert ending.button_labels() == ["Replay", "Turn by turn"]
    steps = await fake_discord.press(_user(table, "ana"), ending, label="Turn by turn")
    assert original(steps).ephemeral and original(steps).files[STEP].startswith(b"\x89PNG")
    assert _step_turn(original(steps)).startswith(f"**Turn 1 of {turn_count(over)}**")
    pressed = await fake_discord.press(_user(table, "ben"), ending, label="Replay", timeout=SLOW)
    assert gif_frames(original(pressed).files[GIF]) == turn_count(over) + 1
    assert not original(pressed).ephemeral

    history = await fake_discord.slash(
        _user(table, "ana"), fake_discord.channel, "montana", "game", "history"
    )
    assert f"Replay #{game_id}" in history.original.button_labels()  # type: ignore[union-attr]
    again = await fake_discord.press(
        _user(table, "ana"), original(history), label=f"Replay #{game_id}", timeout=SLOW
    )
    # Turn by turn is not on a history line (guard.TURN_BY_TURN_OFFER)
    forged = await fake_discord.press_forged(
        _user(table, "ana"), original(history), f"rv:{game_id}"
    )
    assert forged.ephemeral and "Turn by turn button works under the message that ends" in (
        forged.content
    )
    # the same replay of the same finished game: not posted twice, linked to its asker
    assert original(again).ephemeral and not original(again).files
    assert link_to(original(pressed)) in original(again).content
    assert table.bot.replays.drawn == 1


def _step_turn(message: FakeMessage) -> str:
    return message.content.splitlines()[0]


async def test_the_step_view_walks_the_turns_and_keeps_working_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "m.sqlite3"
    table, game_id, thread = await _table(fake_discord, db_path)
    game, _ = await _played_to(table, game_id, 6)
    last = turn_count(game)
    ana = _user(table, "ana")
    opened = await fake_discord.slash(
        ana, thread, "montana", "game", "replay", options={"step": True}
    )
    view = original(opened)
    assert view.ephemeral, "the step view is the asker's alone"
    assert view.files[STEP].startswith(b"\x89PNG")
    assert _step_turn(view).startswith(f"**Turn 1 of {last}**: ")
    assert len(view.content.splitlines()) == 2, "what happened in the turn, in words"
    assert view.button_labels()[:4] == ["⏮", "◀", "▶", "⏭"]

    await fake_discord.press(ana, view, label="▶")
    assert _step_turn(view).startswith(f"**Turn 2 of {last}**")
    await fake_discord.press(ana, view, label="⏭")
    assert _step_turn(view).startswith(f"**Turn {last} of {last}**")
    select = next(c for c in view.interactive_components() if c.get("type") == 3)
    assert [o["value"] for o in select["options"]] == [str(t) for t in turn_choices(last, last)]
    await fake_discord.select(ana, view, select["custom_id"], ["3"])
    assert _step_turn(view).startswith(f"**Turn 3 of {last}**")
    picture_at_3 = view.files[STEP]

    # a restart: the same message's buttons are answered by the new process
    await fake_discord.stop(table.bot)
    table.bot = make_bot(db_path, renderer=BlankRenderer(), seed=9)
    await fake_discord.start(table.bot)
    await fake_discord.press(ana, view, label="◀")
    assert _step_turn(view).startswith(f"**Turn 2 of {last}**")
    await fake_discord.press(ana, view, label="▶")
    assert view.files[STEP] == picture_at_3, "the same turn is drawn the same"
    await fake_discord.press(ana, view, label="⏮")
    assert _step_turn(view) == f"**Setup** (turn 0 of {last})"


async def test_a_step_view_opened_before_an_undo_says_it_is_out_of_date(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "m.sqlite3"
    table, game_id, thread = await _table(fake_discord, db_path)
    await _played_to(table, game_id, 3)
    ana = _user(table, "ana")
    view = original(
        await fake_discord.slash(ana, thread, "montana", "game", "replay", options={"step": True})
    )
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET undo_epoch = undo_epoch + 1 WHERE id = ?", (game_id,))
    pressed = await fake_discord.press(ana, view, label="▶")
    assert pressed.ephemeral and "Moves were taken back since this replay was opened" in (
        pressed.content
    )
    assert _step_turn(view).startswith("**Turn 1 of"), "the view is left as it was"


def test_the_go_to_turn_select_spreads_25_turns_over_a_long_game() -> None:
    assert turn_choices(3, 10) == list(range(11))
    for current in (0, 1, 47, 93, 94):
        chosen = turn_choices(current, 94)
        assert len(chosen) == 25 and chosen == sorted(set(chosen))
        assert {0, 94, current} <= set(chosen)
        assert {max(0, current - 1), min(94, current + 1)} <= set(chosen)
        gaps = [b - a for a, b in itertools.pairwise(chosen)]
        assert max(gaps) <= 8, "no part of the game is far from a choice"


async def test_replays_are_drawn_one_at_a_time_and_the_last_ones_are_kept(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, _ = await _table(fake_discord, tmp_path / "m.sqlite3")
    game, _ = await _played_to(table, game_id, 4)
    row = await table.row(game_id)
    replays = table.bot.replays
    gate = threading.Event()
    running: list[tuple[int, int] | None] = []
    most = 0

    def held(*args: object) -> Replay:
        nonlocal most
        running.append(args[3])  # type: ignore[arg-type]
        most = max(most, len(running))
        assert gate.wait(20), "the test never let the drawing finish"
        try:
            return draw_replay(*args)  # type: ignore[arg-type]
        finally:
            running.remove(args[3])  # type: ignore[arg-type]

    replays._drawer = held
    parts = [(0, 1), (1, 2), (2, 3)]
    asked = [
        asyncio.create_task(replays.replay(row, game, turns=part, language="en")) for part in parts
    ]
    while not running:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)
    assert len(running) == 1, "the others wait: a worker stays free for the moves' pictures"
    gate.set()
    drawn = await asyncio.gather(*asked)
    assert most == 1 and replays.drawn == 3
    assert [replay.turns for replay in drawn] == parts
    again = await replays.replay(row, game, turns=(1, 2), language="en")
    assert again is drawn[1] and replays.drawn == 3, "the same replay asked again is kept"
    await replays.replay(row, game, turns=(1, 2), language="fr")
    assert replays.drawn == 4, "another language is another replay"


def _public_replays(fake: FakeDiscord) -> list[FakeMessage]:
    return [m for m in fake.world.messages.values() if GIF in m.files and not m.ephemeral]


async def test_a_replay_is_posted_for_everyone_once_per_state_and_part(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.2 (UX.md: nothing public repeats on demand): the same replay asked
    again, by anyone, before the game moves on, is a link to the posted one for the
    asker alone; someone not playing sees a replay alone; a new part of the game or a
    new state of it is posted again, at most once per person and state."""
    table, game_id, thread = await _table(fake_discord, tmp_path / "m.sqlite3")
    await _played_to(table, game_id, 4)
    ana, ben, eve = _user(table, "ana"), _user(table, "ben"), fake_discord.add_user("eve")

    async def replay(who: FakeUser, **options: object) -> FakeMessage:
        return original(
            await fake_discord.slash(
                who, thread, "montana", "game", "replay", options=options, timeout=SLOW
            )
        )

    # someone not playing, before anything was posted: the replay, for them alone
    alone = await replay(eve)
    assert alone.ephemeral and alone.files[GIF]
    assert f"Only you see it: you are not playing in game #{game_id}." in alone.content
    assert _public_replays(fake_discord) == []
    first = await replay(ana)
    assert not first.ephemeral and first.files[GIF]
    for who in (ana, ben, eve):
        again = await replay(who)
        assert again.ephemeral and not again.files, who.name
        assert "This replay was posted already for this point of the game" in again.content
        assert link_to(first) in again.content
    assert _public_replays(fake_discord) == [first]
    # another part of the game is another replay; asked again, linked
    part = await replay(ben, turns="1-2")
    assert not part.ephemeral and "turns 1 to 2" in part.content
    assert link_to(part) in (await replay(ana, turns="1-2")).content
    # one public replay per person and state: a third part asked by one of them is theirs
    for who in (ana, ben):
        theirs = await replay(who, turns="2-3")
        assert theirs.ephemeral and "turns 2 to 3" in theirs.content, who.name
        assert gif_frames(theirs.files[GIF]) == 2
        assert "Only you see it: you posted a replay of this point of the game already." in (
            theirs.content
        )
    # the game moves on: its replay (up to now) may be posted once more
    await _played_to(table, game_id, 5)
    later = await replay(ben)
    assert not later.ephemeral and later.files[GIF] != first.files[GIF]
    assert link_to(later) in (await replay(ana)).content
    assert _public_replays(fake_discord) == [first, part, later]
