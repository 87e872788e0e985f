"""The records store's lookups: games, best times, statistics, boards, summaries.

:class:`Lookups` holds the read-only queries of :class:`fastmine.records.RecordsStore`
(which inherits them); the store owns the file, opening it and every write.  Each
query filters through :func:`fastmine.records.queries.where`, so a row of values
of the wrong type is left out of all of them alike.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..difficulty import NAMED_BOARDS
from . import queries
from .gamerecord import AbandonedGame, GameRecord, Statistics, board_label
from .queries import BoardKey, count_arg
from .schema import ABANDONED_COLUMNS, GAME_COLUMNS, SOUND_ROW

if TYPE_CHECKING:
    from ..game import Game

_COLUMNS = GAME_COLUMNS


class Lookups:
    """The queries of the records store (mixed into :class:`fastmine.records.RecordsStore`)."""

    def _db(self) -> sqlite3.Connection:
        raise NotImplementedError   # the store's open connection

    def abandoned_games(self, board: BoardKey | None = None, *, rule: str | None = None,
                        include_assisted: bool = True) -> list[AbandonedGame]:
        """Every stored abandoned game (optionally of one board and rule).

        Parameters
        ----------
        board, rule, include_assisted
            Which games: see :meth:`games`.

        Returns
        -------
        list of AbandonedGame
            Oldest first.
        """
        where, params = queries.where(board, rule, include_assisted, table="abandoned")
        out = []
        cols = ABANDONED_COLUMNS[:-1]       # its place among the games stays inside
        for row in self._db().execute(
                f"SELECT {', '.join(cols)} FROM abandoned{where} ORDER BY id", params):
            values = dict(zip(cols, row, strict=True))
            values["assisted"] = bool(values["assisted"])
            out.append(AbandonedGame(**values))
        return out

    def _select(self, sql: str, params: list[Any]) -> Iterator[GameRecord]:
        for row in self._db().execute(sql, params):
            values = dict(zip(_COLUMNS, row, strict=True))
            values["won"] = bool(values["won"])
            values["assisted"] = bool(values["assisted"])
            yield GameRecord(**values)

    def games(self, board: BoardKey | None = None, *, rule: str | None = None,
              include_assisted: bool = True) -> list[GameRecord]:
        """Every stored game (optionally of one board and rule).

        Parameters
        ----------
        board : BoardKey, optional
            A board (a name or ``(rows, cols, mines)``); all by default.
        rule : str, optional
            Only games of this first-click rule.
        include_assisted : bool
            Also the games played with help.

        Returns
        -------
        list of GameRecord
            Oldest first.
        """
        where, params = queries.where(board, rule, include_assisted)
        return list(self._select(f"SELECT {', '.join(_COLUMNS)} FROM games{where} ORDER BY id",
                                 params))

    def count(self) -> int:
        """How many games are stored.

        Returns
        -------
        int
            The games of sound values (see :attr:`unsound_note`).
        """
        n: int = self._db().execute(f"SELECT count(*) FROM games WHERE {SOUND_ROW['games']}"
                                    ).fetchone()[0]
        return n

    def last_name(self) -> str | None:
        """The player name of the most recently stored named game.

        Returns
        -------
        str or None
            The name, or None if no game has one.
        """
        row = self._db().execute(
            f"SELECT name FROM games WHERE name IS NOT NULL AND {SOUND_ROW['games']} "
            "ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def best_times(self, board: BoardKey, limit: int = 10, *, rule: str | None = None,
                   include_assisted: bool = False) -> list[GameRecord]:
        """The fastest won games on a board, fastest first (earlier game first on a tie).

        Parameters
        ----------
        board : BoardKey
            The board.
        limit : int
            How many, 0 or more.
        rule, include_assisted
            Which games: see :meth:`games` (assisted games are left out by default).

        Returns
        -------
        list of GameRecord
            At most ``limit``.

        Raises
        ------
        TypeError, ValueError
            A ``limit`` that is not a whole number, or below 0.
        """
        limit = count_arg("limit", limit)
        where, params = queries.where(board, rule, include_assisted, won_only=True)
        return list(self._select(
            f"SELECT {', '.join(_COLUMNS)} FROM games{where} ORDER BY time, id LIMIT ?",
            [*params, limit]))

    def best_time(self, board: BoardKey, **kwargs: Any) -> GameRecord | None:
        """The fastest won game on a board.

        Parameters
        ----------
        board : BoardKey
            The board.
        **kwargs
            ``rule`` and ``include_assisted``, as :meth:`best_times` takes them.

        Returns
        -------
        GameRecord or None
            The game, or None if the board has no won game.
        """
        best = self.best_times(board, 1, **kwargs)
        return best[0] if best else None

    def is_best_time(self, game: Game | GameRecord, top: int = 1, *,
                     include_assisted: bool = False) -> bool:
        """Would this won game enter the ``top`` best times of its board?

        Ask before storing the game (the games ask for the player's name only
        for a new best).  Lost games are never best; assisted ones only with
        ``include_assisted=True``.  A tie does not beat an earlier time.

        Parameters
        ----------
        game : Game or GameRecord
            The game.
        top : int
            How many best times count, 1 or more.
        include_assisted : bool
            Whether games played with help count.

        Returns
        -------
        bool
            True if it would.

        Raises
        ------
        TypeError, ValueError
            A ``top`` that is not a whole number, or below 1.
        """
        top = count_arg("top", top)
        if top == 0:
            raise ValueError("top must be at least 1")
        rec = game if isinstance(game, GameRecord) else GameRecord.from_game(game)
        if not rec.won or (rec.assisted and not include_assisted):
            return False
        best = self.best_times((rec.rows, rec.cols, rec.mines), top,
                               include_assisted=include_assisted)
        return len(best) < top or rec.time < best[-1].time

    def statistics(self, board: BoardKey | None = None, *, rule: str | None = None,
                   include_assisted: bool = False) -> Statistics:
        """Played, won, win %, win streaks and abandoned games (see :class:`Statistics`).

        Played and win % count finished games only; an abandoned game is
        counted apart and ends the streak it interrupted (in the order the
        games were stored).

        Parameters
        ----------
        board, rule, include_assisted
            Which games: see :meth:`games`.

        Returns
        -------
        Statistics
            The counts (assisted games are left out by default).
        """
        where, params = queries.where(board, rule, include_assisted)
        where_a, params_a = queries.where(board, rule, include_assisted, table="abandoned")
        conn = self._db()
        games = conn.execute(f"SELECT id, won FROM games{where} ORDER BY id", params).fetchall()
        places = [a for (a,) in conn.execute(f"SELECT after_game FROM abandoned{where_a}",
                                             params_a)]
        placed = sorted(a for a in places if a is not None)
        results: list[bool | None] = []
        i = 0
        for game_id, won in games:
            while i < len(placed) and placed[i] < game_id:
                results.append(None)     # given up before this game was stored
                i += 1
            results.append(bool(won))
        results += [None] * (len(placed) - i)
        st = Statistics.from_results(results)
        return replace(st, abandoned=st.abandoned + len(places) - len(placed))

    def boards(self, *, include_assisted: bool = True) -> list[tuple[int, int, int]]:
        """Every board size that has games (finished or abandoned).

        Parameters
        ----------
        include_assisted : bool
            Also the sizes only games played with help were on.

        Returns
        -------
        list of (int, int, int)
            ``(rows, cols, mines)``: the named ones first (the presets in menu
            order, then the classic Beginner), then custom sizes.
        """
        where, params = queries.where(None, None, include_assisted)
        where_a, params_a = queries.where(None, None, include_assisted, table="abandoned")
        sizes: set[tuple[int, int, int]] = {tuple(r) for r in self._db().execute(
            f"SELECT rows, cols, mines FROM games{where} UNION "
            f"SELECT rows, cols, mines FROM abandoned{where_a}", params + params_a)}
        presets = [(d.rows, d.cols, d.mines) for d in NAMED_BOARDS.values()
                   if (d.rows, d.cols, d.mines) in sizes]
        return presets + sorted(sizes - set(presets))

    def summary(self, *, include_assisted: bool = False
                ) -> list[tuple[str, Statistics, GameRecord | None]]:
        """The records' table: every board with games (finished or abandoned).

        Parameters
        ----------
        include_assisted : bool
            Also the games played with help.

        Returns
        -------
        list of (str, Statistics, GameRecord or None)
            The board's label, its statistics and its best game, in the order
            of :meth:`boards`.
        """
        out = []
        for size in self.boards(include_assisted=include_assisted):
            out.append((board_label(*size),
                        self.statistics(size, include_assisted=include_assisted),
                        self.best_time(size, include_assisted=include_assisted)))
        return out
