#!/usr/bin/env bash
# Creates .venv (if missing) and installs exactly what uv.lock says: every runtime and
# development dependency at the version and hashes locked there, and the project itself
# (editable). pyproject.toml keeps the ranges; uv.lock the versions a clone installs;
# scripts/upgrade-deps.sh moves the lock on purpose.
# PYTHON names the interpreter to build .venv with (default: python3; 3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python="${PYTHON:-python3}"
    if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        found=$("$python" -c 'import sys; print("Python", sys.version.split()[0])' 2>/dev/null || echo "not found")
        echo "Montana needs Python 3.11 or newer; $python: $found." >&2
        echo "Install one, then: PYTHON=/path/to/python3.11 bash $0" >&2
        exit 1
    fi
    "$python" -m venv .venv
fi
# uv, the installer that reads uv.lock, itself at the locked version with its hashes
# (scripts/uv-requirements.txt is written from uv.lock by scripts/upgrade-deps.sh)
wanted_uv=$(sed -n 's/^uv==\([^ ]*\).*/\1/p' scripts/uv-requirements.txt)
if [ "$(.venv/bin/uv --version 2>/dev/null | cut -d' ' -f2)" != "$wanted_uv" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        --require-hashes --no-deps -r scripts/uv-requirements.txt
fi
# --locked: a pyproject.toml changed without its lock is an error here, not a silent
# new resolution; uv checks every file it installs against the lock's hashes
export UV_PROJECT_ENVIRONMENT=.venv UV_PYTHON_DOWNLOADS=never
.venv/bin/uv sync --quiet --locked --extra dev --python .venv/bin/python
