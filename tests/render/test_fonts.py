"""Names in any script come out as letters, never as empty boxes."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import caches, compose, fonts, textboxes
from render.replay import turn_states

from .helpers import game_at, rgb

NAMES = [
    "Zażółć gęślą jaźń ŻÓŁĆ",
    "さくら 太郎",
    "山田花子",
    "Cleo 🐄🎲",
    "👍🏽 thumbs",
    "🇵🇱 flag",
]


@pytest.mark.parametrize("name", NAMES)
def test_every_character_of_a_name_gets_a_font_that_has_it(name):
    runs = fonts.split_runs(name)
    assert "".join(run for _, run in runs) == name
    chain = fonts.font_chain()
    for index, run in runs:
        for char in run:
            if not fonts._attaches_to_previous(char):
                assert fonts.has_glyph(chain[index], char), (char, chain[index].name)


def test_the_chain_holds_latin_japanese_and_emoji_fonts_from_the_dependencies():
    names = [source.name for source in fonts.font_chain()]
    assert names[0] == "Noto Sans"
    assert "Noto Sans CJK" in names
    assert "OpenMoji" in names


def test_scripts_go_to_different_fonts():
    chain = fonts.font_chain()
    runs = dict((run, chain[i].name) for i, run in fonts.split_runs("Ża さくら 🐄"))
    assert runs["Ża "] == "Noto Sans"
    assert runs["さくら"] == "Noto Sans CJK"
    assert runs["🐄"] == "OpenMoji"


def test_a_skin_tone_stays_with_its_emoji():
    runs = fonts.split_runs("👍🏽")
    assert len(runs) == 1


def test_a_character_no_font_has_becomes_a_question_mark():
    private_use = "\U0010fffd"
    assert fonts.split_runs(f"a{private_use}b") == ((0, "a?b"),)


def _ink(text: str, index: int | None = None) -> Image.Image:
    picture = Image.new("RGB", (240, 60), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    if index is None:
        fonts.draw_text(draw, (10, 30), text, 32, fill=(0, 0, 0), anchor="lm")
    else:
        draw.text((10, 30), text, font=fonts.font(index, 32), fill=(0, 0, 0), anchor="lm")
    return picture


def test_japanese_is_drawn_as_distinct_glyphs_not_the_missing_glyph_box():
    # drawn with the Latin font alone, two different kana give the same .notdef box
    assert _ink("さ", 0).tobytes() == _ink("く", 0).tobytes()
    # through the fallback chain they differ, and both leave ink
    sa, ku = _ink("さ"), _ink("く")
    assert sa.tobytes() != ku.tobytes()
    assert sa.getextrema() != ((255, 255), (255, 255), (255, 255))


def test_emoji_keep_their_colours():
    picture = _ink("🐄")
    colours = {rgb(picture, (x, y)) for x in range(10, 60) for y in range(10, 50)}
    assert any(r != g or g != b for r, g, b in colours), "a colour emoji, not a grey outline"


def test_fit_cuts_long_text_with_an_ellipsis():
    long = "Grzegorz Brzęczyszczykiewicz"
    cut = fonts.fit(long, 30, 200)
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert fonts.text_width(cut, 30) <= 200
    assert fonts.fit("Ana", 30, 200) == "Ana"


def _drawn_whole(picture: Image.Image, text: str, size: int, bold: bool) -> None:
    """`text` as FreeType draws each of its runs whole (Pillow's `ImageDraw.text`, each
    run at the whole pixel where the one before it ends): the reference."""
    draw = ImageDraw.Draw(picture)
    x = 13.0
    ascent, descent = fonts.font(0, size, bold, False).getmetrics()
    y = fonts.pixel(70 + (ascent - descent) / 2)
    for index, run in fonts.split_runs(text):
        loaded = fonts.run_font(index, size, bold, run)
        draw.text((fonts.pixel(x), y), run, font=loaded, fill=(250, 240, 200), anchor="ls")
        x += fonts.text_width(run, size, bold)


def _sentences() -> set[tuple[str, int]]:
    """Every text of a game's pictures in each language: its header's sentences at
    every turn, the boards' words, names with accents and kana."""
    texts: set[tuple[str, int]] = set()
    game = game_at(4, "end", seed=3)
    names = {pid: f"Żaneta-{pid} O'Neill ジョン" for pid in game.player_ids}
    for language in ("en", "fr", "pl", "ja"):
        caches.clear_all()
        with textboxes.recording() as drawn:
            for index, state in enumerate(turn_states(game)):
                if index % 5 == 0:
                    compose.snapshot(state.game, names=names, language=language)
        texts.update((box.text, box.size) for box in drawn)
    return texts


def test_a_text_drawn_word_by_word_is_the_text_freetype_draws_whole() -> None:
    """Issue 37: a sentence is drawn from its words' masks, each drawn by FreeType once
    and kept; the pixels are those of each run drawn whole, in every language, size
    and weight."""
    texts = _sentences()
    assert len(texts) > 300
    split = 0
    for text, size in sorted(texts):
        for bold in (False, True):
            ours = Image.new("RGB", (2400, 140), (40, 30, 60))
            reference = ours.copy()
            fonts.draw_text(
                ImageDraw.Draw(ours), (13, 70), text, size, fill=(250, 240, 200), bold=bold,
                anchor="lm",
            )  # fmt: skip
            _drawn_whole(reference, text, size, bold)
            assert ours.tobytes() == reference.tobytes(), (text, size, bold)
            split += any(fonts._pieces(i, size, bold, run) for i, run in fonts.split_runs(text))
    assert split > len(texts)  # most texts, in both weights, drawn word by word


def test_a_new_sentence_of_words_drawn_before_asks_freetype_for_no_drawing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A header's sentence is new at every turn, its words are not."""
    calls: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def spied(self: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spied)
    picture = Image.new("RGB", (900, 60), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    fonts.draw_text(draw, (10, 30), "Ana built on C4 and C5, took 2 wood", 26, fill=(0, 0, 0))
    fonts.draw_text(draw, (10, 30), "建設", 26, fill=(0, 0, 0))
    assert calls
    calls.clear()
    fonts.draw_text(draw, (10, 30), "took 2 wood and C5, built on C4 Ana", 26, fill=(0, 0, 0))
    fonts.draw_text(draw, (10, 30), "設建", 26, fill=(0, 0, 0))
    assert calls == []
