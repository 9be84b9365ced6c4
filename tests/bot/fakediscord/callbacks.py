"""The REST routes of interaction answers (`InteractionRoutes`): the callback (message,
deferral, update, autocomplete choices, modal, LAUNCH_ACTIVITY (checked against Discord's
OpenAPI spec, `openapi`); late or second answers refused as Discord
does), followups (the first one after a "thinking" deferral fills it in) and the
``@original`` or followup message read, edited or deleted through the webhook."""

from __future__ import annotations

import time
from typing import Any

from tests.bot.fakediscord.messages import MessageRoutes
from tests.bot.fakediscord.model import (
    AUTOCOMPLETE,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    LOADING,
    MESSAGE,
    MODAL,
    UPDATE,
    FakeHTTPError,
    FakeMessage,
    Json,
)
from tests.bot.fakediscord.openapi import problems
from tests.bot.fakediscord.recording import InteractionRecord

LAUNCH_ACTIVITY = 12
"""The answer that launches the application's Activity where the interaction came from."""


class InteractionRoutes(MessageRoutes):
    """Interaction callbacks, followups and webhook messages."""

    def _interaction(self, token: str) -> InteractionRecord:
        record = self.interactions_by_token.get(token)
        if record is None:
            raise FakeHTTPError(404, "Unknown Webhook", 10015)
        return record

    def _callback(
        self,
        interaction_id: int,
        token: str,
        body: Any,
        files: list[tuple[str, bytes]],
        query: dict[str, str],
    ) -> tuple[int, Any]:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise FakeHTTPError(404, "Unknown interaction", 10062)
        if record.response_type is not None:
            problem = f"interaction {record.id} was answered twice"
            record.errors.append(problem)
            raise FakeHTTPError(400, "Interaction has already been acknowledged.", 40060)
        late = time.monotonic() - record.created
        if self.response_deadline is not None and late > self.response_deadline:
            problem = f"interaction {record.id} answered after {late:.2f}s (Discord allows 3 s)"
            record.errors.append(problem)
            self.errors.append(problem)
            raise FakeHTTPError(404, "Unknown interaction", 10062)
        response_type = int(body["type"])
        data: Json = dict(body.get("data") or {})
        resource: Json = {"type": response_type}
        is_component = record.type in (3, 5)
        if response_type == MESSAGE:
            message = self._new_message(
                record.channel,
                data,
                files,
                message_type=20 if record.type == 2 else 0,
            )
            self._attach_to_interaction(message, record)
            record.original_id = message.id
            resource["message"] = message.payload
        elif response_type == DEFERRED_MESSAGE:
            message = self._new_message(
                record.channel,
                {"content": "", "flags": data.get("flags", 0)},
                [],
                message_type=20 if record.type == 2 else 0,
                extra_flags=LOADING,
                allow_empty=True,
            )
            self._attach_to_interaction(message, record)
            record.original_id = message.id
            resource["message"] = message.payload
        elif response_type in (DEFERRED_UPDATE, UPDATE) and is_component:
            if record.component_message_id is None:
                raise FakeHTTPError(400, "Interaction has no message to update", 50035)
            message = self._message(record.component_message_id)
            if response_type == UPDATE:
                self._edit_message(message, data, files)
                resource["message"] = message.payload
            record.original_id = message.id
        elif response_type == AUTOCOMPLETE and record.type == 4:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise FakeHTTPError(400, "Invalid Form Body: more than 25 choices", 50035)
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise FakeHTTPError(400, "Invalid Form Body: choice name 1-100", 50035)
            record.choices = choices
        elif response_type == MODAL and record.type in (2, 3):
            record.modal = data
        elif response_type == LAUNCH_ACTIVITY and record.type in (2, 3):
            refused = problems(body, "LaunchActivityInteractionCallbackRequest")
            if refused:
                raise FakeHTTPError(400, f"Invalid Form Body: {refused}", 50035)
            if not self.activities_enabled:
                raise FakeHTTPError(400, "This application cannot launch an activity", 50035)
            record.activity_instance = f"i-{record.id}-{record.channel.id}"
            resource["activity_instance"] = {"id": record.activity_instance}
        else:
            raise FakeHTTPError(400, f"Invalid interaction response type {response_type}", 50035)
        record.response_type = response_type
        record.response_data = data
        record.response_files = dict(files)
        record.responded.set()
        callback: Json = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_id": None
                if record.original_id is None
                else str(record.original_id),
                "response_message_loading": response_type == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            },
            "resource": resource,
        }
        if response_type == LAUNCH_ACTIVITY:
            interaction = callback["interaction"]
            del interaction["response_message_id"]  # none: nothing was posted
            interaction["activity_instance_id"] = record.activity_instance
            # InteractionCallbackResponse: its two parts (the message resources are not
            # vendored)
            refused = problems(interaction, "InteractionResponse")
            refused += problems(callback["resource"], "LaunchActivityInteractionCallbackResponse")
            assert not refused, refused  # the fake answers as Discord's spec says
        if query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        return 200, callback

    def _attach_to_interaction(self, message: FakeMessage, record: InteractionRecord) -> None:
        message.interaction_id = record.id
        message.payload["webhook_id"] = str(self.application_id)
        message.payload["application_id"] = str(self.application_id)
        message.payload["interaction_metadata"] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.payload(),
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        record.message_ids.append(message.id)

    def _followup(self, token: str, body: Any, files: list[tuple[str, bytes]]) -> tuple[int, Any]:
        record = self._interaction(token)
        if record.response_type is None:
            raise FakeHTTPError(404, "Unknown Webhook", 10015)
        body = body or {}
        original = None if record.original_id is None else self.messages.get(record.original_id)
        if record.response_type == DEFERRED_MESSAGE and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer fills the loading message,
            # keeps the defer's ephemeral state and notifies nobody.
            edit = {k: v for k, v in body.items() if k != "flags"}
            self._edit_message(original, edit, files)
            original.edits -= 1
            record.followup_ids.append(original.id)
            return 200, original.payload
        message = self._new_message(record.channel, body, files, message_type=0)
        self._attach_to_interaction(message, record)
        record.followup_ids.append(message.id)
        return 200, message.payload

    def _webhook_message(
        self,
        method: str,
        token: str,
        which: str,
        body: Any,
        files: list[tuple[str, bytes]],
    ) -> tuple[int, Any]:
        record = self._interaction(token)
        if which == "@original":
            if record.original_id is None:
                raise FakeHTTPError(404, "Unknown Message", 10008)
            message = self._message(record.original_id)
        else:
            message = self._message(int(which))
            if message.interaction_id != record.id and message.id != record.component_message_id:
                raise FakeHTTPError(404, "Unknown Message", 10008)
        if method == "GET":
            return 200, message.payload
        if method == "PATCH":
            if which == "@original":
                record.original_edits.append(dict(body or {}))
            self._edit_message(message, body, files)
            return 200, message.payload
        if method == "DELETE":
            message.deleted = True
            return 204, None
        raise FakeHTTPError(405, "405: Method Not Allowed", 0)
