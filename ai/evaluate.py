"""How good a position is for one player: the AI's evaluation function.

Unit: one settlement on the landscape is worth `Weights.settlement` (100). Everything
else is valued by how surely it turns into settlements before the game ends:

- goods on hand are matched against the fields anyone may build on next (the
  frontier) and the fields one build further; a field the goods pay for in full
  counts most, a field partly paid for a little (growing with the square of the
  paid share), goods no field asks for count as a small spare value;
- a field's worth is its settlements (the double field, the exact line of four of
  RULES.md 7.1.3) plus the cow and the canteens it hands out;
- coins and workers (with diminishing returns), cows and canteens as resources;
- a representative in the city during an auction counts its row's best reward
  minus the pumpkins its column costs;
- in the final round only the turns a player still has count (RULES.md 10); when
  the game is over, the winner gets a decisive bonus.

`position_value` compares the player with the best opponent, so that a move which
takes a field or a city row away from someone counts for something too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import ClassVar

from rules import Game, Player, data

NEAR = 1
"""A frontier field: it touches the start tile or a settlement."""
FAR = 2
"""A field touching the frontier: one build away from being buildable."""


@dataclass(frozen=True)
class Weights:
    """The evaluation's tunable numbers, in points (a settlement = 100)."""

    settlement: float = 100.0
    affordable_near: float = 80.0
    """A settlement the goods on hand pay for on a frontier field."""
    affordable_far: float = 55.0
    """... on a field one build further."""
    partial: float = 0.5
    """Share of a field's worth counted when only part of it is paid for (x share²)."""
    partial_targets: int = 2
    """How many not yet affordable fields collect the goods left over."""
    spare_good: float = 6.0
    spare_large_good: float = 8.0
    cow_on_field: float = 0.15
    """A cow taken by building, in settlements."""
    canteen_by_field: float = 0.4
    """A canteen taken by building, in settlements."""
    coin: float = 3.0
    coins_full_value: int = 12
    """Coins beyond this many count `coin_beyond` each."""
    coin_beyond: float = 1.0
    worker: float = 8.0
    workers_full_value: int = 4
    worker_beyond: float = 5.0
    worker_in_demand: float = 3.0
    """Once per colour whose area yields a good the next fields ask for."""
    cow: float = 10.0
    canteen: float = 40.0
    final_round_resources: float = 0.5
    """Share of the worth of coins, workers, cows and canteens kept in the final round."""
    potential_ceiling: float = 90.0
    """Per settlement in stock: the most that everything but placed settlements is worth."""
    tie_break: float = 1.0
    """Per cow or canteen when nothing else can change any more (RULES.md 10)."""
    holdings_tie_break: float = 0.01
    opponent: float = 0.5
    """How much the best opponent's value is subtracted."""
    win: float = 1000.0


DEFAULT_WEIGHTS = Weights()


@dataclass(frozen=True, slots=True)
class Target:
    """A field the player might build on, with what it costs and gives."""

    label: str
    cost: tuple[tuple[str, int], ...]
    size: int
    settlements: int
    worth: float
    """Settlements plus cow and canteens, in settlements."""
    distance: int


@dataclass(frozen=True, slots=True)
class Plan:
    """How a player's goods are meant to be spent (for the value and the reasons)."""

    value: float
    affordable: tuple[str, ...]
    """Labels of the fields the goods pay for in full, best first."""
    allocation: tuple[tuple[str, str], ...]
    """(good, label): goods set aside for a field, affordable or not."""
    closest: tuple[tuple[str, tuple[str, ...]], ...]
    """(label, goods still missing) for the fields partly paid for."""
    demand: tuple[str, ...]
    """Goods those partly paid fields still ask for."""


class Landscape:
    """The neighbours of every field, computed once per landscape layout."""

    _cache: ClassVar[dict[tuple[int, str, int], Landscape]] = {}

    def __init__(self, game: Game) -> None:
        by_hex = {(f.q, f.r): label for label, f in game.fields.items()}
        self.neighbours: dict[str, tuple[str, ...]] = {
            label: tuple(
                by_hex[(f.q + dq, f.r + dr)]
                for dq, dr in data.HEX_DIRECTIONS
                if (f.q + dq, f.r + dr) in by_hex
            )
            for label, f in game.fields.items()
        }

    @classmethod
    def of(cls, game: Game) -> Landscape:
        # the layout is dealt from the seed for a number of players (RULES.md 2.1)
        key = (game.seed, game.start_field, len(game.fields))
        landscape = cls._cache.get(key)
        if landscape is None:
            if len(cls._cache) > 256:
                cls._cache.clear()
            landscape = cls._cache[key] = Landscape(game)
        return landscape


def frontier(game: Game) -> tuple[list[str], list[str]]:
    """(frontier fields, fields touching the frontier): empty and buildable, sorted."""
    neighbours = Landscape.of(game).neighbours
    fields = game.fields
    near: set[str] = set()
    for label, f in fields.items():
        if f.start or f.settlements:
            for n in neighbours[label]:
                nf = fields[n]
                if nf.buildable and not nf.settlements:
                    near.add(n)
    far: set[str] = set()
    for label in near:
        for n in neighbours[label]:
            nf = fields[n]
            if n not in near and nf.buildable and not nf.settlements:
                far.add(n)
    return sorted(near), sorted(far)


def turns_left(game: Game, seat: int) -> int | None:
    """Actions `seat` can still take before the end; None when the end is not in sight."""
    if game.is_over:
        return 0
    if not game.final_round:
        return None
    canteens = game.players[seat].canteens if seat != game.last_seat else 0
    if seat > game.turn:
        return 1 + canteens
    if seat == game.turn:
        # the action under way still counts while its builds can be made
        underway = game.pending.kind in ("main", "build") and game.pending.seat == seat
        return int(underway) + canteens
    return 0


class Evaluator:
    """Values of the players of one game state; cheap to ask repeatedly."""

    def __init__(self, game: Game, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.game = game
        self.w = weights
        self.near, self.far = frontier(game)
        self._targets: dict[int, list[Target]] = {}

    # ---------------------------------------------------------------- targets

    def targets(self, seat: int) -> list[Target]:
        cached = self._targets.get(seat)
        if cached is not None:
            return cached
        game, w = self.game, self.w
        player = game.players[seat]
        neighbours = Landscape.of(game).neighbours
        result: list[Target] = []
        for distance, labels in ((NEAR, self.near), (FAR, self.far)):
            for label in labels:
                f = game.fields[label]
                if distance == NEAR:
                    gains = game.build_gains(player.id, label)
                    settlements = 1 + len(gains.bonuses)
                    cow, canteens = gains.cow, len(gains.canteen_lakes)
                else:
                    settlements = 2 if f.double and player.settlements_left > 1 else 1
                    cow = f.cow
                    canteens = sum(
                        1
                        for n in neighbours[label]
                        if game.fields[n].kind == "lake" and game.fields[n].canteen
                    )
                worth = settlements + w.cow_on_field * cow + w.canteen_by_field * canteens
                cost = tuple(f.cost.items())
                result.append(
                    Target(label, cost, sum(f.cost.values()), settlements, worth, distance)
                )
        self._targets[seat] = result
        return result

    # ---------------------------------------------------------------- goods

    def plan(self, seat: int, goods: dict[str, int], builds: int | None = None) -> Plan:
        """Spend `goods` on the best fields (two greedy orders, the better kept)."""
        w = self.w
        targets = self.targets(seat)
        stock = self.game.players[seat].settlements_left
        max_builds = len(targets) if builds is None else builds

        def afford_weight(t: Target) -> float:
            return w.affordable_near if t.distance == NEAR else w.affordable_far

        best: tuple[float, dict[str, int], list[Target]] | None = None
        orders = (
            sorted(targets, key=lambda t: (-t.worth * afford_weight(t), t.size)),
            sorted(targets, key=lambda t: (-t.worth * afford_weight(t) / t.size, t.size)),
        )
        neighbours = Landscape.of(self.game).neighbours
        for order in orders:
            left = dict(goods)
            value = 0.0
            chosen: list[Target] = []
            chosen_labels: set[str] = set()
            placed = 0
            # a far field becomes buildable only through a frontier field chosen before it
            for t in (*order, *(t for t in order if t.distance == FAR)):
                if len(chosen) >= max_builds or placed >= stock:
                    break
                if t.label in chosen_labels:
                    continue
                if t.distance == FAR and chosen_labels.isdisjoint(neighbours[t.label]):
                    continue
                if all(left[g] >= n for g, n in t.cost):
                    for g, n in t.cost:
                        left[g] -= n
                    value += t.worth * afford_weight(t)
                    placed += t.settlements
                    chosen.append(t)
                    chosen_labels.add(t.label)
            if best is None or value > best[0]:
                best = (value, left, chosen)
        assert best is not None
        value, left, chosen = best
        allocation = [(g, t.label) for t in chosen for g, n in t.cost for _ in range(n)]

        closest: list[tuple[str, tuple[str, ...]]] = []
        demand: list[str] = []
        if max_builds > len(chosen) and stock > sum(t.settlements for t in chosen):
            chosen_labels = {t.label for t in chosen}
            # like a purchase, a part payment only counts for a field the plan can reach
            rest = [
                t
                for t in targets
                if t.label not in chosen_labels
                and (t.distance == NEAR or not chosen_labels.isdisjoint(neighbours[t.label]))
            ]

            def missing_count(t: Target) -> int:
                return sum(max(0, n - left[g]) for g, n in t.cost)

            rest.sort(key=lambda t: (missing_count(t), t.distance, -t.worth))
            for t in rest[: w.partial_targets]:
                covered = 0
                missing: list[str] = []
                for g, n in t.cost:
                    use = min(left[g], n)
                    left[g] -= use
                    covered += use
                    allocation.extend((g, t.label) for _ in range(use))
                    missing.extend(g for _ in range(n - use))
                share = covered / t.size
                value += t.worth * afford_weight(t) * w.partial * share * share
                closest.append((t.label, tuple(missing)))
                demand.extend(missing)
        for g, n in left.items():
            value += n * (w.spare_large_good if g in ("bigcopper", "bigstone") else w.spare_good)
        return Plan(
            value=value,
            affordable=tuple(t.label for t in chosen),
            allocation=tuple(allocation),
            closest=tuple(closest),
            demand=tuple(demand),
        )

    # ---------------------------------------------------------------- players

    def workers_value(self, workers: dict[str, int], demand: tuple[str, ...]) -> float:
        w = self.w
        count = sum(workers.values())
        value = w.worker * min(count, w.workers_full_value) + w.worker_beyond * max(
            0, min(count, data.MAX_WORKERS) - w.workers_full_value
        )
        for area, colour in data.AREA_COLOUR.items():
            if workers[colour] and data.AREA_GOOD[area] in demand:
                value += w.worker_in_demand
        return value

    def coins_value(self, coins: int) -> float:
        w = self.w
        full = min(coins, w.coins_full_value)
        return w.coin * full + w.coin_beyond * (coins - full)

    def tie_break(self, player: Player) -> float:
        w = self.w
        holdings = sum(player.goods.values()) + player.coins + player.worker_count
        return w.tie_break * (player.cows + player.canteens) + w.holdings_tie_break * holdings

    def player_value(self, seat: int) -> float:
        """The worth of everything `seat` has, in points (a settlement = 100)."""
        game, w = self.game, self.w
        player = game.players[seat]
        placed = data.SETTLEMENTS[len(game.players)] - player.settlements_left
        value = w.settlement * placed + self.tie_break(player)
        turns = turns_left(game, seat)
        if turns == 0:
            return value
        builds = None if turns is None else turns * data.BUILDS_PER_ACTION
        plan = self.plan(seat, player.goods, builds)
        resources = (
            self.coins_value(player.coins)
            + self.workers_value(player.workers, plan.demand)
            + w.cow * player.cows
            + w.canteen * player.canteens
        )
        if turns is not None:
            # in the final round an action spent gathering may never be built on
            resources *= w.final_round_resources if turns > 1 else 0.0
        potential = plan.value + resources
        position = game.representatives[seat] if game.auction is not None else None
        if position is not None:
            potential += self.city_value(seat, *position)
        # all of it can never be worth more than the settlements still in stock
        ceiling = w.potential_ceiling * player.settlements_left
        if ceiling <= 0:
            return value
        return value + ceiling * -math.expm1(-potential / ceiling)

    def city_value(self, seat: int, row: int, column: int) -> float:
        """Worth of standing on (row, column) once the auction pays (RULES.md 6.3.4-5)."""
        player = self.game.players[seat]
        w = self.w
        cost = data.CITY_COSTS[column - 1]
        if player.goods["pumpkin"] < cost:
            return 0.0
        before = self.plan(seat, player.goods).value
        paid = dict(player.goods)
        paid["pumpkin"] -= cost
        reward = data.CITY_REWARDS[row]
        best = max(self.plan(seat, goods).value for goods in reward_options(paid, row))
        coins = self.coin_gain(player.coins, reward["coins"])
        return best - before + w.cow * reward["cows"] + coins

    def coin_gain(self, coins: int, more: int) -> float:
        return self.coins_value(coins + more) - self.coins_value(coins)


def reward_options(goods: dict[str, int], row: int) -> list[dict[str, int]]:
    """The goods a player could hold after taking row `row`'s reward (RULES.md 6.3.5)."""
    reward = data.CITY_REWARDS[row]
    options: list[dict[str, int]] = []
    if reward["goods"]:
        for combo in combinations_with_replacement(data.CITY_GOODS, reward["goods"]):
            after = dict(goods)
            for g in combo:
                after[g] += 1
            options.append(after)
        return options
    for count in range(reward["upgrades"] + 1):
        for combo in combinations_with_replacement(tuple(data.UPGRADES), count):
            after = dict(goods)
            for small in combo:
                after[small] -= 1
                after[data.UPGRADES[small]] += 1
            if min(after.values()) >= 0:
                options.append(after)
    return options


def position_value(game: Game, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good `game` is for `seat`: its value minus part of the best opponent's."""
    evaluator = Evaluator(game, weights)
    return relative_value(evaluator, seat)


def relative_value(evaluator: Evaluator, seat: int) -> float:
    game, w = evaluator.game, evaluator.w
    mine = evaluator.player_value(seat)
    others = max(evaluator.player_value(s) for s in range(len(game.players)) if s != seat)
    if game.is_over:
        winners = game.result().winners
        me = game.players[seat].id
        outcome = (1.0 / len(winners) if me in winners else 0.0) * 2 - 1
        return w.win * outcome + mine - others
    return mine - w.opponent * others
