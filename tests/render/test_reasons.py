"""Issue 13: the rules engine's refusals in the reader's language.

The engine keeps its English (`str(error)`, for the console, the logs and the rules
tests) and hands over `error.reason`: the template and its fields as engine keys and
numbers. `render.words.reason_text` words it in any of the four languages, the goods,
areas and workers in the vocabulary's names and the counts in the language's plural
forms, player ids by their names.
"""

from __future__ import annotations

import pytest

from i18n import translator
from render.words import reason_text
from rules import Game, IllegalAction, parse_action
from rules.actions import Reason
from tests.rules import helpers as h


def _refusal(game: Game, player: str, move: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        game.apply(player, move)
    return refused.value


def _with_workers(**workers: int) -> Game:
    """Ann to choose her main action, holding exactly these workers."""
    game = h.new_game(4, seed=1)
    h.start_turn(game, 0)
    h.clear_workers(game, "ann")
    h.set_workers(game, "ann", **workers)
    return h.refresh(game)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "bank space 3 takes exactly 2 workers, not 1"),
        ("fr", "la case 3 de la banque demande exactement 2 ouvriers, pas 1"),
        ("pl", "pole banku 3 wymaga dokładnie 2 robotników, nie 1"),
        ("ja", "銀行のスペース3にはちょうど2個のワーカーが必要です（1個ではありません）"),
    ],
)
def test_a_counted_refusal_takes_the_languages_plural(language, expected):
    """RULES.md 6.1 "Put exactly the number of workers a free bank space shows"."""
    error = _refusal(_with_workers(grain=3), "ann", "bank 3 grain")
    assert str(error).startswith("bank space 3 takes exactly 2 workers, not 1. Allowed now:")
    assert reason_text(error.reason, translator(language)) == expected


def test_polish_counts_the_workers_a_bank_space_takes_in_its_own_form():
    error = _refusal(_with_workers(grain=3), "ann", "bank 1 grain grain")
    assert reason_text(error.reason, translator("pl")) == (
        "pole banku 1 wymaga dokładnie 1 robotnika, nie 2"
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "you do not have the workers copper + copper (you have 3 grain workers)"),
        ("fr", "vous n’avez pas les ouvriers cuivre + cuivre (vous avez\u202f: 3 ouvriers blé)"),
        ("pl", "nie masz robotników: miedź + miedź (masz: 3 robotników zboża)"),
        ("ja", "ワーカー銅 + 銅を持っていません（所持：穀物のワーカー3個）"),
    ],
)
def test_worker_colours_are_worded_by_the_vocabulary(language, expected):
    error = _refusal(_with_workers(grain=3), "ann", "bank 3 copper copper")
    assert str(error).startswith("you do not have the workers copper + copper (you have 3 grain)")
    assert reason_text(error.reason, translator(language)) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "{label} costs 1 grain + 2 large copper; you lack 1 grain + 2 large copper"),
        (
            "fr",
            "{label} coûte 1 blé + 2 grands cuivres\u202f; il vous manque 1 blé + 2 grands cuivres",
        ),
        ("pl", "{label} kosztuje: 1 zboże + 2 duże miedzie; brakuje ci: 1 zboże + 2 duże miedzie"),
        ("ja", "{label}のコストは小麦1個 + 大きい銅2個です。小麦1個 + 大きい銅2個が足りません"),
    ],
)
def test_goods_are_counted_with_their_names(language, expected):
    """RULES.md 7 "pay the field's cost": the engine names `bigcopper`, the reader reads
    the vocabulary's "large copper" in their language."""
    game = h.new_game(4, seed=1)
    h.start_turn(game, 0)
    label = h.next_to_start(game)
    h.set_cost(game, label, grain=1, bigcopper=2)
    h.clear_goods(game, "ann")
    error = _refusal(h.refresh(game), "ann", f"build {label}")
    assert str(error).startswith(f"{label} costs 1 grain + 2 bigcopper; you lack 1 grain + 2")
    assert reason_text(error.reason, translator(language)) == expected.format(label=label)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "it is not your move: the game is waiting for Ana"),
        ("fr", "ce n’est pas à vous de jouer\u202f: la partie attend Ana"),
        ("pl", "to nie twój ruch: gra czeka na Ana"),
        ("ja", "あなたの番ではありません：Anaの番です"),
    ],
)
def test_a_player_is_named_not_numbered(language, expected):
    game = _with_workers(grain=3)
    error = _refusal(game, "bob", "recruit")
    assert str(error) == "it is not your move: the game is waiting for ann"
    assert reason_text(error.reason, translator(language), {"ann": "Ana"}) == expected


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "nothing to take back: Dot has moved since"),
        ("fr", "rien à reprendre\u202f: Dot a joué depuis"),
        ("pl", "nie ma czego cofnąć: od tego czasu ruch wykonał inny gracz: Dot"),
        ("ja", "取り消せる手はありません：その後Dotが動きました"),
    ],
)
def test_a_reason_within_a_reason_is_translated_too(language, expected):
    """Taking a move back (rules/README "undo"): refused with why, a clause of its own."""
    game = h.new_game(4, seed=1)
    with pytest.raises(IllegalAction) as refused:
        game.undo("ann")
    assert str(refused.value) == "nothing to take back: dot has moved since"
    assert reason_text(refused.value.reason, translator(language), {"dot": "Dot"}) == expected


def test_notation_stays_as_it_was_typed():
    with pytest.raises(IllegalAction) as refused:
        parse_action("bank 5 copper")
    reason = refused.value.reason
    assert reason_text(reason, translator("fr")) == (
        "«\u202fbank 5 copper\u202f»\u202f: la case de la banque est un nombre de 1 à 4"
    )
    assert reason_text(reason, translator("ja")) == (
        "「bank 5 copper」：銀行のスペースは1〜4の数字で指定してください"
    )


def test_every_reason_of_a_played_game_is_worded_in_every_language():
    """Whatever a player tries, each language has words for the refusal: every
    illegal notation of a few positions is refused with a reason the catalogue holds."""
    game = h.new_game(3, seed=4)
    tried = [
        "bank 1 copper",
        "harvest mine 1 stone",
        "city 1 4",
        "build A1",
        "pass",
        "stop",
        "take copper copper",
        "upgrade copper",
        "trade coins",
        "advance 3",
        "return grain",
    ]
    reasons: list[Reason] = []
    for move in tried:
        try:
            game.apply(game.awaiting or "ann", move)
        except IllegalAction as error:
            reasons.append(error.reason)
    assert len(reasons) >= 6
    for language in ("fr", "pl", "ja"):
        t = translator(language)
        for reason in reasons:
            text = reason_text(reason, t)
            assert text and text != reason_text(reason, translator("en")), (language, text)
