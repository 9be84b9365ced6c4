"""The web pages of the games (issue 28): an aiohttp application reading the bot's store.

`bot.web.app.make_app(store)` is the application; `python -m bot web` (or
`bash scripts/run-bot.sh web`) serves it in a process of its own, and the bot serves it
too when `MONTANA_WEB_PORT` is set. Read-only, no login: a game's page lives at a
random token (`Store.web_token`), never at its id. No discord.py here
(`tests/test_layers.py`).
"""
