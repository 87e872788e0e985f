"""The engine of ``fastmine solve``: let a strategy play many games, count the results.

The command line (options, table, JSON, plot) is :mod:`fastmine.cli.solve`;
connecting to a Dask cluster and checking its workers is
:mod:`fastmine.solver.cluster`.

Every combination of difficulty, first-click rule and first-click position is
one *configuration*; each plays ``--games`` games.  Game ``i`` of a
configuration gets its board seed and its strategy seed from
``numpy.random.SeedSequence(seed, spawn_key=(config key, i))``, where the
config key is a checksum of the configuration itself, so the same ``--seed``
gives the same games (and the same results) whatever the number of workers,
the chunk size, the backend or the other configurations in the run.

Games run in chunks on a process pool using every core (``--jobs``), or on a
Dask cluster (``--scheduler ADDRESS``, or ``--scheduler local`` to start a
``LocalCluster``; needs the ``[dist]`` extra).  At most a few tasks per worker
are queued at a time, so a run of any length starts at once and a Ctrl-C
stops it promptly: the games finished so far are kept
(:class:`RunInterrupted` carries them, marked partial), and a task that fails
stops the run the same way (:class:`RunFailed`) instead of discarding it.

Library use::

    >>> from fastmine.solver.runs import Config, run_configs
    >>> run = run_configs([Config("beginner", 9, 9, 10, "opening", (2, 2))], games=20,
    ...                   seed=1, jobs=1, progress=False)
    >>> [r] = run.results
    >>> r.games, 0 <= r.won <= 20
    (20, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import queue
import signal
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .._validate import check_mines, check_point, check_size, is_integer
from ..board import Rule, _check_rule
from ..children import clean_children
from .no_guess import check_possible
from .paired import LOST, STUCK, WON
from .strategies import Strategy
from .workers import DEFAULT_CHUNK_MAX, start_worker, stop_pool
from .workers import plan as workers_plan

__all__ = ["Config", "Result", "Run", "RunInterrupted", "RunFailed", "wilson", "play_chunk",
           "run_configs", "MAX_GAMES"]

MAX_GAMES = 10**9
"""Most games one run plays over all its configurations: each game keeps a
byte of outcome, so this bounds the run's memory at about a gigabyte (and its
time at days).  More is refused before anything is allocated."""

IN_FLIGHT_PER_WORKER = 2
"""Tasks queued per worker: enough to keep every worker busy, few enough that
stopping (Ctrl-C, a failed task) waits for almost nothing."""

chunks_played = 0
"""Chunks this process has played (a Dask worker's report says if it is warm)."""

Outcome = tuple[int, int, int, float, bytes]
"""What a chunk returns: won, lost, stuck, CPU seconds, one outcome byte per game."""


@dataclass(frozen=True)
class Config:
    """One configuration: a board size, a first-click rule and where to click first."""

    difficulty: str
    rows: int
    cols: int
    mines: int
    rule: Rule
    first_click: tuple[int, int]
    strategy: Strategy = "best"
    endgame: bool = True
    lookahead: bool = True
    long_term: bool = True
    """``best`` weighs the long-term 50/50 risk (fifty.py); not part of :attr:`key`:
    the same games are played with it and without, so the two compare game by game."""

    def __post_init__(self) -> None:
        # A configuration no game can be played of is refused when it is made,
        # with the engine's words, not as a traceback from a worker mid-run.
        rows, cols = check_size(self.rows, self.cols)
        mines = check_mines(self.mines, rows, cols)
        first_click = check_point(rows, cols, self.first_click)
        if _check_rule(self.rule) == "no_guess":
            check_possible(rows, cols, mines, first_click)

    @property
    def key(self) -> int:
        """A checksum of everything that defines the games (seeds derive from it)."""
        text = (f"{self.rows}x{self.cols}/{self.mines}/{self.rule}/{self.first_click}/"
                f"{self.strategy}/{self.endgame}")
        if not self.lookahead:      # added later: the keys (and games) of the rest stay
            text += "/no-lookahead"
        return zlib.crc32(text.encode())

    @property
    def label(self) -> str:
        """A short human-readable name."""
        r, c = self.first_click
        return f"{self.difficulty} {self.rule} ({r},{c})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        d = asdict(self)
        d["first_click"] = list(self.first_click)
        return d


@dataclass
class Result:
    """Outcome of one configuration."""

    config: Config
    games: int = 0
    won: int = 0
    lost: int = 0
    stuck: int = 0
    cpu_seconds: float = 0.0
    outcomes: np.ndarray | None = None
    """Outcome of the run's game ``first + i`` at ``i``
    (:data:`fastmine.solver.paired.WON` / ``LOST`` / ``STUCK``, -1 while not
    played), when the run keeps them."""

    @property
    def win_rate(self) -> float:
        """Games won / games played (NaN before any game)."""
        return self.won / self.games if self.games else math.nan

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        return wilson(self.won, self.games)

    @property
    def games_per_second(self) -> float:
        """Games per CPU second: the speed of one core."""
        return self.games / self.cpu_seconds if self.cpu_seconds > 0 else math.nan

    @property
    def ms_per_game(self) -> float:
        """CPU milliseconds per game on one core."""
        return 1e3 * self.cpu_seconds / self.games if self.games else math.nan

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary."""
        lo, hi = self.ci95
        d = self.config.to_dict()
        d.update(games=self.games, won=self.won, lost=self.lost, stuck=self.stuck,
                 win_rate=self.win_rate, ci95=[lo, hi], cpu_seconds=self.cpu_seconds,
                 games_per_second_per_core=self.games_per_second,
                 cpu_ms_per_game=self.ms_per_game)
        return d


@dataclass
class Run:
    """All results of one run, with its wall-clock time."""

    results: list[Result]
    seed: int
    workers: int
    """Workers that played: processes, or the Dask workers alive at the end."""
    wall_seconds: float = 0.0
    first: int = 0
    """Index of the first game played (games ``first .. first + n - 1``)."""
    requested: int = 0
    """Games asked for per configuration (``games`` of :func:`run_configs`)."""
    partial: bool = False
    """True when the run stopped early (interrupted, or a task failed): the
    results count only the games that finished."""
    workers_at_start: int | None = None
    """Dask workers when the run started (None for a process pool)."""
    notes: list[str] = field(default_factory=list)
    """Things the reader of the results should know (a warm cluster, lost workers)."""

    @property
    def games(self) -> int:
        """Games played in all configurations."""
        return sum(r.games for r in self.results)

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time, all workers together."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else math.nan


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; :attr:`run` holds the games finished before it (partial)."""

    def __init__(self, run: Run) -> None:
        super().__init__("interrupted")
        self.run = run


class RunFailed(RuntimeError):
    """A task of the run failed; :attr:`run` holds every game that finished (partial)."""

    def __init__(self, message: str, run: Run) -> None:
        super().__init__(message)
        self.run = run


def wilson(won: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for ``won`` successes in ``games`` trials.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    """
    if games <= 0:
        return (0.0, 1.0)
    p = won / games
    z2 = z * z
    denom = 1 + z2 / games
    centre = (p + z2 / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def game_seeds(seed: int, key: int, index: int) -> tuple[int, int]:
    """(board seed, strategy seed) of game ``index`` of the configuration ``key``."""
    ss = np.random.SeedSequence(seed, spawn_key=(key, index))
    a, b = ss.generate_state(2, np.uint64)
    return int(a), int(b)


def play_chunk(config: Config, start: int, count: int,
               seed: int) -> tuple[int, int, int, float, bytes]:
    """Play games ``start .. start+count-1`` of ``config``.

    Returns (won, lost, stuck, cpu seconds, outcomes): the last is one byte per
    game (:mod:`fastmine.solver.paired` codes), small enough to send back from
    any worker.  Runs in a worker process (or Dask worker); everything it
    needs is in its arguments.
    """
    from ..game import Game
    from .strategies import play

    global chunks_played
    chunks_played += 1      # a worker that played before has warm guess books (cluster.py)
    won = lost = stuck = 0
    outcomes = bytearray(count)
    t0 = time.process_time()
    for i in range(start, start + count):
        board_seed, strategy_seed = game_seeds(seed, config.key, i)
        game = Game(config.rows, config.cols, config.mines, rule=config.rule, seed=board_seed)
        state = play(game, config.strategy, first_click=config.first_click,
                     rng=strategy_seed, endgame=config.endgame, lookahead=config.lookahead,
                     long_term=config.long_term)
        if state.name == "WON":
            won += 1
            outcomes[i - start] = WON
        elif state.name == "LOST":
            lost += 1
            outcomes[i - start] = LOST
        else:
            stuck += 1
            outcomes[i - start] = STUCK
    return won, lost, stuck, time.process_time() - t0, bytes(outcomes)


def _chunks(games: int, chunk: int, first: int = 0) -> Iterator[tuple[int, int]]:
    for start in range(first, first + games, chunk):
        yield start, min(chunk, first + games - start)


@contextlib.contextmanager
def _no_second_interrupt() -> Iterator[None]:
    """Ignore Ctrl-C while a stopped run cleans up (bounded: its workers are killed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


Task = Callable[[Config, int, int, int], Outcome]
Record = Callable[[int, int, Outcome], None]


# Every process of a run (pool workers, started on demand at any time; the
# resource tracker, started by the progress bar's first lock) starts without
# the working folder on its import path.
@clean_children()
def run_configs(
    configs: Sequence[Config],
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    chunk: int | None = None,
    client: Any = None,
    progress: bool = True,
    first: int = 0,
    task: Task = play_chunk,
    wait: float = 60.0,
) -> Run:
    """Play ``games`` games of every configuration; one Result each in a :class:`Run`.

    ``client``: a ``dask.distributed.Client`` to run on (else a process pool
    of ``jobs`` workers, capped at the cores and the chunks by
    :func:`fastmine.solver.workers.plan`; one plays in this process; more than
    :data:`fastmine.solver.workers.MAX_JOBS` is a ValueError).  ``first``: index
    of the first game, so that games ``first .. first + games - 1`` are played:
    a big study can be split over runs (or machines), and a fresh sample drawn
    without changing the seed.  ``task`` plays one chunk (:func:`play_chunk`,
    or another function with its arguments and results, for tools and tests).
    ``wait``: on Dask, the seconds the run goes on without any worker (all
    left mid-run) before it stops, as for a failed task.

    Ctrl-C raises :class:`RunInterrupted` and a failing task :class:`RunFailed`,
    each carrying the partial run (every finished chunk counted).
    """
    if not is_integer(first) or first < 0:
        raise ValueError(f"the first game must be a non-negative integer, got {first!r}")
    if not is_integer(games) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    check_games(len(configs), int(games))
    first, games = int(first), int(games)
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 < wait < math.inf:
        raise ValueError(f"wait must be a positive number of seconds, got {wait!r:.40}")
    at_start = None
    if client is not None:
        at_start = len(client.scheduler_info().get("workers", {}))
        workers = max(1, at_start or 0)       # the cluster's, not this machine's
        if chunk is None:
            chunk = max(1, min(DEFAULT_CHUNK_MAX, games // (4 * workers) or 1))
    else:
        planned = workers_plan(jobs, len(configs), games, chunk)   # the one bound
        workers, chunk = planned.workers, planned.chunk
    tasks = ((k, start, count) for k in range(len(configs))
             for start, count in _chunks(games, chunk, first))
    results = [Result(c, outcomes=np.full(games, -1, np.int8)) for c in configs]
    bar = games_bar(len(configs) * games, None if progress else False)

    def record(k: int, start: int, out: Outcome) -> None:
        won, lost, stuck, cpu, outcomes = out
        r = results[k]
        assert r.outcomes is not None   # made above for every result
        r.outcomes[start - first:start - first + len(outcomes)] = np.frombuffer(outcomes, np.int8)
        r.won += won
        r.lost += lost
        r.stuck += stuck
        r.games += won + lost + stuck
        r.cpu_seconds += cpu
        bar.update(won + lost + stuck)

    run = Run(results, seed, workers, 0.0, first, games, workers_at_start=at_start)
    t0 = time.perf_counter()
    failure: str | None = None
    try:
        if client is not None:
            failure = _on_dask(client, configs, tasks, seed, task, record, workers, wait)
        elif workers == 1:
            for k, start, count in tasks:
                try:
                    out = task(configs[k], start, count, seed)
                except Exception as exc:     # as on a pool: reported with the partial run
                    failure = _failed(configs[k], start, exc)
                    break
                record(k, start, out)
        else:
            failure = _on_pool(workers, configs, tasks, seed, task, record)
    except KeyboardInterrupt:
        run.partial = True
        run.wall_seconds = time.perf_counter() - t0
        raise RunInterrupted(_finish(run, client)) from None
    finally:
        bar.close()
    run.wall_seconds = time.perf_counter() - t0
    _finish(run, client)
    if failure is not None:
        run.partial = True
        raise RunFailed(failure, run)
    return run


def check_games(configs: int, games: int) -> None:
    """Refuse a run bigger than :data:`MAX_GAMES` (ValueError), before anything is allocated."""
    if configs * games > MAX_GAMES:
        raise ValueError(f"{configs} configuration(s) x {games} games is more than one run "
                         f"plays ({MAX_GAMES:,}, fastmine.solver.runs.MAX_GAMES); split it "
                         "into runs with --first-game")


def _finish(run: Run, client: Any) -> Run:
    if client is not None:
        with contextlib.suppress(Exception):   # the scheduler gone by now: keep the start count
            alive = len(client.scheduler_info().get("workers", {}))
            if run.workers_at_start is not None and alive < run.workers_at_start:
                run.notes.append(f"{run.workers_at_start - alive} of {run.workers_at_start} "
                                 "Dask workers left during the run")
            run.workers = alive
    return run


def _failed(config: Config, start: int, exc: BaseException) -> str:
    return (f"a task ({config.label}, games from {start}) failed: "
            f"{type(exc).__name__}: {exc}")


def _take(it: Iterator[tuple[int, int, int]], n: int) -> list[tuple[int, int, int]]:
    out: list[tuple[int, int, int]] = []
    for item in it:
        out.append(item)
        if len(out) >= n:
            break
    return out


def _on_pool(jobs: int, configs: Sequence[Config], tasks: Iterator[tuple[int, int, int]],
             seed: int, task: Task, record: Record) -> str | None:
    """Play ``tasks`` on a process pool; returns why the run stopped early, or None."""
    # Workers ignore Ctrl-C (the run stops them) and die with this process.
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=start_worker,
                               initargs=(os.getpid(),))
    pending: dict[Future[Outcome], tuple[int, int]] = {}
    failure = None
    stopped = True
    try:
        for k, start, count in _take(tasks, IN_FLIGHT_PER_WORKER * jobs):
            pending[pool.submit(task, configs[k], start, count, seed)] = (k, start)
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                k, start = pending.pop(f)
                try:
                    out = f.result()
                except Exception as exc:     # reported with the partial run
                    failure = failure or _failed(configs[k], start, exc)
                    continue
                record(k, start, out)
            if failure is None:
                for k, start, count in _take(tasks, len(done)):
                    pending[pool.submit(task, configs[k], start, count, seed)] = (k, start)
        stopped = False
    finally:
        if stopped:      # Ctrl-C: stop the workers now, not after their chunks
            with _no_second_interrupt():
                stop_pool(pool)
                pool.shutdown(wait=True, cancel_futures=True)
        else:
            pool.shutdown(wait=True)
    return failure


def _on_dask(client: Any, configs: Sequence[Config], tasks: Iterator[tuple[int, int, int]],
             seed: int, task: Task, record: Record, workers: int,
             wait: float) -> str | None:
    """Play ``tasks`` on a Dask cluster; returns why the run stopped early, or None.

    Tasks wait on the scheduler for a worker as long as one may come: once the
    cluster has had no worker for ``wait`` seconds (every one left mid-run),
    the run stops with the chunks that finished, as for a failed task.
    """
    finished: queue.Queue[Any] = queue.Queue()
    pending: dict[Any, tuple[int, int]] = {}

    def submit(batch: list[tuple[int, int, int]]) -> None:
        for k, start, count in batch:
            f = client.submit(task, configs[k], start, count, seed, pure=False)
            pending[f] = (k, start)
            f.add_done_callback(finished.put)       # called from Dask's own thread

    failure = None
    alone_since: float | None = None
    poll = min(1.0, max(0.05, wait / 10))
    # Chunks Dask called finished whose result could not be fetched: the worker
    # holding it left first.  Dask computes them again when a worker comes (the
    # done callback does not fire twice), so they are looked at again here.
    retry: list[Any] = []
    try:
        submit(_take(tasks, IN_FLIGHT_PER_WORKER * workers))
        while pending:
            progressed = False
            try:
                f = finished.get(timeout=poll)
            except queue.Empty:
                f = next((g for g in retry if g.done()), None)
                if f is not None:
                    retry.remove(f)
            if f is not None and f in pending:
                k, start = pending[f]
                try:
                    # never an unbounded wait: a result whose worker is gone
                    # would block here for as long as no worker joins
                    out = f.result(timeout=poll)
                except (TimeoutError, asyncio.TimeoutError):
                    retry.append(f)
                except Exception as exc:     # a worker died, fastmine broken there, a bug
                    del pending[f]
                    failure = failure or _failed(configs[k], start, exc)
                    progressed = True
                else:
                    del pending[f]
                    record(k, start, out)
                    progressed = True
                    if failure is None:
                        submit(_take(tasks, 1))
            if progressed or _live_workers(client):
                alone_since = None
                continue
            now = time.monotonic()
            alone_since = now if alone_since is None else alone_since
            if now - alone_since >= wait:
                failure = failure or (f"every Dask worker left and none joined within "
                                      f"{wait:g} s (--wait)")
                break
    finally:
        if pending:         # Ctrl-C, or no worker left: nothing more is played
            with _no_second_interrupt(), contextlib.suppress(Exception):
                client.cancel(list(pending))
    return failure


def _live_workers(client: Any) -> int:
    """Workers the scheduler has now (0 if it cannot say: a scheduler gone counts as none)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:       # noqa: BLE001 - gone, or another error of its comms
        return 0


def games_bar(total: int, show: bool | None = None, desc: str | None = None) -> Any:
    """A tqdm bar counting ``total`` games (a context manager; ``update(n)`` per
    games finished), the one bar of every command that plays many games.

    Parameters
    ----------
    total : int
        Games to play.
    show : bool or None
        None: drawn only on a terminal (into a pipe or a log file a bar would be
        one endless line of carriage-return frames); True: always; False: never.
    desc : str, optional
        Words before the bar (which agent on which board).

    Returns
    -------
    tqdm.tqdm
        The bar, to be closed (a ``with`` block does it).
    """
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="game", disable=None if show is None else not show,
                dynamic_ncols=True, leave=False)
