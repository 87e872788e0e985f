"""Timing in the manner of :mod:`timeit`: autorange a loop count, then repeat it.

Each repeat runs the call ``number`` times back to back with the garbage
collector off (as timeit does) and yields one figure, seconds per call; the
reported figure is the median of the repeats.  The loop count is the first of
1, 2, 5, 10, 20, 50, ... whose loop takes at least ``min_time`` seconds, so a
microsecond call is looped often enough to be well above the timer's
resolution while a multi-second call runs once per repeat.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any


def _loop(call: Callable[[], Any], number: int) -> float:
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(number):
            call()
        return time.perf_counter() - t0
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


def measure(call: Callable[[], Any], *, min_time: float = 0.1, repeats: int = 5,
            budget: float = 60.0) -> dict:
    """Median seconds per call of ``call()``, with the raw repeats.

    ``budget`` caps the time spent in the repeats: a slow call gets fewer
    repeats (at least one), and the count actually used is reported.

    Returns ``{"us_per_call", "samples_us", "number", "repeats"}``.
    """
    number, first = autorange(call, min_time)
    reps = max(1, min(repeats, int(budget / max(first, 1e-9))))
    samples = [_loop(call, number) / number for _ in range(reps)]
    return {
        "us_per_call": statistics.median(samples) * 1e6,
        "samples_us": [s * 1e6 for s in samples],
        "number": number,
        "repeats": reps,
    }
