"""Issue 13: the catalogue's core terms are the ones its language's glossary lists
(i18n/glossary/*.md, taken from the rulebooks), so reviewers check them in one place.
The terms are the vocabulary's (render/vocabulary.py), the one table of names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from i18n import TRANSLATED_LANGUAGES, Language, build, translator
from i18n.glossary import glossary_path, glossary_problems, rejected_words
from i18n.translator import po_path
from render.vocabulary import ACTIONS, AREAS, BOARD, GOODS, LABELS, PIECES, TABLES

GLOSSARY_DIR = Path(i18n.__file__).parent / "glossary"
CORE_NAMES = (
    *(ACTIONS[a].name for a in ("recruit", "work", "build", "trade")),
    *(term.name for term in AREAS.values()),
    *(BOARD[part].name for part in ("bank", "city", "shop")),
)
"""The rulebooks' names of the main actions and the areas of the worker board."""
COUNTED = tuple(
    term.counted
    for term in (
        *GOODS.values(),
        *(PIECES[p] for p in ("cow", "coin", "worker", "settlement", "canteen")),
    )
    if term.counted is not None
)
COUNT_ONE = re.compile(r"\s*1\s*(個|枚)?\s*")


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_seeded_term_is_in_the_glossary(language: Language) -> None:
    glossary = (GLOSSARY_DIR / f"{language}.md").read_text(encoding="utf-8").casefold()
    t = translator(language)
    names = [t.translate(m) for m in CORE_NAMES]
    counted = [COUNT_ONE.sub("", t.translate(m, n=1)) for m in COUNTED]
    missing = [term for term in names + counted if term.casefold() not in glossary]
    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_word_of_the_vocabulary_is_in_the_glossary(language: Language) -> None:
    """Issue 24.2: the glossary is complete for every name of `render/vocabulary.py`
    (goods, colours, areas, board parts, pieces, actions, the pictures' labels), so a
    reviewer finds each term the pictures and buttons show in one table."""
    glossary = (GLOSSARY_DIR / f"{language}.md").read_text(encoding="utf-8").casefold()
    t = translator(language)
    names = [term.name_in(t) for table in TABLES for term in table.values()]
    names += [t.translate(label) for label in LABELS.values()]
    assert [name for name in names if name.casefold() not in glossary] == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_no_translation_uses_a_word_its_glossary_rejects(language: Language) -> None:
    rules = rejected_words(glossary_path(language).read_text(encoding="utf-8"))
    assert len(rules) >= 5  # the issue's own list, at least
    catalog = build.read_catalog(po_path(language), language)
    assert glossary_problems(language, catalog) == []


PUT_BACK = {
    # a word the issue found, put back into a real translation of the catalogue
    "fr": ("That harvest place is not available to you now.", "emplacement de récolte", "récolte"),
    "pl": ("a bonus settlement for a line of 4", "dodatkow", "premiow"),
    "ja": ("choose 3 goods", "商品", "資源"),
}


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_the_check_fails_when_a_rejected_word_is_put_back(language: Language) -> None:
    """The same catalogue with one rejected word put back into one translation: the
    glossary check names it (so the test above can fail)."""
    source, right, rejected = PUT_BACK[language]
    catalog = build.read_catalog(po_path(language), language)
    before = set(glossary_problems(language, catalog))
    entry = next(m for m in catalog if m.id == source or (m.id and m.id[0] == source))
    forms = list(build.texts(entry.string))
    assert right in forms[0]
    put_back = [form.replace(right, rejected) for form in forms]
    if language == "fr":  # « Cet emplacement de récolte » -> « Cette récolte »
        put_back = [form.replace("Cet récolte", "Cette récolte") for form in put_back]
    entry.string = put_back[0] if isinstance(entry.string, str) else tuple(put_back)
    found = [p for p in glossary_problems(language, catalog) if p not in before]
    assert len(found) == 1 and source in found[0] and "is rejected for" in found[0]


FORMS = {
    # Issue 36.2: every form a rejected word takes is caught, whatever its case, and the
    # legitimate words that share its letters are not.
    "fr": (
        ["vaches et Cantines", "une cantine", "Dernier tour (3)", "la Salle d'attente"],
        ["dernier tour de table", "une gourde", "tour précédent (3)"],
    ),
    "pl": (
        ["krowy i stołówki", "ze Stołówką", "bez stołówek", "SI-ruch", "Ostatnia tura"],
        ["krowy i manierki", "bez stołów", "ostatnia runda", "poprzednia tura"],
    ),
    "ja": (
        ["牛と食堂", "町の競り", "各ターンの終わり", "銀行、生産、市街地"],
        ["パターン", "リターン", "下町", "町内", "生産地域", "手番", "市街地"],
    ),
}


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_rejected_words_are_caught_in_every_form_and_case(language: Language) -> None:
    rules = rejected_words(glossary_path(language).read_text(encoding="utf-8"))
    caught, let_through = FORMS[language]
    assert [text for text in caught if not any(r.pattern.search(text) for r in rules)] == []
    assert [text for text in let_through if any(r.pattern.search(text) for r in rules)] == []
