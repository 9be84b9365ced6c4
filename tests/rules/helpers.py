"""Arranging positions for the rules tests.

Tests build a game with `new_game`, then set up the position they need through these
helpers, which keep the pieces conserved (what a player gains comes from the supply,
what the supply loses goes to the box) and drop the engine's cached legal actions
after every direct change of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from rules import Event, Game, Pending, board, data
from rules.board import Field, Hex

IDS = ("ann", "bob", "cid", "dot")


def refresh(game: Game) -> Game:
    """Forget what the engine derived (legal actions, build frontier) before a direct
    change of the state."""
    game._legal_cache = None
    game._frontier_cache = None
    return game


def new_game(players: int = 4, seed: int = 1, start_field: str | None = None) -> Game:
    """A game past its setup spins (wild colours chosen as the first legal choice)."""
    game = Game.new(IDS[:players], seed=seed, start_field=start_field)
    while game.in_setup:
        pid = game.awaiting
        assert pid is not None
        game.apply(pid, game.legal_actions(pid)[0])
    return refresh(game)


def player_id(game: Game, seat: int) -> str:
    return game.players[seat].id


def start_turn(game: Game, seat: int) -> str:
    """Make it `seat`'s turn, awaiting their main action; returns their id."""
    game.turn = seat
    game.builds_done = 0
    game.auction = None
    game.representatives = [None] * len(game.players)
    game.pending = Pending("main", seat)
    refresh(game)
    return game.players[seat].id


def set_goods(game: Game, pid: str, **counts: int) -> None:
    """Give `pid` exactly these goods (others unchanged), trading with the supply."""
    player = game.player(pid)
    for good, count in counts.items():
        diff = count - player.goods[good]
        if game.supply.goods[good] < diff:
            move_to_supply_from_box(game, good, diff - game.supply.goods[good])
        game.supply.goods[good] -= diff
        player.goods[good] = count
    refresh(game)


def clear_goods(game: Game, pid: str) -> None:
    set_goods(game, pid, **{good: 0 for good in data.GOODS})


def move_to_supply_from_box(game: Game, good: str, count: int) -> None:
    game.box[good] -= count
    game.supply.goods[good] += count


def set_supply_goods(game: Game, good: str, count: int) -> None:
    """Leave exactly `count` of `good` in the supply, the rest going to (or from) the box."""
    move_to_supply_from_box(game, good, count - game.supply.goods[good])
    refresh(game)


def set_workers(game: Game, pid: str, **counts: int) -> None:
    """Give `pid` exactly these workers (other colours unchanged), trading with the supply."""
    player = game.player(pid)
    for colour, count in counts.items():
        diff = count - player.workers[colour]
        game.supply.workers[colour] -= diff
        player.workers[colour] = count
    refresh(game)


def clear_workers(game: Game, pid: str) -> None:
    set_workers(game, pid, **{colour: 0 for colour in data.COLOURS})


def set_supply_workers(game: Game, colour: str, count: int, parking: str) -> None:
    """Leave exactly `count` workers of `colour` in the supply; the rest stand on the
    worker board (small boxes of `parking`'s places, which nothing in these tests reads),
    so all 72 workers stay accounted for."""
    extra = game.supply.workers[colour] - count
    assert extra >= 0
    places = game.harvest[parking]
    for i in range(extra):
        places[i % len(places)].small.append(colour)
    game.supply.workers[colour] = count
    refresh(game)


def set_cows(game: Game, pid: str, count: int) -> None:
    player = game.player(pid)
    game.supply.cows -= count - player.cows
    player.cows = count
    refresh(game)


def spin(game: Game, segment: int) -> list[Event]:
    """The wheel stops on `segment` (a chance step forced as `Game.replay` does)."""
    pid = game.awaiting
    assert pid is not None and game.pending.kind == "spin"
    game._auto_chance = False
    try:
        return game.replay_action(pid, f"spin {segment}")
    finally:
        game._auto_chance = True


def recruit(game: Game, segment: int) -> list[Event]:
    """The awaited player chooses Recruit and the wheel stops on `segment`."""
    pid = game.awaiting
    assert pid is not None
    game._auto_chance = False
    try:
        events = game.apply(pid, "recruit")
    finally:
        game._auto_chance = True
    return events + spin(game, segment)


def play(game: Game, *moves: str) -> list[Event]:
    """Apply moves, each by the player awaited at that moment; all events together."""
    events: list[Event] = []
    for move in moves:
        pid = game.awaiting
        assert pid is not None, f"nobody is awaited for {move!r}"
        events += game.apply(pid, move)
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def legal(game: Game, pid: str | None = None) -> set[str]:
    """The notation of every legal action of `pid` (default: the awaited player)."""
    who = pid if pid is not None else game.awaiting
    assert who is not None
    return {str(a) for a in game.legal_actions(who)}


def verbs(game: Game, pid: str | None = None) -> set[str]:
    return {text.split()[0] for text in legal(game, pid)}


# --- the landscape --------------------------------------------------------------------


def at(game: Game, h: Hex) -> Field | None:
    label = game._label_at.get(h)
    return None if label is None else game.fields[label]


def step(h: Hex, direction: tuple[int, int], times: int = 1) -> Hex:
    return (h[0] + direction[0] * times, h[1] + direction[1] * times)


def neighbour_fields(game: Game, f: Field) -> list[Field]:
    return [n for h in board.neighbours(f.hex) if (n := at(game, h)) is not None]


def is_free_plain(f: Field | None, *, double: bool | None = False) -> bool:
    """A buildable, empty field; `double` False/True requires that symbol, None ignores it."""
    return (
        f is not None
        and f.buildable
        and not f.settlements
        and (double is None or f.double == double)
    )


def next_to_start(game: Game) -> str:
    """A free plain field touching the start tile (reachable for a first build)."""
    start = game.fields[game.start_field]
    return next(f.label for f in neighbour_fields(game, start) if is_free_plain(f, double=None))


def line_through(
    game: Game,
    axis: tuple[int, int],
    length: int,
    accept: Callable[[int, Field], bool] | None = None,
) -> list[Field] | None:
    """`length` consecutive fields along `axis`, every one a free plain non-double field
    unless `accept(index, field)` says otherwise; None if the landscape has none."""
    check = accept or (lambda _i, f: is_free_plain(f))
    for f in game.fields.values():
        cells = [at(game, step(f.hex, axis, i)) for i in range(length)]
        if all(c is not None and check(i, c) for i, c in enumerate(cells)):
            return [c for c in cells if c is not None]
    return None


def find_game(
    predicate: Callable[[Game], object], players: int = 4, seeds: Sequence[int] = range(1, 200)
) -> tuple[Game, object]:
    """The first game (by seed) whose landscape makes `predicate` return something truthy."""
    for seed in seeds:
        game = new_game(players, seed)
        found = predicate(game)
        if found:
            return game, found
    raise AssertionError("no seed gives the landscape this test needs")


def settle(game: Game, pid: str, label: str, count: int = 1) -> None:
    """Put `count` of `pid`'s settlements from their stock on field `label`."""
    player = game.player(pid)
    for _ in range(count):
        player.settlements_left -= 1
        game.fields[label].settlements.append(pid)
    refresh(game)


def afford(game: Game, pid: str, label: str) -> None:
    """Give `pid` exactly the goods field `label` costs (and nothing else)."""
    clear_goods(game, pid)
    set_goods(game, pid, **game.fields[label].cost)


def set_cost(game: Game, label: str, **cost: int) -> None:
    game.fields[label].cost = dict(cost)
    refresh(game)


def set_field_cow(game: Game, label: str, cow: bool) -> None:
    """Put a cow from the supply on field `label` (or send its cow back to the supply)."""
    f = game.fields[label]
    if f.cow != cow:
        game.supply.cows += -1 if cow else 1
        f.cow = cow
    refresh(game)


def settlements_of(game: Game, pid: str) -> int:
    return sum(f.settlements.count(pid) for f in game.fields.values())


# --- conservation ----------------------------------------------------------------------


def goods_total(game: Game, good: str) -> int:
    return game.supply.goods[good] + game.box[good] + sum(p.goods[good] for p in game.players)


def workers_total(game: Game, colour: str) -> int:
    on_board = sum(space.count(colour) for space in game.bank)
    for places in game.harvest.values():
        on_board += sum(p.large.count(colour) + p.small.count(colour) for p in places)
    return game.supply.workers[colour] + on_board + sum(p.workers[colour] for p in game.players)


def assert_conserved(game: Game) -> None:
    """Nothing created or lost (RULES.md 1): goods, workers, cows, settlements."""
    for good in data.GOODS:
        assert goods_total(game, good) == data.GOODS_TOTAL[good], good
    for colour in data.COLOURS:
        assert workers_total(game, colour) == data.WORKERS_PER_COLOUR, colour
    cows = game.supply.cows + sum(p.cows for p in game.players)
    cows += sum(1 for f in game.fields.values() if f.cow)
    assert cows == data.COWS_TOTAL
    issued = data.SETTLEMENTS[len(game.players)]
    for p in game.players:
        assert p.settlements_left + settlements_of(game, p.id) == issued, p.id
    for p in game.players:
        assert min(p.goods.values()) >= 0 and min(p.workers.values()) >= 0, p.id
        assert p.coins >= 0 and p.cows >= 0, p.id


def quiet_turn(game: Game, segment: int = 2) -> list[Event]:
    """The awaited player (at their main decision) recruits on `segment`, declines to
    advance, returns any excess, and ends the turn without using a canteen."""
    assert game.pending.kind == "main"
    seat = game.pending.seat
    events = recruit(game, segment)
    while game.pending.seat == seat and game.pending.kind in ("advance", "take", "return", "end"):
        pid = game.awaiting
        assert pid is not None
        choice = {"advance": "advance 0", "take": "take grain grain", "end": "end"}.get(
            game.pending.kind
        )
        events += game.apply(pid, choice or game.legal_actions(pid)[0])
    return events
