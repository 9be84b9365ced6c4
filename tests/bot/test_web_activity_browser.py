"""The Activity inside a stand-in for Discord (issue 38.5's done-when), in Debian's
headless Chromium: a harness page frames `/activity` as Discord's client does (with
frame_id, instance_id, platform, channel_id in its address) and answers the bundled
SDK's postMessage protocol as Discord's client would (the handshake, READY, AUTHORIZE
with a code the fake Discord's OAuth2 made, AUTHENTICATE); the page's server exchanges
the code at the fake Discord's `/api/oauth2/token` and reads `/api/users/@me`.

The SDK accepts messages only from Discord's origins or its own, so the harness is
served beside the Activity (`board_for(more=)`), under its own CSP (it frames)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_web_board import CLIENT_ID, Board, board_for
from tests.bot.test_web_browser import Page, browser, off_loop  # noqa: F401 (the fixture)

HARNESS_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Discord (stand-in)</title>
<script src="/harness.js" defer></script></head>
<body><iframe id="app" title="Activity" width="390" height="700"></iframe></body></html>
"""

# Discord's client as the SDK (2.x) speaks to it: opcode 0 HANDSHAKE from the frame,
# answered by a READY dispatch; opcode 1 FRAME commands answered with their nonce.
HARNESS_JS = """
const params = new URLSearchParams(location.search);
const frame = document.getElementById("app");
const seen = [];
window.harness = { seen };
function reply(data) { frame.contentWindow.postMessage([1, data], location.origin); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {
    seen.push("HANDSHAKE " + payload.client_id + " " + payload.frame_id);
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {
      api_endpoint: "//discord.com/api", environment: "production" } } });
    return;
  }
  if (opcode !== 1) return;
  const args = payload.args || {};
  if (payload.cmd === "AUTHORIZE") {
    seen.push("AUTHORIZE " + args.client_id + " " + args.response_type + " " +
      (args.scope || []).join(","));
    if (args.client_id !== params.get("client") || args.response_type !== "code") {
      reply({ cmd: "AUTHORIZE", evt: "ERROR", nonce: payload.nonce,
        data: { code: 4002, message: "bad authorize" } });
      return;
    }
    reply({ cmd: "AUTHORIZE", evt: null, nonce: payload.nonce,
      data: { code: params.get("code") } });
  } else if (payload.cmd === "AUTHENTICATE") {
    seen.push("AUTHENTICATE");
    window.harness.token = args.access_token;
    reply({ cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce, data: {
      access_token: args.access_token,
      user: { username: params.get("name"), discriminator: "0", id: params.get("user"),
              public_flags: 0, global_name: null },
      scopes: ["identify"], expires: "2026-12-05T12:00:00.000Z",
      application: { description: "", id: params.get("client"), name: "Montana" } } });
  } else {
    seen.push("OTHER " + payload.cmd);
    reply({ cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce,
      data: { code: 1000, message: "not in the harness" } });
  }
});
frame.src = params.get("at") + "activity?frame_id=frame-1&instance_id=i-1&platform=desktop" +
  "&guild_id=" + params.get("guild") + "&channel_id=" + params.get("channel");
"""
HARNESS_POLICY = (
    "default-src 'none'; script-src 'self'; frame-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)


PROXY = "/.proxy/"
"""Discord's proxy prefix: `https://<app>.discordsays.com/.proxy/<path>` reaches the URL
mapping's target at `/<path>`."""


PROXIED: web.AppKey[list[str]] = web.AppKey("proxied")
"""The paths the stand-in proxy forwarded, in order."""


async def through_the_proxy(request: web.Request) -> web.StreamResponse:
    """Discord's proxy, standing in: the request handled as the target's `/<path>`."""
    request.app[PROXIED].append(request.rel_url.path[len(PROXY) - 1 :])
    inner = request.clone(
        rel_url=request.rel_url.path[len(PROXY) - 1 :]
        + ("?" + request.query_string if request.query_string else "")
    )
    match = await request.app.router.resolve(inner)
    match.add_app(request.app)
    match.freeze()
    inner._match_info = match
    return await match.handler(inner)


def harness_routes(app: web.Application) -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(
            text=HARNESS_HTML,
            content_type="text/html",
            headers={"Content-Security-Policy": HARNESS_POLICY},
        )

    async def script(request: web.Request) -> web.Response:
        return web.Response(text=HARNESS_JS, content_type="text/javascript")

    app.router.add_get("/harness", page)
    app.router.add_get("/harness.js", script)
    app.router.add_route("*", PROXY + "{tail:.*}", through_the_proxy)
    app[PROXIED] = []


@pytest.fixture
async def activity(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Board]:
    async with board_for(tmp_path, fake=fake_discord, more=harness_routes) as found:
        yield found


async def _launch(page: Page, board: Board, channel: int, pid: str, at: str = "/") -> None:
    user = board.table.user(pid)
    code = board.oauth.activity_code(user)
    query = (
        f"client={CLIENT_ID}&code={code}&user={user.id}&name={user.name}"
        f"&guild=1&channel={channel}&at={at}"
    )
    await page.open(f"/harness?{query}", (390, 844))


IN_FRAME = "document.getElementById('app').contentWindow"


async def test_the_activity_signs_in_finds_its_game_from_the_thread_and_shows_the_board(
    activity: Board,
    browser: Any,  # noqa: F811 (the fixture imported)
) -> None:
    board = activity
    pid = next(iter(board.table.users))
    page = Page(browser, board.url)
    await _launch(page, board, board.thread.id, pid)
    shown = (
        f"{IN_FRAME}.location.pathname === '/g/{board.token}'"
        f" && {IN_FRAME}.document.getElementById('picture') !== null"
        f" && {IN_FRAME}.document.getElementById('picture').complete"
        f" && {IN_FRAME}.document.getElementById('picture').naturalWidth > 0"
    )
    await page.until(shown)
    seen = await page.script("return window.harness.seen")
    assert seen == [
        f"HANDSHAKE {CLIENT_ID} frame-1",
        f"AUTHORIZE {CLIENT_ID} code identify",
        "AUTHENTICATE",
    ]
    token = await page.script("return window.harness.token")
    assert board.oauth.tokens[token] == board.table.user(pid), "Discord's token, authenticated"
    paths = [(r["path"], r["status"]) for r in board.oauth.requests]
    assert paths == [("/api/oauth2/token", 200), ("/api/users/@me", 200)]
    # signed in inside the frame: the game's page knows who is there
    me = await page.script(f"return await {IN_FRAME}.fetch('/signin/me.json').then(r => r.json())")
    assert me["user"]["id"] == str(board.table.user(pid).id)
    await page.screenshot("activity-phone.png")


async def test_behind_discords_proxy_prefix_every_request_of_the_activity_keeps_it(
    activity: Board,
    browser: Any,  # noqa: F811 (the fixture imported)
) -> None:
    board = activity
    pid = next(iter(board.table.users))
    page = Page(browser, board.url)
    await _launch(page, board, board.thread.id, pid, at=PROXY)
    await page.until(
        f"{IN_FRAME}.location.pathname === '{PROXY}g/{board.token}'"
        f" && {IN_FRAME}.document.getElementById('picture') !== null"
    )
    # the Activity's page, its script and its requests all went through the proxy
    assert board.app is not None
    recorded: list[str] = board.app[PROXIED]
    proxied = set(recorded)
    assert {
        "/activity",
        "/static/activity.js",
        "/activity/session",
        "/activity/games.json",
        f"/g/{board.token}",
    } <= proxied, proxied
    assert [r["path"] for r in board.oauth.requests] == ["/api/oauth2/token", "/api/users/@me"]


async def test_launched_elsewhere_the_activity_lists_the_players_games(
    activity: Board,
    browser: Any,  # noqa: F811 (the fixture imported)
) -> None:
    board = activity
    pid = next(iter(board.table.users))
    page = Page(browser, board.url)
    await _launch(page, board, 987654321, pid)
    await page.until(f"{IN_FRAME}.document.getElementById('activity').dataset.state === 'listed'")
    links = await page.script(
        f"return [...{IN_FRAME}.document.querySelectorAll('#games a')]"
        ".map(a => [a.textContent, new URL(a.href).pathname])"
    )
    row, _ = await board.table.game(board.game_id)
    assert links == [[", ".join(seat.name for seat in row.players), f"/g/{board.token}"]]
    status = await page.script(f"return {IN_FRAME}.document.getElementById('status').textContent")
    assert status == "Your games under way: choose one."
    assert json.loads(json.dumps(await page.script("return window.harness.seen")))[-1] == (
        "AUTHENTICATE"
    )
    await off_loop(lambda: None)
