"""The measurements themselves; they run inside a worker process (bench.worker)."""

from __future__ import annotations

import gc
import resource
import sys
import time
import tracemalloc

import numpy as np

from . import peers
from .kernels import WHOLE_BOARD, make_case, make_pool
from .timing import Sampler, measure, measure_group, use_clock


def _peak_rss_mb(reset: bool = False) -> float:
    """The process's peak resident set in MiB; ``reset`` starts a new peak (Linux).

    On Linux, writing 5 to /proc/self/clear_refs resets VmHWM, so the peak of
    one call can be read without an earlier allocation hiding it.  Elsewhere
    this falls back to ru_maxrss (a lifetime peak).
    """
    try:
        if reset:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB (bytes on macOS)
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def _rss_now_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() / 2**20
    except OSError:
        return _peak_rss_mb()


def summarise(kernel: str, case, out) -> object:
    """A small value for the cross-peer comparison of one output.

    Generation: ``"ok"`` when the board has the right mine count, a safe click
    (and safe neighbours for the opening rule) and correct counts; else what is
    wrong.  Counts: the sum of the counts over the safe cells.  3BV: the 3BV.
    Reveal: the number of cells revealed.
    """
    from .peers.numpy_peer import count

    if kernel in ("gen_cell", "gen_opening"):
        mines, counts = (np.asarray(a) for a in out)
        mines = mines.astype(bool)
        if mines.shape != (case.rows, case.cols):
            return f"bad shape {mines.shape}"
        if int(mines.sum()) != case.mines:
            return f"{int(mines.sum())} mines, expected {case.mines}"
        r, c = case.click
        radius = 0 if kernel == "gen_cell" else 1
        if mines[max(r - radius, 0):r + radius + 1, max(c - radius, 0):c + radius + 1].any():
            return "a mine in the first-click area"
        if not np.array_equal(np.where(mines, 0, counts), np.where(mines, 0, count(mines))):
            return "wrong neighbour counts"
        return "ok"
    if kernel == "count":
        return int(np.where(case.mask, 0, np.asarray(out)).sum())
    return int(out)


def memory_floor(kernel: str, rows: int, cols: int):
    """NumPy moving the bytes ``kernel`` must move at least: ``(call, bytes)``.

    The bandwidth bound of this machine, timed in the same run and worker as
    the kernels: no engine can do the kernel's job faster than it can touch
    its input and output once.

    - ``reveal_empty``: fill an (n, 2) intp array (the changed cells the
      reveal returns, 16 bytes a cell) and copy the counts into the view (1
      byte read, 1 written): a memset and a memcpy, 18 bytes a cell.
    - ``bbbv``, ``bbbv_empty``: read the mines and the counts once
      (``np.count_nonzero`` of each), 2 bytes a cell.
    - ``count``: copy the mask and write the counts (two 1-byte memcpys),
      4 bytes a cell.
    """
    n = rows * cols
    if kernel == "reveal_empty":
        out = np.zeros((n, 2), np.intp)
        counts = np.zeros(n, np.int8)
        view = np.zeros(n, np.int8)

        def call():
            out.fill(0)
            np.copyto(view, counts)
        return call, 18 * n
    if kernel in ("bbbv", "bbbv_empty"):
        pm = np.zeros(n, np.uint8)
        pc = np.zeros(n, np.int8)
        return (lambda: (np.count_nonzero(pm), np.count_nonzero(pc))), 2 * n
    if kernel == "count":
        mask = np.zeros(n, np.uint8)
        padded = np.zeros(n, np.uint8)
        counts = np.zeros(n, np.int8)
        minus = np.zeros(n, np.int8)

        def copies():
            np.copyto(padded, mask)
            np.copyto(counts, minus)
        return copies, 4 * n
    raise KeyError(kernel)


def _prepare_pool(peer: str, kernel: str, pool: list) -> tuple[list, list | None, dict]:
    """``peer``'s timed calls on every board of ``pool`` (and their setups, or None),
    and the check values: ``check`` (board 0's) and, with several boards,
    ``check_boards`` (the sum over the pool: every board's output is checked once)."""
    mod = peers.load(peer)
    preps = [mod.prepare(kernel, case) for case in pool]
    checks = [summarise(kernel, case, prep.check(prep.once()))
              for case, prep in zip(pool, preps, strict=True)]
    out: dict = {"check": checks[0]}
    if len(pool) > 1:
        out["check_boards"] = sum(int(c) for c in checks)
    setups = [p.setup for p in preps] if preps[0].setup is not None else None
    return [p.call for p in preps], setups, out


def time_kernel(peer: str, kernel: str, rows: int, cols: int, mines: int, seed: int,
                min_time: float, repeats: int, budget: float, clock: str = "wall") -> dict:
    """Time ``kernel`` of ``peer``, its calls rotating through the pool of boards
    (bench.kernels.make_pool); returns the timing and the check values."""
    use_clock(clock)
    calls, setups, checks = _prepare_pool(peer, kernel,
                                          make_pool(kernel, rows, cols, mines, seed))
    gc.collect()
    timing = measure(calls, setup=setups, min_time=min_time, repeats=repeats,
                     budget=budget, max_batch=max(1, 4_000_000 // (rows * cols)))
    return {**timing, **checks}


def time_group(peers_: list[str], kernel: str, rows: int, cols: int, mines: int, seed: int,
               min_time: float, repeats: int, budget: float, clock: str = "wall") -> dict:
    """Time ``kernel`` on several peers, their repeats taken in turn (round robin).

    Interleaving makes a change in the machine's load hit every peer alike, so
    the ratios hold even when the absolute figures drift.  Every peer's calls
    rotate through the same pool of boards (bench.kernels.make_pool), built
    before any timing.  A peer whose preparation or check raises gets an
    ``error`` entry; a crash ends the whole call (the caller then measures
    each peer alone).
    """
    use_clock(clock)
    pool = make_pool(kernel, rows, cols, mines, seed)
    out: dict[str, dict] = {}
    samplers: dict[str, Sampler] = {}
    checks: dict[str, dict] = {}
    for peer in peers_:
        try:
            calls, setups, checks[peer] = _prepare_pool(peer, kernel, pool)
            s = Sampler(calls, setups, min_time, max(1, 4_000_000 // (rows * cols)))
            gc.collect()
            s.calibrate()
            samplers[peer] = s
        except Exception as exc:  # one peer's failure is a row, not the end of the group
            out[peer] = {"status": "error", "error": f"{type(exc).__name__}: {exc}"}
    floor_bytes = 0
    if "fastmine" in samplers and kernel in WHOLE_BOARD:
        # Timed in turn with the peers, like one of them, so the same load hits it.
        call, floor_bytes = memory_floor(kernel, rows, cols)
        s = Sampler(call, None, min_time, max(1, 4_000_000 // (rows * cols)))
        s.calibrate()
        samplers[FLOOR] = s
    results = measure_group(samplers, repeats, budget)
    floor = results.pop(FLOOR, None)
    for peer, res in results.items():
        out[peer] = {"status": "ok", **res, **checks[peer]}
    if floor is not None:
        out["fastmine"]["floor_us"] = floor["us_per_call"]
        out["fastmine"]["floor_bytes"] = floor_bytes
    return out


FLOOR = "_memory_floor"


def memory_kernel(peer: str, kernel: str, rows: int, cols: int, mines: int, seed: int) -> dict:
    """Peak memory of one call of ``kernel`` (run this in a fresh process).

    ``rss_mb``: how far the process's resident set peaked above where it was
    before the call; it sees every allocation, a compiled kernel's ``malloc``
    included.  ``traced_mb``: tracemalloc's peak during a second, traced call
    (Python objects and NumPy arrays only, not a compiled library's own
    allocations).  The input board is built before either call and not counted.
    """
    case = make_case(kernel, rows, cols, mines, seed)
    prep = peers.load(peer).prepare(kernel, case)
    gc.collect()
    state = prep.setup() if prep.setup else None
    base = _rss_now_mb()
    _peak_rss_mb(reset=True)
    t0 = time.perf_counter()
    out = prep.call() if state is None else prep.call(state)
    seconds = time.perf_counter() - t0
    rss = max(0.0, _peak_rss_mb() - base)
    del out
    gc.collect()
    state = prep.setup() if prep.setup else None
    tracemalloc.start()
    out = prep.call() if state is None else prep.call(state)
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out, state
    return {"rss_mb": rss, "traced_mb": traced / 2**20, "seconds": seconds}
