"""Timing in the manner of :mod:`timeit`: autorange a loop count, then repeat it.

Each repeat runs the call ``number`` times back to back with the garbage
collector off (as timeit does) and yields one figure, seconds per call; the
reported figure is the median of the repeats.  The loop count is the first of
1, 2, 5, 10, 20, 50, ... whose loop takes at least ``min_time`` seconds, so a
microsecond call is looped often enough to be well above the timer's
resolution while a multi-second call runs once per repeat.

A call that needs a fresh state each time (a reveal needs a new game) is timed
with ``setup``: states are built untimed in batches, then the calls on them
are timed back to back; a repeat accumulates batches until its timed part
reaches ``min_time`` (or its untimed setups have taken ``setup_cap`` seconds).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
_now = time.perf_counter


def use_clock(name: str) -> None:
    """Time with ``"wall"`` (perf_counter, as timeit) or ``"cpu"`` (process CPU time,
    steadier on a machine shared with other work)."""
    global _now
    _now = CLOCKS[name]


def _loop(call: Callable[[], Any], number: int) -> float:
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = _now()
        for _ in range(number):
            call()
        return _now() - t0
    finally:
        if enabled:
            gc.enable()


def autorange(call: Callable[[], Any], min_time: float) -> tuple[int, float]:
    """The first loop count in 1, 2, 5, 10, ... taking >= ``min_time``, and its time."""
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            elapsed = _loop(call, number)
            if elapsed >= min_time:
                return number, elapsed
        i *= 10


def _batched(call: Callable[[Any], Any], setup: Callable[[], Any], min_time: float,
             batch: int, setup_cap: float) -> tuple[float, int]:
    """One repeat with per-call setup: (timed seconds, calls)."""
    timed = setup_time = 0.0
    calls = 0
    enabled = gc.isenabled()
    while timed < min_time and (calls == 0 or setup_time < setup_cap):
        t0 = _now()
        states = [setup() for _ in range(batch)]
        setup_time += _now() - t0
        gc.disable()
        try:
            t0 = _now()
            for s in states:
                call(s)
            timed += _now() - t0
        finally:
            if enabled:
                gc.enable()
        calls += batch
        del states
    return timed, calls


def measure(call: Callable[..., Any], *, setup: Callable[[], Any] | None = None,
            min_time: float = 0.1, repeats: int = 5, budget: float = 60.0,
            max_batch: int = 1000, setup_cap: float | None = None) -> dict:
    """Median seconds per call of ``call()`` (or ``call(setup())``), with the raw repeats.

    ``budget`` caps the time spent in the repeats: a slow call gets fewer
    repeats (at least one), and the count actually used is reported.
    ``max_batch`` caps how many setup states exist at once (memory).

    Returns ``{"us_per_call", "samples_us", "number", "repeats"}``; ``number``
    is calls per repeat (the mean when it varies).
    """
    if setup is None:
        number, first = autorange(call, min_time)
        reps = max(1, min(repeats, int(budget / max(first, 1e-9))))
        samples = [_loop(call, number) / number for _ in range(reps)]
        counts = [number] * reps
    else:
        cap = max(0.5, 5 * min_time) if setup_cap is None else setup_cap
        t0 = _now()
        timed, n = _batched(call, setup, min_time, 1, cap)  # warm-up and first estimate
        per_call = (_now() - t0) / n
        batch = max(1, min(max_batch, int(min_time / max(timed / n, 1e-9)) or 1))
        reps = max(1, min(repeats, int(budget / max(per_call * batch, 1e-9))))
        samples, counts = [], []
        for _ in range(reps):
            timed, n = _batched(call, setup, min_time, batch, cap)
            samples.append(timed / n)
            counts.append(n)
    return {
        "us_per_call": statistics.median(samples) * 1e6,
        "samples_us": [s * 1e6 for s in samples],
        "number": round(statistics.mean(counts)),
        "repeats": len(samples),
    }
