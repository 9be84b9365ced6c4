"""Issue 13: which language a Discord locale gets — fr, pl and ja their own, English
(en-US, en-GB) and every other locale English."""

from __future__ import annotations

import discord
import pytest

from i18n import LANGUAGES, language_for_locale


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("fr", "fr"),
        ("pl", "pl"),
        ("ja", "ja"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("de", "en"),
        ("pt-BR", "en"),
        ("zh-TW", "en"),
        ("fr-CA", "fr"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_a_locale_string_maps_to_a_language(locale: str | None, language: str) -> None:
    assert language_for_locale(locale) == language


def test_every_discord_locale_gets_one_of_our_languages() -> None:
    """discord.Locale members are accepted as they are (interaction.locale)."""
    mapped = {locale: language_for_locale(locale) for locale in discord.Locale}
    assert set(mapped.values()) == set(LANGUAGES)
    assert mapped[discord.Locale.french] == "fr"
    assert mapped[discord.Locale.polish] == "pl"
    assert mapped[discord.Locale.japanese] == "ja"
    assert [locale for locale, language in mapped.items() if language != "en"] == [
        discord.Locale.french,
        discord.Locale.japanese,
        discord.Locale.polish,
    ]
