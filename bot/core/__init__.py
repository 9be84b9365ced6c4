"""The game service, free of Discord: any front end (the Discord adapter, the web, the
offline console, the benchmarks) plays through it. One folder per capability, each above
those it may import (`tests/test_layers.py` checks it), from the bottom:

`runtime/` what every part runs on: logs, metrics, incidents, start-up errors, background
passes, worker processes, the cleaning of names. `store/` the games and everything kept,
on SQLite or PostgreSQL. `wording/` how the bot says things: events in sentences, refusals,
command mentions. `delivery/` what a move owes the players: the outbox, notices, heads-up
and away, pictures. `play/` the game flow: lobbies and seats, turns, the service that
composes them, prompts, passes, repeats. Above it the capabilities that hook into the game
flow: `clock/` (deadlines, quiet hours, paces, my games), `community/` (ratings,
statistics, records, replays, matchmaking), `server/` (the bot's and each server's
settings, limits), `ai_players/` (AI seats, takeovers, hints); `assembly.py` builds the
service with every capability's hooks installed. It imports `rules`,
`render`, `ai` and `i18n`, never discord.py. See `bot/README.md`.
"""
