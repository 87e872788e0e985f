"""What a Dask worker has: run on every worker before a run (see :mod:`.cluster`).

This module is sent to the workers by value (cloudpickle), so it works on a
worker that has no fastmine at all -- which is exactly what it must find out.
It imports nothing from fastmine at module level.
"""

from __future__ import annotations

import sys


def worker_report() -> dict[str, object]:
    """fastmine's version on this worker (None and the error if it cannot be imported),
    its Python, and whether this worker has already played games (a warm guess book)."""
    runs = sys.modules.get("fastmine.solver.runs")
    played = int(getattr(runs, "chunks_played", 0)) if runs is not None else 0
    try:
        import fastmine
        import fastmine.solver.runs  # noqa: F401  (what the tasks need: the compiled solver)

        version, error = str(fastmine.__version__), None
    except Exception as exc:        # reported to the user by the client
        version, error = None, f"{type(exc).__name__}: {exc}"
    return {"fastmine": version, "error": error, "python": f"{sys.version_info[0]}.{sys.version_info[1]}",
            "chunks_played": played}
