"""Issue 13: the message catalogue is complete in fr, pl and ja, its placeholders match
the English, and the template holds exactly the strings marked in the code."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from i18n import TRANSLATED_LANGUAGES, build
from i18n.translator import TEMPLATE_PATH, po_path


def catalog_from(po_text: str, language: str | None = None) -> Catalog:
    return read_po(io.BytesIO(po_text.encode()), locale=language)


def test_the_template_holds_exactly_the_strings_marked_in_the_code() -> None:
    """A string marked in bot/, render/, rules/, ai/ or i18n/ but never extracted (or
    extracted and since removed) fails here: run `python -m i18n update`."""
    template = build.read_catalog(TEMPLATE_PATH)
    assert build.template_problems(template, build.extract()) == []


def test_every_source_string_has_a_translation_with_the_same_fields_in_each_language() -> None:
    template = build.read_catalog(TEMPLATE_PATH)
    translations = {lang: build.read_catalog(po_path(lang), lang) for lang in TRANSLATED_LANGUAGES}
    assert build.problems(template, translations) == []
    # the rulebooks' core terms are in the catalogue, so the check above has content
    assert {("action", "Build"), ("area", "mine"), ("count", ("{n} cow", "{n} cows"))} <= (
        build.keys(template)
    )


TEMPLATE = """
msgid "{who} built on {field}"
msgstr ""

msgctxt "count"
msgid "{n} cow"
msgid_plural "{n} cows"
msgstr[0] ""
msgstr[1] ""

msgid "Pass"
msgstr ""

msgid "Stop building"
msgstr ""

msgid "End turn"
msgstr ""
"""

POLISH_WITH_FAULTS = """
msgid ""
msgstr ""
"Language: pl\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "{who} built on {field}"
msgstr "{kto} zbudował na {field}"

msgctxt "count"
msgid "{n} cow"
msgid_plural "{n} cows"
msgstr[0] "{n} krowa"
msgstr[1] "{n} krowy"

#, fuzzy
msgid "Stop building"
msgstr "Koniec budowania"

msgid "End turn"
msgstr ""
"""


def test_the_check_names_each_kind_of_fault() -> None:
    """A wrong placeholder, a Plural-Forms header that is not Polish's three forms, a
    missing, an unconfirmed (fuzzy) and an empty translation are each reported."""
    found = build.problems(catalog_from(TEMPLATE), {"pl": catalog_from(POLISH_WITH_FAULTS, "pl")})
    assert found == [
        "pl: Plural-Forms header is not nplurals=3; plural=n == 1 ? 0 : n % 10 >= 2 && "
        "n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2;",
        "pl: '{who} built on {field}': fields ['field', 'kto'] instead of ['field', 'who'] "
        "in '{kto} zbudował na {field}'",
        "pl: 'Pass': missing",
        "pl: 'Stop building': fuzzy (confirm or fix the translation)",
        "pl: 'End turn': empty",
    ]


def test_a_polish_plural_with_two_forms_only_is_incomplete() -> None:
    """Polish needs three forms (1 krowa, 2 krowy, 5 krów); Japanese one."""
    two_forms = (
        'msgctxt "count"\nmsgid "{n} cow"\nmsgid_plural "{n} cows"\n'
        'msgstr[0] "{n} krowa"\nmsgstr[1] "{n} krowy"\n'
    )
    one_form = 'msgctxt "count"\nmsgid "{n} cow"\nmsgid_plural "{n} cows"\nmsgstr[0] "牛{n}個"\n'
    template = catalog_from(two_forms)
    found = build.problems(
        template, {"pl": catalog_from(two_forms, "pl"), "ja": catalog_from(one_form, "ja")}
    )
    assert found == ["pl: count|'{n} cow': empty"]


def test_english_singular_and_plural_must_share_their_fields() -> None:
    template = catalog_from('msgid "a cow"\nmsgid_plural "{n} cows"\nmsgstr[0] ""\nmsgstr[1] ""\n')
    assert build.problems(template, {}) == [
        "en: 'a cow': singular and plural have different fields"
    ]


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_extraction_finds_calls_and_markers_with_context_plural_and_translator_comments(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        "bot/core/wording/words.py",
        "from i18n import translatable_in, translatable_plural\n"
        'AREA = translatable_in("area", "mine")\n'
        'COWS = translatable_plural("{n} cow", "{n} cows")\n'
        "def f(t, name):\n"
        "    # Translators: said when a player joins the lobby\n"
        '    a = t.gettext("{name} joined", name=name)\n'
        '    b = t.npgettext("count", "{n} coin", "{n} coins", 3)\n'
        "    return t.gettext(name)  # a variable is not a source string\n",
    )
    write(tmp_path, "tests/test_x.py", 'gettext("not a product string")\n')
    entries = {(m.context, m.id): m for m in build.extract(tmp_path) if m.id}
    assert set(entries) == {
        ("area", "mine"),
        (None, ("{n} cow", "{n} cows")),
        (None, "{name} joined"),
        ("count", ("{n} coin", "{n} coins")),
    }
    joined = entries[(None, "{name} joined")]
    assert joined.auto_comments == ["said when a player joins the lobby"]
    assert "python-brace-format" in joined.flags
    assert joined.locations == [("bot/core/wording/words.py", 6)]


def test_a_string_marked_but_not_extracted_is_reported(tmp_path: Path) -> None:
    write(tmp_path, "render/words.py", 'def f(t):\n    return t.gettext("Game over")\n')
    reported = build.template_problems(Catalog(), build.extract(tmp_path))
    assert reported == ["not extracted yet: (None, 'Game over')"]


def test_update_keeps_translations_and_marks_changed_source_strings_fuzzy(tmp_path: Path) -> None:
    """A new string arrives untranslated; an English source that changed keeps its old
    translation marked fuzzy, which the check refuses until a translator confirms it."""
    po = tmp_path / "fr.po"
    first = catalog_from('msgid "Choose your action:"\nmsgstr ""\n')
    build.update(first, "fr", po)
    translated = build.read_catalog(po, "fr")
    translated["Choose your action:"].string = "Choisissez votre action :"
    build.write_catalog(translated, po)

    second = catalog_from('msgid "Choose your action now:"\nmsgstr ""\n\nmsgid "Pass"\nmsgstr ""\n')
    assert build.update(second, "fr", po) is True
    updated = build.read_catalog(po, "fr")
    assert updated["Choose your action now:"].fuzzy
    assert updated["Choose your action now:"].string == "Choisissez votre action :"
    assert build.problems(second, {"fr": updated}) == [
        "fr: 'Choose your action now:': fuzzy (confirm or fix the translation)",
        "fr: 'Pass': empty",
    ]
    assert build.update(second, "fr", po) is False  # nothing new: the file is untouched
