"""Montana on Discord: a Discord-free game service (`bot.core`), the Discord adapter
(`bot.discord_app`) and the other front ends (`bot.console`, `bot.bench`).
See `bot/README.md` for the rooms and the imports each may make."""
