"""The languages the bot speaks, and which one a Discord locale gets."""

from __future__ import annotations

from typing import Literal, TypeGuard

Language = Literal["en", "fr", "pl", "ja"]

LANGUAGES: tuple[Language, ...] = ("en", "fr", "pl", "ja")
"""Every language with a catalogue; English is the source the code is written in."""
SOURCE_LANGUAGE: Language = "en"
TRANSLATED_LANGUAGES: tuple[Language, ...] = tuple(
    language for language in LANGUAGES if language != SOURCE_LANGUAGE
)
LANGUAGE_NAMES: dict[Language, str] = {
    "en": "English",
    "fr": "Français",
    "pl": "Polski",
    "ja": "日本語",
}
"""Each language's own name for itself: what a language choice shows, never translated."""


def is_language(code: object) -> TypeGuard[Language]:
    return code in LANGUAGES


def language_for_locale(locale: object) -> Language:
    """The language for a Discord locale (`interaction.locale`, `guild.preferred_locale`,
    or their string value): `fr` → fr, `pl` → pl, `ja` → ja, `en-US`/`en-GB` and every
    locale we have no catalogue for → en. Only the part before `-` counts, so a future
    `fr-CA` would get French too.
    """
    if locale is None:
        return SOURCE_LANGUAGE
    primary = str(locale).strip().replace("_", "-").split("-")[0].lower()
    return primary if is_language(primary) else SOURCE_LANGUAGE
