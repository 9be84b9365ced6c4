"""The outbox tells its messages apart by their identity, never by their words (issue 29),
through real discord.py and the fake Discord.

Montana's words repeat all the time (the same move made again after an undo, a pass in
the auction); a retry that looked for an earlier attempt by its words took an earlier
move's message for the owed one, and the owed words never appeared. Each message the
outbox delivers ends with its identity (invisible), which a retry looks for. The
restart across which every owed message is a retry is in `test_outbox_process.py`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.core.store import Owed, StoreError
from bot.discord_app.delivery.announce import DiscordAnnouncer, identity_of
from rules import Action, Game
from tests.bot.driver import Table, game_at_main
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.test_faults import MESSAGES, eventually

HISTORY = "GET /channels/{id}/messages"
CHANNEL = "GET /channels/{id}"


def a_bank_move(game: Game) -> Action:
    """A move of the awaited player that ends their turn without a spin: its words are
    the same every time it is made from the same state."""
    pid = game.awaiting
    assert pid is not None
    return next(a for a in game.legal_actions(pid) if a.verb == "bank")


def delivered_ids(db: Path, game_id: int) -> list[tuple[int, int]]:
    """(outbox id, message id) of the game's posts delivered as a message, oldest first."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT id, message_id FROM outbox WHERE game_id = ? AND kind = 'post' "
            "AND message_id IS NOT NULL ORDER BY id",
            (game_id,),
        ).fetchall()
    return [(int(owed), int(message)) for owed, message in rows]


def after(fake: FakeDiscord, thread: FakeChannel, message: FakeMessage) -> list[FakeMessage]:
    return [m for m in fake.messages_in(thread) if m.id > message.id]


async def test_two_owed_posts_with_the_same_words_are_both_posted_once_in_order(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "ana", "ben")
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    before = table.prompt_message(row)
    move = a_bank_move(game)
    # Discord is down: the move, taken back, made again, taken back again, made again;
    # owed: the two undos (the same words: the moves they took back are dropped) and the
    # move
    outage = fake_discord.inject(MESSAGES, 503, channel=thread, times=1000)
    for _ in range(2):
        await table.type_move(thread, mover, move)
        await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    await table.type_move(thread, mover, move)
    owed = await table.bot.store.owed(game_id)
    assert [entry.kind for entry in owed] == ["post"] * 3 and outage.hits >= 3
    assert owed[0].body["text"] == owed[1].body["text"]  # the same words, twice
    outage.times = 0  # back: the delivery task tries again by itself
    await eventually(lambda: _nothing_owed(table, game_id))

    posted = after(fake_discord, thread, before)
    assert [m.content for m in posted[:2]] == [owed[0].body["text"]] * 2
    assert posted[2].content.startswith(owed[2].body["text"])
    # each message carries the identity of the owed message it delivers
    assert [identity_of(m.raw_content) for m in posted] == [e.id for e in owed]
    assert delivered_ids(db, game_id)[-3:] == [
        (e.id, m.id) for e, m in zip(owed, posted, strict=True)
    ]
    # only the newest is the prompt: buttons, the ping of whoever must act
    assert [bool(m.interactive_components()) for m in (before, *posted)] == [
        False,
        False,
        False,
        True,
    ]
    row, game = await table.game(game_id)
    assert game.awaiting is not None and game.awaiting != mover
    assert [m.pinged_ids for m in posted] == [[], [], [int(game.awaiting)]]
    assert (row.message_id, row.prompt_version) == (posted[2].id, row.version)


async def _nothing_owed(table: Table, game_id: int) -> bool:
    return await table.bot.store.owed(game_id) == []


async def test_a_delivery_the_store_could_not_record_is_found_again_not_posted_twice(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29.2: the post went out but "delivered as message M" could not be saved
    (the disk full): the record is owed like the post, tried again with the back-off
    (2 s first, not at the next move or poll), and the retry finds M by its identity."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "ana", "ben")
    store = table.bot.store
    row, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    before = table.prompt_message(row)
    real_delivered = store.delivered
    refused: list[int] = []

    async def disk_full(owed: Owed, message_id: int | None, **options: Any) -> None:
        if not refused:
            refused.append(owed.id)
            raise StoreError("database or disk is full")
        await real_delivered(owed, message_id, **options)

    monkeypatch.setattr(store, "delivered", disk_full)
    await table.type_move(thread, mover, a_bank_move(game))
    (made,) = after(fake_discord, thread, before)
    assert refused and (await store.owed(game_id))[0].id == refused[0]
    looked = len(fake_discord.requests(HISTORY))
    await eventually(lambda: _nothing_owed(table, game_id))
    assert after(fake_discord, thread, before) == [made], "posted once"
    assert len(fake_discord.requests(HISTORY)) > looked, "the retry looked for it"
    row = await table.row(game_id)
    assert (row.message_id, row.prompt_version) == (made.id, row.version)
    assert delivered_ids(db, game_id)[-1] == (refused[0], made.id)
    assert made.interactive_components() and not before.interactive_components()


async def test_the_front_end_says_whether_discord_answers_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 29.4: while posts back off, the core asks now and then whether Discord
    answers again (a read of the game's place); a refusal is an answer too."""
    table, game_id, _ = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    row = await table.row(game_id)
    announcer = table.bot.service.delivery.announcer
    assert isinstance(announcer, DiscordAnnouncer)
    fake_discord.inject(CHANNEL, 503, message="Service Unavailable")
    assert not await announcer.probe(row)
    assert await announcer.probe(row)
    fake_discord.inject(CHANNEL, 403, code=50001, message="Missing Access")
    assert await announcer.probe(row)
    assert [r.status for r in fake_discord.requests(CHANNEL)][-3:] == [503, 200, 403]
