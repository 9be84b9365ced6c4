"""Unexpected errors: the user gets a short id, the operators' log the whole story.

Whatever fails where no refusal was foreseen (a bug, a library's surprise) is never
shown as it is — no exception text, no Python repr, no path: the user reads "something
went wrong (error `a1b2c3`); the operators can look it up", and the log line carrying
the same id has the traceback. `grep a1b2c3` in the bot's log finds it.
"""

from __future__ import annotations

import logging
import secrets

from i18n import Translator, translatable

SOMETHING_WENT_WRONG = translatable(
    "Something went wrong (error `{incident}`); the operators can look it up."
)
"""What a user reads about an unexpected error; `incident` is its id in the log."""


def new_incident() -> str:
    """A short id to quote (6 hex digits: unique enough among a day's errors)."""
    return secrets.token_hex(3)


def record(log: logging.Logger, error: BaseException, what: str) -> str:
    """Log `error` with its traceback under a new id (`what`: where it happened, for
    the operators), and return the id to tell the user."""
    incident = new_incident()
    log.error("error %s: %s", incident, what, exc_info=error)
    return incident


def went_wrong(incident: str, t: Translator) -> str:
    """The user's words for incident `incident`, in their language `t`."""
    return t.translate(SOMETHING_WENT_WRONG, incident=incident)


__all__ = ["SOMETHING_WENT_WRONG", "new_incident", "record", "went_wrong"]
