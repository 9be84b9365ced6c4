"""The hours a player gives a deadline (`turn_hours`, `auction_hours`), checked in the
core whatever the front end's schema let through, and refused in the reader's words."""

from __future__ import annotations

from bot.core.wording.refusals import Refusal
from i18n import translatable
from i18n.commands import localized_option

DEADLINE_HOURS = (1, 720)
"""The deadlines a player may give (whole hours, one hour to 30 days), as the commands'
options offer them; `check_hours` refuses any other value, however it was sent."""

HOURS_ALLOWED = translatable(
    "{name} must be a whole number of hours from {low} to {high} (30 days); not {value}. "
    "Nothing was changed."
)


def check_hours(name: str, value: object) -> int | None:
    """A deadline a player gave (`turn_hours`, `auction_hours`; None: not given), checked
    here whatever the front end's schema let through: a whole number within
    `DEADLINE_HOURS`, else a `Refusal` saying what is allowed and changing nothing."""
    if value is None:
        return None
    low, high = DEADLINE_HOURS
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    if isinstance(value, float) and value.is_integer() and low <= value <= high:
        return int(value)
    raise hours_refused(name, value)


def hours_refused(option: str, value: object) -> Refusal:
    """The refusal of hours outside `DEADLINE_HOURS` for `option`, the option named as the
    reader's Discord lists it (`heures_tour:`), not by its English code name."""
    low, high = DEADLINE_HOURS
    shown = str(value)[:40]
    return Refusal(
        lambda t: t.translate(
            HOURS_ALLOWED,
            name=f"`{localized_option(t, option)}:`",
            low=low,
            high=high,
            value=shown,
        )
    )


__all__ = ["DEADLINE_HOURS", "HOURS_ALLOWED", "check_hours", "hours_refused"]
