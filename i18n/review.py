"""`python -m i18n review --since REF --lang fr`: every message of a language's catalogue
added or changed since a git revision, laid out for a reader (issue 36.3).

The catalogue at `REF` (`git show REF:i18n/catalogue/fr.po`) is compared with the one in
the working tree; an entry is listed when it is new, or when its msgid, plural or
translation differs. Each is printed with its English, its translation now (and before),
the glossary's terms it uses (`glossary/<language>.md`, the term tables) and up to two
sentences of the rulebook that use each term, so the reader checks the words against
the rulebook's without opening three files. Nothing is judged here: the output is for a
person, and the command always succeeds (docs/developers.md, "Translations").
"""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from .glossary import glossary_path
from .languages import Language

RULEBOOK_FILES = {"fr": "002_*.txt", "pl": "004_*.txt", "ja": "000_*.txt"}
"""Each language's rulebook among the shared seeds (the glossaries quote them)."""
RULEBOOK_DIRS = (Path(__file__).resolve().parents[2] / "shared" / "seeds",)
"""Where the rulebooks are looked for: `shared/seeds/` beside the repository."""
SENTENCES_PER_TERM = 2
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_MARKUP = re.compile(r"\*\*[^*]*\*\*|—.*$|\([^)]*\)|（[^）]*）|[«»„”“\"`]")
_TERM_SPLIT = re.compile(r"\s*(?:/|,|;|、)\s*")
_QUOTES = '«„“"「'
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


@dataclass(frozen=True)
class Term:
    english: str
    translation: str


@dataclass(frozen=True)
class Change:
    kind: str  # "added" or "changed"
    message: Message
    before: Message | None


def _forms(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(str(v or "") for v in value)
    return ()


def read_catalog_text(text: str | None, language: Language) -> Catalog:
    """A catalogue from the text of a `.po` file (an empty one for None)."""
    if text is None:
        return Catalog(locale=language)
    return read_po(io.BytesIO(text.encode("utf-8")), locale=language)


def catalogue_at(revision: str, path: Path) -> str | None:
    """The text of the `.po` file `path` at git revision `revision` (None when the file
    did not exist then). Git runs in the file's folder, so a worktree works."""
    result = subprocess.run(
        ["git", "-C", str(path.parent), "show", f"{revision}:./{path.name}"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if result.returncode == 0:
        return result.stdout
    if "does not exist" in result.stderr or "exists on disk, but not in" in result.stderr:
        return None
    raise SystemExit(f"git show {revision}:{path}: {result.stderr.strip()}")


def changes(before: Catalog, now: Catalog) -> list[Change]:
    """The entries of `now` that `before` lacks or holds with another msgid, plural or
    translation, in the order of `now`."""
    old = {(m.context, _forms(m.id)[0]): m for m in before if m.id}
    found: list[Change] = []
    for message in now:
        if not message.id:
            continue
        previous = old.get((message.context, _forms(message.id)[0]))
        if previous is None:
            found.append(Change("added", message, None))
        elif _forms(previous.id) != _forms(message.id) or _forms(previous.string) != _forms(
            message.string
        ):
            found.append(Change("changed", message, previous))
    return found


def glossary_terms(text: str) -> list[Term]:
    """The terms of the glossary's tables (not the rejected words): the English of the
    first column and each word of the second, without notes ("— **proposed**"),
    parentheses or quotes; "blé (pl. blés)" gives "blé", "tour / tour de table" both."""
    terms: list[Term] = []
    in_rejected = False
    for line in text.splitlines():
        if line.startswith("#"):
            in_rejected = "rejected" in line.casefold()
            continue
        if in_rejected or not line.startswith("|"):
            continue
        cells = [c.strip() for c in _CELL_SPLIT.split(line)[1:-1]]
        if len(cells) < 2 or set(cells[0]) <= set("-: ") or cells[0] in ("English", "row"):
            continue
        if cells[1][:1] in _QUOTES:
            continue  # the rulebook's own text (the city's rows), not a term
        for word in _TERM_SPLIT.split(_MARKUP.sub("", cells[1].replace("\\|", "|"))):
            word = word.rpartition(": ")[2].strip(" .:")  # "to make one's move: 手番を行う"
            if word and not word.isdigit():
                terms.append(Term(cells[0], word))
    return terms


def _pattern(term: str, language: Language) -> re.Pattern[str]:
    """A term as it appears in running text: Japanese by substring; French by word with
    its plural; Polish by each word's stem (its last vowel dropped) and an ending of up to
    three letters, for the cases ("manierk" finds manierki, manierkami; "pole" not
    "poleceniem"). A reader's aid: an adjective sharing a stem (dobra, dobry) shows too."""
    if language == "ja":
        return re.compile(re.escape(term))
    words = term.split()
    if language == "pl":
        stems = [w[:-1] if len(w) > 4 and w[-1] in "aeiouyąę" else w for w in words]
        body = r"\s+".join(re.escape(s) + r"\w{0,3}" for s in stems)  # -ami, -ach
    else:
        body = r"\s+".join(re.escape(w) + r"(?:s|x)?" for w in words)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def terms_used(texts: Iterable[str], terms: list[Term], language: Language) -> list[Term]:
    """The glossary's terms found in `texts`, the longest first and each once (a term
    inside a longer one found is left out: "plateau" beside "plateau Ouvriers")."""
    joined = "\n".join(texts)
    found: list[Term] = []
    for term in sorted(terms, key=lambda t: -len(t.translation)):
        if language == "ja" and len(term.translation) < 2:
            continue  # one kanji (手, 列) is in too many other words
        if any(term.translation.casefold() in f.translation.casefold() for f in found):
            continue
        if _pattern(term.translation, language).search(joined):
            found.append(term)
    return found


def sentences(text: str) -> list[str]:
    """The rulebook's sentences: paragraphs (split at blank lines) cut after . ! ? 。"""
    found: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        found += [s for s in _SENTENCE_END.split(flat) if s]
    return found


def rulebook_path(language: Language) -> Path | None:
    for folder in RULEBOOK_DIRS:
        for path in sorted(folder.glob(RULEBOOK_FILES.get(language, "-"))):
            return path
    return None


def review(
    language: Language,
    since: str,
    before: Catalog,
    now: Catalog,
    glossary: str,
    rulebook: str | None,
) -> str:
    """The listing `python -m i18n review` prints."""
    found = changes(before, now)
    terms = glossary_terms(glossary)
    book = sentences(rulebook) if rulebook is not None else []
    lines = [f"{language}: {len(found)} message(s) added or changed since {since}"]
    if rulebook is None:
        lines.append("(the rulebook was not found: no sentences are quoted)")
    for number, change in enumerate(found, 1):
        message = change.message
        english = _forms(message.id)
        lines += ["", f"{number}. [{change.kind}]" + (" (fuzzy)" if message.fuzzy else "")]
        if message.context:
            lines.append(f"   context: {message.context}")
        lines += [f"   English: {form}" for form in english]
        translations = _forms(message.string)
        lines += [
            f"   now[{i}]: {form}" if len(translations) > 1 else f"   now: {form}"
            for i, form in enumerate(translations)
        ]
        if change.before is not None:
            old = _forms(change.before.string)
            if _forms(change.before.id) != english:
                lines += [f"   English before: {form}" for form in _forms(change.before.id)]
            lines += [
                f"   before[{i}]: {form}" if len(old) > 1 else f"   before: {form}"
                for i, form in enumerate(old)
            ]
        used = terms_used(translations, terms, language)
        for term in used:
            lines.append(f"   term: {term.english} → {term.translation}")
            pattern = _pattern(term.translation, language)
            quoted = [s for s in book if pattern.search(s)][:SENTENCES_PER_TERM]
            lines += [f"     rulebook: {_short(s)}" for s in quoted]
            if book and not quoted:
                lines.append("     rulebook: (not in the rulebook)")
    return "\n".join(lines) + "\n"


def _short(sentence: str, limit: int = 240) -> str:
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"


def run(
    language: Language,
    since: str,
    catalogue: Path,
    glossary: Path | None = None,
    rulebook: Path | None = None,
) -> str:
    """Read everything `review` needs from the files and git."""
    before = read_catalog_text(catalogue_at(since, catalogue), language)
    now = read_catalog_text(catalogue.read_text(encoding="utf-8"), language)
    glossary_text = (glossary or glossary_path(language)).read_text(encoding="utf-8")
    book_path = rulebook or rulebook_path(language)
    book = book_path.read_text(encoding="utf-8") if book_path and book_path.exists() else None
    return review(language, since, before, now, glossary_text, book)
