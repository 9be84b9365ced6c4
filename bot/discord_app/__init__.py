"""The Discord adapter: discord.py's client, the `/montana` commands and the buttons.

`group` defines the command group; the feature modules (`lobby`, `moves`, `looking`,
`deadlines`, `notify`, `history`) add their subcommands to it; `components` holds the
restart-proof buttons and selects, `presses` what a press does, `announce` how a move
is posted; `client` assembles them all and `run` runs the bot until a stop signal. It
imports `bot.core` (and `rules`, `render`); the core never imports it. See
`bot/README.md`.
"""
