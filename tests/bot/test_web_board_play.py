"""Playing on the board from the game page (issue 38.2, 38.6): the decision's choices
as the page reads them (`choices.json`), the same moves as the prompts' menus, laid on
the picture's regions; signed out, or not a player, nothing to choose; the page itself
(sign-in link, the board's script, nothing inline under the strict CSP)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.play import prompts
from bot.core.play.board_choices import board_decision
from bot.web.activity import ACTIVITY_POLICY, FRAMED_BY
from bot.web.app import CONTENT_SECURITY_POLICY
from i18n import translator
from render.targets import snapshot_targets, target_of
from rules import Game
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_web_board import Board, _awaited, _user, board_for

STATIC = Path(__file__).parents[2] / "bot" / "web" / "static"


@pytest.fixture
async def board(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Board]:
    async with board_for(tmp_path, fake=fake_discord) as found:
        yield found


async def _choices(board: Board, cookie: str | None, lang: str = "en") -> dict[str, object]:
    status, _, body, _ = await board.get(f"/g/{board.token}/choices.json?lang={lang}", cookie)
    assert status == 200, body
    said: dict[str, object] = json.loads(body)
    return said


def _codes(said: dict[str, object]) -> set[str]:
    targets = said["targets"]
    beside = said["beside"]
    assert isinstance(targets, list) and isinstance(beside, list)
    on = {c["code"] for t in targets for c in t["choices"]}
    return on | {c["code"] for c in beside}


async def test_the_awaited_player_gets_every_legal_move_laid_on_the_board(board: Board) -> None:
    mark, game, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    said = await _choices(board, signed.cookie)
    assert said["version"] == mark and said["awaited"] and said["player"]
    assert said["prompt"] == "Choose your action:"
    legal = {f"a:{action}" for action in game.legal_actions(pid)}
    assert prompts.last_mover(game) != pid
    assert _codes(said) == legal | {prompts.HINT}, (
        "every legal move and the AI's hint, nothing else (not the other's undo)"
    )
    regions = {
        r.key for r in snapshot_targets(game, names=(await board.table.row(board.game_id)).names)
    }
    targets = said["targets"]
    assert isinstance(targets, list)
    for target in targets:
        assert target["key"] in regions, "each target lies on a region of the picture"
        for choice in target["choices"]:
            action = next(a for a in game.legal_actions(pid) if f"a:{a}" == choice["code"])
            assert target_of(game, action) == target["key"]
    builds = [t for t in targets if t["key"].startswith("field:")]
    assert builds, "the fields one may build on are targets"
    field = builds[0]["key"].split(":")[1]
    assert builds[0]["label"].startswith("Build… › " + field + " — "), builds[0]["label"]


async def test_the_choices_speak_the_readers_language(board: Board) -> None:
    _, game, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    said = await _choices(board, signed.cookie, "fr")
    names = {s.user_id: s.name for s in (await board.table.row(board.game_id)).players}
    french = board_decision(game, pid, names, translator("fr"))
    assert said["prompt"] == french.prompt != "Choose your action:"
    assert said["targets"] == [t.to_json() for t in french.targets]


async def test_spectators_and_the_signed_out_watch(board: Board) -> None:
    mark, _, pid = await _awaited(board)
    said = await _choices(board, None)
    assert said == {
        "version": mark,
        "signed_in": False,
        "player": False,
        "awaited": False,
        "prompt": "",
        "targets": [],
        "beside": [],
    }
    stranger = board.table.fake.add_user("carl")
    signed = await board.sign_in(stranger)
    said = await _choices(board, signed.cookie)
    assert said["signed_in"] and not said["player"] and not said["targets"] and not said["beside"]
    other = next(
        s.user_id for s in (await board.table.row(board.game_id)).players if s.user_id != pid
    )
    signed = await board.sign_in(_user(board, other))
    said = await _choices(board, signed.cookie)
    assert said["player"] and not said["awaited"] and not said["targets"], "not their turn"
    status, headers, _, _ = await board.get(f"/g/{board.token}/choices.json?version=0-0")
    assert status == 302 and headers["Location"].endswith(f"?version={mark}&lang=en")


def test_the_mover_meanwhile_gets_their_undo_and_the_queued_their_pass_in_advance() -> None:
    game = Game.new(["a1", "b2"], seed=3)
    names = {"a1": "Ana", "b2": "Ben"}
    while game.awaiting == "a1" or prompts.last_mover(game) != "a1":
        pid = game.awaiting
        assert pid is not None
        game.apply(pid, game.legal_actions(pid)[0])
    waiting = board_decision(game, "a1", names)
    assert not waiting.awaited and [c.code for c in waiting.beside] == [prompts.UNDO]
    assert board_decision(game, "b2", names).awaited


async def test_the_page_offers_signing_in_and_loads_the_board_script_nothing_inline(
    board: Board,
) -> None:
    status, headers, body, _ = await board.get(f"/g/{board.token}?lang=pl")
    assert status == 200
    page = body.decode()
    # the game's page may be framed by Discord's clients (the Activity opens it), and is
    # otherwise as strict as every other page: scripts and styles from the site only
    policy = headers["Content-Security-Policy"]
    assert policy == ACTIVITY_POLICY
    assert policy.replace(f"frame-ancestors {FRAMED_BY}", "frame-ancestors 'none'") == (
        CONTENT_SECURITY_POLICY
    )
    assert "script-src 'self'" in policy and "unsafe" not in policy
    assert f'href="/signin?back=/g/{board.token}%3Flang%3Dpl"' in page
    assert "Zaloguj się przez Discorda" in page, "the link in the reader's language"
    assert '<script src="/static/board.js" defer></script>' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page), "no inline script"
    assert not re.search(r"\sstyle=|<style", page), "no inline style"
    assert not re.search(r"\son[a-z]+=", page), "no inline handler"
    status, headers, script, _ = await board.get("/static/board.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert script == (STATIC / "board.js").read_bytes()
    # the script has no words of its own: its visible strings come from the page
    assert not re.search(r"textContent = \"[A-Za-z]", script.decode())


async def test_the_awaited_player_asks_the_ai_for_a_hint_in_their_language(board: Board) -> None:
    """Issue 38.2: the hint, as the Discord Hint button gives it (the same AI, the same
    limit), said on the page in the reader's language; nothing is played."""
    mark, game, pid = await _awaited(board)
    other = next(p for p in board.table.users if p != pid)
    signed = await board.sign_in(_user(board, pid))
    waiting = await board.sign_in(_user(board, other))
    beside = (await _choices(board, signed.cookie))["beside"]
    assert isinstance(beside, list)
    assert {"code": prompts.HINT, "label": "💡 Hint", "heading": ""} in beside
    assert prompts.HINT not in _codes(await _choices(board, waiting.cookie)), "theirs only"
    posts = len(board.table.fake.messages_in(board.thread))
    status, said = await board.move(signed, {"version": mark, "code": prompts.HINT})
    assert status == 200, said
    legal = {f"a:{action}" for action in game.legal_actions(pid)}
    assert said["hint"] in legal
    assert said["said"].startswith("💡 The AI suggests " + said["hint"][2:]), said
    assert "**" not in said["said"], "plain words on the page"
    status, said_fr = await board.move(
        signed, {"version": mark, "code": prompts.HINT}, path="?lang=fr"
    )
    assert status == 200 and said_fr["said"].startswith("💡 L’IA"), said_fr
    assert (await board.now())[0] == mark, "nothing played"
    assert len(board.table.fake.messages_in(board.thread)) == posts, "nothing posted"
    # the other player, a stale page: refused in words
    status, refused = await board.move(waiting, {"version": mark, "code": prompts.HINT})
    assert status == 409 and refused["said"], refused
    status, refused = await board.move(signed, {"version": "1-0", "code": prompts.HINT})
    assert status == 409 and "moved on" in refused["said"], refused
    # the Discord hint's limit: 5 a minute per member, the page's hints counted with them
    board.rate.taps = 100  # (the taps' own limit, tested apart, out of the way)
    for _ in range(3):
        status, _ = await board.move(signed, {"version": mark, "code": prompts.HINT})
        assert status == 200
    status, refused = await board.move(signed, {"version": mark, "code": prompts.HINT})
    assert status == 409 and "most hints allowed" in refused["said"], refused
