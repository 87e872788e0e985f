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

A call can also be a rotation: a list of calls (and of setups, one each), one
per board of a pool built beforehand, taken in turn across loops and repeats.
Repeating one board lets the CPU's branch predictor learn it (and keeps it in
the caches), which no user who plays game after game ever sees.  The order of
a loop's calls is laid out untimed, so the timed loop is as bare as with one
call.
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


class _Turns:
    """Whose turn it is in a rotation of ``k`` boards (it carries on across loops)."""

    def __init__(self, k: int) -> None:
        self.k, self.at = k, 0

    def take(self, n: int) -> list[int]:
        """The next ``n`` board indices, in turn."""
        out = [(self.at + i) % self.k for i in range(n)]
        self.at = (self.at + n) % self.k
        return out


def _loop(calls: list[Callable[[], Any]], number: int, turns: _Turns) -> float:
    seq = [calls[i] for i in turns.take(number)]      # laid out untimed
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = _now()
        for call in seq:
            call()
        return _now() - t0
    finally:
        if enabled:
            gc.enable()


def autorange(call: Callable[[], Any] | list[Callable[[], Any]], min_time: float,
              turns: _Turns | None = None) -> tuple[int, float]:
    """The first loop count in 1, 2, 5, 10, ... taking >= ``min_time``, and its time.

    ``call`` is one call or a rotation of calls (see the module docstring).
    """
    calls = call if isinstance(call, list) else [call]
    turns = turns or _Turns(len(calls))
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            elapsed = _loop(calls, number, turns)
            if elapsed >= min_time:
                return number, elapsed
        i *= 10


def _batched(calls: list[Callable[[Any], Any]], setups: list[Callable[[], Any]],
             min_time: float, batch: int, setup_cap: float, turns: _Turns) -> tuple[float, int]:
    """One repeat with per-call setup: (timed seconds, calls)."""
    timed = setup_time = 0.0
    n = 0
    enabled = gc.isenabled()
    while timed < min_time and (n == 0 or setup_time < setup_cap):
        t0 = _now()
        states = [(calls[i], setups[i]()) for i in turns.take(batch)]
        setup_time += _now() - t0
        gc.disable()
        try:
            t0 = _now()
            for call, s in states:
                call(s)
            timed += _now() - t0
        finally:
            if enabled:
                gc.enable()
        n += batch
        del states
    return timed, n


class Sampler:
    """Repeatable timing of one call: calibrate once, then take samples.

    ``sample()`` returns seconds per call of one repeat.  Separate samplers
    can be sampled in turn (see :func:`measure_group`), so that whatever else
    the machine is doing affects every peer alike.
    """

    def __init__(self, call: Callable[..., Any] | list[Callable[..., Any]],
                 setup: Callable[[], Any] | list[Callable[[], Any]] | None = None,
                 min_time: float = 0.1, max_batch: int = 1000,
                 setup_cap: float | None = None) -> None:
        # One call, or a rotation: one call (and one setup) per board, taken in turn.
        self.calls = call if isinstance(call, list) else [call]
        self.setups = None if setup is None else setup if isinstance(setup, list) else [setup]
        if self.setups is not None and len(self.setups) != len(self.calls):
            raise ValueError(f"{len(self.calls)} calls but {len(self.setups)} setups")
        self.turns = _Turns(len(self.calls))
        self.min_time = min_time
        self.max_batch = max_batch
        self.setup_cap = max(0.5, 5 * min_time) if setup_cap is None else setup_cap
        self.number = 1
        self.cost = 0.0  # wall seconds one sample takes, setups included
        self.samples: list[float] = []
        self.counts: list[int] = []

    def calibrate(self) -> None:
        """Pick the loop count (or setup batch) and estimate one sample's cost."""
        if self.setups is None:
            self.number, self.cost = autorange(self.calls, self.min_time, self.turns)
            return
        t0 = _now()
        timed, n = _batched(self.calls, self.setups, self.min_time, 1, self.setup_cap,
                            self.turns)
        per_call = (_now() - t0) / n
        self.number = max(1, min(self.max_batch, int(self.min_time / max(timed / n, 1e-9))))
        self.cost = per_call * max(n, self.number)

    def sample(self) -> float:
        """One repeat; returns (and records) seconds per call."""
        if self.setups is None:
            per_call = _loop(self.calls, self.number, self.turns) / self.number
            n = self.number
        else:
            timed, n = _batched(self.calls, self.setups, self.min_time, self.number,
                                self.setup_cap, self.turns)
            per_call = timed / n
        self.samples.append(per_call)
        self.counts.append(n)
        return per_call

    def result(self) -> dict:
        """``{"us_per_call", "samples_us", "number", "repeats", "boards"}``: the median of
        the samples; ``boards`` is how many boards the calls rotated through."""
        return {
            "us_per_call": statistics.median(self.samples) * 1e6,
            "samples_us": [x * 1e6 for x in self.samples],
            "number": round(statistics.mean(self.counts)),
            "repeats": len(self.samples),
            "boards": len(self.calls),
        }


def _reps(sampler: Sampler, repeats: int, budget: float) -> int:
    return max(1, min(repeats, int(budget / max(sampler.cost, 1e-9))))


def measure(call: Callable[..., Any] | list[Callable[..., Any]], *,
            setup: Callable[[], Any] | list[Callable[[], Any]] | None = None,
            min_time: float = 0.1, repeats: int = 5, budget: float = 60.0,
            max_batch: int = 1000, setup_cap: float | None = None) -> dict:
    """Median seconds per call of ``call()`` (or ``call(setup())``), with the raw repeats.

    ``call`` (and ``setup``) may be lists, one per board of a pool: the calls
    then rotate through the boards.  ``budget`` caps the time spent in the repeats: a slow call gets fewer
    repeats (at least one), and the count actually used is reported.
    ``max_batch`` caps how many setup states exist at once (memory).

    Returns ``{"us_per_call", "samples_us", "number", "repeats", "boards"}``;
    ``number`` is calls per repeat (the mean when it varies), ``boards`` the
    number of boards rotated through (1 for a single call).
    """
    s = Sampler(call, setup, min_time, max_batch, setup_cap)
    s.calibrate()
    for _ in range(_reps(s, repeats, budget)):
        s.sample()
    return s.result()


def measure_group(samplers: dict[str, Sampler], repeats: int, budget: float) -> dict[str, dict]:
    """Calibrated samplers sampled round-robin: repeat 1 of each, then repeat 2, ...

    Each keeps its own repeat count (a slow one gets fewer within ``budget``).
    """
    reps = {k: _reps(s, repeats, budget) for k, s in samplers.items()}
    for i in range(max(reps.values(), default=0)):
        for k, s in samplers.items():
            if i < reps[k]:
                s.sample()
    return {k: s.result() for k, s in samplers.items()}
