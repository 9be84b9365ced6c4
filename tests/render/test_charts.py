"""The rating chart (issue 22 point 3): a picture for one game and for hundreds, in
every script the names and the words may come in."""

from __future__ import annotations

import io

from PIL import Image

from render.charts import HEIGHT, WIDTH, ChartWords, rating_chart

WORDS = ChartWords("Zażółć — rating 1034? ", "1 rated game · 1 won", "provisional", "start 1000")


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def test_one_game_draws_its_point_above_the_start() -> None:
    image = picture(rating_chart([1034], ["3 Mar"], WORDS))
    assert image.size == (WIDTH, HEIGHT)
    # the line's blue is there (the one game's dot and the segment from the start)
    assert (40, 100, 215) in {colour for _, colour in image.getcolors(WIDTH * HEIGHT) or []}


def test_hundreds_of_games_and_japanese_words_fit() -> None:
    ratings = [1000 + (n * 7) % 300 for n in range(300)]
    words = ChartWords(
        "さくら — レーティング 1234（3位）", "このサーバーで300回", "暫定", "開始 1000"
    )
    image = picture(rating_chart(ratings, [f"{n % 28 + 1}日" for n in range(300)], words))
    assert image.size == (WIDTH, HEIGHT)


def blue_height(image: Image.Image, columns: range) -> float:
    """The mean row of the line's blue within `columns` (greater: lower on the picture)."""
    pixels = image.load()
    assert pixels is not None
    rows = [y for y in range(image.size[1]) for x in columns if pixels[x, y] == (40, 100, 215)]
    assert rows
    return sum(rows) / len(rows)


def test_the_line_goes_down_for_a_falling_rating_and_up_for_a_rising_one() -> None:
    left, right = range(100, 160), range(WIDTH - 100, WIDTH - 40)
    falling = picture(rating_chart([980, 950, 920], ["a", "b", "c"], WORDS))
    rising = picture(rating_chart([1020, 1050, 1080], ["a", "b", "c"], WORDS))
    assert blue_height(falling, right) > blue_height(falling, left)
    assert blue_height(rising, right) < blue_height(rising, left)
