"""Issue 13: a translator fills named fields into its language's words, falls back to
English for what its catalogue lacks, and never lets a faulty translation cost an answer."""

from __future__ import annotations

import io
import logging

import pytest

from i18n import Translator, translatable, translatable_in, translatable_plural, translator

POLISH = """
msgid ""
msgstr ""
"Language: pl\\n"

msgid "{who} built on {field}"
msgstr "{who} buduje na polu {field}"

msgid "{who} passed"
msgstr "{kto} pasuje"

#, fuzzy
msgid "End turn"
msgstr "Koniec tury"

msgctxt "area"
msgid "bank"
msgstr "bank"

msgctxt "area"
msgid "mine"
msgstr "kopalnia"
"""


def polish() -> Translator:
    return Translator.from_po("pl", io.BytesIO(POLISH.encode()))


def test_fields_are_filled_into_the_translation() -> None:
    assert polish().gettext("{who} built on {field}", who="Ana", field="C4") == (
        "Ana buduje na polu C4"
    )
    assert translator("en").gettext("{who} built on {field}", who="Ana", field="C4") == (
        "Ana built on C4"
    )


def test_a_string_the_catalogue_lacks_or_has_not_confirmed_stays_english() -> None:
    assert polish().gettext("Pass") == "Pass"
    assert polish().gettext("End turn") == "End turn"  # fuzzy: not yet confirmed


def test_a_translation_with_other_fields_gives_the_english_and_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="i18n.translator"):
        assert polish().gettext("{who} passed", who="Ana") == "Ana passed"
    assert "'{who} passed' does not fit its fields" in caplog.text


def test_a_missing_field_in_the_code_is_an_error_not_a_silent_gap() -> None:
    with pytest.raises(KeyError):
        translator("en").gettext("{who} built on {field}", who="Ana")


def test_marked_messages_are_translated_where_they_are_used() -> None:
    assert polish().translate(translatable_in("area", "mine")) == "kopalnia"
    assert translator("en").translate(translatable("Pass")) == "Pass"
    cows = translatable_plural("{n} cow", "{n} cows")
    assert translator("en").translate(cows, n=2) == "2 cows"
    with pytest.raises(TypeError, match="pass its count"):
        translator("en").translate(cows)


def test_lookup_tells_a_translation_from_the_english_default() -> None:
    """What the Discord translator needs: None where Discord may show the English."""
    assert polish().lookup("area", "mine") == "kopalnia"
    assert polish().lookup("area", "bank") is None  # same word in Polish
    assert polish().lookup(None, "Pass") is None
    assert polish().lookup(None, "{who} built on {field}") == "{who} buduje na polu {field}"


def test_each_language_is_loaded_once() -> None:
    assert translator("fr") is translator("fr")
    assert translator("pl").language == "pl"
