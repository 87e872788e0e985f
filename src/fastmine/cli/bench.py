"""``fastmine bench``: run the benchmark suite of a source checkout.

The suite lives in the top-level ``bench/`` package of the repository, not in
the installed ``fastmine`` package (it needs ms-toollib, SciPy and matplotlib,
which fastmine itself does not).  From a checkout this command finds it --
beside ``src/fastmine`` or in the current directory -- and runs exactly what
``python -m bench`` runs, with the same options.  Anywhere else it says how to
get it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType

_HOW = ("the benchmark suite is not installed with fastmine; it lives in bench/ of a source "
        "checkout.  Clone the repository, build it (python setup.py build_ext --inplace), "
        "then run 'python -m bench' (or 'fastmine bench') from its root")


def find_root() -> Path | None:
    """The repository root holding ``bench/__main__.py``, or None.

    Tried in order: the checkout this fastmine was imported from (``src/fastmine``
    two levels below the root), then the current directory and its parents.
    """
    here = Path(__file__).resolve().parent
    candidates = [here.parents[1]] if len(here.parents) > 1 else []
    cwd = Path.cwd().resolve()
    candidates += [cwd, *cwd.parents]
    for root in candidates:
        if (root / "bench" / "__main__.py").is_file() and (root / "bench" / "cli.py").is_file():
            return root
    return None


def _load() -> ModuleType | None:
    """Import ``bench.cli`` from the checkout (adding its root to sys.path), or None."""
    root = find_root()
    if root is None:
        return None
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        return importlib.import_module("bench.cli")
    except ImportError:
        return None


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the suite's options (those of ``python -m bench``) to ``parser``."""
    cli = _load()
    if cli is None:
        parser.description = (parser.description or "") + f" ({_HOW}.)"
        parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
        return
    cli.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the suite; without a checkout, explain where it is and return 2."""
    cli = _load()
    if cli is None or not hasattr(args, "quick"):
        print(f"fastmine bench: {_HOW}.", file=sys.stderr)
        return 2
    argv = sys.argv[1:]
    if argv and argv[0] == "bench":
        argv = argv[1:]
    status: int = cli.run(args, argv)
    return status
