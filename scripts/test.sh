#!/usr/bin/env bash
# Set up fastmine with every extra (see bootstrap.sh) and run the whole test suite
# against the installed package, then the benchmark smoke run and ruff.
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh test,app,bench,dist,plot
export MPLBACKEND=Agg
.venv/bin/python -m ruff check .
.venv/bin/python -m pytest "$@"
