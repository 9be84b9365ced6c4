"""The "ai" policy: shallow search over the rest of the turn, judged by `evaluate`.

For a decision of player P:
1. A decision without choice is answered at once; a canteen is always spent (an
   extra action is worth more than anything the evaluation gives a kept canteen).
2. Stage 1: every candidate (legal actions with equivalent worker combinations
   grouped, see `candidates.prune`) is applied to a copy and the position valued.
3. Stage 2: the best `top` candidates, and `recruit` whose first spin says little,
   are played on until the turn is over (the next player's main action, the canteen
   question or the end of the game) by a quick policy for every player: the best
   action by one-step evaluation. Recruit is averaged over `samples` spins.
4. Cow trades: a trade is chosen when, after it, an action that was not possible
   before (a build, a harvest, a city column, an upgrade ...) beats the best of 3.
Everything is bounded by `nodes`, the number of positions the search may create,
never by the clock, so a decision is the same for the same seed on any machine.

The levels (`policies.LEVELS`) are settings of this search: `easy` adds noise to the
values of stage 1 (and always builds when it can), `hard` plays on through the next
player's turn as well (`turns` 2) with a larger budget.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules import Action, Event, Game

from .candidates import prune
from .decision import Decision, Reason
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, relative_value
from .lookahead import try_action
from .reasons import event_reasons, plan_reasons

TURN_OVER = frozenset({"main", "end", "over"})
MAX_QUICK_STEPS = 40
"""Decisions a quick play-out may take before it is cut (an auction with overtaking)."""
TRADE_MARGIN = 1.0
"""A trade must win by this many points: a cow kept is flexible."""


def always_spend_canteen(legal: list[Action]) -> Decision | None:
    canteen = Action("canteen")
    if canteen in legal:
        return Decision(canteen, (Reason("extra_turn"),), 1)
    return None


@dataclass
class SearchPolicy:
    name: str = "ai"
    nodes: int = 400
    """Positions the search may create for one decision."""
    top: int = 6
    """Candidates of stage 1 played on to the end of the turn."""
    samples: int = 4
    """Spins tried for `recruit`."""
    turns: int = 1
    """Turns played out after the candidate: 1 ends at the next player's main action;
    2 also plays that player's turn (their answer to the candidate, the `hard` level)."""
    noise: float = 0.0
    """Standard deviation, in points, of the noise added to every candidate's value
    (the `easy` level); with noise, a build is always preferred when one is legal."""
    weights: Weights = field(default=DEFAULT_WEIGHTS)

    def decide(self, game: Game, player_id: str, rng: random.Random) -> Decision:
        legal = game.legal_actions(player_id)
        if not legal:
            raise ValueError(f"{player_id} is not awaited: nothing to decide")
        if len(legal) == 1:
            return Decision(legal[0], (Reason("only_option"),), 1)
        canteen = always_spend_canteen(legal)
        if canteen is not None:
            return canteen
        return _Search(self, game, player_id, rng).best(legal)


@dataclass
class _Line:
    """A candidate action with what it led to."""

    action: Action
    order: int
    game: Game
    events: list[Event]
    value: float


class _Search:
    def __init__(self, policy: SearchPolicy, game: Game, player_id: str, rng: random.Random):
        self.policy = policy
        self.game = game
        self.player_id = player_id
        self.seat = game.seat_of(player_id)
        self.rng = rng
        self.nodes = 0

    # ---------------------------------------------------------------- helpers

    def child(self, game: Game, actor: str, action: Action) -> tuple[Game, list[Event]]:
        self.nodes += 1
        return try_action(game, actor, action, self.rng)

    def value(self, game: Game, seat: int) -> float:
        return relative_value(Evaluator(game, self.policy.weights), seat)

    def budget_left(self) -> bool:
        return self.nodes < self.policy.nodes

    def quick_choice(self, game: Game) -> Game:
        """The position after the awaited player's best action by one-step value."""
        actor = game.awaiting
        assert actor is not None
        seat = game.seat_of(actor)
        legal = [a for a in game.legal_actions(actor) if a.verb != "trade"]
        options = prune(game, seat, legal, Evaluator(game, self.policy.weights))
        if len(options) == 1 or not self.budget_left():
            return self.child(game, actor, options[0])[0]
        best: tuple[float, Game] | None = None
        for action in options:
            after = self.child(game, actor, action)[0]
            v = self.value(after, seat)
            if best is None or v > best[0]:
                best = (v, after)
        assert best is not None
        return best[1]

    def finish_turn(self, game: Game, turns: int = 1) -> Game:
        """`game` played on by the quick policy until `turns` turns have ended (the
        game waits for a main action, the canteen question or is over)."""
        ends = 0
        for _ in range(MAX_QUICK_STEPS * turns):
            if game.pending.kind in TURN_OVER:
                ends += 1
                if ends >= turns or game.pending.kind != "main":
                    break
            game = self.quick_choice(game)
        return game

    def deep_value(self, line: _Line) -> float:
        """The line's value once the turn is played out, and with `turns` 2 the next
        player's turn too (averaged over spins); the line keeps the end of its own turn
        (what the reasons tell)."""
        turns = self.policy.turns
        own_end = self.finish_turn(line.game)
        line.game = own_end
        end = self.finish_turn(own_end, turns) if turns > 1 else own_end
        total = self.value(end, self.seat)
        count = 1
        if line.action.verb == "recruit":
            for _ in range(self.policy.samples - 1):
                if not self.budget_left():
                    break
                sample = self.child(self.game, self.player_id, line.action)[0]
                total += self.value(self.finish_turn(sample, turns), self.seat)
                count += 1
        return total / count

    # ---------------------------------------------------------------- search

    def stage_one(self, actions: list[Action], evaluator: Evaluator) -> list[_Line]:
        lines = []
        for order, action in enumerate(prune(self.game, self.seat, actions, evaluator)):
            after, events = self.child(self.game, self.player_id, action)
            lines.append(_Line(action, order, after, events, self.value(after, self.seat)))
        return lines

    def best(self, legal: list[Action]) -> Decision:
        game, policy = self.game, self.policy
        evaluator = Evaluator(game, policy.weights)
        own = [a for a in legal if a.verb != "trade"]
        lines = self.stage_one(own, evaluator)
        if policy.noise > 0:
            lines = self.noisy(lines)
        lines.sort(key=lambda line: (-line.value, line.order))
        deep = lines[: max(1, policy.top)] + [
            line for line in lines[policy.top :] if line.action.verb == "recruit"
        ]
        for line in deep:
            if not self.budget_left():
                break
            line.value = self.deep_value(line)
        deep.sort(key=lambda line: (-line.value, line.order))
        chosen = deep[0]
        if policy.noise > 0:
            return Decision(chosen.action, self.reasons(evaluator, chosen), self.nodes)
        trade = self.best_trade(legal, chosen.value + TRADE_MARGIN)
        if trade is not None:
            chosen = trade
        return Decision(chosen.action, self.reasons(evaluator, chosen), self.nodes)

    def noisy(self, lines: list[_Line]) -> list[_Line]:
        """The lines with noise on their values; only the builds when there are any.

        A learner's opponent misjudges what it is worth, but never forgets to build.
        """
        builds = [line for line in lines if line.action.verb == "build"]
        kept = builds or lines
        for line in kept:
            line.value += self.rng.gauss(0.0, self.policy.noise)
        return kept

    def best_trade(self, legal: list[Action], to_beat: float) -> _Line | None:
        """A cow trade followed by something it made possible, if that beats `to_beat`."""
        legal_set = set(legal)
        best: _Line | None = None
        for action in legal:
            if action.verb != "trade" or not self.budget_left():
                continue
            after, events = self.child(self.game, self.player_id, action)
            if after.pending.kind != self.game.pending.kind or after.awaiting != self.player_id:
                continue
            new = [
                a
                for a in after.legal_actions(self.player_id)
                if a.verb != "trade" and a not in legal_set
            ]
            if not new:
                continue
            search = _Search(self.policy, after, self.player_id, self.rng)
            search.nodes = self.nodes
            follow = search.stage_one(new, Evaluator(after, self.policy.weights))
            for line in sorted(follow, key=lambda line: (-line.value, line.order))[:2]:
                if not search.budget_left():
                    break
                v = search.deep_value(line)
                if v > to_beat:
                    to_beat = v
                    best = _Line(action, 0, line.game, events, v)
            self.nodes = search.nodes
        return best

    def reasons(self, evaluator: Evaluator, line: _Line) -> tuple[Reason, ...]:
        reasons = event_reasons(line.action, self.player_id, line.events)
        player = self.game.players[self.seat]
        after_player = line.game.players[self.seat]
        before = evaluator.plan(self.seat, player.goods)
        after = Evaluator(line.game, self.policy.weights).plan(self.seat, after_player.goods)
        spent_on = line.action.args[0] if line.action.verb == "build" else ""
        reasons.extend(plan_reasons(before, after, spent_on))
        return tuple(reasons)
