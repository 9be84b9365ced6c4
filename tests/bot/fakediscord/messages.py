"""The REST routes about channels, threads, DMs and the messages in them (`MessageRoutes`):
a channel's edit and deletion, thread creation, the DM channel with a user, posting a
message (with Discord's permission, lock, archive and nonce rules and the interaction it is
attributed to), making and editing a stored message, and who a message notifies."""

from __future__ import annotations

import time
from typing import Any

from tests.bot.fakediscord.emojis import check_emojis
from tests.bot.fakediscord.model import (
    COMPONENTS_V2,
    EPHEMERAL,
    LOADING,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_ARCHIVED,
    FakeChannel,
    FakeHTTPError,
    FakeMessage,
    FakeUser,
    Json,
    iso_now,
    new_snowflake,
)
from tests.bot.fakediscord.recording import InteractionRecord
from tests.bot.fakediscord.state import WorldState
from tests.bot.fakediscord.validation import attachment_payloads, validate_message


class MessageRoutes(WorldState):
    """Channels, threads, DM channels and messages, as Discord's REST API changes them."""

    def _channel_route(self, method: str, channel_id: int, body: Any) -> tuple[int, Any]:
        channel = self._channel(channel_id)
        if method == "GET":
            return 200, channel.payload()
        if method == "PATCH":
            channel.name = body.get("name", channel.name)
            channel.archived = body.get("archived", channel.archived)
            channel.locked = body.get("locked", channel.locked)
            self.emit("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload())
            return 200, channel.payload()
        if method == "DELETE":
            channel.deleted = True
            self.emit("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel.payload())
            return 200, channel.payload()
        raise FakeHTTPError(405, "405: Method Not Allowed", 0)

    def _create_thread(self, channel_id: int, message_id: int | None, body: Any) -> FakeChannel:
        parent = self._channel(channel_id)
        if parent.type != 0:
            raise FakeHTTPError(400, "Cannot create a thread here", 50024)
        if not self.bot_permissions(parent).create_public_threads:
            raise FakeHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise FakeHTTPError(
                400, "Invalid Form Body: thread name must be 1-100 characters", 50035
            )
        if message_id is not None:
            self._message(message_id)
            thread_type, thread_id = 11, message_id  # a message's thread shares its id
        else:
            thread_type, thread_id = int(body.get("type") or 12), new_snowflake()
        thread = FakeChannel(
            thread_id,
            name,
            thread_type,
            guild_id=self.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
        )
        self.channels[thread.id] = thread
        self.emit("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def _dm_channel(self, user: FakeUser) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        channel = FakeChannel(new_snowflake(), f"dm-{user.name}", 1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def _post_message(
        self,
        channel: FakeChannel,
        body: Any,
        files: list[tuple[str, bytes]],
        scope: InteractionRecord | None,
    ) -> FakeMessage:
        if channel.type == 1 and channel.recipient is not None and not channel.recipient.dms_open:
            raise FakeHTTPError(403, "Cannot send messages to this user", 50007)
        if channel.type != 1:
            allowed = self.bot_permissions(channel)
            if not allowed.view_channel:
                raise FakeHTTPError(403, "Missing Access", MISSING_ACCESS)
            may_send = (
                allowed.send_messages_in_threads if channel.is_thread else allowed.send_messages
            )
            if not may_send or (files and not allowed.attach_files):
                raise FakeHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        if channel.is_thread and channel.locked:
            raise FakeHTTPError(400, "Thread is locked", THREAD_ARCHIVED)
        nonce = str((body or {}).get("nonce") or "")
        if nonce and (body or {}).get("enforce_nonce"):
            known = self._nonces.get(nonce)
            if known is not None and time.monotonic() - known[1] <= self.nonce_window:
                first = self.messages.get(known[0])
                if first is not None:
                    return first  # Discord: the message made with this nonce, nothing new
        if channel.is_thread and channel.archived:
            # a new message is accepted and unarchives the thread
            channel.archived = False
            self.emit("THREAD_UPDATE", channel.payload())
        message = self._new_message(channel, body or {}, files, message_type=0)
        if nonce:
            message.payload["nonce"] = nonce
            self._nonces[nonce] = (message.id, time.monotonic())
        if body and body.get("message_reference"):
            message.payload["type"] = 19
            message.payload["message_reference"] = body["message_reference"]
        if scope is not None:
            message.interaction_id = scope.id
            scope.sent_ids.append(message.id)
            scope.message_ids.append(message.id)
        return message

    def _new_message(
        self,
        channel: FakeChannel,
        body: Json,
        files: list[tuple[str, bytes]],
        *,
        message_type: int,
        extra_flags: int = 0,
        allow_empty: bool = False,
        notify: bool = True,
    ) -> FakeMessage:
        validate_message(body, files, allow_empty=allow_empty)
        check_emojis(body.get("components") or [], self.app_emojis)
        flags = (int(body.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2 | 4 | 4096)) | extra_flags
        message_id = new_snowflake()
        attachments, stored_files = attachment_payloads(
            channel.id, body.get("attachments"), files, {}
        )
        payload: Json = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "type": message_type,
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "flags": flags,
        }
        if body.get("poll"):
            payload["poll"] = body["poll"]
        message = FakeMessage(payload, stored_files)
        self._set_mentions(message, body.get("allowed_mentions"), notify=notify)
        self.messages[message_id] = message
        return message

    def _set_mentions(self, message: FakeMessage, allowed: Json | None, *, notify: bool) -> None:
        mentioned = [i for i in message.mentioned_ids if i in self.users]
        message.payload["mentions"] = [self.users[i].payload() for i in dict.fromkeys(mentioned)]
        if message.ephemeral:
            message.pinged_ids = []
        if not notify or message.ephemeral:
            return  # an edit notifies nobody new; earlier notifications stand
        if allowed is None or "users" in (allowed.get("parse") or []):
            pinged = mentioned
        else:
            allowed_ids = {int(u) for u in allowed.get("users") or []}
            pinged = [i for i in mentioned if i in allowed_ids]
        message.pinged_ids = list(dict.fromkeys(pinged))

    def _edit_message(
        self, message: FakeMessage, body: Json | None, files: list[tuple[str, bytes]]
    ) -> None:
        body = body or {}
        payload = message.payload
        flags = body.get("flags")
        if payload["flags"] & COMPONENTS_V2 and flags is not None and not flags & COMPONENTS_V2:
            raise FakeHTTPError(
                400, "Invalid Form Body: the components v2 flag cannot be removed", 50035
            )
        if "attachments" in body or files:
            existing = {int(a["id"]): a for a in payload.get("attachments", [])}
            attachments, stored = attachment_payloads(
                message.channel_id, body.get("attachments"), files, existing
            )
            kept_names = {a["filename"] for a in attachments}
            old_files = {n: b for n, b in message.files.items() if n in kept_names}
            payload["attachments"] = attachments
            message.files = {**old_files, **stored}
        for key in ("content", "embeds", "components"):
            if key in body:
                payload[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body and body["flags"] is not None:
            keep = payload["flags"] & (EPHEMERAL | COMPONENTS_V2)
            payload["flags"] = keep | (int(body["flags"]) & (4 | COMPONENTS_V2))
        payload["flags"] &= ~LOADING
        validate_message(
            {k: payload.get(k) for k in ("content", "embeds", "components", "flags")},
            [(a["filename"], b"") for a in payload["attachments"]],
            allow_empty=False,
            check_files=False,
        )
        check_emojis(payload.get("components") or [], self.app_emojis)
        self._set_mentions(message, body.get("allowed_mentions"), notify=False)
        payload["edited_timestamp"] = iso_now()
        message.edits += 1
