"""The application's own emojis (`EmojiRoutes`): listed, uploaded, renamed and deleted
under Discord's limits (a name of 2-32 characters of `[A-Za-z0-9_]`, unique in the
application; a PNG, JPEG or GIF data URI of at most 256 KiB; 2,000 per application),
and the check that a component's custom emoji is one the application owns
(`check_emojis`), as Discord refuses an unknown one."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from typing import Any

from tests.bot.fakediscord.model import FakeHTTPError, Json, iter_components, new_snowflake
from tests.bot.fakediscord.state import WorldState

MAX_APP_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
EMOJI_NAME = re.compile(r"[A-Za-z0-9_]{2,32}")
MAXIMUM_EMOJIS = 30008
_IMAGE = re.compile(r"data:image/(png|jpeg|gif);base64,(.*)", re.DOTALL)


def _invalid(why: str) -> FakeHTTPError:
    return FakeHTTPError(400, f"Invalid Form Body: {why}", 50035)


class EmojiRoutes(WorldState):
    """`/applications/{id}/emojis[/{emoji_id}]`, as Discord serves them."""

    def _app_emoji_route(
        self, method: str, application_id: int, emoji_id: int | None, body: Any
    ) -> tuple[int, Any]:
        if application_id != self.application_id:
            raise FakeHTTPError(403, "Missing Access", 50001)
        if emoji_id is None:
            if method == "GET":
                return 200, {"items": [dict(e) for e in self.app_emojis.values()]}
            if method == "POST":
                return 201, self._create_app_emoji(body or {})
            raise FakeHTTPError(405, "405: Method Not Allowed", 0)
        emoji = self.app_emojis.get(emoji_id)
        if emoji is None:
            raise FakeHTTPError(404, "Unknown Emoji", 10014)
        if method == "GET":
            return 200, dict(emoji)
        if method == "PATCH":
            name = str((body or {}).get("name", ""))
            self._check_emoji_name(name, emoji_id)
            emoji["name"] = name
            return 200, dict(emoji)
        if method == "DELETE":
            del self.app_emojis[emoji_id]
            self.app_emoji_images.pop(emoji_id, None)
            return 204, None
        raise FakeHTTPError(405, "405: Method Not Allowed", 0)

    def _check_emoji_name(self, name: str, emoji_id: int | None = None) -> None:
        if not EMOJI_NAME.fullmatch(name):
            raise _invalid(f"emoji name {name!r} must be 2-32 characters of A-Z, a-z, 0-9, _")
        if any(e["name"] == name for i, e in self.app_emojis.items() if i != emoji_id):
            raise _invalid(f"APPLICATION_EMOJI_NAME_ALREADY_TAKEN: {name!r}")

    def _create_app_emoji(self, body: Json) -> Json:
        name = str(body.get("name", ""))
        self._check_emoji_name(name)
        found = _IMAGE.fullmatch(str(body.get("image", "")))
        if found is None:
            raise _invalid("image must be a PNG, JPEG or GIF data URI")
        try:
            image = base64.b64decode(found[2], validate=True)
        except binascii.Error as error:
            raise _invalid("image is not base64") from error
        if len(image) > MAX_EMOJI_BYTES:
            raise _invalid(f"image is {len(image)} bytes, at most {MAX_EMOJI_BYTES}")
        if len(self.app_emojis) >= MAX_APP_EMOJIS:
            raise FakeHTTPError(400, "Maximum number of emojis reached (2000)", MAXIMUM_EMOJIS)
        emoji_id = new_snowflake()
        emoji: Json = {
            "id": str(emoji_id),
            "name": name,
            "roles": [],
            "user": self.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": found[1] == "gif",
            "available": True,
        }
        self.app_emojis[emoji_id] = emoji
        self.app_emoji_images[emoji_id] = image
        return dict(emoji)


def _emojis_of(components: Iterable[Json]) -> Iterable[Json]:
    for component in iter_components(components):
        if isinstance(component.get("emoji"), dict):
            yield component["emoji"]
        for option in component.get("options") or []:
            if isinstance(option.get("emoji"), dict):
                yield option["emoji"]


def check_emojis(components: Iterable[Json], owned: dict[int, Json]) -> None:
    """Refuse, as Discord does, a component's custom emoji the application does not own
    (a guild's emoji would do too, but the bot uses none)."""
    for emoji in _emojis_of(components):
        if emoji.get("id") is None:
            if not emoji.get("name"):
                raise _invalid("an emoji needs a name or an id")
            continue
        if int(emoji["id"]) not in owned:
            raise _invalid(f"Invalid emoji: {emoji!r}")
