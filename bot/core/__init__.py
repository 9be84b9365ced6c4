"""The game service, free of Discord: any front end (the Discord adapter, the offline
console, the benchmark) plays through it.

`service` (lobbies, moves, refusals, pictures), `store` (SQLite: games, move log,
migrations), `prompts` (which choices to offer, as plain data), `words` (events and
states in sentences), `deadlines` (which games are due and what happens to them),
`notify` (who wants DMs), `settings` and `logs`. It imports `rules` and `render`, never
discord.py (`tests/test_layers.py` checks it). See `bot/README.md`.
"""
