"""The Discord bot: slash commands and buttons over the rules engine, saved in SQLite."""
