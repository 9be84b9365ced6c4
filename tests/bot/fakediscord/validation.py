"""What Discord refuses in a message the bot sends (`validate_message`: Discord's limits on
content, embeds, component rows, custom_ids, buttons, selects and file sizes, answered 400/413
as Discord does) and the attachment payloads made from a create's or edit's uploaded files
(`attachment_payloads`, with PNG sizes read from the bytes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tests.bot.fakediscord.model import (
    ATTACHMENT_SIZE_LIMIT,
    COMPONENTS_V2,
    FakeHTTPError,
    Json,
    iter_components,
    new_snowflake,
)


def attachment_payloads(
    channel_id: int,
    described: list[Json] | None,
    files: list[tuple[str, bytes]],
    existing: dict[int, Json],
) -> tuple[list[Json], dict[str, bytes]]:
    """Attachment payloads for a create/edit, and the new files' bytes by filename."""
    result: list[Json] = []
    stored: dict[str, bytes] = {}
    if described is None:
        described = [{"id": index, "filename": name} for index, (name, _) in enumerate(files)]
    for entry in described:
        entry_id = int(entry["id"])
        if entry_id in existing:
            result.append(existing[entry_id])
            continue
        if entry_id >= len(files):
            raise FakeHTTPError(400, f"Invalid Form Body: no file for attachment {entry_id}", 50035)
        name, data = files[entry_id]
        filename = str(entry.get("filename") or name)
        attachment_id = new_snowflake()
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{filename}"
        payload: Json = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": _content_type(filename),
        }
        if entry.get("description"):
            payload["description"] = entry["description"]
        if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
            payload["width"] = int.from_bytes(data[16:20], "big")
            payload["height"] = int.from_bytes(data[20:24], "big")
        result.append(payload)
        stored[filename] = data
    return result, stored


def _content_type(filename: str) -> str:
    suffix = filename.rsplit(".", 1)[-1].lower()
    return {
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
    }.get(suffix, "application/octet-stream")


def validate_message(
    body: Json,
    files: Sequence[tuple[str, bytes]],
    *,
    allow_empty: bool,
    check_files: bool = True,
) -> None:
    """Raise FakeHTTPError(400/413) where Discord would refuse the message."""

    def invalid(why: str) -> FakeHTTPError:
        return FakeHTTPError(400, f"Invalid Form Body: {why}", 50035)

    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    if not allow_empty and not (content or embeds or components or files or body.get("poll")):
        raise FakeHTTPError(400, "Cannot send an empty message", 50006)
    if v2 and (content or embeds):
        raise invalid("content and embeds cannot be used with the components v2 flag")
    if len(content) > 2000:
        raise invalid(f"content is {len(content)} characters, must be 2000 or fewer")
    if len(embeds) > 10:
        raise invalid("more than 10 embeds")
    total = 0
    for embed in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            if len(embed.get(key) or "") > limit:
                raise invalid(f"embed {key} over {limit} characters")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid("more than 25 embed fields")
        for embed_field in fields:
            if not embed_field.get("name") or not embed_field.get("value"):
                raise invalid("embed field name and value are required")
            if len(embed_field["name"]) > 256 or len(embed_field["value"]) > 1024:
                raise invalid("embed field too long")
        total += sum(len(embed.get(k) or "") for k in ("title", "description"))
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        raise invalid("embeds total more than 6000 characters")
    if v2:
        _validate_card(components, {name for name, _ in files} | _described(body), invalid)
    else:
        if len(components) > 5:
            raise invalid(f"{len(components)} component rows, at most 5")
        for row in components:
            if row.get("type") != 1:
                raise invalid("top-level components must be action rows without the v2 flag")
            children = row.get("components") or []
            buttons = [c for c in children if c.get("type") == 2]
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if not children or len(buttons) > 5 or (selects and len(children) > 1):
                raise invalid("an action row holds 1-5 buttons or exactly one select")
    seen: set[str] = set()
    for component in iter_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(str(custom_id)) <= 100:
                raise invalid(f"custom_id {custom_id!r} must be 1-100 characters")
            if custom_id in seen:
                raise invalid(f"custom_id {custom_id!r} twice (COMPONENT_CUSTOM_ID_DUPLICATED)")
            seen.add(str(custom_id))
        if component.get("type") == 2:
            if len(component.get("label") or "") > 80:
                raise invalid("button label over 80 characters")
            if not component.get("label") and not component.get("emoji"):
                raise invalid("a button needs a label or an emoji")
            if (component.get("style") == 5) != ("url" in component):
                raise invalid("link buttons (style 5) need a url, others a custom_id")
        if component.get("type") == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                raise invalid(f"a select has {len(options)} options, 1-25 allowed")
            values = [o.get("value") for o in options]
            if not all(1 <= len(str(v or "")) <= 100 for v in values):
                raise invalid("select option values must be 1-100 characters")
            if len(set(values)) != len(values):
                raise invalid("select option values must be unique")
            for option in options:
                if not 1 <= len(option.get("label") or "") <= 100:
                    raise invalid("select option label must be 1-100 characters")
    if check_files:
        for name, data in files:
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise FakeHTTPError(413, f"Request entity too large: {name}", 40005)


CARD_TEXT_LIMIT = 4000
CARD_COMPONENT_LIMIT = 40
TOP_LEVEL = {1, 9, 10, 12, 13, 14, 17}
"""Components V2 types allowed at the top of a message (action row, section, text
display, media gallery, file, separator, container)."""
IN_CONTAINER = {1, 9, 10, 12, 13, 14}
MEDIA_ITEMS = 10


def _described(body: Json) -> set[str]:
    return {str(a.get("filename")) for a in body.get("attachments") or [] if a.get("filename")}


def _validate_card(components: list[Json], attachments: set[str], invalid: Any) -> None:
    """Discord's rules on a Components V2 message: the types and where each may be,
    40 components counted nested, 4,000 characters of text across its displays,
    1-10 items per gallery, action rows of 1-5 buttons or one select, and every
    ``attachment://`` reference naming one of the message's attachments."""
    if not components:
        raise invalid("a components v2 message needs at least one component")
    total = sum(1 for _ in iter_components(components))
    if total > CARD_COMPONENT_LIMIT:
        raise invalid(f"{total} components, at most {CARD_COMPONENT_LIMIT} (nested counted)")
    text = sum(
        len(str(c.get("content") or "")) for c in iter_components(components) if c.get("type") == 10
    )
    if text > CARD_TEXT_LIMIT:
        raise invalid(f"{text} characters of text displays, at most {CARD_TEXT_LIMIT}")

    def check(component: Json, allowed: set[int], where: str) -> None:
        kind = component.get("type")
        if kind not in allowed:
            raise invalid(f"component type {kind} is not allowed in {where}")
        children = component.get("components") or []
        if kind == 17:
            if not children:
                raise invalid("a container needs at least one component")
            for child in children:
                check(child, IN_CONTAINER, "a container")
        elif kind == 1:
            buttons = [c for c in children if c.get("type") == 2]
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if not children or len(buttons) > 5 or (selects and len(children) > 1):
                raise invalid("an action row holds 1-5 buttons or exactly one select")
            if len(buttons) + len(selects) != len(children):
                raise invalid("an action row holds only buttons or a select")
        elif kind == 9:
            if not 1 <= len(children) <= 3 or any(c.get("type") != 10 for c in children):
                raise invalid("a section holds 1-3 text displays")
            accessory = component.get("accessory")
            if not isinstance(accessory, dict) or accessory.get("type") not in (2, 11):
                raise invalid("a section needs a button or a thumbnail as its accessory")
            if accessory.get("type") == 11:
                media_ref(accessory.get("media"))
        elif kind == 10:
            if not str(component.get("content") or ""):
                raise invalid("a text display needs content")
        elif kind == 12:
            items = component.get("items") or []
            if not 1 <= len(items) <= MEDIA_ITEMS:
                raise invalid(f"a media gallery holds 1-{MEDIA_ITEMS} items")
            for item in items:
                media_ref(item.get("media"))
                if len(str(item.get("description") or "")) > 1024:
                    raise invalid("a media item's description is over 1024 characters")
        elif kind == 13:
            media_ref(component.get("file"), attachment_only=True)

    def media_ref(media: Any, *, attachment_only: bool = False) -> None:
        url = str((media or {}).get("url") or "") if isinstance(media, dict) else ""
        if url.startswith("attachment://"):
            if url.removeprefix("attachment://") not in attachments:
                raise invalid(f"{url} names no attachment of the message")
        elif attachment_only or not url.startswith(("https://", "http://")):
            raise invalid(f"media url {url!r} must be attachment://<name> or an address")

    for component in components:
        check(component, TOP_LEVEL, "a message")
