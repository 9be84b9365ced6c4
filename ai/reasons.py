"""Reasons read off what an action did (its events) and off the player's build plan."""

from __future__ import annotations

from rules import Action, Event, data

from .decision import Reason
from .evaluate import Plan

LARGE_GOODS = frozenset(data.UPGRADES.values())


def _goods_reasons(goods: dict[str, int], *, skip_large: bool = False) -> list[Reason]:
    return [
        Reason("gains_goods", value=n, good=g)
        for g, n in goods.items()
        if n > 0 and not (skip_large and g in LARGE_GOODS)
    ]


def event_reasons(action: Action, player_id: str, events: list[Event]) -> list[Reason]:
    """What `action` gave `player_id`, from the events its `apply` returned."""
    reasons: list[Reason] = []
    for event in events:
        if event.kind == "spin":
            break  # the wheel of a simulated copy is not the real one: what follows may differ
        d = event.data
        if event.kind == "overtaken" and d.get("by") == player_id:
            reasons.append(Reason("overtakes", row=d["row"], player=event.player or ""))
            continue
        if event.player != player_id:
            continue
        if event.kind == "build":
            label = d["field"]
            reasons.append(Reason("points_now", value=d["settlements"], field=label))
            if "double" in d["bonuses"]:
                reasons.append(Reason("double_field", field=label))
            lines = d["bonuses"].count("line")
            if lines:
                reasons.append(Reason("line_bonus", value=lines, field=label))
            if d["gained"].get("cows"):
                reasons.append(Reason("takes_cow", field=label))
            if d["gained"].get("canteens"):
                reasons.append(Reason("takes_canteen", value=d["gained"]["canteens"], field=label))
        elif event.kind in ("harvest", "extra"):
            reasons.extend(_goods_reasons(d["goods"]))
        elif event.kind == "bank" or (event.kind == "stop" and d["coins"]):
            reasons.append(Reason("gains_coins", value=d["coins"]))
        elif event.kind == "trade":
            gained = dict(d["gained"])
            if d["worker"]:
                reasons.extend(
                    Reason("gains_workers", value=n, good=c) for c, n in gained.items() if n
                )
            else:
                coins = gained.pop("coins", 0)
                if coins:
                    reasons.append(Reason("gains_coins", value=coins))
                reasons.extend(_goods_reasons(gained))
        elif event.kind == "reward":
            gained = dict(d["gained"])
            for small in data.UPGRADES:
                count = d["upgraded"].count(small)
                if count:
                    reasons.append(Reason("upgrades", value=count, good=small))
            if gained.pop("cows", 0):
                reasons.append(Reason("gains_cow", value=1))
            coins = gained.pop("coins", 0)
            if coins:
                reasons.append(Reason("gains_coins", value=coins))
            reasons.extend(_goods_reasons(gained, skip_large=True))
        elif event.kind in ("city", "place"):
            reasons.append(Reason("city_row", row=d["row"], value=d["column"]))
        elif event.kind == "canteen":
            reasons.append(Reason("extra_turn"))
        elif event.kind == "workers":
            reasons.extend(
                Reason("gains_workers", value=n, good=c) for c, n in d["workers"].items() if n
            )
    if action.verb == "recruit":
        reasons.append(Reason("recruits", value=len(data.WHEEL[0])))
    return reasons


def plan_reasons(before: Plan, after: Plan, spent_on: str = "") -> list[Reason]:
    """How the action moved the player's build plan along.

    `spent_on` is the field the action built on, whose goods are not "kept".
    """
    reasons: list[Reason] = []
    newly = [label for label in after.affordable if label not in before.affordable]
    if newly:
        reasons.append(Reason("enables_build", field=newly[0]))
    elif after.closest and (
        not before.closest
        or after.closest[0][0] != before.closest[0][0]
        or len(after.closest[0][1]) < len(before.closest[0][1])
    ):
        label, missing = after.closest[0]
        reasons.append(Reason("closer_to_build", field=label, missing=missing))
    if spent_on:
        for good, label in after.allocation:
            if label != spent_on:
                reasons.append(Reason("keeps_good_for", good=good, field=label))
                break
    return reasons
