"""Errors that stop the bot at start-up with one line for whoever runs it."""

from __future__ import annotations


class StartupError(RuntimeError):
    """A condition that keeps the bot from starting (the database is locked by another
    bot, cannot be opened, was made by a newer bot; Discord cannot be reached ...).

    Its message is one line saying what failed and what to check; `python -m bot`
    prints it and exits non-zero, the traceback going only to the debug log."""
