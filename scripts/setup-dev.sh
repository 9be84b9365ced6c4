#!/usr/bin/env bash
# Creates .venv (if missing) and installs the project with its dev extra.
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
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
