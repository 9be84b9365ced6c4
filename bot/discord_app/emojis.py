"""The game's icons as the application's own emojis (issue 39.2).

At start-up, `sync` makes the application's emojis match the renderer's icons
(`render.icon_set`): each icon is uploaded as a 128 px PNG under
`mt_<icon>_<hash of its image>` when no emoji of that name exists (a first start, or an
icon drawn differently since), and the emojis of that prefix no icon names any more are
deleted; an emoji of another name (the operator's own) is never touched, and Discord's
2,000 per application are never exceeded. An icon whose upload failed, or all of them
when Discord could not be asked, is shown by its Unicode stand-in: the game goes on.

`installed()` is what the running bot uploaded (`install` sets it after `sync`):
`partial(icon)` for a button's or select option's `emoji`, `text(icon)` for words
(`<:name:id>`), `in_words(text)` to replace the core's neutral tokens
(`bot.core.wording.icons`). The buttons are built without the bot at hand
(`components.panel_view`), hence the one installed set per process.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

import discord

from bot.core.wording import icons as tokens
from render import icon_set

log = logging.getLogger(__name__)

PREFIX: Final = "mt_"
"""The start of every emoji name the bot owns: the others are left alone."""
MAX_EMOJIS: Final = 2000
"""Discord's limit of emojis per application."""
NAME: Final = re.compile(r"[A-Za-z0-9_]{2,32}")
"""An emoji name Discord accepts."""


def emoji_name(icon: str) -> str:
    """ "mt_grain_6c8dea75": the prefix, the icon's name and a short hash of its image,
    so a changed drawing is uploaded under a new name and the old one found stale."""
    return f"{PREFIX}{icon}_{icon_set.digest(icon)}"


class AppEmojis:
    """The icons the application has as emojis; the others by their Unicode stand-in."""

    def __init__(self, uploaded: Mapping[str, discord.PartialEmoji] | None = None) -> None:
        self.uploaded: dict[str, discord.PartialEmoji] = dict(uploaded or {})

    def partial(self, icon: str) -> discord.PartialEmoji:
        """The emoji of a button or a select option."""
        found = self.uploaded.get(icon)
        if found is not None:
            return found
        return discord.PartialEmoji(name=icon_set.ICONS[icon].unicode)

    def text(self, icon: str) -> str:
        """The emoji inside words: `<:mt_grain_…:id>`, or the Unicode stand-in."""
        found = self.uploaded.get(icon)
        return str(found) if found is not None else icon_set.ICONS[icon].unicode

    def in_words(self, text: str) -> str:
        """`text` with the core's icon tokens as emojis."""
        return tokens.replace(text, self.text)


_installed = AppEmojis()


def installed() -> AppEmojis:
    """The emojis of the running bot (all Unicode until `install`)."""
    return _installed


def install(emojis: AppEmojis) -> None:
    global _installed
    _installed = emojis


@dataclass
class Synced:
    """What one `sync` did, for the log and the tests."""

    emojis: AppEmojis
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    """Icons shown by their Unicode stand-in (an upload Discord refused, or no room)."""


async def sync(client: discord.Client) -> Synced:
    """Make the application's emojis match the icons; never raises for Discord."""
    try:
        existing = await client.fetch_application_emojis()
    except (discord.HTTPException, discord.MissingApplicationID) as error:
        log.warning("the application's emojis could not be read (%s): icons as Unicode", error)
        return Synced(AppEmojis(), failed=list(icon_set.ICONS))
    wanted = {emoji_name(icon): icon for icon in icon_set.ICONS}
    synced = Synced(AppEmojis())
    count = len(existing)
    for stale in existing:
        if stale.name.startswith(PREFIX) and stale.name not in wanted:
            try:
                await stale.delete()
            except discord.HTTPException as error:
                log.warning("stale emoji %s could not be deleted: %s", stale.name, error)
                continue
            synced.deleted.append(stale.name)
            count -= 1
    have = {found.name: found for found in existing if found.name in wanted}
    refused: dict[str, str] = {}
    for name, icon in wanted.items():
        emoji: discord.Emoji | None = have.get(name)
        if emoji is not None:
            synced.kept.append(name)
        elif count >= MAX_EMOJIS:
            synced.failed.append(icon)
            continue
        else:
            try:
                emoji = await client.create_application_emoji(name=name, image=icon_set.png(icon))
            except discord.HTTPException as error:
                log.warning("emoji %s could not be uploaded (%s): shown as Unicode", name, error)
                synced.failed.append(icon)
                refused[name] = icon
                continue
            count += 1
            synced.created.append(name)
        synced.emojis.uploaded[icon] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
    if refused:
        await _made_meanwhile(client, synced, refused)
    if synced.created or synced.deleted or synced.failed:
        log.info(
            "application emojis: %d uploaded, %d kept, %d deleted, %d as Unicode",
            len(synced.created),
            len(synced.kept),
            len(synced.deleted),
            len(synced.failed),
        )
    return synced


async def _made_meanwhile(client: discord.Client, synced: Synced, refused: dict[str, str]) -> None:
    """The refused uploads Discord made all the same (its answer lost on the way) or
    another process of the bot made meanwhile (a name is unique): found by reading the
    list again, and shown."""
    try:
        existing = await client.fetch_application_emojis()
    except (discord.HTTPException, discord.MissingApplicationID):
        return
    for emoji in existing:
        icon = refused.get(emoji.name)
        if icon is not None and icon in synced.failed:
            synced.failed.remove(icon)
            synced.kept.append(emoji.name)
            synced.emojis.uploaded[icon] = discord.PartialEmoji(name=emoji.name, id=emoji.id)


__all__ = [
    "MAX_EMOJIS",
    "NAME",
    "PREFIX",
    "AppEmojis",
    "Synced",
    "emoji_name",
    "install",
    "installed",
    "sync",
]
