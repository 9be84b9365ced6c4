"""A server's memory: ratings and statistics, standings, game records, replays, the
matchmaking queue. May import `clock`, `play` and the folders below them.
"""
