"""Strings marked for translation where they are defined, translated where they are used.

A module-level table cannot be translated when it is built (the language is known only
when a message is sent), so its entries are `Message`s: the English source with its
plural and context, found by the extraction like any `gettext` call, and turned into
words by `Translator.translate(message, ...)` at the moment they are shown.

    AREA_NAMES = {"mine": translatable_in("area", "mine"), ...}
    t.translate(AREA_NAMES["mine"])                      # "kopalnia"
    COWS = translatable_plural("{n} cow", "{n} cows")
    t.translate(COWS, n=5)                               # "5 krów"
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """An English source string (`id`), its English plural if it is counted, and the
    context that tells it apart from the same English words used elsewhere."""

    id: str
    plural: str | None = None
    context: str | None = None


def translatable(id: str) -> Message:
    return Message(id)


def translatable_in(context: str, id: str) -> Message:
    return Message(id, context=context)


def translatable_plural(singular: str, plural: str) -> Message:
    return Message(singular, plural=plural)


def translatable_plural_in(context: str, singular: str, plural: str) -> Message:
    return Message(singular, plural=plural, context=context)
