"""Issue 21.8: no internals to users. An unexpected error anywhere in an interaction
(a command, a deferred command, a press) or while posting a move's message is told to
the user as "something went wrong (error `a1b2c3`)" — never the exception, its text or
a Python repr — and the log line carrying that id has the traceback."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

from bot.core.delivery.pictures import BlankRenderer
from tests.bot.driver import Table, make_bot, open_game, to_main_decision
from tests.bot.fakediscord import FakeDiscord, InteractionResult

SECRET = "boom at 0x7f3a in /srv/montana/bot/core/play/service.py"
"""The text of the forced errors, which no user may read."""
INCIDENT = re.compile(
    r"Something went wrong \(error `([0-9a-f]{6})`\); the operators can look it up"
)


class Broken(RuntimeError):
    pass


def fail(*args: Any, **kwargs: Any) -> Any:
    raise Broken(SECRET)


def logged_with_traceback(caplog: pytest.LogCaptureFixture, incident: str) -> str:
    """The log line naming `incident`, formatted as the operators read it."""
    (record,) = [
        r for r in caplog.records if incident in r.getMessage() and r.levelno == logging.ERROR
    ]
    return logging.Formatter("%(levelname)s %(message)s").format(record)


def told(result: InteractionResult) -> str:
    """The incident id the user was told, after checking they alone were told, and
    told nothing of the error itself."""
    assert result.responded, result
    assert result.messages and all(m.ephemeral for m in result.messages), result
    text = result.text
    assert SECRET not in text and "Broken" not in text and "Traceback" not in text, text
    assert "RuntimeError" not in text and "Broken(" not in text, text
    found = INCIDENT.search(text)
    assert found is not None, text
    return found[1]


async def test_an_unexpected_error_is_told_by_its_id_and_logged_with_its_traceback(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    bot = make_bot(tmp_path / "m.sqlite3", BlankRenderer(), seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    row, game = await table.game(game_id)
    awaited = table.user(game.awaiting or "")
    service = bot.service
    incidents: list[str] = []

    # a command failing before it answers
    service.latest_here = fail  # type: ignore[method-assign]
    incidents.append(told(await fake_discord.slash(awaited, thread, "montana", "status")))
    # a command failing after "thinking…": the thinking answer becomes the words
    service.repost = fail  # type: ignore[method-assign]
    del service.latest_here
    incidents.append(told(await fake_discord.slash(awaited, thread, "montana", "board")))
    del service.repost
    # a press on the prompt
    service.check_turn = fail  # type: ignore[method-assign]
    prompt = table.prompt_message(row)
    incidents.append(told(await fake_discord.press(awaited, prompt, label="Recruit")))
    del service.check_turn

    assert len(set(incidents)) == len(incidents)  # each error its own id
    for incident in incidents:
        line = logged_with_traceback(caplog, incident)
        assert "Traceback" in line and f"Broken: {SECRET}" in line, line
    # the fake counts every ERROR line as a problem: these were provoked on purpose
    assert len(fake_discord.errors) == len(incidents)
    assert all(any(i in e for i in incidents) for e in fake_discord.errors)
    fake_discord.errors.clear()
    assert (await table.row(game_id)).version == row.version  # nothing was played


async def test_a_move_whose_message_fails_unexpectedly_says_so_without_internals(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    bot = make_bot(tmp_path / "m.sqlite3", BlankRenderer(), seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    row, game = await table.game(game_id)
    awaited = table.user(game.awaiting or "")
    announcer = bot.service.delivery.announcer
    announcer.announce = fail  # type: ignore[method-assign]
    pressed = await fake_discord.press(awaited, table.prompt_message(row), label="Recruit")
    del announcer.announce
    # saved, not shown: the mover reads why in words, with the id to quote
    assert (await table.row(game_id)).version > row.version
    text = pressed.text
    assert "Your move is saved, but it is not shown yet" in text, text
    assert SECRET not in text and "Broken" not in text, text
    found = INCIDENT.search(text)
    assert found is not None, text
    line = logged_with_traceback(caplog, found[1])
    assert "Traceback" in line and f"Broken: {SECRET}" in line, line
    fake_discord.errors.clear()
