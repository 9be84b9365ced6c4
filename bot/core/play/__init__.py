"""The game flow: lobbies and seats, turns (moves, passes in advance, undo), the service
that composes them and the hooks capabilities use, prompts, passes, repeats.
May import `runtime`, `store`, `wording` and `delivery`; never a capability above it.
"""
