#!/usr/bin/env bash
# The run command: installs what is needed (into .venv), then runs the Discord bot.
# Reads DISCORD_TOKEN and the other settings from the environment or .env (see
# .env.example); without a token it explains how to get one.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import discord, aiosqlite, asyncpg, PIL, prometheus_client" 2>/dev/null; then
    bash scripts/setup-dev.sh
fi
exec .venv/bin/python -m bot "$@"
