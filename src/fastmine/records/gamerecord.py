"""A finished game as the records keep it: :class:`GameRecord`, :class:`Statistics`,
:class:`AbandonedGame`, and the checks a record passes before it is stored.

Plain values, no database: :mod:`fastmine.records` stores them (and its names
import from there too), :mod:`fastmine.records.progress` and the app's statistics
screen compute with them.

>>> rec = GameRecord.make(9, 9, 10, won=True, time=31.5, bbbv=20, name=" Ann ")
>>> rec.board_label, rec.name, round(rec.bbbv_per_second, 3)
('beginner', 'Ann', 0.635)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from .._validate import as_int, check_mines, check_size
from ..difficulty import difficulty_name
from ..metrics import GameStats

if TYPE_CHECKING:
    from ..game import Game

MAX_NAME_LENGTH = 40
"""The longest player name stored (longer names are cut)."""

SQLITE_INTEGERS = range(-2**63, 2**63)
"""The integers an SQLite INTEGER column holds (64-bit, signed): every whole
number the records store passes to the database is checked against it by
:func:`sqlite_int` (beyond it SQLite's driver raises OverflowError)."""


MAX_IMPORTED_ABANDONED = 10_000
"""The most abandoned games :meth:`fastmine.records.RecordsStore.import_abandoned` takes in all (far
more than anyone gives up; the app's old counts file is a few lines)."""


class RecordsError(ValueError):
    """The records database is unreadable, not fastmine's, or a record is invalid."""


class FutureSchemaError(RecordsError):
    """The records database was written by a newer fastmine (a newer schema version)."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game as stored.  Build one with :meth:`from_game` or :meth:`make`.

    ``date`` is an ISO 8601 UTC timestamp; ``id`` is set once the record is stored.
    ``software`` names the program that recorded an imported game (a video of
    another client, ``"Minesweeper Arbiter 0.52.3"``); None for fastmine's own.
    ``bbbv``, ``bbbv_per_second`` and ``efficiency`` may be None (for example a
    game lost on its first reveal with ``rule="none"`` has no rate).

    Parameters
    ----------
    difficulty : str
        The board's name (:func:`board_label` without the size of a custom one).
    rows, cols, mines : int
        The board's size.
    rule : str
        The first-click rule.
    won : bool
        Won or lost.
    time : float
        Seconds played.
    bbbv : int or None
        The board's 3BV.
    bbbv_per_second : float or None
        3BV solved per second.
    clicks : int
        All clicks.
    efficiency : float or None
        3BV solved per click.
    assisted : bool
        Whether help was used.
    date : str
        When it was played.
    name : str, optional
        The player's name.
    left_clicks, right_clicks, chord_clicks : int, optional
        The clicks by kind, when known.
    software : str, optional
        The program that recorded an imported game.
    id : int, optional
        The record's id in the database.
    """

    difficulty: str
    rows: int
    cols: int
    mines: int
    rule: str
    won: bool
    time: float
    bbbv: int | None
    bbbv_per_second: float | None
    clicks: int
    efficiency: float | None
    assisted: bool
    date: str
    name: str | None = None
    left_clicks: int | None = None
    right_clicks: int | None = None
    chord_clicks: int | None = None
    software: str | None = None
    id: int | None = None

    @classmethod
    def from_game(cls, game: Game, name: str | None = None, date: str | None = None) -> GameRecord:
        """The record of a finished :class:`fastmine.Game`.

        Parameters
        ----------
        game : Game
            A won or lost game.
        name : str, optional
            The player's name (cleaned by :func:`clean_name`).
        date : str, optional
            When it was played (now by default).

        Returns
        -------
        GameRecord
            Its record, without an ``id``.

        Raises
        ------
        RecordsError
            The game is not over.
        """
        if not game.state.is_over:
            raise RecordsError(f"only finished games are recorded; this one is {game.state.value}")
        s = game.stats()
        return cls(
            difficulty=difficulty_name(game.rows, game.cols, game.mine_count),
            rows=game.rows, cols=game.cols, mines=game.mine_count, rule=game.rule,
            won=game.state.name == "WON", time=s.time, bbbv=s.bbbv,
            bbbv_per_second=s.bbbv_per_second, clicks=s.clicks, efficiency=s.efficiency,
            assisted=bool(game.assisted), date=date or now_iso(), name=clean_name(name),
            left_clicks=s.left_clicks, right_clicks=s.right_clicks, chord_clicks=s.chord_clicks,
        )

    @classmethod
    def make(cls, rows: int, cols: int, mines: int, *, won: bool, time: float,
             rule: str = "opening", bbbv: int | None = None, clicks: int = 0,
             assisted: bool = False, name: str | None = None,
             date: str | None = None, bbbv_solved: int | None = None) -> GameRecord:
        """A record from plain values (for tests, imports and other front ends).

        ``won`` and ``assisted`` must be real booleans (TypeError otherwise).
        3BV/s and the efficiency count the 3BV solved, as :meth:`fastmine.Game.stats`
        does: all of ``bbbv`` for a won game, ``bbbv_solved`` for a lost one (without
        it a lost game has neither); no rate under :data:`fastmine.metrics.TIME_FLOOR`.

        Parameters
        ----------
        rows, cols, mines : int
            The board's size.
        won : bool
            Won or lost.
        time : float
            Seconds played.
        rule : str
            The first-click rule.
        bbbv : int, optional
            The board's 3BV.
        clicks : int
            All clicks.
        assisted : bool
            Whether help was used.
        name : str, optional
            The player's name.
        date : str, optional
            When it was played (now by default).
        bbbv_solved : int, optional
            The 3BV a lost game had solved.

        Returns
        -------
        GameRecord
            The record, without an ``id``.

        Raises
        ------
        TypeError
            ``won`` or ``assisted`` is not a bool.
        """
        _check_flag("won", won)
        _check_flag("assisted", assisted)
        s = GameStats.of(float(time), bbbv, bbbv if won else bbbv_solved, (clicks, 0, 0))
        rate, eff = s.bbbv_per_second, s.efficiency
        return cls(difficulty_name(rows, cols, mines), rows, cols, mines, rule, bool(won),
                   float(time), bbbv, rate, clicks, eff, bool(assisted), date or now_iso(),
                   clean_name(name))

    @property
    def board_label(self) -> str:
        """The preset name, or ``"custom RxC/M"`` for a custom size."""
        return board_label(self.rows, self.cols, self.mines)


@dataclass(frozen=True)
class AbandonedGame:
    """A game given up while in progress: a new game was started over it after
    at least one reveal.  Build one with :meth:`from_game`.

    ``time`` is the seconds played, ``revealed`` the fraction of the safe cells
    revealed (0 to 1).  Counts imported from the app's old ``abandoned.json``
    have no ``date``, ``rule``, ``time`` or ``revealed`` (None).

    Parameters
    ----------
    difficulty : str
        The board's name.
    rows, cols, mines : int
        The board's size.
    rule : str or None
        The first-click rule.
    time : float or None
        Seconds played.
    revealed : float or None
        The fraction of the safe cells revealed.
    assisted : bool
        Whether help was used.
    date : str or None
        When it was given up.
    id : int, optional
        Its id in the database.
    """

    difficulty: str
    rows: int
    cols: int
    mines: int
    rule: str | None
    time: float | None
    revealed: float | None
    assisted: bool
    date: str | None
    id: int | None = None

    @classmethod
    def from_game(cls, game: Game, date: str | None = None) -> AbandonedGame | None:
        """The abandonment of a game in progress.

        Parameters
        ----------
        game : Game
            The game given up.
        date : str, optional
            When (now by default).

        Returns
        -------
        AbandonedGame or None
            The entry; None for a game with no reveal yet (nothing was played,
            so nothing is given up).

        Raises
        ------
        RecordsError
            A finished game: it is recorded as won or lost instead.
        """
        if game.state.is_over:
            raise RecordsError("a finished game is recorded as won or lost, not abandoned")
        if game.state.name != "PLAYING":
            return None
        safe = game.rows * game.cols - game.mine_count
        return cls(difficulty_name(game.rows, game.cols, game.mine_count), game.rows, game.cols,
                   game.mine_count, game.rule, float(game.elapsed),
                   min(1.0, game.revealed_count / safe), bool(game.assisted), date or now_iso())

    @property
    def board_label(self) -> str:
        """The preset name, or ``"custom RxC/M"`` for a custom size."""
        return board_label(self.rows, self.cols, self.mines)


@dataclass(frozen=True)
class Statistics:
    """Games played and won, win streaks and abandoned games, over a set of games.

    ``played`` counts finished games only (won or lost), so ``win_percent`` is
    wins per finished game.  An abandoned game (a new game started over one in
    progress) is not played, but it ends the current winning streak, as a loss
    would: giving up a hard position does not keep a streak alive.  Abandoned
    games imported without a date (the app's old counts) end no streak.

    Parameters
    ----------
    played, won : int
        Finished games, and those won.
    current_streak, best_streak : int
        Wins in a row: the last run, and the longest.
    abandoned : int
        Games given up.
    """

    played: int
    won: int
    current_streak: int
    best_streak: int
    abandoned: int = 0

    @property
    def lost(self) -> int:
        """Games lost."""
        return self.played - self.won

    @property
    def win_percent(self) -> float | None:
        """Wins as a percentage of games played (None before any game)."""
        return 100.0 * self.won / self.played if self.played else None

    @classmethod
    def from_results(cls, results: Sequence[bool | None]) -> Statistics:
        """Statistics of a list of results.

        Parameters
        ----------
        results : sequence of bool or None
            Oldest first: True won, False lost, None abandoned (not played,
            but it ends a streak).

        Returns
        -------
        Statistics
            The counts and streaks.

        Examples
        --------
        >>> Statistics.from_results([True, True, False, True, True, True, None, True])
        Statistics(played=7, won=6, current_streak=1, best_streak=3, abandoned=1)
        """
        best = run = played = won = abandoned = 0
        for result in results:
            if result is None:
                abandoned += 1
                run = 0
                continue
            played += 1
            won += bool(result)
            run = run + 1 if result else 0
            best = max(best, run)
        return cls(played, won, run, best, abandoned)


def now_iso() -> str:
    """The current UTC time, as the records store dates.

    Returns
    -------
    str
        ISO 8601, to the second (``2026-11-24T18:02:03+00:00``).
    """
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def clean_name(name: str | None) -> str | None:
    """A player name made safe to store.

    Parameters
    ----------
    name : str or None
        The name as typed.

    Returns
    -------
    str or None
        Printable characters only, trimmed, at most :data:`MAX_NAME_LENGTH`;
        None for nothing left.

    Raises
    ------
    TypeError
        ``name`` is not a string.
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"a player name must be a string, got {type(name).__name__}")
    name = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LENGTH].strip()
    return name or None


def board_label(rows: int, cols: int, mines: int) -> str:
    """The words naming a board size in the records.

    Parameters
    ----------
    rows, cols, mines : int
        The size.

    Returns
    -------
    str
        ``"beginner"`` for a preset size, ``"classic beginner"`` for 8x8 with
        10 mines (:data:`fastmine.difficulty.NAMED_BOARDS`), else
        ``"custom 12x20/40"``.
    """
    name = difficulty_name(rows, cols, mines)
    return name if name != "custom" else f"custom {rows}x{cols}/{mines}"


def sqlite_int(name: str, value: object, minimum: int = SQLITE_INTEGERS.start) -> int:
    """``value`` as a Python int the records database can hold: the one check of
    every whole number the records store hands to SQLite.

    Parameters
    ----------
    name : str
        What the number is, for the message (``"rows"``, ``"record_id"``).
    value : int
        A Python or NumPy integer (not a bool).
    minimum : int
        The smallest value allowed (default: SQLite's smallest integer).

    Returns
    -------
    int
        The value as a Python int.

    Raises
    ------
    TypeError
        For a bool or anything that is not a whole number (a float, a string).
    ValueError
        Below ``minimum`` or above 2**63 - 1, the largest integer SQLite stores.

    >>> sqlite_int("rows", 9)
    9
    >>> sqlite_int("rows", 2**64)
    Traceback (most recent call last):
    ...
    ValueError: rows must be at most 2**63 - 1 (the records database's largest integer), got 18446744073709551616
    """
    v = as_int(name, value)
    if v < minimum:
        raise ValueError(f"{name} must be {minimum} or more, got {v}")
    if v not in SQLITE_INTEGERS:
        raise ValueError(f"{name} must be at most 2**63 - 1 (the records database's largest "
                         f"integer), got {v}")
    return v


def _check_flag(name: str, value: object) -> None:
    # "no" or 0.5 stored as a win would be a silent lie in the records.
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r:.40}")


def _check_record(r: GameRecord) -> None:
    if not isinstance(r, GameRecord):
        raise TypeError(f"expected a GameRecord, got {type(r).__name__}")
    _check_flag("won", r.won)
    _check_flag("assisted", r.assisted)
    for field in ("rows", "cols", "mines", "clicks", "bbbv", "left_clicks", "right_clicks",
                  "chord_clicks"):
        v = getattr(r, field)
        if v is None and field not in ("rows", "cols", "mines", "clicks"):
            continue
        try:
            if not isinstance(v, int):      # a NumPy integer is not stored as one
                raise TypeError
            sqlite_int(field, v, 0)
        except (TypeError, ValueError):
            none = "" if field in ("rows", "cols", "mines", "clicks") else "None or "
            raise RecordsError(f"record field {field} must be {none}a non-negative int "
                               f"(at most 2**63 - 1), got {v!r:.40}") from None
    for field in ("bbbv_per_second", "efficiency"):
        v = getattr(r, field)
        if v is not None and not _seconds_like(v):
            raise RecordsError(f"record field {field} must be None or a finite number >= 0, "
                               f"got {v!r:.40}")
    for field in ("difficulty", "rule"):
        if not isinstance(getattr(r, field), str):
            raise RecordsError(f"record field {field} must be a string, "
                               f"got {getattr(r, field)!r:.40}")
    if not (r.rows > 0 and r.cols > 0 and 0 < r.mines < r.rows * r.cols):
        raise RecordsError(f"record has an impossible board {r.rows}x{r.cols}/{r.mines}")
    if not _seconds_like(r.time):
        raise RecordsError(f"record time must be a finite number of seconds >= 0, got {r.time!r}")
    if r.name is not None and r.name != clean_name(r.name):
        raise RecordsError(f"record name {r.name!r} is not clean; pass it through clean_name()")
    if r.software is not None and (not isinstance(r.software, str)
                                   or r.software != clean_name(r.software)):
        raise RecordsError(f"record software {r.software!r:.60} is not clean; pass it through "
                           "clean_name()")
    try:
        datetime.fromisoformat(r.date)
    except (TypeError, ValueError):
        raise RecordsError(f"record date must be ISO 8601, got {r.date!r}") from None


def _seconds_like(v: object) -> bool:
    """A number a REAL column takes: a finite float >= 0, or an int >= 0 SQLite can
    bind (a bigger one would be an OverflowError, and math.isfinite of a huge int too)."""
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0 <= v < SQLITE_INTEGERS.stop
    return isinstance(v, float) and math.isfinite(v) and v >= 0


def check_abandoned_counts(counts: Mapping[tuple[int, int, int], int]
                           ) -> dict[tuple[int, int, int], int]:
    """Counts of abandoned games per board size, checked as
    :meth:`fastmine.records.RecordsStore.import_abandoned` takes them (nothing is written).

    Parameters
    ----------
    counts : Mapping
        ``(rows, cols, mines)`` -> how many games of that board were abandoned.

    Returns
    -------
    dict
        The same counts with Python int keys and values (a size given twice adds up).

    Raises
    ------
    RecordsError
        A size fastmine cannot play (beyond :mod:`fastmine.limits`), a count
        that is not a whole number 0 or more, or more than
        :data:`MAX_IMPORTED_ABANDONED` games in all (checked before anything
        grows with the count).
    """
    out: dict[tuple[int, int, int], int] = {}
    total = 0
    for size, n in counts.items():
        try:
            rows, cols, mines = size
            rows, cols = check_size(rows, cols)
            mines = check_mines(mines, rows, cols)
        except (TypeError, ValueError) as exc:
            raise RecordsError(f"not a board size (rows, cols, mines): {size!r:.60} "
                               f"({exc})") from None
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RecordsError(f"an abandoned count must be a whole number, 0 or more, "
                               f"got {n!r:.40} for {rows}x{cols}/{mines}")
        total += n
        if total > MAX_IMPORTED_ABANDONED:
            raise RecordsError(f"more than {MAX_IMPORTED_ABANDONED} abandoned games in all: "
                               "not counts the app kept")
        out[rows, cols, mines] = out.get((rows, cols, mines), 0) + int(n)
    return out
