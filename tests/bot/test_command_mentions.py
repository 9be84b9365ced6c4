"""Commands named in messages are Discord command mentions (issue 24 point 1).

A message telling a player to use a command carries `</montana game new:ID>`: each client
shows it as the command in its own language and makes it tappable. The ids are the ones
the command sync answered with; options, which a mention cannot hold, are named in the
reader's language. Through real discord.py and the fake Discord, which shows a mention
the way a client of the user's locale does (`FakeDiscord.as_shown`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from bot.discord_app.client import TOP_LEVEL  # (assembles every feature's commands)
from i18n import build
from i18n.commands import PLAIN_COMMANDS, command_fields, command_namer
from i18n.translator import TEMPLATE_PATH
from tests.bot.driver import make_bot
from tests.bot.fakediscord import COMMAND_MENTION, FakeDiscord

SHOWN = {
    # locale: (the refusal's start, `/montana game new` as that client lists it,
    #          `/montana me away` and its option `days` as that client lists them)
    "fr": ("Il n’y a pas de partie", "/montana partie nouvelle", "/montana moi absent", "`jours:`"),
    "pl": ("Nie ma tu gry", "/montana gra nowa", "/montana ja nieobecność", "`dni:`"),
    "ja": ("ここにはモンタナ", "/モンタナ ゲーム 新規", "/モンタナ 自分 不在", "`日数:`"),
}


@pytest.mark.parametrize("locale", ["fr", "pl", "ja"])
async def test_a_refusal_names_the_command_by_a_mention_shown_in_the_players_language(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    (montana,) = [c for c in fake_discord.world.global_commands if c["name"] == "montana"]
    player = fake_discord.add_user("ana")
    player.locale = locale
    start, new_game, away, days = SHOWN[locale]

    # no game in the channel: the refusal tells how to open one
    refused = await fake_discord.slash(player, fake_discord.channel, "montana", "board")
    assert refused.ephemeral and refused.content.startswith(start)
    assert f"</montana game new:{montana['id']}>" in refused.content
    assert new_game in fake_discord.as_shown(refused.content, locale)
    assert "`/montana" not in refused.content  # never an English path to type

    # a command with options: the command a mention, each option in the reader's words
    status = await fake_discord.slash(player, fake_discord.channel, "montana", "me", "away")
    shown = fake_discord.as_shown(status.content, locale)
    assert f"</montana me away:{montana['id']}>" in status.content
    assert away in shown and days in shown
    assert "days:" not in shown


async def test_every_mention_in_a_message_is_a_command_discord_knows(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The fake shows a mention of an unknown id or path raw, as a client would: every
    mention a message carries resolves, so no player sees `</montana …:…>` text."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    player = fake_discord.add_user("ana")
    player.locale = "fr"
    answer = await fake_discord.slash(player, fake_discord.channel, "montana", "me", "away")
    mentions = COMMAND_MENTION.findall(answer.content)
    assert mentions == [("montana me away", mentions[0][1])]
    assert not COMMAND_MENTION.search(fake_discord.as_shown(answer.content, "fr"))
    # an id Discord did not give stays raw
    assert fake_discord.as_shown("</montana board:1>", "fr") == "</montana board:1>"


async def test_before_the_ids_are_known_and_after_the_bot_closes_commands_are_plain_text(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    assert command_namer() is bot.commands and bot.commands.ids
    await bot.close()
    assert command_namer() is PLAIN_COMMANDS
    assert re.fullmatch(r"`/montana partie nouvelle`", _plain_new_game())


def _plain_new_game() -> str:
    from i18n import translator

    return translator("fr").gettext("{/game new}")


def test_every_command_a_message_names_exists_with_its_options() -> None:
    """A field `{/game new}` or `{/me away:days}` in the catalogue names a command of
    the tree and an option it has (a renamed command fails here, not in a player's face);
    `{/montana-games}` a top-level command of its own, `{/montana-tournament new}` a
    command of another top-level group."""
    commands: dict[str, set[str]] = {}

    def walk(group: app_commands.Group, path: str) -> None:
        for command in group.commands:
            name = f"{path} {command.name}".strip()
            if isinstance(command, app_commands.Group):
                commands[f"{name} …"] = set()
                walk(command, name)
            else:
                commands[name] = {parameter.display_name for parameter in command.parameters}

    for top in TOP_LEVEL:
        if isinstance(top, app_commands.Group):  # /montana: paths under it; another group
            walk(top, "" if top.name == "montana" else top.name)  # by its own name
        else:
            commands[top.name] = {parameter.display_name for parameter in top.parameters}
    named = {
        field
        for message in build.read_catalog(TEMPLATE_PATH)
        if message.id
        for text in build.texts(message.id)
        for field in command_fields(text)
    }
    assert len({path for path, _ in named}) >= 10  # the scan found the fields
    unknown = [
        (path, option)
        for path, option in sorted(named)
        if path not in commands or (option and option not in commands[path])
    ]
    assert unknown == []
