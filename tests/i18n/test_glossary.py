"""Issue 13: the catalogue's core terms are the ones its language's glossary lists
(i18n/glossary/*.md, taken from the rulebooks), so reviewers check them in one place.
The terms are the vocabulary's (render/vocabulary.py), the one table of names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import i18n
from i18n import TRANSLATED_LANGUAGES, Language, translator
from render.vocabulary import ACTIONS, AREAS, BOARD, GOODS, PIECES

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
