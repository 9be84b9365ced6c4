"""Events put into the words players use (no notation, names instead of ids)."""

from __future__ import annotations

from bot.core.wording import words
from rules import Event
from tests.bot.games import at_first_main_decision

NAMES = {"1": "Ana", "2": "Ben", "3": "Cleo"}


def test_a_build_action_reads_like_the_rulebook() -> None:
    events = [
        Event(
            "build",
            "1",
            {
                "field": "C4",
                "paid": {"bigstone": 1, "grain": 1},
                "settlements": 1,
                "bonuses": [],
                "gained": {"cows": 1, "canteens": 1},
                "build_number": 1,
            },
        ),
        Event("stop", "1", {"builds": 2, "coins": 1}),
        Event("turn_end", "1"),
        Event("turn", "2", {"number": 5}),
    ]
    assert words.describe(events, NAMES) == (
        "Ana built on C4 (paid 1 grain + 1 large stone), took the cow and the canteen "
        "and stopped building (+1 coin)."
    )


def test_overtaking_and_shortage_are_their_own_sentences() -> None:
    events = [
        Event("place", "2", {"row": 1, "column": 2}),
        Event("overtaken", "1", {"by": "2", "row": 1}),
        Event(
            "shortage",
            "3",
            {"pool": "goods", "name": "stone", "needed": 3, "returned": {"1": 1, "3": 1}},
        ),
        Event(
            "harvest",
            "3",
            {"area": "quarry", "place": 3, "workers": ["stone"], "coins": 6, "goods": {"stone": 3}},
        ),
    ]
    text = words.describe(events, NAMES)
    assert text == (
        "Ben took row 1, column 2 in the city. Ben overtook Ana in row 1. "
        "The supply ran short of small stone: Ana returned 1 and Cleo returned 1. "
        "Cleo worked the quarry (place 3) with a stone worker, paid 6 coins and took 3 small stone."
    )


def test_actions_without_events_still_get_words() -> None:
    assert words.describe([], NAMES, actor="2", move="noextra") == "Ben left the extra box empty."
    assert "did not move the arrow" in words.describe([], NAMES, actor="2", move="advance 0")


def test_workers_and_goods_phrases() -> None:
    assert words.workers_text(["copper", "grain"]) == "a copper and a grain worker"
    assert words.workers_text({"pumpkin": 2}) == "2 pumpkin workers"
    assert words.workers_text({"copper": 2, "grain": 1}) == "2 copper workers and a grain worker"
    assert words.goods_text({"pumpkin": 2, "bigcopper": 1}) == "2 pumpkins + 1 large copper"
    assert words.plural(1, "coin") == "1 coin" and words.plural(3, "coin") == "3 coins"


def test_waiting_for_names_the_player_and_their_task() -> None:
    game, pid = at_first_main_decision(["1", "2"], 1)
    name = NAMES[pid]
    assert words.waiting_for(game, NAMES) == (
        f"The game is waiting for {name} to recruit, work or build."
    )


def test_counts_agree_with_their_nouns_and_lists_read_like_sentences() -> None:
    assert words.plural(0, "cow") == "0 cows"
    assert words.plural(1, "cow or canteen", "cows and canteens") == "1 cow or canteen"
    assert words.join_words(["the bank"]) == "the bank"
    assert words.join_words(["the bank", "the mine"]) == "the bank and the mine"
    assert words.join_words(["a", "b", "c"], "or") == "a, b, or c"
    assert words.gained_text({"cows": 1, "coins": 2}) == "1 cow and 2 coins"


def test_the_ranking_counts_one_cow_as_one_cow() -> None:
    """Issue 12: the ranking said "1 cows + canteens"."""
    from rules import Game

    game = Game.new(["1", "2"], seed=1)
    first, second = game.players
    first.cows, first.canteens = 1, 0
    second.cows, second.canteens = 2, 1
    text = words.results(game, NAMES)
    assert "1 cow or canteen," in text and "3 cows and canteens," in text
    assert "cows + canteens" not in text and "1 cows" not in text
    holdings = {s.player: s.holdings for s in game.result().ranking}
    for pid, held in holdings.items():
        noun = "good, coin or worker" if held == 1 else "goods, coins and workers"
        assert f"{NAMES[pid]} (" in text and f"{held} {noun}" in text


def test_what_may_be_done_is_a_list_of_alternatives() -> None:
    game, pid = at_first_main_decision(["1", "2"], 1)
    allowed = words.allowed_now(game, pid)
    assert allowed.startswith("You may now: recruit, ") and allowed.endswith(".")
    assert ", or " in allowed  # the last alternative, as a person writes it


FORCED_WORDS = {
    "bid": "could pay for no free space in the city and passed",
    "advance": "had no grain to move the arrow",
    "extra": "had no workers for the extra box",
    "build": "could build nothing more and stopped building",
    "reward": "had no small copper or small stone to upgrade",
    "return": "had to give back a copper worker (8 at most)",
}


def forced_steps_of_every_kind() -> dict[str, tuple[list[Event], str]]:
    """decision -> (the events of an action after which the engine made a forced step of
    that kind, the player it was made for): from random games, and a return built."""
    import random

    from rules import Game
    from rules.simulate import choose_action

    found: dict[str, tuple[list[Event], str]] = {}
    for seed in range(6):
        game = Game.new(["1", "2", "3"][: 2 + seed % 2], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            pid, action = choose_action(game, rng)
            events = game.apply(pid, action)
            for event in events:
                if event.kind == "forced" and event.player is not None:
                    found.setdefault(str(event.data["decision"]), (events, event.player))
    # a player with 8 copper workers trades their only cow for another: one way back
    game, pid = at_first_main_decision(["1", "2"], 1)
    player = game.player(pid)
    player.workers = {colour: 8 if colour == "copper" else 0 for colour in player.workers}
    player.cows = 1
    found["return"] = (game.apply(pid, "trade worker copper"), pid)
    return found


def test_every_kind_of_forced_step_is_said_as_one() -> None:
    """RULES.md 7.3: the steps applied without asking are said as such, each kind in its
    own words, under the name of the player they were made for."""
    found = forced_steps_of_every_kind()
    assert set(found) == set(FORCED_WORDS)
    for decision, (events, pid) in found.items():
        text = words.describe(events, NAMES)
        clause = FORCED_WORDS[decision]
        assert clause in text, (decision, text)
        # said in the sentence of the player it was made for
        before = text[: text.index(clause)]
        subject = max(NAMES.values(), key=before.rfind)
        assert subject == NAMES[pid] and before.rfind(subject) >= 0, (decision, text)
        # each step is said once (a forced one as forced, not again as a plain move)
        for kind, phrases in (
            ("pass", ("passed",)),
            ("stop", ("stopped building",)),
            ("return", ("gave back", "give back")),
        ):
            said = sum(text.count(phrase) for phrase in phrases)
            assert said == sum(event.kind == kind for event in events), (kind, text)


def test_a_pass_in_advance_is_said_as_one() -> None:
    events = [words.in_advance("3"), Event("pass", "3"), Event("auction_end", "1", {"city": {}})]
    assert words.describe(events, NAMES) == "Cleo passed in advance. The city auction is over."
