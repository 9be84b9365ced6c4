"""Decisions come with reasons as data that name real things, and read as one line."""

from __future__ import annotations

from ai import Decision, Reason, explain, get
from ai.decision import ENGLISH
from rules import Action, Game

from .helpers import play_through, small_ai


def settlements_on(game: Game, label: str, pid: str) -> int:
    return game.fields[label].settlements.count(pid)


def test_reasons_name_the_field_built_and_the_real_gain() -> None:
    checked: dict[str, int] = {}
    for seed in (1,):
        game = Game.new(["ana", "ben", "cleo"], seed=seed)
        policies = {"ana": small_ai(), "ben": get("random"), "cleo": get("greedy")}
        for position, pid, decision in play_through(game, policies, seed):
            if pid == "ben":
                continue  # random: its one reason is that it drew the move
            after = position.copy()
            after.apply(pid, decision.action)
            me = after.player(pid)
            for reason in decision.reasons:
                assert reason.kind in ENGLISH, reason
                checked[reason.kind] = checked.get(reason.kind, 0) + 1
                if reason.kind == "points_now":
                    assert decision.action == Action("build", (reason.field,))
                    gained = settlements_on(after, reason.field, pid) - settlements_on(
                        position, reason.field, pid
                    )
                    assert reason.value == gained > 0
                if reason.kind == "takes_cow":
                    assert position.fields[reason.field].cow
                    assert not after.fields[reason.field].cow
                if reason.kind == "keeps_good_for":
                    assert me.goods[reason.good] > 0
                    assert after.fields[reason.field].buildable
                if reason.kind in ("enables_build", "closer_to_build"):
                    assert after.fields[reason.field].buildable
                if reason.kind == "city_row":
                    assert decision.action.verb in ("city", "place")
                    assert decision.action.args == (str(reason.row), str(reason.value))
            builds = [r for r in decision.reasons if r.kind == "points_now"]
            assert len(builds) == (decision.action.verb == "build")
    for kind in ("points_now", "city_row", "gains_goods", "best_immediate_gain"):
        assert checked.get(kind), (kind, checked)


def test_explain_reads_as_one_english_line() -> None:
    decision = Decision(
        Action("build", ("E4",)),
        (
            Reason("points_now", value=4, field="E4"),
            Reason("keeps_good_for", good="copper", field="D2"),
        ),
        considered=12,
    )
    assert explain(decision) == "build E4: 4 points now, and it leaves you copper for D2"


def test_explain_uses_the_names_given_for_players() -> None:
    decision = Decision(
        Action("place", ("2", "2")),
        (Reason("city_row", row=2, value=2), Reason("overtakes", row=2, player="1234")),
        considered=3,
    )
    assert explain(decision, {"1234": "Ana"}) == (
        "place 2 2: city row 2 for its reward, and pushes Ana out of row 2"
    )
    assert explain(Decision(Action("pass"), (Reason("only_option"),), 1)) == (
        "pass: the only possible move"
    )
