#!/usr/bin/env bash
# Set up fastmine and check it (see bootstrap.sh; nothing is rebuilt when the
# sources did not change).
#
#   bash scripts/test.sh [--fast] [PYTEST ARGS]
#
# The full run installs every extra, then: ruff, mypy --strict on the package, the
# API reference built with warnings as errors (docs/, into a temporary folder: the
# output is not kept), the whole test suite against the installed package, and the
# benchmark suite's quick run (a smoke test: it must finish and write its report;
# no timing is judged).
#
# --fast checks the engine, the solver and the command line only: it installs the
# test and lint extras (no Kivy, no Gymnasium, no Sphinx), runs ruff and the suite
# without the app's tests (tests/app), the Android packaging tests and the tests
# marked slow; no mypy, docs or bench run.
#
# The suite runs on every core (pytest-xdist's -n auto), each test under a
# 10-minute limit (pytest-timeout: a hang fails with its traceback). Extra
# arguments go to pytest (-n 0 runs it in one process).
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
if [ "${1:-}" = "--fast" ]; then
  fast=1
  shift
fi
export MPLBACKEND=Agg

if [ "$fast" = 1 ]; then
  bash scripts/bootstrap.sh test,lint
  .venv/bin/python -m ruff check .
  .venv/bin/python -m pytest -n auto --timeout 600 -m "not slow and not app" --ignore=tests/app \
      --ignore=tests/test_android.py "$@"
  exit 0
fi

# each step says how long it took (bash's SECONDS: whole seconds since the start)
took() { echo "==> $1 took $(( SECONDS - step )) s"; step=$SECONDS; }
step=$SECONDS
bash scripts/bootstrap.sh test,lint,docs,android,app,bench,dist,plot,env
took "setting up"
.venv/bin/python -m ruff check .
.venv/bin/python -m mypy            # settings in pyproject.toml: strict, the whole package
took "ruff and mypy"
docs_out=$(mktemp -d)
echo "==> building the API reference (docs/, warnings are errors)"
.venv/bin/python -m sphinx -W --keep-going -q -b html docs "$docs_out/html" \
    || { rm -rf "$docs_out"; exit 1; }
rm -rf "$docs_out"
took "the API reference"
.venv/bin/python -m pytest -n auto --timeout 600 --durations=20 "$@"
took "the test suite"
bench_out=$(mktemp -d)
.venv/bin/python -m bench --quick --out "$bench_out" >"$bench_out/log" 2>&1 \
    || { cat "$bench_out/log"; exit 1; }
tail -n 1 "$bench_out/log"
rm -rf "$bench_out"
took "the benchmark's quick run"
