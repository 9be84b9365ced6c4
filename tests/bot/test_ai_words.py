"""The AI's reasons (`ai.Reason`, data) worded by the bot in every language: the hints
a player asks for are said in their own language (issue 13 with issue 14)."""

from __future__ import annotations

import pytest

from ai import Reason
from ai.decision import ENGLISH as AI_ENGLISH
from bot.core.wording import words
from i18n import LANGUAGES, Language, translator

EXAMPLES = {
    "only_option": Reason("only_option"),
    "points_now": Reason("points_now", value=4, field="C4"),
    "double_field": Reason("double_field", field="C4"),
    "line_bonus": Reason("line_bonus", value=2, field="C4"),
    "takes_cow": Reason("takes_cow", field="C4"),
    "takes_canteen": Reason("takes_canteen", value=2, field="C4"),
    "gains_goods": Reason("gains_goods", value=2, good="copper"),
    "gains_coins": Reason("gains_coins", value=5),
    "gains_workers": Reason("gains_workers", value=2, good="stone"),
    "gains_cow": Reason("gains_cow", value=1),
    "upgrades": Reason("upgrades", value=1, good="stone"),
    "pays_goods": Reason("pays_goods", value=3, good="grain"),
    "city_row": Reason("city_row", row=2, value=1),
    "overtakes": Reason("overtakes", player="p2", row=3),
    "extra_turn": Reason("extra_turn"),
    "enables_build": Reason("enables_build", field="D2"),
    "closer_to_build": Reason("closer_to_build", field="D2", missing=("copper", "grain")),
    "keeps_good_for": Reason("keeps_good_for", good="pumpkin", field="D2"),
    "recruits": Reason("recruits", value=2),
    "best_immediate_gain": Reason("best_immediate_gain", value=35),
    "random_choice": Reason("random_choice"),
}


def test_every_reason_kind_of_the_ai_has_an_example() -> None:
    assert set(EXAMPLES) == set(AI_ENGLISH)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_is_worded_in_every_language(language: Language) -> None:
    t = translator(language)
    said = {kind: words.reason_words(reason, t, {"p2": "Ben"}) for kind, reason in EXAMPLES.items()}
    for kind, text in said.items():
        assert text and "{" not in text and kind.replace("_", " ") != text, (kind, text)
    assert "Ben" in said["overtakes"] and "C4" in said["takes_cow"]
    # each reason in its own words: no two kinds said alike
    assert len(set(said.values())) == len(said)


def test_reasons_use_the_vocabulary_and_the_plural_forms() -> None:
    english, polish = translator("en"), translator("pl")
    assert words.reason_words(EXAMPLES["gains_goods"], english) == "gets 2 small copper"
    assert words.reason_words(Reason("points_now", value=1), english) == "1 point now"
    points = [words.reason_words(Reason("points_now", value=n), polish) for n in (1, 2, 5, 22)]
    assert points == ["1 punkt teraz", "2 punkty teraz", "5 punktów teraz", "22 punkty teraz"]
    assert words.reasons_words([EXAMPLES["points_now"], EXAMPLES["takes_cow"]], english) == (
        "4 points now and takes the cow on C4"
    )
