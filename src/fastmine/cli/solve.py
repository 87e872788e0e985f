"""``fastmine solve``: the command line over :mod:`fastmine.solver.runs`.

Every combination of difficulty, first-click rule and first-click position is
one configuration; each plays ``--games`` games (see :mod:`.runs` for how
games are seeded).  Results: a table with the win rate, its 95 % Wilson
interval, games per second and CPU milliseconds per game; optionally JSON
(``--json``), a bar chart (``--plot``, matplotlib) and every game's outcome
(``--outcomes``, for ``--compare``).

Everything that can be checked before playing is: the board sizes (against
:mod:`fastmine.limits`), the run's size, the output paths, matplotlib for
``--plot`` and Dask for ``--scheduler`` -- so a mistake costs a second, not a
run.  Ctrl-C stops the run promptly, prints and writes what finished, marked
partial, and exits with status 130; a failed task does the same with status 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator

from .._validate import whole_number
from ..board import RULES, Rule
from ..difficulty import DIFFICULTIES
from ..files.figures import atomic_write_figure, check_figure_path
from ..files.outputs import check_output, write_output
from ..limits import check_board_size
from ..solver.runs import Config, Run, RunFailed, RunInterrupted, check_games, run_configs
from ..solver.strategies import STRATEGIES, first_click_for
from ..solver.workers import plan as workers_plan
from .options import HelpFormatter, add_jobs, add_json, add_quiet

__all__ = ["configure", "run", "build_configs", "format_table", "write_json", "plot",
           "parse_difficulty", "parse_position", "resolve_position", "POSITIONS"]

POSITIONS = ("default", "corner", "centre", "3-3")
"""Named first-click positions; ``R,C`` is accepted too."""

DEFAULT_DIFFICULTIES = ("beginner", "intermediate", "expert")
DEFAULT_RULES = ("cell", "opening")

EXIT_INTERRUPTED = 130
"""Exit status after Ctrl-C (what a shell reports for SIGINT)."""

EXIT_STOPPED = 1
"""Exit status of a run that stopped early (a task failed, every Dask worker
left): the finished games are reported and written, marked partial."""

EXIT_CLUSTER = 3
"""Exit status when the Dask cluster cannot run the games at all: its scheduler
does not answer, no worker joined within ``--wait``, or its workers lack this
fastmine.  Not a usage error (2): the same command may work later."""

MAX_WAIT = 7 * 24 * 3600.0
"""Longest ``--wait`` (a week)."""


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
    try:
        check_board_size(rows, cols)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"board {text!r} is too big: {exc}") from None
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


# Seeds and first-game indices start at 0; counts (games, chunk, jobs) at 1.
_nonneg_int = whole_number(0)
_pos_int = whole_number(1)


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not 0 < v <= MAX_WAIT:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most "
                                         f"{MAX_WAIT:.0f} (a week), got {text!r}")
    return v


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine solve`` options to ``parser``."""
    parser.description = (
        "Let a solver strategy play many games and report its win rate with a 95% "
        "(Wilson) interval and its speed, for every combination of difficulty, "
        "first-click rule and first-click position.  Game i of a configuration is "
        "seeded from (--seed, the configuration, i), so a run is reproducible "
        "whatever the number of workers or the backend.")
    parser.formatter_class = HelpFormatter
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
        "  fastmine solve -s deterministic inference auto -d beginner -n 2000 \\\n"
        "      --plot wr.png\n"
        "  fastmine solve --scheduler local -n 100000    # on a local Dask cluster\n"
        "  fastmine solve --scheduler tcp://host:8786    # on a running Dask scheduler\n"
        "  fastmine solve -d expert -n 20000 --outcomes a.npz   # then change the solver,\n"
        "  fastmine solve -d expert -n 20000 --outcomes b.npz   # run again, and compare\n"
        "  fastmine solve --compare a.npz b.npz          # the same games, paired\n"
        "  fastmine solve -d expert -n 50000 --first-game 50000   # games 50000..99999\n\n"
        "exit status:\n"
        "  0 done; 1 stopped early (a task failed, or every Dask worker left for --wait\n"
        "  seconds): the finished games are reported, marked partial; 2 a usage error;\n"
        "  3 the Dask cluster cannot run it (no answer, no worker joined within --wait,\n"
        "  workers without this fastmine); 130 Ctrl-C, 143 SIGTERM (partial results)")
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
    add_jobs(parser, "worker processes (default: all cores; 1 plays in-process); "
                     "at most one a core and one a task (said when capped)")
    parser.add_argument("--chunk", type=_pos_int, default=None,
                        help="games per task (default: about games/(4*workers), at most 250)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on Dask: a scheduler address (tcp://host:8786), or "
                             "'local' to start a LocalCluster with --jobs workers "
                             "(needs the dist extra: docs/install.md)")
    add_json(parser, "the results", takes_files=False)
    parser.add_argument("--plot", default=None, metavar="PATH",
                        help="also draw win-rate bars with 95%% intervals to PATH "
                             "(png/svg/pdf; needs matplotlib)")
    parser.add_argument("--outcomes", default=None, metavar="PATH",
                        help="also write every game's outcome to PATH (.npz), for --compare")
    parser.add_argument("--compare", nargs=2, default=None, metavar=("A", "B"),
                        help="play nothing: compare two --outcomes files of runs with the same "
                             "seed game by game (paired), and print B - A per configuration "
                             "with its standard error")
    parser.add_argument("--wait", type=_seconds, default=60.0, metavar="SECONDS",
                        help="--scheduler: how long to wait for the scheduler to answer and "
                             "for a worker to join, at the start and whenever every worker "
                             "has left (default 60)")
    parser.add_argument("--fresh-workers", action="store_true",
                        help="--scheduler: restart every worker first, so speed figures are "
                             "those of a fresh start (no guess book from an earlier run)")
    add_quiet(parser, "no progress bar")


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
    if run.partial:
        lines.append(f"PARTIAL RESULTS: the run stopped before its end; counted are the "
                     f"{run.games} games that finished (of {run.requested} per configuration)")
    lines += [f"note: {note}" for note in run.notes]
    return "\n".join(lines)


def write_json(run: Run, path: str, argv: list[str] | None = None,
               stopped: str | None = None) -> None:
    """Write the run as JSON, atomically (a temporary file, then a rename), never
    over one of fastmine's files (:func:`fastmine.files.outputs.write_output`);
    ``path`` ``"-"`` is standard output.

    A run that stopped early says so: ``"partial": true`` and why in ``"stopped"``.
    """
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
        "partial": run.partial,
        "stopped": stopped,
        "games_requested": run.requested,
        "notes": run.notes,
        "results": [r.to_dict() for r in run.results],
    }
    text = json.dumps(doc, indent=2) + "\n"
    if path == "-":
        sys.stdout.write(text)
    else:
        write_output(path, text, "--json")


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
    atomic_write_figure(path, fig)
    plt.close(fig)



def _compare(a: str, b: str) -> int:
    from ..solver import paired

    try:
        rows = paired.compare(a, b)
    except FileNotFoundError as exc:
        print(f"fastmine solve: no such file: {exc.filename}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:   # SaveFormatError is a ValueError
        print(f"fastmine solve: {exc}", file=sys.stderr)
        return 2
    print(paired.format_comparison(rows, a, b))
    return 0


def preflight(args: argparse.Namespace, configs: list[Config]) -> None:
    """Everything checkable before the run (ValueError with the reason)."""
    check_games(len(configs), args.games)
    for option in ("json", "plot", "outcomes"):
        path = getattr(args, option, None)
        if path and not (option == "json" and path == "-"):
            check_output(path, f"--{option}")
    if args.plot:
        check_figure_path(args.plot)
    if args.scheduler:
        from ..solver.cluster import check_address, have_dask, no_dask

        if not have_dask():
            raise ValueError(no_dask())
        check_address(args.scheduler)


def run(args: argparse.Namespace) -> int:
    """Run ``fastmine solve``; returns the exit status (130 after Ctrl-C, 1 if a task failed)."""
    if getattr(args, "compare", None):
        return _compare(*args.compare)
    try:
        configs = build_configs(args)
        preflight(args, configs)
    except ValueError as exc:
        print(f"fastmine solve: {exc}", file=sys.stderr)
        return 2
    jobs = args.jobs
    if not args.scheduler or args.scheduler == "local":      # workers on this machine
        planned = workers_plan(args.jobs, len(configs), args.games, args.chunk)
        if planned.note:
            print(f"fastmine solve: {planned.note}", file=sys.stderr)
        jobs = planned.workers if args.jobs is not None else None
    client = cluster = None
    notes: list[str] = []
    status, stopped = 0, None
    try:
        if args.scheduler:
            from ..solver.cluster import ClusterError, check_workers, connect, restart

            try:
                client, cluster = connect(args.scheduler, jobs, args.wait)
                if args.fresh_workers:
                    restart(client, args.wait)
                notes = check_workers(client)
            except ClusterError as exc:
                print(f"fastmine solve: {exc}", file=sys.stderr)
                return EXIT_CLUSTER
        try:
            with _signals_stop_the_run() as got:
                result = run_configs(configs, args.games, seed=args.seed, jobs=jobs,
                                     chunk=args.chunk, client=client, progress=not args.quiet,
                                     first=args.first_game, wait=args.wait)
        except RunInterrupted as exc:
            _exit_on_next_interrupt()
            result, status, stopped = exc.run, EXIT_INTERRUPTED, "interrupted (Ctrl-C)"
            if got:
                name = signal.Signals(got[0]).name
                status, stopped = 128 + got[0], f"stopped by {name}"
            print(f"fastmine solve: {stopped.split(' (')[0]}; keeping the games that finished",
                  file=sys.stderr)
        except RunFailed as exc:
            result, status, stopped = exc.run, EXIT_STOPPED, str(exc)
            print(f"fastmine solve: {exc}; keeping the games that finished", file=sys.stderr)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    result.notes[:0] = notes
    if not _report(result, args, stopped):
        status = status or 1
    return status


@contextlib.contextmanager
def _signals_stop_the_run() -> Iterator[list[int]]:
    """SIGTERM and SIGHUP stop the run as Ctrl-C does: the workers are stopped
    (they would die with this process anyway), the finished games kept and
    written; the list yielded gets the signal's number."""
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return

    def stop(signum: int, _frame: object) -> None:
        got.append(signum)
        raise KeyboardInterrupt

    wanted = [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    old = {s: signal.signal(s, stop) for s in wanted}
    try:
        yield got
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def _exit_on_next_interrupt() -> None:
    """A second Ctrl-C while the partial results are written leaves at once (status 130).

    The files are written atomically, so leaving mid-way loses only that file's
    new version, never an old one.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, lambda *_: os._exit(EXIT_INTERRUPTED))


def _report(result: Run, args: argparse.Namespace, stopped: str | None) -> bool:
    """Print the table and write the files asked for; False if one could not be written
    (said on standard error; the others are still written)."""
    from ..solver import paired

    to_stdout = args.json == "-"           # the JSON instead of the table
    said = sys.stderr if to_stdout else sys.stdout
    if not to_stdout:
        print(format_table(result))
    partial = " (partial)" if result.partial else ""
    writers: list[tuple[str, str, Callable[[str], object]]] = [
        ("json", "results", lambda path: write_json(result, path, sys.argv[1:], stopped)),
               ("plot", "plot", lambda path: plot(result, path)),
               ("outcomes", "outcomes", lambda path: write_output(
                   path, paired.to_bytes(result), "--outcomes"))]
    written = True
    for option, words, write in writers:
        path = getattr(args, option, None)
        if not path or option == "plot" and not result.games:
            continue
        try:
            write(path)
        except (ValueError, OSError) as exc:
            print(f"fastmine solve: --{option} {path} not written: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            written = False
            continue
        if path != "-":
            print(f"{words} written to {path}" + ("" if option == "plot" else partial), file=said)
    return written
