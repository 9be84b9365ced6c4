"""A server's own settings (issue 26 point 1): the defaults of its new games, where its
games are opened and announced, who may open one, its limits and its statistics.

Each is one name in the store's `guild_settings` (beside the limits of
`bot.core.server.limits`, which are settings here too), its value as text; a server that
never set one has the bot's default. This module knows their names, types, defaults
and the values allowed, and refuses any other value in words (`Refusal`) before
anything is saved. The explicit options of `/montana game new` still win over these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.community.ratings import OFF, ON, STATISTICS, statistics_enabled
from bot.core.play.service import Refusal
from bot.core.server.limits import LIMIT_NAMES, Limits
from bot.core.store import (
    ABSENT_AI_MOVE,
    ABSENT_AI_SEAT,
    ABSENT_WAIT,
    PICTURE_MODES,
    PICTURES_EVERY_MOVE,
    Store,
)
from i18n import LANGUAGES, translatable

LANGUAGE = "language"
TURN_HOURS = "turn_hours"
AUCTION_HOURS = "auction_hours"
ABSENT = "absent"
GAMES_CHANNEL = "games_channel"
"""Where matchmaking opens the server's games and end-of-game results are announced."""
OPENER_ROLE = "opener_role"
"""The role a member needs to open a game (no value: everyone)."""
PICTURES = "pictures"
"""When new games' messages carry the picture (`bot.core.delivery.picture_modes`)."""
# STATISTICS ("on"/"off": whether the server's games count in statistics and ratings) is
# `bot.core.community.ratings`', which reads it at each game's end
WEB = "web"
"""Whether the server's games have web pages (issue 28; "on"/"off"): off, they answer 404."""

GAME_DEFAULT_NAMES = (LANGUAGE, TURN_HOURS, AUCTION_HOURS, ABSENT, PICTURES)
SETTING_NAMES = (
    *GAME_DEFAULT_NAMES,
    GAMES_CHANNEL,
    OPENER_ROLE,
    *LIMIT_NAMES,
    STATISTICS,
    WEB,
)
ABSENT_MODES = (ABSENT_WAIT, ABSENT_AI_MOVE, ABSENT_AI_SEAT)
HOURS_RANGE = (1, 720)
"""Deadlines from one hour to 30 days, like `/montana game new`'s options."""
LIMIT_RANGES: Mapping[str, tuple[int, int]] = {
    "open_lobbies": (1, 25),
    "lobby_days": (1, 90),
    "active_games": (1, 100),
    "hints_per_minute": (1, 60),
}

OUT_OF_RANGE = translatable("{name} must be a whole number from {low} to {high}; not {value}.")
NOT_ONE_OF = translatable("{name} must be one of: {allowed}; not {value}.")
NOT_AN_ID = translatable("{name} must be a channel or role of this server; not {value}.")
UNKNOWN_SETTING = translatable("There is no server setting {name}; they are: {names}.")


def validated(name: str, value: str) -> str:
    """`value` as saved for setting `name`, or a `Refusal` saying what is allowed."""
    if name not in SETTING_NAMES:
        raise Refusal(UNKNOWN_SETTING, name=name, names=", ".join(SETTING_NAMES))
    text = value.strip()
    if name == LANGUAGE:
        return _one_of(name, text.lower(), tuple(LANGUAGES))
    if name == ABSENT:
        return _one_of(name, text.lower(), ABSENT_MODES)
    if name == PICTURES:
        return _one_of(name, text.lower(), tuple(PICTURE_MODES))
    if name in (STATISTICS, WEB):
        return _one_of(name, text.lower(), (ON, OFF))
    if name in (GAMES_CHANNEL, OPENER_ROLE):
        if not text.isdigit() or not 0 < int(text) < 2**63:
            raise Refusal(NOT_AN_ID, name=name, value=value)
        return str(int(text))
    low, high = HOURS_RANGE if name in (TURN_HOURS, AUCTION_HOURS) else LIMIT_RANGES[name]
    if not text.isdigit() or not low <= int(text) <= high:
        raise Refusal(OUT_OF_RANGE, name=name, low=low, high=high, value=value)
    return str(int(text))


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise Refusal(NOT_ONE_OF, name=name, allowed=", ".join(allowed), value=value)
    return value


@dataclass(frozen=True)
class ServerSettings:
    """One server's settings, its own or the bot's defaults (`chosen`: the names the
    server set itself)."""

    language: str | None
    """None: the server's own locale (Discord's preferred locale of the server)."""
    turn_hours: float
    auction_hours: float
    absent: str
    pictures: str
    games_channel: int | None
    opener_role: int | None
    """None: everyone may open a game."""
    statistics: bool
    limits: Limits
    web: bool
    """Whether the server's games have web pages."""
    chosen: frozenset[str]

    def value_of(self, name: str) -> object:
        if name in LIMIT_NAMES:
            return getattr(self.limits, name)
        return getattr(self, name)

    def from_server(self, name: str) -> bool:
        return name in self.chosen


def settings_of(
    saved: Mapping[str, str], *, turn_hours: float = 48.0, auction_hours: float = 24.0
) -> ServerSettings:
    """The settings from a server's saved values (`Store.guild_settings`) and the bot's
    own defaults for the deadlines; a saved value a later bot no longer accepts keeps
    its default (and is not said to come from the server)."""
    kept: dict[str, str] = {}
    for name, value in saved.items():
        try:
            kept[name] = validated(name, value)
        except Refusal:
            continue
    return ServerSettings(
        language=kept.get(LANGUAGE),
        turn_hours=float(kept[TURN_HOURS]) if TURN_HOURS in kept else turn_hours,
        auction_hours=float(kept[AUCTION_HOURS]) if AUCTION_HOURS in kept else auction_hours,
        absent=kept.get(ABSENT, ABSENT_WAIT),
        pictures=kept.get(PICTURES, PICTURES_EVERY_MOVE),
        games_channel=int(kept[GAMES_CHANNEL]) if GAMES_CHANNEL in kept else None,
        opener_role=int(kept[OPENER_ROLE]) if OPENER_ROLE in kept else None,
        statistics=kept.get(STATISTICS, ON) == ON,
        limits=Limits.of(kept),
        web=kept.get(WEB, ON) == ON,
        chosen=frozenset(kept),
    )


async def server_settings(
    store: Store, guild_id: int, *, turn_hours: float = 48.0, auction_hours: float = 24.0
) -> ServerSettings:
    """A server's settings from the store (the bot's deadlines as the defaults)."""
    return settings_of(
        await store.guild_settings(guild_id), turn_hours=turn_hours, auction_hours=auction_hours
    )


async def change_server_settings(
    store: Store, guild_id: int, values: Mapping[str, str | None]
) -> None:
    """Save some settings at once (None: back to the bot's default); every value is
    checked first, so a refused one changes nothing."""
    checked = {
        name: None if value is None else validated(name, value) for name, value in values.items()
    }
    for name in checked:
        if name not in SETTING_NAMES:
            raise Refusal(UNKNOWN_SETTING, name=name, names=", ".join(SETTING_NAMES))
    await store.set_guild_settings(guild_id, checked)


__all__ = [
    "ABSENT",
    "AUCTION_HOURS",
    "GAMES_CHANNEL",
    "GAME_DEFAULT_NAMES",
    "LANGUAGE",
    "LIMIT_RANGES",
    "OFF",
    "ON",
    "OPENER_ROLE",
    "PICTURES",
    "SETTING_NAMES",
    "STATISTICS",
    "TURN_HOURS",
    "WEB",
    "ServerSettings",
    "change_server_settings",
    "server_settings",
    "settings_of",
    "statistics_enabled",
    "validated",
]
