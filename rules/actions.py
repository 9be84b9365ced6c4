"""Actions, their text notation and the errors `Game.apply` raises.

An action is a verb and its arguments, all words. `str(action)` is the notation and
`parse_action` its inverse; lists of workers or goods are kept in a canonical order
(copper, stone, grain, pumpkin / the `data.GOODS` order), so `bank 3 stone copper`
and `bank 3 copper stone` are the same action.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import data


class IllegalAction(ValueError):
    """The action is not allowed now; the message says why in plain words."""


class NotYourTurn(IllegalAction):
    """The player who tried to act is not the one the game awaits."""


@dataclass(frozen=True, slots=True)
class Action:
    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))


_COLOUR_ORDER = {c: i for i, c in enumerate(data.COLOURS)}
_GOOD_ORDER = {g: i for i, g in enumerate(data.GOODS)}


def sort_colours(colours: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(colours, key=_COLOUR_ORDER.__getitem__))


def sort_goods(goods: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(goods, key=_GOOD_ORDER.__getitem__))


def _colours(words: list[str], text: str, low: int, high: int) -> tuple[str, ...]:
    if not low <= len(words) <= high:
        count = f"{low}" if low == high else f"{low} to {high}"
        raise IllegalAction(f"'{text}': expected {count} worker colour(s), got {len(words)}")
    for word in words:
        if word not in _COLOUR_ORDER:
            raise IllegalAction(
                f"'{text}': '{word}' is not a worker colour (one of {', '.join(data.COLOURS)})"
            )
    return sort_colours(words)


def _number(word: str, text: str, low: int, high: int, what: str) -> str:
    if not word.isdigit() or not low <= int(word) <= high:
        raise IllegalAction(f"'{text}': {what} must be a number from {low} to {high}")
    return str(int(word))


def _arity(words: list[str], text: str, count: int, usage: str) -> None:
    if len(words) != count:
        raise IllegalAction(f"'{text}': expected '{usage}'")


def parse_action(text: str) -> Action:
    """The action written as `text`; raises `IllegalAction` when it is not notation."""
    words = text.strip().split()
    if not words:
        raise IllegalAction("empty move: write an action such as 'recruit' or 'build C4'")
    verb, rest = words[0].lower(), words[1:]
    lowered = [w.lower() for w in rest]
    if verb in ("recruit", "noextra", "pass", "stop", "canteen", "end"):
        _arity(rest, text, 0, verb)
        return Action(verb)
    if verb == "spin":
        _arity(rest, text, 1, "spin N")
        return Action(verb, (_number(rest[0], text, 1, len(data.WHEEL), "the segment"),))
    if verb == "take":
        return Action(verb, _colours(lowered, text, 2, 2))
    if verb == "advance":
        _arity(rest, text, 1, "advance K")
        return Action(verb, (_number(rest[0], text, 0, data.MAX_ADVANCE, "the steps"),))
    if verb == "return":
        return Action(verb, _colours(lowered, text, 1, 99))
    if verb == "bank":
        if not rest:
            raise IllegalAction(f"'{text}': expected 'bank N COLOUR [COLOUR ...]'")
        space = _number(rest[0], text, 1, len(data.BANK), "the bank space")
        return Action(verb, (space, *_colours(lowered[1:], text, 1, 3)))
    if verb == "harvest":
        if len(rest) < 3:
            raise IllegalAction(f"'{text}': expected 'harvest AREA N COLOUR [COLOUR]'")
        area = lowered[0]
        if area not in data.AREAS:
            raise IllegalAction(f"'{text}': '{rest[0]}' is not an area ({', '.join(data.AREAS)})")
        place = _number(rest[1], text, 1, len(data.HARVEST_PLACES[area]), "the place")
        return Action(verb, (area, place, *_colours(lowered[2:], text, 1, 2)))
    if verb == "extra":
        return Action(verb, _colours(lowered, text, 1, 2))
    if verb in ("city", "place"):
        _arity(rest, text, 2, f"{verb} ROW COLUMN")
        row = _number(rest[0], text, 1, data.CITY_ROWS, "the row")
        col = _number(rest[1], text, 1, len(data.CITY_COSTS), "the column")
        return Action(verb, (row, col))
    if verb == "upgrade":
        for word in lowered:
            if word not in data.UPGRADES:
                raise IllegalAction(f"'{text}': only copper or stone can be upgraded, not '{word}'")
        return Action(verb, sort_goods(lowered))
    if verb == "goods":
        if len(lowered) != 3 or any(w not in data.CITY_GOODS for w in lowered):
            raise IllegalAction(
                f"'{text}': expected 'goods G G G' with G one of {', '.join(data.CITY_GOODS)}"
            )
        return Action(verb, sort_goods(lowered))
    if verb == "build":
        _arity(rest, text, 1, "build LABEL")
        return Action(verb, (rest[0].upper(),))
    if verb == "trade":
        if lowered[:1] == ["worker"]:
            return Action(verb, ("worker", *_colours(lowered[1:], text, 1, 1)))
        if len(lowered) == 1 and (lowered[0] in data.TRADE_GOODS or lowered[0] == "coins"):
            return Action(verb, (lowered[0],))
        raise IllegalAction(
            f"'{text}': expected 'trade GOOD' ({', '.join(data.TRADE_GOODS)}), "
            "'trade coins' or 'trade worker COLOUR'"
        )
    raise IllegalAction(f"'{text}': unknown action '{words[0]}'")
