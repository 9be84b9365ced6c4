"""Launching the Activity from Discord (issue 38.5), through the real discord.py and the
fake Discord: with `MONTANA_ACTIVITY` on, a prompt carries "Play on the board", whose
press answers with LAUNCH_ACTIVITY (checked by the fake against Discord's OpenAPI spec)
and changes nothing; the global commands are synced with the app's entry point command
(Discord refuses a bulk overwrite without it once Activities are on)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.delivery.pictures import BlankRenderer
from bot.core.server.settings import Settings, SettingsError, load_settings
from bot.discord_app.client import MontanaBot
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakediscord.callbacks import LAUNCH_ACTIVITY
from tests.bot.fakediscord.model import FakeMessage

LABEL = "Play on the board"


def _activity_bot(folder: Path) -> MontanaBot:
    return MontanaBot(
        Settings(
            token=None,
            db_path=str(folder / "m.sqlite3"),
            web_url="https://mt.example",
            activity=True,
        ),
        renderer=BlankRenderer(),
        seed_source=random.Random(4),
    )


@pytest.fixture
async def table(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Table]:
    fake_discord.world.activities_enabled = True
    found = Table(fake_discord, _activity_bot(tmp_path))
    await fake_discord.start(found.bot)
    yield found


def _launch_buttons(message: FakeMessage) -> list[str]:
    return [
        str(c["custom_id"])
        for c in message.interactive_components()
        if c.get("label") == LABEL and c.get("type") == 2
    ]


async def test_the_prompts_button_launches_the_activity_and_changes_nothing(
    table: Table, fake_discord: FakeDiscord
) -> None:
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    row, _ = await table.game(game_id)
    prompt = table.prompt_message(row)
    assert _launch_buttons(prompt) == [f"pa:{game_id}"]
    assert len(prompt.interactive_components()) > 1, "beside the buttons to play"
    posted = len(fake_discord.messages_in(thread, include_ephemeral=True))
    carl = fake_discord.add_user("carl")  # a spectator may watch on the board
    for presser in (carl, table.user(row.players[0].user_id)):
        pressed = await fake_discord.press(presser, prompt, label=LABEL)
        assert pressed.response_type == LAUNCH_ACTIVITY
        assert pressed.record.activity_instance is not None
    after, _ = await table.game(game_id)
    assert (after.version, after.message_id) == (row.version, row.message_id)
    assert len(fake_discord.messages_in(thread, include_ephemeral=True)) == posted


async def test_the_entry_point_command_is_synced_as_its_own_top_level_command(
    table: Table, fake_discord: FakeDiscord
) -> None:
    entries = [c for c in fake_discord.world.global_commands if c["type"] == 4]
    assert len(entries) == 1
    entry = entries[0]
    assert entry["name"] == "play" and entry["handler"] == 2, "Discord launches it itself"
    assert set(entry["description_localizations"]) == {"fr", "pl", "ja"}
    assert all(1 <= len(d) <= 100 for d in entry["description_localizations"].values())
    assert "montana" in {c["name"] for c in fake_discord.world.global_commands}
    ana = fake_discord.add_user("ana")
    assert fake_discord.world.launch_entry_point(ana, fake_discord.channel)
    assert fake_discord.world.activity_launches[-1][:2] == (ana.id, fake_discord.channel.id)


async def test_without_activities_enabled_at_discord_the_presser_is_told_in_words(
    table: Table, fake_discord: FakeDiscord
) -> None:
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    row, _ = await table.game(game_id)
    fake_discord.world.activities_enabled = False
    pressed = await fake_discord.press(
        table.user(row.players[0].user_id), table.prompt_message(row), label=LABEL
    )
    said = pressed.original
    assert said is not None and said.ephemeral
    assert said.content.startswith("Discord did not open the board here.")
    after, _ = await table.game(game_id)
    assert after.version == row.version
    assert [e for e in fake_discord.errors if "cannot launch an activity" in e]
    fake_discord.errors.clear()  # the refusal this test asked for


async def test_without_the_activity_setting_prompts_carry_no_launch_button(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table = Table(fake_discord, make_bot(tmp_path / "m.sqlite3", renderer=BlankRenderer(), seed=4))
    await fake_discord.start(table.bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    row, _ = await table.game(game_id)
    assert _launch_buttons(table.prompt_message(row)) == []
    assert not [c for c in fake_discord.world.global_commands if c["type"] == 4]


def test_the_activity_setting_needs_the_web_and_the_sign_in() -> None:
    with pytest.raises(SettingsError, match="MONTANA_ACTIVITY=on needs"):
        load_settings({"MONTANA_ACTIVITY": "on"}, None)
    with pytest.raises(SettingsError, match="MONTANA_ACTIVITY must be on or off"):
        load_settings({"MONTANA_ACTIVITY": "maybe"}, None)
    full = {
        "MONTANA_ACTIVITY": "on",
        "MONTANA_WEB_URL": "https://mt.example",
        "MONTANA_OAUTH_CLIENT_ID": "42",
        "MONTANA_OAUTH_CLIENT_SECRET": "s",
        "MONTANA_OAUTH_REDIRECT": "https://mt.example/signin/callback",
    }
    assert load_settings(full, None).activity
    assert not load_settings({}, None).activity
