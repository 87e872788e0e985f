"""``fastmine analyze``: the community's metrics and the coach's verdict on recorded games.

Each file is a video of the competitive clients (``.avf``, ``.rmv``, ``.mvf``,
``.evf``, read by :mod:`fastmine.videos`) or a fastmine replay (``.fmreplay``).
A folder is walked for them, sub-folders included, and a glob pattern is
expanded (:mod:`fastmine.cli.collection`).  For each file, one line: the
game, its metrics (:mod:`fastmine.metrics`) and the coach's summary
(:mod:`fastmine.coach`; ``--no-coach`` leaves it out); ``--json`` writes
them all as one document.  ``--summary`` sums the collection up per player
and level instead (:mod:`fastmine.cli.summary`: a table, ``--csv``,
``--plot``).  A file that cannot be read is one line on standard error, the
others are still analysed, and the exit status is then 1.  Every line
printed from a file has its control characters escaped
(:func:`fastmine.cli.stdio.printable`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..board import Board
from ..difficulty import difficulty_name
from ..errors import VideoFormatError
from ..files.reading import read_regular_file
from ..limits import MAX_REPLAY_BYTES
from ..metrics import GameStats, hzini, islands, level_of, openings, zini
from ..videos import play_video, read_video
from ..videos.model import MAX_FILE_BYTES
from ..videos.rebuild import first_click_rule, move_log, rebuild, video_stats
from .collection import expand
from .options import add_jobs, add_json, add_quiet
from .stdio import json_printable, printable

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..board import Rule
    from ..coach import Category
    from ..game import Game

__all__ = ["JSON_FORMAT", "JSON_VERSION", "Analysis", "analyze_file", "configure", "run"]

JSON_FORMAT = "fastmine-analysis"
JSON_VERSION = 1

COACH_BUDGET = 30.0
"""Seconds the coach may spend on one game: a game on a board too large for its
exact count gets its later moves marked not analysed instead of stalling the run."""

_COUNTED = ("forced_guess", "forced_early", "avoidable_risk", "early_guess", "worse_guess",
            "wrong_flag", "not_analysed")
"""The coach's categories each game's JSON counts, by value: the coach (the
solver behind it) is imported only when it runs, not by ``--no-coach``."""


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine analyze`` options to an argparse parser."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="videos (.avf, .rmv, .mvf, .evf) or fastmine replays (.fmreplay); "
                             "a folder is searched for them, sub-folders included")
    add_json(parser, "every game's metrics and the coach's counts", takes_files=True)
    parser.add_argument("--summary", action="store_true",
                        help="sum the games up per player and level (games, wins, best time, "
                             "best and median 3BV/s, median IOE, RQP, STNB, the coach's "
                             "counts): a table instead of a line a game")
    parser.add_argument("--csv", metavar="PATH",
                        help="with --summary: also write it as CSV to PATH ('-': standard "
                             "output, instead of the table)")
    parser.add_argument("--plot", metavar="PATH",
                        help="with --summary: draw the won games' 3BV/s over their dates "
                             "(png/svg/pdf; needs matplotlib)")
    parser.add_argument("--no-coach", dest="coach", action="store_false",
                        help="leave the coach out: the metrics only, faster")
    add_jobs(parser, "worker processes for a large collection (default 1: this process); "
                     "at most one a core (said when capped)", default=1)
    add_quiet(parser, "no progress bar")


@dataclass(frozen=True)
class Analysis:
    """One analysed game: where it comes from, its numbers, the coach's verdicts.

    Parameters
    ----------
    file : str
        The file as named on the command line.
    format : str
        ``"avf"``, ``"rmv"``, ``"mvf"``, ``"evf"`` or ``"fmreplay"``.
    software, software_version, player, date : str or None
        As the file records them (a replay has no player or date).
    board : Board
        The game's mines.
    outcome : str
        ``"won"``, ``"lost"`` or ``"unfinished"``.
    stats : GameStats
        Its metrics (for a video, with the recording client's click counts).
    coach : Counter or None
        How many moves the coach put in each :class:`fastmine.coach.Category`
        (None: ``--no-coach``).
    coach_summary : str
        The coach's sentences on the game ("" when it has nothing to say).
    notes : tuple of str
        What the reader says about the file once (a name that is not valid
        UTF-8, shown with replacement characters).
    make_game : callable
        Gives :attr:`game`; a video's game is rebuilt only when asked for.
    """

    file: str
    format: str
    software: str
    software_version: str | None
    player: str | None
    date: str | None
    board: Board
    outcome: str
    stats: GameStats
    coach: Counter[Category] | None
    coach_summary: str
    notes: tuple[str, ...]
    make_game: Callable[[], Game] = field(repr=False, compare=False)

    @cached_property
    def game(self) -> Game:
        """The game in fastmine's engine: a video's rebuilt from its moves
        (:func:`fastmine.videos.rebuild.rebuild`), on first use: its metrics,
        outcome and the coach's verdicts do not need it, and replaying every
        move again is a quarter of what reading a video costs."""
        return self.make_game()

    def to_json(self) -> dict[str, Any]:
        """The game's entry in the ``--json`` document (see docs/metrics.md).

        Returns
        -------
        dict
        """
        s, board = self.stats, self.board
        rows, cols = board.shape
        counts = None if self.coach is None else {k.value: n for k, n in self.coach.items()}
        return {
            "file": self.file, "format": self.format, "software": self.software,
            "software_version": self.software_version, "player": self.player,
            "date": self.date, "rows": rows, "cols": cols, "mines": board.mine_count,
            "level": s.level, "board": _board_name(board), "outcome": self.outcome,
            "time": s.time, "bbbv": s.bbbv, "bbbv_solved": s.bbbv_solved,
            "bbbv_per_second": s.bbbv_per_second, "left": s.left_clicks,
            "right": s.right_clicks, "double": s.chord_clicks, "clicks": s.clicks,
            "effective_clicks": s.effective_clicks, "clicks_per_second": s.clicks_per_second,
            "ioe": s.ioe, "corr": s.correctness, "thrp": s.throughput, "rqp": s.rqp,
            "stnb": s.stnb, "openings": openings(board), "islands": islands(board),
            "zini": zini(board), "hzini": hzini(board), "path": s.path,
            **{c: None if counts is None else counts.get(c, 0) for c in _COUNTED},
            "coach": None if self.coach is None else self.coach_summary,
        }

    def line(self) -> str:
        """The one line ``fastmine analyze`` prints for the game.

        Returns
        -------
        str
        """
        s, board = self.stats, self.board
        rows, cols = board.shape
        who = ", ".join(x for x in (f"{self.software} {self.software_version or ''}".strip(),
                                    self.player) if x)
        parts = [f"3BV {s.bbbv_solved}/{s.bbbv}" if self.outcome != "won" else f"3BV {s.bbbv}",
                 _num("3BV/s", s.bbbv_per_second, 3), _num("IOE", s.ioe, 3),
                 f"clicks {s.clicks} ({s.left_clicks}/{s.right_clicks}/{s.chord_clicks})",
                 _num("corr", s.correctness, 3), _num("thrp", s.throughput, 3),
                 _num("RQP", s.rqp, 2), _num("STNB", s.stnb, 1)]
        head = (f"{self.file}: {who}; {_board_name(board)} {rows}x{cols}/{board.mine_count}, "
                f"{self.outcome} in {s.time:.3f} s")
        line = f"{head}; {', '.join(p for p in parts if p)}"
        if self.coach is not None:
            line += f"; coach: {self.coach_summary or 'nothing to remark'}"
        return printable(line)


def _num(name: str, value: float | None, places: int) -> str:
    return f"{name} -" if value is None else f"{name} {value:.{places}f}"


def _outcome(game: Game) -> str:
    return {"won": "won", "lost": "lost"}.get(game.state.value, "unfinished")


def _board_name(board: Board) -> str:
    (rows, cols), mines = board.shape, board.mine_count
    name = difficulty_name(rows, cols, mines)
    return name if name != "custom" else level_of(rows, cols, mines)


def _is_replay(name: str, data: bytes) -> bool:
    return os.path.splitext(name)[1].lower() == ".fmreplay" or data.lstrip()[:1] == b"{"


def _coach(board: Board, moves: Any, rule: Rule, question_marks: bool
           ) -> tuple[Counter[Category], str]:
    """The coach's counts and words on a game's moves."""
    from ..coach import summary, tally

    counts, said = tally(board, moves, rule=rule, question_marks=question_marks,
                         budget=COACH_BUDGET)
    return counts, summary(said)


def analyze_file(name: str, coach: bool = True) -> Analysis:
    """Read one video or replay and analyse its game.

    Parameters
    ----------
    name : str
        The file's path.
    coach : bool
        Whether the coach judges the moves (False: metrics only).

    Returns
    -------
    Analysis

    Raises
    ------
    OSError
        The file cannot be read (missing, a folder, a device, too big).
    ValueError
        It is not a video or replay fastmine reads (:class:`fastmine.VideoFormatError`,
        :class:`fastmine.SaveFormatError`), or its board is not one fastmine plays.
    """
    # Read the bytes once, never blocking on a FIFO nor reading a device.
    data = read_regular_file(name, max(MAX_FILE_BYTES, MAX_REPLAY_BYTES))
    if _is_replay(name, data):
        from ..replay import Replay

        replay = Replay.from_bytes(data)
        game = replay.play()
        board = replay.board
        counts, words = _coach(board, replay.moves, replay.rule, replay.question_marks) \
            if coach else (None, "")
        return Analysis(name, "fmreplay", "fastmine", None, None, None, board, _outcome(game),
                        game.stats(), counts, words, (), lambda: game)
    video = read_video(data, name=name)
    play = play_video(video)
    # The board fastmine plays (no mine, or no safe cell: ValueError), as rebuild's.
    board = Board.from_mines(video.mine_layout)
    counts = None
    words = ""
    if coach:
        counts, words = _coach(board, move_log(play, bool(video.question_marks)),
                               first_click_rule(play, board.mines), bool(video.question_marks))
    version = f"{video.software_version}" if video.software_version else None
    return Analysis(name, video.format, video.software, version, video.player or None,
                    video.date.isoformat() if video.date is not None else None, board,
                    play.outcome, video_stats(video, play), counts, words, video.notes,
                    lambda: rebuild(video, play))


def _error(name: str, exc: BaseException) -> str:
    """The one line a file that cannot be analysed gets, naming it once."""
    if isinstance(exc, VideoFormatError):
        return str(exc)                       # it names the file already
    if isinstance(exc, OSError):
        if exc.filename is not None:          # "No such file or directory", ...
            return f"{name}: {exc.strerror or exc}"
        return str(exc)                       # the storage layer's words name it
    return f"{name}: {exc}"


def _check_outputs(args: argparse.Namespace, files: list[str]) -> None:
    """Refuse (ValueError) bad output options before any work."""
    if (args.csv is not None or args.plot is not None) and not args.summary:
        raise ValueError("--csv and --plot write the summary: add --summary")
    if args.json == "-" and args.csv == "-":
        raise ValueError("--json - and --csv - would both write to standard output; "
                         "give one of them a file")
    for option, out in (("--json", args.json), ("--csv", args.csv), ("--plot", args.plot)):
        if out is None or out == "-" and option != "--plot":
            continue
        from ..files.outputs import check_output  # only for what writes a file

        check_output(out, option)
        if option == "--plot":
            from ..files.figures import check_figure_path

            check_figure_path(out)
        if os.path.exists(out):
            for f in files:
                if os.path.exists(f) and os.path.samefile(f, out):
                    raise ValueError(f"{option} {out} is one of the files to analyse; "
                                     "writing there would replace it")


def _write(option: str, path: str, text: str) -> int:
    """Write one output file; the exit status it adds (0 written, 1 or 2 not)."""
    from ..files.outputs import write_output

    try:
        write_output(path, text, option)
    except ValueError as exc:
        print(f"fastmine analyze: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"fastmine analyze: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


class _NoBar:
    """The three calls of a tqdm bar that ``run`` makes, when no bar shows."""

    @staticmethod
    def write(text: str, file: Any) -> None:
        print(text, file=file)

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


_Outcome = tuple[str, str | None, dict[str, Any], tuple[str, ...]]
"""What analysing one file gives ``run``: the error message ("" when none),
the game's line (when lines are printed), its JSON entry (when wanted, else
{}) and the notes on it."""

CHUNK = 8
"""Files a worker analyses at a time (``-j``): few enough that the progress
moves and the last workers do not wait long, enough that the messages between
processes cost little beside the files (some 3 ms each)."""


def _one(name: str, empty: str | None, coach: bool, entries: bool, lines: bool) -> _Outcome:
    """Analyse one file for ``run`` (in this process or a worker's)."""
    try:
        if empty is not None:
            raise ValueError(empty)
        result = analyze_file(name, coach=coach)
    except (OSError, ValueError) as exc:
        return _error(name, exc), None, {}, ()
    return ("", result.line() if lines else None, result.to_json() if entries else {},
            tuple(result.notes))


def _chunk(items: list[tuple[str, str | None]], coach: bool, entries: bool,
           lines: bool) -> list[_Outcome]:
    """A worker's task: a few files, in order."""
    return [_one(name, empty, coach, entries, lines) for name, empty in items]


def _outcomes(files: list[str], empty: dict[str, str], coach: bool, entries: bool,
              lines: bool, jobs: int) -> Iterator[tuple[str, _Outcome]]:
    """Each file's outcome, in the order named: in this process, or with
    ``jobs`` > 1 and more than one task's files, on worker processes (at most
    one a core, said on standard error when fewer than asked) that die with
    this one."""
    items = [(name, empty.get(name)) for name in files]
    if jobs > 1 and len(items) > CHUNK:
        from ..solver.workers import plan

        planned = plan(jobs, 1, len(items), CHUNK)
        if planned.note:
            print(f"fastmine analyze: {planned.note}", file=sys.stderr)
        if planned.workers > 1:
            yield from _on_workers(items, coach, entries, lines, planned.workers)
            return
    for name, gone in items:
        yield name, _one(name, gone, coach, entries, lines)


def _on_workers(items: list[tuple[str, str | None]], coach: bool, entries: bool, lines: bool,
                workers: int) -> Iterator[tuple[str, _Outcome]]:
    """``_outcomes`` on ``workers`` processes; Ctrl-C stops them at once."""
    from concurrent.futures import ProcessPoolExecutor

    from ..children import clean_children
    from ..solver.workers import start_worker, stop_pool

    chunks = [items[k:k + CHUNK] for k in range(0, len(items), CHUNK)]
    pool = ProcessPoolExecutor(max_workers=workers, initializer=start_worker,
                               initargs=(os.getpid(),))
    finished = False
    try:
        # the workers start with the tasks, without the working folder on their path
        with clean_children():
            done = pool.map(_chunk, chunks,
                            *([x] * len(chunks) for x in (coach, entries, lines)))
        for chunk, outcomes in zip(chunks, done, strict=True):
            for (name, _), outcome in zip(chunk, outcomes, strict=True):
                yield name, outcome
        finished = True
    finally:
        if not finished:        # Ctrl-C, or an error: not after the tasks in flight
            stop_pool(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def run(args: argparse.Namespace) -> int:
    """``fastmine analyze``; returns the exit status (1 if a file could not be read)."""
    coach = args.coach
    found = expand(args.files)
    files = found.files
    try:
        _check_outputs(args, files)
    except ValueError as exc:
        print(f"fastmine analyze: {printable(str(exc))}", file=sys.stderr)
        return 2
    to_stdout = args.json == "-" or args.csv == "-"
    lines = not to_stdout and not args.summary
    games: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    # Every game's JSON entry (its ZiNi and HZiNi cost about a millisecond) only
    # for what reads them.
    entries = args.json is not None or args.summary or args.csv is not None \
        or args.plot is not None
    # A bar only on a terminal, and only for more than one file.
    bar: Any
    if (len(files) > 1 and not getattr(args, "quiet", False) and hasattr(sys.stderr, "isatty")
            and sys.stderr.isatty()):
        from tqdm import tqdm  # imported only for a bar (~20 ms of a start)

        bar = tqdm(total=len(files), unit="file", leave=False, dynamic_ncols=True,
                   file=sys.stderr)
    else:
        bar = _NoBar()
    try:
        for name, (message, line, entry, notes) in _outcomes(
                files, found.empty, coach, entries, lines, getattr(args, "jobs", 1)):
            bar.update(1)
            if message:
                errors.append({"file": name, "error": message})
                bar.write(printable(f"fastmine analyze: {message}"), file=sys.stderr)
                continue
            for note in notes:
                bar.write(printable(f"fastmine analyze: note: {name}: {note}"),
                          file=sys.stderr)
            games.append(entry)
            if line is not None:
                bar.write(line, file=sys.stdout)
    finally:
        bar.close()
    keys = list(_COUNTED) if coach else []
    if entries:     # statistics, csv (and decimal, fractions): only for what needs them
        from . import summary as summaries
    rows = summaries.summarize(games, keys) if args.summary else []
    if args.summary and not to_stdout:
        sys.stdout.write(summaries.table(rows, keys))
    status = 1 if errors else 0
    if args.json is not None:
        doc: dict[str, Any] = {"format": JSON_FORMAT, "version": JSON_VERSION,
                               "games": games, "errors": errors}
        if args.summary:
            doc["summary"] = rows
        import json  # only for --json (a millisecond of every start)

        text = json_printable(json.dumps(doc, ensure_ascii=False, indent=1)) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            failed = _write("--json", args.json, text)
            if failed:
                return failed
            print(f"{len(games)} games written to {args.json}", file=sys.stderr)
    if args.csv is not None:
        text = summaries.to_csv(rows, keys)
        if args.csv == "-":
            sys.stdout.write(text)
        else:
            failed = _write("--csv", args.csv, text)
            if failed:
                return failed
            print(f"summary of {len(games)} games written to {args.csv}", file=sys.stderr)
    if args.plot is not None:
        try:
            shown = summaries.plot(games, args.plot)
        except (ValueError, OSError) as exc:
            print(f"fastmine analyze: --plot {args.plot} not written: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 1
        print(f"plot of {shown} won games written to {args.plot}" if shown else
              f"fastmine analyze: --plot {args.plot} not written: no won game with a date",
              file=sys.stderr)
    return status
