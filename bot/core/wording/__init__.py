"""How the bot says things: events and states in the players' words, refusals, slash
command mentions. May import `runtime` and `store`.
"""
