"""Issue 13: counted words take each language's own plural forms — Polish three
(1 krowa, 2 krowy, 5 krów, 22 krowy, 25 krów), French three (0 and 1 singular, the
"many" form of whole millions: 1 000 000 de vaches — CLDR's rule as Babel 2.19 gives it),
Japanese none."""

from __future__ import annotations

import pytest

from i18n import build, translator
from i18n.translator import po_path
from render.vocabulary import PIECES

COWS = ("count", "{n} cow", "{n} cows")


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, "1 krowa"),
        (2, "2 krowy"),
        (4, "4 krowy"),
        (5, "5 krów"),
        (12, "12 krów"),
        (22, "22 krowy"),
        (25, "25 krów"),
        (0, "0 krów"),
        (112, "112 krów"),
    ],
)
def test_polish_cows_take_the_three_forms(n: int, expected: str) -> None:
    assert translator("pl").npgettext(*COWS, n) == expected


def test_a_marked_plural_message_is_counted_the_same_way() -> None:
    polish = translator("pl")
    cows = [PIECES["cow"].count_in(polish, n) for n in (1, 3, 5)]
    assert cows == ["1 krowa", "3 krowy", "5 krów"]
    coins = [PIECES["coin"].count_in(polish, n) for n in (1, 2, 5)]
    assert coins == ["1 moneta", "2 monety", "5 monet"]


def test_japanese_has_one_form_for_every_count() -> None:
    japanese = translator("ja")
    assert {japanese.npgettext(*COWS, n).replace(str(n), "N") for n in (1, 2, 5, 22)} == {"牛N個"}
    catalog = build.read_catalog(po_path("ja"), "ja")
    assert catalog.num_plurals == 1
    assert all(len(build.texts(entry.string)) == 1 for entry in catalog if entry.pluralizable)


def test_french_zero_and_one_are_singular() -> None:
    french = translator("fr")
    assert [french.npgettext(*COWS, n) for n in (0, 1, 2)] == ["0 vache", "1 vache", "2 vaches"]


def test_french_whole_millions_take_the_many_form() -> None:
    """CLDR's French "many" (n != 0 and n % 1 000 000 == 0): un million de vaches; every
    French plural entry has the three forms, so none falls back to the English."""
    french = translator("fr")
    counts = (1_000_000, 2_000_000, 1_000_001, 999_999)
    assert [french.npgettext(*COWS, n) for n in counts] == [
        "1000000 de vaches",
        "2000000 de vaches",
        "1000001 vaches",
        "999999 vaches",
    ]
    catalog = build.read_catalog(po_path("fr"), "fr")
    assert catalog.num_plurals == 3
    assert all(len(build.texts(entry.string)) == 3 for entry in catalog if entry.pluralizable)


def test_english_is_the_source_one_and_many() -> None:
    english = translator("en")
    assert [english.npgettext(*COWS, n) for n in (0, 1, 2)] == ["0 cows", "1 cow", "2 cows"]
