"""The rulebooks' core terms, marked so that the catalogue carries them from the start.

These are the entries of the glossaries (`glossary/*.md`) that every other message
builds on: the actions, the areas, and the counted pieces. They are not a vocabulary
of the game (that is `render/vocabulary.py`, keyed by the engine's names): when
phase 2 marks that vocabulary with the same English, context and plural, these
entries move there and this module shrinks to what nothing else marks.

Contexts: "action" — the name of a main action, as on a button; "area" — a place on
the worker board, a bare noun without article; "count" — a counted piece in a list
("Koszt: 1 dynia + 2 zboża"), in the nominative.
"""

from __future__ import annotations

from .messages import Message, translatable_in, translatable_plural_in

ACTIONS: tuple[Message, ...] = (
    translatable_in("action", "Recruit"),
    translatable_in("action", "Work"),
    translatable_in("action", "Build"),
    translatable_in("action", "Cow trade"),
)

AREAS: tuple[Message, ...] = (
    translatable_in("area", "bank"),
    translatable_in("area", "mine"),
    translatable_in("area", "quarry"),
    translatable_in("area", "grain field"),
    translatable_in("area", "pumpkin garden"),
    translatable_in("area", "city"),
    translatable_in("area", "shop building"),
)

GOODS: tuple[Message, ...] = (
    translatable_plural_in("count", "{n} grain", "{n} grain"),
    translatable_plural_in("count", "{n} pumpkin", "{n} pumpkins"),
    translatable_plural_in("count", "{n} small copper", "{n} small copper"),
    translatable_plural_in("count", "{n} small stone", "{n} small stone"),
    translatable_plural_in("count", "{n} large copper", "{n} large copper"),
    translatable_plural_in("count", "{n} large stone", "{n} large stone"),
)

PIECES: tuple[Message, ...] = (
    translatable_plural_in("count", "{n} cow", "{n} cows"),
    translatable_plural_in("count", "{n} coin", "{n} coins"),
    translatable_plural_in("count", "{n} worker", "{n} workers"),
    translatable_plural_in("count", "{n} settlement", "{n} settlements"),
    translatable_plural_in("count", "{n} canteen", "{n} canteens"),
)
