"""Player boards: name, colour, coins, cows, canteens, goods, workers, settlements left."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from rules import Game, data

from . import fonts, icons
from .palette import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PLAYER_RGB,
    WHITE,
    seat_colour,
)
from .words import display_name

BOARD_WIDTH = 625
BOARD_HEIGHT = 224
NAME_SIZE = 30
COUNT_SIZE = 26


def _tag(
    draw: ImageDraw.ImageDraw,
    right: float,
    y: float,
    text: str,
    fill: tuple[int, int, int],
    ink: tuple[int, int, int],
) -> float:
    """A rounded label ending at `right`; returns its left edge."""
    width = fonts.text_width(text, 20, bold=True) + 20
    draw.rounded_rectangle(
        (right - width, y - 16, right, y + 16), radius=10, fill=fill, outline=INK, width=2
    )
    fonts.draw_text(draw, (right - width / 2, y), text, 20, fill=ink, bold=True, anchor="mm")
    return right - width


def _count(
    picture: Image.Image,
    draw: ImageDraw.ImageDraw,
    sprite: Image.Image,
    x: float,
    y: float,
    text: str,
) -> float:
    """An icon and its count from `x`; returns the x after them."""
    icons.paste(picture, sprite, (x + sprite.width / 2, y))
    x += sprite.width + 4
    return x + fonts.draw_text(draw, (x, y), text, COUNT_SIZE, fill=INK, bold=True, anchor="lm")


def draw_player_board(
    picture: Image.Image,
    game: Game,
    seat: int,
    origin: tuple[int, int],
    names: Mapping[str, str] | None = None,
) -> None:
    """One player's board with its top-left corner at `origin`."""
    player = game.players[seat]
    colour = seat_colour(seat)
    draw = ImageDraw.Draw(picture)
    x0, y0 = origin
    awaited = game.awaiting == player.id
    edge = HIGHLIGHT if awaited else PANEL_EDGE
    draw.rounded_rectangle(
        (x0, y0, x0 + BOARD_WIDTH, y0 + BOARD_HEIGHT),
        radius=12,
        fill=PANEL,
        outline=edge,
        width=5 if awaited else 2,
    )
    draw.rounded_rectangle(
        (x0 + 2, y0 + 2, x0 + 14, y0 + BOARD_HEIGHT - 2), radius=6, fill=PLAYER_RGB[colour]
    )
    icons.paste(picture, icons.house(colour, 44), (x0 + 46, y0 + 34))
    right: float = x0 + BOARD_WIDTH - 12
    tags_y = y0 + 32
    if game.awaiting == player.id:
        right = _tag(draw, right, tags_y, "TO PLAY", HIGHLIGHT, WHITE) - 6
    if not game.is_over and game.turn_player == player.id and not game.in_setup:
        right = _tag(draw, right, tags_y, "TURN", INK, WHITE) - 6
    if seat == 0:
        right = _tag(draw, right, tags_y, "START", (255, 236, 170), INK) - 6
    name = fonts.fit(display_name(player.id, names), NAME_SIZE, right - (x0 + 78), bold=True)
    fonts.draw_text(draw, (x0 + 76, y0 + 34), name, NAME_SIZE, fill=INK, bold=True, anchor="lm")

    y: float = y0 + 86
    x: float = x0 + 26
    x = _count(picture, draw, icons.coin(34), x, y, str(player.coins)) + 22
    x = _count(picture, draw, icons.cow(36), x, y, str(player.cows)) + 22
    x = _count(picture, draw, icons.canteen(36), x, y, str(player.canteens)) + 22
    x = _count(picture, draw, icons.house(colour, 34), x, y, f"{player.settlements_left} left")

    y = y0 + 136
    x = x0 + 26
    for good in data.GOODS:
        count = player.goods[good]
        ink = INK if count else MUTED
        icons.paste(picture, icons.good(good, 34), (x + 17, y))
        x += 38
        x += (
            fonts.draw_text(draw, (x, y), str(count), COUNT_SIZE, fill=ink, bold=True, anchor="lm")
            + 26
        )

    y = y0 + 188
    x = x0 + 26
    for colour_name in data.COLOURS:
        icons.paste(picture, icons.worker(colour_name, 38), (x + 19, y))
        x += 42
        x += (
            fonts.draw_text(
                draw,
                (x, y),
                str(player.workers[colour_name]),
                COUNT_SIZE,
                fill=INK,
                bold=True,
                anchor="lm",
            )
            + 28
        )
    fonts.draw_text(
        draw,
        (x + 6, y),
        f"workers {player.worker_count}/{data.MAX_WORKERS}",
        COUNT_SIZE - 2,
        fill=MUTED,
        bold=True,
        anchor="lm",
    )


def player_board_picture(
    game: Game, player_id: str, names: Mapping[str, str] | None = None
) -> Image.Image:
    """One player's board alone."""
    seat = game.seat_of(player_id)
    picture = Image.new("RGB", (BOARD_WIDTH + 20, BOARD_HEIGHT + 20), (233, 224, 200))
    draw_player_board(picture, game, seat, (10, 10), names)
    return picture


SUPPLY_HEIGHT = 60


def draw_supply(picture: Image.Image, game: Game, origin: tuple[int, int], width: int) -> None:
    """The general supply: goods, cows and workers left to take (the shortage rule)."""
    draw = ImageDraw.Draw(picture)
    x0, y0 = origin
    draw.rounded_rectangle(
        (x0, y0, x0 + width, y0 + SUPPLY_HEIGHT), radius=12, fill=PANEL, outline=PANEL_EDGE, width=2
    )
    y = y0 + SUPPLY_HEIGHT / 2
    x: float = x0 + 16
    x += fonts.draw_text(draw, (x, y), "Supply", COUNT_SIZE, fill=INK, bold=True, anchor="lm") + 18
    for good in data.GOODS:
        x = _count(picture, draw, icons.good(good, 32), x, y, str(game.supply.goods[good])) + 16
    x = _count(picture, draw, icons.cow(34), x, y, str(game.supply.cows)) + 20
    for colour_name in data.COLOURS:
        x = _count(
            picture,
            draw,
            icons.worker(colour_name, 34),
            x,
            y,
            str(game.supply.workers[colour_name]),
        )
        x += 14
