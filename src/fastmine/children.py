"""Every process fastmine starts runs without the working folder on its import path.

Python puts the folder a program was started in first on a new interpreter's
import path when it runs code given with ``-c`` -- and every child of
``multiprocessing`` is started that way: spawn and forkserver children, the
forkserver itself and the resource tracker (``python -c 'from
multiprocessing... import ...'``), and so the Dask workers of a
``LocalCluster``.  A ``multiprocessing/`` folder planted where a user runs
``fastmine solve --scheduler local`` was imported by three of its processes.

One mechanism, used by every place that starts a process
(:func:`fastmine.solver.runs.run_configs`' pool, :func:`fastmine.solver.cluster.connect`,
the benchmark's workers and app runs): the ``PYTHONSAFEPATH=1`` environment
variable (the same as ``python -P``, Python 3.11+), which each child inherits
at start, before it imports anything.  It is set only while children are
started (:func:`clean_children`), or given in a child's own environment
(:func:`clean_env`), so a program that imports fastmine keeps its own
environment.
"""

from __future__ import annotations

import _thread  # threading's Lock, without importing threading at every start
import contextlib
import os
from collections.abc import Iterator, Mapping

__all__ = ["SAFE_PATH", "clean_children", "clean_env"]

SAFE_PATH: dict[str, str] = {"PYTHONSAFEPATH": "1"}
"""The environment a child needs to start without the working folder on its path."""

_lock = _thread.allocate_lock()
_depth = 0
_saved: str | None = None


@contextlib.contextmanager
def clean_children() -> Iterator[None]:
    """Within this block, every Python process started inherits :data:`SAFE_PATH`.

    Nested and concurrent uses share one setting; the variable is put back as
    it was when the last one ends.  A process that lives on past the block (a
    forkserver, the resource tracker, a Dask nanny's worker) keeps the setting
    it started with.

    Examples
    --------
    >>> import os
    >>> with clean_children():
    ...     os.environ["PYTHONSAFEPATH"]
    '1'
    """
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = os.environ.get("PYTHONSAFEPATH")
            os.environ.update(SAFE_PATH)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                if _saved is None:
                    os.environ.pop("PYTHONSAFEPATH", None)
                else:
                    os.environ["PYTHONSAFEPATH"] = _saved


def clean_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (this process's environment when None) with :data:`SAFE_PATH` added:
    for ``subprocess.run(..., env=clean_env())``.

    Parameters
    ----------
    env : mapping, optional
        The child's environment.

    Returns
    -------
    dict
        A new mapping.
    """
    return {**(os.environ if env is None else env), **SAFE_PATH}
