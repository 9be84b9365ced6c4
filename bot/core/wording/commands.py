"""How a message names a slash command: a Discord command mention where the id is known.

Sentences name commands by fields (`"Start one with {/game new}."`, `i18n.commands`);
this is the one place that decides what such a field becomes:

- `DiscordCommands`: `</montana game new:ID>`, a mention that every Discord client shows
  in its own language and makes tappable. The id is the top-level command's, learned from
  the command sync (the bulk PUT answers with every command and its id) or fetched at
  start-up when the bot does not sync; kept in memory for the life of the process (a
  command's id does not change while it is not deleted). Until the ids are known, and
  for a path Discord did not return, the plain text in the reader's language.
- `ConsoleCommands`: the console's own word for what it can do (`board`), the plain
  text for the rest.

An option is never part of a mention: it is named in the reader's language (`jours:`),
as their client lists it under the command.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from i18n.commands import Lookup, PlainCommands, full_path

GROUP_MARK = "…"
"""`{/game …}` names a group of commands, which Discord cannot mention."""


@dataclass(frozen=True, slots=True)
class SyncedCommand:
    """A top-level command as Discord returns it: its name and id."""

    name: str
    id: int


@dataclass
class DiscordCommands(PlainCommands):
    """Command mentions once the top-level commands' ids are known."""

    ids: dict[str, int] = field(default_factory=dict)

    def remember(self, commands: Iterable[SyncedCommand]) -> None:
        """Keep the ids of the commands Discord returned (a sync or a fetch); a command
        that is no longer among them is named in plain text again."""
        self.ids = {command.name: command.id for command in commands}

    def command(self, t: Lookup, path: str) -> str:
        words = full_path(path)
        command_id = self.ids.get(words[0])
        if command_id is None or path.endswith(GROUP_MARK):
            return super().command(t, path)
        return f"</{' '.join(words)}:{command_id}>"


@dataclass
class ConsoleCommands(PlainCommands):
    """The console's word for a command it understands (`words`: path -> word)."""

    words: Mapping[str, str] = field(default_factory=dict)

    def command(self, t: Lookup, path: str) -> str:
        word = self.words.get(path)
        return f"`{word}`" if word is not None else super().command(t, path)


__all__ = ["ConsoleCommands", "DiscordCommands", "SyncedCommand"]
