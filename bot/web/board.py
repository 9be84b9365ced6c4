"""The decision on the board (issue 38.2): what the signed-in reader may tap now.

    GET /g/<token>/choices.json?version=<mark>&lang=

    {"version": "12-0", "signed_in": true, "player": true,
     "awaited": true, "prompt": "Choose your action:",
     "targets": [{"key": "field:C4", "label": "Build… › C4 — 3 coins",
                  "choices": [{"code": "a:build C4", "label": ..., "heading": ...}]}],
     "beside": [{"code": "a:end", "label": "End turn", "heading": ...}]}

The choices are `bot.core.play.board_choices`'s, the prompts' own menus in the reader's
language: the page lays each target over the region of `targets.json` with its key,
and posts a choice's code to `/g/<token>/move` (`bot.web.moves`). Signed out, or not a
player: nothing to choose (they watch). A version other than the game's now is sent to
the choices now, as `targets.json` does; the answer depends on the reader (no-store).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from functools import partial

from aiohttp import web

from bot.core.play.board_choices import board_decision
from bot.core.wording import words
from i18n import Language, translator
from rules import Game

from ..core.store import GameRow
from .pages import mark_of
from .signin import SESSIONS

GameOf = Callable[[web.Request], Awaitable[tuple[GameRow, Game]]]
GAME_OF: web.AppKey[GameOf] = web.AppKey("board_game_of")
BOARD_LANGUAGE: web.AppKey[Callable[[web.Request], Language]] = web.AppKey("board_language")
HINTS_OFFERED: web.AppKey[bool] = web.AppKey("board_hints", bool)


async def choices(request: web.Request) -> web.Response:
    app = request.app
    row, game = await app[GAME_OF](request)
    language = app[BOARD_LANGUAGE](request)
    asked = request.query.get("version")
    if asked is not None and asked != mark_of(row):
        raise web.HTTPFound(
            f"/g/{request.match_info['token']}/choices.json?version={mark_of(row)}&lang={language}"
        )
    session = await app[SESSIONS].of(request)
    viewer = session.user_id if session is not None and row.has_player(session.user_id) else None
    t = translator(language)
    names = words.names_worded(row.names, t)
    decision = await asyncio.to_thread(
        partial(board_decision, hint=app[HINTS_OFFERED]), game, viewer, names, t
    )
    said = {
        "version": mark_of(row),
        "signed_in": session is not None,
        "player": viewer is not None,
        **decision.to_json(),
    }
    return web.Response(
        text=json.dumps(said, ensure_ascii=False),
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def add_board_routes(
    app: web.Application,
    game_of: GameOf,
    language_of: Callable[[web.Request], Language],
    *,
    hints: bool = False,
) -> None:
    """Serve the decision's choices on `app` (whose signing in is served: `signin`;
    `hints`: the awaited player is offered the AI's hint, `bot.web.moves`)."""
    app[HINTS_OFFERED] = hints
    app[GAME_OF] = game_of
    app[BOARD_LANGUAGE] = language_of
    app.router.add_get("/g/{token}/choices.json", choices)


__all__ = ["add_board_routes"]
