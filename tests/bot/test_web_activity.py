"""The game as a Discord Activity (issue 38.5), through the web app in-process and the
fake Discord's OAuth2: the code the SDK's authorize gives is exchanged for a session,
the Activity finds its game from the channel it runs in (a seated player's only), and
lists the player's games elsewhere. Its pages may be framed by Discord only; the rest of
the site by nobody. (In a real browser with the SDK: `test_web_activity_browser.py`.)"""

from __future__ import annotations

import json
from typing import Any

from bot.web.activity import FRAMED_BY
from bot.web.signin import SESSION_COOKIE
from tests.bot.fakediscord import FakeDiscord, FakeUser
from tests.bot.test_web_board import Board
from tests.bot.test_web_board import board as board  # the fixture


async def _session(board: Board, code: Any) -> tuple[int, dict[str, Any], list[str]]:
    async with board.http.post(
        f"{board.url}/activity/session",
        data=json.dumps({"code": code}),
        headers={"Content-Type": "application/json"},
    ) as r:
        return r.status, await r.json(), r.headers.getall("Set-Cookie", [])


def _activity_cookie(lines: list[str]) -> str:
    """The session's cookie, checked as the Activity's frame needs it (a third party
    inside discord.com): HttpOnly, Secure, SameSite=None, Partitioned."""
    for line in lines:
        name, _, rest = line.partition("=")
        if name == SESSION_COOKIE:
            value, *attributes = [part.strip() for part in rest.split(";")]
            for needed in ("HttpOnly", "Secure", "SameSite=None", "Partitioned", "Path=/"):
                assert needed in attributes, line
            return f"{SESSION_COOKIE}={value}"
    raise AssertionError(f"no session cookie in {lines}")


async def _signed_in(board: Board, user: FakeUser) -> tuple[str, dict[str, Any]]:
    status, said, cookies = await _session(board, board.oauth.activity_code(user))
    assert status == 200, said
    return _activity_cookie(cookies), said


async def _games(board: Board, cookie: str | None, channel: object) -> tuple[int, dict[str, Any]]:
    status, _, body, _ = await board.get(f"/activity/games.json?channel={channel}", cookie=cookie)
    return status, json.loads(body)


async def test_an_activitys_code_is_exchanged_for_a_session_and_the_token_authenticate_needs(
    board: Board,
) -> None:
    ana = board.table.user(next(iter(board.table.users)))
    cookie, said = await _signed_in(board, ana)
    assert said["user"] == {"id": str(ana.id), "name": ana.name.title()}
    assert board.oauth.tokens[said["access_token"]] == ana, "Discord's own token, for the SDK"
    exchange = next(r for r in board.oauth.requests if r["path"] == "/api/oauth2/token")
    assert exchange["status"] == 200
    assert "redirect_uri" not in exchange["sent"] and "code_verifier" not in exchange["sent"]
    status, _, body, _ = await board.get("/signin/me.json", cookie=cookie)
    assert status == 200 and json.loads(body)["csrf"] == said["csrf"]


async def test_a_bad_or_spent_code_is_refused_in_words_and_makes_no_session(board: Board) -> None:
    for code in ("", 42, "x" * 201, None):
        status, said, cookies = await _session(board, code)
        assert status == 400 and said["said"].startswith("Discord did not give this Activity")
        assert not cookies
    async with board.http.post(f"{board.url}/activity/session", data=b"{not json") as r:
        assert r.status == 400 and not r.headers.getall("Set-Cookie", [])
    ana = board.table.user(next(iter(board.table.users)))
    code = board.oauth.activity_code(ana)
    assert (await _session(board, code))[0] == 200
    status, said, cookies = await _session(board, code)
    assert status == 502
    assert said["said"] == "Discord did not confirm who you are: try again in a moment."
    assert not cookies, "a code serves once"


async def test_the_activity_finds_its_game_from_the_thread_and_lists_the_players_games(
    board: Board,
) -> None:
    ana = board.table.user(next(iter(board.table.users)))
    cookie, _ = await _signed_in(board, ana)
    status, said = await _games(board, cookie, board.thread.id)
    assert status == 200
    assert said["here"]["path"] == f"g/{board.token}?lang=en"
    assert said["games"] == [said["here"]]
    status, said = await _games(board, cookie, 123456789)  # launched elsewhere
    assert said["here"] is None
    assert [g["path"] for g in said["games"]] == [f"g/{board.token}?lang=en"]
    status, said = await _games(board, cookie, "not-a-channel")
    assert status == 200 and said["here"] is None


async def test_a_non_player_is_not_given_the_channels_game_and_nobody_signed_out_is(
    board: Board, fake_discord: FakeDiscord
) -> None:
    carl = fake_discord.add_user("carl")
    cookie, _ = await _signed_in(board, carl)
    status, said = await _games(board, cookie, board.thread.id)
    assert status == 200 and said == {"here": None, "games": []}, "the page's address is secret"
    status, said = await _games(board, None, board.thread.id)
    assert status == 401 and said["said"].startswith("You are not signed in")


async def test_the_activity_page_loads_the_bundled_sdk_and_only_discord_may_frame_it(
    board: Board,
) -> None:
    status, headers, body, _ = await board.get("/activity?frame_id=f&platform=desktop")
    assert status == 200
    page = body.decode()
    assert '<script src="static/activity.js" defer></script>' in page, "relative: /.proxy/ works"
    assert "<script>" not in page and " on" not in page.split("<body>")[1].split("data-")[0]
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "'unsafe" not in policy
    assert policy.endswith(f"frame-ancestors {FRAMED_BY}")
    assert "https://discord.com" in FRAMED_BY and "*" not in FRAMED_BY
    status, headers, script, _ = await board.get("/static/activity.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert b"@discord/embedded-app-sdk" in script and b"cdn" not in script.split(b"*/")[0]
    assert b"new Function" not in script and b"eval(" not in script, "script-src 'self' only"
    _, headers, _, _ = await board.get(f"/g/{board.token}")
    assert headers["Content-Security-Policy"].endswith(f"frame-ancestors {FRAMED_BY}")
    _, headers, _, _ = await board.get(f"/g/{board.token}/state.json")
    assert headers["Content-Security-Policy"].endswith("frame-ancestors 'none'")
