"""Issue 13: the slash commands' names, descriptions, options and choices that discord.py
syncs are translated for French, Polish and Japanese clients, and a translation that
Discord would refuse is left out instead of breaking the sync."""

from __future__ import annotations

import io
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.extract import extract
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from bot.discord_app.translator import (
    CommandTranslator,
    command_strings,
    discord_problem,
)
from i18n import Language, Translator, build
from tests.i18n import sample_commands

HEADER = 'msgid ""\nmsgstr ""\n"Language: {language}\\n"\n\n'
CATALOGUES = {
    "fr": """
msgctxt "command name"
msgid "montana"
msgstr "montana"

msgctxt "command description"
msgid "Play the board game Montana in this channel"
msgstr "Jouer à Montana dans ce salon"

msgctxt "command name"
msgid "build"
msgstr "construire"

msgctxt "command description"
msgid "Build a settlement on a field"
msgstr "Construire un campement sur une région"

msgctxt "option name"
msgid "field"
msgstr "région"

msgctxt "command name"
msgid "work"
msgstr "récolter"

msgctxt "option choice"
msgid "the mine"
msgstr "la mine"
""",
    "pl": """
msgctxt "command description"
msgid "Play the board game Montana in this channel"
msgstr "Graj w Montanę na tym kanale"

msgctxt "command name"
msgid "build"
msgstr "buduj"

msgctxt "command description"
msgid "Build a settlement on a field"
msgstr "Zbuduj osadę na polu"

msgctxt "option name"
msgid "field"
msgstr "pole"

msgctxt "command name"
msgid "work"
msgstr "Pracuj teraz"

msgctxt "option choice"
msgid "the mine"
msgstr "kopalnia"
""",
    "ja": """
msgctxt "command description"
msgid "Play the board game Montana in this channel"
msgstr "このチャンネルでモンタナを遊ぶ"

msgctxt "command name"
msgid "build"
msgstr "建築"

msgctxt "command description"
msgid "Build a settlement on a field"
msgstr "%s"

msgctxt "option name"
msgid "field"
msgstr "フィールド"

msgctxt "command name"
msgid "work"
msgstr "労働"

msgctxt "option choice"
msgid "the mine"
msgstr "鉱山"
"""
    % ("フィールドに開拓地を建設します" * 8),
}


def sample_translator(language: Language) -> Translator:
    text = HEADER.format(language=language) + CATALOGUES[language]
    return Translator.from_po(language, io.BytesIO(text.encode()))


async def synced_payload(translator: app_commands.Translator) -> list[dict[str, Any]]:
    """What `CommandTree.sync` would send: each command's translated payload."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents(guilds=True))
    )
    tree.add_command(sample_commands.montana)
    await tree.set_translator(translator)
    assert tree.translator is not None
    return [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree._get_all_commands()
    ]


async def test_sync_payload_carries_the_translations_discord_accepts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="bot.discord_app.translator"):
        (group,) = await synced_payload(CommandTranslator(sample_translator))
    # a name the same in every language is not repeated; the English stays the default
    assert group["name"] == "montana"
    assert group["name_localizations"] == {}
    assert group["description_localizations"] == {
        "fr": "Jouer à Montana dans ce salon",
        "pl": "Graj w Montanę na tym kanale",
        "ja": "このチャンネルでモンタナを遊ぶ",
    }
    build, work = group["options"]
    assert build["name_localizations"] == {"fr": "construire", "pl": "buduj", "ja": "建築"}
    # the Japanese description is longer than Discord's 100 characters: left out
    assert build["description_localizations"] == {
        "fr": "Construire un campement sur une région",
        "pl": "Zbuduj osadę na polu",
    }
    (field,) = build["options"]
    assert field["name_localizations"] == {"fr": "région", "pl": "pole", "ja": "フィールド"}
    # "Pracuj teraz" has a capital and a space: not a Discord name, left out
    assert work["name_localizations"] == {"fr": "récolter", "ja": "労働"}
    (area,) = work["options"]
    mine, quarry = area["choices"]
    assert mine["name_localizations"] == {"fr": "la mine", "pl": "kopalnia", "ja": "鉱山"}
    assert "name_localizations" not in quarry
    warnings = [r.getMessage() for r in caplog.records]
    assert any("pl command_name translation of 'work' left out" in w for w in warnings)
    assert any("ja command_description translation of 'Build a" in w for w in warnings)


async def test_with_the_real_catalogue_the_commands_are_localized() -> None:
    """The bot's catalogue translates the commands (issue 13 point 1): French, Polish
    and Japanese clients see their own names and descriptions."""
    (group,) = await synced_payload(CommandTranslator())
    assert group["description_localizations"] == {
        "fr": "Jouer au jeu de plateau Montana dans ce salon",
        "pl": "Graj w grę planszową Montana na tym kanale",
        "ja": "このチャンネルでボードゲーム「モンタナ」を遊ぶ",
    }
    build, work = group["options"]
    assert build["name_localizations"] == {"fr": "construire", "pl": "buduj", "ja": "建築"}
    assert work["name_localizations"] == {"fr": "récolter", "pl": "pracuj", "ja": "労働"}


@pytest.mark.parametrize(
    ("location", "text", "fine"),
    [
        (Location.command_name, "nouvelle-partie", True),
        (Location.command_name, "建築", True),
        (Location.parameter_name, "région", True),
        (Location.command_name, "Buduj", False),
        (Location.command_name, "nowa gra", False),
        (Location.group_name, "x" * 33, False),
        (Location.command_description, "x" * 100, True),
        (Location.parameter_description, "x" * 101, False),
        (Location.choice_name, "Kopalnia, pole 3", True),
    ],
)
def test_discord_rules_for_names_and_texts(location: Location, text: str, fine: bool) -> None:
    assert (discord_problem(location, text) is None) is fine


async def test_the_strings_a_sync_asks_for_are_listed_with_their_contexts() -> None:
    found = await command_strings([sample_commands.montana])
    assert list(found) == [
        ("command name", "montana"),
        ("command description", "Play the board game Montana in this channel"),
        ("command name", "build"),
        ("command description", "Build a settlement on a field"),
        ("option name", "field"),
        ("command description", "The field's label, as on the picture"),
        ("command name", "work"),
        ("command description", "Send workers to a harvest area"),
        ("option name", "area"),
        ("command description", "Where the workers go"),
        ("option choice", "the mine"),
        ("option choice", "the quarry"),
    ]
    assert found[("option name", "field")] is Location.parameter_name


def test_the_extraction_method_adds_the_command_strings_to_the_file_s_own() -> None:
    """What phase 2 maps onto bot/discord_app/client.py in `i18n.build.COMMAND_EXTRACTORS`."""
    path = Path(sample_commands.__file__)
    with path.open("rb") as source:
        method = "bot.discord_app.translator:extract_commands"
        found = list(extract(method, source, keywords=build.KEYWORDS))
    messages = [(context, message) for _, message, _, context in found]
    assert messages[0] == (None, "Only the game's creator can change its language.")
    assert ("command name", "build") in messages
    assert ("option choice", "the quarry") in messages
    comments = {message: comment for _, message, comment, _ in found}
    assert comments["build"] == [
        "Discord command name: lowercase, 1-32 letters, digits, - or _, no spaces"
    ]
    assert comments["the mine"] == ["Discord choice name: at most 100 characters"]
