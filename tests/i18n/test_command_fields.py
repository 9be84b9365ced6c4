"""Issue 24 point 1: no message tells a player to type a command path; commands are
fields (`{/game new}`) that the bot fills with a mention, or the path in the reader's
language (`i18n.commands`)."""

from __future__ import annotations

import re

import pytest
from babel.messages.plurals import get_plural

from i18n import TRANSLATED_LANGUAGES, build, translator
from i18n.commands import PlainCommands, name_commands_with
from i18n.translator import TEMPLATE_PATH, po_path
from tests.i18n.test_catalogue import catalog_from

TYPED_COMMAND = re.compile(r"(?<!\{)/(montana|モンタナ)\b|`[a-z_]+:[^`]*`")
"""A slash command path written out (in any language), or an option typed as `name:`;
not a field naming a top-level command (`{/montana-games}`)."""
CATALOGUES = [TEMPLATE_PATH, *(po_path(language) for language in TRANSLATED_LANGUAGES)]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda path: path.name)
def test_no_catalogue_message_spells_out_a_command_to_type(path: object) -> None:
    catalog = build.read_catalog(path)  # type: ignore[arg-type]
    typed = [
        text
        for message in catalog
        if message.id
        for text in (*build.texts(message.id), *build.texts(message.string))
        if TYPED_COMMAND.search(text)
    ]
    assert typed == []


def test_the_scan_would_see_a_typed_command() -> None:
    assert TYPED_COMMAND.search("Ouvrez-en une avec `/montana partie nouvelle`.")
    assert TYPED_COMMAND.search("`/モンタナ ゲーム 新規` で始めてください。")
    assert TYPED_COMMAND.search("Zmień to opcją `tryb:`.")
    assert not TYPED_COMMAND.search("Ouvrez-en une avec {/game new}.")
    assert TYPED_COMMAND.search("Tapez `/montana-parties` ici.")
    assert not TYPED_COMMAND.search("Ici aussi : {/montana-games}.")


def test_a_command_field_reads_in_the_readers_language_without_being_passed() -> None:
    previous = name_commands_with(PlainCommands())
    try:
        assert translator("en").gettext("Start one with {/game new}.") == (
            "Start one with `/montana game new`."
        )
        away = "{/me away} {/me away:days=3} {/me away:hours}"
        assert translator("pl").gettext(away) == "`/montana ja nieobecność` `dni: 3` `godziny:`"
        assert translator("ja").gettext("{/board}") == "`/モンタナ 盤面`"
    finally:
        name_commands_with(previous)


def test_the_check_reports_a_translated_command_or_option() -> None:
    """A translation must keep each command field as the English has it: a translated
    option ({/me away:jours}) would name an option Discord does not know."""
    template = catalog_from('msgid "{/me away} {/me away:days}"\nmsgstr ""\n')
    french = catalog_from(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n'
        f'"Plural-Forms: {get_plural("fr").plural_forms}\\n"\n\n'
        'msgid "{/me away} {/me away:days}"\nmsgstr "{/me away} {/me away:jours}"\n',
        "fr",
    )
    found = build.problems(template, {"fr": french})
    assert len(found) == 1 and "commands [('me away', ''), ('me away', 'jours')]" in found[0]
