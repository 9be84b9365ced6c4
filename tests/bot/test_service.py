"""The Discord-free game flow: lobby, moves, refusals in words, concurrency."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from pathlib import Path

import pytest

from bot.core.assembly import game_service
from bot.core.play.service import STALE_WORDS, GameService, Outcome, Refusal
from bot.core.store import FINISHED, Seat, Store
from rules import Action, Game
from rules.simulate import choose_action

ANA = Seat("111", "Ana")
BEN = Seat("222", "Ben")
CLEO = Seat("333", "Cleo")


class FakeRenderer:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.calls.append(("game", highlight))
        return b"PNG game %d" % game.version

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        self.calls.append(("board", player_id))
        return b"PNG board"


class Recorder:
    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def announce(self, outcome: Outcome) -> int | None:
        self.outcomes.append(outcome)
        return 1000 + len(self.outcomes)


@pytest.fixture
async def service(tmp_path: Path):
    store = await Store.open(str(tmp_path / "m.sqlite3"))
    yield game_service(store, renderer=FakeRenderer(), announcer=Recorder())
    await store.close()


def recorder(service: GameService) -> Recorder:
    assert isinstance(service.announcer, Recorder)
    return service.announcer


async def started(service: GameService, *seats: Seat, seed: int = 1) -> int:
    row = await service.open_lobby(guild_id=1, channel_id=10, thread_id=None, creator=seats[0])
    for seat in seats[1:]:
        await service.join(row.id, seat)
    await service.start(row.id, seats[0].user_id, seed=seed)
    return row.id


async def test_lobby_rules(service: GameService) -> None:
    row = await service.open_lobby(guild_id=1, channel_id=10, thread_id=None, creator=ANA)
    with pytest.raises(Refusal, match="already"):
        await service.open_lobby(guild_id=1, channel_id=10, thread_id=None, creator=BEN)
    with pytest.raises(Refusal, match="2 to 4 players"):
        await service.start(row.id, ANA.user_id)
    await service.join(row.id, BEN)
    with pytest.raises(Refusal, match="already joined"):
        await service.join(row.id, BEN)
    with pytest.raises(Refusal, match="Only a player"):
        await service.start(row.id, CLEO.user_id)
    await service.join(row.id, CLEO)
    await service.join(row.id, Seat("444", "Dan"))
    with pytest.raises(Refusal, match="full"):
        await service.join(row.id, Seat("555", "Eve"))
    after = await service.leave(row.id, "444")
    assert [s.name for s in after.players] == ["Ana", "Ben", "Cleo"]


async def test_start_draws_seats_from_the_seed_and_says_so(service: GameService) -> None:
    game_id = await started(service, ANA, BEN, CLEO, seed=42)
    outcome = recorder(service).outcomes[-1]
    assert "no workers" not in outcome.text
    expected = [ANA, BEN, CLEO]
    random.Random(42).shuffle(expected)
    assert [p.id for p in outcome.game.players] == [s.user_id for s in expected]
    assert "drawn at random" in outcome.text
    assert f"1. {expected[0].name} — blue, starts" in outcome.text
    assert outcome.picture.startswith(b"PNG")
    row = await service.get(game_id)
    assert row.message_id == 1001  # the announcer's message now holds the prompt
    with pytest.raises(Refusal, match="already started"):
        await service.join(game_id, Seat("444", "Dan"))


async def test_refusals_are_specific(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    row = await service.get(game_id)
    game = service.game_of(row)
    awaited = game.awaiting
    assert awaited is not None
    other = BEN.user_id if awaited == ANA.user_id else ANA.user_id
    names = {ANA.user_id: "Ana", BEN.user_id: "Ben"}
    with pytest.raises(Refusal) as out_of_turn:
        await service.play(game_id, other, "recruit")
    assert "not your move" in out_of_turn.value.message
    assert names[awaited] in out_of_turn.value.message
    with pytest.raises(Refusal, match="not playing"):
        await service.play(game_id, "999", "recruit")
    with pytest.raises(Refusal, match="out of date"):
        await service.play(game_id, awaited, "recruit", expected_version=row.version - 1)
    with pytest.raises(Refusal, match="unknown action"):
        await service.play(game_id, awaited, "dance")
    # bring the game to a main decision and try a build on a field nobody touches
    while game.pending.kind != "main":
        pid = game.awaiting
        assert pid is not None
        await service.play(game_id, pid, game.legal_actions(pid)[0])
        game = service.game_of(await service.get(game_id))
    pid = game.awaiting
    assert pid is not None
    far = (
        next(
            f.label
            for f in game.fields.values()
            if f.buildable
            and f.label not in game.buildable_fields(pid)
            and not f.settlements
            and all(game.player(pid).goods[g] >= n for g, n in f.cost.items())
        )
        if any(
            f.buildable
            and f.label not in game.buildable_fields(pid)
            and all(game.player(pid).goods[g] >= n for g, n in f.cost.items())
            for f in game.fields.values()
        )
        else next(f.label for f in game.fields.values() if f.kind == "mountain")
    )
    with pytest.raises(Refusal) as illegal:
        await service.play(game_id, pid, f"build {far}")
    message = illegal.value.message
    assert far in message
    assert "You may now: recruit" in message
    assert "Allowed now" not in message  # the engine's notation list is put in words
    # nothing changed
    assert (await service.get(game_id)).version == game.version


async def test_simultaneous_presses_apply_once(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    row = await service.get(game_id)
    game = service.game_of(row)
    pid = game.awaiting
    assert pid is not None
    action = game.legal_actions(pid)[0]
    results = await asyncio.gather(
        *(service.play(game_id, pid, action, expected_version=row.version) for _ in range(4)),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, Outcome)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 3
    assert all(r.marked is STALE_WORDS for r in refused)
    assert await service.store.move_count(game_id) == applied[0].version


async def test_a_whole_game_through_the_service(service: GameService) -> None:
    game_id = await started(service, ANA, BEN, seed=3)
    rng = random.Random(3)
    row = await service.get(game_id)
    game = service.game_of(row)
    while not game.is_over:
        pid, action = choose_action(game, rng)
        outcome = await service.play(game_id, pid, action, expected_version=game.version)
        assert outcome.text, f"no words for {action}"
        assert "  " not in outcome.text
        game = outcome.game
    row = await service.get(game_id)
    assert row.status == FINISHED
    assert "The game is over" in recorder(service).outcomes[-1].text
    # the move log replays to the saved state
    moves = await service.store.moves(game_id)
    replayed = Game.replay({**game.record(), "actions": [[m.player, m.notation] for m in moves]})
    assert replayed == Game.from_dict(row.state or {})
    with pytest.raises(Refusal, match="over"):
        await service.play(game_id, ANA.user_id, Action("end"))
    # issue 11.2: once the game is over, no move can be taken back
    last_mover = moves[-1].player
    with pytest.raises(Refusal, match="This game is over: its moves can no longer be taken back"):
        await service.undo(game_id, last_mover)
    lines, pages = await service.log_page(game_id, 1)
    assert len(lines) == 20 and pages > 1
    assert lines[-1].startswith(f"{len(moves)}. ")


async def test_abandon_needs_creator_or_manager(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    with pytest.raises(Refusal, match="Only the player who opened"):
        await service.abandon(game_id, BEN.user_id, may_manage=False)
    row = await service.abandon(game_id, BEN.user_id, may_manage=True)
    assert row.status == "abandoned"
    # the channel is free again
    await service.open_lobby(guild_id=1, channel_id=10, thread_id=None, creator=BEN)


async def test_ids_from_tampered_buttons_are_refused(service: GameService) -> None:
    game_id = await started(service, ANA, BEN)
    for bogus in (0, -1, 10**19, game_id + 1):
        with pytest.raises(Refusal, match="does not exist"):
            await service.play(bogus, ANA.user_id, "recruit")
    with pytest.raises(Refusal, match="out of date"):
        await service.check_turn(game_id, ANA.user_id, 999_999_999)
