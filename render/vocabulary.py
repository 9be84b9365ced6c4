"""The one vocabulary of the game: a single name for every good, worker, area, part of
the board, piece and action, in English.

The pictures take every word they write for a thing of the game from these tables
(their labels, the legend, the sentences of `render.words`), and the bot imports them
for its messages and menus, so a player meets one name per thing and can find it in
the picture's legend with its icon. A later issue translates them: player-facing
words live here or in `render.words`, never as literals in the drawing code.

Keys are the engine's names (`rules.data`), so `GOODS["bigcopper"]` names the good the
notation writes `bigcopper`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Term:
    """A name in its singular and plural forms, and a hint for the legend."""

    one: str
    many: str
    hint: str = ""
    """A few words saying what the thing is or does ("" when the name says it)."""
    letter: str = ""
    """The letter drawn on a piece of this colour (colour is never the only clue)."""

    def count(self, n: int) -> str:
        """ "1 pumpkin", "2 pumpkins"."""
        return f"{n} {self.one if n == 1 else self.many}"


GOODS: Final = {
    "grain": Term("grain", "grain"),
    "pumpkin": Term("pumpkin", "pumpkins"),
    "copper": Term("small copper", "small copper"),
    "stone": Term("small stone", "small stone"),
    "bigcopper": Term("large copper", "large copper", "only from city upgrades"),
    "bigstone": Term("large stone", "large stone", "only from city upgrades"),
}
"""The six goods. Small and large copper (and stone) are different goods."""

WORKER_COLOURS: Final = {
    "copper": Term("copper", "copper", letter="C"),
    "stone": Term("stone", "stone", letter="S"),
    "grain": Term("grain", "grain", letter="G"),
    "pumpkin": Term("pumpkin", "pumpkin", letter="P"),
    "wild": Term("wild", "wild", "any colour you choose", letter="?"),
}
"""Worker colours, as the adjective in "a copper worker"."""

PLAYER_COLOURS: Final = {
    "blue": Term("blue", "blue", letter="B"),
    "yellow": Term("yellow", "yellow", letter="Y"),
    "green": Term("green", "green", letter="G"),
    "red": Term("red", "red", letter="R"),
}
"""The players' colours (settlements and representatives)."""

AREAS: Final = {
    "mine": Term("mine", "mines"),
    "quarry": Term("quarry", "quarries"),
    "wheatfield": Term("grain field", "grain fields"),
    "garden": Term("pumpkin garden", "pumpkin gardens"),
}
"""The four harvest areas of the worker board (the notation writes their keys)."""

BOARD: Final = {
    "wheel": Term("wheel", "wheels"),
    "bank": Term("bank", "banks"),
    "city": Term("city", "cities"),
    "supply": Term("supply", "supplies", "what is left to take"),
    "landscape": Term("landscape", "landscapes"),
    "large_box": Term("harvest box", "harvest boxes", "pay coins, take goods"),
    "small_box": Term("extra box", "extra boxes", "+1 more, no coins"),
    "bank_space": Term("bank space", "bank spaces"),
    "place": Term("place", "places"),
    "row": Term("row", "rows"),
    "column": Term("column", "columns"),
    "segment": Term("segment", "segments"),
    "start_tile": Term("start", "start"),
    "shop": Term("shop building", "shop buildings"),
}
"""Parts of the boards. A harvest place has two boxes: the harvest box (pay its
coins, take its goods) and the extra box beside it (+1 more good, no coins); the
rulebook calls them the large and the small box."""

PIECES: Final = {
    "coin": Term("coin", "coins"),
    "cow": Term("cow", "cows", "trade for a good, a worker or 3 coins"),
    "canteen": Term("canteen", "canteens", "spend for another turn"),
    "settlement": Term("settlement", "settlements"),
    "worker": Term("worker", "workers"),
    "representative": Term("representative", "representatives"),
}

ACTIONS: Final = {
    "recruit": Term("recruit", "recruit", "spin the wheel, take its 2 workers"),
    "work": Term("work", "work", "the bank, a harvest or the city"),
    "build": Term("build", "build", "up to 3 fields"),
    "trade": Term("trade a cow", "trade a cow"),
    "upgrade": Term("upgrade", "upgrades", "give back a small one, take a large one"),
    "advance": Term("move the arrow", "move the arrow"),
    "return": Term("give back", "give back", "workers over 8"),
    "stop": Term("stop building", "stop building"),
    "pass": Term("pass", "pass"),
    "canteen": Term("use a canteen", "use a canteen"),
    "end": Term("end the turn", "end the turn"),
}
"""Actions by the name players use (the notation's verbs are their keys)."""

LABELS: Final = {
    "turn_tag": "TURN",
    "awaited_tag": "TO PLAY",
    "start_tag": "START",
    "left": "left",
    "final_ranking": "Final ranking",
    "legend": "Legend",
    "pay_take": "pay → take",
    "last_turn": "last turn",
    "final_round": "final round",
}
"""Short labels of the pictures that are not names of things."""


def vocabulary_words() -> set[str]:
    """Every word of every table, lower-cased (a test checks the pictures' labels)."""
    texts: list[str] = list(LABELS.values())
    for table in (GOODS, WORKER_COLOURS, PLAYER_COLOURS, AREAS, BOARD, PIECES, ACTIONS):
        for term in table.values():
            texts += [term.one, term.many, term.hint, term.letter]
    return {word for text in texts for word in words_of(text)}


def words_of(text: str) -> list[str]:
    """The words of `text`, lower-cased, without punctuation, digits or symbols."""
    cleaned = ("".join(c for c in part if c.isalpha()).lower() for part in text.split())
    return [word for word in cleaned if word]
