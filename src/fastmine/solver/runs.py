"""``fastmine solve``: let a strategy play many games and report win rates.

Every combination of difficulty, first-click rule and first-click position is
one *configuration*; each plays ``--games`` games.  Game ``i`` of a
configuration gets its board seed and its strategy seed from
``numpy.random.SeedSequence(seed, spawn_key=(config key, i))``, where the
config key is a checksum of the configuration itself, so the same ``--seed``
gives the same games (and the same results) whatever the number of workers,
the chunk size, the backend or the other configurations in the run.

Games run in chunks on a process pool using every core (``--jobs``), or on a
Dask cluster (``--scheduler ADDRESS``, or ``--scheduler local`` to start a
``LocalCluster``; needs the ``[dist]`` extra).  Results: a table with the win
rate, its 95 % Wilson interval, games per second and CPU milliseconds per
game; optionally JSON (``--json``) and a bar chart (``--plot``, matplotlib).

Library use::

    >>> from fastmine.solver.runs import Config, run_configs
    >>> run = run_configs([Config("beginner", 9, 9, 10, "opening", (2, 2))], games=20,
    ...                   seed=1, jobs=1, progress=False)
    >>> [r] = run.results
    >>> r.games, 0 <= r.won <= 20
    (20, True)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import zlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..board import RULES, Rule
from ..difficulty import DIFFICULTIES
from ..storage import atomic_write_text
from .paired import LOST, STUCK, WON
from .strategies import STRATEGIES, Strategy, first_click_for

__all__ = ["Config", "Result", "Run", "wilson", "play_chunk", "run_configs", "configure", "run"]

POSITIONS = ("default", "corner", "centre", "3-3")
"""Named first-click positions; ``R,C`` is accepted too."""

DEFAULT_DIFFICULTIES = ("beginner", "intermediate", "expert")
DEFAULT_RULES = ("cell", "opening")


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
    wall_seconds: float = 0.0
    first: int = 0
    """Index of the first game played (games ``first .. first + n - 1``)."""

    @property
    def games(self) -> int:
        """Games played in all configurations."""
        return sum(r.games for r in self.results)

    @property
    def games_per_second(self) -> float:
        """Games per second of wall-clock time, all workers together."""
        return self.games / self.wall_seconds if self.wall_seconds > 0 else math.nan


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


def run_configs(
    configs: Sequence[Config],
    games: int,
    seed: int = 0,
    jobs: int | None = None,
    chunk: int | None = None,
    client: Any = None,
    progress: bool = True,
    first: int = 0,
) -> Run:
    """Play ``games`` games of every configuration; one Result each in a :class:`Run`.

    ``client``: a ``dask.distributed.Client`` to run on (else a process pool
    of ``jobs`` workers; ``jobs=1`` plays in this process).  ``first``: index
    of the first game, so that games ``first .. first + games - 1`` are played:
    a big study can be split over runs (or machines), and a fresh sample drawn
    without changing the seed.
    """
    if isinstance(first, bool) or not isinstance(first, (int, np.integer)) or first < 0:
        raise ValueError(f"the first game must be a non-negative integer, got {first!r}")
    first = int(first)
    jobs = jobs or os.cpu_count() or 1
    workers = jobs if client is None else max(1, len(client.scheduler_info().get("workers", {})))
    if chunk is None:
        chunk = max(1, min(250, games // (4 * workers) or 1))
    tasks = [(k, start, count) for k, _ in enumerate(configs)
             for start, count in _chunks(games, chunk, first)]
    results = [Result(c, outcomes=np.full(games, -1, np.int8)) for c in configs]
    bar = _bar(len(configs) * games, progress)

    def record(k: int, start: int, out: tuple[int, int, int, float, bytes]) -> None:
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

    t0 = time.perf_counter()
    try:
        if client is not None:
            from dask.distributed import as_completed as dask_completed

            futures = {}
            for k, start, count in tasks:
                f = client.submit(play_chunk, configs[k], start, count, seed, pure=False)
                futures[f] = (k, start)
            for f in dask_completed(futures):
                record(*futures[f], f.result())
        elif jobs == 1:
            for k, start, count in tasks:
                record(k, start, play_chunk(configs[k], start, count, seed))
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(play_chunk, configs[k], start, count, seed): (k, start)
                           for k, start, count in tasks}
                for f in as_completed(futures):
                    record(*futures[f], f.result())
    finally:
        bar.close()
    return Run(results, seed, workers, time.perf_counter() - t0, first)


def _bar(total: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="game", disable=not enabled, dynamic_ncols=True, leave=False)


# ---------------------------------------------------------------------- CLI

def parse_difficulty(text: str) -> tuple[str, int, int, int]:
    """A preset name (``expert``) or ``ROWSxCOLS/MINES`` (``50x50/500``)."""
    key = text.strip().lower()
    if key in DIFFICULTIES:
        d = DIFFICULTIES[key]
        return key, d.rows, d.cols, d.mines
    try:
        size, mines = key.split("/")
        row_text, col_text = size.split("x")
        rows, cols, m = int(row_text), int(col_text), int(mines)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown difficulty {text!r}: use one of {', '.join(DIFFICULTIES)} "
            f"or ROWSxCOLS/MINES like 50x50/500") from None
    if rows < 1 or cols < 1 or not 1 <= m <= rows * cols - 1:
        raise argparse.ArgumentTypeError(f"bad board {text!r}: need rows, cols >= 1 and "
                                         f"1 <= mines <= rows*cols - 1")
    return f"{rows}x{cols}/{m}", rows, cols, m


def parse_position(text: str) -> str | tuple[int, int]:
    """A named position (see :data:`POSITIONS`) or ``R,C``."""
    key = text.strip().lower()
    if key == "center":
        key = "centre"
    if key in POSITIONS:
        return key
    try:
        r, c = (int(x) for x in key.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"unknown position {text!r}: use one of {', '.join(POSITIONS)} or R,C") from None
    if r < 0 or c < 0:
        raise argparse.ArgumentTypeError(f"position {text!r} must not be negative")
    return (r, c)


def resolve_position(position: str | tuple[int, int], rows: int, cols: int,
                     rule: Rule, mines: int) -> tuple[int, int]:
    """The cell a named position means on a board (ValueError if off the board)."""
    if position == "default":
        return first_click_for(rows, cols, rule, mines)
    if position == "corner":
        return (0, 0)
    if position == "centre":
        return (rows // 2, cols // 2)
    if position == "3-3":       # literally, whatever the density (runs before stay comparable)
        k = 3 if min(rows, cols) >= 16 else 2
        return min(k, rows - 1), min(k, cols - 1)
    if isinstance(position, str):
        raise ValueError(f"unknown position {position!r}: use one of {', '.join(POSITIONS)} "
                         "or a (row, col) pair")
    r, c = position
    if r >= rows or c >= cols:
        raise ValueError(f"first click ({r}, {c}) is outside a {rows}x{cols} board")
    return (r, c)


def _nonneg_int(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {v}")
    return v


def _pos_int(text: str) -> int:
    v = _nonneg_int(text)
    if v == 0:
        raise argparse.ArgumentTypeError("expected a positive integer, got 0")
    return v


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine solve`` options to ``parser``."""
    parser.description = (
        "Let a solver strategy play many games and report its win rate with a 95% "
        "(Wilson) interval and its speed, for every combination of difficulty, "
        "first-click rule and first-click position.  Game i of a configuration is "
        "seeded from (--seed, the configuration, i), so a run is reproducible "
        "whatever the number of workers or the backend.")
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = (
        "positions:\n"
        "  default  where the rule makes it best: a corner for cell/none; for opening\n"
        "           (2,2), or (3,3) on boards at least 16x16 with 18% mines or more\n"
        "           (Expert); the centre for no_guess\n"
        "  corner   (0,0)     centre  (rows//2, cols//2)\n"
        "  3-3      (3,3), or (2,2) on boards smaller than 16      R,C  that cell\n\n"
        "examples:\n"
        "  fastmine solve -n 10000                       # the six target configurations\n"
        "  fastmine solve -d expert -r cell -p corner -n 100000 --json expert.json\n"
        "  fastmine solve -s deterministic inference auto -d beginner -n 2000 --plot wr.png\n"
        "  fastmine solve --scheduler local -n 100000    # on a local Dask cluster\n"
        "  fastmine solve --scheduler tcp://host:8786    # on a running Dask scheduler\n"
        "  fastmine solve -d expert -n 20000 --outcomes a.npz   # then change the solver,\n"
        "  fastmine solve -d expert -n 20000 --outcomes b.npz   # run again, and compare\n"
        "  fastmine solve --compare a.npz b.npz          # the same games, paired\n"
        "  fastmine solve -d expert -n 50000 --first-game 50000   # games 50000..99999")
    parser.add_argument("-n", "--games", type=_pos_int, default=1000,
                        help="games per configuration (default 1000)")
    parser.add_argument("-d", "--difficulty", nargs="+", type=parse_difficulty,
                        default=None, metavar="NAME",
                        help=f"presets ({', '.join(DIFFICULTIES)}) or ROWSxCOLS/MINES "
                             f"(default: {' '.join(DEFAULT_DIFFICULTIES)})")
    parser.add_argument("-r", "--rule", nargs="+", choices=RULES, default=None,
                        metavar="RULE",
                        help=f"first-click rules: {', '.join(RULES)} (default: {' '.join(DEFAULT_RULES)})")
    parser.add_argument("-p", "--position", nargs="+", type=parse_position,
                        default=None, metavar="POS",
                        help="first-click positions: default, corner, centre, 3-3 or R,C "
                             "(default: default)")
    parser.add_argument("-s", "--strategy", nargs="+", choices=STRATEGIES, default=["best"],
                        metavar="NAME",
                        help=f"strategies: {', '.join(STRATEGIES)} (default: best)")
    parser.add_argument("--no-endgame", action="store_true",
                        help="turn off the exhaustive endgame search of 'best'")
    parser.add_argument("--no-lookahead", action="store_true",
                        help="turn off the one-move lookahead of 'best' on close calls "
                             "(about half the time on Expert, slightly weaker)")
    parser.add_argument("--long-term-risk", action=argparse.BooleanOptionalAction,
                        default=True,
                        help="'best' weighs the long-term 50/50 risk of its guesses (on by "
                             "default; about +0.13 pp on Expert). --no-long-term-risk plays "
                             "the same games without it, for --compare")
    parser.add_argument("--seed", type=_nonneg_int, default=0,
                        help="base seed of the run (default 0)")
    parser.add_argument("--first-game", type=_nonneg_int, default=0, metavar="K",
                        help="play games K .. K+N-1 of each configuration (default 0): "
                             "split a study over runs, or draw fresh games with the same seed")
    parser.add_argument("-j", "--jobs", type=_pos_int, default=None,
                        help="worker processes (default: all cores; 1 plays in-process)")
    parser.add_argument("--chunk", type=_pos_int, default=None,
                        help="games per task (default: about games/(4*workers), at most 250)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on Dask: a scheduler address (tcp://host:8786), or "
                             "'local' to start a LocalCluster with --jobs workers "
                             "(needs the [dist] extra: pip install fastmine[dist])")
    parser.add_argument("--json", default=None, metavar="PATH",
                        help="also write the results as JSON to PATH")
    parser.add_argument("--plot", default=None, metavar="PATH",
                        help="also draw win-rate bars with 95%% intervals to PATH "
                             "(png/svg/pdf; needs matplotlib)")
    parser.add_argument("--outcomes", default=None, metavar="PATH",
                        help="also write every game's outcome to PATH (.npz), for --compare")
    parser.add_argument("--compare", nargs=2, default=None, metavar=("A", "B"),
                        help="play nothing: compare two --outcomes files of runs with the same "
                             "seed game by game (paired), and print B - A per configuration "
                             "with its standard error")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar")


def build_configs(args: argparse.Namespace) -> list[Config]:
    """The configurations an argument namespace asks for (ValueError if one is invalid)."""
    diffs = args.difficulty or [parse_difficulty(d) for d in DEFAULT_DIFFICULTIES]
    rules = args.rule or list(DEFAULT_RULES)
    positions = args.position or ["default"]
    configs: list[Config] = []
    for strategy in args.strategy:
        for name, rows, cols, mines in diffs:
            for rule in rules:
                for pos in positions:
                    fc = resolve_position(pos, rows, cols, rule, mines)
                    cfg = Config(name, rows, cols, mines, rule, fc, strategy,
                                 not args.no_endgame, not args.no_lookahead,
                                 args.long_term_risk)
                    if cfg not in configs:
                        configs.append(cfg)
    return configs


def format_table(run: Run) -> str:
    """The results as a text table."""
    head = (f"{'strategy':<13} {'difficulty':<13} {'rule':<8} {'click':<8} {'games':>8} "
            f"{'won':>8} {'win rate':>9} {'95% interval':>17} {'games/s/core':>13} "
            f"{'ms/game':>8}")
    lines = [head, "-" * len(head)]
    for r in run.results:
        c = r.config
        lo, hi = r.ci95
        click = f"{c.first_click[0]},{c.first_click[1]}"
        lines.append(
            f"{c.strategy:<13} {c.difficulty:<13} {c.rule:<8} {click:<8} {r.games:>8} "
            f"{r.won:>8} {100 * r.win_rate:>8.2f}% {100 * lo:>7.2f}-{100 * hi:>6.2f} %"
            f" {r.games_per_second:>13.1f} {r.ms_per_game:>8.3f}")
    n = max((r.games for r in run.results), default=0)
    games = f"; games {run.first}-{run.first + n - 1}" if run.first else ""
    lines.append(f"{run.games} games in {run.wall_seconds:.1f} s on {run.workers} worker(s): "
                 f"{run.games_per_second:.1f} games/s; seed {run.seed}{games}")
    return "\n".join(lines)


def write_json(run: Run, path: str, argv: list[str] | None = None) -> None:
    """Write the run as JSON, atomically (a temporary file, then a rename)."""
    from .. import __version__

    doc = {
        "format": "fastmine-solve",
        "version": 1,
        "fastmine": __version__,
        "seed": run.seed,
        "first_game": run.first,
        "workers": run.workers,
        "wall_seconds": run.wall_seconds,
        "games_per_second": run.games_per_second,
        "command": argv,
        "results": [r.to_dict() for r in run.results],
    }
    atomic_write_text(path, json.dumps(doc, indent=2) + "\n")


def plot(run: Run, path: str) -> None:
    """Draw the win rates with their 95 % intervals as bars, saved to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [f"{r.config.difficulty}\n{r.config.rule} {r.config.first_click}"
              + (f"\n{r.config.strategy}" if len({x.config.strategy for x in run.results}) > 1
                 else "") for r in run.results]
    rates = [100 * r.win_rate for r in run.results]
    lo = [max(0.0, 100 * (r.win_rate - r.ci95[0])) for r in run.results]
    hi = [max(0.0, 100 * (r.ci95[1] - r.win_rate)) for r in run.results]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * len(labels)), 4.5))
    bars = ax.bar(range(len(labels)), rates, yerr=[lo, hi], capsize=4, color="#4c72b0")
    for b, rate in zip(bars, rates, strict=True):
        ax.annotate(f"{rate:.1f}%", (b.get_x() + b.get_width() / 2, 0), ha="center",
                    va="bottom", fontsize=8, color="white", xytext=(0, 4),
                    textcoords="offset points")
    ax.set_xticks(range(len(labels)), labels, fontsize=8)
    ax.set_ylabel("win rate (%), 95% Wilson interval")
    ax.set_ylim(0, 105)
    ax.set_title(f"fastmine solve: {run.results[0].games if run.results else 0} games each, "
                 f"seed {run.seed}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _client(address: str, jobs: int | None) -> tuple[Any, Any]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RuntimeError("--scheduler needs Dask: pip install 'fastmine[dist]'") from None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        return Client(cluster), cluster
    return Client(address), None


def _compare(a: str, b: str) -> int:
    from . import paired

    try:
        rows = paired.compare(a, b)
    except (OSError, ValueError) as exc:   # SaveFormatError is a ValueError
        print(f"fastmine solve: {exc}", file=sys.stderr)
        return 2
    print(paired.format_comparison(rows, a, b))
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``fastmine solve``; returns the exit status."""
    if getattr(args, "compare", None):
        return _compare(*args.compare)
    try:
        configs = build_configs(args)
    except ValueError as exc:
        print(f"fastmine solve: {exc}", file=sys.stderr)
        return 2
    client = cluster = None
    if args.scheduler:
        try:
            client, cluster = _client(args.scheduler, args.jobs)
        except (RuntimeError, OSError, ValueError) as exc:
            print(f"fastmine solve: {exc}", file=sys.stderr)
            return 2
    try:
        result = run_configs(configs, args.games, seed=args.seed, jobs=args.jobs,
                             chunk=args.chunk, client=client, progress=not args.quiet,
                             first=args.first_game)
    except KeyboardInterrupt:
        print("fastmine solve: interrupted", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    print(format_table(result))
    if args.json:
        write_json(result, args.json, sys.argv[1:])
        print(f"results written to {args.json}")
    if args.plot:
        plot(result, args.plot)
        print(f"plot written to {args.plot}")
    if getattr(args, "outcomes", None):
        from . import paired

        paired.save(result, args.outcomes)
        print(f"outcomes written to {args.outcomes}")
    return 0
