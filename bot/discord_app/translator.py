"""The slash commands in each user's Discord language, from the i18n catalogue.

When the commands are synced, discord.py asks the tree's `app_commands.Translator` for
every command, group and option name, every description and every choice name, once
for each Discord locale; the answers become the `name_localizations` and
`description_localizations` Discord shows to a user whose client speaks that locale.
`CommandTranslator` answers from the catalogue: French, Polish and Japanese clients get
their words, every other locale the English the commands are declared with.

The same words mean different things in a name and a sentence, and names obey
Discord's rules (lowercase, 1–32 letters, digits, `-` or `_`), so each kind of string
has its own catalogue context (`CONTEXTS`). A translation that breaks Discord's rules
is left out (logged), so a slip in a catalogue cannot make the sync fail.

`command_strings` lists what the tree sends, with those contexts; `extract_commands`
is the Babel extraction method that puts them into the catalogue's template.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import discord
from babel.messages.extract import extract_python
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands.commands import validate_name

from i18n import SOURCE_LANGUAGE, Language, Translator, language_for_locale, translator
from i18n.build import REPO_ROOT

log = logging.getLogger(__name__)

COMMAND_NAME = "command name"
OPTION_NAME = "option name"
DESCRIPTION = "command description"
CHOICE_NAME = "option choice"
CONTEXTS: dict[Location, str | None] = {
    Location.command_name: COMMAND_NAME,
    Location.group_name: COMMAND_NAME,
    Location.parameter_name: OPTION_NAME,
    Location.command_description: DESCRIPTION,
    Location.group_description: DESCRIPTION,
    Location.parameter_description: DESCRIPTION,
    Location.choice_name: CHOICE_NAME,
    Location.other: None,
}
"""The catalogue context (msgctxt) of each place a command string can stand in."""
NAME_LOCATIONS = frozenset({Location.command_name, Location.group_name, Location.parameter_name})
TEXT_LIMIT = 100
"""Discord's limit for descriptions and choice names, in characters."""

AppCommand = app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu


def discord_problem(location: Location, text: str) -> str | None:
    """Why Discord would refuse `text` in that place, or None if it is fine."""
    if location in NAME_LOCATIONS:
        try:
            validate_name(text)
        except ValueError as error:
            return str(error)
        return None
    if not 1 <= len(text) <= TEXT_LIMIT:
        return f"{len(text)} characters; Discord takes 1 to {TEXT_LIMIT}"
    return None


class CommandTranslator(app_commands.Translator):
    """`await tree.set_translator(CommandTranslator())` before `tree.sync()`.

    `translators` gives the catalogue of a language (the real one by default; tests pass
    their own)."""

    def __init__(self, translators: Callable[[Language], Translator] = translator) -> None:
        self._translators = translators

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_for_locale(locale)
        if language == SOURCE_LANGUAGE:
            return None
        text = self._translators(language).lookup(CONTEXTS[context.location], string.message)
        if text is None:
            return None
        problem = discord_problem(context.location, text)
        if problem is not None:
            log.warning(
                "%s %s translation of %r left out: %s",
                language,
                context.location.name,
                string.message,
                problem,
            )
            return None
        return text


class _Recorder(app_commands.Translator):
    """Notes every string discord.py would have translated, and translates none."""

    def __init__(self) -> None:
        self.found: dict[tuple[str | None, str], Location] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.found.setdefault((CONTEXTS[context.location], string.message), context.location)
        return None


async def command_strings(commands: Iterable[AppCommand]) -> dict[tuple[str | None, str], Location]:
    """Every (context, English) a sync of these commands asks the translator for, in the
    order discord.py asks, with the place it first stands in."""
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents(guilds=True))
    )
    recorder = _Recorder()
    for command in commands:
        await command.get_translated_payload(tree, recorder)
    return recorder.found


def extract_commands(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Any,
) -> Iterator[tuple[Any, ...]]:
    """Babel extraction method for the module that assembles the commands: its own
    marked strings, then the strings of every command or group it holds at top level
    (imported by the module's name, so all features have added their subcommands)."""
    yield from extract_python(fileobj, keywords, comment_tags, options)
    path = Path(fileobj.name).resolve().relative_to(REPO_ROOT)
    module_name = ".".join(path.with_suffix("").parts)
    module = importlib.import_module(module_name)
    commands = [
        value
        for value in vars(module).values()
        if isinstance(value, app_commands.Command | app_commands.Group | app_commands.ContextMenu)
    ]
    for (context, message), location in asyncio.run(command_strings(commands)).items():
        comment = f"Discord {location.name.replace('_', ' ')}"
        if location in NAME_LOCATIONS:
            comment += ": lowercase, 1-32 letters, digits, - or _, no spaces"
        elif location is not Location.other:
            comment += f": at most {TEXT_LIMIT} characters"
        arguments = (message,) if context is None else (context, message)
        yield 0, "gettext" if context is None else "pgettext", arguments, [comment]
