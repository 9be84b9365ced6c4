"""The phrases the bot's sentences are built of: lists as a language writes them, counts
of goods and workers, what a city row gives. Every name of a thing of the game comes
from the one vocabulary, `render.vocabulary`, which the pictures use too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

import render.words as render_words
from bot.core.store import FORGOTTEN_NAME
from i18n import SOURCE_LANGUAGE, Translator, translatable_in
from render.vocabulary import ACTIONS, BOARD, GOODS, PIECES, WORKER_COLOURS
from render.words import ENGLISH
from rules import data

Mention = Callable[[str], str]
"""Turns a player id into how they are addressed (a Discord mention, or a name)."""

GOOD_NAMES = {good: singular for good, (singular, _plural) in render_words.GOOD_WORDS.items()}
AREA_NAMES = render_words.AREA_WORDS
EXTRA_BOX: Final = BOARD["small_box"].one
"""The small box of a harvest place, by its one name ("extra box")."""
MOVE_THE_ARROW: Final = ACTIONS["advance"].phrase
GIVE_BACK: Final = ACTIONS["return"].phrase
UNDO_MARK: Final = "↩"
"""Starts the line that says a move was taken back."""


def is_english(t: Translator) -> bool:
    return t.language == SOURCE_LANGUAGE


def row_reward(row: int, t: Translator = ENGLISH) -> str:
    """What a city row gives, from the rules' values: "1 cow + up to 3 upgrades",
    "3 goods: small copper, small stone or grain"."""
    reward = data.CITY_REWARDS[row]
    parts = []
    if reward["cows"]:
        parts.append(PIECES["cow"].count_in(t, reward["cows"]))
    if reward["coins"]:
        parts.append(PIECES["coin"].count_in(t, reward["coins"]))
    if reward["goods"]:
        goods = either([GOODS[good].name_in(t) for good in data.CITY_GOODS], t)
        parts.append(t.gettext("{n} goods: {goods}", n=reward["goods"], goods=goods))
    if reward["upgrades"]:
        upgrades = ACTIONS["upgrade"].count_in(t, reward["upgrades"])
        parts.append(t.gettext("up to {upgrades}", upgrades=upgrades))
    return " + ".join(parts)


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its English noun agreeing: `plural(1, "coin")` -> "1 coin",
    `plural(0, "coin")` -> "0 coins"; `many` is the plural when it is not `word` + "s"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def join_words(parts: Iterable[str], conjunction: str = "and") -> str:
    """A list as a person writes it in English: "a", "a and b", "a, b, and c"."""
    items = [part for part in parts if part]
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return ", ".join(items[:-1]) + f", {conjunction} " + items[-1]


def _head(items: Sequence[str], t: Translator) -> str:
    """All but the last item of a list of three or more, joined: "a, b"."""
    text = items[0]
    for item in items[1:-1]:
        text = t.gettext("{list}, {next}", list=text, next=item)
    return text


def listed(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """["a", "b", "c"] -> "a, b, and c" in `t`'s language (the sentences' lists)."""
    items = [part for part in parts if part]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: a list of two in a sentence: "recruited and took 2 workers".
        return t.pgettext("list", "{first} and {last}", first=items[0], last=items[1])
    # Translators: the end of a list of three or more: "a, b, and c".
    return t.pgettext("list", "{list}, and {last}", list=_head(items, t), last=items[-1])


def one_after_another(clauses: Iterable[str], t: Translator = ENGLISH) -> str:
    """What one player did, clause after clause, after their name: "recruited, took 2
    workers and passed". Its own joints, apart from a list of things: Japanese ends each
    clause in the polite past and makes it a sentence of its own (…しました。…しました)."""
    items = [clause for clause in clauses if clause]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: two things one player did, after their name: "recruited and took
        # 2 workers".
        return t.pgettext("clauses", "{first} and {last}", first=items[0], last=items[1])
    text = items[0]
    for item in items[1:-1]:
        # Translators: things one player did, one after the other: "recruited, took …".
        text = t.pgettext("clauses", "{list}, {next}", list=text, next=item)
    # Translators: the last of three or more things one player did: "…, and passed".
    return t.pgettext("clauses", "{list}, and {last}", list=text, last=items[-1])


def series(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """Longer items one after the other: "1. Ana — blue, 3 coins; 2. Ben — ..."."""
    items = [part for part in parts if part]
    text = items[0] if items else ""
    for item in items[1:]:
        # Translators: joins longer items (each with commas of its own) in one line.
        text = t.pgettext("list", "{list}; {next}", list=text, next=item)
    return text


# Translators: written for the name of a player who asked to be forgotten
# (/montana me forget), in the games that are over.
FORGOTTEN_WORDS = translatable_in("player name", "(a former player)")
"""The name of a forgotten player, as shown; the store keeps `FORGOTTEN_NAME`, the
English, as a marker (`forgotten_worded`)."""


def forgotten_worded(name: str, t: Translator = ENGLISH) -> str:
    """A seat's name as shown in `t`'s language: the store's marker of a forgotten
    player (`FORGOTTEN_NAME`, also with a suffix such as " (AI)") worded, any other name
    as it is."""
    if name.startswith(FORGOTTEN_NAME):
        return t.translate(FORGOTTEN_WORDS) + name[len(FORGOTTEN_NAME) :]
    return name


def names_worded(names: Mapping[str, str], t: Translator = ENGLISH) -> dict[str, str]:
    """`row.names` or `row.seat_names` with a forgotten player's marker worded in `t`'s
    language (`forgotten_worded`): what the pages, pictures and lines of games that are
    over show."""
    return {player: forgotten_worded(name, t) for player, name in names.items()}


def quoted(text: str, t: Translator = ENGLISH) -> str:
    """`text` between the quotation marks of `t`'s language: “wait”, « attendre »."""
    # Translators: quotation marks around words quoted in a sentence (a choice's label,
    # a name): “every move”.
    return t.pgettext("quoted", "“{text}”", text=text)


def choices_worded(labels: Iterable[str], t: Translator = ENGLISH) -> str:
    """The labels of an option's choices, each quoted, as a choice among them: “a”,
    “b”, or “c” (what a refusal of a value no choice has offers instead)."""
    return either((quoted(label, t) for label in labels), t)


def either(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """["a", "b", "c"] -> "a, b, or c" in `t`'s language."""
    items = [part for part in parts if part]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: a choice between two things: "build or pass".
        return t.gettext("{first} or {last}", first=items[0], last=items[1])
    # Translators: the end of a choice among three or more: "recruit, build, or pass".
    return t.gettext("{list}, or {last}", list=_head(items, t), last=items[-1])


def goods_text(goods: Mapping[str, int], t: Translator = ENGLISH) -> str:
    """`{"bigstone": 1, "grain": 1}` -> "1 grain + 1 large stone"."""
    return render_words.goods_count_phrase(goods, t) or t.gettext("nothing")


def count_list(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def workers_text(workers: Mapping[str, int] | Sequence[str], t: Translator = ENGLISH) -> str:
    """["copper", "grain"] -> "a copper and a grain worker"; {"copper": 2} -> "2 copper workers";
    {"copper": 2, "grain": 1} -> "2 copper workers and a grain worker" (other languages:
    the pictures' phrase, each count with its own noun)."""
    counts = count_list(workers) if not isinstance(workers, Mapping) else dict(workers)
    if not is_english(t):
        held = [c for c in data.COLOURS for _ in range(counts.get(c, 0))]
        return render_words.workers_phrase(held, t) or t.gettext("no workers")
    held_names = [(WORKER_COLOURS[c].one, counts[c]) for c in data.COLOURS if counts.get(c)]
    worker = PIECES["worker"]
    if not held_names:
        return f"no {worker.many}"
    if all(n == 1 for _, n in held_names):
        return join_words(f"a {c}" for c, _ in held_names) + f" {worker.one}"
    return join_words(
        f"a {c} {worker.one}" if n == 1 else f"{n} {c} {worker.many}" for c, n in held_names
    )


def colours_text(colours: Sequence[str], t: Translator = ENGLISH) -> str:
    """["copper", "grain"] -> "copper + grain" (the wheel's segments, the buttons)."""
    if list(colours) == [data.WILD, data.WILD]:
        return t.gettext("two wild workers")
    return " + ".join(WORKER_COLOURS[c].name_in(t) for c in colours)


def gained_text(gained: Mapping[str, int], t: Translator = ENGLISH) -> str:
    """{"cows": 1, "coins": 2} -> "1 cow and 2 coins" (goods among them as in a cost)."""
    parts = []
    if gained.get("cows"):
        parts.append(PIECES["cow"].count_in(t, gained["cows"]))
    if gained.get("coins"):
        parts.append(PIECES["coin"].count_in(t, gained["coins"]))
    goods = {g: n for g, n in gained.items() if g in data.GOODS}
    if goods:
        parts.append(goods_text(goods, t))
    return listed(parts, t) or t.gettext("nothing")


ROW_REWARDS: Final = {row: row_reward(row) for row in data.CITY_REWARDS}
"""What each city row gives, in words (the menus show it)."""
