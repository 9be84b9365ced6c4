"""Time in an async game: turn and auction deadlines and their votes, quiet hours and time
zones, paces, each player's games and the daily digest.
May import `play` and the folders below it.
"""
