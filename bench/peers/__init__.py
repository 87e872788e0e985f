"""The engines fastmine is measured against, one module each, all with one interface.

A peer module has ``NAME``, ``LABEL``, ``DOES`` (kernel -> what exactly its
timed call does), ``unavailable() -> str | None`` and
``prepare(kernel, case) -> Prepared``.  ``prepare`` builds the peer's own input
(its native board format) outside the timed region; ``Prepared.call`` is the
timed call; ``Prepared.check`` turns one call's output into a value the harness
compares across peers (see :mod:`bench.tasks`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: name -> module; the order is the column order of every table.
PEERS: dict[str, str] = {
    "fastmine": "bench.peers.fastmine_peer",
    "pure_python": "bench.peers.pure_python",
    "numpy": "bench.peers.numpy_peer",
    "ms_toollib": "bench.peers.mstoollib_peer",
}


@dataclass(frozen=True)
class Case:
    """One kernel input: a board size, a first click and (for most kernels) a layout.

    ``mask`` is a bool ndarray (rows, cols), True at a mine; None for the
    generation kernels, which make their own.
    """

    rows: int
    cols: int
    mines: int
    click: tuple[int, int]
    mask: np.ndarray | None = None


@dataclass(frozen=True)
class Prepared:
    """A peer's timed call for one kernel and case.

    ``call()`` is timed.  With ``setup``, each timed call instead gets a fresh
    state: ``call(setup())``, the setup untimed (a reveal needs a new game
    every time).  ``check(output)`` normalises one output for the cross-peer
    comparison and is never timed.
    """

    call: Callable[..., Any]
    check: Callable[[Any], Any]
    setup: Callable[[], Any] | None = None

    def once(self) -> Any:
        """One call, with its setup if it has one."""
        return self.call() if self.setup is None else self.call(self.setup())


def load(name: str):
    """Import and return the peer module called ``name``."""
    return importlib.import_module(PEERS[name])


def unavailable(name: str) -> str | None:
    """Why peer ``name`` cannot run in this environment (None when it can)."""
    try:
        mod = load(name)
    except ImportError as exc:
        return f"cannot import {name}: {exc}"
    return mod.unavailable()
