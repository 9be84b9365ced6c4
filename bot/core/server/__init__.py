"""The bot's settings (the environment, `.env`) and each server's own: defaults of new
games, limits on what a member can make the bot do. May import `community`, `clock`,
`play` and the folders below them.
"""
