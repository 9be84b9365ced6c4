"""Slash commands named inside sentences: `{/game new}` in a marked string.

A sentence that tells the player to use a command names it by a field whose name is
the command's path under `/montana`, with a slash: `"Start one with {/game new}."` (another
top-level command, of `TOP_LEVEL_COMMANDS`, by its own name: `{/montana-games}`); an
option by the same field with the option as its format spec (`{/me away:days}`), with
its value if the sentence gives one (`{/me away:days=3}`). A path ending in `…` names a
group of commands (`{/game …}`).
The translator fills them itself (no keyword to pass) through the `CommandNamer` in use:

- by default (and for English): the path in the reader's language, as code:
  `` `/montana partie nouvelle` ``, `` `jours:` `` — what a client of that language shows;
- on Discord, once the command ids are known (`bot.core.wording.commands`): a command mention
  `</montana game new:ID>`, which every client shows in its own language and makes
  tappable;
- in the console, the console's own command where it has one (`board`).

So no translation can name a command in the wrong language or a path that does not
exist: the field is the same in every language (`python -m i18n check` compares them).
"""

from __future__ import annotations

import string
from typing import Protocol

ROOT_COMMAND = "montana"
"""The top-level slash command every path is under, unless it names another one."""
GAMES_COMMAND = "montana-games"
"""Every game of a player in every server: a command of its own, since `/montana` cannot
be used in a DM with the bot (`bot.discord_app.clock.mine`)."""
TOURNAMENT_COMMAND = "montana-tournament"
"""A server's tournaments (issue 40): a command of its own, as `/montana` is full
(`bot.discord_app.community.tournaments`)."""
TOP_LEVEL_COMMANDS = (ROOT_COMMAND, GAMES_COMMAND, TOURNAMENT_COMMAND)
"""The top-level commands; a path starting with one other than `/montana` is under it."""
COMMAND_FIELD_PREFIX = "/"
COMMAND_NAME_CONTEXT = "command name"
OPTION_NAME_CONTEXT = "option name"
"""The catalogue contexts of the commands' localized names (`bot.discord_app.translator`)."""


class Lookup(Protocol):
    """What naming a command needs of the reader's `i18n.Translator`: the localized name of
    a command or an option, if its catalogue has one. (A protocol, not the translator
    itself, which fills command fields with this module: no circle of imports.)"""

    def lookup(self, context: str | None, message: str) -> str | None: ...


class CommandNamer(Protocol):
    """How a command and an option are written for the reader of `t`."""

    def command(self, t: Lookup, path: str) -> str: ...

    def option(self, t: Lookup, path: str, option: str) -> str: ...


def full_path(path: str) -> list[str]:
    """A field's path as the words of a whole command: `game new` -> montana game new;
    `montana-games` (another top-level command) -> montana-games."""
    words = path.split()
    return words if words[:1] and words[0] in TOP_LEVEL_COMMANDS else [ROOT_COMMAND, *words]


def localized_path(t: Lookup, path: str) -> str:
    """`/montana game new` as a client of `t`'s language lists it: `/montana partie nouvelle`."""
    parts = full_path(path)
    return "/" + " ".join(t.lookup(COMMAND_NAME_CONTEXT, part) or part for part in parts)


def localized_option(t: Lookup, option: str) -> str:
    return t.lookup(OPTION_NAME_CONTEXT, option) or option


class PlainCommands:
    """Commands written as text in the reader's language: `` `/montana partie nouvelle` ``."""

    def command(self, t: Lookup, path: str) -> str:
        return f"`{localized_path(t, path)}`"

    def option(self, t: Lookup, path: str, option: str) -> str:
        """`days` -> `` `jours:` ``; `days=3` (an option with its value) -> `` `jours: 3` ``."""
        name, _, value = option.partition("=")
        return (
            f"`{localized_option(t, name)}: {value}`"
            if value
            else f"`{localized_option(t, name)}:`"
        )


PLAIN_COMMANDS = PlainCommands()
_namer: CommandNamer = PLAIN_COMMANDS


def name_commands_with(namer: CommandNamer | None) -> CommandNamer:
    """Use `namer` for every command named from now on in this process (None: the plain
    text again); returns the one used before. The Discord bot installs its mentions when
    it starts, the console its own command words."""
    global _namer
    previous = _namer
    _namer = namer or PLAIN_COMMANDS
    return previous


def command_namer() -> CommandNamer:
    return _namer


class CommandField:
    """What `{/game new}` or `{/me away:days}` is filled with when a message is worded."""

    __slots__ = ("path", "t")

    def __init__(self, t: Lookup, path: str) -> None:
        self.t = t
        self.path = path

    def __format__(self, spec: str) -> str:
        if spec:
            return _namer.option(self.t, self.path, spec)
        return _namer.command(self.t, self.path)

    def __str__(self) -> str:
        return format(self)


def is_command_field(name: str) -> bool:
    return name.startswith(COMMAND_FIELD_PREFIX)


def command_fields(text: str) -> set[tuple[str, str]]:
    """The (path, option) of every command field of a template; option "" for a command,
    the option's name without its value."""
    return {
        (field[len(COMMAND_FIELD_PREFIX) :], (spec or "").partition("=")[0])
        for _, field, spec, _ in string.Formatter().parse(text)
        if field is not None and is_command_field(field)
    }
