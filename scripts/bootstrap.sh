#!/usr/bin/env bash
# Set up fastmine on a fresh machine: system libraries for Kivy (Debian/Ubuntu),
# a virtual environment in .venv, and the package with the extras asked for.
#
#   bash scripts/bootstrap.sh [EXTRAS]     e.g. EXTRAS=app  or  EXTRAS=test,app,bench,dist,plot
#
# Set FASTMINE_DEBUG=1 to build the Cython kernels with bounds checks on.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-app}"

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
pip=(.venv/bin/python -m pip --disable-pip-version-check -q)
"${pip[@]}" install "setuptools>=77" "Cython>=3.1" "numpy>=2" wheel
echo "==> building and installing fastmine[$extras]${FASTMINE_DEBUG:+ (FASTMINE_DEBUG=$FASTMINE_DEBUG: bounds-checked kernels)}"
# --no-build-isolation reuses the build tools installed above instead of
# downloading them again; --force-reinstall so a debug build replaces a normal one.
"${pip[@]}" install --no-build-isolation --no-cache-dir --force-reinstall --no-deps .
"${pip[@]}" install ".[$extras]"
