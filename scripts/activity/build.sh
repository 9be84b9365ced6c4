#!/usr/bin/env bash
# Installs the Activity's pinned npm packages (npm ci: the lockfile only) and bundles
# bot/web/static/activity.js; `--check` only verifies the committed bundle.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --ignore-scripts
node build.mjs "$@"
