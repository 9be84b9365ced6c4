"""Message catalogues (gettext `.po` files read through Babel) for en, fr, pl, ja.

    from i18n import translator, language_for_locale

    t = translator(language_for_locale(interaction.locale))   # the user's language
    t.gettext("{who} built on {field}", who="Ana", field="C4")
    t.ngettext("{n} cow", "{n} cows", 5)                      # "5 krów" in Polish

See `i18n/README.md`: how to mark a string, extract, update, check, add a language,
and who sees which language. Imports neither `render` nor `bot`; both may import it.
"""

from .languages import (
    LANGUAGE_NAMES,
    LANGUAGES,
    SOURCE_LANGUAGE,
    TRANSLATED_LANGUAGES,
    Language,
    is_language,
    language_for_locale,
)
from .messages import (
    Message,
    translatable,
    translatable_in,
    translatable_plural,
    translatable_plural_in,
)
from .translator import Translator, placeholders, translator

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "SOURCE_LANGUAGE",
    "TRANSLATED_LANGUAGES",
    "Language",
    "Message",
    "Translator",
    "is_language",
    "language_for_locale",
    "placeholders",
    "translatable",
    "translatable_in",
    "translatable_plural",
    "translatable_plural_in",
    "translator",
]
