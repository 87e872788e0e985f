"""A video's game in fastmine: the rebuilt :class:`fastmine.Game` and its metrics.

:func:`rebuild` plays a video's counted clicks, at their times, in fastmine's
engine (:meth:`fastmine.Game.from_moves`), so the coach, replays and records
work on it as on any game; :func:`video_stats` gives the community's metrics
(:mod:`fastmine.metrics`) with the recording client's own click counts and the
mouse path, which the rebuilt game cannot know (clicks off the board, the
pointer between clicks).

For example, with a test video (tests/data/videos in the source tree)::

    from fastmine.videos import play_video, read_video
    video = read_video("arbiter_exp_lost.avf")
    play = play_video(video)
    s = video_stats(video, play)
    s.bbbv_solved, round(s.bbbv_per_second, 3), round(s.ioe, 3)
    # (11, 0.168, 0.043): lost after 65.62 s with 11 of 180 3BV solved
    game = rebuild(video, play)
    game.state.value, game.elapsed
    # ('lost', 65.62)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..board import Board, Rule
from ..metrics import GameStats, _events_path, bbbv_solved, level_of
from ..movelog import MOVE_CHORD, MOVE_MARK, MOVE_MARK_PLAIN, MOVE_REVEAL
from .model import Video
from .moves import VideoPlay

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["KINDS", "first_click_rule", "mouse_path", "move_log", "rebuild", "timed_moves",
           "video_stats"]

KINDS = {"left": "reveal", "right": "mark", "double": "chord"}
"""The move of fastmine's engine each counted click of a video makes."""


def timed_moves(play: VideoPlay) -> list[tuple[str, int, int, int]]:
    """The video's clicks on the board as ``(kind, row, col, ms)`` moves for
    :meth:`fastmine.Game.from_moves` (clicks off the board change nothing and
    have no cell: left out; they still count in :func:`video_stats`).

    A time later than one after it (a client's clock that stepped back, as in
    a real Arbiter game whose first events are at 10 ms, then 0 ms) is taken
    as that later move's time: the client accepted the game, and its result
    and time (from the first reveal to :attr:`VideoPlay.end_ms`) are kept as
    recorded.

    Parameters
    ----------
    play : VideoPlay

    Returns
    -------
    list of tuple
    """
    out: list[tuple[str, int, int, int]] = []
    earliest = max((m.time_ms for m in play.moves), default=0)
    for m in reversed(play.moves):
        if m.row >= 0:
            earliest = min(earliest, m.time_ms)
            out.append((KINDS[m.button], m.row, m.col, earliest))
    out.reverse()
    return out


_LOG_KINDS = np.array([MOVE_REVEAL, MOVE_MARK, MOVE_CHORD], np.int64)
"""The move log's kind of each button code (:attr:`~fastmine.videos.moves.ClickLog.button`)."""


def move_log(play: VideoPlay, question_marks: bool) -> NDArray[np.int64]:
    """The moves of :func:`timed_moves` as move log rows ``(kind, row, col)``
    (kinds as :attr:`fastmine.Game.moves` has them; a mark without "?" when the
    game had none), what :func:`fastmine.coach.analyze` reads without a Python
    step a move.

    Parameters
    ----------
    play : VideoPlay
    question_marks : bool
        Whether the game's right clicks cycled through the question mark.

    Returns
    -------
    ndarray of int64
        Shape (moves, 3).
    """
    log = play.log
    on = np.flatnonzero(log.cell >= 0)
    out = np.empty((len(on), 3), np.int64)
    out[:, 0] = _LOG_KINDS[log.button[on]]
    if not question_marks:
        out[out[:, 0] == MOVE_MARK, 0] = MOVE_MARK_PLAIN
    out[:, 1], out[:, 2] = np.divmod(log.cell[on], log.cols)
    return out


def first_click_rule(play: VideoPlay, mines: np.ndarray) -> Rule:
    """The first-click rule to judge a video's game under: ``"cell"`` (the
    first reveal was free, as every client makes it) unless that reveal hit a
    mine on the recorded board, then ``"none"``.

    Parameters
    ----------
    play : VideoPlay
    mines : ndarray of bool
        The video's mine layout.

    Returns
    -------
    str
    """
    first = play.first_reveal()
    if first < 0 or np.asarray(mines).flat[play.log.cell[first]]:
        return "none"
    return "cell"


def rebuild(video: Video, play: VideoPlay) -> Game:
    """The video's game, rebuilt in fastmine's engine from its moves and times.

    Parameters
    ----------
    video : Video
    play : VideoPlay
        ``play_video(video)``.

    Returns
    -------
    Game
        On the video's board, with the player's question-mark setting, the
        first-click rule of :func:`first_click_rule`, the player's time and
        the same board after every move.

    Raises
    ------
    ValueError
        A board fastmine does not play (no mine, or no safe cell).
    """
    from ..game import Game  # only for a game rebuilt: `fastmine analyze` needs none

    board = Board.from_mines(video.mine_layout)
    return Game.from_moves(board, timed_moves(play), rule=first_click_rule(play, video.mine_layout),
                           question_marks=bool(video.question_marks), end_ms=play.end_ms)


def mouse_path(video: Video, play: VideoPlay) -> float:
    """How far the mouse moved during the game, in 16-pixel cells, as Metasweeper
    measures it: from the event that revealed the first cell to the one that
    ended the game (the last event of an unfinished one), through the points
    on the board.

    Parameters
    ----------
    video : Video
    play : VideoPlay

    Returns
    -------
    float
        0.0 for a game that never started.
    """
    ev = video.events
    first = play.first_reveal()
    if first < 0:
        return 0.0
    start = int(play.log.event[first])
    end = len(ev) - 1
    if play.outcome != "unfinished":
        end = int(play.log.event[play.last_change()])
    return _events_path(ev.x, ev.y, ev.row, start, end + 1, video.cell_size)


def video_stats(video: Video, play: VideoPlay) -> GameStats:
    """The community's metrics of a video's game (see :mod:`fastmine.metrics`).

    The clicks are the recording client's counts (off the board included;
    Minesweeper Clone counts a chord's right press), the 3BV solved is read
    from the board at the end.

    Parameters
    ----------
    video : Video
    play : VideoPlay

    Returns
    -------
    GameStats
    """
    layout = np.asarray(video.mine_layout, bool)
    if layout.all() or not layout.any():
        bbbv = solved = None
    else:
        board = Board.from_mines(layout)
        bbbv = board.bbbv()
        # A won game solved all of it (every safe cell is open): no need to look.
        solved = bbbv if play.outcome == "won" else bbbv_solved(board, play.final_view)
    return GameStats.of(play.time_ms / 1000, bbbv, solved, (play.left, play.right, play.double),
                        (play.left_effective, play.right_effective, play.double_effective),
                        level_of(video.rows, video.cols, video.mines), mouse_path(video, play))
