"""For administrators, moderators and operators: `/montana server ...`, metrics and
health. Mirrors `bot.core.server`. Imports the base and every folder but ai_players.
"""
