"""Issue 13: the pictures in English, French, Polish and Japanese.

Point 5: longer French and Polish words and Japanese text must not overflow their
panels. The main picture kinds are drawn in every language with long player names and
seat notes, and every text box the renderer drew (`render.textboxes`) must lie inside
the panel it was drawn in, at 18 px or more; only the players' names and notes may be
shortened with an ellipsis, never the game's own words.
"""

from __future__ import annotations

import gettext
import random
from collections.abc import Callable

import pytest

import render
from i18n import LANGUAGES, Translator, translator
from render import caches, compose, players, textboxes, words
from render.textboxes import TextBox
from rules import Game
from rules.recent import last_turn
from rules.simulate import choose_action

from .helpers import decode, game_at

LONG_NAMES = [
    "Grzegorz Brzęczyszczykiewicz 🐄🐄",
    "さくら 太郎 山田花子さくら",
    "Zażółć gęślą jaźń Wołodyjowski",
    "Jean-Baptiste de La Fontaine-Dupré",
]
LONG_NOTE = "away until 3 Dec, AI plays meanwhile"


def _until(players: int, seed: int, reached: Callable[[Game], bool]) -> Game:
    game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if game.is_over or reached(game):
            return game
        player_id, action = choose_action(game, rng)
        game.apply(player_id, action)
    raise AssertionError("the moment was never reached")


def _overtaken(game: Game) -> bool:
    auction = game.auction
    return game.pending.kind == "bid" and auction is not None and auction.displaced is not None


def _picture_kinds() -> dict[str, Callable[[str], None]]:
    """Picture kind -> draws it in a language (with long names and notes)."""
    mid2, mid4 = game_at(2, "mid"), game_at(4, "mid")
    auction = _until(4, 1, _overtaken)
    assert not auction.is_over
    final = game_at(4, "end")

    def names(game: Game) -> dict[str, str]:
        return dict(zip(game.player_ids, LONG_NAMES, strict=False))

    def notes(game: Game) -> dict[str, str]:
        return {pid: LONG_NOTE for pid in game.player_ids}

    def snapshot(game: Game) -> Callable[[str], None]:
        def draw(language: str) -> None:
            render.render_game(game, names=names(game), seat_notes=notes(game), language=language)

        return draw

    def board(language: str) -> None:
        awaited = mid4.awaiting or mid4.player_ids[0]
        render.render_player_board(
            mid4, awaited, names=names(mid4), seat_notes=notes(mid4), language=language
        )

    def landscape(language: str) -> None:
        render.render_landscape(mid4, names=names(mid4), language=language)

    return {
        "mid-game 2p": snapshot(mid2),
        "mid-game 4p": snapshot(mid4),
        "city auction": snapshot(auction),
        "final ranking": snapshot(final),
        "landscape": landscape,
        "player board": board,
    }


KINDS = _picture_kinds()


def _drawn(kind: str, language: str) -> list[TextBox]:
    caches.clear_all()  # the shared art is drawn (and its texts recorded) again
    with textboxes.recording() as drawn:
        KINDS[kind](language)
    assert drawn
    return drawn


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_text_lies_inside_its_panel_in_every_language(kind, language):
    outside = [
        f"{box.text!r} ({box.size} px) at {tuple(round(v) for v in box.box)} "
        f"outside {box.panel} {box.panel_box}"
        for box in _drawn(kind, language)
        if not box.inside
    ]
    assert outside == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_only_names_and_notes_are_shortened_and_nothing_is_below_18_px(kind, language):
    shortened_allowed = [*LONG_NAMES, LONG_NOTE]
    for box in _drawn(kind, language):
        assert box.size >= compose.MIN_TEXT_SIZE, (box.text, box.size)
        if "…" not in box.text:
            continue
        # a cut name ends with the ellipsis, alone or inside a sentence
        pieces = [piece.split(" ")[-1] for piece in box.text.split("…")[:-1]]
        for piece in pieces:
            assert any(piece in name for name in shortened_allowed), box.text


def test_a_long_last_turn_is_wrapped_onto_more_lines_not_cut():
    """A four-player city auction says every answer: the header grows a line rather
    than cutting the sentence."""
    game = _until(4, 1, _overtaken)
    names = dict(zip(game.player_ids, LONG_NAMES, strict=False))
    for language in LANGUAGES:
        snap = compose.snapshot(game, names=names, language=language)
        sentence = snap.header[2]
        header = compose.header_texts(
            game,
            last_turn(game),
            names,
            {},
            snap.image.width,
            False,
            translator(language),
        )
        assert "".join(header.turn_lines).replace(" ", "") == sentence.replace(" ", "")
        assert snap.header_height == compose.HEADER_HEIGHT + compose.TURN_LINE_STEP * (
            len(header.turn_lines) - 1
        )


class Marked(gettext.NullTranslations):
    """Pseudo-translations: every message comes back in brackets, so a text drawn
    without them did not go through the catalogue."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


def test_every_word_of_the_picture_goes_through_the_catalogue(monkeypatch):
    """Drawn in a pseudo-language that brackets every translation, the picture holds
    no text with words outside brackets but the players' names (field labels, numbers
    and the pieces' letters have no words)."""
    marked = Translator("fr", Marked())
    for module in (compose, players):
        monkeypatch.setattr(module, "translator", lambda language: marked)
    game = game_at(4, "end")
    names = {pid: f"Player{seat}" for seat, pid in enumerate(game.player_ids)}
    caches.clear_all()
    try:
        with textboxes.recording() as drawn:
            compose.snapshot(game, names=names, language="fr")
    finally:
        caches.clear_all()
    unmarked = {
        box.text
        for box in drawn
        if sum(c.isalpha() for c in box.text) > 2
        and "⟦" not in box.text
        and "⟧" not in box.text
        and box.text not in names.values()
    }
    assert unmarked == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_same_state_gives_the_same_bytes_in_each_language(language):
    game = game_at(3, "mid")
    first = render.render_game(game, language=language)
    caches.clear_all()
    assert render.render_game(game, language=language) == first
    assert decode(first).size[0] <= 2000


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="the languages are en, fr, pl, ja"):
        render.render_game(game_at(2, "start"), language="de")


@pytest.mark.parametrize(
    ("n", "expected"),
    [(1, "1 w zapasie"), (12, "12 w zapasie")],
)
def test_polish_counts_on_the_player_board(n, expected):
    assert words.settlements_left(n, translator("pl")) == expected


@pytest.mark.parametrize(
    ("language", "summary"),
    [
        ("en", "Ana built on {a} and {b}, stopped building (+1 coin)"),
        ("fr", "Ana construit en {a} et {b}, arrête de construire (+1 pièce)"),
        ("pl", "Ana buduje na {a} i {b}, kończy budowę (+1 moneta)"),
        ("ja", "Anaは{a}と{b}に建築しました。建築を終えました（+1コイン）"),
    ],
)
def test_a_turn_is_told_in_the_pictures_language(language, summary):
    game = _until(2, 1, _built_twice_and_stopped)
    turn = last_turn(game)
    assert turn is not None and _built_twice_and_stopped(game)
    first, second = turn.builds
    told = words.turn_summary(turn, {turn.player: "Ana"}, translator(language))
    assert told == summary.format(a=first, b=second)


def _built_twice_and_stopped(game: Game) -> bool:
    turn = last_turn(game)
    return (
        turn is not None
        and not turn.in_progress
        and turn.verbs() == ["build", "build", "stop"]
        and turn.unused_build_coins == 1
    )
