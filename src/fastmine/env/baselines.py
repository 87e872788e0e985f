"""Win rates to compare an agent with: a random agent, ``auto`` and ``best``.

``python -m fastmine.env.baselines`` plays them through the environment on
Beginner, Intermediate and Expert and prints a markdown table (docs/env.md
shows one); every number comes with its seeds, so it can be played again.

- ``random``: a uniformly random valid reveal every step
  (:meth:`~fastmine.env.MinesweeperVectorEnv.random_reveals`), in a batched
  environment of ``num_envs`` games reset with ``seed``; each game plays the
  same number of episodes, so short (lost) episodes are not over-counted.
- ``auto`` and ``best``: :class:`~fastmine.env.agents.SolverAgent` in a single
  environment reset with ``seed`` once (the next episodes take the next board
  seeds), the strategy's random choices seeded with ``seed`` too.  ``auto``
  flags and chords, so its environment has flag and chord actions.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import DIFFICULTIES, RULES, solver
from .._validate import whole_number
from ..solver.runs import games_bar
from .agents import SolverAgent
from .seeds import check_seed
from .single import MinesweeperEnv
from .vector import MinesweeperVectorEnv

__all__ = ["Baseline", "LEVELS", "STRATEGIES", "play_random", "play_strategy", "wilson", "main"]

LEVELS = ("beginner", "intermediate", "expert")
STRATEGIES = ("random", "auto", "best")


@dataclass(frozen=True)
class Baseline:
    """One measured win rate."""

    strategy: str
    level: str
    rule: str
    games: int
    won: int
    seed: int
    seconds: float

    @property
    def rate(self) -> float:
        """Share of the games won."""
        return self.won / self.games

    def row(self) -> str:
        """A markdown table row: strategy, level, rule, games, wins, win rate, 95%
        interval, seed."""
        lo, hi = wilson(self.won, self.games)
        return (f"| {self.strategy} | {self.level} | {self.rule} | {self.games:,} | "
                f"{self.won:,} | {_pct(self.rate)} | {_pct(lo)}-{_pct(hi)} | {self.seed} |")


def _pct(x: float) -> str:
    """A share as a percentage: two decimals, or two significant digits below 0.1%.

    >>> _pct(0.9716), _pct(0.0000038), _pct(0.0)
    ('97.16%', '0.00038%', '0%')
    """
    p = 100 * x
    if p == 0:
        return "0%"
    return f"{p:.2g}%" if p < 0.1 else f"{p:.2f}%"


def wilson(won: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The 95% Wilson score interval of ``won`` wins in ``games`` games.

    >>> [round(x, 4) for x in wilson(50, 100)]
    [0.4038, 0.5962]
    """
    p = won / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # Exactly 0 or 1 at the ends (rounding would leave 1e-16 off the bound).
    return (0.0 if won == 0 else centre - half), (1.0 if won == games else centre + half)


def play_random(level: str, games: int, seed: int = 0, rule: str = "opening",
                num_envs: int = 1000, progress: bool | None = False) -> Baseline:
    """Win rate of uniformly random valid reveals (``games`` rounded up to a
    multiple of ``num_envs``); ``progress`` shows a bar (None: on a terminal)."""
    rows, cols, mines = DIFFICULTIES[level]
    per = -(-games // num_envs)
    envs = MinesweeperVectorEnv(num_envs, copy=False, rows=rows, cols=cols, mines=mines, rule=rule)
    t = time.perf_counter()
    envs.reset(seed=seed)
    played = np.zeros(num_envs, np.int64)
    won = 0
    with games_bar(per * num_envs, progress, f"random {level}") as bar:
        while (played < per).any():
            _, _, terminated, truncated, info = envs.step(envs.random_reveals())
            ended = (terminated | truncated) & (played < per)
            won += int((info["won"] & ended).sum())
            played += ended
            bar.update(int(ended.sum()))
    return Baseline("random", level, rule, per * num_envs, won, seed, time.perf_counter() - t)


def play_strategy(strategy: str, level: str, games: int, seed: int = 0,
                  rule: str = "opening", progress: bool | None = False) -> Baseline:
    """Win rate of a solver strategy played through a single environment;
    ``progress`` shows a bar (None: on a terminal)."""
    rows, cols, mines = DIFFICULTIES[level]
    marks = strategy in ("auto", "deterministic", "inference")
    env = MinesweeperEnv(rows, cols, mines, rule, flags=marks, chord=marks)
    agent = SolverAgent(env, strategy, seed=seed)
    t = time.perf_counter()
    won = 0
    with games_bar(games, progress, f"{strategy} {level}") as bar:
        for g in range(games):
            obs, info = env.reset(seed=seed) if g == 0 else env.reset()
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                done = terminated or truncated
            won += bool(info["won"])
            bar.update()
    return Baseline(strategy, level, rule, games, won, seed, time.perf_counter() - t)


_count = whole_number(1)     # a game count: "100,000" reads as it is written


def _seed(text: str) -> int:
    """A seed for argparse: a whole number from 0 to 2**64 - 1."""
    try:
        return check_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed from 0 to 2**64 - 1") from None


def _names(allowed: tuple[str, ...], what: str) -> Callable[[str], list[str]]:
    """An argparse type for a comma-separated list of names out of ``allowed``."""
    def parse(text: str) -> list[str]:
        names = [n.strip() for n in text.split(",") if n.strip()]
        if not names:
            raise argparse.ArgumentTypeError(f"name at least one {what}")
        for n in names:
            if n not in allowed:
                raise argparse.ArgumentTypeError(f"unknown {what} {n!r}; choose from "
                                                 f"{', '.join(allowed)}")
        return names
    return parse


def main(argv: list[str] | None = None) -> int:
    """``python -m fastmine.env.baselines``: measure and print the table.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line's).

    Returns
    -------
    int
        0; a bad argument exits with status 2 and a one-line message.
    """
    p = argparse.ArgumentParser(prog="python -m fastmine.env.baselines",
                                description="Win rates of random, auto and best through "
                                            "fastmine's Gymnasium environment, as a markdown "
                                            "table (the time each row took goes to stderr).")
    p.add_argument("--random-games", type=_count, default=100_000, metavar="N",
                   help="games of the random agent per level, rounded up to a multiple of "
                        "1,000 (default 100,000)")
    p.add_argument("--auto-games", type=_count, default=2_000, metavar="N",
                   help="games of the auto strategy per level (default 2,000)")
    p.add_argument("--best-games", type=_count, default=1_000, metavar="N",
                   help="games of every other strategy per level (default 1,000)")
    p.add_argument("--seed", type=_seed, default=0,
                   help="the environment's reset seed and the strategies' seed (default 0)")
    p.add_argument("--rule", choices=RULES, default="opening",
                   help="first-click rule (default opening)")
    p.add_argument("--levels", type=_names(LEVELS, "level"), default=list(LEVELS),
                   metavar="LEVEL,...", help=f"from {', '.join(LEVELS)} (default all)")
    # "random" is the random agent here (random valid reveals), not the strategy.
    agents = tuple(dict.fromkeys(("random", *solver.STRATEGIES)))
    p.add_argument("--strategies", type=_names(agents, "strategy"), default=list(STRATEGIES),
                   metavar="NAME,...", help=f"from {', '.join(agents)} "
                                            f"(default {','.join(STRATEGIES)})")
    args = p.parse_args(argv)
    print("| agent | level | rule | games | won | win rate | 95% interval | seed |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for level in args.levels:
        for strategy in args.strategies:
            if strategy == "random":
                b = play_random(level, args.random_games, args.seed, args.rule, progress=None)
            else:
                n = args.auto_games if strategy == "auto" else args.best_games
                b = play_strategy(strategy, level, n, args.seed, args.rule, progress=None)
            print(b.row(), flush=True)
            print(f"  ({b.seconds:.1f} s)", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
