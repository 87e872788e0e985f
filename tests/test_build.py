"""Which build is under test: release, or bounds-checked (FASTMINE_DEBUG=1)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from fastmine import _kernels

DEBUG_ENV = os.environ.get("FASTMINE_DEBUG", "") not in ("", "0")


def test_build_matches_environment():
    """Set FASTMINE_DEBUG for the test run exactly as for the build.

    This catches a stale binary: tests meant for the bounds-checked build
    running a release build (or benchmarks running a debug build).
    """
    assert _kernels.BOUNDS_CHECKED == DEBUG_ENV, (
        f"the kernels were built {'with' if _kernels.BOUNDS_CHECKED else 'without'} "
        f"FASTMINE_DEBUG but the tests run {'with' if DEBUG_ENV else 'without'} it; "
        "rebuild with `python setup.py build_ext --inplace` under the same setting")


@pytest.mark.skipif(not _kernels.BOUNDS_CHECKED, reason="only a FASTMINE_DEBUG=1 build checks bounds")
def test_debug_build_checks_bounds():
    n = 4 * 4
    core = _kernels.GameCore(np.zeros(n, np.uint8), np.zeros(n, np.int8), 2, 2)
    # A move's cell is refused by the core's own check (ValueError) before any
    # index; a private call given an array narrower than it reads is not: the
    # checked build turns that read into an IndexError.
    with pytest.raises(IndexError):
        core.first_outside(np.zeros((3, 1), np.intp))
