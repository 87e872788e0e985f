#!/usr/bin/env bash
# Set up fastmine on a fresh machine: system libraries for Kivy (Debian/Ubuntu),
# a virtual environment in .venv, and the package with the extras asked for.
#
#   bash scripts/bootstrap.sh [EXTRAS]     e.g. app, or test,lint (the fast checks), or
#                                          test,lint,docs,android,app,bench,dist,plot,env (all)
#
# The extras: app (Kivy), env (Gymnasium), plot (matplotlib), dist (Dask), bench (the
# benchmarks' peers), test (pytest, hypothesis, pyte), lint (ruff, mypy), docs (Sphinx,
# numpydoc, myst-parser) and android (buildozer, for tests/test_android.py).
#
# It builds once per change of the sources: when src/, setup.py and pyproject.toml
# are as they were at the last install (and the extras asked for were installed),
# it does nothing and returns in about a second. A build compiles only the Cython
# modules whose sources changed (build/ keeps the rest) and prints a line per module.
#
# Set FASTMINE_DEBUG=1 to build the Cython kernels with bounds checks on.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-app}"
debug=0
[ "${FASTMINE_DEBUG:-}" = "" ] || [ "${FASTMINE_DEBUG}" = "0" ] || debug=1

# Kivy's wheel bundles SDL2 but needs OpenGL/EGL from the system.
need_pkgs=()
if command -v dpkg-query >/dev/null 2>&1; then
  for pkg in libgl1 libegl1 libmtdev1 tmux; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || need_pkgs+=("$pkg")
  done
fi
if [ ${#need_pkgs[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "==> installing system packages: ${need_pkgs[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

py="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$py" -m venv .venv
fi
vpy=.venv/bin/python

# What the installed package was built from: every source file's name and content
# (build artefacts left out), the build mode and the interpreter.
sources_hash() {
  {
    find src setup.py pyproject.toml -type f \
      ! -name '*.c' ! -name '*.so' ! -name '*.pyd' ! -name '*.py[co]' \
      ! -path '*/__pycache__/*' ! -path '*.egg-info/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    echo "debug=$debug"
    "$vpy" -c 'import sys; print(sys.version)'
  } | sha256sum | cut -d' ' -f1
}
stamp=.venv/fastmine-install-stamp
want="$(sources_hash)"

up_to_date() {
  [ -f "$stamp" ] || return 1
  [ "$(sed -n 1p "$stamp")" = "$want" ] || return 1
  local have e
  have=",$(sed -n 2p "$stamp"),"
  for e in ${extras//,/ }; do
    [[ "$have" == *",$e,"* ]] || return 1
  done
  # The package must still be there and be the build mode asked for (someone may
  # have installed another build by hand since).
  "$vpy" -c "import fastmine._kernels as k, sys; sys.exit(k.BOUNDS_CHECKED != bool($debug))" 2>/dev/null
}

# FASTMINE_UPGRADE=1: install the newest releases of every dependency, eagerly (CI's
# first pass), even where .venv already has versions that satisfy the bounds.
upgrade=()
if [ "${FASTMINE_UPGRADE:-0}" != "0" ]; then
  upgrade=(--upgrade --upgrade-strategy eager)
  rm -f "$stamp"
fi

if up_to_date; then
  echo "==> fastmine[$extras] is up to date in .venv (sources unchanged since the last build)"
  exit 0
fi

pip=("$vpy" -m pip --disable-pip-version-check)
if ! "$vpy" - <<'EOF' 2>/dev/null
import sys
from importlib.metadata import version
def major_minor(name):
    return tuple(int(p) for p in version(name).split(".")[:2])
ok = major_minor("setuptools") >= (77, 0) and major_minor("Cython") >= (3, 1) \
    and major_minor("numpy") >= (2, 0) and major_minor("wheel") >= (0, 0) \
    and major_minor("pip") >= (25, 0)
sys.exit(0 if ok else 1)
EOF
then
  # pip 25 or later: older pips print an empty License for the licence expression
  # (PEP 639) that `pip show fastmine` should show as MIT.
  echo "==> installing the build tools (pip, setuptools, Cython, NumPy)"
  "${pip[@]}" install --progress-bar off "pip>=25" "setuptools>=77" "Cython>=3.1" "numpy>=2" wheel 2>&1 \
    | grep -v '^Requirement already satisfied' || true
fi

mode=""
[ "$debug" = 1 ] && mode=" (FASTMINE_DEBUG=1: bounds-checked kernels)"
echo "==> building and installing fastmine[$extras]$mode"
modules=$(find src -name '*.pyx' | wc -l)
echo "    only Cython modules whose sources changed are compiled; a first build compiles"
echo "    all $modules of them (a line each as it starts; a few minutes on two idle cores)"
# --no-build-isolation: build with the tools installed above, in-tree, so build/
# keeps the compiled modules between runs (build isolation would rebuild them all).
# -v lets the build's own lines through; the filter keeps one line per step.
log="$(mktemp)"
set +e
"${pip[@]}" install -v --progress-bar off --no-build-isolation ${upgrade[@]+"${upgrade[@]}"} ".[$extras]" >"$log" 2>&1 &
pid=$!
tail -n +1 -f --pid="$pid" "$log" | grep --line-buffered -E \
  '^ *(Compiling .* because|\[[0-9]+/[0-9]+\] Cythonizing|building .* extension|Collecting |Downloading |Installing collected packages|Successfully installed|ERROR|error:)' \
  | sed -u -E 's/^ +//; s/^/    /'
wait "$pid"
status=$?
set -e
if [ "$status" -ne 0 ]; then
  echo "==> pip failed (exit $status); the last lines of its log ($log):" >&2
  tail -n 40 "$log" >&2
  exit "$status"
fi
rm -f "$log"

# Record what was installed, the extras merged with those installed before.
old=""
[ -f "$stamp" ] && [ "$(sed -n 1p "$stamp")" = "$want" ] && old="$(sed -n 2p "$stamp")"
all="$(printf '%s\n' ${old//,/ } ${extras//,/ } | sort -u | paste -sd, -)"
printf '%s\n%s\n' "$want" "$all" >"$stamp"
echo "==> fastmine[$extras] installed"
