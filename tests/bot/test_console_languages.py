"""A whole console game in each language (issue 13: `--lang`), and the bot's own counted
sentences in Polish.

The console game is played by menu numbers and notation to its end, as in
`test_console.py`, with the game opened in the language; every line the console prints
is then in that language: the seat draw, the prompts, the menus, the final ranking.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.console import Console, ConsoleAnnouncer, parse_args, start_new
from bot.core.assembly import game_service
from bot.core.delivery.pictures import BlankRenderer
from bot.core.store import FINISHED, Store
from bot.core.wording import words
from i18n import Language, translator
from rules import Event
from rules.simulate import choose_action

WORDS: dict[Language, tuple[str, str, str]] = {
    # (the seat draw, the first menu's instruction, the final ranking's title)
    "en": ("Seat order, drawn at random:", "Choose your action:", "Final ranking"),
    "fr": (
        "Ordre des places, tiré au sort\u202f:",
        "Choisissez votre action\u202f:",
        "Classement final",
    ),
    "pl": ("Kolejność miejsc, wylosowana:", "Wybierz akcję:", "Klasyfikacja końcowa"),
    "ja": ("席順（ランダム）：", "アクションを選んでください：", "最終順位"),
}
ENGLISH_ONLY = (
    "Seat order",
    "Choose your action",
    "Final ranking",
    "your turn",
    "Refused",
    "Pictures go to",
)


@pytest.mark.parametrize("language", ["en", "fr", "pl", "ja"])
def test_a_whole_console_game_is_played_in_each_language(
    tmp_path: Path, language: Language
) -> None:
    output: list[str] = []
    rng = random.Random(7)
    with asyncio.Runner() as runner:
        store = runner.run(Store.open(str(tmp_path / "console.sqlite3")))
        try:
            announcer = ConsoleAnnouncer(tmp_path / "pictures", output.append)
            service = game_service(store, renderer=BlankRenderer(), announcer=announcer)
            game_id = runner.run(start_new(service, ["ana", "ben"], 7, language))
            moves = 0

            def player(prompt: str) -> str:
                nonlocal moves
                moves += 1
                assert moves < 3000, "the game does not end"
                game = console.current()[1]
                _, action = choose_action(game, rng)
                numbers = {choice.code: n for n, choice in console.choices.items()}
                if f"a:{action}" in numbers and rng.random() < 0.6:
                    return str(numbers[f"a:{action}"])
                return str(action)

            console = Console(
                runner,
                service,
                announcer,
                game_id,
                db_path=tmp_path / "console.sqlite3",
                read=player,
                write=output.append,
            )
            assert console.loop() == 0
            row, game = console.current()
        finally:
            runner.run(store.close())
    assert game.is_over and row.status == FINISHED and row.language == language
    text = "\n".join(output)
    seating, menu, ranking = WORDS[language]
    assert seating in text and menu in text and ranking in text
    # the final ranking names every player, in the engine's order, in the game's language
    tail = text[text.rindex(ranking) :]
    positions = [tail.index(f"{s.place}. {row.names[s.player]}") for s in game.result().ranking]
    assert positions == sorted(positions)
    if language != "en":
        assert not [word for word in ENGLISH_ONLY if word in text]


def test_lang_is_an_option_of_the_console_and_checked() -> None:
    assert parse_args(["--players", "ana,ben", "--lang", "pl"]).language == "pl"
    assert parse_args(["--players", "ana,ben"]).language is None
    with pytest.raises(SystemExit):
        parse_args(["--players", "ana,ben", "--lang", "de"])


@pytest.mark.parametrize(
    ("n", "cows", "pumpkins"),
    [
        (1, "1 krowa", "płaci 1 dynię"),
        (2, "2 krowy", "płaci 2 dynie"),
        (5, "5 krów", "płaci 5 dyń"),
        (22, "22 krowy", "płaci 22 dynie"),
        (25, "25 krów", "płaci 25 dyń"),
    ],
)
def test_the_bots_polish_sentences_take_the_three_plural_forms(
    n: int, cows: str, pumpkins: str
) -> None:
    polish = translator("pl")
    assert words.gained_text({"cows": n}, polish) == cows
    paid = Event("pay", "ana", {"pumpkins": n, "row": 2})
    assert words.describe([paid], {"ana": "Ana"}, t=polish) == (
        f"Ana {pumpkins} za rząd 2 w mieście."
    )
