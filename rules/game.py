"""The game of Montana (RULES.md sections 2-10) as one state machine.

Exactly one decision is pending at a time (`Pending`); `legal_actions` lists what the
awaited player may do and `apply` checks the action against that list before it
changes anything. A decision with exactly one legal action is applied by the game
itself and logged as that player's move (RULES.md 7.3), and the wheel's spin is a
chance step drawn from the game's own generator and logged as `spin N`, so a record
of setup + log replays to the identical state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import chain, combinations_with_replacement, islice
from typing import Any

from . import board, data
from .actions import (
    Action,
    Goods,
    IllegalAction,
    Named,
    NotYourTurn,
    Reason,
    Workers,
    WorkersHeld,
    counted_reason,
    parse_action,
    sort_colours,
)
from .board import Field, Hex, Placement
from .state import (
    Auction,
    BuildGains,
    Event,
    HarvestPlace,
    Pending,
    Player,
    Result,
    Standing,
    Supply,
)

SCHEMA_VERSION = 2
"""2 added `auto` (forced steps are logged) and `schema1_moves`; 1 is still read."""


@cache
def _multisets(size: int) -> list[tuple[str, ...]]:
    """Every choice of `size` workers by colour, in canonical order."""
    return list(combinations_with_replacement(data.COLOURS, size))


def _count(combo: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in combo:
        counts[item] = counts.get(item, 0) + 1
    return counts


def _affordable(combo: tuple[str, ...], have: dict[str, int]) -> bool:
    return all(have[item] >= n for item, n in _count(combo).items())


# The options of a decision depend on few numbers (the workers a player holds, a
# place's index, ...): they are computed once per distinct case and kept, as ready
# Action objects, so listing the legal actions costs a few look-ups.

Held = tuple[int, ...]
"""A player's workers as counts in `data.COLOURS` order (a cache key)."""


def _held(workers: dict[str, int]) -> Held:
    return tuple(map(workers.__getitem__, data.COLOURS))


@cache
def _worker_options(size: int, held: Held) -> tuple[tuple[str, ...], ...]:
    """Every choice of `size` workers that a player holding `held` can give."""
    have = dict(zip(data.COLOURS, held, strict=True))
    return tuple(combo for combo in _multisets(size) if _affordable(combo, have))


@cache
def _box_options(area: str, held: Held) -> tuple[tuple[str, ...], ...]:
    """Workers one box of `area` may take from `held` (RULES.md 6.2): 1 of the
    area's colour or 2 of any colours."""
    colour = data.AREA_COLOUR[area]
    single = (colour,) * data.LARGE_BOX_SINGLE
    has_single = held[data.COLOURS.index(colour)] >= data.LARGE_BOX_SINGLE
    return ((single,) if has_single else ()) + _worker_options(data.BOX_ANY_COLOUR, held)


@cache
def _bank_space_actions(index: int, held: Held) -> tuple[Action, ...]:
    needed = data.BANK[index][0]
    return tuple(Action("bank", (str(index + 1), *c)) for c in _worker_options(needed, held))


@cache
def _harvest_place_actions(area: str, index: int, held: Held) -> tuple[Action, ...]:
    return tuple(Action("harvest", (area, str(index + 1), *c)) for c in _box_options(area, held))


@cache
def _extra_actions(area: str, held: Held) -> tuple[Action, ...]:
    return tuple(Action("extra", c) for c in _box_options(area, held))


@cache
def _return_actions(excess: int, held: Held) -> tuple[Action, ...]:
    return tuple(Action("return", c) for c in _worker_options(excess, held))


@cache
def _upgrade_actions(upgrades: int, smalls: tuple[int, ...]) -> tuple[Action, ...]:
    """Up to `upgrades` upgrades by a player holding `smalls` (counts in
    `data.UPGRADES` order) small pieces (RULES.md 6.3.5)."""
    have = dict(zip(data.UPGRADES, smalls, strict=True))
    return tuple(
        Action("upgrade", combo)
        for count in range(upgrades + 1)
        for combo in combinations_with_replacement(tuple(data.UPGRADES), count)
        if _affordable(combo, have)
    )


@cache
def _build_action(label: str) -> Action:
    return Action("build", (label,))


@cache
def _space_actions(verb: str, rightmost: tuple[int, ...], pumpkins: int) -> tuple[Action, ...]:
    """`city` or `place` on every city space one may take with `pumpkins` pumpkins
    (RULES.md 6.3.1-6.3.3): `rightmost[row - 1]` is the column of the rightmost other
    representative in that row (0: nobody), and a space must lie to its right."""
    return tuple(
        Action(verb, (str(row), str(col)))
        for row in range(1, data.CITY_ROWS + 1)
        for col, cost in enumerate(data.CITY_COSTS, start=1)
        if cost <= pumpkins and col > rightmost[row - 1]
    )


_TAKE_ACTIONS = tuple(Action("take", combo) for combo in _multisets(2))
_ADVANCE_ACTIONS = tuple(Action("advance", (str(k),)) for k in range(data.MAX_ADVANCE + 1))
_CITY_GOODS_ACTIONS = tuple(
    Action("goods", tuple(sorted(c, key=data.GOODS.index)))
    for c in combinations_with_replacement(data.CITY_GOODS, 3)
)
_TRADE_ACTIONS = (
    *(Action("trade", (good,)) for good in data.TRADE_GOODS),
    Action("trade", ("coins",)),
    *(Action("trade", ("worker", colour)) for colour in data.COLOURS),
)
_RECRUIT, _NOEXTRA, _PASS, _STOP, _CANTEEN, _END = (
    Action(verb) for verb in ("recruit", "noextra", "pass", "stop", "canteen", "end")
)


def _pool(holder: Player | Supply, pool: str) -> dict[str, int]:
    """The goods or the workers ("goods" / "workers") of a player or the supply."""
    return holder.goods if pool == "goods" else holder.workers


def _goods(counts: dict[str, int]) -> Goods:
    return Goods(tuple(counts.items()))


_NOT_A_MAIN_ACTION = Reason(
    "'{action}' is not a main action; choose recruit, work (bank, harvest or city) or build"
)
_EXPECTED = {
    "take": Reason("choose the colours of the two wild workers ('take COLOUR COLOUR')"),
    "advance": Reason("decide whether to pay grain to advance the wheel ('advance K')"),
    "extra": Reason("decide about the small box ('extra COLOUR [COLOUR]' or 'noextra')"),
    "bid": Reason("place your representative in the city ('place ROW COLUMN') or 'pass'"),
    "reward": Reason("choose your city reward"),
    "build": Reason("build again ('build LABEL') or 'stop'"),
    "end": Reason("choose 'canteen' for another turn or 'end'"),
}
"""What the pending decision expects, as a clause of a refusal (a decision kind that
needs a count, "return", is worded where it is used)."""


def _not_playing(player_id: str) -> Reason:
    return Reason("'{player}' is not playing in this game", player=Named("player", player_id))


def _held_text(player: Player) -> WorkersHeld:
    return WorkersHeld(tuple((c, n) for c, n in player.workers.items() if n))


class Game:
    """A game of Montana. Build it with `Game.new`, `Game.from_dict` or `Game.replay`."""

    def __init__(self) -> None:
        # every attribute is set by _setup or from_dict
        self.seed = 0
        self.start_field = ""
        self.players: list[Player] = []
        self.supply = Supply()
        self.box: dict[str, int] = {}
        self.tiles: list[Placement] = []
        self.fields: dict[str, Field] = {}
        self.bank: list[list[str]] = []
        self.harvest: dict[str, list[HarvestPlace]] = {}
        self.representatives: list[tuple[int, int] | None] = []
        self.auction: Auction | None = None
        self.wheel: int | None = None
        self.turn = 0
        self.turn_number = 0
        self.builds_done = 0
        self.pending = Pending("over", None)
        self.setup_queue: list[int] = []
        self.final_round = False
        self.log: list[tuple[str, str]] = []
        self.auto: list[int] = []
        """Indices in `log` of the forced steps the game applied itself (RULES.md 7.3)."""
        self.schema1_moves = 0
        """How many leading `log` entries were logged under schema 1, which carried out
        some forced steps without logging them (their replay is lenient)."""
        self.rng = random.Random()
        self._auto_chance = True
        self._replayed = 0
        """Log entries accounted for by `replay_action` (the log's length outside replay)."""
        self._schema1_entries_left = 0
        """Record entries still to replay that were logged under schema 1."""
        # derived data, never saved: the landscape's topology (fixed once dealt, so
        # copies share it), the build frontier (until a settlement is placed) and the
        # legal actions of the pending decision (until the next action)
        self._label_at: dict[Hex, str] = {}
        self._neighbours: dict[str, tuple[str, ...]] = {}
        self._frontier_cache: tuple[str, ...] | None = None
        self._legal_cache: tuple[int, int, list[Action], frozenset[int]] | None = None

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(cls, player_ids: Sequence[str], *, seed: int, start_field: str | None = None) -> Game:
        """A new game: landscape dealt from `seed`, setup spins made (RULES.md 2)."""
        game = cls._setup(player_ids, seed, start_field)
        game._settle([])
        game._replayed = len(game.log)
        return game

    @classmethod
    def _setup(
        cls,
        player_ids: Sequence[str],
        seed: int,
        start_field: str | None,
        tiles: Sequence[tuple[int, int]] | None = None,
    ) -> Game:
        ids = list(player_ids)
        if not 2 <= len(ids) <= 4:
            raise ValueError(f"Montana is for 2 to 4 players, not {len(ids)}")
        if len(set(ids)) != len(ids):
            raise ValueError("player ids must be distinct")
        if any(not isinstance(i, str) or not i or " " in i for i in ids):
            raise ValueError("player ids must be non-empty strings without spaces")
        n = len(ids)
        game = cls()
        game.seed = seed
        game.rng = random.Random(seed)
        dealt = board.deal_tiles(n, game.rng)
        # a landscape given (a record's) is laid as it was; the generator has stepped
        # past a deal all the same, so it stands where the seed alone would put it
        game.tiles = dealt if tiles is None else board.lay_tiles(n, tiles)
        game.fields = board.build_fields(game.tiles)
        if start_field is None:
            start_field = board.default_start_field(game.fields)
        start_field = start_field.upper()
        if start_field not in game.fields or game.fields[start_field].kind != "plain":
            raise ValueError(f"the start tile must go on a buildable field, not '{start_field}'")
        game.start_field = start_field
        start = game.fields[start_field]
        start.start = True
        start.cow = False  # the start tile covers the cow symbol: that cow stays in the supply
        game._index_board()

        cows_on_board = sum(1 for f in game.fields.values() if f.cow)
        game.supply = Supply(
            goods=dict(data.SUPPLY_GOODS[n]),
            workers={c: data.WORKERS_PER_COLOUR for c in data.COLOURS},
            cows=data.COWS_TOTAL - cows_on_board - n * data.START_COWS,
        )
        game.box = {g: data.GOODS_TOTAL[g] - data.SUPPLY_GOODS[n][g] for g in data.GOODS}
        game.players = []
        for seat, pid in enumerate(ids):
            player = Player(
                id=pid,
                coins=data.START_COINS[seat],
                cows=data.START_COWS,
                canteens=0,
                settlements_left=data.SETTLEMENTS[n],
            )
            for good, count in data.START_GOODS.items():
                player.goods[good] += count
                game.box[good] -= count
            game.players.append(player)
        game.bank = [[] for _ in data.BANK]
        game.harvest = {
            area: [HarvestPlace() for _ in data.HARVEST_PLACES[area]] for area in data.AREAS
        }
        game.representatives = [None] * n
        game.setup_queue = [seat for seat in range(n) for _ in range(data.SETUP_SPINS)]
        game.pending = Pending("spin", game.setup_queue[0], context="setup")
        game.turn = game.setup_queue[0]
        return game

    def _index_board(self) -> None:
        self._label_at = {f.hex: f.label for f in self.fields.values()}
        self._neighbours = {
            f.label: tuple(
                self._label_at[h] for h in board.neighbours(f.hex) if h in self._label_at
            )
            for f in self.fields.values()
        }
        self._frontier_cache = None

    # ------------------------------------------------------------------ queries

    @property
    def player_ids(self) -> list[str]:
        return [p.id for p in self.players]

    @property
    def version(self) -> int:
        """Bumped by every accepted action (the log's length)."""
        return len(self.log)

    @property
    def is_over(self) -> bool:
        return self.pending.kind == "over"

    @property
    def awaiting(self) -> str | None:
        seat = self.pending.seat
        return None if seat is None else self.players[seat].id

    @property
    def turn_player(self) -> str:
        return self.players[self.turn].id

    @property
    def in_setup(self) -> bool:
        return bool(self.setup_queue)

    @property
    def last_seat(self) -> int:
        """The seat just before the start player, whose turn ends the final round."""
        return len(self.players) - 1

    def seat_of(self, player_id: str) -> int:
        for seat, player in enumerate(self.players):
            if player.id == player_id:
                return seat
        raise IllegalAction(_not_playing(player_id))

    def player(self, player_id: str) -> Player:
        return self.players[self.seat_of(player_id)]

    def workers_over_limit(self, player_id: str) -> int:
        """How many workers `player_id` holds beyond the 8 a board takes (RULES.md 3)."""
        return max(0, self.player(player_id).worker_count - data.MAX_WORKERS)

    def city_grid(self) -> dict[tuple[int, int], str]:
        """(row, column) -> id of the representative standing there."""
        return {
            pos: self.players[seat].id
            for seat, pos in enumerate(self.representatives)
            if pos is not None
        }

    def legal_actions(self, player_id: str) -> list[Action]:
        """What `player_id` may do now (empty when they are not awaited)."""
        if self.pending.seat is None or self.awaiting != player_id:
            return []
        return list(self._legal())

    def _legal(self) -> list[Action]:
        """The legal actions of the awaited player, kept until the next action."""
        return self._legal_with_ids()[0]

    def _legal_with_ids(self) -> tuple[list[Action], frozenset[int]]:
        seat = self.pending.seat
        assert seat is not None
        key = (len(self.log), seat)
        if self._legal_cache is None or self._legal_cache[:2] != key:
            actions = list(chain.from_iterable(self._option_groups(seat)))
            self._legal_cache = (*key, actions, frozenset(map(id, actions)))
        return self._legal_cache[2], self._legal_cache[3]

    def _is_listed(self, action: Action) -> bool:
        """Whether `action` is one of the very objects `legal_actions` gave (the legal
        list keeps them alive, so their ids are theirs): a check cheaper than hashing."""
        return self.pending.seat is not None and id(action) in self._legal_with_ids()[1]

    def _is_legal(self, action: Action) -> bool:
        return self._is_listed(action) or action in self._legal()

    def _option_groups(self, seat: int) -> Iterator[Sequence[Action]]:
        """The legal actions of `seat`, in their order, a group at a time (a group
        being what one cached look-up gives), so that the first few come cheap."""
        kind = self.pending.kind
        player = self.players[seat]
        if kind == "spin":
            return  # chance: never a player's choice
        if kind == "take":
            yield _TAKE_ACTIONS
        elif kind == "advance":
            yield _ADVANCE_ACTIONS[: min(data.MAX_ADVANCE, player.goods["grain"]) + 1]
        elif kind == "return":
            excess = self.workers_over_limit(player.id)
            yield _return_actions(excess, _held(player.workers))
        elif kind == "main":
            yield (_RECRUIT,)
            held = _held(player.workers)
            for index, space in enumerate(self.bank):
                if not space:
                    yield _bank_space_actions(index, held)
            for area in data.AREAS:
                places = self.harvest[area]
                for index, (coins, _goods) in enumerate(data.HARVEST_PLACES[area]):
                    if not places[index].large and player.coins >= coins:
                        yield _harvest_place_actions(area, index, held)
            yield self._open_spaces("city", seat, self._pumpkins_after_free_pumpkin(seat))
            yield tuple(self._build_actions(player))
        elif kind == "extra":
            yield _extra_actions(self.pending.area, _held(player.workers))
            yield (_NOEXTRA,)
        elif kind == "bid":
            yield self._open_spaces("place", seat, player.goods["pumpkin"])
            yield (_PASS,)
        elif kind == "reward":
            yield self._reward_actions(player, self.pending.row)
        elif kind == "build":
            yield tuple(self._build_actions(player))
            yield (_STOP,)
        elif kind == "end":
            yield (_CANTEEN, _END)
        if self._may_trade(seat):
            yield self._trade_actions(seat)

    def _may_trade(self, seat: int) -> bool:
        # RULES.md 7.2: only in your own turn, also while answering your own auction
        return (
            not self.in_setup
            and seat == self.turn
            and self.players[seat].cows > 0
            and self.pending.kind not in ("spin", "over")
        )

    def _trade_actions(self, seat: int) -> tuple[Action, ...]:
        """The cow trades that yield something (RULES.md 7.2): coins always; a good or
        a worker colour only if taking one leaves the trader with one more."""
        goods, workers = self.supply.goods, self.supply.workers
        if min(map(goods.__getitem__, data.TRADE_GOODS)) > 0 and min(workers.values()) > 0:
            return _TRADE_ACTIONS  # the supply has one of each
        return tuple(
            action
            for action in _TRADE_ACTIONS
            if action.args[0] == "coins"
            or self._take_gains(
                seat, "workers" if action.args[0] == "worker" else "goods", action.args[-1]
            )
        )

    def _take_gains(self, seat: int, pool: str, name: str) -> bool:
        """Whether taking one `name` leaves `seat` with one more. Under the shortage
        rule (RULES.md 4) an empty supply still gives one when the taker holds none and
        another player holds some (they return it); a taker holding one would return
        it and take it back, gaining nothing."""
        if _pool(self.supply, pool)[name] > 0:
            return True
        if _pool(self.players[seat], pool)[name] > 0:
            return False
        return any(_pool(p, pool)[name] > 0 for p in self.players)

    def _pumpkins_after_free_pumpkin(self, seat: int) -> int:
        """The active player's pumpkins once the city's free pumpkin is taken (6.3.1)."""
        player = self.players[seat]
        if self.supply.goods["pumpkin"] >= 1:
            return player.goods["pumpkin"] + 1
        if player.goods["pumpkin"] >= 1:
            return player.goods["pumpkin"]  # returns one to the shortage, takes one back
        others = any(p.goods["pumpkin"] for p in self.players)
        return 1 if others else 0

    def _open_spaces(self, verb: str, seat: int, pumpkins: int) -> tuple[Action, ...]:
        """`verb` ("city" or "place") on each city space `seat` may take now."""
        rightmost = [0] * data.CITY_ROWS
        for other, pos in enumerate(self.representatives):
            if pos is not None and other != seat:
                rightmost[pos[0] - 1] = max(rightmost[pos[0] - 1], pos[1])
        return _space_actions(verb, tuple(rightmost), min(pumpkins, max(data.CITY_COSTS)))

    def _reward_actions(self, player: Player, row: int) -> tuple[Action, ...]:
        reward = data.CITY_REWARDS[row]
        if reward["goods"]:
            return _CITY_GOODS_ACTIONS
        smalls = tuple(map(player.goods.__getitem__, data.UPGRADES))
        return _upgrade_actions(reward["upgrades"], smalls)

    def buildable_fields(self, player_id: str) -> list[str]:
        """Labels of the fields `player_id` could build on now, ignoring whose turn it is."""
        return [a.args[0] for a in self._build_actions(self.player(player_id))]

    def _build_actions(self, player: Player) -> Iterator[Action]:
        if player.settlements_left <= 0 or (
            self.pending.kind == "build" and self.builds_done >= data.BUILDS_PER_ACTION
        ):
            return
        goods = player.goods
        for label in self._frontier():
            for good, n in self.fields[label].cost.items():
                if goods[good] < n:
                    break
            else:
                yield _build_action(label)

    def _frontier(self) -> tuple[str, ...]:
        """Labels of the empty buildable fields touching the start tile or a
        settlement (7.1.1), in label order; kept until a settlement is placed."""
        if self._frontier_cache is None:
            found: set[str] = set()
            for f in self.fields.values():
                if f.start or f.settlements:
                    for label in self._neighbours[f.label]:
                        n = self.fields[label]
                        if n.buildable and not n.settlements:
                            found.add(label)
            self._frontier_cache = tuple(sorted(found))
        return self._frontier_cache

    # ------------------------------------------------------------------ applying

    def apply(self, player_id: str, action: Action | str) -> list[Event]:
        """Check and carry out `action` for `player_id`; the game's chance steps follow."""
        # text or a hand-built Action go through the notation's canonical order; an
        # Action taken from `legal_actions` is canonical already
        if not isinstance(action, Action) or not self._is_listed(action):
            action = parse_action(action if isinstance(action, str) else str(action))
        if action.verb == "spin":
            raise IllegalAction(
                Reason("the wheel is spun by the game, not by a player: choose 'recruit'")
            )
        events = self._apply_checked(player_id, action)
        self._settle(events)
        self._replayed = len(self.log)
        return events

    def _apply_checked(self, player_id: str, action: Action) -> list[Event]:
        if self.is_over:
            raise IllegalAction(Reason("the game is over: no more moves"))
        if player_id not in self.player_ids:
            raise NotYourTurn(_not_playing(player_id))
        seat = self.pending.seat
        assert seat is not None
        if self.players[seat].id != player_id:
            raise NotYourTurn(
                Reason(
                    "it is not your move: the game is waiting for {player}",
                    player=Named("player", self.players[seat].id),
                )
            )
        if action.verb != "spin":
            if not self._is_legal(action):
                legal = self._legal()
                verbs = tuple(sorted({a.verb for a in legal}, key=[a.verb for a in legal].index))
                raise IllegalAction(self._reason(seat, action), allowed=verbs)
        elif self.pending.kind != "spin":
            raise IllegalAction(Reason("the wheel is not being spun now"))
        events: list[Event] = []
        self.log.append((player_id, str(action)))
        self._legal_cache = None
        self._execute(seat, action, events)
        return events

    def _settle(self, events: list[Event]) -> None:
        """Carry out what needs nobody's choice: the wheel's spins (unless a replay
        takes them from its record) and forced steps, i.e. decisions with exactly one
        legal action (RULES.md 7.3), each logged as the awaited player's move, its
        index kept in `auto` and its events preceded by a `forced` event."""
        while not self.is_over:
            seat = self.pending.seat
            assert seat is not None
            player_id = self.players[seat].id
            if self.pending.kind == "spin":
                if not self._auto_chance:
                    return
                segment = self.rng.randint(1, len(data.WHEEL))
                events.extend(self._apply_checked(player_id, Action("spin", (str(segment),))))
                continue
            # two options are enough to know it is a choice; the full list is made
            # (and kept) only when someone asks for it
            options = list(islice(chain.from_iterable(self._option_groups(seat)), 2))
            if len(options) != 1:
                return
            forced = options[0]
            self.auto.append(len(self.log))
            events.append(
                Event("forced", player_id, {"action": str(forced), "decision": self.pending.kind})
            )
            events.extend(self._apply_checked(player_id, forced))

    def _execute(self, seat: int, action: Action, events: list[Event]) -> None:
        verb, args = action.verb, action.args
        player = self.players[seat]
        if verb == "trade":
            self._trade(seat, args, events)
        elif verb == "spin":
            if not self._auto_chance:
                self.rng.randint(1, len(data.WHEEL))  # keep the generator where the original was
            self._spin(seat, int(args[0]), events)
        elif verb == "take":
            self._take_segment(seat, args, events)
            self._after_segment(seat, self.pending.context, events)
        elif verb == "recruit":
            events.append(Event("recruit", player.id))
            self.pending = Pending("spin", seat, context="recruit")
        elif verb == "advance":
            self._advance(seat, int(args[0]), events)
        elif verb == "return":
            for colour in args:
                player.workers[colour] -= 1
                self.supply.workers[colour] += 1
            events.append(Event("return", player.id, {"workers": list(args)}))
            resume = self.pending.resume
            if resume is None:
                self._main_done(seat, events)
            else:
                self.pending = resume
        elif verb == "bank":
            index = int(args[0]) - 1
            self._put_workers(player, self.bank[index], args[1:])
            coins = data.BANK[index][1]
            player.coins += coins
            events.append(
                Event(
                    "bank",
                    player.id,
                    {"space": index + 1, "workers": list(args[1:]), "coins": coins},
                )
            )
            self._main_done(seat, events)
        elif verb == "harvest":
            self._harvest(seat, args[0], int(args[1]), args[2:], events)
        elif verb == "extra":
            area, place = self.pending.area, self.pending.place
            self._put_workers(player, self.harvest[area][place - 1].small, args)
            good = data.AREA_GOOD[area]
            got = self._take(seat, "goods", good, data.SMALL_BOX_YIELD, events)
            events.append(
                Event(
                    "extra",
                    player.id,
                    {"area": area, "place": place, "workers": list(args), "goods": {good: got}},
                )
            )
            self._main_done(seat, events)
        elif verb == "noextra":
            self._main_done(seat, events)
        elif verb == "city":
            got = self._take(seat, "goods", "pumpkin", 1, events)
            row, col = int(args[0]), int(args[1])
            self.representatives[seat] = (row, col)
            events.append(
                Event("city", player.id, {"row": row, "column": col, "free_pumpkin": got})
            )
            n = len(self.players)
            self.auction = Auction(active=seat, queue=[(seat + k) % n for k in range(1, n)])
            self._auction_next(events)
        elif verb == "place":
            self._bid_place(seat, int(args[0]), int(args[1]), events)
        elif verb == "pass":
            self._bid_pass(seat, events)
        elif verb in ("upgrade", "goods"):
            self._reward(seat, self.pending.row, verb, args, events)
        elif verb == "build":
            self._build(seat, args[0], events)
        elif verb == "stop":
            self._stop_building(seat, events)
        elif verb == "canteen":
            player.canteens -= 1
            events.append(Event("canteen", player.id, {"canteens_left": player.canteens}))
            self._start_turn(seat, events)
        elif verb == "end":
            self._end_turn(seat, events)
        else:  # pragma: no cover - legal_actions only lists the verbs above
            raise AssertionError(verb)

    # --- shared mechanics

    def _take(self, seat: int, pool: str, name: str, count: int, events: list[Event]) -> int:
        """Take `count` of a good or worker colour under the shortage rule (RULES.md 4)."""
        supply = _pool(self.supply, pool)
        returned: dict[str, int] = {}
        while supply[name] < count:
            holders = [p for p in self.players if _pool(p, pool)[name] > 0]
            if not holders:
                break
            for holder in holders:
                _pool(holder, pool)[name] -= 1
                supply[name] += 1
                returned[holder.id] = returned.get(holder.id, 0) + 1
        if returned:
            events.append(
                Event(
                    "shortage",
                    self.players[seat].id,
                    {"pool": pool, "name": name, "needed": count, "returned": returned},
                )
            )
        got = min(count, supply[name])
        supply[name] -= got
        _pool(self.players[seat], pool)[name] += got
        return got

    def _put_workers(self, player: Player, box: list[str], colours: tuple[str, ...]) -> None:
        for colour in colours:
            player.workers[colour] -= 1
            box.append(colour)

    def _give_workers(
        self, seat: int, colours: tuple[str, ...], events: list[Event]
    ) -> dict[str, int]:
        got: dict[str, int] = {}
        for colour, count in _count(colours).items():
            got[colour] = self._take(seat, "workers", colour, count, events)
        return got

    # --- setup and recruiting (RULES.md 2.7 and 5)

    def _spin(self, seat: int, segment: int, events: list[Event]) -> None:
        self.wheel = segment
        shown = data.WHEEL[segment - 1]
        events.append(
            Event("spin", self.players[seat].id, {"segment": segment, "shows": list(shown)})
        )
        context = self.pending.context
        if data.WILD in shown:
            self.pending = Pending("take", seat, context=context)
            return
        self._take_segment(seat, sort_colours(shown), events)
        self._after_segment(seat, context, events)

    def _take_segment(self, seat: int, colours: tuple[str, ...], events: list[Event]) -> None:
        got = self._give_workers(seat, colours, events)
        events.append(Event("workers", self.players[seat].id, {"workers": got}))

    def _after_segment(self, seat: int, context: str, events: list[Event]) -> None:
        if context == "setup":
            self.setup_queue.pop(0)
            if self.setup_queue:
                self.turn = self.setup_queue[0]
                self.pending = Pending("spin", self.setup_queue[0], context="setup")
            else:
                self._start_turn(0, events)
        elif context == "recruit":
            self.pending = Pending("advance", seat)
        else:
            self._recruit_done(seat, events)

    def _advance(self, seat: int, steps: int, events: list[Event]) -> None:
        if steps == 0:
            self._recruit_done(seat, events)
            return
        player = self.players[seat]
        player.goods["grain"] -= steps
        self.supply.goods["grain"] += steps
        assert self.wheel is not None
        self.wheel = (self.wheel - 1 + steps) % len(data.WHEEL) + 1
        shown = data.WHEEL[self.wheel - 1]
        events.append(
            Event(
                "advance",
                player.id,
                {"steps": steps, "grain": steps, "segment": self.wheel, "shows": list(shown)},
            )
        )
        if data.WILD in shown:
            self.pending = Pending("take", seat, context="advance")
            return
        self._take_segment(seat, sort_colours(shown), events)
        self._recruit_done(seat, events)

    def _recruit_done(self, seat: int, events: list[Event]) -> None:
        if self.players[seat].worker_count > data.MAX_WORKERS:
            self.pending = Pending("return", seat)
        else:
            self._main_done(seat, events)

    # --- work (RULES.md 6)

    def _harvest(
        self, seat: int, area: str, place: int, colours: tuple[str, ...], events: list[Event]
    ) -> None:
        player = self.players[seat]
        coins, amount = data.HARVEST_PLACES[area][place - 1]
        self._put_workers(player, self.harvest[area][place - 1].large, colours)
        player.coins -= coins
        good = data.AREA_GOOD[area]
        got = self._take(seat, "goods", good, amount, events)
        events.append(
            Event(
                "harvest",
                player.id,
                {
                    "area": area,
                    "place": place,
                    "workers": list(colours),
                    "coins": coins,
                    "goods": {good: got},
                },
            )
        )
        self.pending = Pending("extra", seat, area=area, place=place)

    def _bid_place(self, seat: int, row: int, col: int, events: list[Event]) -> None:
        auction = self.auction
        assert auction is not None
        self._leave_bid_queue(seat)
        overtaken = [
            other
            for other, pos in enumerate(self.representatives)
            if pos is not None and pos[0] == row and other != seat
        ]
        self.representatives[seat] = (row, col)
        player = self.players[seat]
        events.append(Event("place", player.id, {"row": row, "column": col}))
        for other in overtaken:
            self.representatives[other] = None
            auction.displaced = other
            events.append(Event("overtaken", self.players[other].id, {"by": player.id, "row": row}))
        self._auction_next(events)

    def _bid_pass(self, seat: int, events: list[Event]) -> None:
        self._leave_bid_queue(seat)
        self.representatives[seat] = None
        events.append(Event("pass", self.players[seat].id))
        self._auction_next(events)

    def _leave_bid_queue(self, seat: int) -> None:
        auction = self.auction
        assert auction is not None
        if auction.displaced == seat:
            auction.displaced = None
        elif auction.queue and auction.queue[0] == seat:
            auction.queue.pop(0)

    def _auction_next(self, events: list[Event]) -> None:
        auction = self.auction
        assert auction is not None
        if auction.displaced is not None:
            self.pending = Pending("bid", auction.displaced)
            return
        if auction.queue:
            self.pending = Pending("bid", auction.queue[0])
            return
        n = len(self.players)
        order = [(auction.active + k) % n for k in range(n)]
        auction.payers = [seat for seat in order if self.representatives[seat] is not None]
        events.append(
            Event(
                "auction_end",
                self.players[auction.active].id,
                {
                    "city": {
                        self.players[s].id: list(self.representatives[s] or ())
                        for s in auction.payers
                    }
                },
            )
        )
        self._next_payer(events)

    def _next_payer(self, events: list[Event]) -> None:
        auction = self.auction
        assert auction is not None
        while auction.payers:
            seat = auction.payers[0]
            pos = self.representatives[seat]
            assert pos is not None
            row, col = pos
            player = self.players[seat]
            cost = data.CITY_COSTS[col - 1]
            if player.goods["pumpkin"] < cost:
                # Our ruling: only a cow trade of the active player during the auction
                # can take pumpkins away (shortage rule) from someone already placed;
                # who can no longer pay returns to the shop building without a reward.
                auction.payers.pop(0)
                self.representatives[seat] = None
                events.append(
                    Event("cannot_pay", player.id, {"row": row, "column": col, "pumpkins": cost})
                )
                continue
            player.goods["pumpkin"] -= cost
            self.supply.goods["pumpkin"] += cost
            events.append(Event("pay", player.id, {"row": row, "column": col, "pumpkins": cost}))
            self.pending = Pending("reward", seat, row=row)
            return
        active = auction.active
        self.auction = None
        self.representatives = [None] * len(self.players)
        self._main_done(active, events)

    def _reward(
        self, seat: int, row: int, verb: str, args: tuple[str, ...], events: list[Event]
    ) -> None:
        """Pay nothing more, take the row's reward as declared (RULES.md 6.3.4-5)."""
        player = self.players[seat]
        reward = data.CITY_REWARDS[row]
        gained: dict[str, int] = {}
        if reward["cows"]:
            cows = min(reward["cows"], self.supply.cows)  # our ruling: no cow left, none received
            self.supply.cows -= cows
            player.cows += cows
            gained["cows"] = cows
        if reward["coins"]:
            player.coins += reward["coins"]
            gained["coins"] = reward["coins"]
        if verb == "goods":
            for good, count in _count(args).items():
                gained[good] = self._take(seat, "goods", good, count, events)
        else:
            for small in args:
                player.goods[small] -= 1
                self.supply.goods[small] += 1
            for small, count in _count(args).items():
                large = data.UPGRADES[small]
                gained[large] = self._take(seat, "goods", large, count, events)
        events.append(
            Event(
                "reward",
                player.id,
                {"row": row, "upgraded": list(args) if verb == "upgrade" else [], "gained": gained},
            )
        )
        auction = self.auction
        assert auction is not None
        auction.payers.pop(0)
        self._next_payer(events)

    # --- building (RULES.md 7.1)

    def build_gains(self, player_id: str, label: str) -> BuildGains:
        """What building on `label` would give `player_id` (RULES.md 7.1.3 and 7.1.5)."""
        player = self.player(player_id)
        f = self.fields[label]
        stock = player.settlements_left - 1  # after the settlement the build itself places
        bonuses: list[str] = []
        if f.double and stock > 0:
            bonuses.append("double")
            stock -= 1
        for axis in data.LINE_AXES:
            if self._line_length(f, axis, player_id) == data.LINE_BONUS_LENGTH and stock > 0:
                bonuses.append("line")
                stock -= 1
        lakes = [
            n
            for n in self._neighbours[label]
            if self.fields[n].kind == "lake" and self.fields[n].canteen
        ]
        return BuildGains(bonuses=bonuses, cow=f.cow, canteen_lakes=lakes)

    def unused_build_coins(self) -> int:
        """Coins `stop` would give now (RULES.md 7.1.4)."""
        return data.UNUSED_BUILD_COINS[self.builds_done]

    def _build(self, seat: int, label: str, events: list[Event]) -> None:
        player = self.players[seat]
        f = self.fields[label]
        gains = self.build_gains(player.id, label)  # counted before the field changes
        for good, count in f.cost.items():
            player.goods[good] -= count
            self.supply.goods[good] += count
        for _ in range(1 + len(gains.bonuses)):
            self._place_settlement(player, f)
        bonuses = gains.bonuses
        gained: dict[str, int] = {}
        if gains.cow:
            f.cow = False
            player.cows += 1
            gained["cows"] = 1
        for lake_label in gains.canteen_lakes:
            self.fields[lake_label].canteen = False
            player.canteens += 1
            gained["canteens"] = gained.get("canteens", 0) + 1
        self.builds_done += 1
        events.append(
            Event(
                "build",
                player.id,
                {
                    "field": label,
                    "paid": dict(f.cost),
                    "settlements": 1 + len(bonuses),
                    "bonuses": bonuses,
                    "gained": gained,
                    "build_number": self.builds_done,
                },
            )
        )
        if player.settlements_left == 0 and not self.final_round:
            self.final_round = True
            events.append(Event("final_round", player.id))
        if self.builds_done >= data.BUILDS_PER_ACTION or player.settlements_left == 0:
            self._stop_building(seat, events)
            return
        self.pending = Pending("build", seat)

    def _place_settlement(self, player: Player, f: Field) -> None:
        player.settlements_left -= 1
        f.settlements.append(player.id)
        self._frontier_cache = None

    def _line_length(self, f: Field, axis: tuple[int, int], player_id: str) -> int:
        length = 1
        for sign in (1, -1):
            q, r = f.q, f.r
            while True:
                q, r = q + sign * axis[0], r + sign * axis[1]
                other = self._label_at.get((q, r))
                if other is None or player_id not in self.fields[other].settlements:
                    break
                length += 1
        return length

    def _stop_building(self, seat: int, events: list[Event]) -> None:
        coins = self.unused_build_coins()
        self.players[seat].coins += coins
        events.append(
            Event("stop", self.players[seat].id, {"builds": self.builds_done, "coins": coins})
        )
        self._main_done(seat, events)

    # --- cow trade (RULES.md 7.2)

    def _trade(self, seat: int, args: tuple[str, ...], events: list[Event]) -> None:
        player = self.players[seat]
        player.cows -= 1
        self.supply.cows += 1
        gained: dict[str, int] = {}
        if args[0] == "coins":
            player.coins += data.COW_TRADE_COINS
            gained["coins"] = data.COW_TRADE_COINS
        elif args[0] == "worker":
            gained[args[1]] = self._take(seat, "workers", args[1], 1, events)
        else:
            gained[args[0]] = self._take(seat, "goods", args[0], 1, events)
        events.append(Event("trade", player.id, {"gained": gained, "worker": args[0] == "worker"}))
        if player.worker_count > data.MAX_WORKERS and self.pending.kind not in (
            "return",
            "take",
            "advance",
        ):
            self.pending = Pending("return", seat, resume=self.pending)

    # --- end of an action, a turn, the game (RULES.md 3, 8, 10)

    def _main_done(self, seat: int, events: list[Event]) -> None:
        self._clean_up(events)
        player = self.players[seat]
        last_turn = self.final_round and seat == self.last_seat
        if player.canteens > 0 and not last_turn:
            self.pending = Pending("end", seat)
        else:
            self._end_turn(seat, events)

    def _clean_up(self, events: list[Event]) -> None:
        cleared: list[str] = []
        if all(self.bank):
            for space in self.bank:
                for colour in space:
                    self.supply.workers[colour] += 1
                space.clear()
            cleared.append("bank")
        for area, places in self.harvest.items():
            if all(place.large for place in places):
                for place in places:
                    for colour in place.large + place.small:
                        self.supply.workers[colour] += 1
                    place.large.clear()
                    place.small.clear()
                cleared.append(area)
        if cleared:
            events.append(Event("cleanup", None, {"cleared": cleared}))

    def _end_turn(self, seat: int, events: list[Event]) -> None:
        events.append(Event("turn_end", self.players[seat].id))
        if self.final_round and seat == self.last_seat:
            self.pending = Pending("over", None)
            events.append(Event("game_over", None, {"winners": self.result().winners}))
            return
        self._start_turn((seat + 1) % len(self.players), events)

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        self.turn = seat
        self.turn_number += 1
        self.builds_done = 0
        self.pending = Pending("main", seat)
        events.append(Event("turn", self.players[seat].id, {"number": self.turn_number}))

    def result(self) -> Result:
        """The ranking (RULES.md 10); `finished` is False while the game goes on."""
        rows = []
        for p in self.players:
            settlements = sum(f.settlements.count(p.id) for f in self.fields.values())
            rows.append(
                (
                    p.id,
                    settlements,
                    p.cows + p.canteens,
                    sum(p.goods.values()) + p.coins + p.worker_count,
                )
            )
        rows.sort(key=lambda row: (-row[1], -row[2], -row[3]))
        ranking: list[Standing] = []
        for index, (pid, settlements, cows, holdings) in enumerate(rows):
            place = index + 1
            if ranking and (
                ranking[-1].settlements,
                ranking[-1].cows_and_canteens,
                ranking[-1].holdings,
            ) == (settlements, cows, holdings):
                place = ranking[-1].place
            ranking.append(Standing(pid, place, settlements, cows, holdings))
        return Result(finished=self.is_over, ranking=ranking)

    # ------------------------------------------------------------------ explanations

    def _reason(self, seat: int, action: Action) -> Reason:
        """Why `action` is refused now."""
        kind = self.pending.kind
        player = self.players[seat]
        verb, args = action.verb, action.args
        main_verbs = ("recruit", "bank", "harvest", "city", "build")
        decision_of_verb = {
            "take": "take",
            "advance": "advance",
            "return": "return",
            "extra": "extra",
            "noextra": "extra",
            "place": "bid",
            "pass": "bid",
            "upgrade": "reward",
            "goods": "reward",
            "stop": "build",
            "canteen": "end",
            "end": "end",
        }
        own_decision = decision_of_verb.get(verb)
        if own_decision is not None and own_decision != kind:
            if kind == "main":
                return _NOT_A_MAIN_ACTION.given(action=str(action))
            expected = self._expected(player) or Reason("finish your action")
            return Reason(
                "'{action}' is not possible now: {expected}", action=str(action), expected=expected
            )
        if verb == "trade":
            if seat != self.turn or self.in_setup:
                return Reason("cows can be traded only in your own turn")
            if player.cows == 0:
                return Reason("you have no cow to trade")
        if kind == "main" and verb not in main_verbs and verb != "trade":
            return _NOT_A_MAIN_ACTION.given(action=str(action))
        if kind != "main" and verb in main_verbs and not (kind == "build" and verb == "build"):
            return Reason(
                "your action this turn is under way: {expected}",
                expected=self._expected(player) or Reason("finish it first"),
            )
        if verb == "bank":
            index = int(args[0]) - 1
            needed = data.BANK[index][0]
            if self.bank[index]:
                return Reason(
                    "bank space {space} is already occupied until the bank is cleared",
                    space=index + 1,
                )
            if len(args) - 1 != needed:
                return counted_reason(
                    "bank space {space} takes exactly {n} worker, not {given}",
                    "bank space {space} takes exactly {n} workers, not {given}",
                    needed,
                    space=index + 1,
                    given=len(args) - 1,
                )
            return self._missing_workers(player, args[1:])
        if verb == "harvest":
            area, place = args[0], int(args[1])
            coins = data.HARVEST_PLACES[area][place - 1][0]
            if self.harvest[area][place - 1].large:
                return Reason(
                    "place {place} of the {area} is occupied until the {area} is cleared",
                    place=place,
                    area=Named("area", area),
                )
            if player.coins < coins:
                return counted_reason(
                    "place {place} of the {area} costs {n} coin and you have {coins}",
                    "place {place} of the {area} costs {n} coins and you have {coins}",
                    coins,
                    place=place,
                    area=Named("area", area),
                    coins=player.coins,
                )
            return self._box_reason(player, area, args[2:])
        if verb == "extra":
            return self._box_reason(player, self.pending.area, args)
        if verb in ("city", "place"):
            row, col = int(args[0]), int(args[1])
            cost = data.CITY_COSTS[col - 1]
            pumpkins = (
                self._pumpkins_after_free_pumpkin(seat)
                if verb == "city"
                else player.goods["pumpkin"]
            )
            if cost > pumpkins:
                # the English keeps "pumpkins" after 1: "column 1 costs 1 pumpkins"
                return counted_reason(
                    "column {column} costs {n} pumpkins and you would have {pumpkins}",
                    "column {column} costs {n} pumpkins and you would have {pumpkins}",
                    cost,
                    column=col,
                    pumpkins=pumpkins,
                )
            grid = self.city_grid()
            if (row, col) in grid:
                return Reason(
                    "row {row}, column {column} is taken by {player}",
                    row=row,
                    column=col,
                    player=Named("player", grid[(row, col)]),
                )
            return Reason(
                "in row {row} you may only stand to the right of the representative already there",
                row=row,
            )
        if verb == "build":
            return self._build_reason(player, args[0])
        if verb == "advance":
            return counted_reason(
                "advancing {n} segment costs {n} grain and you have {grain}",
                "advancing {n} segments costs {n} grain and you have {grain}",
                int(args[0]),
                grain=player.goods["grain"],
            )
        if verb == "return":
            return counted_reason(
                "return exactly {n} worker that you have (you have {held})",
                "return exactly {n} workers that you have (you have {held})",
                self.workers_over_limit(player.id),
                held=_held_text(player),
            )
        if verb == "upgrade":
            limit = data.CITY_REWARDS[self.pending.row]["upgrades"] if kind == "reward" else 0
            if len(args) > limit:
                return counted_reason(
                    "this city row allows up to {n} upgrade",
                    "this city row allows up to {n} upgrades",
                    limit,
                )
            return Reason("each upgrade returns a small copper or stone you own")
        task = self._expected(player)
        if task is not None:
            return Reason("now {expected}", expected=task)
        return Reason("'{action}' is not possible now", action=str(action))

    def _expected(self, player: Player) -> Reason | None:
        """What the pending decision expects of `player`, as a clause."""
        kind = self.pending.kind
        if kind == "return":
            return counted_reason(
                "return {n} worker to keep {limit}",
                "return {n} workers to keep {limit}",
                self.workers_over_limit(player.id),
                limit=data.MAX_WORKERS,
            )
        return _EXPECTED.get(kind)

    def _box_reason(self, player: Player, area: str, colours: tuple[str, ...]) -> Reason:
        colour = data.AREA_COLOUR[area]
        if len(colours) == 1 and colours[0] != colour:
            return Reason(
                "one worker alone on the {area} must be {colour}; "
                "otherwise put 2 workers of any colour",
                area=Named("area", area),
                colour=Named("colour", colour),
            )
        return self._missing_workers(player, colours)

    def _missing_workers(self, player: Player, colours: tuple[str, ...]) -> Reason:
        return Reason(
            "you do not have the workers {workers} (you have {held})",
            workers=Workers(colours),
            held=_held_text(player),
        )

    def _build_reason(self, player: Player, label: str) -> Reason:
        f = self.fields.get(label)
        if f is None:
            return Reason("there is no field '{label}' on this landscape", label=label)
        if f.kind == "lake":
            return Reason("{label} is a lake: nobody builds there", label=label)
        if f.kind == "mountain":
            return Reason("{label} is a mountain: nobody builds there", label=label)
        if f.start:
            return Reason("{label} carries the start tile", label=label)
        if f.settlements:
            return Reason("{label} is already built on", label=label)
        if player.settlements_left <= 0:
            return Reason("you have no settlements left")
        if self.pending.kind == "build" and self.builds_done >= data.BUILDS_PER_ACTION:
            return counted_reason(
                "you have made your {n} build", "you have made your {n} builds", self.builds_done
            )
        if label not in self._frontier():
            return Reason("{label} does not touch the start tile or any settlement", label=label)
        missing = {g: n - player.goods[g] for g, n in f.cost.items() if player.goods[g] < n}
        return Reason(
            "{label} costs {cost}; you lack {missing}",
            label=label,
            cost=_goods(f.cost),
            missing=_goods(missing),
        )

    # ------------------------------------------------------------------ taking moves back

    def undoable(self, player_id: str) -> int:
        """How many of `player_id`'s last moves may be taken back, one `undo` each."""
        return len(self._undo_window(player_id)[0])

    def undo(self, player_id: str) -> Game:
        """The game just before `player_id`'s last move (with the forced steps that
        followed it): the replay of the record without those entries.

        A player may take back their own moves while no other player has made a move
        since (forced steps do not count) and no wheel result has been revealed since,
        and not once the game is over. Raises `IllegalAction` with the reason otherwise.
        """
        moves, reason = self._undo_window(player_id)
        if not moves:
            raise IllegalAction(Reason("nothing to take back: {why}", why=reason))
        record = self.record()
        record["actions"] = record["actions"][: moves[0]]
        return Game.replay(record)

    def _undo_window(self, player_id: str) -> tuple[list[int], Reason]:
        """Log indices of `player_id`'s moves that may be taken back, latest first, and
        why the window ends where it does."""
        self.seat_of(player_id)  # refuses a stranger
        if self.is_over:
            return [], Reason("the game is over")
        if self.schema1_moves:
            # replaying a record of schema 1 adds forced steps to its log
            return [], Reason("this game was begun before moves could be taken back")
        auto = set(self.auto)
        moves: list[int] = []
        for index in range(len(self.log) - 1, -1, -1):
            pid, notation = self.log[index]
            if notation.startswith("spin "):
                return moves, Reason("the wheel has been spun since")
            if index in auto:
                continue
            if pid != player_id:
                return moves, Reason("{player} has moved since", player=Named("player", pid))
            moves.append(index)
        return moves, Reason("no earlier move")

    # ------------------------------------------------------------------ persistence

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data (schema in rules/README.md)."""
        version, internal, gauss = self.rng.getstate()
        return {
            "version": SCHEMA_VERSION,
            "seed": self.seed,
            "start_field": self.start_field,
            "players": [p.to_dict() for p in self.players],
            "supply": self.supply.to_dict(),
            "box": dict(self.box),
            "board": {
                "tiles": [
                    {
                        "letter": t.letter,
                        "tile": t.tile_index,
                        "rotation": t.rotation,
                        "q": t.centre[0],
                        "r": t.centre[1],
                    }
                    for t in self.tiles
                ],
                "fields": {label: f.to_dict() for label, f in self.fields.items()},
            },
            "worker_board": {
                "bank": [list(space) for space in self.bank],
                "harvest": {
                    area: [p.to_dict() for p in places] for area, places in self.harvest.items()
                },
                "city": [list(pos) if pos else None for pos in self.representatives],
                "wheel": self.wheel,
            },
            "turn": {
                "seat": self.turn,
                "player": self.turn_player,
                "number": self.turn_number,
                "builds": self.builds_done,
            },
            "pending": self.pending.to_dict(),
            "auction": self.auction.to_dict() if self.auction else None,
            "setup_queue": list(self.setup_queue),
            "final_round": self.final_round,
            "over": self.is_over,
            "log": [[pid, notation] for pid, notation in self.log],
            "auto": list(self.auto),
            "schema1_moves": self.schema1_moves,
            "rng": [version, list(internal), gauss],
        }

    def visible_dict(self) -> dict[str, Any]:
        """`to_dict` without what decides future draws (the seed and the generator's
        state): what anyone may know of a game under way, the same whatever its seed."""
        state = self.to_dict()
        del state["seed"], state["rng"]
        return state

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        if d.get("version") not in (1, SCHEMA_VERSION):
            raise ValueError(f"unsupported game schema version {d.get('version')!r}")
        game = cls()
        game.seed = d["seed"]
        game.start_field = d["start_field"]
        game.players = [Player.from_dict(p) for p in d["players"]]
        game.supply = Supply.from_dict(d["supply"])
        game.box = dict(d["box"])
        game.tiles = [
            Placement(t["letter"], t["tile"], t["rotation"], (t["q"], t["r"]))
            for t in d["board"]["tiles"]
        ]
        game.fields = {label: Field.from_dict(f) for label, f in d["board"]["fields"].items()}
        game._index_board()
        wb = d["worker_board"]
        game.bank = [list(space) for space in wb["bank"]]
        game.harvest = {
            area: [HarvestPlace.from_dict(p) for p in places]
            for area, places in wb["harvest"].items()
        }
        game.representatives = [(pos[0], pos[1]) if pos else None for pos in wb["city"]]
        game.wheel = wb["wheel"]
        game.turn = d["turn"]["seat"]
        game.turn_number = d["turn"]["number"]
        game.builds_done = d["turn"]["builds"]
        game.pending = Pending.from_dict(d["pending"])
        game.auction = Auction.from_dict(d["auction"]) if d["auction"] else None
        game.setup_queue = list(d["setup_queue"])
        game.final_round = d["final_round"]
        game.log = [(pid, notation) for pid, notation in d["log"]]
        game.auto = list(d.get("auto", []))
        game.schema1_moves = len(game.log) if d["version"] == 1 else d["schema1_moves"]
        game._replayed = len(game.log)
        version, internal, gauss = d["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        return game

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> Game:
        """An independent game equal to this one, for simulations: the mutable parts
        are copied, the rest (landscape topology, printed costs, the pending
        decision, cached legal actions) is shared, being never changed in place."""
        game = Game.__new__(Game)
        game.__dict__.update(self.__dict__)
        game.players = [p.copy() for p in self.players]
        game.supply = self.supply.copy()
        game.box = dict(self.box)
        game.tiles = list(self.tiles)
        game.fields = {label: f.copy() for label, f in self.fields.items()}
        game.bank = [list(space) for space in self.bank]
        game.harvest = {area: [p.copy() for p in places] for area, places in self.harvest.items()}
        game.representatives = list(self.representatives)
        game.auction = self.auction.copy() if self.auction else None
        game.setup_queue = list(self.setup_queue)
        game.log = list(self.log)
        game.auto = list(self.auto)
        game.rng = random.Random(0)
        game.rng.setstate(self.rng.getstate())
        return game

    def record(self) -> dict[str, Any]:
        """Setup + every action, forced steps included: enough to replay the game
        without the generator. `tiles` is the landscape as [tile index, rotation] per
        slot, so a game whose seed did not deal it (one continued from a record under
        way) replays too. `schema1_moves` (only for a game begun under schema 1)
        counts the leading actions logged without their forced steps."""
        record: dict[str, Any] = {
            "version": SCHEMA_VERSION,
            "players": self.player_ids,
            "seed": self.seed,
            "start_field": self.start_field,
            "tiles": [[t.tile_index, t.rotation] for t in self.tiles],
            "actions": [[pid, notation] for pid, notation in self.log],
        }
        if self.schema1_moves:
            record["schema1_moves"] = self.schema1_moves
        return record

    @classmethod
    def replay(cls, record: dict[str, Any]) -> Game:
        """The game a record describes; spins come from the record, not the generator.
        Forced steps that end the record are applied as in play."""
        game = cls.replay_start(record)
        for pid, notation in record["actions"]:
            game.replay_action(pid, notation)
        game.replay_finish()
        return game

    @classmethod
    def replay_start(cls, record: dict[str, Any]) -> Game:
        """The game of `record` before its first action, ready for `replay_action`."""
        tiles = record.get("tiles")
        laid = None if tiles is None else [(int(tile), int(turn)) for tile, turn in tiles]
        game = cls._setup(record["players"], record["seed"], record["start_field"], laid)
        game._auto_chance = False
        old = len(record["actions"]) if record["version"] == 1 else record.get("schema1_moves", 0)
        game._schema1_entries_left = old
        return game

    def replay_finish(self) -> None:
        """End a replay made of `replay_action`s: the forced steps that end the record
        are applied as in play, and chance is the generator's again."""
        self._auto_chance = True
        self._settle([])
        self._replayed = len(self.log)

    def replay_action(self, player_id: str, notation: str) -> list[Event]:
        """Apply one recorded action, spins included (replay is a fold of these).

        A forced step is applied by the game as soon as it is due (RULES.md 7.3), so
        when the record reaches it, it is in the log already: the record's entry must
        be that step, and nothing is applied twice. Entries logged under schema 1 may
        leave forced steps out; those are then kept as the game applied them."""
        index = self._replayed
        lenient = self._schema1_entries_left > 0
        self._schema1_entries_left -= lenient
        try:
            action = parse_action(notation)
            entry = (player_id, str(action))
            while index < len(self.log):
                if self.log[index] == entry:
                    self._replayed = index + 1
                    return []
                if not lenient:
                    pid, forced = self.log[index]
                    raise IllegalAction(
                        Reason(
                            "the game applied the forced step '{player}: {notation}' here",
                            player=pid,
                            notation=forced,
                        )
                    )
                index += 1
            events = self._apply_checked(player_id, action)
            self._replayed = len(self.log)
            self._settle(events)
            return events
        except IllegalAction as error:
            raise IllegalAction(
                Reason(
                    "record action {index} '{player}: {notation}': {why}",
                    index=self._replayed + 1,
                    player=player_id,
                    notation=notation,
                    why=error.reason,
                ),
                allowed=error.allowed,
            ) from error
