"""Chunk functions for tests/test_dask_cluster.py that misbehave on purpose.

A module of their own so the Dask worker processes can import them by name
(the test's workers have tests/ on their path).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

from fastmine.solver.runs import Config, Outcome, play_chunk


def failing_chunk(config: Config, start: int, count: int, seed: int) -> Outcome:
    """play_chunk, except that the chunk from game 40 on fails."""
    if start >= 40:
        raise RuntimeError("a broken chunk")
    return play_chunk(config, start, count, seed)


def dying_chunk(config: Config, start: int, count: int, seed: int) -> Outcome:
    """play_chunk, except that the first worker to reach game 30 dies there.

    The marker file (in ``FASTMINE_TEST_MARKER``) makes it happen once: the
    chunk is played again on another worker.
    """
    marker = Path(os.environ.get("FASTMINE_TEST_MARKER", "/nonexistent")) / "died"
    if start == 30:
        with contextlib.suppress(FileExistsError):
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            os._exit(1)
    return play_chunk(config, start, count, seed)


def dying_everywhere_chunk(config: Config, start: int, count: int, seed: int) -> Outcome:
    """play_chunk, except that every worker that reaches game 30 dies there (so
    the cluster is left with no worker at all).  It dies a moment after it starts,
    so that the client has fetched the finished chunks' results: a result still
    on a worker that dies is lost with it (Dask would compute it again on a
    worker that never comes)."""
    if start >= 30:
        time.sleep(2.0)
        os._exit(1)
    return play_chunk(config, start, count, seed)
