"""Across a restart, every owed message is a retry that looks for an earlier attempt
(issue 29): it must find only its own, by its identity, never an earlier message with
the same words. A real `python -m bot` process, the loopback fake Discord failing with
503 like the real one during an outage, then a restart once it is back.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

from bot.discord_app.delivery.announce import identity_of
from rules import Action
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import Session
from tests.bot.test_faults_process import MESSAGES, started_game


def owed_posts(session: Session) -> list[tuple[int, str]]:
    """(outbox id, words) of the game's posts not delivered yet, oldest first."""
    with contextlib.closing(sqlite3.connect(session.db)) as connection:
        rows = connection.execute(
            "SELECT id, body FROM outbox WHERE game_id = ? AND kind = 'post' "
            "AND delivered_at IS NULL ORDER BY id",
            (session.game_id,),
        ).fetchall()
    return [(int(owed), str(json.loads(body)["text"])) for owed, body in rows]


async def typed(session: Session, pid: str, *command: str, move: Action | None = None) -> None:
    """The player's slash command (`/montana play move:` when `move`), answered once the
    database shows the game changed."""
    assert session.thread is not None
    before = session.saved().row
    options = {"move": str(move)} if move is not None else None
    answer = await session.gateway.slash(
        session.users[pid],
        session.thread,
        "montana",
        *command,
        options=options,
        until=lambda r: (
            (session.saved().row["version"], session.saved().row["undo_epoch"])
            != (before["version"], before["undo_epoch"])
        ),
    )
    assert answer.ephemeral, answer


async def to_a_bank_move(session: Session) -> tuple[str, Action]:
    """Play the first legal moves until the awaited player may bank (a move that ends
    their turn without a spin: the same words every time it is made from one state)."""
    while True:
        game = session.saved().game
        pid = game.awaiting
        assert pid is not None and not game.is_over
        legal = game.legal_actions(pid)
        bank = [a for a in legal if a.verb == "bank"]
        if bank:
            return pid, bank[0]
        await typed(session, pid, "play", move=legal[0])


async def test_owed_posts_with_the_same_words_are_each_posted_once_after_a_restart(
    tmp_path: Path,
) -> None:
    async with FakeGateway(quiet_period=0.02) as gateway:
        session = await started_game(gateway, tmp_path / "m.sqlite3")
        thread = session.thread
        assert thread is not None and session.process is not None
        mover, bank = await to_a_bank_move(session)
        before = gateway.messages_in(thread)[-1]
        # Discord is down: the move, taken back, made again, taken back again, made
        # again; owed: the two undos (the same words) and the move
        outage = gateway.inject(MESSAGES, 503, channel=thread, times=10_000)
        for _ in range(2):
            await typed(session, mover, "play", move=bank)
            await typed(session, mover, "undo")
        await typed(session, mover, "play", move=bank)
        owed = owed_posts(session)
        assert len(owed) == 3 and owed[0][1] == owed[1][1] and outage.hits >= 3
        # a restart: every owed post is a retry now, and looks back first
        assert await session.process.terminate() == 0
        await gateway.wait_disconnected()
        outage.times = 0  # Discord is back
        await session.start_bot(small_pictures=True)
        await gateway.wait_until(lambda: owed_posts(session) == [], timeout=60)

        posted = [m for m in gateway.messages_in(thread) if m.id > before.id]
        assert [m.content for m in posted[:2]] == [owed[0][1]] * 2, "both, once each"
        assert len(posted) == 3 and posted[2].content.startswith(owed[2][1])
        assert [identity_of(m.raw_content) for m in posted] == [o for o, _ in owed]
        saved = session.saved()
        awaited = saved.game.awaiting
        assert awaited is not None and awaited != mover
        # only the newest is the prompt: buttons, the ping of whoever must act now
        assert [bool(m.interactive_components()) for m in (before, *posted)] == [
            False,
            False,
            False,
            True,
        ]
        assert [m.pinged_ids for m in posted] == [[], [], [int(awaited)]]
        assert (saved.row["message_id"], saved.row["prompt_version"]) == (
            posted[2].id,
            saved.version,
        )
        assert posted[2].files and session.full_pictures() == [], "tiny pictures only"
        assert await session.process.terminate() == 0
        assert not gateway.errors, gateway.errors
