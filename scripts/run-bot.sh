#!/usr/bin/env bash
# The run command: installs what is needed (into .venv), then runs the Discord bot.
# Reads DISCORD_TOKEN and the other settings from the environment or .env (see
# .env.example); without a token it explains how to get one.
set -euo pipefail
cd "$(dirname "$0")/.."
# .venv made to match uv.lock (nothing to download when it already does)
bash scripts/setup-dev.sh
exec .venv/bin/python -m bot "$@"
