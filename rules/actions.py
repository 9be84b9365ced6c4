"""Actions, their text notation and the errors `Game.apply` raises.

An action is a verb and its arguments, all words. `str(action)` is the notation and
`parse_action` its inverse; lists of workers or goods are kept in a canonical order
(copper, stone, grain, pumpkin / the `data.GOODS` order), so `bank 3 stone copper`
and `bank 3 copper stone` are the same action.

Every refusal carries a `Reason`: an English template with named fields whose values
are the engine's own keys and numbers. `str(error)` is that template filled in (the
console's, the logs' and the tests' English); a reader in another language gets the
template from the message catalogue and the fields worded in their language
(`render.words.reason_text`). The templates are found there by this module's class
and function names (`Reason`, `counted_reason`, i18n/build.py), so nothing here
imports the catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from . import data


@dataclass(frozen=True, slots=True)
class Named:
    """A thing of the game named by its engine key: an area (`mine`), a good
    (`bigcopper`), a worker colour (`copper`) or a player (their id)."""

    kind: Literal["area", "good", "colour", "player"]
    key: str

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, slots=True)
class Goods:
    """Goods and how many of each, in the order given: "1 grain + 2 bigcopper"."""

    counts: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return " + ".join(f"{n} {good}" for good, n in self.counts)


@dataclass(frozen=True, slots=True)
class Workers:
    """Worker colours, one per worker: "copper + copper + grain"."""

    colours: tuple[str, ...]

    def __str__(self) -> str:
        return " + ".join(self.colours)


@dataclass(frozen=True, slots=True)
class WorkersHeld:
    """The workers a player holds, by colour: "1 copper, 2 stone" ("no workers")."""

    counts: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return ", ".join(f"{n} {colour}" for colour, n in self.counts) or "no workers"


ReasonField: TypeAlias = "int | str | Named | Goods | Workers | WorkersHeld | Reason"
"""What a field of a `Reason` may hold."""


@dataclass(frozen=True, slots=True, init=False)
class Reason:
    """Why an action is refused: an English template with named fields (`{space}`),
    and the fields' values: numbers, notation and labels (`str`, shown as they are),
    engine names (`Named`), counts of goods or workers, or another `Reason` (a clause).

        Reason("bank space {space} is already occupied", space=2)
        counted_reason("this city row allows up to {n} upgrade", "... {n} upgrades", 2)

    `str(reason)` is the English sentence. A reason made without fields is a template
    that `given(**fields)` completes.
    """

    text: str
    plural: str | None
    fields: tuple[tuple[str, ReasonField], ...]

    def __init__(
        self,
        text: str,
        /,
        **fields: ReasonField,
    ) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "plural", None)
        object.__setattr__(self, "fields", tuple(fields.items()))

    @property
    def count(self) -> int | None:
        """The count that chooses the plural form (field `n`), if the reason is counted."""
        if self.plural is None:
            return None
        n = dict(self.fields).get("n")
        return n if isinstance(n, int) else None

    @property
    def template(self) -> str:
        """The English template for this reason's count."""
        return self.text if self.plural is None or self.count == 1 else self.plural

    def given(self, **fields: ReasonField) -> Reason:
        """This reason with more fields filled in."""
        filled = Reason(self.text, **dict(self.fields), **fields)
        object.__setattr__(filled, "plural", self.plural)
        return filled

    def __str__(self) -> str:
        return self.template.format_map({name: str(value) for name, value in self.fields})


def counted_reason(
    singular: str,
    plural: str,
    n: int,
    /,
    **fields: ReasonField,
) -> Reason:
    """A reason whose words depend on a count `n` (its field `{n}`): "takes exactly {n}
    worker" / "takes exactly {n} workers"; each language has its own plural forms."""
    reason = Reason(singular, n=n, **fields)
    object.__setattr__(reason, "plural", plural)
    return reason


class IllegalAction(ValueError):
    """The action is not allowed now; the message says why in plain words.

    `reason` is the why as a template and its fields (for a reader's language);
    `allowed` the verbs the awaited player may use instead, when the refusal lists them.
    """

    def __init__(self, reason: Reason, *, allowed: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self.allowed = allowed
        text = str(reason)
        if allowed:
            text += f". Allowed now: {', '.join(allowed)}"
        super().__init__(text)


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
    if low == high and len(words) != low:
        raise IllegalAction(
            counted_reason(
                "'{text}': expected {n} worker colour, got {given}",
                "'{text}': expected {n} worker colours, got {given}",
                low,
                text=text,
                given=len(words),
            )
        )
    if not low <= len(words) <= high:
        raise IllegalAction(
            Reason(
                "'{text}': expected {low} to {high} worker colours, got {given}",
                text=text,
                low=low,
                high=high,
                given=len(words),
            )
        )
    for word in words:
        if word not in _COLOUR_ORDER:
            raise IllegalAction(
                Reason(
                    "'{text}': '{word}' is not a worker colour (one of {colours})",
                    text=text,
                    word=word,
                    colours=", ".join(data.COLOURS),
                )
            )
    return sort_colours(words)


_NUMBER_REASONS = {
    "segment": Reason("'{text}': the segment must be a number from {low} to {high}"),
    "steps": Reason("'{text}': the steps must be a number from {low} to {high}"),
    "bank space": Reason("'{text}': the bank space must be a number from {low} to {high}"),
    "place": Reason("'{text}': the place must be a number from {low} to {high}"),
    "row": Reason("'{text}': the row must be a number from {low} to {high}"),
    "column": Reason("'{text}': the column must be a number from {low} to {high}"),
}
"""What a number of the notation counts -> the refusal when it is out of range."""


def _number(word: str, text: str, low: int, high: int, what: str) -> str:
    if not word.isdigit() or not low <= int(word) <= high:
        raise IllegalAction(_NUMBER_REASONS[what].given(text=text, low=low, high=high))
    return str(int(word))


def _arity(words: list[str], text: str, count: int, usage: str) -> None:
    if len(words) != count:
        raise IllegalAction(Reason("'{text}': expected '{usage}'", text=text, usage=usage))


def parse_action(text: str) -> Action:
    """The action written as `text`; raises `IllegalAction` when it is not notation."""
    words = text.strip().split()
    if not words:
        raise IllegalAction(Reason("empty move: write an action such as 'recruit' or 'build C4'"))
    verb, rest = words[0].lower(), words[1:]
    lowered = [w.lower() for w in rest]
    if verb in ("recruit", "noextra", "pass", "stop", "canteen", "end"):
        _arity(rest, text, 0, verb)
        return Action(verb)
    if verb == "spin":
        _arity(rest, text, 1, "spin N")
        return Action(verb, (_number(rest[0], text, 1, len(data.WHEEL), "segment"),))
    if verb == "take":
        return Action(verb, _colours(lowered, text, 2, 2))
    if verb == "advance":
        _arity(rest, text, 1, "advance K")
        return Action(verb, (_number(rest[0], text, 0, data.MAX_ADVANCE, "steps"),))
    if verb == "return":
        return Action(verb, _colours(lowered, text, 1, 99))
    if verb == "bank":
        if not rest:
            raise IllegalAction(
                Reason("'{text}': expected 'bank N COLOUR [COLOUR ...]'", text=text)
            )
        space = _number(rest[0], text, 1, len(data.BANK), "bank space")
        return Action(verb, (space, *_colours(lowered[1:], text, 1, 3)))
    if verb == "harvest":
        if len(rest) < 3:
            raise IllegalAction(
                Reason("'{text}': expected 'harvest AREA N COLOUR [COLOUR]'", text=text)
            )
        area = lowered[0]
        if area not in data.AREAS:
            raise IllegalAction(
                Reason(
                    "'{text}': '{word}' is not an area ({areas})",
                    text=text,
                    word=rest[0],
                    areas=", ".join(data.AREAS),
                )
            )
        place = _number(rest[1], text, 1, len(data.HARVEST_PLACES[area]), "place")
        return Action(verb, (area, place, *_colours(lowered[2:], text, 1, 2)))
    if verb == "extra":
        return Action(verb, _colours(lowered, text, 1, 2))
    if verb in ("city", "place"):
        _arity(rest, text, 2, f"{verb} ROW COLUMN")
        row = _number(rest[0], text, 1, data.CITY_ROWS, "row")
        col = _number(rest[1], text, 1, len(data.CITY_COSTS), "column")
        return Action(verb, (row, col))
    if verb == "upgrade":
        for word in lowered:
            if word not in data.UPGRADES:
                raise IllegalAction(
                    Reason(
                        "'{text}': only copper or stone can be upgraded, not '{word}'",
                        text=text,
                        word=word,
                    )
                )
        return Action(verb, sort_goods(lowered))
    if verb == "goods":
        if len(lowered) != 3 or any(w not in data.CITY_GOODS for w in lowered):
            raise IllegalAction(
                Reason(
                    "'{text}': expected 'goods G G G' with G one of {goods}",
                    text=text,
                    goods=", ".join(data.CITY_GOODS),
                )
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
            Reason(
                "'{text}': expected 'trade GOOD' ({goods}), 'trade coins' or 'trade worker COLOUR'",
                text=text,
                goods=", ".join(data.TRADE_GOODS),
            )
        )
    raise IllegalAction(Reason("'{text}': unknown action '{word}'", text=text, word=words[0]))
