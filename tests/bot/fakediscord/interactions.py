"""Sending interactions, shared by the in-process fake and the gateway fake: the helpers
tests call (`slash`, `autocomplete`, `press`, `press_forged`, `select`, `submit_modal`,
`wait_for_message`) on `FakeDiscordBase`, which builds each interaction as Discord's client
would (refusing what no client could send), hands it to a subclass to deliver, waits for
it to settle and returns an `InteractionResult`: a live view of what the bot did with it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from tests.bot.fakediscord.access import WorldAccess
from tests.bot.fakediscord.model import FakeChannel, FakeMessage, FakeUser, Json, iter_components
from tests.bot.fakediscord.recording import InteractionRecord
from tests.bot.fakediscord.world import World


class InteractionResult:
    """What the bot did with one interaction (live view onto the fake's world)."""

    def __init__(self, world: World, record: InteractionRecord) -> None:
        self._world = world
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.record.response_type

    @property
    def responded(self) -> bool:
        return self.record.response_type is not None

    @property
    def original(self) -> FakeMessage | None:
        """The response message: made by a 4/5 answer (as edited since) or updated by 6/7."""
        if self.record.original_id is None:
            return None
        return self._world.messages.get(self.record.original_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._world.messages[i] for i in self.record.followup_ids]

    @property
    def sent(self) -> list[FakeMessage]:
        """Messages posted through REST (channel.send, threads, DMs) while handling it."""
        return [self._world.messages[i] for i in self.record.sent_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction created or answered with, in order (live objects)."""
        ids = list(self.record.message_ids)
        if self.record.original_id is not None and self.record.original_id not in ids:
            ids.insert(0, self.record.original_id)
        return [self._world.messages[i] for i in ids]

    @property
    def edits(self) -> list[Json]:
        """Payloads of ``@original`` edits, in order."""
        return list(self.record.original_edits)

    @property
    def choices(self) -> list[Json]:
        """Autocomplete choices the bot answered ({"name", "value"})."""
        return list(self.record.choices or [])

    @property
    def modal(self) -> Json | None:
        return self.record.modal

    # Shortcuts for the response message.
    @property
    def content(self) -> str:
        return self.original.content if self.original else ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.original and self.original.ephemeral)

    @property
    def embeds(self) -> list[Json]:
        return self.original.embeds if self.original else []

    @property
    def components(self) -> list[Json]:
        return self.original.components if self.original else []

    @property
    def files(self) -> dict[str, bytes]:
        """Files of every message in :attr:`messages` (name -> bytes)."""
        found: dict[str, bytes] = {}
        for message in self.messages:
            found.update(message.files)
        return found

    @property
    def text(self) -> str:
        """The text of every message in :attr:`messages`, joined, for ``in`` assertions."""
        return "\n".join(m.text for m in self.messages)

    @property
    def errors(self) -> list[str]:
        return list(self.record.errors)

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} response_type={self.response_type} "
            f"ephemeral={self.ephemeral} text={self.text[:80]!r} messages={len(self.messages)}>"
        )


#: A condition on a result an interaction helper waits for (``until=``), e.g. a picture posted.
Until = Callable[["InteractionResult"], bool]


class FakeDiscordBase(WorldAccess):
    """World access plus the interaction helpers; subclasses deliver and wait."""

    #: Default seconds an interaction may take (all its tasks) before the helper gives up.
    settle_timeout: ClassVar[float] = 10.0

    # ---- interactions ----
    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Run a slash command: ``slash(ana, ch, "montana", "build", options={"field": "C4"})``.

        ``path`` is the command, then subcommand group / subcommand names (or one string
        "montana build"). Option types come from the synced schema; pass FakeUser/FakeChannel
        for user/channel options, a role's id (``user.role_id``, or ``guild_id`` for @everyone)
        for a role option.
        """
        data = self.world.command_data(
            channel, path, options or {}, fallback=self._tree_commands(), user=user
        )
        record = self.world.new_interaction(2, user, channel, data)
        return await self._run(record, timeout, expect_response, until)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str,
        options: Mapping[str, Any] | None = None,
        focused: str,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Ask for autocomplete choices of option ``focused`` (its partial text in ``options``)."""
        data = self.world.command_data(
            channel,
            path,
            options or {},
            focused=focused,
            fallback=self._tree_commands(),
            user=user,
        )
        record = self.world.new_interaction(4, user, channel, data)
        return await self._run(record, timeout, True)

    async def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Press a button that is on ``message`` (by custom_id or by label)."""
        component = self._component(user, message, custom_id, label)
        if component.get("type") != 2:
            raise AssertionError(f"{component.get('custom_id')!r} is not a button")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        record = self._component_interaction(user, message, data)
        return await self._run(record, timeout, expect_response, until)

    async def press_forged(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """A tampered client: click ``custom_id`` on ``message`` even though it is not shown.

        For hostile-input tests (random, huge or foreign custom_ids). The interaction carries a
        copy of the message with the forged button (or, with ``values``, a string select) added,
        so discord.py dispatches it like a real click; the stored message is unchanged.
        """
        if values is None:
            forged: Json = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
            data: Json = {"custom_id": custom_id, "component_type": 2}
        else:
            options = [{"label": str(v)[:100] or "?", "value": str(v)} for v in values]
            forged = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        payload = json.loads(json.dumps(message.payload))
        payload["components"] = [
            *payload.get("components", []),
            {"type": 1, "components": [forged]},
        ]
        carrier = FakeMessage(payload, dict(message.files))
        record = self._component_interaction(user, carrier, data)
        return await self._run(record, timeout, expect_response, until)

    async def wait_for_message(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[FakeMessage], bool] = lambda message: True,
        *,
        after: int = 0,
        timeout: float = 10.0,
    ) -> FakeMessage:
        """The first message in ``channel`` with id > ``after`` matching ``predicate``; waits
        for it (e.g. posted by a background task, or by a bot process after the answer)."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.world.messages_in(channel, include_ephemeral=True):
                if message.id > after and predicate(message):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching message in channel {channel} after {timeout}s")
            await self.world.wait_for_change(min(remaining, 0.05))

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        values: Sequence[str] = (),
        *,
        label: str | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in a select on ``message`` (by custom_id or placeholder)."""
        component = self._component(user, message, custom_id, label)
        component_type = int(component.get("type", 0))
        if component_type not in (3, 5, 6, 7, 8):
            raise AssertionError(f"{component.get('custom_id')!r} is not a select")
        values = [str(v) for v in values]
        if component_type == 3:
            allowed = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise AssertionError(f"select has no option {unknown}; options are {allowed}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise AssertionError(f"select takes {low}..{high} values, got {len(values)}")
        data: Json = {
            "custom_id": component["custom_id"],
            "component_type": component_type,
            "values": values,
        }
        if component_type == 5:
            data["resolved"] = {
                "users": {v: self.world.users[int(v)].payload() for v in values},
            }
        record = self._component_interaction(user, message, data)
        return await self._run(record, timeout, expect_response, until)

    async def submit_modal(
        self,
        user: FakeUser,
        channel: FakeChannel,
        modal: Json,
        values: Mapping[str, str],
        *,
        message: FakeMessage | None = None,
        timeout: float | None = None,
        until: Until | None = None,
    ) -> InteractionResult:
        """Submit a modal the bot opened (``result.modal``) with text input values by custom_id;
        ``message`` is the message whose button opened it, if any."""
        rows: list[Json] = []
        for component in iter_components(modal.get("components") or []):
            if component.get("type") == 4:
                value = values.get(component["custom_id"], "")
                rows.append(
                    {
                        "type": 1,
                        "components": [
                            {"type": 4, "custom_id": component["custom_id"], "value": value}
                        ],
                    }
                )
        data = {"custom_id": modal["custom_id"], "components": rows}
        record = self.world.new_interaction(5, user, channel, data, message=message)
        return await self._run(record, timeout, True, until)

    def _component(
        self, user: FakeUser, message: FakeMessage, custom_id: str | None, label: str | None
    ) -> Json:
        if message.deleted:
            raise AssertionError(f"message {message.id} was deleted; nobody can press on it")
        if message.ephemeral and message.interaction_id is not None:
            owner = self.world.interactions[message.interaction_id].user
            if owner is not user:
                raise AssertionError(
                    f"message {message.id} is ephemeral: only {owner.name} sees it, "
                    f"{user.name} cannot press on it"
                )
        if custom_id is None and label is None:
            raise ValueError("give a custom_id or a label")
        component = message.find_component(custom_id, label=label)
        if component.get("disabled"):
            raise AssertionError(f"{component['custom_id']!r} is disabled on message {message.id}")
        return component

    def _component_interaction(
        self, user: FakeUser, message: FakeMessage, data: Json
    ) -> InteractionRecord:
        channel = self.world.channels[message.channel_id]
        return self.world.new_interaction(3, user, channel, data, message=message)

    async def _run(
        self,
        record: InteractionRecord,
        timeout: float | None,
        expect_response: bool,
        until: Until | None = None,
    ) -> InteractionResult:
        seconds = self.settle_timeout if timeout is None else timeout
        result = InteractionResult(self.world, record)
        await self._deliver(record)
        try:
            await self._settle(record, seconds)
            deadline = time.monotonic() + seconds
            while until is not None and not until(result):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"until-condition still false after {seconds}s: {result!r}")
                await self.world.wait_for_change(min(remaining, 0.05))
        finally:
            if record in self.world.in_flight:
                self.world.in_flight.remove(record)
        if record.response_type is None and expect_response:
            kind = {2: "slash command", 3: "component", 4: "autocomplete", 5: "modal"}[record.type]
            problem = (
                f"{kind} interaction {record.id} was never answered ({record.payload['data']})"
            )
            record.errors.append(problem)
            self.world.errors.append(problem)
        return result

    def _tree_commands(self) -> list[Json]:
        return []

    async def _deliver(self, record: InteractionRecord) -> None:
        raise NotImplementedError

    async def _settle(self, record: InteractionRecord, timeout: float) -> None:
        raise NotImplementedError
