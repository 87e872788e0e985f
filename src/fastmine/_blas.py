"""OpenBLAS told to start no thread of its own, for the programs fastmine runs.

NumPy loads OpenBLAS, which starts a thread a core that spins a while waiting
for work: on two cores some 50-150 ms of CPU at every start.  Neither the
``fastmine`` command (but ``bench``) nor the app multiplies a matrix, so each
sets ``OPENBLAS_NUM_THREADS=1`` before NumPy loads (``import fastmine`` loads
no NumPy until the engine is used).  A library that imports fastmine is left
alone: only a program's own entry point calls :func:`one_blas_thread`.
"""

from __future__ import annotations

import os
import sys

__all__ = ["one_blas_thread"]


def one_blas_thread() -> None:
    """Set ``OPENBLAS_NUM_THREADS=1`` for this process and the ones it starts,
    unless the user set it, and only while NumPy is not loaded yet (after, the
    setting would tell the processes it starts only)."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
