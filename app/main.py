"""Start the fastmine Kivy app: ``python app/main.py`` (buildozer's entry point).

The app is the package :mod:`fastmine.app` (``fastmine-app`` once installed);
this file only makes a source checkout's ``src/`` importable when fastmine is
not installed, then runs the app's launcher with the same options.
"""

from __future__ import annotations

import time

T0 = time.perf_counter()  # startup is measured from here

import os  # noqa: E402
import sys  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def _paths() -> None:
    """From a source checkout without an installed fastmine, import the checkout's."""
    try:
        import fastmine  # noqa: F401
    except ImportError:
        src = os.path.join(os.path.dirname(HERE), "src")
        if os.path.isdir(os.path.join(src, "fastmine")):
            sys.path.insert(0, src)


def main(argv: list[str] | None = None) -> int:
    """Run the app's launcher (:func:`fastmine.app.main`); returns the exit status."""
    _paths()
    try:
        from fastmine.app.launch import main as launch
    except ImportError as e:
        if e.name != "fastmine._kernels":
            raise
        print(f"python app/main.py: {e}", file=sys.stderr)  # what to run, not a traceback
        return 1

    return launch(argv, t0=T0, prog="python app/main.py")


if __name__ == "__main__":
    sys.exit(main())
