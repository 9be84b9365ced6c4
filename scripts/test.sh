#!/usr/bin/env bash
# The test command: installs what is needed, then runs the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] || bash scripts/setup-dev.sh
exec .venv/bin/python -m pytest "$@"
