"""The `/montana` command tree, and every other top-level command, fits Discord's limits,
in every language the bot ships (issue 11 point 6; issue 13 point 1).

Discord refuses a whole sync when one limit is broken, so every command would vanish:
at most 25 subcommands or groups under a command and 25 subcommands in a group, one
level of groups, at most 25 options and 25 choices, names of 1-32 lowercase letters,
digits, `-` or `_` (other scripts' letters allowed), unique among their siblings in
every locale, descriptions of 1-100 characters, and at most 8000 characters of names,
descriptions and choice values in one top-level command. The payload checked is what
`CommandTree.sync` sends, with the catalogue's translations (`CommandTranslator`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands

from bot.core.server.settings import Settings
from bot.discord_app import client as bot_client
from bot.discord_app.group import montana
from bot.discord_app.translator import CommandTranslator
from i18n import LANGUAGES

NAME = re.compile(r"^[-_\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
LIMIT = 25
SIZE_LIMIT = 8000


async def synced_payloads() -> list[dict[str, Any]]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents(guilds=True))
    )
    for command in bot_client.TOP_LEVEL:
        tree.add_command(command)
    await tree.set_translator(CommandTranslator())
    assert tree.translator is not None
    return [
        await command.get_translated_payload(tree, tree.translator)
        for command in tree._get_all_commands()
    ]


def locales() -> list[str]:
    """The Discord locales the catalogue answers (fr, pl, ja) and English's default."""
    return [str(locale) for locale in discord.Locale]


def named(item: dict[str, Any], locale: str) -> str:
    return str((item.get("name_localizations") or {}).get(locale, item["name"]))


def described(item: dict[str, Any], locale: str) -> str:
    return str((item.get("description_localizations") or {}).get(locale, item["description"]))


def walk(item: dict[str, Any], depth: int = 0) -> Iterator[tuple[dict[str, Any], int]]:
    yield item, depth
    for option in item.get("options") or []:
        yield from walk(option, depth + 1)


def size(item: dict[str, Any], locale: str) -> int:
    total = len(named(item, locale)) + len(item.get("description", "") and described(item, locale))
    for choice in item.get("choices") or []:
        total += len(named(choice, locale)) + len(str(choice["value"]))
    return total + sum(size(option, locale) for option in item.get("options") or [])


async def test_every_level_of_the_tree_fits_discords_limits_in_every_language() -> None:
    payloads = await synced_payloads()
    assert [p["name"] for p in payloads] == ["montana", "montana-games", "montana-tournament"]
    problems: list[str] = []
    for locale in locales():
        for payload in payloads:
            if size(payload, locale) > SIZE_LIMIT:
                problems.append(f"{locale}: /{payload['name']} is {size(payload, locale)} chars")
            for item, depth in walk(payload):
                kind = item.get("type", SUBCOMMAND if depth else 0)
                where = f"{locale}: {named(item, locale)!r}"
                if not NAME.match(named(item, locale)) or named(item, locale).lower() != named(
                    item, locale
                ):
                    problems.append(f"{where}: not a Discord name")
                if "description" in item and not 1 <= len(described(item, locale)) <= 100:
                    problems.append(f"{where}: description of {len(described(item, locale))}")
                options = item.get("options") or []
                if len(options) > LIMIT or len(item.get("choices") or []) > LIMIT:
                    problems.append(f"{where}: more than {LIMIT} options or choices")
                siblings = [named(option, locale) for option in options]
                if len(set(siblings)) != len(siblings):
                    problems.append(f"{where}: two options with one name {siblings}")
                if kind == GROUP and any(o.get("type") == GROUP for o in options):
                    problems.append(f"{where}: a group inside a group")
                for choice in item.get("choices") or []:
                    if not 1 <= len(named(choice, locale)) <= 100:
                        problems.append(f"{where}: choice name {named(choice, locale)!r}")
    assert problems == []


async def test_the_tree_leaves_room_to_grow_and_keeps_the_moves_short() -> None:
    """The most used moves are one word after /montana; the groups are half empty."""
    payload = (await synced_payloads())[0]
    top = {o["name"]: o for o in payload["options"]}
    for move in ("build", "play", "recruit", "work", "city", "trade", "pass", "stop", "end"):
        assert top[move]["type"] == SUBCOMMAND
    assert len(top) <= 20
    for group in (o for o in top.values() if o["type"] == GROUP):
        assert len(group["options"]) <= 20, group["name"]


def test_every_command_is_reachable_and_answers() -> None:
    """Each leaf of the tree has a callback, and the client registers the tree."""
    leaves = [c for c in montana.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(leaves) >= 20
    assert all(callable(c.callback) for c in leaves)
    bot = bot_client.MontanaBot(Settings(token=None, db_path=":memory:"))
    assert bot.tree.get_command("montana") is montana
    assert bot.tree.get_commands() == list(bot_client.TOP_LEVEL)


async def test_only_the_game_list_can_be_used_in_a_dm_with_the_bot() -> None:
    """`/montana` is for servers (its moves need a game's channel); `/montana-games`
    lists a player's games of every server also in a DM with the bot (contexts: 0 a
    server, 1 a DM with the bot; installed in servers only, integration type 0)."""
    montana_payload, games, tournament = await synced_payloads()
    assert montana_payload["dm_permission"] is False
    assert tournament["dm_permission"] is False  # a server's tournaments
    assert montana_payload.get("contexts") in (None, [0])
    assert games["contexts"] == [0, 1] and games["dm_permission"] is True
    assert games["integration_types"] == [0]
    assert games["options"] == []
    assert games["name_localizations"] == {
        "fr": "montana-parties",
        "pl": "montana-gry",
        "ja": "モンタナ-ゲーム一覧",
    }


def test_the_catalogue_languages_are_the_ones_checked() -> None:
    assert set(LANGUAGES) == {"en", "fr", "pl", "ja"}
    assert {"fr", "pl", "ja", "en-US", "en-GB"} <= set(locales())
