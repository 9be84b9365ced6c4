"""Time on Discord: deadline reminders and votes, quiet hours, `/montana me games` and
`/montana-games`. Mirrors `bot.core.clock`. Imports the base, delivery and play.
"""
