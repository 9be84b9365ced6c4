"""Names in any script come out as letters, never as empty boxes."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from render import fonts

from .helpers import rgb

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
