"""``fastmine bench``: run the benchmark suite of a source checkout.

The suite lives in the top-level ``bench/`` package of the repository, not in
the installed ``fastmine`` package (it needs ms-toollib, SciPy and matplotlib,
which fastmine itself does not).  When this fastmine was installed from a
checkout (an editable install, or ``pip install .`` of one), this command
runs that checkout's suite exactly as ``python -m bench`` does, with the same
options.  Anywhere else it says how to get it.

The suite is code, so where it comes from matters: it is looked for only in
the checkout this very package was installed from (found from the package's
own files, or from the install's record of its source folder), never in the
working folder or its parents -- a folder that holds a ``bench/`` of its own
must not run its code because someone typed a ``fastmine`` command there.  And
it is looked for only when ``fastmine bench`` runs: building the other
commands' options never touches it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote, urlparse

import fastmine

_HOW = ("the benchmark suite is not installed with fastmine; it lives in bench/ of a source "
        "checkout.  Clone the repository, build it (python setup.py build_ext --inplace), "
        "then run 'python -m bench' (or 'fastmine bench') from its root")


def _is_checkout(root: Path) -> bool:
    """True when ``root`` is a fastmine source checkout holding the suite."""
    return ((root / "bench" / "__main__.py").is_file() and (root / "bench" / "cli.py").is_file()
            and (root / "src" / "fastmine" / "__init__.py").is_file())


def _installed_from() -> Path | None:
    """The local folder this fastmine distribution was installed from, or None.

    pip records it in the distribution's ``direct_url.json`` (PEP 610) for an
    install from a local folder, editable or not; an install from an index or a
    wheel file has no such folder.
    """
    try:
        text = metadata.distribution("fastmine").read_text("direct_url.json")
        url = json.loads(text)["url"] if text else None
    except (metadata.PackageNotFoundError, ValueError, KeyError, TypeError, OSError):
        return None
    if not isinstance(url, str):
        return None
    parts = urlparse(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return Path(unquote(parts.path))


def checkout_candidates() -> list[Path]:
    """Where the suite may be: the checkout this package's files are in (a
    ``src/fastmine`` layout), then the folder it was installed from.  Never
    the working folder."""
    package = Path(fastmine.__file__).resolve().parent
    found: list[Path] = []
    if package.parent.name == "src":
        found.append(package.parents[1])
    source = _installed_from()
    if source is not None:
        found.append(source)
    return found


def find_root() -> Path | None:
    """The checkout root holding ``bench/`` that this fastmine came from, or None."""
    for root in checkout_candidates():
        if _is_checkout(root):
            return root.resolve()
    return None


def _load() -> ModuleType | None:
    """Import ``bench.cli`` from the checkout (adding its root to sys.path), or None.

    The root goes first on ``sys.path`` (the suite's worker processes import it
    from there too), and the module imported must be the checkout's: a
    ``bench`` already imported from anywhere else is refused, not used.
    """
    root = find_root()
    if root is None:
        return None
    package = root / "bench"
    loaded = sys.modules.get("bench")
    if loaded is not None:
        where = Path(getattr(loaded, "__file__", None) or ".").resolve().parent
        if where != package:
            print(f"fastmine bench: a module named 'bench' from {where} is already loaded; "
                  f"not running it (the suite is in {package})", file=sys.stderr)
            return None
    else:
        # Loaded from its file, not found on sys.path, where the working folder
        # may come first (``python -m fastmine`` puts it there).
        spec = importlib.util.spec_from_file_location(
            "bench", package / "__init__.py", submodule_search_locations=[str(package)])
        if spec is None or spec.loader is None:
            return None
        loaded = importlib.util.module_from_spec(spec)
        sys.modules["bench"] = loaded
        try:
            spec.loader.exec_module(loaded)
        except BaseException:
            del sys.modules["bench"]
            raise
    # First on sys.path, for the suite's worker processes, which import it by name.
    with contextlib.suppress(ValueError):
        sys.path.remove(str(root))
    sys.path.insert(0, str(root))
    try:
        return importlib.import_module("bench.cli")
    except ImportError:
        return None


def configure(parser: argparse.ArgumentParser) -> None:
    """Describe the command; the suite's own options are read when it runs.

    Nothing is imported here: ``fastmine records`` and every other command
    build this parser too, and must not go looking for code.
    """
    parser.description = ("run the benchmark suite of the source checkout this fastmine was "
                          "installed from, with the options of 'python -m bench' "
                          "('fastmine bench --help' lists them)")
    parser.add_argument("options", nargs=argparse.REMAINDER,
                        help="the suite's options (see 'fastmine bench --help')")


def main(argv: list[str]) -> int:
    """``fastmine bench ARGS``: parse ``argv`` with the suite's options and run it.

    Returns the suite's exit status, or 2 without a checkout (after saying how
    to get one).  ``--help`` lists the suite's options (and exits 0).
    """
    parser = argparse.ArgumentParser(prog="fastmine bench")
    cli = _load()
    if cli is None:
        parser.description = f"{_HOW}."
        parser.parse_known_args(argv)     # --help prints the above and exits
        print(f"fastmine bench: {_HOW}.", file=sys.stderr)
        return 2
    parser.description = ("fastmine benchmark suite: fastmine side by side with plain Python, "
                          "NumPy/SciPy and ms-toollib; writes JSON, a markdown report and plots.")
    cli.add_arguments(parser)
    status: int = cli.run(parser.parse_args(argv), argv)
    return status


def run(args: argparse.Namespace) -> int:
    """Run the suite with the options gathered by :func:`configure`."""
    return main(list(getattr(args, "options", []) or []))
