#!/usr/bin/env bash
# Set up fastmine (see bootstrap.sh) and start the Kivy app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh app
exec .venv/bin/python -m fastmine.app "$@"
