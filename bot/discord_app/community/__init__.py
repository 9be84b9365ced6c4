"""A server's memory on Discord: the leaderboard and statistics, replays, game records,
the matchmaking queue. Mirrors `bot.core.community`.
"""
