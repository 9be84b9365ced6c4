"""Issue 24.4: French typography in every French translation, checked mechanically."""

from __future__ import annotations

from i18n import build
from i18n.translator import po_path
from i18n.typography import fix_french_po, french_fix, french_problems
from tests.i18n.test_catalogue import catalog_from

N = "\u202f"


def test_every_french_translation_follows_french_typography() -> None:
    assert build.typography_problems(build.read_catalog(po_path("fr"), "fr")) == []


def test_each_fault_is_named() -> None:
    assert french_problems("Refusé : la partie est terminée") == [
        "no narrow no-break space before ':'"
    ]
    assert french_problems(f"C'est à vous{N}!") == ["a straight apostrophe (’ is French)"]
    assert french_problems(f'Tapez "help"{N}; ou «{N}moves»') == [
        "no narrow no-break space inside « »",
        "straight quotes (« » are French)",
    ]
    assert french_problems(f"Ouvrez-en une{N}?") == []


def test_what_is_not_prose_is_left_alone() -> None:
    """Code, fields (a command's option is a format spec), Discord's markup and times."""
    text = f"Tapez `build C4:` avec {{/me away:days}} avant <t:17:R> ou 18:00{N}; [lien](https://x.y/a?b)"
    assert french_problems(text) == []
    assert french_fix(text) == text


def test_the_fix_puts_right_what_the_check_finds() -> None:
    fixed = french_fix('Refusé : l\'IA joue ; « pass » ou "stop"?')
    assert fixed == f'Refusé{N}: l’IA joue{N}; «{N}pass{N}» ou "stop"{N}?'
    assert french_problems(fixed) == ["straight quotes (« » are French)"]


def test_the_check_reports_a_french_translation_that_breaks_typography() -> None:
    french = catalog_from('msgid "Refused: {why}"\nmsgstr "Refusé : {why}"\n', "fr")
    assert build.typography_problems(french) == [
        "fr: 'Refused: {why}': no narrow no-break space before ':' in 'Refusé : {why}'"
    ]


def test_the_po_fix_changes_only_french_translations_line_by_line() -> None:
    po = (
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        'msgid "Refused: {why}"\nmsgstr "Refusé : {why}"\n\n'
        'msgid ""\n"Two: lines"\nmsgstr ""\n"Deux : lignes ;\\n"\n"l\'autre"\n'
    )
    assert fix_french_po(po) == (
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n\n'
        f'msgid "Refused: {{why}}"\nmsgstr "Refusé{N}: {{why}}"\n\n'
        f'msgid ""\n"Two: lines"\nmsgstr ""\n"Deux{N}: lignes{N};\\n"\n"l’autre"\n'
    )
