"""``fastmine records``: print best times and statistics from the records store.

The store itself is :mod:`fastmine.records`; this module only formats it: as
tables, as JSON (``--json``) or as a plot of time and 3BV/s over the last
games of each board (``--plot``, matplotlib).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import unicodedata

from .._validate import whole_number
from ..difficulty import DIFFICULTIES, NAMED_BOARDS
from ..files.figures import atomic_write_figure, check_figure_path
from ..files.folders import existing_data_dir
from ..files.outputs import check_output, write_output
from ..limits import check_board_size
from ..records import (
    RECORDS_FILE,
    AbandonedGame,
    BoardKey,
    GameRecord,
    RecordsError,
    RecordsStore,
    Statistics,
    board_label,
    default_path,
)
from ..records.progress import MEDIAN_WINDOW, last_won_by_board
from ..records.progress import series as points
from .options import add_data_dir, add_json


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine records`` options to an argparse parser."""
    parser.add_argument("--difficulty", "-d", metavar="NAME",
                        help="show the best times of one board: a preset name "
                             f"({', '.join(DIFFICULTIES)}), classic-beginner (8x8/10) "
                             "or ROWSxCOLS/MINES")
    parser.add_argument("--top", type=_count, default=10, metavar="N",
                        help="how many best times --difficulty shows (default 10)")
    parser.add_argument("--assisted", action="store_true",
                        help="count games where a solver assist was used")
    add_data_dir(parser)
    out = parser.add_mutually_exclusive_group()
    add_json(out, "every recorded game, finished or abandoned (of --difficulty if given; "
                  "assisted ones too, marked)", takes_files=False, also=False)
    out.add_argument("--plot", metavar="PATH",
                     help="draw time and 3BV/s of the last won games of each board to PATH "
                          "(png/svg/pdf; needs matplotlib)")
    parser.add_argument("--last", type=_count, default=100, metavar="N",
                        help="--plot: how many of each board's last won games (default 100)")


MAX_COUNT = 10**6
"""Largest --top / --last (more games than anyone plays on one board)."""


_count = whole_number(1, MAX_COUNT)


def _parse_board(text: str) -> BoardKey:
    if text in DIFFICULTIES or text == "custom":
        return text
    name = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
    if name in NAMED_BOARDS:            # "classic beginner", "classic-beginner"
        return name
    try:
        size, mine_text = text.lower().split("/")
        row_text, col_text = size.split("x")
        rows, cols, mines = int(row_text), int(col_text), int(mine_text)
    except ValueError:
        raise ValueError(f"unknown board {text!r}: use a preset name "
                         f"({', '.join(DIFFICULTIES)}), classic-beginner (8x8/10) or "
                         "ROWSxCOLS/MINES, e.g. 12x20/40") from None
    check_board_size(rows, cols)                # a board no game can have: said, not queried
    if not 0 <= mines <= rows * cols:
        raise ValueError(f"a {rows}x{cols} board has 0 to {rows * cols} mines, not {mines}")
    return rows, cols, mines


def _fmt(v: object, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def printable(text: str) -> str:
    r"""``text`` safe for a terminal: control and other unprintable characters escaped.

    The database may have been written by another program: an escape sequence
    stored in a name must show as text, not act on the terminal.

    >>> printable("Ann\x1b[2J")
    'Ann\\x1b[2J'
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii")
                   for ch in text)


def width(text: str) -> int:
    """Terminal columns ``text`` takes: wide (East Asian) characters two, combining marks none.

    >>> width("Ann"), width("山田"), width("e\u0301")
    (3, 4, 1)
    """
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def fit(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` terminal columns and padded to exactly that many."""
    out, used = [], 0
    for ch in text:
        w = width(ch)
        if used + w > columns:
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * (columns - used)


def format_best_times(records: list[GameRecord], labels: bool = True) -> list[str]:
    """Lines of a best-times table (one record per line)."""
    head = f"{'board':<20} " if labels else f"{'#':>3} "
    lines = [head + f"{'time':>8}  {'name':<16} {'3BV':>4} {'3BV/s':>7} {'eff.':>5}  date"]
    for i, r in enumerate(records, 1):
        first = f"{fit(r.board_label, 20)} " if labels else f"{i:>3} "
        name = fit(printable(r.name or "-"), 16)
        lines.append(first + f"{r.time:>8.2f}  {name} {_fmt(r.bbbv, 'd'):>4} "
                     f"{_fmt(r.bbbv_per_second, '.2f'):>7} {_fmt(r.efficiency, '.2f'):>5}  "
                     f"{printable(str(r.date)[:10])}")
    return lines


def format_statistics(rows: list[tuple[str, Statistics]]) -> list[str]:
    """Lines of a statistics table: ``(label, Statistics)`` per line.

    Played and win % count finished games; abandoned games (a new game
    started over one in progress) are counted apart, and end a streak.
    """
    lines = [f"{'board':<20} {'played':>6} {'won':>5} {'win %':>6} {'streak':>6} {'best streak':>11}"
             f" {'abandoned':>9}"]
    for label, s in rows:
        lines.append(f"{fit(printable(label), 20)} {s.played:>6} {s.won:>5} {_fmt(s.win_percent, '.1f'):>6} "
                     f"{s.current_streak:>6} {s.best_streak:>11} {s.abandoned:>9}")
    return lines


JSON_FORMAT = "fastmine-records"
JSON_VERSION = 1


def records_json(records: list[GameRecord], abandoned: list[AbandonedGame] | None = None) -> str:
    """The JSON document of ``--json``: a format name, a version, every finished game
    and every abandoned game, oldest first.

    >>> doc = json.loads(records_json([GameRecord.make(9, 9, 10, won=True, time=8.5, bbbv=17,
    ...                                                date="2026-11-24T10:00:00Z")]))
    >>> doc["format"], doc["version"], doc["games"][0]["time"], doc["games"][0]["bbbv_per_second"]
    ('fastmine-records', 1, 8.5, 2.0)
    """
    return json.dumps({"format": JSON_FORMAT, "version": JSON_VERSION,
                       "games": [dataclasses.asdict(r) for r in records],
                       "abandoned": [dataclasses.asdict(a) for a in abandoned or []]},
                      indent=1) + "\n"


def plot_series(records: list[GameRecord], last: int,
                include_assisted: bool = False) -> dict[str, list[GameRecord]]:
    """Board label -> its last ``last`` won games (oldest first), the boards in the
    order they were first played; losses are left out (their time measures nothing)."""
    return last_won_by_board(records, last, include_assisted)


def plot(series: dict[str, list[GameRecord]], path: str, data_dir: str | None = None) -> None:
    """Draw each board's time and 3BV/s, game by game with a running median, to ``path``
    (never over a file of fastmine's, in ``data_dir`` or the usual places)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(series)
    fig, axes = plt.subplots(n, 2, figsize=(10, 2.6 * n + 0.6), squeeze=False)
    for (label, games), (ax_t, ax_r) in zip(series.items(), axes, strict=True):
        for ax, what, name in ((ax_t, "time", "time (s)"), (ax_r, "bbbv_per_second", "3BV/s")):
            s = points(games, what)
            ax.plot(s.x, s.values, "o", ms=3, color="#4c72b0", alpha=0.6, label="game")
            ax.plot(s.x, s.median, "-", color="#dd8452", label=f"median of {MEDIAN_WINDOW}")
            ax.set_ylabel(name)
            ax.set_title(f"{label}: {name}", fontsize=9)
            ax.grid(alpha=0.3)
        ax_t.legend(fontsize=7, loc="upper right")
    for ax in axes[-1]:
        ax.set_xlabel("won game (oldest first)")
    fig.suptitle("fastmine records: the last won games of each board")
    fig.tight_layout()
    atomic_write_figure(path, fig, data_dir=data_dir)
    plt.close(fig)


def _export(args: argparse.Namespace, board: BoardKey | None) -> int:
    """``--json`` and ``--plot``: everything is checked before the database is read."""
    if args.plot is not None and args.last < 1:
        print("fastmine records: --last must be at least 1", file=sys.stderr)
        return 2
    option, out = ("--plot", args.plot) if args.plot is not None else ("--json", args.json)
    try:
        if out != "-":
            check_output(out, option, data_dir=args.data_dir)
        if args.plot is not None:
            check_figure_path(out)
    except ValueError as exc:
        print(f"fastmine records: {exc}", file=sys.stderr)
        return 2
    path = default_path(args.data_dir)
    records: list[GameRecord] = []
    abandoned: list[AbandonedGame] = []
    if path.exists() or path.is_symlink():      # a dangling link is said, not "no games"
        try:
            with RecordsStore(path, create=False) as store:
                _note_read_only(store)
                records = store.games(board)
                abandoned = store.abandoned_games(board)
        except RecordsError as exc:
            print(f"fastmine records: {exc}", file=sys.stderr)
            return 1
    if args.json is not None:
        text = records_json(records, abandoned)
        if args.json == "-":
            sys.stdout.write(text)
        else:
            try:
                write_output(args.json, text, "--json", data_dir=args.data_dir)
            except ValueError as exc:
                print(f"fastmine records: {exc}", file=sys.stderr)
                return 2
            except OSError as exc:
                print(f"fastmine records: cannot write {args.json}: {exc.strerror or exc}",
                      file=sys.stderr)
                return 1
            also = f" (and {len(abandoned)} abandoned games)" if abandoned else ""
            print(f"{len(records)} games written to {args.json}{also}", file=sys.stderr)
        return 0
    series = plot_series(records, args.last, args.assisted)
    if not series:
        print("fastmine records: no won games to plot yet"
              + ("" if args.assisted else " (without solver assistance)"), file=sys.stderr)
        return 1
    try:
        plot(series, args.plot, args.data_dir)
    except ValueError as exc:
        print(f"fastmine records: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fastmine records: cannot write {args.plot}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    print(f"plotted {sum(map(len, series.values()))} games of {len(series)} boards "
          f"to {args.plot}", file=sys.stderr)
    return 0


def _note_read_only(store: RecordsStore) -> None:
    """Tell the player, once and on standard error (the output may be JSON), that
    these records can be read but new games will not be recorded there, and that
    rows of values of the wrong type were left out (see
    :attr:`fastmine.records.RecordsStore.unsound_note`)."""
    for note in (store.read_only_note, store.unsound_note):
        if note:
            print(f"fastmine records: note: {note}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """``fastmine records``: print best times and statistics; returns the exit status."""
    try:
        board = _parse_board(args.difficulty) if args.difficulty else None
        # Only reads: a mistyped --data-dir is said, not read as "no games yet".
        path = existing_data_dir(args.data_dir) / RECORDS_FILE
    except ValueError as exc:
        print(f"fastmine records: {exc}", file=sys.stderr)
        return 2
    if args.json is not None or args.plot is not None:
        return _export(args, board)
    if not path.exists() and not path.is_symlink():   # a dangling link is said below
        print(f"No games recorded yet ({path}).")
        return 0
    try:
        with RecordsStore(path, create=False) as store:
            _note_read_only(store)
            note = "" if args.assisted else " (without solver assistance)"
            if board is not None:
                best = store.best_times(board, args.top, include_assisted=args.assisted)
                label = board if isinstance(board, str) else board_label(*board)
                print(f"Best times on {label}{note}")
                print("\n".join(format_best_times(best, labels=False)) if best else "  none yet")
                print()
                print("\n".join(format_statistics(
                    [(label, store.statistics(board, include_assisted=args.assisted))])))
                return 0
            summary = store.summary(include_assisted=args.assisted)
            if not summary:
                print(f"No games recorded yet{note} ({path}).")
                return 0
            best = [b for _, _, b in summary if b is not None]
            print(f"Best times{note}")
            print("\n".join(format_best_times(best)) if best else "  none yet")
            print()
            print("Statistics")
            print("\n".join(format_statistics([(lab, s) for lab, s, _ in summary])))
    except RecordsError as exc:
        print(f"fastmine records: {exc}", file=sys.stderr)
        return 1
    return 0
