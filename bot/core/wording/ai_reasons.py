"""The AI's reasons for a move (`ai.Reason`, data) in the players' words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import render.words as render_words
from ai import Reason as AiReason
from bot.core.wording.phrasing import listed
from i18n import Translator
from render.vocabulary import GOODS, PIECES
from render.words import ENGLISH
from rules import data


def _good(key: str, t: Translator) -> str:
    return GOODS[key].name_in(t) if key in GOODS else key


def _goods_counted(key: str, n: int, t: Translator) -> str:
    return GOODS[key].count_in(t, n) if key in GOODS else f"{n} {key}"


def reason_words(
    reason: AiReason, t: Translator = ENGLISH, names: Mapping[str, str] | None = None
) -> str:
    """One reason of the AI's (`ai.Reason`, data) in `t`'s language: "4 points now",
    "takes the cow on C4", "gets 2 small copper"."""
    r, kind = reason, reason.kind
    if kind == "only_option":
        return t.gettext("the only possible move")
    if kind == "points_now":
        return t.ngettext("{n} point now", "{n} points now", r.value)
    if kind == "double_field":
        return t.gettext("{field} is a double field", field=r.field)
    if kind == "line_bonus":
        if r.value == 1:
            return t.gettext("completes a line of four")
        return t.ngettext("completes {n} line of four", "completes {n} lines of four", r.value)
    if kind == "takes_cow":
        return t.gettext("takes the cow on {field}", field=r.field)
    if kind == "takes_canteen":
        return t.gettext("takes {canteens}", canteens=PIECES["canteen"].count_in(t, r.value))
    if kind == "gains_goods":
        return t.gettext("gets {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "gains_coins":
        return t.gettext("gets {coins}", coins=PIECES["coin"].count_in(t, r.value))
    if kind == "gains_workers":
        workers = render_words.workers_phrase([r.good] * r.value, t) if r.good in WORKERS_OK else ""
        return t.gettext("gets {workers}", workers=workers or str(r.value))
    if kind == "gains_cow":
        return t.gettext("gets {cows}", cows=PIECES["cow"].count_in(t, r.value))
    if kind == "upgrades":
        return t.gettext("upgrades {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "pays_goods":
        return t.gettext("pays {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "city_row":
        return t.gettext("city row {row} for its reward", row=r.row)
    if kind == "overtakes":
        who = (names or {}).get(r.player, r.player)
        return t.gettext("pushes {who} out of row {row}", who=who, row=r.row)
    if kind == "extra_turn":
        return t.gettext("another turn at once")
    if kind == "enables_build":
        return t.gettext("then the goods pay for {field}", field=r.field)
    if kind == "closer_to_build":
        if r.missing:
            missing = " + ".join(_good(good, t) for good in r.missing)
            return t.gettext(
                "closer to {field} (missing {missing})", field=r.field, missing=missing
            )
        return t.gettext("closer to {field}", field=r.field)
    if kind == "keeps_good_for":
        return t.gettext("it leaves you {good} for {field}", good=_good(r.good, t), field=r.field)
    if kind == "recruits":
        return t.gettext(
            "about {workers} from the wheel", workers=PIECES["worker"].count_in(t, r.value)
        )
    if kind == "best_immediate_gain":
        return t.gettext("best immediate gain ({score})", score=f"{r.value / 10:g}")
    if kind == "random_choice":
        return t.gettext("picked at random")
    return kind.replace("_", " ")


def reasons_words(
    reasons: Iterable[AiReason], t: Translator = ENGLISH, names: Mapping[str, str] | None = None
) -> str:
    """The AI's reasons for a move, as one list: "4 points now, and takes the cow on C4"."""
    return listed([reason_words(reason, t, names) for reason in reasons], t)


WORKERS_OK: Final = frozenset(data.COLOURS)
"""Worker colours the pictures' phrase can word (the AI's `gains_workers` good)."""
