"""What ``import fastmine`` loads: only what a game needs (every start pays for it).

Each check runs in a fresh interpreter, where nothing else was imported before.
"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
import fastmine
loaded = "importlib.metadata" in sys.modules
version = fastmine.__version__
from fastmine import __version__ as imported
print(json.dumps({"metadata_on_import": loaded, "version": version, "imported": imported}))
"""


def _run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_does_not_read_package_metadata() -> None:
    """The version is looked up when asked for, not on import (importlib.metadata
    and the scan of installed distributions cost every start tens of ms)."""
    got = _run(PROBE)
    assert got["metadata_on_import"] is False
    expected = _run("import json\nfrom importlib.metadata import PackageNotFoundError, version\n"
                    "try:\n    v = version('fastmine')\nexcept PackageNotFoundError:\n    v = '0+unknown'\n"
                    "print(json.dumps({'v': v}))")["v"]
    assert got["version"] == got["imported"] == expected


def test_unknown_attribute_is_still_an_attribute_error() -> None:
    """The lazy lookup answers ``__version__`` only; anything else fails as before."""
    import fastmine

    try:
        fastmine.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover - the failure message
        raise AssertionError("fastmine.no_such_name did not raise AttributeError")
    assert hasattr(fastmine, "__version__") and "__version__" in dir(fastmine)


def test_import_loads_no_numpy_until_the_engine_is_used() -> None:
    """``import fastmine`` and ``import fastmine.cli`` load no NumPy (nor the
    kernels): the ``fastmine`` command first tells OpenBLAS to start no thread
    (on two cores its threads cost every start 50 ms of CPU), and a command
    that never plays a game never pays for it.  The public names still work."""
    got = _run("import json, os, sys\n"
               "import fastmine, fastmine.cli\n"
               "before = sorted(m for m in sys.modules if m == 'numpy' or m.startswith('fastmine.'))\n"
               "fastmine.cli._one_blas_thread(['analyze'])\n"
               "threads = os.environ.get('OPENBLAS_NUM_THREADS')\n"
               "g = fastmine.Game(*fastmine.DIFFICULTIES['beginner'], seed=1)\n"
               "g.reveal(0, 0)\n"
               "from fastmine import HIDDEN, GameState\n"
               "print(json.dumps({'before': before, 'threads': threads, 'solver': hasattr(fastmine, 'solver'),\n"
               "                  'state': g.state is GameState.PLAYING, 'hidden': HIDDEN}))")
    assert "numpy" not in got["before"] and "fastmine._kernels" not in got["before"]
    assert got["threads"] == "1" and got["solver"] and got["state"] and got["hidden"] == -1


def test_the_command_leaves_a_thread_count_it_was_given_and_bench_alone() -> None:
    got = _run("import json, os\n"
               "os.environ['OPENBLAS_NUM_THREADS'] = '3'\n"
               "import fastmine.cli\n"
               "fastmine.cli._one_blas_thread(['analyze'])\n"
               "given = os.environ['OPENBLAS_NUM_THREADS']\n"
               "del os.environ['OPENBLAS_NUM_THREADS']\n"
               "fastmine.cli._one_blas_thread(['bench'])\n"
               "print(json.dumps({'given': given, 'bench': os.environ.get('OPENBLAS_NUM_THREADS')}))")
    assert got == {"given": "3", "bench": None}
