"""One `Translator` per language, read from the catalogue's `.po` file on first use.

The `.po` files are the only form the translations take in the repository: they are
compiled in memory when a language is first asked for (tens of milliseconds; see
`python -m i18n stats`), so there is no build step and no compiled file to forget.
"""

from __future__ import annotations

import functools
import gettext
import io
import logging
import string
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .commands import COMMAND_FIELD_PREFIX, CommandField, is_command_field
from .languages import SOURCE_LANGUAGE, Language
from .messages import Message

log = logging.getLogger(__name__)

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"
TEMPLATE_PATH = CATALOGUE_DIR / "messages.pot"
"""The English source strings, as extracted from the code (`python -m i18n extract`)."""


def po_path(language: Language) -> Path:
    """The translations of one language (none for English, the source)."""
    return CATALOGUE_DIR / f"{language}.po"


def placeholders(text: str) -> set[str]:
    """The named fields of a `str.format` template: "{who} paid {n}" -> {"who", "n"}."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


class Translator:
    """The words of one language.

    Every call takes the English source and named fields, and returns the translation
    with the fields filled in (`str.format` syntax: `{who}`; a literal brace is `{{`):

        t.gettext("{who} built on {field}", who="Ana", field="C4")
        t.ngettext("{n} cow", "{n} cows", 5)             # the count fills {n}
        t.pgettext("area", "mine")                       # same English, other meaning
        t.npgettext("count", "{n} coin", "{n} coins", 3)
        t.translate(AREA_NAMES["mine"])                  # a Message marked elsewhere

    A string the catalogue lacks comes out in English. A translation whose fields do not
    match the source's (the catalogue test forbids it) is logged and replaced by the
    English, so a slip in a catalogue never costs a player an answer.
    """

    def __init__(self, language: Language, translations: gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    @classmethod
    def from_po(cls, language: Language, po_file: IO[bytes]) -> Translator:
        """A translator for the `.po` text in `po_file` (fuzzy entries are left out)."""
        catalog = read_po(po_file, locale=language)
        compiled = io.BytesIO()
        write_mo(compiled, catalog, use_fuzzy=False)
        compiled.seek(0)
        return cls(language, gettext.GNUTranslations(compiled))

    def gettext(self, message: str, /, **fields: object) -> str:
        return self._fill(self._translations.gettext(message), message, fields)

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        source = singular if n == 1 else plural
        translated = self._translations.ngettext(singular, plural, n)
        return self._fill(translated, source, {"n": n, **fields})

    def pgettext(self, context: str, message: str, /, **fields: object) -> str:
        return self._fill(self._translations.pgettext(context, message), message, fields)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **fields: object
    ) -> str:
        source = singular if n == 1 else plural
        translated = self._translations.npgettext(context, singular, plural, n)
        return self._fill(translated, source, {"n": n, **fields})

    def translate(self, message: Message, /, *, n: int | None = None, **fields: object) -> str:
        """A marked `Message` in this language; a counted one needs its count `n`."""
        if message.plural is None:
            if n is not None:
                fields = {"n": n, **fields}
            if message.context is None:
                return self.gettext(message.id, **fields)
            return self.pgettext(message.context, message.id, **fields)
        if n is None:
            raise TypeError(f"{message.id!r} is counted: pass its count as n=")
        if message.context is None:
            return self.ngettext(message.id, message.plural, n, **fields)
        return self.npgettext(message.context, message.id, message.plural, n, **fields)

    def lookup(self, context: str | None, message: str) -> str | None:
        """The catalogue's own translation of `message`, unformatted; None where it has
        none or keeps the English (Discord then shows the English default itself)."""
        if context is None:
            translated = self._translations.gettext(message)
        else:
            translated = self._translations.pgettext(context, message)
        return None if translated == message else translated

    def _fill(self, translated: str, source: str, fields: Mapping[str, object]) -> str:
        fields = _Fields(self, fields)
        try:
            return translated.format_map(fields)
        except (KeyError, IndexError, ValueError) as error:
            if translated == source:
                raise
            log.warning(
                "%s translation of %r does not fit its fields (%s); English used",
                self.language,
                source,
                error,
            )
            return source.format_map(fields)


class _Fields(dict[str, object]):
    """A message's fields, and its commands (`{/game new}`, `i18n.commands`) named for
    this translator's reader."""

    def __init__(self, t: Translator, fields: Mapping[str, object]) -> None:
        super().__init__(fields)
        self.t = t

    def __missing__(self, key: str) -> object:
        if is_command_field(key):
            return CommandField(self.t, key[len(COMMAND_FIELD_PREFIX) :])
        raise KeyError(key)


@functools.cache
def translator(language: Language) -> Translator:
    """The translator of `language`, loaded once per process."""
    if language == SOURCE_LANGUAGE:
        return Translator(language, gettext.NullTranslations())
    with po_path(language).open("rb") as po_file:
        return Translator.from_po(language, po_file)
