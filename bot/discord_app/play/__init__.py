"""The game on Discord: the lobby, moves typed or pressed, looking at the board, the move
log. Mirrors `bot.core.play`. Imports the base and delivery.
"""
