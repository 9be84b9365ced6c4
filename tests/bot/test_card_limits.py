"""Every kind of card fits Discord's limits in every language and pictures mode (issue 39
point 3): 4,000 characters of text across a message's displays, 40 components counted
nested, 5 buttons per row, 25 options per select; and each is valid under Discord's
OpenAPI spec and accepted by the fake Discord's checks.

The move cards are those of every decision of random games of 2, 3 and 4 players, each
at its most crowded: the whole turn's account so far (long), every note a prompt can
carry (away, quiet hours, refused picture, the game moving to the channel), the link to
the live board and the Board button; the lobby, the results, the summary's and the
deadline's cards beside them.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.core.delivery.outcome import Outcome, Ticket
from bot.core.store import (
    PICTURES_END_OF_TURN,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
    Away,
    GameRow,
    Seat,
)
from bot.core.wording import words
from bot.discord_app import cards
from bot.discord_app.components import PICTURE_NAME
from bot.discord_app.delivery.announce import NO_PICTURE, THREAD_REFUSED, card_of, compose
from bot.discord_app.delivery.weblinks import OPEN_LIVE_BOARD, with_link
from i18n import LANGUAGES, Language, translator
from rules import Game
from rules.simulate import choose_action
from tests.bot.fakediscord.model import iter_components
from tests.bot.fakediscord.spec import errors, spec
from tests.bot.fakediscord.validation import validate_message

MODES = (PICTURES_EVERY_MOVE, PICTURES_END_OF_TURN, PICTURES_ON_REQUEST)
NAMES = ("Anastazja Wielkopolska", "Bénédicte-Éléonore", "長谷川みなみ", "Maximilian")
MOMENT = datetime(2030, 1, 1, tzinfo=UTC)


def row_of(game: Game, language: str, pictures: str, status: str = "active") -> GameRow:
    seats = tuple(
        Seat(pid, NAMES[index]) for index, pid in enumerate(game.player_ids)
    )  # long names in every script
    return GameRow(
        id=123456789,
        guild_id=1,
        channel_id=2,
        thread_id=3,
        creator_id=game.player_ids[0],
        status=status,
        players=seats,
        state_json=None,
        version=len(game.log),
        message_id=None,
        lobby_message_id=None,
        created_at="2030-01-01T00:00:00",
        updated_at="2030-01-01T00:00:00",
        undo_epoch=123,
        language=language,
        pictures=pictures,
    )


def limits_broken(components: list[dict[str, Any]], picture: str | None) -> list[str]:
    """What Discord would refuse in a card: the fake's checks and the spec's."""
    found = []
    total = sum(1 for _ in iter_components(components))
    if total > cards.COMPONENT_LIMIT:
        found.append(f"{total} components")
    text = cards.text_length(components)
    if text > cards.TEXT_LIMIT:
        found.append(f"{text} characters")
    for component in iter_components(components):
        children = component.get("components") or []
        if component.get("type") == 1 and len(children) > 5:
            found.append(f"a row of {len(children)}")
        if component.get("type") == 3 and len(component.get("options") or []) > 25:
            found.append("a select of more than 25 options")
    body: dict[str, Any] = {"flags": cards.COMPONENTS_V2, "components": components}
    files = [(picture, b"")] if picture else []
    if picture:
        body["attachments"] = [{"id": 0, "filename": picture}]
    try:
        validate_message(body, files, allow_empty=False)
    except Exception as refused:  # the fake's answer, as Discord's
        found.append(str(refused))
    found += errors(body, spec()["routes"]["POST /channels/{id}/messages"])
    return found


def move_cards(game: Game, language: Language, pictures: str) -> list[cards.Card]:
    """The most crowded card of `game`'s current state, and of its results if over."""
    t = translator(language)
    row = row_of(game, language, pictures, "active" if not game.is_over else "finished")
    names = row.names
    account = words.describe([], names, t=t)
    lines = [t.gettext("{who} moves in a few seconds.", who=name) + " " + account for name in NAMES]
    text = "\n".join(lines * 60)  # far more than a card holds: its start is cut
    awaited = game.awaiting or game.player_ids[0]
    outcome = Outcome(
        row=row,
        game=game,
        actor=game.player_ids[0],
        events=[],
        text=text,
        picture=b"" if pictures == PICTURES_ON_REQUEST else b"png",
        previous_message_id=None,
        away={awaited: Away(awaited, MOMENT, MOMENT + timedelta(days=14))},
        quiet={awaited: MOMENT + timedelta(hours=8)},
        ticket=Ticket("nonce", MOMENT, False, owed_id=2**62),
    )
    parts = compose(outcome, None)
    parts.rows = with_link(parts.rows, t.translate(OPEN_LIVE_BOARD), "https://example.org/g/x")
    notes = [
        t.translate(NO_PICTURE, channel=2**62),
        t.translate(
            THREAD_REFUSED,
            thread=2**62,
            missing=t.gettext("I lack {permissions} there", permissions="**X**"),
        ),
    ]
    picture = PICTURE_NAME if outcome.picture else None
    return [card_of(parts, notes, outcome.ticket, picture)]


def states(players: int, seed: int) -> list[Game]:
    """The game after each move of a random game, to its end (a copy of each)."""
    game = Game.new([f"{10**17 + n}" for n in range(players)], seed=seed)
    rng = random.Random(seed)
    seen = [Game.from_dict(game.to_dict())]
    while not game.is_over:
        game.apply(*choose_action(game, rng))
        seen.append(Game.from_dict(game.to_dict()))
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_move_card_fits_discords_limits_in_every_pictures_mode(language: Language) -> None:
    checked = 0
    kinds: set[str] = set()
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for index, game in enumerate(states(players, seed)):
            if index % 15 and not game.is_over and game.pending.kind in kinds:
                continue  # every kind of decision, and every 15th state besides
            kinds.add(game.pending.kind if not game.is_over else "over")
            for pictures in MODES:
                for card in move_cards(game, language, pictures):
                    components = cards.sent_components(card)
                    shown = PICTURE_NAME if pictures != PICTURES_ON_REQUEST else None
                    assert limits_broken(components, shown) == [], (game.pending.kind, pictures)
                    # the card keeps what matters when cut: the prompt and the identity
                    assert cards.text_length(components) <= cards.TEXT_LIMIT
                    checked += 1
    assert {"main", "bid", "build", "end", "over"} <= kinds
    assert checked > 50


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_cards_fit_discords_limits(language: Language) -> None:
    t = translator(language)
    long = "\n".join([t.gettext("Daily digest: off.")] * 400)
    for card in (
        cards.simple(long),
        cards.simple(long, picture="chart.png", alt=long),
    ):
        components = cards.sent_components(card)
        assert limits_broken(components, "chart.png") == []


def test_a_cut_card_keeps_its_prompt_and_its_identity() -> None:
    mark = "\u200c\u200b\u200b\u200c\u200c"
    texts = cards.fit_texts(["w" * 9000, "the prompt", "-# a note"], mark, cut=0)
    assert texts[0].startswith("…") and texts[1] == "the prompt"
    assert texts[2].endswith(mark) and sum(map(len, texts)) == cards.TEXT_LIMIT
