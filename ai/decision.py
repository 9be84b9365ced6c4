"""What a policy answers: the action and its reasons as data, and their English words.

A `Reason` is data, never prose, so the bot can word it in any language; `explain`
is the English rendering (one template per reason kind, in `ENGLISH`), used by the
tests and the console. Reason kinds:

| kind | fields | meaning |
|---|---|---|
| `only_option` | | the engine offered nothing else |
| `points_now` | value, field | settlements this action places (bonuses included) |
| `double_field` | field | the field takes a second settlement |
| `line_bonus` | field, value | lines of exactly four completed |
| `takes_cow` | field | the cow standing on the field |
| `takes_canteen` | field, value | canteens of touching lakes |
| `gains_goods` | good, value | goods taken |
| `gains_coins` | value | coins taken |
| `gains_workers` | good (colour), value | workers taken |
| `gains_cow` | value | cows taken (a city reward) |
| `upgrades` | good, value | small pieces turned into large ones |
| `pays_goods` | good, value | goods given away (a build's cost, a trade is `gains_*`) |
| `city_row` | row, value | standing in city row `row` for its reward; value = column |
| `overtakes` | player, row | pushes that player out of their city row |
| `extra_turn` | | a canteen spent for another turn |
| `enables_build` | field | afterwards the goods on hand pay for this field |
| `closer_to_build` | field, missing | goods still missing for this field |
| `keeps_good_for` | good, field | a good kept on hand for this field |
| `recruits` | value | workers expected from the wheel |
| `best_immediate_gain` | value | the greedy score of the action, in tenths |
| `random_choice` | | drawn at random |
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rules import Action


@dataclass(frozen=True, slots=True)
class Reason:
    kind: str
    value: int = 0
    field: str = ""
    good: str = ""
    missing: tuple[str, ...] = ()
    row: int = 0
    player: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    reasons: tuple[Reason, ...]
    considered: int
    """How many positions were looked at (1 for a decision without choice)."""


def _goods(goods: tuple[str, ...]) -> str:
    return " + ".join(goods)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


ENGLISH: dict[str, Callable[[Reason, Mapping[str, str]], str]] = {
    "only_option": lambda r, names: "the only possible move",
    "points_now": lambda r, names: f"{_plural(r.value, 'point')} now",
    "double_field": lambda r, names: f"{r.field} is a double field",
    "line_bonus": lambda r, names: (
        "completes a line of four" if r.value == 1 else f"completes {r.value} lines of four"
    ),
    "takes_cow": lambda r, names: f"takes the cow on {r.field}",
    "takes_canteen": lambda r, names: (
        "takes a canteen" if r.value == 1 else f"takes {r.value} canteens"
    ),
    "gains_goods": lambda r, names: f"gets {r.value} {r.good}",
    "gains_coins": lambda r, names: f"gets {_plural(r.value, 'coin')}",
    "gains_workers": lambda r, names: f"gets {_plural(r.value, r.good + ' worker')}",
    "gains_cow": lambda r, names: f"gets {_plural(r.value, 'cow')}",
    "upgrades": lambda r, names: f"upgrades {r.value} {r.good}",
    "pays_goods": lambda r, names: f"pays {r.value} {r.good}",
    "city_row": lambda r, names: f"city row {r.row} for its reward",
    "overtakes": lambda r, names: f"pushes {names.get(r.player, r.player)} out of row {r.row}",
    "extra_turn": lambda r, names: "another turn at once",
    "enables_build": lambda r, names: f"then the goods pay for {r.field}",
    "closer_to_build": lambda r, names: (
        f"closer to {r.field} (missing {_goods(r.missing)})"
        if r.missing
        else f"closer to {r.field}"
    ),
    "keeps_good_for": lambda r, names: f"it leaves you {r.good} for {r.field}",
    "recruits": lambda r, names: f"about {_plural(r.value, 'worker')} from the wheel",
    "best_immediate_gain": lambda r, names: f"best immediate gain ({r.value / 10:g})",
    "random_choice": lambda r, names: "picked at random",
}


def explain_reason(reason: Reason, names: Mapping[str, str] | None = None) -> str:
    render = ENGLISH.get(reason.kind)
    if render is None:
        return reason.kind.replace("_", " ")
    return render(reason, names or {})


def explain(decision: Decision, names: Mapping[str, str] | None = None) -> str:
    """One English line: `build E4: 4 points now, and it leaves you copper for D2`.

    `names` maps player ids to the names to show (ids are shown otherwise).
    """
    parts = [explain_reason(r, names) for r in decision.reasons]
    if not parts:
        return str(decision.action)
    if len(parts) == 1:
        return f"{decision.action}: {parts[0]}"
    return f"{decision.action}: {', '.join(parts[:-1])}, and {parts[-1]}"
