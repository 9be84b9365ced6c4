"""The fake Discord's data model: the JSON alias, Discord's constants (message flags, error
codes, interaction response types, the permissions of @everyone and of the bot's role), fresh
snowflake ids, the error answer the world raises (`FakeHTTPError`), and the things a test
reads back as a player would see them: users (`FakeUser`), channels, threads and DMs
(`FakeChannel`) and messages (`FakeMessage`), with the walk over a message's components."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord

Json = dict[str, Any]

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED = 50001, 50013, 50083
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

#: Response types of the interaction callback, as Discord numbers them.
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9

#: Permissions every member has through @everyone in the fake guild.
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
)
#: Permissions of the bot's own role.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
    mention_everyone=True,
)

_last_snowflake = 0


def new_snowflake() -> int:
    """A fresh, increasing Discord id whose timestamp is now (discord.py reads it back)."""
    global _last_snowflake
    now = discord.utils.time_snowflake(discord.utils.utcnow())
    _last_snowflake = max(now, _last_snowflake + 1)
    return _last_snowflake


def iso_now() -> str:
    return discord.utils.utcnow().isoformat()


COMMAND_MENTION = re.compile(r"</([^:<>]+):(\d+)>")
"""A slash command mention in a message's content, as Discord's clients read it."""


class FakeHTTPError(Exception):
    """A Discord error answer (status and JSON body) produced by the fake world."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.body: Json = {"message": message, "code": code}


@dataclass
class FakeUser:
    """A Discord user (and guild member) tests act as."""

    id: int
    name: str
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    dms_open: bool = True
    bot: bool = False
    role_id: int | None = None
    locale: str = "en-US"
    """The language of this user's Discord client: every interaction they send carries it."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def total_permissions(self) -> discord.Permissions:
        total = EVERYONE_PERMISSIONS | self.permissions
        if total.administrator:
            return discord.Permissions.all()
        return total


@dataclass
class FakeChannel:
    """A guild text channel, a thread, or a DM channel."""

    id: int
    name: str
    type: int = 0  # 0 text, 1 DM, 11 public thread, 12 private thread
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    deleted: bool = False
    bot_denied: int = 0
    """Permissions taken from the bot here (and in this channel's threads)."""
    overwrites: list[Json] = field(default_factory=list)
    """The bot's role's overwrite (`deny_bot`)."""
    member_allowed: dict[int, int] = field(default_factory=dict)
    """Members' overwrites here (`grant`): what each member is allowed beyond their
    server permissions, by user id."""

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self) -> Json:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [
                *self.overwrites,
                *(
                    {"id": str(user_id), "type": 1, "allow": str(allowed), "deny": "0"}
                    for user_id, allowed in self.member_allowed.items()
                ),
            ],
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": iso_now(),
                    "locked": self.locked,
                    "create_timestamp": iso_now(),
                },
            )
        return data


INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
"""Characters no Discord client shows (`FakeMessage.content` leaves them out)."""


@dataclass
class FakeMessage:
    """A message as Discord stores it; ``payload`` is exactly what discord.py receives.

    Messages are live: edits and deletions made later by the bot update this object.
    """

    payload: Json
    files: dict[str, bytes] = field(default_factory=dict)
    interaction_id: int | None = None
    pinged_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    edits: int = 0

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        """The content as people read it: without the characters no client shows (zero
        width spaces and joiners: the bot's outbox writes its messages' identity in them,
        `bot.discord_app.delivery.announce.identity_mark`). ``raw_content``: as Discord keeps it."""
        return self.raw_content.translate(INVISIBLE)

    @property
    def raw_content(self) -> str:
        """The words as Discord keeps them: the content, or a card's (a Components V2
        message's) text displays joined by new lines, in their order."""
        if self.flags & COMPONENTS_V2:
            return "\n".join(
                str(c.get("content") or "") for c in self.walk_components() if c.get("type") == 10
            )
        return str(self.payload.get("content") or "")

    @property
    def card(self) -> bool:
        """Whether the message is laid out in Components V2 (a card)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred "thinking..." message has not been filled in."""
        return bool(self.flags & LOADING)

    @property
    def embeds(self) -> list[Json]:
        return list(self.payload.get("embeds") or [])

    @property
    def components(self) -> list[Json]:
        return list(self.payload.get("components") or [])

    @property
    def mentioned_ids(self) -> list[int]:
        """Users mentioned in the content (whether or not they were notified)."""
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for embed_field in embed.get("fields", []):
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def displays(self) -> list[str]:
        """The text displays of a card, in order (what embeds' parts became)."""
        return [str(c.get("content") or "") for c in self.walk_components() if c.get("type") == 10]

    def card_fields(self) -> dict[str, str]:
        """A card's displays that name a value (``**name**`` over the value), by name:
        an embed's fields as `bot.discord_app.cards.from_embed` lays them out."""
        fields: dict[str, str] = {}
        for text in self.displays():
            name, _, value = text.partition("\n")
            if name.startswith("**") and name.endswith("**") and value:
                fields[name[2:-2]] = value
        return fields

    def walk_components(self) -> list[Json]:
        """Every component, depth first (rows, their children, v2 containers/accessories)."""
        return list(iter_components(self.components))

    def interactive_components(self) -> list[Json]:
        """Buttons and selects that carry a custom_id."""
        return [c for c in self.walk_components() if "custom_id" in c and c.get("type") != 4]

    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.interactive_components()]

    def button_labels(self) -> list[str]:
        return [str(c.get("label") or "") for c in self.walk_components() if c.get("type") == 2]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> Json:
        """The component with this custom_id, or the button/select with this label/placeholder."""
        for component in self.interactive_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            names = (component.get("label"), component.get("placeholder"))
            if label is not None and label in names:
                return component
        wanted = custom_id if custom_id is not None else f"label={label!r}"
        present = [
            (c.get("label") or c.get("placeholder"), c["custom_id"])
            for c in self.interactive_components()
        ]
        raise AssertionError(f"message {self.id} has no component {wanted}; it has {present}")

    def __repr__(self) -> str:
        return (
            f"<FakeMessage id={self.id} channel={self.channel_id} ephemeral={self.ephemeral} "
            f"content={self.content[:60]!r} files={list(self.files)} "
            f"components={self.custom_ids()}>"
        )


def as_read(payload: Json) -> Json:
    """A message as reading it back gives it: Discord echoes the nonce only to its sender."""
    return {key: value for key, value in payload.items() if key != "nonce"}


def iter_components(components: Iterable[Json]) -> Iterable[Json]:
    for component in components:
        yield component
        yield from iter_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from iter_components([component["accessory"]])
        if isinstance(component.get("component"), dict):  # modal label wrapper
            yield from iter_components([component["component"]])
