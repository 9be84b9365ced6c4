"""What every part of the bot runs on: logs, metrics, incidents, start-up errors, background
passes (`periodic`), worker processes and the one cleaning of a person's name.
May import no other folder of the core.
"""
