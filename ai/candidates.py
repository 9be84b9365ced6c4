"""Grouping the legal actions that differ only in which workers they use.

A bank space or a harvest box can be filled by many combinations of worker
colours; they all give the same coins or goods and differ only in the workers they
leave. `group_key` puts such actions together, `prune` keeps the few combinations
that leave the most useful workers, and, in the city, the leftmost and the
rightmost column of every row (the cheapest place and the safest one).
"""

from __future__ import annotations

from rules import Action, Game

from .evaluate import Evaluator

WORKER_VERBS = frozenset({"bank", "harvest", "extra", "return", "take"})
KEEP_PER_GROUP = {"take": 3, "return": 3}
"""Combinations kept per group; one for the verbs not listed."""


def group_key(action: Action) -> tuple[str, ...]:
    """Actions with the same key differ only in the worker colours they use."""
    verb, args = action.verb, action.args
    if verb == "bank":
        return (verb, args[0])
    if verb == "harvest":
        return (verb, args[0], args[1], str(len(args) - 2))
    if verb == "extra":
        return (verb, str(len(args)))
    if verb in ("take", "return"):
        return (verb,)
    return (verb, *args)


def worker_colours(action: Action) -> tuple[str, ...]:
    verb, args = action.verb, action.args
    if verb == "bank":
        return args[1:]
    if verb == "harvest":
        return args[2:]
    return args


def workers_after(action: Action, workers: dict[str, int]) -> dict[str, int]:
    """The player's workers once `action` has put its workers down (or taken them)."""
    after = dict(workers)
    sign = 1 if action.verb == "take" else -1
    for colour in worker_colours(action):
        after[colour] += sign
    return after


def grouped(actions: list[Action]) -> dict[tuple[str, ...], list[Action]]:
    groups: dict[tuple[str, ...], list[Action]] = {}
    for action in actions:
        groups.setdefault(group_key(action), []).append(action)
    return groups


def prune(game: Game, seat: int, actions: list[Action], evaluator: Evaluator) -> list[Action]:
    """The actions worth looking at, in the order given (trades are left to the caller)."""
    player = game.players[seat]
    demand = evaluator.plan(seat, player.goods).demand
    kept: set[Action] = set()
    for key, members in grouped(actions).items():
        verb = key[0]
        if verb not in WORKER_VERBS or len(members) == 1:
            kept.update(members)
            continue
        ranked = sorted(
            members,
            key=lambda a: -evaluator.workers_value(workers_after(a, player.workers), demand),
        )
        kept.update(ranked[: KEEP_PER_GROUP.get(verb, 1)])
    columns: dict[tuple[str, str], list[int]] = {}
    for action in actions:
        if action.verb in ("city", "place"):
            columns.setdefault((action.verb, action.args[0]), []).append(int(action.args[1]))
    for (verb, row), cols in columns.items():
        for col in cols:
            if col not in (min(cols), max(cols)):
                kept.discard(Action(verb, (row, str(col))))
    return [a for a in actions if a in kept]
