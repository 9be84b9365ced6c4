"""The policies by name: the AI's levels "easy", "normal" (alias "ai") and "hard"
(search), "greedy" (best immediate gain), "random".

    policy = ai.policies.get("ai")               # or "greedy", "random", "ai:nodes=100"
    decision = policy.decide(game, player_id, random.Random(seed))
    decision.action, decision.reasons, decision.considered

`decide` never changes the game it is given. `decide_from_state` is the same from a
saved state (`game.to_dict()`), for a process pool: its inputs and result pickle.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Protocol

from rules import Action, Game, data
from rules.simulate import choose_action

from .candidates import grouped
from .decision import Decision, Reason
from .evaluate import frontier
from .lookahead import try_action
from .reasons import event_reasons
from .search import SearchPolicy, always_spend_canteen


class Policy(Protocol):
    name: str

    def decide(self, game: Game, player_id: str, rng: random.Random) -> Decision: ...


def _legal_or_raise(game: Game, player_id: str) -> list[Action]:
    legal = game.legal_actions(player_id)
    if not legal:
        raise ValueError(f"{player_id} is not awaited: nothing to decide")
    return legal


@dataclass
class RandomPolicy:
    """`rules.simulate.choose_action`: random, but building when it can (mostly)."""

    name: str = "random"

    def decide(self, game: Game, player_id: str, rng: random.Random) -> Decision:
        legal = _legal_or_raise(game, player_id)
        if len(legal) == 1:
            return Decision(legal[0], (Reason("only_option"),), 1)
        _, action = choose_action(game, rng)
        return Decision(action, (Reason("random_choice"),), 1)


# The greedy score (documented in ai/README.md): points of what a player holds.
GREEDY_SETTLEMENT = 10.0
GREEDY_GOOD = 1.0
GREEDY_LARGE_GOOD = 1.5
GREEDY_ASKED_GOOD = 1.0
"""More per good held, up to the most of it one frontier field costs."""
GREEDY_COIN = 0.3
GREEDY_WORKER = 0.5
GREEDY_COW = 1.0
GREEDY_CANTEEN = 2.0
GREEDY_CITY_ROW = {1: 2.5, 2: 3.0, 3: 1.0, 4: 1.1}
"""What a representative standing in a row expects from its reward."""


def greedy_holdings(game: Game, seat: int) -> float:
    """The greedy score of what `seat` holds (before or after an action)."""
    player = game.players[seat]
    placed = data.SETTLEMENTS[len(game.players)] - player.settlements_left
    large = set(data.UPGRADES.values())
    score = GREEDY_SETTLEMENT * placed
    asked = {good: 0 for good in data.GOODS}
    for label in frontier(game)[0]:
        for good, n in game.fields[label].cost.items():
            asked[good] = max(asked[good], n)
    for good, n in player.goods.items():
        score += n * (GREEDY_LARGE_GOOD if good in large else GREEDY_GOOD)
        score += GREEDY_ASKED_GOOD * min(n, asked[good])
    score += GREEDY_COIN * player.coins + GREEDY_WORKER * player.worker_count
    score += GREEDY_COW * player.cows + GREEDY_CANTEEN * player.canteens
    position = game.representatives[seat] if game.auction is not None else None
    if position is not None:
        row, column = position
        score += GREEDY_CITY_ROW[row] - data.CITY_COSTS[column - 1]
    return score


@dataclass
class GreedyPolicy:
    """The action whose immediate result scores best by `greedy_holdings`.

    Actions differing only in worker colours score alike: one of each group, drawn
    at random, is tried. Ties are broken at random; a canteen is always spent.
    """

    name: str = "greedy"

    def decide(self, game: Game, player_id: str, rng: random.Random) -> Decision:
        legal = _legal_or_raise(game, player_id)
        if len(legal) == 1:
            return Decision(legal[0], (Reason("only_option"),), 1)
        canteen = always_spend_canteen(legal)
        if canteen is not None:
            return canteen
        seat = game.seat_of(player_id)
        before = greedy_holdings(game, seat)
        best: list[tuple[Action, list[Reason]]] = []
        best_score = 0.0
        tried = 0
        for members in grouped(legal).values():
            action = rng.choice(members)
            after, events = try_action(game, player_id, action, rng)
            tried += 1
            score = round(greedy_holdings(after, seat) - before, 6)
            if not best or score > best_score:
                best, best_score = [], score
            if score == best_score:
                best.append((action, event_reasons(action, player_id, events)))
        action, reasons = rng.choice(best)
        gain = Reason("best_immediate_gain", value=round(best_score * 10))
        return Decision(action, (*reasons, gain), tried)


LEVELS: dict[str, SearchPolicy] = {
    # the evaluation right after the action, with noise; only the best played on
    "easy": SearchPolicy(name="easy", nodes=80, top=1, samples=1, noise=40.0),
    "normal": SearchPolicy(name="normal"),
    # plays on through the next player's turn too: their answer to each candidate
    "hard": SearchPolicy(name="hard", nodes=2400, top=6, samples=4, turns=2),
}
"""The AI's levels, weakest first (ai/README.md "The levels"); "ai" is "normal"."""
LEVEL_NAMES = tuple(LEVELS)
SEARCH_OPTIONS = ("nodes", "top", "samples", "turns")


def get(spec: str) -> Policy:
    """The policy named `spec`: a level ("easy", "normal", "hard"; "ai" is "normal"),
    "greedy" or "random"; "ai:nodes=100,top=4" (or "hard:nodes=800") changes the
    search's budget (integers only)."""
    name, _, options = spec.partition(":")
    settings: dict[str, int] = {}
    for item in filter(None, options.split(",")):
        key, _, number = item.partition("=")
        settings[key.strip()] = int(number)
    if name == "ai" or name in LEVELS:
        unknown = set(settings) - set(SEARCH_OPTIONS)
        if unknown:
            raise ValueError(f"unknown {name} option(s): {', '.join(sorted(unknown))}")
        level = LEVELS["normal" if name == "ai" else name]
        return replace(
            level,
            name=spec,
            nodes=settings.get("nodes", level.nodes),
            top=settings.get("top", level.top),
            samples=settings.get("samples", level.samples),
            turns=settings.get("turns", level.turns),
        )
    if settings:
        raise ValueError(f"policy '{name}' takes no options")
    if name == "greedy":
        return GreedyPolicy()
    if name == "random":
        return RandomPolicy()
    raise ValueError(f"unknown policy '{spec}': choose easy, normal, hard, ai, greedy or random")


NAMES = ("ai", *LEVEL_NAMES, "greedy", "random")


def decide_from_state(state: dict[str, object], player_id: str, policy: str, seed: int) -> Decision:
    """`get(policy).decide` on the game saved as `state`, with `random.Random(seed)`."""
    game = Game.from_dict(state)
    return get(policy).decide(game, player_id, random.Random(seed))
