"""The rules in short: the answer of `/montana game rules`."""

from __future__ import annotations

from i18n import Translator
from render.words import ENGLISH
from rules import data


def rules_lines(t: Translator = ENGLISH) -> list[str]:
    """The rules in short, a paragraph a line; the last line names the slash commands."""
    return [
        t.gettext("**Montana in a nutshell** — build the most settlements on the landscape."),
        t.gettext("On your turn take **one** action:"),
        t.gettext(
            "• **Recruit**: spin the wheel and take the 2 workers it shows (wild: any "
            "colours); you may then pay grain to move the arrow, 1 grain a segment, and take "
            "that segment's 2 workers too. Keep at most {limit} workers.",
            limit=data.MAX_WORKERS,
        ),
        t.gettext(
            "• **Work**: put workers on a free bank space (take its coins), on the harvest "
            "box of a harvest place (1 worker of the area's colour or 2 of any; pay its "
            "coins, take its goods; then optionally its extra box for 1 more), or go to the "
            "**city**: take a free pumpkin and a space; the others answer in turn — taking "
            "a space, or passing (or passing in advance, before their turn to answer "
            "comes). Entering an occupied row means standing to the right, and the one "
            "overtaken must move or pass. At the end each pays the column's pumpkins and "
            "takes the row's reward; an upgrade gives back a small copper or small stone "
            "for a large copper or large stone."
        ),
        t.gettext(
            "• **Build** 1 to 3 times: pay the goods printed on a free field touching a "
            "settlement or the start tile. Cows and canteens on it or next to it are yours; "
            "double fields and lines of exactly 4 give bonus settlements. Each unused build "
            "pays 1 coin (1 build: +2)."
        ),
        t.gettext(
            "Any time in your own turn: a **cow trade**: 1 cow for 1 good, {coins} coins or "
            "1 worker. At the end of your turn you may spend a **canteen** for another turn.",
            coins=data.COW_TRADE_COINS,
        ),
        t.gettext(
            "When someone places their last settlement the round is played to its end. Most "
            "settlements wins; ties: most cows and canteens, then most goods, coins and "
            "workers."
        ),
        t.gettext(
            "A step with only one possible choice is made for you, and said. You may take "
            "back your last moves until another player moves or the wheel is spun."
        ),
        t.gettext(
            "Use the buttons under the latest picture, or type: {/build} ({/build:field}), "
            "{/recruit}, {/play} ({/play:move}), {/undo}. The game itself "
            "(lobby, deadlines, log, history): {/game …}; your notifications and "
            "holidays: {/me …}."
        ),
    ]


def rules_help(t: Translator = ENGLISH) -> str:
    """The answer of `/montana game rules`, in `t`'s language."""
    return "\n".join(rules_lines(t))


RULES_HELP = rules_help()
