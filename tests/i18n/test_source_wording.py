"""Issue 36.1: sentences whose fault was the English source or the code, each shown in
French and at least one other language: a counted settlement, the refused `absent:` and
`pictures:` values offered in the reader's words, a forgotten player's name worded when
shown, and the "since" of a waiting game read with a relative time."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

import pytest

from bot.core.ai_players.ai_seats import ABSENT_LABELS, AiPlayers
from bot.core.clock.my_games import MyGame
from bot.core.community.stats import summary_text
from bot.core.delivery.picture_modes import PICTURES_LABELS
from bot.core.play.service import Refusal
from bot.core.store import FORGOTTEN_NAME, GameRow, Seat
from bot.core.wording import words
from bot.discord_app.clock.deadlines import ABSENT_CHOICES
from bot.discord_app.clock.mine import game_line
from bot.discord_app.delivery.picture_modes import PICTURES_CHOICES, check_pictures
from i18n import translator
from rules import Game

NNBSP = "\u202f"


def summary(settlements: int, name: str = "Ana", language: str = "fr") -> str:
    body = {
        "finished": True,
        "turns": 30,
        "seats": [{"seat": "1", "name": name, "place": 1, "settlements": settlements, "cows": 2}],
    }
    return summary_text(body, 7, translator(cast(Any, language))).split("\n")[1]


@pytest.mark.parametrize(
    ("language", "one", "two", "five"),
    [
        ("en", "1 settlement (", "2 settlements (", "5 settlements ("),
        ("fr", "1 campement (", "2 campements (", "5 campements ("),
        ("pl", "1 osada (", "2 osady (", "5 osad ("),
        ("ja", "開拓地 1（", "開拓地 2（", "開拓地 5（"),
    ],
)
def test_the_summary_counts_settlements_in_each_languages_forms(
    language: str, one: str, two: str, five: str
) -> None:
    assert one in summary(1, language=language)
    assert two in summary(2, language=language)
    assert five in summary(5, language=language)


def test_the_refusal_labels_are_the_choices_discord_shows() -> None:
    assert [c.name for c in ABSENT_CHOICES] == [m.id for m in ABSENT_LABELS.values()]
    assert [c.value for c in ABSENT_CHOICES] == list(ABSENT_LABELS)
    assert [c.name for c in PICTURES_CHOICES] == [m.id for m in PICTURES_LABELS.values()]
    assert [c.value for c in PICTURES_CHOICES] == list(PICTURES_LABELS)


async def refused_absent(value: str) -> Refusal:
    with pytest.raises(Refusal) as refused:
        await AiPlayers.set_absent(cast(Any, None), cast(Any, None), value)
    return refused.value


async def test_a_wrong_absent_value_is_refused_with_the_choices_in_the_readers_words() -> None:
    refusal = await refused_absent("sometimes")
    assert refusal.text(translator("en")).startswith(
        "“sometimes” is not an absent setting: choose “wait: reminders only”, “ai-move: the AI "
        "plays the overdue decision”, or “ai-seat: the AI takes the seat until reclaimed” in "
    )
    french = refusal.text(translator("fr"))
    assert french.startswith(
        f"«{NNBSP}sometimes{NNBSP}» n’est pas un réglage d’absence{NNBSP}: choisissez "
        f"«{NNBSP}attendre{NNBSP}: rappels seulement{NNBSP}», «{NNBSP}ia-coup{NNBSP}: l’IA "
        f"prend la décision en retard{NNBSP}» ou «{NNBSP}ia-place{NNBSP}: "
    )
    assert french.endswith("Rien n’a changé.") and "wait, ai-move" not in french
    polish = refusal.text(translator("pl"))
    assert polish.startswith("„sometimes” nie jest ustawieniem nieobecności: wybierz „czekaj")
    assert "ai-move," not in polish and polish.endswith("Nic się nie zmieniło.")
    japanese = refusal.text(translator("ja"))
    assert japanese.startswith("「sometimes」は不在時の設定ではありません。")
    assert "「待つ" in japanese and japanese.endswith("何も変更されていません。")


def test_a_wrong_pictures_value_is_refused_with_the_choices_in_the_readers_words() -> None:
    with pytest.raises(Refusal) as refused:
        check_pictures("sometimes")
    french = refused.value.text(translator("fr"))
    assert (
        f"choisissez «{NNBSP}à chaque coup{NNBSP}», «{NNBSP}fin de tour{NNBSP}: du texte seul "
        f"pendant le tour{NNBSP}» ou «{NNBSP}sur demande{NNBSP}: un bouton Plateau{NNBSP}» dans"
    ) in french
    assert "every-move" not in french
    japanese = refused.value.text(translator("ja"))
    assert "「sometimes」は画像の設定ではありません。" in japanese and "every-move" not in japanese
    assert "「" + translator("ja").pgettext("option choice", "every move") + "」" in japanese
    polish = refused.value.text(translator("pl"))
    assert "wybierz „" in polish and "every-move" not in polish


@pytest.mark.parametrize(
    ("language", "worded"),
    [("en", "(a former player)"), ("fr", "(ancien joueur)"), ("ja", "（元プレイヤー）")],
)
def test_a_forgotten_players_name_is_worded_in_the_readers_language(
    language: str, worded: str
) -> None:
    t = translator(cast(Any, language))
    assert words.forgotten_worded(FORGOTTEN_NAME, t) == worded
    assert words.forgotten_worded(f"{FORGOTTEN_NAME} (AI)", t) == f"{worded} (AI)"
    assert words.names_worded({"1": FORGOTTEN_NAME, "2": "Ben"}, t) == {"1": worded, "2": "Ben"}
    assert summary(3, FORGOTTEN_NAME, language).startswith(f"1. {worded} — ")


def row_of(game: Game | None) -> GameRow:
    return GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        creator_id="1",
        status="active" if game is not None else "lobby",
        players=(Seat("1", "Ana"), Seat("2", "Ben")),
        state_json=None,
        version=1,
        message_id=None,
        lobby_message_id=None,
        created_at="2030-01-01T00:00:00",
        updated_at="2030-01-01T00:00:00",
    )


SINCE = datetime(2030, 1, 1, tzinfo=UTC)
DUE = datetime(2030, 1, 3, tzinfo=UTC)
RELATIVE = f"<t:{int(SINCE.timestamp())}:R>"
"""A Discord timestamp in relative style: each reader sees "3 hours ago" in their client's
language."""


@pytest.mark.parametrize(
    ("language", "mine", "theirs", "lobby"),
    [
        ("en", "your turn began " + RELATIVE, "whose turn began " + RELATIVE, "opened " + RELATIVE),
        (
            "fr",
            "votre tour a commencé " + RELATIVE,
            "son tour a commencé " + RELATIVE,
            "ouverte " + RELATIVE,
        ),
        (
            "pl",
            "oczekiwanie zaczęło się " + RELATIVE,
            "oczekiwanie zaczęło się " + RELATIVE,
            "otwarta " + RELATIVE,
        ),
    ],
)
@pytest.mark.parametrize("since", [SINCE, None])
def test_a_waiting_game_says_since_when_with_a_relative_time(
    language: str, mine: str, theirs: str, lobby: str, since: datetime | None
) -> None:
    t = translator(cast(Any, language))
    game = Game.new(["1", "2"], seed=1)
    awaited = game.awaiting
    assert awaited is not None
    other = "2" if awaited == "1" else "1"
    lines = [
        game_line(MyGame(row_of(game), game, True, since, DUE), awaited, t),
        game_line(MyGame(row_of(game), game, False, since, DUE), other, t),
        game_line(MyGame(row_of(None), None, False, since, DUE), "2", t),
    ]
    for line, expected in zip(lines, (mine, theirs, lobby), strict=True):
        if since is not None:
            assert expected in line
            assert "since" not in line.replace("whose", "")
        else:
            # no time known: a sentence without it, and no "—" in its place
            assert RELATIVE not in line and "—:" not in line and "—," not in line
            for said in ("began", "opened", "commencé", "ouverte", "zaczęło", "otwarta"):
                assert said not in line
