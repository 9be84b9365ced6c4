"""The in-process fake (`FakeDiscord`): real discord.py clients run in the test's event loop
with their REST calls (``HTTPClient.request``, and the webhook adapter for interaction
answers) served by the world, retried like discord.py does, gateway events parsed straight
into their connection state, every task an interaction spawns followed until it is done,
and exceptions in commands, views, events and ERROR logs recorded as the fake's errors."""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.bot.fakediscord.interactions import FakeDiscordBase
from tests.bot.fakediscord.model import FakeHTTPError, Json
from tests.bot.fakediscord.recording import RETRIED_BY_DISCORD_PY, InteractionRecord
from tests.bot.fakediscord.world import World, api_path


def _discord_exception(error: FakeHTTPError) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=error.status, reason="fake", headers={})
    if error.status == 403:
        return discord.Forbidden(response, error.body)
    if error.status == 404:
        return discord.NotFound(response, error.body)
    if error.status >= 500:
        return discord.DiscordServerError(response, error.body)
    return discord.HTTPException(response, error.body)


@dataclass
class _Scope:
    record: InteractionRecord
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)


_SCOPE: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar(
    "fakediscord_interaction", default=None
)
#: Coroutine names of tasks that legitimately outlive an interaction (timers, loops).
_LONG_LIVED = {"__timeout_task_impl", "inner_call", "delete", "do_typing", "_loop"}
_ACTIVE: list[FakeDiscord] = []
_original_webhook_request: Any = None


async def _patched_webhook_request(
    adapter: AsyncWebhookAdapter, route: Route, session: Any = None, **kwargs: Any
) -> Any:
    token = route.webhook_token
    for fake in reversed(_ACTIVE):
        if token in fake.world.interactions_by_token:
            return await fake._serve(route, kwargs, webhook=True)
    if _ACTIVE:
        return await _ACTIVE[-1]._serve(route, kwargs, webhook=True)
    return await _original_webhook_request(adapter, route, session, **kwargs)


class _NullWebSocket:
    """Stands in for the gateway socket in-process (presence changes are accepted)."""

    open = False
    latency = 0.0

    async def change_presence(self, **_: Any) -> None:
        return None

    def is_ratelimited(self) -> bool:
        return False


class _ErrorLogHandler(logging.Handler):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.fake._record_error(f"logged by {record.name}: {record.getMessage()}", exc)


class FakeDiscord(FakeDiscordBase):
    """Runs real discord.py clients against the fake world inside the test's event loop.

    ``expected_errors`` are the ``app_commands`` errors that are refusals rather than bugs when
    the bot's ``tree.on_error`` receives them (by default failed checks and bad option values);
    anything else raised in a command, view, dynamic item or event handler ends up in
    ``errors``, as does any record logged at ERROR level while the fake runs.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        expected_errors: tuple[type[Exception], ...] = (
            app_commands.CheckFailure,
            app_commands.TransformerError,
        ),
        **world_options: Any,
    ) -> None:
        super().__init__(world, **world_options)
        self.expected_errors = expected_errors
        self.clients: list[discord.Client] = []
        self._log_handler = _ErrorLogHandler(self)
        self._seen_exceptions: set[int] = set()
        self._previous_factory: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scopes: dict[int, _Scope] = {}
        self.world.event_sinks.append(self._push_event)

    @property
    def client(self) -> discord.Client:
        """The client interactions go to: the most recently started one still open."""
        open_clients = [c for c in self.clients if not c.is_closed()]
        if not open_clients:
            raise RuntimeError("no client started; await fake.start(client) first")
        return open_clients[-1]

    async def start(self, client: discord.Client, *, token: str = "fake-bot-token") -> None:
        """Log ``client`` in against the fake (runs its ``setup_hook``) and make it READY."""
        self._install()
        client.http.request = self._rest_for(client)  # type: ignore[method-assign]
        client.ws = _NullWebSocket()  # type: ignore[assignment]
        self.clients.append(client)
        await client.login(token)
        self._hook_errors(client)
        state = client._connection
        state.guild_ready_timeout = 0.01
        ready: Any = self.world.ready_payload("fake-session", "wss://fake.invalid")
        guild: Any = self.world.guild_payload()
        state.parse_ready(ready)
        state.parse_guild_create(guild)
        for other in self.world.other_guilds:
            state.parse_guild_create(self.world.other_guild_payload(other))
        await asyncio.wait_for(client.wait_until_ready(), timeout=5)

    async def stop(self, client: discord.Client) -> None:
        """Close one client (as if its process ended); the world and other clients stay."""
        await client.close()

    async def close(self) -> None:
        """Close every client and restore discord.py's network code."""
        for client in self.clients:
            if not client.is_closed():
                await client.close()
        self._uninstall()

    async def __aenter__(self) -> FakeDiscord:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- patching ----
    def _install(self) -> None:
        global _original_webhook_request
        if self in _ACTIVE:
            return
        if not _ACTIVE:
            _original_webhook_request = AsyncWebhookAdapter.request
            AsyncWebhookAdapter.request = _patched_webhook_request  # type: ignore[method-assign,assignment]
        _ACTIVE.append(self)
        logging.getLogger().addHandler(self._log_handler)
        self._loop = asyncio.get_running_loop()
        self._previous_factory = self._loop.get_task_factory()
        self._loop.set_task_factory(self._task_factory)

    def _uninstall(self) -> None:
        if self not in _ACTIVE:
            return
        _ACTIVE.remove(self)
        if not _ACTIVE:
            AsyncWebhookAdapter.request = _original_webhook_request  # type: ignore[method-assign]
        logging.getLogger().removeHandler(self._log_handler)
        if self._loop is not None:
            self._loop.set_task_factory(self._previous_factory)

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        if self._previous_factory is not None:
            task: asyncio.Task[Any] = self._previous_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        context = kwargs.get("context")
        scope = context.get(_SCOPE) if context is not None else _SCOPE.get()
        if scope is not None:
            scope.tasks.append(task)
        return task

    def _rest_for(self, client: discord.Client) -> Callable[..., Any]:
        async def request(route: Route, **kwargs: Any) -> Any:
            return await self._serve(route, kwargs, webhook=False)

        return request

    async def _serve(self, route: Route, kwargs: dict[str, Any], *, webhook: bool) -> Any:
        scope = _SCOPE.get()
        path = api_path(route.url)
        query = {k: str(v) for k, v in (kwargs.get("params") or {}).items()}
        body: Any = kwargs.get("payload") if webhook else kwargs.get("json")
        files: list[tuple[str, bytes]] = []
        form = kwargs.get("multipart") if webhook else kwargs.get("form")
        for part in form or []:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            else:
                files.append((part.get("filename") or part["name"], _read_file(part["value"])))
        record = scope.record if scope else None
        for tries in range(5):
            status, response = await self.world.serve(
                route.method, path, query, body, files, record
            )
            if webhook or status < 400 or tries == 4:
                break
            # discord.py's HTTPClient.request tries these again by itself, the same request
            # (files and nonce alike), sleeping 1 + 2 * tries seconds (skipped here)
            if status == 429:
                await asyncio.sleep(float(response.get("retry_after") or 0))
            elif status not in RETRIED_BY_DISCORD_PY:
                break
        if status >= 400:
            raise _discord_exception(FakeHTTPError(status, response["message"], response["code"]))
        return response

    # ---- gateway events ----
    def _push_event(self, event: str, data: Json) -> None:
        for client in self.clients:
            if client.is_closed() or not client.is_ready():
                continue
            parser = client._connection.parsers.get(event)
            if parser is not None:
                parser(data)

    # ---- errors ----
    def _hook_errors(self, client: discord.Client) -> None:
        fake = self
        original_client_error = client.on_error

        async def on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            fake._record_error(f"exception in event {event_method}", sys.exc_info()[1])
            await original_client_error(event_method, *args, **kwargs)

        client.on_error = on_error  # type: ignore[method-assign]
        tree = client._connection._command_tree
        if tree is None:
            return
        original_tree_error = tree.on_error

        async def on_tree_error(
            interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
        ) -> None:
            if not isinstance(error, fake.expected_errors):
                name = interaction.command.qualified_name if interaction.command else "?"
                fake._record_error(f"exception in command {name!r}", error)
            await original_tree_error(interaction, error)

        tree.on_error = on_tree_error  # type: ignore[method-assign]

    def _record_error(self, what: str, exc: BaseException | None) -> None:
        if exc is not None:
            if id(exc) in self._seen_exceptions:
                return
            self._seen_exceptions.add(id(exc))
            original = getattr(exc, "original", None)
            if isinstance(original, BaseException):
                self._seen_exceptions.add(id(original))
            what = f"{what}: {type(exc).__name__}: {exc}"
        self.world.errors.append(what)
        scope = _SCOPE.get()
        if scope is not None:
            scope.record.errors.append(what)

    # ---- interactions ----
    def _tree_commands(self) -> list[Json]:
        tree = self.client._connection._command_tree
        if tree is None:
            return []
        return [c.to_dict(tree) for c in tree.get_commands()]

    async def _deliver(self, record: InteractionRecord) -> None:
        client = self.client
        scope = _Scope(record)
        token = _SCOPE.set(scope)
        try:
            client._connection.parse_interaction_create(record.payload)  # type: ignore[arg-type]
        finally:
            _SCOPE.reset(token)
        self._scopes[record.id] = scope

    async def _settle(self, record: InteractionRecord, timeout: float) -> None:
        scope = self._scopes.pop(record.id)
        deadline = time.monotonic() + timeout
        while True:
            pending = [t for t in scope.tasks if not t.done() and not _long_lived(t)]
            if not pending:
                await asyncio.sleep(0)
                if all(t.done() or _long_lived(t) for t in scope.tasks):
                    return
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                names = [t.get_name() for t in pending]
                raise TimeoutError(
                    f"interaction {record.id} still running after {timeout}s: {names}"
                )
            await asyncio.wait(pending, timeout=remaining)


def _long_lived(task: asyncio.Task[Any]) -> bool:
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None)
    name = code.co_name if code is not None else ""
    return name in _LONG_LIVED or name.endswith("__timeout_task_impl")


def _read_file(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, io.IOBase) or hasattr(value, "read"):
        position = value.tell()
        data = value.read()
        value.seek(position)
        return bytes(data)
    raise TypeError(f"cannot read file part {value!r}")
