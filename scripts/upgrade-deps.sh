#!/usr/bin/env bash
# Upgrades on purpose: moves uv.lock to the newest versions pyproject.toml's ranges
# allow, installs them and runs the whole suite (docs/developers.md, "Dependencies").
# Commit uv.lock and scripts/uv-requirements.txt only when the suite passes.
#   bash scripts/upgrade-deps.sh                 # every dependency
#   bash scripts/upgrade-deps.sh --package babel # one (uv lock's --upgrade-package)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-dev.sh
export UV_PROJECT_ENVIRONMENT=.venv UV_PYTHON_DOWNLOADS=never
if [ "${1:-}" = "--package" ]; then
    .venv/bin/uv lock --upgrade-package "${2:?--package needs a name}"
else
    .venv/bin/uv lock --upgrade
fi
# uv installs itself from this file before it can read the lock: the same version and hashes
{
    echo "# Written by scripts/upgrade-deps.sh from uv.lock: the uv that installs the lock."
    .venv/bin/uv export --frozen --no-emit-project --no-header --no-annotate --extra dev \
        --format requirements-txt | awk '/^uv==/{p=1; print; next} p && /^ /{print; next} {p=0}'
} > scripts/uv-requirements.txt
bash scripts/setup-dev.sh
git --no-pager diff --stat -- uv.lock scripts/uv-requirements.txt || true
bash scripts/test.sh
