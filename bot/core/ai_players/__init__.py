"""AI players in the game flow: AI seats, seats taken over by the AI, hints.
May import every other folder of the core.
"""
