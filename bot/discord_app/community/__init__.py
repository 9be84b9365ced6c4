"""A server's memory on Discord: the leaderboard and statistics, replays, game records,
a channel's past games, the matchmaking queue. Mirrors `bot.core.community`. Imports the
base, delivery, play and clock.
"""
