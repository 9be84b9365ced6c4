"""AI players on Discord: `/montana hint`, takeovers, reclaiming a seat, AI seats in the
lobby. Mirrors `bot.core.ai_players`. Imports the base and every other folder.
"""
