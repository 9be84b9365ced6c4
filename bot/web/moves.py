"""A move from the game's page (issue 38.4): the same path as a button press.

    POST /g/<token>/move    {"version": "<mark>", "code": "a:build C4"}
                            (or {"version": ..., "action": "build C4"})

`version` is the game's mark as the page was told it (`pages.mark_of`: "<version>-<undo
epoch>"); `code` is a prompt's code (`bot.core.play.prompts`: `a:<notation>` a move,
`undo`, `inadvance`), the vocabulary the Discord buttons carry, so that the page and
Discord never offer different things. The move goes through `GameService.check_turn`
and `play` (or `undo`, `pass_in_advance`) as a press does: the same checks, the same
stale-state guard (the store's version and undo epoch check), the same per-game lock,
and the same outbox: the thread gets the same post and ping as if it was tapped in
Discord. Only the signed-in owner of the awaited seat moves it; the request must carry
the session's CSRF token (`signin.CSRF_HEADER`); each member's moves are rate-limited
(`TapRate`). A refusal is answered in words (JSON `{"said": ...}`, in the page's
language) and changes nothing; a move on a game that moved on meanwhile is answered 409
with the game's mark now.

Moves are written, so they are served by the bot's own web server only (the process
that owns the game service and delivers the outbox); see docs/developers.md.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.core.play import prompts
from bot.core.play.games import STALE_WORDS
from bot.core.play.service import GameService, Outcome, Refusal
from bot.core.store import GameRow, StoreError
from bot.core.wording import words
from i18n import Language, Translator, translatable, translator

from .pages import mark_of
from .signin import SESSIONS

TAPS = 10
TAP_SECONDS = 10.0
"""At most `TAPS` moves per member in any `TAP_SECONDS`: a person tapping through a
turn never meets it (a step a second), a script cannot flood the game service."""

NOT_A_PLAYER = translatable(
    "You are not playing in this game: only its players move, everyone may watch."
)
NOT_YOUR_SEAT = translatable("You can only move your own seat.")
MOVED_ON = translatable(
    "The game has moved on since your page showed it: nothing was changed. The page "
    "shows the game as it is now."
)
TOO_FAST = translatable("Too many moves at once: wait a few seconds and try again.")
BAD_MOVE = translatable(
    "This move could not be read: it needs the game's version and one of the choices offered."
)
NOT_SAVED_WEB = translatable(
    "The game could not be saved just now (the database is busy): nothing was changed, "
    "try again in a moment."
)


class TapRate:
    """Each member's moves in the last `seconds`, at most `taps` of them."""

    def __init__(
        self,
        taps: int = TAPS,
        seconds: float = TAP_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.taps = taps
        self.seconds = seconds
        self.clock = clock
        self._taps: dict[str, deque[float]] = {}

    def allow(self, user_id: str) -> bool:
        """Whether `user_id` may move now (counted when allowed)."""
        now = self.clock()
        taps = self._taps.setdefault(user_id, deque())
        while taps and now - taps[0] >= self.seconds:
            taps.popleft()
        if len(taps) >= self.taps:
            return False
        taps.append(now)
        if len(self._taps) > 10_000:  # forget the members who stopped
            for member in [m for m, kept in self._taps.items() if not kept]:
                del self._taps[member]
        return True


Hinter = Callable[[GameRow, str], Awaitable[Any]]
"""The AI's hint for the awaited player (`AiPlayers.hint`: the same checks and the
same per-member limit, `HintRate`, as the Discord hint)."""

Find = Callable[[web.Request], Awaitable[GameRow]]
"""The game of a page's address (404 as the page answers it)."""

SERVICE: web.AppKey[GameService] = web.AppKey("service", GameService)
TAP_RATE: web.AppKey[TapRate] = web.AppKey("tap_rate", TapRate)
FIND: web.AppKey[Find] = web.AppKey("find_game")
LANGUAGE: web.AppKey[Callable[[web.Request], Language]] = web.AppKey("move_language")
HINTER: web.AppKey[Hinter | None] = web.AppKey("move_hinter")


def _said(status: int, text: str, **more: Any) -> web.Response:
    return web.json_response(
        {"said": text, **more}, status=status, headers={"Cache-Control": "no-store"}
    )


def _mark(text: object) -> tuple[int, int] | None:
    """The version and undo epoch of a page's mark ("12-0"; "12" is epoch 0)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return (text, 0) if text >= 0 else None
    if not isinstance(text, str):
        return None
    parts = text.split("-")
    if len(parts) not in (1, 2) or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]) if len(parts) == 2 else 0


def _code(body: dict[str, Any]) -> str | None:
    code, action = body.get("code"), body.get("action")
    if isinstance(code, str) and action is None:
        return code
    if isinstance(action, str) and code is None:
        return f"a:{action}"
    return None


async def move(request: web.Request) -> web.Response:
    app = request.app
    language = app[LANGUAGE](request)
    t = translator(language)
    sessions = app[SESSIONS]
    session = await sessions.signed_in(request, language)
    sessions.check_csrf(request, session, language)
    user_id = session.user_id
    row = await app[FIND](request)
    if not app[TAP_RATE].allow(user_id):
        return _said(429, t.translate(TOO_FAST))
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        return _said(400, t.translate(BAD_MOVE))
    mark, code = _mark(body.get("version")), _code(body)
    if mark is None or code is None or len(code) > 200:
        return _said(400, t.translate(BAD_MOVE))
    for field in ("player", "seat", "user"):
        if field in body and str(body[field]) != user_id:
            return _said(403, t.translate(NOT_YOUR_SEAT))
    service = app[SERVICE]
    try:
        row = service.delivery.latest(await service.get(row.id))
        if not row.has_player(user_id):
            return _said(403, t.translate(NOT_A_PLAYER))
        hinter = app[HINTER]
        if code == prompts.HINT and hinter is not None:
            return await _hint(hinter, row, user_id, mark, t)
        return await _play(service, row, user_id, mark, code, t)
    except Refusal as refusal:
        if refusal.marked is STALE_WORDS:
            now = service.delivery.latest(await service.get(row.id))
            return _said(409, t.translate(MOVED_ON), version=mark_of(now))
        return _said(409, refusal.text(t), version=mark_of(row))
    except prompts.UnknownChoice:
        return _said(400, t.translate(BAD_MOVE))
    except StoreError:
        return _said(503, t.translate(NOT_SAVED_WEB))


async def _play(
    service: GameService,
    row: GameRow,
    user_id: str,
    mark: tuple[int, int],
    code: str,
    t: Translator,
) -> web.Response:
    """The choice `code` of `user_id` in `row` at `mark`, as `presses` does it."""
    version, epoch = mark
    outcome: Outcome
    if code.startswith("a:"):
        turn = await service.check_turn(row, user_id, version, epoch)
        outcome = await service.play(
            turn, user_id, code[2:], expected_version=version, expected_epoch=epoch
        )
    elif code == prompts.UNDO:
        mover = prompts.last_mover(service.game_of(row))
        if mover is not None and mover != user_id:
            raise Refusal(lambda t: words.not_your_undo(mover, row.names, t))
        outcome = await service.undo(row, user_id, expected_version=version, expected_epoch=epoch)
    elif code == prompts.IN_ADVANCE:
        standing = await service.pass_in_advance(
            row, user_id, expected_version=version, expected_epoch=epoch
        )
        return _said(200, words.pass_in_advance_said(standing, t), version=mark_of(row))
    else:
        raise prompts.UnknownChoice(code)
    return _said(200, outcome.text, version=mark_of(outcome.row))


async def _hint(
    hinter: Hinter, row: GameRow, user_id: str, mark: tuple[int, int], t: Translator
) -> web.Response:
    """The AI's suggestion for `user_id`, in the words of the Discord hint (its bold
    marks left out: the page shows plain text); nothing is played."""
    if (row.version, row.undo_epoch) != mark:
        raise Refusal(STALE_WORDS)
    hint = await hinter(row, user_id)
    reasons = words.reasons_words(hint.decision.reasons, t, hint.row.names)
    if reasons:
        text = t.gettext(
            "The AI suggests **{move}** — {reasons}", move=hint.notation, reasons=reasons
        )
    else:
        text = t.gettext("The AI suggests **{move}**", move=hint.notation)
    return _said(
        200, "💡 " + text.replace("**", ""), version=mark_of(row), hint=f"a:{hint.notation}"
    )


def add_move_routes(
    app: web.Application,
    service: GameService,
    find: Find,
    language_of: Callable[[web.Request], Language],
    rate: TapRate | None = None,
    hinter: Hinter | None = None,
) -> None:
    """Serve the page's moves on `app` (whose signing in is served: `signin`; `hinter`:
    the AI's hint asked from the page, prompts.HINT)."""
    app[HINTER] = hinter
    app[SERVICE] = service
    app[TAP_RATE] = rate or TapRate()
    app[FIND] = find
    app[LANGUAGE] = language_of
    app.router.add_post("/g/{token}/move", move)


__all__ = ["TAPS", "TAP_SECONDS", "TapRate", "add_move_routes"]
