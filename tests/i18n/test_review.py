"""Issue 36.3: no string ships unread. `python -m i18n review --since REF --lang xx` lists
each message added or changed since a revision with the glossary's terms it uses and the
rulebook's sentences that use them; and no message of a catalogue is fuzzy or left in
English unless it is the same word in that language (the allow-list below)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from i18n import TRANSLATED_LANGUAGES, Language, build
from i18n.__main__ import main
from i18n.translator import po_path

HEADER = """msgid ""
msgstr ""
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

"""
GLOSSARY = """# Glossaire

| English | français | in the rulebook |
|---|---|---|
| cow | vache | « 24 Vaches » |
| canteen | gourde (jeton Gourde) | « 6 jetons Gourde » |
| settlement | campement | « 48 campements » |

## Rejected words

| concept | the rulebook's term | rejected | why |
|---|---|---|---|
| canteen | gourde | `cantines?` | a cafeteria |
"""
RULEBOOK = """MONTANA

Prenez une vache de la réserve. Les vaches comptent à la fin.
Une gourde permet de rejouer. Rien d'autre ici.

Les gourdes restent sur le plateau. Une troisième phrase sur les gourdes.
"""


def entry(msgid: str, msgstr: str) -> str:
    return f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n'


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_review_lists_what_changed_since_a_revision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    (repo / "cat").mkdir(parents=True)
    po = repo / "cat" / "fr.po"
    po.write_text(
        HEADER
        + entry("{n} cow", "{n} vache")
        + entry("a canteen", "une cantine")
        + entry("Unchanged", "Inchangé"),
        encoding="utf-8",
    )
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    po.write_text(
        HEADER
        + entry("{n} cow", "{n} vache")
        + entry("a canteen", "une gourde")
        + entry("Unchanged", "Inchangé")
        + entry("a settlement and a cow", "un campement et une vache"),
        encoding="utf-8",
    )
    git(repo, "commit", "-qam", "two")
    (tmp_path / "fr.md").write_text(GLOSSARY, encoding="utf-8")
    (tmp_path / "rules.txt").write_text(RULEBOOK, encoding="utf-8")

    code = main(
        [
            *("review", "--since", "HEAD~1", "--lang", "fr", "--catalogue", str(po)),
            *("--glossary", str(tmp_path / "fr.md"), "--rulebook", str(tmp_path / "rules.txt")),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[0] == "fr: 2 message(s) added or changed since HEAD~1"
    assert "{n} cow" not in out and "Unchanged" not in out  # the same at HEAD~1
    changed, added = out.split("\n\n")[1:3]
    assert changed.splitlines() == [
        "1. [changed]",
        "   English: a canteen",
        "   now: une gourde",
        "   before: une cantine",
        "   term: canteen → gourde",
        "     rulebook: Une gourde permet de rejouer.",
        "     rulebook: Les gourdes restent sur le plateau.",  # two sentences at most
    ]
    assert added.splitlines()[:4] == [
        "2. [added]",
        "   English: a settlement and a cow",
        "   now: un campement et une vache",
        "   term: settlement → campement",
    ]
    assert "     rulebook: (not in the rulebook)" in added  # « campement » is not in it
    assert "   term: cow → vache" in added
    assert "     rulebook: Prenez une vache de la réserve." in added


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_review_lists_every_message_when_the_catalogue_is_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README").write_text("x", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "one")
    po = repo / "fr.po"
    po.write_text(HEADER + entry("a cow", "une vache"), encoding="utf-8")
    assert main(["review", "--since", "HEAD", "--lang", "fr", "--catalogue", str(po)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fr: 1 message(s) added or changed since HEAD\n")
    assert "1. [added]" in out and "   now: une vache" in out


Key = tuple[str | None, str]
SAME_IN_EVERY_LANGUAGE: set[Key] = {
    ("command name", "montana"),  # the game's name
    *(("option choice", name) for name in ("English", "Français", "Polski", "日本語")),
}
"""Proper names: the game's, and each language's own name for itself."""
SAME_IN: dict[str, set[Key]] = {
    "fr": {
        ("pace", "normal"),
        ("ai level", "normal"),
        ("area", "mine"),
        ("option name", "absent"),
        ("option name", "page"),
        ("option name", "mode"),
        ("option name", "web"),
        ("option choice", "web"),
        ("command name", "stats"),
        ("command name", "records"),
        ("option name", "tables"),
    },
    "pl": {
        ("area", "bank"),
        ("button", "Start"),
        ("start tile", "START"),
        ("option name", "ai"),
        (None, "start {base}"),
        (None, "R{row}: {reward}"),  # R: the row's letter in the picture's legend
    },
    "ja": {("option name", "ai")},
}
"""Words that are the same in the language: French and Polish words spelled as the
English, and the AI's two letters. Keep it small: anything else is a string not read."""
FIELD = re.compile(r"\{[^{}]*\}")


def format_only(text: str) -> bool:
    """Nothing to translate: fields, digits and punctuation only ("{a} · {b}", "#", "2")."""
    return not any(ch.isalpha() for ch in FIELD.sub("", text))


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_no_message_is_fuzzy_or_left_in_english(language: Language) -> None:
    catalog = build.read_catalog(po_path(language), language)
    fuzzy: list[str] = []
    english: list[Key] = []
    allowed = SAME_IN_EVERY_LANGUAGE | SAME_IN[language]
    for message in catalog:
        if not message.id:
            continue
        ids = build.texts(message.id)
        if message.fuzzy:
            fuzzy.append(ids[0])
        for i, form in enumerate(build.texts(message.string)):
            source = ids[min(i, len(ids) - 1)]
            if form == source and not format_only(source):
                if (message.context, ids[0]) not in allowed:
                    english.append((message.context, ids[0]))
                break
    assert fuzzy == []
    assert english == []


@pytest.mark.parametrize("language", TRANSLATED_LANGUAGES)
def test_the_allow_list_holds_only_what_is_in_the_catalogue(language: Language) -> None:
    """An entry of the allow-list that the catalogue no longer has (or now translates)
    is taken out, so the list stays small."""
    catalog = build.read_catalog(po_path(language), language)
    same = {
        (m.context, build.texts(m.id)[0])
        for m in catalog
        if m.id and build.texts(m.string)[:1] == build.texts(m.id)[:1]
    }
    assert SAME_IN[language] - same == set()
