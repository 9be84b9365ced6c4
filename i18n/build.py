"""The catalogue's build steps: extract the English strings, update each language,
check that every language is complete. `python -m i18n extract|update|check|stats`.

Only developers run `extract` and `update` (after changing words in the code); the
test suite runs the same checks as `check`, so CI fails on a string that was added
without being extracted, or extracted without being translated.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message as Entry
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from .commands import command_fields
from .glossary import glossary_problems
from .languages import TRANSLATED_LANGUAGES, Language
from .translator import TEMPLATE_PATH, placeholders, po_path
from .typography import french_problems

REPO_ROOT = Path(__file__).resolve().parents[1]
SOURCE_DIRS = ("bot", "render", "rules", "i18n")
"""Where user-facing strings live. In `rules` they are the refusal reasons' templates
(`Reason(...)`, `counted_reason(...)`; see README "Refusal reasons"). Not `ai`: its
reasons are data (`ai.Reason(kind, ...)`, a kind is not a sentence) that the bot words."""
COMMAND_EXTRACTORS: list[tuple[str, str]] = [
    ("bot/discord_app/client.py", "bot.discord_app.translator:extract_commands"),
]
"""(file pattern, Babel extraction method) pairs reading the slash commands' names and
descriptions from the command tree itself."""

KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    # method calls on a Translator
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    # markers of module-level constants (i18n.messages)
    "translatable": None,
    "translatable_in": ((1, "c"), 2),
    "translatable_plural": (1, 2),
    "translatable_plural_in": ((1, "c"), 2, 3),
    # the rules engine's refusal reasons (rules.actions), which import nothing of ours
    "Reason": None,
    "counted_reason": (1, 2),
}
TRANSLATOR_COMMENT_TAG = "Translators:"
"""A comment starting so, just above a marked string, is shown to translators."""

Key = tuple[str | None, str | tuple[str, ...]]
"""An entry's identity in a catalogue: (context, id), the id a tuple for plurals."""


def key_of(context: str | None, message_id: str | tuple[str, ...] | list[str]) -> Key:
    return (context, message_id if isinstance(message_id, str) else tuple(message_id))


def extract(root: Path = REPO_ROOT) -> Catalog:
    """The English strings marked in the source folders, as a template catalogue."""
    template = Catalog(
        project="montana-discord",
        header_comment="# Montana on Discord: the English source strings.\n"
        "# Made by `python -m i18n extract`; do not edit by hand.",
        fuzzy=False,
    )
    method_map = [*COMMAND_EXTRACTORS, *((f"{d}/**.py", "python") for d in SOURCE_DIRS)]
    for filename, lineno, message, comments, context in extract_from_dir(
        root,
        method_map=method_map,
        keywords=KEYWORDS,
        comment_tags=(TRANSLATOR_COMMENT_TAG,),
        strip_comment_tags=True,
    ):
        flags = ["python-brace-format"] if any(placeholders(m) for m in texts(message)) else []
        template.add(
            message,
            None,
            [(filename, lineno)],
            auto_comments=comments,
            context=context,
            flags=flags,
        )
    return template


def texts(message: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """The texts of a catalogue entry's id or translation: one, or one per plural form."""
    if message is None:
        return ()
    return (message,) if isinstance(message, str) else tuple(message)


def is_translated(entry: Entry) -> bool:
    """Confirmed (not fuzzy) and every form filled in."""
    forms = texts(entry.string)
    return not entry.fuzzy and bool(forms) and all(forms)


def keys(catalog: Catalog) -> set[Key]:
    return {key_of(m.context, m.id) for m in catalog if m.id}


def read_catalog(path: Path, language: Language | None = None) -> Catalog:
    with path.open("rb") as po_file:
        return read_po(po_file, locale=language)


def write_catalog(catalog: Catalog, path: Path) -> bool:
    """Write `catalog` as `.po` text (unwrapped lines, file names without line numbers,
    so that moving code does not touch the catalogue); False if nothing changed."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, include_lineno=False, ignore_obsolete=True)
    text = buffer.getvalue()
    if path.exists() and _without_dates(path.read_bytes()) == _without_dates(text):
        return False
    path.write_bytes(text)
    return True


def _without_dates(po_text: bytes) -> bytes:
    return b"\n".join(
        line
        for line in po_text.splitlines()
        if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))
    )


def update(template: Catalog, language: Language, path: Path | None = None) -> bool:
    """Bring one language's catalogue in line with the template: new strings appear
    untranslated, changed ones keep their old translation marked fuzzy (not used until
    a translator confirms it), removed ones go. False if nothing changed."""
    path = path or po_path(language)
    if path.exists():
        catalog = read_catalog(path, language)
    else:
        catalog = Catalog(
            locale=language,
            project=template.project,
            header_comment=f"# Montana on Discord: the {language} catalogue.\n"
            f"# The rulebook's terms are in i18n/glossary/{language}.md.",
            fuzzy=False,
        )
    catalog.update(template, update_header_comment=False)
    return write_catalog(catalog, path)


def problems(template: Catalog, translations: Mapping[Language, Catalog]) -> list[str]:
    """Everything that keeps a language from being complete, one line each: a source
    string without translation, an empty or unconfirmed (fuzzy) one (a plural form
    missing counts as empty), or placeholders that differ from the English."""
    found: list[str] = []
    for message in template:
        if not message.id:
            continue
        sources = texts(message.id)
        if len({frozenset(placeholders(s)) for s in sources}) > 1:
            found.append(f"en: {_name(message)}: singular and plural have different fields")
    for language, catalog in translations.items():
        expected = get_plural(language)
        if (catalog.num_plurals, catalog.plural_expr) != (
            expected.num_plurals,
            expected.plural_expr,
        ):
            found.append(f"{language}: Plural-Forms header is not {expected.plural_forms}")
        for message in template:
            if not message.id:
                continue
            found += _message_problems(language, message, catalog)
    return found


def _message_problems(language: Language, source: Entry, catalog: Catalog) -> list[str]:
    name = f"{language}: {_name(source)}"
    translated = catalog.get(source.id, source.context)
    if translated is None:
        return [f"{name}: missing"]
    if translated.fuzzy:
        return [f"{name}: fuzzy (confirm or fix the translation)"]
    # reading a .po file pads missing plural forms with "" (and drops extra ones), so
    # a Polish entry with two forms is reported empty here
    forms = texts(translated.string)
    if not all(forms):
        return [f"{name}: empty"]
    expected = placeholders(texts(source.id)[-1])
    commands = command_fields(texts(source.id)[-1])
    return [
        f"{name}: fields {sorted(placeholders(form))} instead of {sorted(expected)} in {form!r}"
        for form in forms
        if placeholders(form) != expected
    ] + [
        f"{name}: commands {sorted(command_fields(form))} instead of {sorted(commands)} "
        f"in {form!r} (a command's option is named in the code's English: {{/me away:days}})"
        for form in forms
        if placeholders(form) == expected and command_fields(form) != commands
    ]


def _name(message: Entry) -> str:
    text = texts(message.id)[0]
    return f"{message.context}|{text!r}" if message.context else repr(text)


def template_problems(template: Catalog, extracted: Catalog) -> list[str]:
    """Strings marked in the code but not in the template, and the reverse."""
    stored, current = keys(template), keys(extracted)
    return [f"not extracted yet: {k}" for k in sorted(current - stored, key=repr)] + [
        f"no longer in the code: {k}" for k in sorted(stored - current, key=repr)
    ]


def check(languages: Iterable[Language] = TRANSLATED_LANGUAGES) -> list[str]:
    """All problems of the catalogue (empty when every language is complete)."""
    template = read_catalog(TEMPLATE_PATH)
    translations = {language: read_catalog(po_path(language), language) for language in languages}
    rejected = [
        problem
        for language, catalog in translations.items()
        for problem in glossary_problems(language, catalog)
    ]
    typography = typography_problems(translations["fr"]) if "fr" in translations else []
    return (
        template_problems(template, extract())
        + problems(template, translations)
        + rejected
        + typography
    )


def typography_problems(french: Catalog) -> list[str]:
    """Every French translation that breaks French typography (`i18n.typography`)."""
    return [
        f"fr: {_name(message)}: {problem} in {form!r}"
        for message in french
        if message.id
        for form in texts(message.string)
        for problem in french_problems(form)
    ]
