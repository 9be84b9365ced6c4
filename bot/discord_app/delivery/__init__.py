"""How a move reaches Discord: posting each move's message, DMs, heads-up and away
notices, the picture button, links to the web pages. Mirrors `bot.core.delivery`.
Imports the base only.
"""
