"""For administrators, moderators and operators: `/montana server ...`, metrics and
health. Mirrors `bot.core.server`.
"""
