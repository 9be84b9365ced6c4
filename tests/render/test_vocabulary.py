"""One name per thing: the pictures' labels and legend take their words from the
vocabulary table (render.vocabulary), and sentences from render.words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import render
from i18n import translator
from render import caches, compose, players, vocabulary, words
from render.vocabulary import AREAS, GOODS, words_of
from rules import data

from .helpers import game_at, record_text

DRAWING_MODULES = ("compose", "landscape", "workerboard", "players", "icons")
FIELD_LABEL = re.compile(r"^[A-Z][1-7]$")


def test_every_good_area_and_worker_colour_of_the_engine_has_one_name():
    assert set(vocabulary.GOODS) == set(data.GOODS)
    assert set(vocabulary.AREAS) == set(data.AREAS)
    assert set(vocabulary.WORKER_COLOURS) == {*data.COLOURS, data.WILD}
    assert set(vocabulary.PLAYER_COLOURS) == set(data.PLAYER_COLOURS)
    letters = [vocabulary.PLAYER_COLOURS[c].letter for c in data.PLAYER_COLOURS]
    assert len(set(letters)) == len(letters), "a letter tells each player colour apart"
    names = [term.one for term in vocabulary.GOODS.values()]
    assert len(set(names)) == len(names)


def test_the_words_the_bot_imports_are_the_tables_names():
    """bot/words.py reads render.words.GOOD_WORDS and AREA_WORDS."""
    assert {good: (t.one, t.many) for good, t in GOODS.items()} == words.GOOD_WORDS
    assert {area: f"the {t.one}" for area, t in AREAS.items()} == words.AREA_WORDS
    # the log's notation says "harvest wheatfield"; every sentence says the table's name
    sentence = words.describe_action(game_at(2, "start"), "ana", "harvest wheatfield 1 grain")
    assert "grain field" in sentence and "wheatfield" not in sentence


@pytest.mark.parametrize("language", ["en", "fr", "pl"])
@pytest.mark.parametrize("phase", ["mid", "end"])
def test_every_word_drawn_comes_from_the_vocabulary_or_the_sentences(phase, language, monkeypatch):
    """Every text of the picture is a name, a field label, a number, a sentence built by
    render.words (the header, the ranking, the legend's lines, the player boards' counts),
    or made only of the
    vocabulary's words (labels, titles) — in each language whose words are spaced."""
    game = game_at(4, phase)
    names = {pid: f"Player{seat}" for seat, pid in enumerate(game.player_ids)}
    t = translator(language)
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names=names, language=language)
    sentences = {
        *snap.header,
        *(figures for _, _, figures in snap.results),
        *(text for _, text in players.legend_items(t)),
        *(words.settlements_left(p.settlements_left, t) for p in game.players),
        *(words.workers_held(p.worker_count, t) for p in game.players),
    }
    known = vocabulary.vocabulary_words(t)
    for d in drawn:
        text = d.text.rstrip("…")
        if (
            any(text in sentence for sentence in sentences)
            or text in names.values()
            or FIELD_LABEL.match(text)
        ):
            continue
        unknown = [w for w in words_of(text) if w not in known]
        assert not unknown, f"{d.text!r}: {unknown} not in the vocabulary"


def test_the_legend_shows_each_goods_icon_with_its_name_and_explains_the_upgrade(monkeypatch):
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        players.legend_picture(compose.COLUMN_WIDTH, "en")
    texts = [d.text for d in drawn]
    for term in GOODS.values():
        assert words.capitalised(term.one) in texts
    assert "Upgrade: small copper → large copper" in texts
    assert any(t.startswith("Extra box: ") for t in texts)
    assert any(t.startswith("Canteen: ") for t in texts)


@pytest.mark.parametrize(
    ("language", "workers", "players_colours"),
    [
        ("en", "Workers: C copper, S stone, G grain, P pumpkin", "B blue, Y yellow, G green"),
        ("fr", "Ouvriers\u202f: C cuivre, S pierre, G blé, P courge", "B bleu, Y jaune, G vert"),
        ("pl", "Robotnicy: C miedź, S kamień, G zboże, P dynia", "B niebieski, Y żółty"),
        ("ja", "ワーカー：C 銅、S 石、G 穀物、P カボチャ", "B 青、Y 黄、G 緑、R 赤"),
    ],
)
def test_the_legend_explains_the_letters_on_the_pieces_in_the_pictures_language(
    language, workers, players_colours, monkeypatch
):
    """The pieces keep their Latin letters in every language (the initials of the
    colours the notation names); the legend says what each letter stands for."""
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        players.legend_picture(compose.COLUMN_WIDTH, language)
    texts = [d.text for d in drawn]
    assert workers in texts
    assert any(players_colours in text for text in texts)


def _text_argument(call: ast.Call) -> ast.expr | None:
    """The text argument of a call to fonts.draw_text or fonts.fit."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("draw_text", "fit")):
        return None
    index = 2 if func.attr == "draw_text" else 0
    return call.args[index] if len(call.args) > index else None


@pytest.mark.parametrize("module", DRAWING_MODULES)
def test_the_drawing_code_writes_no_words_of_its_own(module):
    """Words in the drawing code would escape the vocabulary (and a later translation):
    no literal with letters is handed to the text functions (a table's key is fine)."""
    source = Path(render.__file__).parent / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        argument = _text_argument(node)
        if argument is None:
            continue
        keys = {id(n.slice) for n in ast.walk(argument) if isinstance(n, ast.Subscript)}
        literals = [
            part.value
            for part in ast.walk(argument)
            if isinstance(part, ast.Constant)
            and isinstance(part.value, str)
            and id(part) not in keys
        ]
        for literal in literals:
            assert not any(c.isalpha() for c in literal), f"{module}.py: {literal!r}"
