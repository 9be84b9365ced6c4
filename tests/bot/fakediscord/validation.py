"""What Discord refuses in a message the bot sends (`validate_message`: Discord's limits on
content, embeds, component rows, custom_ids, buttons, selects and file sizes, answered 400/413
as Discord does) and the attachment payloads made from a create's or edit's uploaded files
(`attachment_payloads`, with PNG sizes read from the bytes)."""

from __future__ import annotations

from collections.abc import Sequence

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
    if not v2:
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
            if len(set(values)) != len(values):
                raise invalid("select option values must be unique")
            for option in options:
                if not 1 <= len(option.get("label") or "") <= 100:
                    raise invalid("select option label must be 1-100 characters")
    if check_files:
        for name, data in files:
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise FakeHTTPError(413, f"Request entity too large: {name}", 40005)
