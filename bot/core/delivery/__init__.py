"""What each move owes the players and how it reaches them: the outbox (posts, prompt
clears, DMs in order, exactly once), notices, heads-up and away, pictures and the
renderer. May import `runtime`, `store` and `wording`.
"""
