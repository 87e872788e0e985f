"""The records database's tables: their versions, the checks on them, and migrations.

:mod:`fastmine.records` keeps the games; this module knows how its file is
laid out, schema by schema (``PRAGMA user_version``), and moves an older file
forward.  Every function takes the open connection and the file's path (for
the messages), so the store stays about games and this module about tables.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .dbfile import rollback
from .gamerecord import FutureSchemaError, RecordsError

SCHEMA_VERSION = 5
"""The schema this fastmine writes (``PRAGMA user_version``)."""

APPLICATION_ID = 0x464D5243  # "FMRC": marks the file as a fastmine records database

# Each entry takes the schema from version i to i + 1.  Never edit one that
# shipped: add a new entry instead, so every older file migrates the same way.
# No ';' inside a statement (they are run one by one, split on ';').
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: one row per finished game.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        date TEXT NOT NULL,
        difficulty TEXT NOT NULL,
        rows INTEGER NOT NULL CHECK (rows > 0),
        cols INTEGER NOT NULL CHECK (cols > 0),
        mines INTEGER NOT NULL CHECK (mines > 0),
        rule TEXT NOT NULL,
        won INTEGER NOT NULL CHECK (won IN (0, 1)),
        time REAL NOT NULL CHECK (time >= 0),
        bbbv INTEGER,
        bbbv_per_second REAL,
        clicks INTEGER NOT NULL CHECK (clicks >= 0),
        efficiency REAL,
        assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1)),
        name TEXT
    );
    """,
    # 1 -> 2: clicks split by kind (NULL for older rows) and an index for best times.
    """
    ALTER TABLE games ADD COLUMN left_clicks INTEGER;
    ALTER TABLE games ADD COLUMN right_clicks INTEGER;
    ALTER TABLE games ADD COLUMN chord_clicks INTEGER;
    CREATE INDEX games_by_board ON games (rows, cols, mines, won, time);
    """,
    # 2 -> 3: the replay of a game (a fastmine.replay file's bytes), in a table
    # of its own so listing games never reads them.
    """
    CREATE TABLE replays (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        data BLOB NOT NULL
    );
    """,
    # 3 -> 4: games given up while in progress (a new game started over one
    # with a reveal), one row each.  after_game is the id of the last game
    # stored before it (0 before any), which places it among the games for the
    # streaks.  Counts imported from the app's old abandoned.json have no date,
    # rule, time, fraction or place (NULL).
    """
    CREATE TABLE abandoned (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        date TEXT,
        difficulty TEXT NOT NULL,
        rows INTEGER NOT NULL CHECK (rows > 0),
        cols INTEGER NOT NULL CHECK (cols > 0),
        mines INTEGER NOT NULL CHECK (mines > 0),
        rule TEXT,
        time REAL CHECK (time >= 0),
        revealed REAL CHECK (revealed >= 0 AND revealed <= 1),
        assisted INTEGER NOT NULL DEFAULT 0 CHECK (assisted IN (0, 1)),
        after_game INTEGER
    );
    CREATE INDEX abandoned_by_board ON abandoned (rows, cols, mines);
    """,
    # 4 -> 5: the program that recorded an imported game (a video of another
    # client: "Minesweeper Arbiter 0.52.3"); NULL for fastmine's own games.
    """
    ALTER TABLE games ADD COLUMN software TEXT;
    """,
)
assert len(MIGRATIONS) == SCHEMA_VERSION

GAME_COLUMNS = ("id", "date", "difficulty", "rows", "cols", "mines", "rule", "won", "time",
                "bbbv", "bbbv_per_second", "clicks", "efficiency", "assisted", "name",
                "left_clicks", "right_clicks", "chord_clicks", "software")
"""The games table's columns, in order (schema 5 and later)."""
V1_COLUMNS = GAME_COLUMNS[:15]     # the games table of schema 1, before the click kinds
V4_COLUMNS = GAME_COLUMNS[:18]     # schemas 2 to 4, before the recording software
ABANDONED_COLUMNS = ("id", "date", "difficulty", "rows", "cols", "mines", "rule", "time",
                     "revealed", "assisted", "after_game")
"""The abandoned table's columns, in order (schema 4 and later)."""


def _sound(columns: dict[str, str]) -> str:
    """An SQL condition true for a row whose every column holds what fastmine writes."""
    kinds = {
        "int": "typeof({c}) = 'integer' AND {c} >= 0",
        "positive": "typeof({c}) = 'integer' AND {c} > 0",
        "flag": "typeof({c}) = 'integer' AND {c} IN (0, 1)",
        # a REAL column holds a whole number as a real; 1e308 keeps out infinity
        "seconds": "typeof({c}) IN ('integer', 'real') AND {c} >= 0 AND {c} <= 1e308",
        "fraction": "typeof({c}) IN ('integer', 'real') AND {c} >= 0 AND {c} <= 1",
        "text": "typeof({c}) = 'text'",
    }
    parts = []
    for column, kind in columns.items():
        optional = kind.endswith("?")
        test = kinds[kind.rstrip("?")].format(c=column)
        parts.append(f"({column} IS NULL OR ({test}))" if optional else f"({test})")
    return " AND ".join(parts)


SOUND_ROW = {
    "games": _sound({
        "date": "text", "difficulty": "text", "rows": "positive", "cols": "positive",
        "mines": "positive", "rule": "text", "won": "flag", "time": "seconds",
        "bbbv": "int?", "bbbv_per_second": "seconds?", "clicks": "int",
        "efficiency": "seconds?", "assisted": "flag", "name": "text?", "left_clicks": "int?",
        "right_clicks": "int?", "chord_clicks": "int?", "software": "text?"}),
    "abandoned": _sound({
        "date": "text?", "difficulty": "text", "rows": "positive", "cols": "positive",
        "mines": "positive", "rule": "text?", "time": "seconds?", "revealed": "fraction?",
        "assisted": "flag", "after_game": "int?"}),
}
"""Per table, an SQL condition true for a row whose values have the types and
ranges fastmine writes.  SQLite does not enforce column types, so a file edited
by another program may hold a time of ``'fast'`` or a name that is a blob; the
store reads only sound rows, and says how many it left out
(:attr:`fastmine.records.RecordsStore.unsound_note`).  The file is not changed."""


def check_version(conn: sqlite3.Connection, path: Path, app_id: int, version: int) -> None:
    """Refuse another program's database and a newer schema (the file is not touched).

    Schema 0 is only ever an empty file: fastmine's migrations create the
    tables and set the version in one transaction.  So a schema 0 file that
    holds anything (a table, a view, an index, a trigger) is another
    program's, even with fastmine's application id, and is refused before
    anything writes to it (not switched to WAL, not migrated around its tables).
    """
    if app_id not in (0, APPLICATION_ID):
        raise RecordsError(f"{path} is an SQLite database of another program "
                           f"(application id {app_id:#x}), not fastmine records; "
                           "it was left untouched")
    if version > SCHEMA_VERSION:
        raise FutureSchemaError(
            f"the records database {path} was written by a newer fastmine "
            f"(schema {version}; this fastmine knows up to {SCHEMA_VERSION}); "
            "upgrade fastmine to use it")
    if version == 0:
        found = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name "
            "LIMIT 4")]
        if found:
            mark = " (it carries fastmine's mark but no schema version)" if app_id else ""
            raise RecordsError(
                f"{path} is an SQLite database but not fastmine records{mark}: it holds "
                f"{', '.join(repr(n)[:40] for n in found[:3])}{' ...' if len(found) > 3 else ''}; "
                "it was left untouched: move it away to start new records")


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]


def check_schema(conn: sqlite3.Connection, path: Path, version: int) -> None:
    """The tables must be the ones ``version`` of fastmine made.

    A file that carries fastmine's mark and version but other tables (another
    program, a hand edit) is refused before anything writes to it.
    """
    if version == 0:
        return
    expected = [list(V1_COLUMNS if version == 1 else V4_COLUMNS if version < 5 else GAME_COLUMNS)]
    if version >= 3:
        expected.append(["game_id", "data"])
    if version >= 4:
        expected.append(list(ABANDONED_COLUMNS))
    for table, want in zip(("games", "replays", "abandoned"), expected, strict=False):
        columns = _columns(conn, table)
        if columns != want:
            found = ", ".join(columns) if columns else "a table missing"
            raise RecordsError(
                f"{path} says it is fastmine records (schema {version}) but its tables "
                f"are not ({found}); it was left untouched: move it away to start new records")
    # fastmine makes no trigger: one put there elsewhere would run inside every
    # write of ours (a trigger deleting the older games at each new one wiped
    # the records).
    triggers = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name LIMIT 3")]
    if triggers:
        raise RecordsError(
            f"{path} holds triggers fastmine did not make ({', '.join(repr(t)[:40] for t in triggers)}"
            "): they would run inside fastmine's writes; it was left untouched: remove them "
            "or move the file away")


def read_old_schema(conn: sqlite3.Connection, version: int) -> None:
    """Read an older schema as it is where it cannot be migrated (read-only).

    Stand-ins in this connection's temporary schema, which SQLite searches
    before the file's, give the queries what the migrations would have
    added: click kinds and software unknown (NULL), no replays, no abandoned
    games, and no games in a database that was never written.  The file is not touched.
    """
    if version == 0:
        conn.execute("CREATE TEMP VIEW games AS SELECT "
                     f"{', '.join(f'NULL AS {c}' for c in GAME_COLUMNS)} WHERE 0")
    elif version == 1:
        conn.execute(f"CREATE TEMP VIEW games AS SELECT {', '.join(V1_COLUMNS)}, "
                     "NULL AS left_clicks, NULL AS right_clicks, NULL AS chord_clicks, "
                     "NULL AS software FROM main.games")
    elif version < 5:
        conn.execute(f"CREATE TEMP VIEW games AS SELECT {', '.join(V4_COLUMNS)}, "
                     "NULL AS software FROM main.games")
    if version < 3:
        conn.execute("CREATE TEMP TABLE replays (game_id INTEGER PRIMARY KEY, "
                     "data BLOB NOT NULL)")
    if version < 4:
        conn.execute(f"CREATE TEMP TABLE abandoned ({', '.join(ABANDONED_COLUMNS)})")


def migrate(conn: sqlite3.Connection, path: Path) -> None:
    """Bring the file to :data:`SCHEMA_VERSION` in one transaction (all steps or none)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        # Another process may have migrated while we waited for the lock.
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        check_version(conn, path, app_id, version)
        for step in range(version, SCHEMA_VERSION):
            # One statement at a time: executescript() would COMMIT first and
            # break the transaction.
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
