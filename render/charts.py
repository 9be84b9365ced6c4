"""A player's rating over their games, as a chart in the game's picture style.

Pure: the points and the words (already in the reader's language) in, PNG bytes out.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import fonts
from .palette import INK, MUTED, PANEL, PANEL_EDGE, PAPER, PLAYER_RGB

WIDTH, HEIGHT = 840, 440
MARGIN = 24
LEFT, RIGHT, TOP, BOTTOM = 92, 36, 120, 70
"""The plot's distance from the picture's edges (room for the scale and the dates)."""
LINE = PLAYER_RGB["blue"]
PROVISIONAL_WASH = (232, 226, 210)
GRID = (222, 214, 196)
START_LINE = (170, 155, 125)


@dataclass(frozen=True)
class ChartWords:
    """What the chart says, in the reader's language."""

    title: str
    """e.g. "Ana — rating 1234"."""
    subtitle: str
    """e.g. "12 rated games on this server"."""
    provisional: str
    """The label of the first games' band ("provisional")."""
    start: str
    """The label of the line every player starts from ("start 1000")."""


def _nice_step(span: float) -> int:
    """A round step for about five grid lines over `span`."""
    raw = max(span / 5, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)


def _panel(draw: ImageDraw.ImageDraw, width: int, height: int, title: str, subtitle: str) -> None:
    """A chart's card (the rounded panel on the paper) and its title over its subtitle,
    each cut to the card's width."""
    draw.rounded_rectangle(
        (MARGIN / 2, MARGIN / 2, width - MARGIN / 2, height - MARGIN / 2),
        radius=14,
        fill=PANEL,
        outline=PANEL_EDGE,
        width=2,
    )
    fitted = fonts.fit(title, fonts.HEADLINE, width - 2 * MARGIN - 20, bold=True)
    fonts.draw_text(draw, (MARGIN + 10, MARGIN + 4), fitted, fonts.HEADLINE, fill=INK, bold=True)
    under = fonts.fit(subtitle, fonts.TEXT, width - 2 * MARGIN - 20)
    fonts.draw_text(draw, (MARGIN + 12, MARGIN + 50), under, fonts.TEXT, fill=MUTED)


def rating_chart(
    ratings: Sequence[int],
    dates: Sequence[str],
    words: ChartWords,
    *,
    start: int = 1000,
    provisional_games: int = 5,
) -> bytes:
    """The rating after each game (`ratings`, oldest first, with each game's date as
    the reader writes it in `dates`), drawn as a line from the start rating."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    _panel(draw, WIDTH, HEIGHT, words.title, words.subtitle)
    values = [start, *ratings]
    low, high = min(values), max(values)
    step = _nice_step(max(high - low, 40))
    low = math.floor(low / step) * step
    high = math.ceil(high / step) * step
    if high == low:
        high = low + step
    x0, x1 = LEFT, WIDTH - RIGHT
    y0, y1 = TOP, HEIGHT - BOTTOM
    count = len(values)

    def x_of(index: int) -> float:
        return x0 + (x1 - x0) * index / max(count - 1, 1)

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * (value - low) / (high - low)

    # the first games' band: the rating is provisional there
    band_end = min(provisional_games, count - 1)
    if band_end > 0:
        draw.rectangle((x_of(0), y0, x_of(band_end), y1), fill=PROVISIONAL_WASH)
        # the label may reach past a narrow band: it names the band's start
        fonts.draw_text(draw, (x_of(0) + 6, y0 + 6), words.provisional, fonts.SMALL, fill=MUTED)
    value = low
    while value <= high:
        y = y_of(value)
        draw.line((x0, y, x1, y), fill=GRID, width=1)
        fonts.draw_text(draw, (x0 - 10, y), str(value), fonts.TEXT, fill=MUTED, anchor="rm")
        value += step
    # where everyone starts
    y_start = y_of(start)
    for x in range(x0, x1, 14):
        draw.line((x, y_start, min(x + 7, x1), y_start), fill=START_LINE, width=2)
    fonts.draw_text(draw, (x1 - 4, y_start - 4), words.start, fonts.TEXT, fill=MUTED, anchor="rd")
    draw.line((x0, y0, x0, y1), fill=PANEL_EDGE, width=2)
    draw.line((x0, y1, x1, y1), fill=PANEL_EDGE, width=2)
    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=4, joint="curve")
    dot = 5 if count <= 60 else 3
    for px, py in points[1:]:
        draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=LINE, outline=PANEL, width=1)
    # the last game's rating, written beside its dot
    last_x, last_y = points[-1]
    fonts.draw_text(
        draw,
        (min(last_x, x1 - 30), last_y - 12),
        str(values[-1]),
        fonts.LARGE,
        fill=INK,
        bold=True,
        anchor="md",
    )
    # a few dates along the bottom: the first game's, the last's and some between
    if dates:
        shown = sorted({0, len(dates) - 1, *(len(dates) * k // 4 for k in (1, 2, 3))})
        for index in shown:
            date_x = x_of(index + 1)
            anchor = "la" if index == 0 and len(dates) > 1 else "ma"
            if index == len(dates) - 1 and len(dates) > 1:
                anchor = "ra"
            fonts.draw_text(
                draw, (date_x, y1 + 10), dates[index], fonts.SMALL, fill=MUTED, anchor=anchor
            )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


STANDINGS_WIDTH, STANDINGS_HEIGHT = 840, 460
STANDINGS_RIGHT = 200
"""Room on the right for each line's name and points."""
LEADER_LINES: tuple[tuple[int, int, int], ...] = (
    PLAYER_RGB["blue"],
    PLAYER_RGB["red"],
    PLAYER_RGB["green"],
    (196, 150, 0),
)
"""The first four players' lines (the game's player colours, the yellow darkened to
read on the panel); the others are drawn thinner in grey."""
OTHER_LINE = (176, 166, 146)


@dataclass(frozen=True)
class StandingsChartWords:
    """What the standings chart says, in the reader's language."""

    title: str
    """e.g. "Autumn Cup — points after each round"."""
    subtitle: str
    """e.g. "The top 8 of 10 players after round 3"."""
    round_word: str
    """The x axis's word ("round")."""


def _spread(wanted: list[float], gap: float, low: float, high: float) -> list[float]:
    """Label heights near `wanted` (sorted top to bottom), at least `gap` apart."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, placed[-1] + gap) if placed else max(y, low))
    overflow = placed[-1] - high if placed else 0
    if overflow > 0:
        placed = [y - overflow for y in placed]
    return placed


def standings_chart(
    lines: Sequence[tuple[str, Sequence[float]]], words: StandingsChartWords
) -> bytes:
    """Each player's points after each round (`lines`: the name and the points after
    rounds 1, 2, …, the leader first), drawn from 0 before the first round; the first
    four in colour with their names, the others in grey."""
    width, height = STANDINGS_WIDTH, STANDINGS_HEIGHT
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    _panel(draw, width, height, words.title, words.subtitle)
    rounds = max((len(points) for _, points in lines), default=1)
    high_value = max((max(points, default=0) for _, points in lines), default=1)
    step = 1 if high_value <= 6 else _nice_step(high_value)
    high = max(math.ceil(high_value / step) * step, step)
    x0, x1 = LEFT - 40, width - STANDINGS_RIGHT
    y0, y1 = TOP, height - BOTTOM

    def x_of(index: int) -> float:
        return x0 + (x1 - x0) * index / max(rounds, 1)

    def y_of(value: float) -> float:
        return y1 - (y1 - y0) * value / high

    value = 0
    while value <= high:
        y = y_of(value)
        draw.line((x0, y, x1, y), fill=GRID, width=1)
        fonts.draw_text(draw, (x0 - 10, y), str(value), fonts.TEXT, fill=MUTED, anchor="rm")
        value += step
    for index in range(1, rounds + 1):
        fonts.draw_text(
            draw, (x_of(index), y1 + 10), str(index), fonts.TEXT, fill=MUTED, anchor="ma"
        )
    fonts.draw_text(
        draw, ((x0 + x1) / 2, y1 + 36), words.round_word, fonts.SMALL, fill=MUTED, anchor="ma"
    )
    draw.line((x0, y0, x0, y1), fill=PANEL_EDGE, width=2)
    draw.line((x0, y1, x1, y1), fill=PANEL_EDGE, width=2)
    # the others first, so that the leaders' lines are drawn over them
    order = list(enumerate(lines))
    for index, (_, points) in reversed(order):
        path = [(x_of(0), y_of(0))] + [(x_of(i + 1), y_of(v)) for i, v in enumerate(points)]
        colour = LEADER_LINES[index] if index < len(LEADER_LINES) else OTHER_LINE
        draw.line(path, fill=colour, width=4 if index < len(LEADER_LINES) else 2, joint="curve")
        dot = 5 if index < len(LEADER_LINES) else 3
        for px, py in path[1:]:
            draw.ellipse((px - dot, py - dot, px + dot, py + dot), fill=colour, outline=PANEL)
    leaders = [(i, name, points) for i, (name, points) in order[: len(LEADER_LINES)] if points]
    wanted = sorted((y_of(points[-1]), i, name, points[-1]) for i, name, points in leaders)
    heights = _spread([w[0] for w in wanted], 22, y0, y1)
    for (_, index, name, last), label_y in zip(wanted, heights, strict=True):
        shown = fonts.fit(name, fonts.TEXT, STANDINGS_RIGHT - 80, bold=True)
        label = f"{shown} {round(last, 2):g}"
        fonts.draw_text(
            draw,
            (x1 + 14, label_y),
            label,
            fonts.TEXT,
            fill=LEADER_LINES[index],
            bold=True,
            anchor="lm",
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=3)
    return out.getvalue()


__all__ = ["ChartWords", "StandingsChartWords", "rating_chart", "standings_chart"]
