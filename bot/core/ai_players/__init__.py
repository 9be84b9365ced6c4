"""AI players in the game flow: AI seats, seats taken over by the AI, hints; and, being the
top folder, the assembly of the game service with every capability hooked in.
May import every other folder of the core.
"""
