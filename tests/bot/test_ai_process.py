"""AI seats across a kill (issue 14 point 4): `python -m bot` as a separate process
against the loopback fake Discord, killed while an AI's move is due, or while the
message of the AI's move is being posted. After the restart the AI's move is made
exactly once: the log is the state's own, the move made is the one the AI decides in
that state (seeded by the game's state), and no message is posted twice.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import ai
from bot.core.ai_players.ai_seats import decision_seed
from bot.core.store import is_ai_seat
from tests.bot.fakegateway import FakeGateway
from tests.bot.test_crash import Session, check_consistent, press
from tests.bot.test_faults_process import (
    MESSAGES,
    bot_env,
    shown,
    shown_after,
    start_in_process,
    tap,
)

AI = "ai:1"


async def game_with_an_ai_seat(gateway: FakeGateway, db: Path, ai_delay: float) -> Session:
    """A bot process, and a game of ana and one AI seat started in its thread."""
    ana = gateway.add_user("ana")
    env = {**bot_env(gateway, db), "MONTANA_AI_DELAY_SECONDS": str(ai_delay)}
    session = Session(gateway, db, {str(ana.id): ana}, env)
    return await start_in_process(session, ana, [(ana, "Add AI")])


async def to_the_ai(session: Session) -> None:
    """Ana plays her first choices until the game waits for the AI."""
    while True:
        await shown_after(session, session.saved().version - 1)
        saved = session.saved()
        pid = saved.game.awaiting
        assert pid is not None
        if pid == AI:
            return
        message, code = await tap(session, saved.game.legal_actions(pid)[0])
        await press(session, session.users[pid], message, code)
        await moved_on(session, saved.version)


async def moved_on(session: Session, version: int) -> None:
    await session.gateway.wait_until(lambda: session.saved().version > version, timeout=20)


async def until_the_human_is_awaited(session: Session) -> None:
    def settled() -> bool:
        saved = session.saved()
        awaited = saved.game.awaiting
        return (awaited is None or not is_ai_seat(awaited)) and shown(session) == saved.version

    await session.gateway.wait_until(settled, timeout=60)


def seeded_decision(game_id: int, state: dict[str, object], version: int) -> str:
    return str(ai.decide_from_state(state, AI, "ai", decision_seed(game_id, version, 0)).action)


async def test_a_bot_killed_while_an_ai_move_is_due_makes_it_once_after_the_restart(
    tmp_path: Path,
) -> None:
    async with FakeGateway(quiet_period=0.02) as gateway:
        # the AI would wait a minute: it is killed before it moves
        session = await game_with_an_ai_seat(gateway, tmp_path / "m.sqlite3", ai_delay=60)
        await to_the_ai(session)
        due = session.saved()
        await session.kill_bot()
        assert session.saved().version == due.version, "the AI moved before the kill"
        session.env["MONTANA_AI_DELAY_SECONDS"] = "0.1"
        await session.start_bot(small_pictures=True)
        await until_the_human_is_awaited(session)
        saved = check_consistent(session)
        assert saved.version > due.version
        made = saved.log[due.version]  # the move made on the state that was due
        assert made[1] == AI
        assert made[2] == seeded_decision(session.game_id, due.state, due.version)
        forced = set(saved.game.auto)
        chosen = [
            (index, p, n)
            for index, (_, p, n) in enumerate(saved.log)
            if index >= due.version and index not in forced and not n.startswith("spin ")
        ]
        assert chosen and all(p == AI for _, p, _ in chosen), "only the AI chose since"
        assert session.thread is not None
        contents = [m.content for m in gateway.messages_in(session.thread)]
        assert len(contents) == len(set(contents)), "a message was posted twice"
        assert session.process is not None and await session.process.terminate() == 0
        assert not gateway.errors, gateway.errors


async def test_a_bot_killed_while_posting_an_ai_move_neither_repeats_nor_loses_it(
    tmp_path: Path,
) -> None:
    async with FakeGateway(quiet_period=0.02) as gateway:
        session = await game_with_an_ai_seat(gateway, tmp_path / "m.sqlite3", ai_delay=60)
        await to_the_ai(session)
        due = session.saved()
        await session.kill_bot()
        # restarted, the AI moves (once connected), and the bot dies as Discord makes the
        # post that hands the turn back to ana
        session.env["MONTANA_AI_DELAY_SECONDS"] = "2"
        thread = session.thread
        assert thread is not None

        async def sigkill() -> None:
            assert session.process is not None
            session.process.process.kill()

        fault = gateway.inject(MESSAGES, channel=thread, then=sigkill)
        await session.start_bot(small_pictures=True)
        process = session.process
        assert process is not None
        await gateway.wait_disconnected(timeout=30)
        assert await process.wait() != 0
        assert fault.hits == 1
        after_kill = session.saved()
        assert after_kill.version > due.version
        killed_at = gateway.messages_in(thread)[-1]
        # started again: what the move owes is delivered, and the AI does not move again
        session.env["MONTANA_AI_DELAY_SECONDS"] = "0.1"
        await session.start_bot(small_pictures=True)
        await until_the_human_is_awaited(session)
        await asyncio.sleep(0.5)  # time for a wrong second move to show
        saved = check_consistent(session)
        assert saved.version == after_kill.version, "the AI moved again after the restart"
        assert saved.log[due.version][1:] == (
            AI,
            seeded_decision(session.game_id, due.state, due.version),
        )
        later = [m for m in gateway.messages_in(thread) if m.id >= killed_at.id]
        assert later == [killed_at], "the post Discord made is kept, not made again"
        assert killed_at.pinged_ids == [int(str(saved.game.awaiting))]
        assert session.process is not None and await session.process.terminate() == 0
        assert not gateway.errors, gateway.errors
