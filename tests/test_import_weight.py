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
