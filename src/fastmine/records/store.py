"""The records store: every finished game, best times and statistics (SQLite).

One row per finished game (won or lost) in ``records.sqlite3`` in the data
directory (see :mod:`fastmine.files.storage`), and one per game abandoned in
progress (:meth:`RecordsStore.record_abandoned`: a new game started over one
with a reveal; quitting saves a game and abandons nothing).  The terminal game and the Kivy app
both write here; ``fastmine records`` (:mod:`fastmine.cli.records`) prints the tables.
A record itself (:class:`GameRecord`, :class:`Statistics`) is a plain value
defined in :mod:`fastmine.records.gamerecord`; all of them import from :mod:`fastmine.records`.
The tables and their migrations are in :mod:`fastmine.records.schema`.

>>> import tempfile
>>> store = RecordsStore(data_dir=tempfile.mkdtemp())
>>> import fastmine
>>> rec = GameRecord.make(9, 9, 10, won=True, time=31.5, name="Ann")
>>> store.is_best_time(rec)
True
>>> store.add(rec).id
1
>>> store.best_times("beginner")[0].name
'Ann'
>>> store.statistics("beginner").won
1
>>> store.close()

Best times and statistics count only games played without solver assistance
unless ``include_assisted=True``.  A board is named by a preset name
(``"beginner"``) or by its size ``(rows, cols, mines)``; games on the same
size are compared whatever name they were recorded under.

Guarantees
----------
* Two processes (the terminal and the app) may write at once: the database is
  in WAL mode, every write is one ``BEGIN IMMEDIATE`` transaction and waits up
  to ``timeout`` seconds for the other writer, so no row is lost.
* The schema is versioned (``PRAGMA user_version``) and migrated forward in a
  transaction when an older database is opened.  A database written by a newer
  fastmine raises :class:`FutureSchemaError` and is left as it is.
* A file that is not a healthy fastmine records database raises
  :class:`RecordsError`; it is never replaced, repaired or written to.
* A database fastmine may not write (a read-only disk, a file or folder
  without write permission) still opens to be read: ``read_only`` is True,
  :attr:`RecordsStore.read_only_note` says so in words, an older schema is
  read as it is instead of migrated, and every write raises
  :class:`RecordsError` naming the place, with the file unchanged.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..difficulty import difficulty_name
from ..files.folders import data_dir as _data_dir
from . import dbfile, queries
from .dbfile import dangling_link, explain, open_read_only, read_header, read_only, rollback
from .gamerecord import (
    AbandonedGame,
    GameRecord,
    RecordsError,
    _check_record,
    check_abandoned_counts,
    clean_name,
    sqlite_int,
)
from .lookups import Lookups
from .queries import stored_id
from .schema import (
    ABANDONED_COLUMNS,
    GAME_COLUMNS,
    SCHEMA_VERSION,
    SOUND_ROW,
    check_schema,
    check_version,
    migrate,
    read_old_schema,
)

if TYPE_CHECKING:
    from ..game import Game
    from ..replay import Replay

RECORDS_FILE = "records.sqlite3"
"""File name of the records database inside the data directory."""

_SQLITE_HEADER = b"SQLite format 3\x00"
_COLUMNS = GAME_COLUMNS
_ABANDONED = ABANDONED_COLUMNS[1:]      # every column but the id, as written

def default_path(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The records database's path in the data directory.

    Parameters
    ----------
    data_dir : str or os.PathLike, optional
        The data directory (:func:`fastmine.files.storage.data_dir` by default).

    Returns
    -------
    pathlib.Path
        ``<data directory>/records.sqlite3``.
    """
    return _data_dir(data_dir) / RECORDS_FILE


def database_files(data_dir: str | os.PathLike[str] | None = None) -> tuple[tuple[str, str], ...]:
    """The records database's files, each with the words naming it.

    What an output option (``--json``, ``--export`` ...) must never replace
    (``keep`` of :func:`fastmine.files.outputs.check_output`).

    Parameters
    ----------
    data_dir : str or os.PathLike, optional
        The data directory.

    Returns
    -------
    tuple of (str, str)
        The database and its ``-wal``, ``-shm`` and ``-journal`` files.
    """
    db = str(default_path(data_dir))
    return ((db, "your records database"),
            *((db + end, "part of your records database") for end in ("-wal", "-shm", "-journal")))


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


class RecordsStore(Lookups):
    """The records database.  Open it, add finished games, query best times and statistics.

    ``path`` is the database file; by default ``records.sqlite3`` in
    ``data_dir`` (see :mod:`fastmine.files.storage`).  With ``create=False`` a missing
    file raises :class:`RecordsError` instead of being created.  ``timeout`` is
    how long a write waits for another process's write to finish.

    An existing database in a place fastmine may not write opens read-only
    (``read_only`` is then True; see :attr:`read_only_note`).
    Use it as a context manager or call :meth:`close`.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The database file.
    data_dir : str or os.PathLike, optional
        The data directory holding ``records.sqlite3`` when ``path`` is not given.
    create : bool
        Make the database if it does not exist.
    timeout : float
        Seconds a write waits for another process's write.

    Raises
    ------
    RecordsError
        A corrupt or foreign file, no file with ``create=False``, a link to a
        missing file, something other than a file where SQLite keeps the
        database's log, or a file that cannot be opened (it is not touched).
    FutureSchemaError
        A database of a newer schema (it is not touched).
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 data_dir: str | os.PathLike[str] | None = None, create: bool = True,
                 timeout: float = 30.0) -> None:
        self.path = Path(path) if path is not None else default_path(data_dir)
        self._conn: sqlite3.Connection | None = None
        self._lock_fd: int | None = None     # holds the file's shared lock (read-only)
        self.read_only = False
        """True when the database can be read here but not written (see :attr:`read_only_note`)."""
        link = dangling_link(self.path)
        if link is not None:
            raise RecordsError(link)
        if not self.path.exists():
            if not create:
                raise RecordsError(f"no records database at {self.path}")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RecordsError(f"cannot make the records folder {self.path.parent}: "
                                   f"{exc.strerror or exc}") from None
        else:
            self._check_header()
            self.read_only = read_only(self.path)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.read_only:
                    self._conn, self._lock_fd = open_read_only(self.path, timeout)
                else:
                    self._conn = sqlite3.connect(self.path, timeout=timeout,
                                                 isolation_level=None)
                self._open()
                return
            except sqlite3.OperationalError as exc:
                self.close()
                # Switching a fresh file to WAL needs a moment alone with it and
                # does not wait on the busy handler: another process opening the
                # same database at the same time is not corruption, so retry.
                if _is_busy(exc) and time.monotonic() < deadline:
                    time.sleep(0.01)
                    continue
                if _is_busy(exc):
                    raise RecordsError(f"the records database {self.path} stayed locked by "
                                       f"another program for {timeout:g} s") from None
                raise self._trouble(exc, "cannot open the records") from None
            except sqlite3.DatabaseError as exc:
                self.close()
                raise self._trouble(exc, "cannot open the records") from None
            except OSError as exc:
                self.close()
                raise RecordsError(f"cannot read the records database {self.path}: "
                                   f"{exc.strerror or exc}") from None
            except BaseException:
                self.close()
                raise

    # ---------------------------------------------------------------- opening

    def _check_header(self) -> None:
        # Checked by hand so sqlite never opens (let alone journals) a foreign file.
        try:
            head = read_header(self.path, len(_SQLITE_HEADER))
        except OSError as exc:
            raise RecordsError(f"cannot read the records database {self.path}: {exc}") from None
        if head and head != _SQLITE_HEADER:
            raise RecordsError(
                f"{self.path} is not an SQLite database (corrupt or another program's file); "
                "it was left untouched: move it away to start new records")

    def _corrupt(self, exc: BaseException | str) -> RecordsError:
        return RecordsError(
            f"the records database {self.path} is corrupt ({dbfile.one_line(exc)}); it was left "
            "untouched: move it away to start new records")

    def _trouble(self, exc: sqlite3.Error, doing: str) -> RecordsError:
        """Say what went wrong in words that match the cause (full, read-only, corrupt)."""
        cause = explain(exc, self.path)
        if cause is None:
            return RecordsError(f"{doing}: {self.path}: {exc}")
        if cause == "corrupt":
            return self._corrupt(exc)
        return RecordsError(f"{doing}: {cause}")

    def _open(self) -> None:
        conn = self._conn
        assert conn is not None
        conn.text_factory = queries.text
        # A row that breaks a CHECK (a time below 0 written by another program) is
        # a row of unsound values, left out like one of the wrong type (SOUND_ROW),
        # not a corrupt file: the structure is what quick_check is asked about.
        conn.execute("PRAGMA ignore_check_constraints = ON")
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
        except UnicodeDecodeError:      # a damaged schema's text, in SQLite's own message
            raise self._corrupt("damaged text in its structure") from None
        conn.execute("PRAGMA ignore_check_constraints = OFF")
        if check != "ok":
            raise self._corrupt(sqlite3.DatabaseError(check))
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        check_version(conn, self.path, app_id, version)
        check_schema(conn, self.path, version)   # before anything below writes to the file
        if self.read_only:
            conn.execute("PRAGMA temp_store=MEMORY")    # the stand-ins below: no temp file
            if version < SCHEMA_VERSION:
                read_old_schema(conn, version)   # schema migrations are skipped
            return
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            migrate(conn, self.path)

    def close(self) -> None:
        """Close the database connection (safe to call twice)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._lock_fd is not None:     # after the connection: it read under this lock
            os.close(self._lock_fd)
            self._lock_fd = None

    @property
    def read_only_note(self) -> str | None:
        """One sentence for the player when the records can be read here but not
        written (new games will not be recorded), else None."""
        if not self.read_only:
            return None
        return (f"the records in {self.path} can be read but not changed (a read-only disk "
                "or a folder fastmine may not write to): new games cannot be recorded there")

    @property
    @dbfile.reads_records
    def unsound_note(self) -> str | None:
        """One sentence when rows hold values of the wrong type or range (a time of
        ``'fast'``, a name that is a blob: SQLite does not enforce types, and a
        file edited by another program may hold them), else None.

        Such rows are left out of every query (games, best times, statistics,
        counts, JSON) and the file is not changed: the sentence names the first
        few ids, so they can be mended or deleted by hand.
        """
        conn = self._db()
        parts = []
        for table, what in (("games", "game"), ("abandoned", "abandoned game")):
            ids = [r[0] for r in conn.execute(
                f"SELECT id FROM {table} WHERE NOT ({SOUND_ROW[table]}) ORDER BY id LIMIT 4")]
            if not ids:
                continue
            n = (len(ids) if len(ids) < 4 else conn.execute(
                f"SELECT count(*) FROM {table} WHERE NOT ({SOUND_ROW[table]})").fetchone()[0])
            listed = ", ".join(map(str, ids[:3])) + (" ..." if n > 3 else "")
            parts.append(f"{n} {what}{'s' if n != 1 else ''} (id {listed})")
        if not parts:
            return None
        return (f"{self.path} has {' and '.join(parts)} with values of the wrong type "
                "(edited by another program?): left out, and the file is unchanged")

    def __enter__(self) -> RecordsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        version: int = self._db().execute("PRAGMA user_version").fetchone()[0]
        return version

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RecordsError("the records store is closed")
        return self._conn

    @contextlib.contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed, or rolled back on any error.

        An SQLite error becomes a :class:`RecordsError` that names its cause
        (``doing`` says what failed: "could not store the game").
        """
        conn = self._db()
        if self.read_only:
            # Refused before SQLite sees it: an older schema is read through
            # stand-ins, which would fail in other words (or write to memory).
            raise RecordsError(f"{doing}: {self.path} is on a read-only disk or in a folder "
                               "fastmine may not write to; the records are unchanged")
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("COMMIT")
            except BaseException:
                rollback(conn)
                raise
        except sqlite3.DatabaseError as exc:
            raise self._trouble(exc, doing) from None

    # ---------------------------------------------------------------- writing

    def add(self, record: GameRecord, replay: Replay | None = None) -> GameRecord:
        """Store a record (and its replay, in the same transaction).

        Parameters
        ----------
        record : GameRecord
            The game.
        replay : Replay, optional
            Its replay.

        Returns
        -------
        GameRecord
            The record with its ``id`` set.

        Raises
        ------
        RecordsError
            A value the records cannot hold, or the store cannot be written.
        """
        _check_record(record)
        blob = replay.to_bytes() if replay is not None else None
        values = [getattr(record, c) for c in _COLUMNS[1:]]
        sql = (f"INSERT INTO games ({', '.join(_COLUMNS[1:])}) "
               f"VALUES ({', '.join('?' * len(values))})")
        with self._write("could not store the game") as conn:
            cur = conn.execute(sql, values)
            if blob is not None:
                conn.execute("INSERT INTO replays (game_id, data) VALUES (?, ?)",
                             (cur.lastrowid, blob))
        return replace(record, id=cur.lastrowid)

    def record_game(self, game: Game, name: str | None = None) -> GameRecord:
        """Store a finished :class:`fastmine.Game` (see :meth:`GameRecord.from_game`)
        with its replay when it has an exact one (see :meth:`fastmine.replay.Replay.from_game`).

        Parameters
        ----------
        game : Game
            A won or lost game.
        name : str, optional
            The player's name.

        Returns
        -------
        GameRecord
            The stored record, with its ``id``.
        """
        from ..replay import Replay  # the replay module builds on the game

        record = GameRecord.from_game(game, name)
        try:
            replay: Replay | None = Replay.from_game(game)
        except ValueError:
            replay = None      # a game without an exact replay is still recorded
        return self.add(record, replay)

    def replay(self, record_id: int) -> Replay | None:
        """The replay stored with a game.

        Parameters
        ----------
        record_id : int
            The game's id (:attr:`GameRecord.id`).

        Returns
        -------
        Replay or None
            The replay, or None if the game has none.

        Raises
        ------
        RecordsError
            The stored replay is corrupt.
        """
        from ..errors import SaveFormatError
        from ..replay import Replay
        from ..replay.fileformat import MAX_REPLAY_BYTES

        key = stored_id(record_id)
        if key is None:
            return None
        # Its size first: a blob bigger than any replay (another program's, up
        # to a gigabyte) is refused without being read into memory.
        row = self._db().execute(
            "SELECT CASE WHEN length(data) <= ? THEN data END, length(data), typeof(data) "
            "FROM replays WHERE game_id = ?", (MAX_REPLAY_BYTES, key)).fetchone()
        if row is None:
            return None
        data, size, kind = row
        if kind != "blob":                  # another program stored text or a number
            raise RecordsError(f"the replay of game {key} is unreadable: it is stored as "
                               f"{kind}, not bytes (the file is unchanged)")
        if data is None:
            raise RecordsError(f"the replay of game {key} is unreadable: {size:,} bytes, more "
                               f"than a replay holds ({MAX_REPLAY_BYTES:,})")
        try:
            return Replay.from_bytes(data)
        except SaveFormatError as exc:
            raise RecordsError(f"the replay of game {record_id} is unreadable: {exc}") from None

    def replay_ids(self) -> list[int]:
        """The ids of the stored games that have a replay.

        Returns
        -------
        list of int
            Oldest first.
        """
        return [r[0] for r in self._db().execute("SELECT game_id FROM replays ORDER BY game_id")]

    def set_name(self, record_id: int, name: str | None) -> None:
        """Change the player name of a stored record.

        Parameters
        ----------
        record_id : int
            The game's id (:attr:`GameRecord.id`).
        name : str or None
            The new name (cleaned by :func:`clean_name`); None removes it.

        Raises
        ------
        TypeError
            ``record_id`` is not a whole number, or ``name`` not a string.
        ValueError
            ``record_id`` is beyond what the database holds (64 bits);
            :class:`RecordsError` when no stored game has that id (nothing is changed).
        """
        key = sqlite_int("record_id", record_id)
        name = clean_name(name)
        with self._write("could not change the name") as conn:
            cur = conn.execute("UPDATE games SET name = ? WHERE id = ?", (name, key))
            if cur.rowcount == 0:
                raise RecordsError(f"no game {key} in the records {self.path}")

    def remove(self, record_id: int) -> bool:
        """Delete a stored record (a loss the player took back).

        Parameters
        ----------
        record_id : int
            The game's id.

        Returns
        -------
        bool
            True if it existed.

        Raises
        ------
        TypeError
            ``record_id`` is not a whole number.
        """
        key = stored_id(record_id)
        if key is None:
            return False
        with self._write("could not remove the game") as conn:
            cur = conn.execute("DELETE FROM games WHERE id = ?", (key,))
        return cur.rowcount > 0

    # ---------------------------------------------------------------- abandoned games

    def record_abandoned(self, game: Game) -> AbandonedGame | None:
        """Store a game given up while in progress (a new game started over it).

        Returns the stored :class:`AbandonedGame` with its ``id``, or None for a
        game with no reveal yet: nothing was played, so nothing is stored.  A
        finished game raises :class:`RecordsError` (it is recorded as won or lost
        with :meth:`record_game`); so does a store that cannot be written.
        An abandoned game is not a game played (win % is wins per finished
        game) but it ends its board's current streak (see :class:`Statistics`).

        Parameters
        ----------
        game : Game
            The game given up.

        Returns
        -------
        AbandonedGame or None
            The stored entry, or None (see above).

        Raises
        ------
        RecordsError
            A finished game, or a store that cannot be written.
        """
        entry = AbandonedGame.from_game(game)
        if entry is None:
            return None
        with self._write("could not store the abandoned game") as conn:
            # Its place among the games, for the streaks: after the last one stored.
            after = conn.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
            values = [*(getattr(entry, c) for c in _ABANDONED[:-1]), after]
            cur = conn.execute(f"INSERT INTO abandoned ({', '.join(_ABANDONED)}) "
                               f"VALUES ({', '.join('?' * len(values))})", values)
        return replace(entry, id=cur.lastrowid)

    def import_abandoned(self, counts: Mapping[tuple[int, int, int], int]) -> int:
        """Add abandoned games known only as a count per board size ``(rows, cols, mines)``
        (the app's old ``abandoned.json``); returns how many were added.

        They have no date, rule, time or place among the games, so they count in
        :attr:`Statistics.abandoned` but end no streak.  Once only: a store that
        already holds imported counts adds nothing and returns 0, so an import
        repeated after a crash does not count twice.  A size fastmine cannot
        play (beyond :mod:`fastmine.limits`), a count that is not a whole number,
        or more than :data:`fastmine.records.MAX_IMPORTED_ABANDONED` games in all raise
        :class:`RecordsError` and add nothing.

        Parameters
        ----------
        counts : mapping of (int, int, int) to int
            Games given up per board size.

        Returns
        -------
        int
            How many were added.
        """
        rows_in = [(difficulty_name(*size), *size)
                   for size, n in check_abandoned_counts(counts).items() for _ in range(n)]
        with self._write("could not import the abandoned games") as conn:
            if conn.execute("SELECT 1 FROM abandoned WHERE date IS NULL LIMIT 1").fetchone():
                return 0
            conn.executemany("INSERT INTO abandoned (difficulty, rows, cols, mines) "
                             "VALUES (?, ?, ?, ?)", rows_in)
        return len(rows_in)


# Every read (the lookups, the replays; unsound_note above) says a damaged
# page in one line, as opening does: quick_check at opening does not read every page.
for _name in [*(n for n, v in vars(Lookups).items() if callable(v) and not n.startswith("_")),
              "replay", "replay_ids"]:
    setattr(RecordsStore, _name, dbfile.reads_records(getattr(RecordsStore, _name)))
