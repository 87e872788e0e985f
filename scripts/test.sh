#!/usr/bin/env bash
# Set up fastmine with every extra (see bootstrap.sh; nothing is rebuilt when the
# sources did not change), then ruff, mypy --strict on the package, the whole test
# suite against the installed package, and the benchmark suite's quick run (a smoke
# test: it must finish and write its report; no timing is judged).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh test,app,bench,dist,plot,env
export MPLBACKEND=Agg
.venv/bin/python -m ruff check .
.venv/bin/python -m mypy            # settings in pyproject.toml: strict, the whole package
.venv/bin/python -m pytest "$@"
bench_out=$(mktemp -d)
.venv/bin/python -m bench --quick --out "$bench_out" >"$bench_out/log" 2>&1 \
    || { cat "$bench_out/log"; exit 1; }
tail -n 1 "$bench_out/log"
rm -rf "$bench_out"
