"""One name per thing: the pictures' labels and legend take their words from the
vocabulary table (render.vocabulary), and sentences from render.words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import render
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


@pytest.mark.parametrize("phase", ["mid", "end"])
def test_every_word_drawn_comes_from_the_vocabulary_or_the_sentences(phase, monkeypatch):
    """Every text of the picture is a name, a field label, a number, a sentence built by
    render.words, or made only of the vocabulary's words (labels, legend, titles)."""
    game = game_at(4, phase)
    names = {pid: f"Player{seat}" for seat, pid in enumerate(game.player_ids)}
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        snap = compose.snapshot(game, names=names)
    sentences = {*snap.header, *(figures for _, _, figures in snap.results)}
    known = vocabulary.vocabulary_words()
    for d in drawn:
        text = d.text.rstrip("…")
        if (
            any(sentence.startswith(text) for sentence in sentences)
            or text in names.values()
            or FIELD_LABEL.match(text)
        ):
            continue
        unknown = [w for w in words_of(text) if w not in known]
        assert not unknown, f"{d.text!r}: {unknown} not in the vocabulary"


def test_the_legend_shows_each_goods_icon_with_its_name_and_explains_the_upgrade(monkeypatch):
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        players.legend_picture(compose.COLUMN_WIDTH)
    texts = [d.text for d in drawn]
    for term in GOODS.values():
        assert term.one in texts
    assert f"{vocabulary.ACTIONS['upgrade'].one}: small copper → large copper" in texts
    assert any(t.startswith(vocabulary.BOARD["small_box"].one) for t in texts)
    assert any(t.startswith(vocabulary.PIECES["canteen"].one) for t in texts)


def test_the_harvest_areas_and_board_parts_are_titled_with_the_tables_names(monkeypatch):
    caches.clear_all()
    with record_text(monkeypatch) as drawn:
        compose.snapshot(game_at(2, "start"))
    texts = {d.text for d in drawn}
    for area in data.AREAS:
        assert words.capitalised(AREAS[area].one) in texts
    for part in ("wheel", "bank", "city", "supply"):
        assert words.capitalised(vocabulary.BOARD[part].one) in texts


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
