"""Issue 13: the catalogue's core terms are the ones its language's glossary lists
(i18n/glossary/*.md, taken from the rulebooks), so reviewers check them in one place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from i18n import TRANSLATED_LANGUAGES, Language, terms, translator

GLOSSARY_DIR = Path(terms.__file__).parent / "glossary"
COUNT_ONE = re.compile(r"\s*1\s*(個|枚)?\s*")


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_every_seeded_term_is_in_the_glossary(language: Language) -> None:
    glossary = (GLOSSARY_DIR / f"{language}.md").read_text(encoding="utf-8").casefold()
    t = translator(language)
    names = [t.translate(m) for m in terms.ACTIONS + terms.AREAS]
    counted = [COUNT_ONE.sub("", t.translate(m, n=1)) for m in terms.GOODS + terms.PIECES]
    missing = [term for term in names + counted if term.casefold() not in glossary]
    assert missing == []
