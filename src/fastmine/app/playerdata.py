"""The player's data as the app sees it: records, replays and the saved game.

:class:`PlayerData` is the app's only door to the shared records store
(:class:`fastmine.records.RecordsStore`: SQLite, shared with the terminal game
and ``fastmine records``) and to the saved game (:mod:`fastmine.files.savedgame`),
so the rest of the app calls a handful of methods and sees one exception type,
:class:`PlayerDataError`.
``data_dir`` None means the shared default (``FASTMINE_DATA_DIR`` or the
platform's user data folder, see :mod:`fastmine.files.storage`).

Every call opens and closes the database: two processes (the terminal and
the app) may write at once, and the app never holds the file open while it
sits in the background.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from fastmine import DIFFICULTIES, Game, SaveFormatError
from fastmine.difficulty import NAMED_BOARDS
from fastmine.files import savedgame as S
from fastmine.files import storage

ABANDONED_FILE = "abandoned.json"
"""Where older apps counted games given up while in progress, per board label.  The
records now keep them: an existing file is imported once, then renamed
``abandoned.json.imported-<time>`` (kept, never deleted).  A file that is not
such a table (not JSON, a size fastmine cannot play, more games than
:data:`fastmine.records.MAX_IMPORTED_ABANDONED`) is renamed
``abandoned.json.unreadable-<time>`` with one warning in the log, so it is
reported once, not at every start."""
MAX_ABANDONED_BYTES = 1 << 20
"""Far more than any count of abandoned games needs; a bigger file is not one."""

if TYPE_CHECKING:
    from fastmine import records as R
    from fastmine.replay import Replay

log = logging.getLogger(__name__)


def _records() -> ModuleType:
    """:mod:`fastmine.records`, imported on first use: a start that shows no
    record (the game screen, a saved game offered) loads neither it nor SQLite."""
    from fastmine import records

    return records

BoardKey = str | tuple[int, int, int]


class PlayerDataError(ValueError):
    """A records or save file cannot be used; it was left as it is."""


class _NotCounts(PlayerDataError):
    """The old abandoned.json is not the table of counts the app wrote."""


@dataclass(frozen=True)
class BestTime:
    """One line of a best-times table."""

    name: str
    time: float
    date: str
    bbbv_per_second: float | None


@dataclass(frozen=True)
class Stats:
    """Statistics of one board (unassisted games), plus how many were assisted."""

    played: int
    won: int
    streak: int
    best_streak: int
    assisted: int = 0
    """Finished games played with help (a hint, the solver, the live coach)."""
    abandoned: int = 0
    """Games given up in progress, with help or without: the question before
    abandoning says every one is counted (with the live coach on, every game
    is assisted, and none showed)."""

    @property
    def win_percent(self) -> float:
        """Wins as a percentage of games played (0 with no games)."""
        return 100.0 * self.won / self.played if self.played else 0.0


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _wrap(fn: Callable[_P, _T]) -> Callable[_P, _T]:
    """``fn``, raising :class:`PlayerDataError` where it raised a records, save-format or OS error."""
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            # a RecordsError comes from fastmine.records, loaded by then
            if isinstance(exc, (_records().RecordsError, SaveFormatError, OSError)):
                raise PlayerDataError(str(exc)) from None
            raise
    call.__doc__ = fn.__doc__
    call.__name__ = fn.__name__
    return call


def board_key(label: str) -> BoardKey:
    """A records-screen label back to a board: a preset name or (rows, cols, mines).

    >>> board_key("expert"), board_key("custom 20x30/100"), board_key("classic beginner")
    ('expert', (20, 30, 100), 'classic beginner')
    """
    if label in NAMED_BOARDS:
        return label
    size, mines = label.split()[-1].split("/")
    rows, cols = size.split("x")
    return (int(rows), int(cols), int(mines))


def _stored_id(record: R.GameRecord) -> int:
    """The id of a game the records hold (they set it when they store one)."""
    if record.id is None:
        raise PlayerDataError("the records returned a game without its id")
    return record.id


@dataclass(frozen=True)
class ReplayEntry:
    """One line of the list of recorded games that can be watched again."""

    id: int
    date: str
    label: str
    won: bool
    time: float
    assisted: bool


class PlayerData:
    """The player's records, replays and saved game under ``data_dir`` (None: the
    shared default)."""

    def __init__(self, data_dir: str | None = None) -> None:
        self.data_dir = data_dir
        self._import_checked = False  # abandoned.json looked for (once per start)

    def _db(self) -> R.RecordsStore:
        db: R.RecordsStore = _records().RecordsStore(data_dir=self.data_dir)
        if not self._import_checked:
            self._import_checked = True
            try:
                self._import_abandoned(db)
            except BaseException:
                db.close()
                raise
        return db

    # ------------------------------------------------------------ records

    @_wrap
    def record_game(self, game: Game, name: str | None = None) -> int:
        """Store a finished game; returns its record id (for :meth:`set_name`)."""
        with self._db() as db:
            return _stored_id(db.record_game(game, name or None))

    @_wrap
    def add_imported(self, record: R.GameRecord, replay: Replay | None) -> int:
        """PlayerData an imported game's record (a video's: player, software, date)
        with its replay; returns its record id."""
        with self._db() as db:
            return _stored_id(db.add(record, replay))

    @_wrap
    def set_name(self, record_id: int, name: str | None) -> None:
        """Put the player's name on a stored game (the best-time prompt)."""
        with self._db() as db:
            db.set_name(record_id, name or None)

    @_wrap
    def last_name(self) -> str:
        """The name on the most recent named game ("" if none), to offer again."""
        with self._db() as db:
            return db.last_name() or ""

    @_wrap
    def read_only_note(self) -> str | None:
        """One sentence when the records can be read here but not written (a
        read-only disk: new games cannot be recorded), else None."""
        with self._db() as db:
            return db.read_only_note

    @_wrap
    def is_best_time(self, game: Game) -> bool:
        """True if this won, unassisted game beats the board's best time."""
        with self._db() as db:
            return db.is_best_time(game)

    @_wrap
    def best_times(self, board: BoardKey, limit: int = 10) -> list[BestTime]:
        """Fastest unassisted wins of a board, fastest first."""
        with self._db() as db:
            return [BestTime(b.name or "", b.time, b.date, b.bbbv_per_second)
                    for b in db.best_times(board, limit)]

    @_wrap
    def games(self, board: BoardKey) -> list[R.GameRecord]:
        """Every unassisted game of a board, won or lost, oldest first (the Progress charts)."""
        with self._db() as db:
            return db.games(board, include_assisted=False)

    def best_time(self, board: BoardKey) -> BestTime | None:
        """The time to beat, or None."""
        best = self.best_times(board, limit=1)
        return best[0] if best else None

    @_wrap
    def remove_record(self, record_id: int) -> None:
        """Forget a stored game (a loss taken back with undo: the game goes on)."""
        with self._db() as db:
            db.remove(record_id)

    @_wrap
    def replay_list(self, limit: int = 100) -> list[ReplayEntry]:
        """The last ``limit`` recorded games that have a replay, newest first."""
        with self._db() as db:
            ids = set(db.replay_ids())
            games = [g for g in db.games() if g.id in ids]
        return [ReplayEntry(_stored_id(g), g.date, g.board_label, g.won, g.time, g.assisted)
                for g in reversed(games[-limit:])]

    @_wrap
    def replay(self, record_id: int) -> Replay | None:
        """The replay (a :class:`fastmine.replay.Replay`) of a recorded game, or None."""
        with self._db() as db:
            return db.replay(record_id)

    @_wrap
    def stats(self, board: BoardKey) -> Stats:
        """Played, won and streaks of unassisted games, the assisted and all abandoned counts."""
        with self._db() as db:
            s = db.statistics(board)
            every = db.statistics(board, include_assisted=True)
        return Stats(s.played, s.won, s.current_streak, s.best_streak, every.played - s.played,
                     every.abandoned)

    # ------------------------------------------------------------ abandoned games

    def _abandoned_path(self) -> Path:
        return storage.data_dir(self.data_dir) / ABANDONED_FILE

    def _abandoned_counts(self) -> dict[tuple[int, int, int], int] | None:
        """The old file's counts by board size; None if there is no file.  Anything
        but the table of counts the app wrote raises :class:`PlayerDataError`."""
        path = self._abandoned_path()
        try:
            # never waits on a FIFO nor reads without bound: a few bytes per board size
            data = json.loads(storage.read_regular_file(path, MAX_ABANDONED_BYTES).decode("utf-8"))
        except FileNotFoundError:
            return None
        except PermissionError as exc:     # the file may be fine: try again next start
            raise PlayerDataError(f"cannot read {path}: {exc}") from None
        except (OSError, ValueError) as exc:   # a FIFO, too big, not UTF-8 or not JSON
            raise _NotCounts(f"cannot read {path}: {exc}") from None
        except RecursionError:      # json nests a Python call per level: the table has two
            raise _NotCounts(f"{path} is not a table of counts per board (nested too deeply)"
                             ) from None
        counts: dict[tuple[int, int, int], int] = {}
        try:
            for label, n in data.items():
                key = board_key(label)
                if isinstance(key, str):
                    rows, cols, mines = DIFFICULTIES[key]
                    key = (rows, cols, mines)
                size = key
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise ValueError(n)
                counts[size] = counts.get(size, 0) + n
        except (AttributeError, TypeError, ValueError, KeyError):
            raise _NotCounts(f"{path} is not a table of counts per board") from None
        R = _records()
        try:
            checked: dict[tuple[int, int, int], int] = R.check_abandoned_counts(counts)   # sizes and the total: before any write
        except R.RecordsError as exc:
            raise _NotCounts(f"{path} is not the app's table of counts: {exc}") from None
        return checked

    def _import_abandoned(self, db: R.RecordsStore) -> None:
        """Move the old abandoned.json's counts into the records, once, then rename the
        file aside.  A file that is not such a table is renamed aside as unreadable
        (kept) with one warning; records that cannot be written leave it where it
        is, with a warning, for the next start.  The app goes on either way."""
        try:
            counts = self._abandoned_counts()
        except _NotCounts as exc:
            try:
                kept = storage.move_aside(self._abandoned_path(), "unreadable")
            except OSError as err:
                log.warning("fastmine: abandoned games of %s not imported: %s; could not "
                            "rename it aside: %s", ABANDONED_FILE, exc, err)
                return
            log.warning("fastmine: abandoned games of %s not imported: %s; kept as %s",
                        ABANDONED_FILE, exc, kept.name)
            return
        except PlayerDataError as exc:
            log.warning("fastmine: abandoned games of %s not imported, the file is left for "
                        "the next start: %s", ABANDONED_FILE, exc)
            return
        if counts is None:
            return
        try:
            db.import_abandoned(counts)  # adds nothing if the records hold an import already
        except _records().RecordsError as exc:
            log.warning("fastmine: abandoned games of %s not imported, the file is left for "
                        "the next start: %s", ABANDONED_FILE, exc)
            return
        try:
            storage.move_aside(self._abandoned_path(), "imported")
        except OSError as exc:
            log.warning("fastmine: imported %s but could not rename it: %s", ABANDONED_FILE, exc)

    @_wrap
    def abandoned(self, board: BoardKey) -> int:
        """How many unassisted games of this board were given up while in progress."""
        with self._db() as db:
            return db.statistics(board).abandoned

    @_wrap
    def count_abandoned(self, game: Game) -> None:
        """Record a game given up while in progress (a new game started over it, or a
        saved game declined); a game with no reveal yet is not counted."""
        with self._db() as db:
            db.record_abandoned(game)

    @_wrap
    def board_labels(self) -> list[str]:
        """Every preset, then each custom size that has games ("custom RxC/M")."""
        with self._db() as db:
            sizes = db.boards()
        presets = {tuple(d) for d in DIFFICULTIES.values()}
        label = _records().board_label
        return [*DIFFICULTIES, *(label(*s) for s in sizes if tuple(s) not in presets)]

    # ------------------------------------------------------------ saved game

    @_wrap
    def save_game(self, game: Game) -> None:
        """Keep an unfinished game for the next start (a finished or unstarted one clears it)."""
        if game.state.is_over or game.state.name == "READY":
            S.delete_save(data_dir=self.data_dir)
        else:
            S.save_game(game, data_dir=self.data_dir)

    @_wrap
    def load_game(self, clock: Callable[[], float]) -> Game | None:
        """The saved game, or None.  An unreadable file raises :class:`PlayerDataError`."""
        return S.load_game(data_dir=self.data_dir, clock=clock)

    @_wrap
    def clear_saved(self) -> None:
        """Forget the saved game."""
        S.delete_save(data_dir=self.data_dir)

    @_wrap
    def move_saved_aside(self) -> str:
        """Keep an unreadable save under a new name (so new saves can be written)."""
        return str(S.move_aside(data_dir=self.data_dir))
