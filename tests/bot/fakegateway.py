"""A fake Discord on loopback for a bot running as a separate process (or a real socket).

An aiohttp server on 127.0.0.1 speaks the gateway handshake (HELLO, heartbeat ACKs,
IDENTIFY -> READY + GUILD_CREATE, RESUME -> RESUMED) on ``/gateway`` and answers the REST API
under ``/api/v10`` with the same world as the in-process fake (``fakediscord.World``): messages,
edits, threads, DMs (closed DMs answer 403), the bulk command PUT, interaction callbacks,
followups and ``@original`` edits. Every request is recorded. Interactions are pushed as
INTERACTION_CREATE events with the same helpers as :class:`fakediscord.FakeDiscord`
(``slash``, ``press``, ``select``, ``autocomplete``), which wait for the answer.

How the bot is pointed at it (only tests set these; the bot reads them at start-up)::

    MONTANA_DISCORD_API_BASE=http://127.0.0.1:PORT/api/v10  -> discord.http.Route.BASE
    MONTANA_DISCORD_GATEWAY=ws://127.0.0.1:PORT/gateway     -> DiscordWebSocket.DEFAULT_GATEWAY

    # in the bot, before login:
    if base := os.environ.get("MONTANA_DISCORD_API_BASE"):
        discord.http.Route.BASE = base
    if gateway := os.environ.get("MONTANA_DISCORD_GATEWAY"):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

Use in a test (bot as a subprocess, killed and restarted while the fake keeps its world)::

    async with FakeGateway() as gw:                   # or the ``fake_gateway`` fixture
        ana = gw.add_user("ana")
        env = {**os.environ, "DISCORD_TOKEN": "fake", "MONTANA_DB": str(db),
               "MONTANA_GUILD_ID": str(gw.guild_id)}
        bot = await gw.spawn(sys.executable, "-m", "bot", env=env)   # gets gw.env() too
        await gw.wait_connected()                     # IDENTIFY received, READY sent
        res = await gw.slash(ana, gw.channel, "montana", "game", "new")
        await bot.kill()                              # SIGKILL mid-game; the world survives
        await gw.wait_disconnected()
        bot = await gw.spawn(sys.executable, "-m", "bot", env=env)
        await gw.wait_connected()                     # press res.original's buttons again...
        assert await bot.terminate() == 0             # SIGTERM: clean exit expected

Faults are injected as with the in-process fake (``gw.inject(...)``, ``deny_bot``,
``archive``, ``delete_channel``); here the bot's real discord.py retries what it retries.
``inject(route, then=bot.kill)`` kills the bot at a chosen point of a move: the request is
served (a message created, say), and the bot dies before it reads the answer.

Or standalone: ``python -m tests.bot.fakegateway --port 8765 --users ana,ben`` prints the
environment to give the bot and serves a small control API: ``GET /_fake/world``,
``GET /_fake/requests``, ``GET /_fake/messages?channel=ID``, ``POST /_fake/users``
``{"name": "cy", "permissions": 16}`` and ``POST /_fake/interactions`` with
``{"kind": "slash", "user": ID, "channel": ID, "path": ["montana", "game", "new"], "options": {}}``
(``kind`` may also be ``press``/``select`` with ``message`` and ``custom_id`` or ``label``
and ``values``, or ``autocomplete`` with ``focused``); it answers with the result as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import BodyPartReader, WSMsgType, web

from tests.bot.fakediscord import (
    DEFERRED_UPDATE,
    FakeDiscordBase,
    Fault,
    InteractionRecord,
    InteractionResult,
    Json,
    World,
    api_path,
)

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HEARTBEAT_ACK = (
    10,
    1,
    2,
    6,
    7,
    9,
    11,
)
PRESENCE, REQUEST_MEMBERS, DISPATCH = 3, 8, 0


@dataclass
class GatewaySession:
    """One websocket connection of a bot."""

    ws: web.WebSocketResponse
    session_id: str
    identify: Json | None = None
    sequence: int = 0
    events: list[str] = field(default_factory=list)
    sent: list[Json] = field(default_factory=list)
    """Every dispatch made on this session's id, in order (replayed on a RESUME)."""
    muted: bool = False
    """Dispatches are recorded but lost on the wire (see `FakeGateway.reconnect`)."""

    def serves(self, guild_id: int) -> bool:
        """Whether this connection is the shard of `guild_id` (Discord's rule
        `(guild_id >> 22) % shard_count`; a connection without a shard serves all)."""
        shard = (self.identify or {}).get("shard")
        if not shard:
            return True
        shard_id, count = int(shard[0]), int(shard[1])
        return (guild_id >> 22) % count == shard_id

    async def dispatch(self, event: str, data: Json) -> None:
        self.sequence += 1
        self.events.append(event)
        payload = {"op": DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.sent.append(payload)
        if not self.muted:
            await self.ws.send_json(payload)


class BotProcess:
    """A bot running as a separate process against a :class:`FakeGateway`."""

    def __init__(self, process: asyncio.subprocess.Process, gateway: FakeGateway) -> None:
        self.process = process
        self.stderr_lines: list[str] = []
        self._gateway = gateway
        self._reader = asyncio.get_running_loop().create_task(self._read_stderr())

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    @property
    def stderr(self) -> str:
        return "".join(self.stderr_lines)

    async def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        while line := await stream.readline():
            text = line.decode(errors="replace")
            self.stderr_lines.append(text)
            if text.startswith("Traceback"):
                self._gateway.errors.append(f"bot process {self.pid} printed a traceback")

    async def kill(self) -> int:
        """SIGKILL (no clean-up at all), then wait; returns the exit code."""
        if self.running:
            self.process.kill()
        return await self.wait()

    async def terminate(self, timeout: float = 10.0) -> int:
        """SIGTERM and wait for a clean exit (killed after ``timeout``); returns the exit code."""
        if self.running:
            self.process.terminate()
            try:
                return await asyncio.wait_for(self.wait(), timeout)
            except TimeoutError:
                self._gateway.errors.append(f"bot process {self.pid} ignored SIGTERM")
        return await self.kill()

    async def wait(self) -> int:
        code = await self.process.wait()
        await self._reader
        return code


class FakeGateway(FakeDiscordBase):
    """Gateway + REST fake on ``host:port`` (port 0 picks a free one). Async context manager.

    The bot's tasks are out of reach here, so an interaction helper returns once the answer
    arrived, a deferred "thinking" answer was filled in (after a deferred update: the bot's next
    request came, or ``deferred_update_grace`` passed), and no request came for
    ``quiet_period`` seconds. REST posts made meanwhile are attributed to the interaction only
    while it is the single one in flight. For a post that comes later (after a long render
    behind a deferred update) pass ``until=lambda result: ...`` to the helper; for one from a
    background task use ``await wait_for_message(...)``.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        heartbeat_interval: float = 41.25,
        quiet_period: float = 0.05,
        deferred_update_grace: float = 5.0,
        **world_options: Any,
    ) -> None:
        super().__init__(world, **world_options)
        self.host = host
        self.port = port
        self.heartbeat_interval = heartbeat_interval
        self.quiet_period = quiet_period
        self.deferred_update_grace = deferred_update_grace
        self.sessions: list[GatewaySession] = []
        self.processes: list[BotProcess] = []
        self.identifies: list[Json] = []
        self._runner: web.AppRunner | None = None
        self._session_counter = 0
        self._connected = asyncio.Event()
        self.world.event_sinks.append(self._push_event)
        self.fault_headers: dict[int, dict[str, str]] = {}
        """Extra response headers of an injected fault, by ``id(fault)`` (``inject_with``)."""
        self.resumed: list[tuple[str, int]] = []
        """(session id, events replayed) of every RESUME."""
        self._past_sessions: dict[str, GatewaySession] = {}

    # ---- addresses ----
    @property
    def api_base(self) -> str:
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot process at this fake."""
        return {
            "MONTANA_DISCORD_API_BASE": self.api_base,
            "MONTANA_DISCORD_GATEWAY": self.gateway_url,
        }

    # ---- lifecycle ----
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/gateway/", self._gateway)
        app.router.add_get("/_fake/world", self._control_world)
        app.router.add_get("/_fake/requests", self._control_requests)
        app.router.add_get("/_fake/messages", self._control_messages)
        app.router.add_post("/_fake/users", self._control_users)
        app.router.add_post("/_fake/interactions", self._control_interactions)
        app.router.add_route("*", "/api/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        server = site._server
        if self.port == 0 and server is not None:
            sockets = getattr(server, "sockets", None) or []
            self.port = int(sockets[0].getsockname()[1])

    async def spawn(
        self,
        *command: str,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> BotProcess:
        """Start a bot process pointed at this fake (``env()`` is added to ``env``, default the
        current environment). Its stderr is collected; a traceback in it becomes an error.
        Processes still running when the fake closes are killed."""
        full_env = {**(os.environ if env is None else env), **self.env()}
        process = await asyncio.create_subprocess_exec(
            *command, env=full_env, cwd=cwd, stderr=asyncio.subprocess.PIPE, limit=1 << 20
        )
        bot = BotProcess(process, self)
        self.processes.append(bot)
        return bot

    async def close(self) -> None:
        for bot in self.processes:
            await bot.kill()
        for session in list(self.sessions):
            await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeGateway:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- waiting ----
    @property
    def connected(self) -> bool:
        return any(s.identify is not None and not s.ws.closed for s in self.sessions)

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified (READY and GUILD_CREATE are sent right after)."""
        await self.wait_until(lambda: self.connected, timeout)

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        await self.wait_until(lambda: not self.connected, timeout)

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0) -> None:
        """Poll ``predicate`` after every request/connection change until true or timeout."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"condition still false after {timeout}s")
            await self.world.wait_for_change(min(remaining, 0.05))

    # ---- faults of the transport ----
    def inject_with(
        self, route: str, status: int | None = None, *, headers: Mapping[str, str], **options: Any
    ) -> Fault:
        """``inject``, the answer carrying ``headers`` too (``{"Via": "1.1 google"}``:
        discord.py trusts a 429 only with a ``Via`` header, else takes it for a
        Cloudflare ban and raises at once)."""
        fault = self.inject(route, status, **options)
        self.fault_headers[id(fault)] = dict(headers)
        return fault

    async def reconnect(self, lost_for: float = 0.0) -> int:
        """Discord asks the bot to reconnect (op 7 RECONNECT) after the events of the last
        ``lost_for`` seconds were lost on the wire; the bot RESUMEs and they are replayed.
        Returns how many sessions were asked."""
        live = [s for s in self.sessions if s.identify is not None and not s.ws.closed]
        for session in live:
            session.muted = True
        await asyncio.sleep(lost_for)
        for session in live:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.send_json({"op": RECONNECT, "d": None})
        return len(live)

    # ---- gateway ----
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._session_counter += 1
        session = GatewaySession(ws, f"fake-session-{self._session_counter}")
        await ws.send_json(
            {"op": HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
        )
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                await self._on_gateway_message(session, payload)
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
            self.world._notify()
        return ws

    async def _on_gateway_message(self, session: GatewaySession, payload: Json) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == HEARTBEAT:
            await session.ws.send_json({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            session.identify = data
            self.identifies.append(data or {})
            ready = self.world.ready_payload(session.session_id, self.gateway_url)
            # each shard is told only of the guilds it serves
            serves = session.serves(self.world.guild_id)
            shard = (data or {}).get("shard")
            if shard:
                ready["shard"] = list(shard)
            ready["guilds"] = [g for g in ready["guilds"] if session.serves(int(g["id"]))]
            await session.dispatch("READY", ready)
            if serves:
                await session.dispatch("GUILD_CREATE", self.world.guild_payload())
            for other in self.world.other_guilds:
                if session.serves(other):
                    await session.dispatch("GUILD_CREATE", self.world.other_guild_payload(other))
            self.sessions.append(session)
            self._past_sessions[session.session_id] = session
            self.world._notify()
        elif op == RESUME:
            session.identify = data
            session.sequence = int((data or {}).get("seq") or 0)
            past = self._past_sessions.get(str((data or {}).get("session_id")))
            if past is not None:  # the same session goes on: what it missed is replayed
                session.session_id, session.sent = past.session_id, past.sent
                missed = [p for p in past.sent if int(p["s"]) > session.sequence]
                for payload in missed:
                    await session.ws.send_json(payload)
                session.sequence = max([session.sequence, *(int(p["s"]) for p in missed)])
                self.resumed.append((session.session_id, len(missed)))
            await session.dispatch("RESUMED", {})
            self.sessions.append(session)
            self._past_sessions[session.session_id] = session
            self.world._notify()
        elif op == REQUEST_MEMBERS:
            chunk: Json = {
                "guild_id": str(self.world.guild_id),
                "members": [],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": (data or {}).get("nonce"),
            }
            await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _push_event(self, event: str, data: Json) -> None:
        guild_id = self.world.guild_id
        if event in ("GUILD_CREATE", "GUILD_DELETE"):  # the bot added to / removed from one
            guild_id = int(data["id"])
        for session in self.sessions:
            if not session.ws.closed and session.serves(guild_id):
                asyncio.get_running_loop().create_task(session.dispatch(event, data))

    # ---- REST ----
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = api_path(str(request.rel_url))
        is_webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not is_webhook and not request.headers.get("Authorization", "").startswith("Bot "):
            return _json_response({"message": "401: Unauthorized", "code": 0}, 401)
        body: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                data = bytes(await part.read())
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    files.append((part.filename or str(part.name), data))
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        # the fault `serve` will meet: the first that matches (no await in between)
        met = next((f for f in self.world.faults if f.matches(request.method, path)), None)
        headers = self.fault_headers.get(id(met), {}) if met is not None else {}
        status, response = await self.world.serve(
            request.method, path, dict(request.query), body, files, None
        )
        if status == 204 or response is None:
            return web.Response(status=204, headers=headers)
        return _json_response(response, status, headers)

    # ---- interactions ----
    async def _deliver(self, record: InteractionRecord) -> None:
        await self.wait_connected()
        session = [
            s
            for s in self.sessions
            if s.identify is not None and not s.ws.closed and s.serves(self.world.guild_id)
        ][-1]
        record.created = time.monotonic()
        self.world.in_flight.append(record)
        await session.dispatch("INTERACTION_CREATE", record.payload)

    async def _settle(self, record: InteractionRecord, timeout: float) -> None:
        deadline = time.monotonic() + timeout

        def loading() -> bool:
            original_id = record.original_id
            original = None if original_id is None else self.world.messages[original_id]
            return bool(original is not None and original.loading)

        def acknowledged_only() -> bool:
            # after a deferred update the bot still has to do something; wait for its next
            # request (an edit, a followup, a post while this is the only interaction in flight)
            return (
                record.response_type == DEFERRED_UPDATE
                and record.last_activity <= record.responded_at
                and time.monotonic() < record.responded_at + self.deferred_update_grace
            )

        while record.response_type is None or loading() or acknowledged_only():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            await self.world.wait_for_change(min(remaining, 0.05))
        while True:
            quiet_for = time.monotonic() - record.last_activity
            if quiet_for >= self.quiet_period or time.monotonic() >= deadline:
                return
            await asyncio.sleep(self.quiet_period - quiet_for)

    # ---- control API (standalone mode) ----
    async def _control_world(self, request: web.Request) -> web.Response:
        world = self.world
        return web.json_response(
            {
                "guild_id": str(world.guild_id),
                "application_id": str(world.application_id),
                "channels": [
                    {"id": str(c.id), "name": c.name, "type": c.type}
                    for c in world.channels.values()
                ],
                "users": [{"id": str(u.id), "name": u.name} for u in world.users.values()],
                "connected": self.connected,
                "errors": world.errors,
            }
        )

    async def _control_requests(self, request: web.Request) -> web.Response:
        return web.json_response(
            [
                {"route": r.route, "path": r.path, "status": r.status, "json": r.json}
                for r in self.world.recorded
            ]
        )

    async def _control_messages(self, request: web.Request) -> web.Response:
        channel_id = int(request.query.get("channel", self.channel.id))
        return web.json_response([_message_json(m) for m in self.messages_in(channel_id)])

    async def _control_users(self, request: web.Request) -> web.Response:
        data = await request.json()
        permissions = discord.Permissions(int(data.get("permissions", 0)))
        user = self.add_user(str(data["name"]), permissions=permissions)
        user.dms_open = bool(data.get("dms_open", True))
        return web.json_response({"id": str(user.id), "name": user.name})

    async def _control_interactions(self, request: web.Request) -> web.Response:
        spec = await request.json()
        try:
            result = await self._run_spec(spec)
        except (AssertionError, ValueError, KeyError) as problem:
            return web.json_response({"error": str(problem)}, status=400)
        return web.json_response(_result_json(result))

    async def _run_spec(self, spec: Mapping[str, Any]) -> InteractionResult:
        user = self.world.users[int(spec["user"])]
        kind = spec["kind"]
        if kind in ("slash", "autocomplete"):
            channel = self.world.channels[int(spec.get("channel", self.channel.id))]
            path = [str(p) for p in spec["path"]]
            options = dict(spec.get("options") or {})
            if kind == "slash":
                return await self.slash(user, channel, *path, options=options)
            return await self.autocomplete(
                user, channel, *path, options=options, focused=str(spec["focused"])
            )
        message = self.world.messages[int(spec["message"])]
        if kind == "press":
            return await self.press(user, message, spec.get("custom_id"), label=spec.get("label"))
        if kind == "select":
            values = [str(v) for v in spec.get("values") or []]
            return await self.select(
                user, message, spec.get("custom_id"), values, label=spec.get("label")
            )
        raise ValueError(f"unknown interaction kind {kind!r}")


def _json_response(
    data: Any, status: int, headers: Mapping[str, str] | None = None
) -> web.Response:
    # discord.py parses JSON only when the content type is exactly "application/json".
    body = json.dumps(data).encode()
    return web.Response(
        body=body, status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )


def _message_json(message: Any) -> Json:
    return {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "content": message.content,
        "ephemeral": message.ephemeral,
        "embeds": message.embeds,
        "components": message.components,
        "files": {name: len(data) for name, data in message.files.items()},
        "pinged": [str(i) for i in message.pinged_ids],
    }


def _result_json(result: InteractionResult) -> Json:
    return {
        "id": str(result.id),
        "response_type": result.response_type,
        "ephemeral": result.ephemeral,
        "content": result.content,
        "choices": result.choices,
        "messages": [_message_json(m) for m in result.messages],
        "errors": result.errors,
    }


async def _serve_forever(port: int, host: str, users: list[str]) -> None:
    async with FakeGateway(host=host, port=port) as gateway:
        created = [gateway.add_user(name) for name in users if name]
        print("Fake Discord listening; give the bot this environment:", flush=True)
        for key, value in gateway.env().items():
            print(f"  {key}={value}", flush=True)
        print(f"  guild {gateway.guild_id}, channel #general {gateway.channel.id}", flush=True)
        for user in created:
            print(f"  user {user.name} {user.id}", flush=True)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port (0: a free one)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--users", default="", help="comma-separated member names to create")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve_forever(args.port, args.host, args.users.split(",")))


if __name__ == "__main__":
    main()
