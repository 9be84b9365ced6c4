"""The one vocabulary of the game: a single name for every good, worker, area, part of
the board, piece and action, marked for translation (en, fr, pl, ja; i18n/README.md).

The pictures take every word they write for a thing of the game from these tables
(their labels, the legend, the sentences of `render.words`), and the bot imports them
for its messages and menus, so a player meets one name per thing, in their language,
and can find it in the picture's legend with its icon. Player-facing words live here or
in `render.words`, never as literals in the drawing code.

Keys are the engine's names (`rules.data`), so `GOODS["bigcopper"]` names the good the
notation writes `bigcopper`. Each entry is an English `Message`, translated where it is
shown: `t.translate(GOODS["grain"].name)`, `t.translate(GOODS["grain"].counted, n=5)`.

Contexts tell translators the role of the same English in different places:
"good", "worker colour", "player colour", "area" (a place on the worker board, a bare
noun), "board" (another part of the boards), "piece", "action" (a main action's name,
as on a button), "hint" (a few words after a name in the legend), "count" (a counted
piece in a list, "Koszt: 1 dynia + 2 zboża": the nominative, number first), "worker"
(one worker of a colour, with the language's article: "a copper worker"), and "label"
(the pictures' short labels).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from i18n import (
    SOURCE_LANGUAGE,
    Message,
    Translator,
    translatable_in,
    translatable_plural_in,
    translator,
)


@dataclass(frozen=True)
class Term:
    """The name of a thing, its counted form when it is counted, a hint for the legend,
    and the letter drawn on its pieces."""

    name: Message
    """The bare name: a label, a title, an entry of the legend."""
    counted: Message | None = None
    """"{n} cow" / "{n} cows", in the "count" context."""
    hint: Message | None = None
    """A few words saying what the thing is or does (None when the name says it)."""
    letter: str = ""
    """The letter drawn on a piece of this colour (colour is never the only clue). The
    same Latin letter in every language: it is the initial of the colour word players
    type in the notation (`take copper grain`), and each legend explains it."""

    @property
    def one(self) -> str:
        """The English name ("small copper")."""
        return self.name.id

    @property
    def many(self) -> str:
        """The English plural ("pumpkins"): the counted plural without its number."""
        if self.counted is None or self.counted.plural is None:
            return self.name.id
        return self.counted.plural.replace("{n} ", "", 1)

    @property
    def phrase(self) -> str:
        """The English name inside a sentence: "Cow trade" -> "cow trade"."""
        return self.one[:1].lower() + self.one[1:]

    def count(self, n: int) -> str:
        """ "1 pumpkin", "2 pumpkins": the English count (`count_in` for a language)."""
        return self.count_in(translator(SOURCE_LANGUAGE), n)

    def name_in(self, t: Translator) -> str:
        return t.translate(self.name)

    def count_in(self, t: Translator, n: int) -> str:
        """ "5 krów": the count and the counted noun in `t`'s language."""
        if self.counted is None:
            raise TypeError(f"{self.name.id!r} is not counted")
        return t.translate(self.counted, n=n)

    def hint_in(self, t: Translator) -> str:
        return t.translate(self.hint) if self.hint is not None else ""


@dataclass(frozen=True)
class WorkerWords:
    """How sentences count workers of one colour: "a copper worker", "{n} copper workers"."""

    single: Message
    counted: Message

    def phrase(self, t: Translator, n: int) -> str:
        return t.translate(self.single) if n == 1 else t.translate(self.counted, n=n)


GOODS: Final = {
    "grain": Term(
        translatable_in("good", "grain"),
        translatable_plural_in("count", "{n} grain", "{n} grain"),
    ),
    "pumpkin": Term(
        translatable_in("good", "pumpkin"),
        translatable_plural_in("count", "{n} pumpkin", "{n} pumpkins"),
    ),
    "copper": Term(
        translatable_in("good", "small copper"),
        translatable_plural_in("count", "{n} small copper", "{n} small copper"),
    ),
    "stone": Term(
        translatable_in("good", "small stone"),
        translatable_plural_in("count", "{n} small stone", "{n} small stone"),
    ),
    "bigcopper": Term(
        translatable_in("good", "large copper"),
        translatable_plural_in("count", "{n} large copper", "{n} large copper"),
        translatable_in("hint", "only from city upgrades"),
    ),
    "bigstone": Term(
        translatable_in("good", "large stone"),
        translatable_plural_in("count", "{n} large stone", "{n} large stone"),
        translatable_in("hint", "only from city upgrades"),
    ),
}
"""The six goods. Small and large copper (and stone) are different goods."""

GOOD: Final = Term(
    translatable_in("good", "good"), translatable_plural_in("count", "{n} good", "{n} goods")
)
"""Any of the six goods."""

WORKER_COLOURS: Final = {
    "copper": Term(translatable_in("worker colour", "copper"), letter="C"),
    "stone": Term(translatable_in("worker colour", "stone"), letter="S"),
    "grain": Term(translatable_in("worker colour", "grain"), letter="G"),
    "pumpkin": Term(translatable_in("worker colour", "pumpkin"), letter="P"),
    "wild": Term(
        translatable_in("worker colour", "wild"),
        hint=translatable_in("hint", "any colour you choose"),
        letter="?",
    ),
}
"""Worker colours, the colour of a good (the legend's "C copper")."""

WORKERS: Final = {
    "copper": WorkerWords(
        translatable_in("worker", "a copper worker"),
        translatable_plural_in("count", "{n} copper worker", "{n} copper workers"),
    ),
    "stone": WorkerWords(
        translatable_in("worker", "a stone worker"),
        translatable_plural_in("count", "{n} stone worker", "{n} stone workers"),
    ),
    "grain": WorkerWords(
        translatable_in("worker", "a grain worker"),
        translatable_plural_in("count", "{n} grain worker", "{n} grain workers"),
    ),
    "pumpkin": WorkerWords(
        translatable_in("worker", "a pumpkin worker"),
        translatable_plural_in("count", "{n} pumpkin worker", "{n} pumpkin workers"),
    ),
    "wild": WorkerWords(
        translatable_in("worker", "a wild worker"),
        translatable_plural_in("count", "{n} wild worker", "{n} wild workers"),
    ),
}
"""Workers of one colour in a sentence: one with its article, or counted."""

PLAYER_COLOURS: Final = {
    "blue": Term(translatable_in("player colour", "blue"), letter="B"),
    "yellow": Term(translatable_in("player colour", "yellow"), letter="Y"),
    "green": Term(translatable_in("player colour", "green"), letter="G"),
    "red": Term(translatable_in("player colour", "red"), letter="R"),
}
"""The players' colours (settlements and representatives)."""

AREAS: Final = {
    "mine": Term(translatable_in("area", "mine")),
    "quarry": Term(translatable_in("area", "quarry")),
    "wheatfield": Term(translatable_in("area", "grain field")),
    "garden": Term(translatable_in("area", "pumpkin garden")),
}
"""The four harvest areas of the worker board (the notation writes their keys)."""

BOARD: Final = {
    "wheel": Term(translatable_in("board", "wheel")),
    "bank": Term(translatable_in("area", "bank")),
    "city": Term(translatable_in("area", "city")),
    "shop": Term(translatable_in("area", "shop building")),
    "supply": Term(
        translatable_in("board", "supply"), hint=translatable_in("hint", "what is left to take")
    ),
    "landscape": Term(translatable_in("board", "landscape")),
    "large_box": Term(
        translatable_in("board", "harvest box"),
        hint=translatable_in("hint", "pay coins, take goods"),
    ),
    "small_box": Term(
        translatable_in("board", "extra box"), hint=translatable_in("hint", "+1 more, no coins")
    ),
    "bank_space": Term(translatable_in("board", "bank space")),
    "place": Term(translatable_in("board", "place")),
    "row": Term(translatable_in("board", "row")),
    "column": Term(translatable_in("board", "column")),
    "segment": Term(
        translatable_in("board", "segment"),
        translatable_plural_in("count", "{n} segment", "{n} segments"),
    ),
    "start_tile": Term(translatable_in("board", "start tile")),
}
"""Parts of the boards. A harvest place has two boxes: the harvest box (pay its
coins, take its goods) and the extra box beside it (+1 more good, no coins); the
rulebook calls them the large and the small box."""

PIECES: Final = {
    "coin": Term(
        translatable_in("piece", "coin"), translatable_plural_in("count", "{n} coin", "{n} coins")
    ),
    "cow": Term(
        translatable_in("piece", "cow"),
        translatable_plural_in("count", "{n} cow", "{n} cows"),
        translatable_in("hint", "trade for a good, a worker or 3 coins"),
    ),
    "canteen": Term(
        translatable_in("piece", "canteen"),
        translatable_plural_in("count", "{n} canteen", "{n} canteens"),
        translatable_in("hint", "spend for another turn"),
    ),
    "settlement": Term(
        translatable_in("piece", "settlement"),
        translatable_plural_in("count", "{n} settlement", "{n} settlements"),
    ),
    "worker": Term(
        translatable_in("piece", "worker"),
        translatable_plural_in("count", "{n} worker", "{n} workers"),
    ),
    "representative": Term(translatable_in("piece", "representative")),
}

ACTIONS: Final = {
    "recruit": Term(
        translatable_in("action", "Recruit"),
        hint=translatable_in("hint", "spin the wheel, take its 2 workers"),
    ),
    "work": Term(
        translatable_in("action", "Work"),
        hint=translatable_in("hint", "the bank, a harvest or the city"),
    ),
    "build": Term(
        translatable_in("action", "Build"), hint=translatable_in("hint", "up to 3 fields")
    ),
    "trade": Term(translatable_in("action", "Cow trade")),
    "upgrade": Term(
        translatable_in("action", "Upgrade"),
        translatable_plural_in("count", "{n} upgrade", "{n} upgrades"),
        hint=translatable_in("hint", "give back a small one, take a large one"),
    ),
    "advance": Term(translatable_in("action", "Move the arrow")),
    "return": Term(
        translatable_in("action", "Give back"), hint=translatable_in("hint", "workers over 8")
    ),
    "stop": Term(translatable_in("action", "Stop building")),
    "pass": Term(translatable_in("action", "Pass")),
    "canteen": Term(translatable_in("action", "Use a canteen")),
    "end": Term(translatable_in("action", "End the turn")),
}
"""The main actions and the others with a name of their own (the notation's verbs are
their keys), as a button names them."""

LABELS: Final = {
    "turn_tag": translatable_in("label", "TURN"),
    "awaited_tag": translatable_in("label", "TO PLAY"),
    "start_player_tag": translatable_in("label", "START"),
    "start_tile": translatable_in("start tile", "START"),
    "final_ranking": translatable_in("label", "Final ranking"),
    "final_round": translatable_in("label", "final round"),
}
"""Short labels of the pictures that are not names of things: the tags of a player
board (whose turn it is, who must play now, the start player) and the start tile."""

TABLES: Final = (GOODS, WORKER_COLOURS, PLAYER_COLOURS, AREAS, BOARD, PIECES, ACTIONS)


def vocabulary_words(t: Translator) -> set[str]:
    """Every word of every table in `t`'s language, lower-cased (a test checks the
    pictures' labels against them)."""
    texts: list[str] = [t.translate(label) for label in LABELS.values()]
    for table in TABLES:
        for term in table.values():
            texts += [term.name_in(t), term.hint_in(t), term.letter]
            if term.counted is not None:
                texts += [term.count_in(t, n) for n in (1, 2, 5)]
    texts += [term.count_in(t, n) for term in (GOOD,) for n in (1, 2, 5)]
    for worker in WORKERS.values():
        texts += [worker.phrase(t, n) for n in (1, 2, 5)]
    return {word for text in texts for word in words_of(text)}


def words_of(text: str) -> list[str]:
    """The words of `text`, lower-cased, without punctuation, digits or symbols."""
    cleaned = ("".join(c for c in part if c.isalpha()).lower() for part in text.split())
    return [word for word in cleaned if word]
