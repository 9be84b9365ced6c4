r"""The words each glossary rejects (`glossary/<language>.md`, section "Rejected words").

A glossary names one term per game concept, the rulebook's; its table of rejected words
lists the other words translators used for a concept (a synonym, or the rulebook's word
for something else), each a regular expression in backticks. `python -m i18n check` and
the tests report every translation that matches one, so a word that was put right
cannot come back.

Every pattern is matched without regard to case ("Dernier tour" at the start of a
sentence is "dernier tour"), so a pattern is written in lower case; it should cover the
word's every form: a stem for Polish cases (`stołów(?:k|ek)\w*`), `s?` and both apostrophes
for French (`cantines?`, `d[’']une`), a substring for Japanese (`食堂`), with lookarounds
where the same letters are a legitimate word (`(?<![パリ])ターン` lets パターン through).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog

from .languages import Language

GLOSSARY_DIR = Path(__file__).resolve().parent / "glossary"
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_CODE = re.compile(r"`([^`]+)`")
"""The rejected cell's first span in backticks: the pattern (a note may follow it)."""


@dataclass(frozen=True)
class Rejected:
    concept: str
    term: str
    pattern: re.Pattern[str]


def glossary_path(language: Language) -> Path:
    return GLOSSARY_DIR / f"{language}.md"


def rejected_words(text: str) -> list[Rejected]:
    """The rows of the glossary's table under a heading that says "rejected"."""
    found: list[Rejected] = []
    in_section = False
    for line in text.splitlines():
        if line.startswith("#"):
            in_section = "rejected" in line.casefold()
            continue
        if not in_section or not line.startswith("|"):
            continue
        cells = [cell.strip().replace("\\|", "|") for cell in _CELL_SPLIT.split(line)[1:-1]]
        pattern = _CODE.match(cells[2]) if len(cells) >= 3 else None
        if pattern is None:
            continue  # the header and its rule
        found.append(Rejected(cells[0], cells[1], re.compile(pattern.group(1), re.IGNORECASE)))
    return found


def glossary_problems(language: Language, catalog: Catalog, text: str | None = None) -> list[str]:
    """Each translation of `catalog` that uses a word the glossary of `language` rejects
    (`text`: the glossary's text, read from its file by default)."""
    if text is None:
        text = glossary_path(language).read_text(encoding="utf-8")
    rules = rejected_words(text)
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        forms = (message.string,) if isinstance(message.string, str) else message.string or ()
        source = message.id if isinstance(message.id, str) else message.id[0]
        for rule in rules:
            for form in forms:
                hit = rule.pattern.search(form or "")
                if hit is not None:
                    found.append(
                        f"{language}: {source!r}: {hit.group(0)!r} is rejected for "
                        f"{rule.concept} (the rulebook's term: {rule.term}) in {form!r}"
                    )
                    break
    return found
