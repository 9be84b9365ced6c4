"""The Discord adapter: discord.py's client, the `/montana` commands and the buttons.

Three storeys, each importing only those below it (`tests/test_layers.py` checks it):

- the base: `app` (`MontanaApp`, the protocol of what the features use of the bot — the
  core's parts the client assembles: `service`, `store`, `settings`, `deadlines`, `ai`,
  `replays`, `queue_watch`; `busy`, `remember_locale`, `handle_choice`; and the few
  discord.py client calls they make), `components` (restart-proof buttons and selects,
  `reply`, `bot_of`: the bot as a `MontanaApp`), `guard` (every press through
  `run_press`, `went_wrong`, `counted`), `group` (the `/montana` group, `tracked`) and
  `translator` (the commands' names in every language);
- the features, one folder per capability, mirroring `bot.core`'s and in its order:
  `delivery` < `play` < `clock` < `community` < `server` < `ai_players`. Each adds its
  subcommands to the group and lists its `DYNAMIC_ITEMS`; a folder imports the base and
  the folders before it, never one after it. Where a lower feature shows a higher one's
  piece, the client hands it over: the Replay buttons under a game's end
  (`delivery.announce.GameOverView`), the AI's Hint press (`play.presses.Press`,
  `ai_players.aiplayers.PRESSES`), the vote to hand a late seat to the AI
  (`clock.deadlines.SeatVote`);
- the top: `client` (`MontanaBot`, which meets `MontanaApp`; it assembles the features,
  opens the store, syncs the commands) and `run` (runs the bot until a stop signal).

No module imports `client` but `run`, not even for its types, so no circle of imports
exists. The adapter imports `bot.core` (and `rules`, `render`, `i18n`); the core never
imports it. See `bot/README.md`.
"""
