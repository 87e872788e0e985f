"""``fastmine analyze``: the community's metrics and the coach's verdict on recorded games.

Each file is a video of the competitive clients (``.avf``, ``.rmv``, ``.mvf``,
``.evf``, read by :mod:`fastmine.videos`) or a fastmine replay (``.fmreplay``).
For each, one line: the game, its metrics (:mod:`fastmine.metrics`) and the
coach's summary (:mod:`fastmine.coach`); ``--json`` writes them all as one
document.  A file that cannot be read is one line on standard error, the
others are still analysed, and the exit status is then 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..coach import Category, analyze, summary
from ..difficulty import difficulty_name
from ..errors import VideoFormatError
from ..files.outputs import check_output, write_output
from ..files.reading import read_regular_file
from ..game import Game
from ..metrics import GameStats, hzini, islands, level_of, openings, zini
from ..replay import Replay
from ..replay.fileformat import MAX_REPLAY_BYTES
from ..videos import play_video, read_video
from ..videos.model import MAX_FILE_BYTES
from ..videos.rebuild import rebuild, video_stats

__all__ = ["JSON_FORMAT", "JSON_VERSION", "Analysis", "analyze_file", "configure", "run"]

JSON_FORMAT = "fastmine-analysis"
JSON_VERSION = 1

COACH_BUDGET = 30.0
"""Seconds the coach may spend on one game: a game on a board too large for its
exact count gets its later moves marked not analysed instead of stalling the run."""

_COUNTED = (Category.FORCED_GUESS, Category.AVOIDABLE_RISK, Category.WORSE_GUESS,
            Category.WRONG_FLAG, Category.NOT_ANALYSED)


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``fastmine analyze`` options to an argparse parser."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="videos (.avf, .rmv, .mvf, .evf) or fastmine replays (.fmreplay)")
    parser.add_argument("--json", metavar="PATH",
                        help="also write every game's metrics and the coach's counts as JSON "
                             "to PATH ('-': standard output, instead of the lines)")


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
    game : Game
        The game rebuilt in fastmine's engine.
    stats : GameStats
        Its metrics (for a video, with the recording client's click counts).
    coach : Counter
        How many moves the coach put in each :class:`fastmine.coach.Category`.
    coach_summary : str
        The coach's sentences on the game ("" when it has nothing to say).
    """

    file: str
    format: str
    software: str
    software_version: str | None
    player: str | None
    date: str | None
    game: Game
    stats: GameStats
    coach: Counter[Category]
    coach_summary: str

    def to_json(self) -> dict[str, Any]:
        """The game's entry in the ``--json`` document (see docs/metrics.md).

        Returns
        -------
        dict
        """
        g, s = self.game, self.stats
        board = g.board
        assert board is not None
        return {
            "file": self.file, "format": self.format, "software": self.software,
            "software_version": self.software_version, "player": self.player,
            "date": self.date, "rows": g.rows, "cols": g.cols, "mines": g.mine_count,
            "level": s.level, "board": _board_name(g), "outcome": _outcome(g),
            "time": s.time, "bbbv": s.bbbv, "bbbv_solved": s.bbbv_solved,
            "bbbv_per_second": s.bbbv_per_second, "left": s.left_clicks,
            "right": s.right_clicks, "double": s.chord_clicks, "clicks": s.clicks,
            "effective_clicks": s.effective_clicks, "clicks_per_second": s.clicks_per_second,
            "ioe": s.ioe, "corr": s.correctness, "thrp": s.throughput, "rqp": s.rqp,
            "stnb": s.stnb, "openings": openings(board), "islands": islands(board),
            "zini": zini(board), "hzini": hzini(board), "path": s.path,
            **{c.value: self.coach[c] for c in _COUNTED},
            "coach": self.coach_summary,
        }

    def line(self) -> str:
        """The one line ``fastmine analyze`` prints for the game.

        Returns
        -------
        str
        """
        g, s = self.game, self.stats
        who = ", ".join(x for x in (f"{self.software} {self.software_version or ''}".strip(),
                                    self.player) if x)
        parts = [f"3BV {s.bbbv_solved}/{s.bbbv}" if _outcome(g) != "won" else f"3BV {s.bbbv}",
                 _num("3BV/s", s.bbbv_per_second, 3), _num("IOE", s.ioe, 3),
                 f"clicks {s.clicks} ({s.left_clicks}/{s.right_clicks}/{s.chord_clicks})",
                 _num("corr", s.correctness, 3), _num("thrp", s.throughput, 3),
                 _num("RQP", s.rqp, 2), _num("STNB", s.stnb, 1)]
        head = (f"{self.file}: {who}; {_board_name(g)} {g.rows}x{g.cols}/{g.mine_count}, "
                f"{_outcome(g)} in {s.time:.3f} s")
        coach = self.coach_summary or "nothing to remark"
        return f"{head}; {', '.join(p for p in parts if p)}; coach: {coach}"


def _num(name: str, value: float | None, places: int) -> str:
    return f"{name} -" if value is None else f"{name} {value:.{places}f}"


def _outcome(game: Game) -> str:
    return {"won": "won", "lost": "lost"}.get(game.state.value, "unfinished")


def _board_name(game: Game) -> str:
    name = difficulty_name(game.rows, game.cols, game.mine_count)
    return name if name != "custom" else level_of(game.rows, game.cols, game.mine_count)


def _is_replay(name: str, data: bytes) -> bool:
    return Path(name).suffix.lower() == ".fmreplay" or data.lstrip()[:1] == b"{"


def analyze_file(name: str) -> Analysis:
    """Read one video or replay and analyse its game.

    Parameters
    ----------
    name : str
        The file's path.

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
        replay = Replay.from_bytes(data)
        game = replay.play()
        verdicts = analyze(replay.board, replay.moves, rule=replay.rule,
                           question_marks=replay.question_marks, budget=COACH_BUDGET)
        return Analysis(name, "fmreplay", "fastmine", None, None, None, game, game.stats(),
                        Counter(v.category for v in verdicts), summary(verdicts))
    video = read_video(data, name=name)
    play = play_video(video)
    game = rebuild(video, play)
    board = game.board
    if board is None:       # pragma: no cover - rebuild always has the video's board
        raise ValueError("the video has no board")
    verdicts = analyze(board, game.moves, rule=game.rule, question_marks=game.question_marks,
                       budget=COACH_BUDGET)
    version = f"{video.software_version}" if video.software_version else None
    return Analysis(name, video.format, video.software, version, video.player or None,
                    video.date.isoformat() if video.date is not None else None, game,
                    video_stats(video, play), Counter(v.category for v in verdicts),
                    summary(verdicts))


def _error(name: str, exc: BaseException) -> str:
    """The one line a file that cannot be analysed gets, naming it once."""
    if isinstance(exc, VideoFormatError):
        return str(exc)                       # it names the file already
    if isinstance(exc, OSError):
        if exc.filename is not None:          # "No such file or directory", ...
            return f"{name}: {exc.strerror or exc}"
        return str(exc)                       # the storage layer's words name it
    return f"{name}: {exc}"


def run(args: argparse.Namespace) -> int:
    """``fastmine analyze``; returns the exit status (1 if a file could not be read)."""
    from tqdm import tqdm

    to_stdout = args.json == "-"
    if args.json is not None and not to_stdout:
        try:
            check_output(args.json, "--json")
            for f in args.files:
                if os.path.exists(f) and os.path.exists(args.json) \
                        and os.path.samefile(f, args.json):
                    raise ValueError(f"--json {args.json} is one of the files to analyse; "
                                     "writing there would replace it")
        except ValueError as exc:
            print(f"fastmine analyze: {exc}", file=sys.stderr)
            return 2
    games: list[dict[str, Any]] = []
    errors: list[dict[str, str]] = []
    bar = tqdm(args.files, unit="file", disable=None if len(args.files) > 1 else True,
               leave=False, dynamic_ncols=True, file=sys.stderr)
    for name in bar:
        try:
            result = analyze_file(name)
        except (OSError, ValueError) as exc:
            message = _error(name, exc)
            errors.append({"file": name, "error": message})
            bar.write(f"fastmine analyze: {message}", file=sys.stderr)
            continue
        games.append(result.to_json())
        if not to_stdout:
            bar.write(result.line(), file=sys.stdout)
    bar.close()
    if args.json is not None:
        text = json.dumps({"format": JSON_FORMAT, "version": JSON_VERSION, "games": games,
                           "errors": errors}, ensure_ascii=False, indent=1) + "\n"
        if to_stdout:
            sys.stdout.write(text)
        else:
            try:
                write_output(args.json, text, "--json")
            except ValueError as exc:
                print(f"fastmine analyze: {exc}", file=sys.stderr)
                return 2
            except OSError as exc:
                print(f"fastmine analyze: cannot write {args.json}: {exc.strerror or exc}",
                      file=sys.stderr)
                return 1
            print(f"{len(games)} games written to {args.json}", file=sys.stderr)
    return 1 if errors else 0
