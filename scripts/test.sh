#!/usr/bin/env bash
# The test command: installs what is needed, then runs the whole suite.
# The store's tests also run against a throwaway PostgreSQL server (tests/pgserver.py):
# when initdb is missing and we are root, Debian's postgresql package is installed, so
# those tests never skip in CI (under CI=true a missing PostgreSQL fails them).
set -euo pipefail
cd "$(dirname "$0")/.."
# .venv made to match uv.lock (a no-op taking a fraction of a second when it already does)
bash scripts/setup-dev.sh
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing PostgreSQL for the store's tests (apt-get install postgresql)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq --no-install-recommends postgresql >/dev/null
    else
        echo "PostgreSQL is not installed: its tests will skip (CI=true: fail)." >&2
        echo "Install Debian's postgresql package (or put initdb and pg_ctl on PATH)." >&2
    fi
fi
# the web pages' tests drive Debian's headless Chromium through its chromedriver
if ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Chromium for the web pages' tests (apt-get install chromium)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq chromium chromium-driver >/dev/null
    else
        echo "Chromium is not installed: the browser tests will skip (CI=true: fail)." >&2
        echo "Install Debian's chromium and chromium-driver packages." >&2
    fi
fi
# ... with a font for Japanese, else 日本語 on the pages' screenshots shows as boxes
if command -v chromedriver >/dev/null 2>&1 \
    && ! dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "ok installed"; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing a CJK font for the browser tests (apt-get install fonts-noto-cjk)" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null
        apt-get install -y -qq --no-install-recommends fonts-noto-cjk >/dev/null
    fi
fi
exec .venv/bin/python -m pytest "$@"
