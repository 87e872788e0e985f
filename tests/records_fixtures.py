"""Old records databases and games to store, shared by the records-store tests.

The schemas here are copied as fastmine shipped them (1: games, 2: click
kinds, 3: replays), on purpose not imported from :mod:`fastmine.records.schema`:
the tests that use them check that files the old versions really wrote still
open and migrate, whatever the package's own migrations become.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np

import fastmine
from fastmine.records import APPLICATION_ID, GameRecord

SCHEMA_1 = """
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
"""
SCHEMA_2 = SCHEMA_1 + """
ALTER TABLE games ADD COLUMN left_clicks INTEGER;
ALTER TABLE games ADD COLUMN right_clicks INTEGER;
ALTER TABLE games ADD COLUMN chord_clicks INTEGER;
CREATE INDEX games_by_board ON games (rows, cols, mines, won, time);
"""
SCHEMA_3 = SCHEMA_2 + """
CREATE TABLE replays (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data BLOB NOT NULL
);
"""
SCHEMAS = {1: SCHEMA_1, 2: SCHEMA_2, 3: SCHEMA_3}

COLUMNS = ("date", "difficulty", "rows", "cols", "mines", "rule", "won", "time", "bbbv",
           "bbbv_per_second", "clicks", "efficiency", "assisted", "name", "left_clicks",
           "right_clicks", "chord_clicks")
"""The games table's columns (but its id) in schemas 2 and 3; schema 1 has the first 14."""

OLD_GAME = ("2024-01-02T03:04:05+00:00", "beginner", 9, 9, 10, "opening", 1, 12.5, 20, 1.6, 25,
            0.8, 0, "Old")
"""A won beginner game named "Old" without click kinds (as schema 1 stored it;
stored in schemas 2-3 those columns stay NULL)."""


def old_database(path: Path, version: int, rows: list[tuple], *, journal: str | None = None,
                 replay: bytes | None = None) -> None:
    """Write a records file as fastmine schema ``version`` left it.

    ``rows`` are games, their values in :data:`COLUMNS` order and all of one
    length (the columns not given stay NULL); ``replay`` is stored as game 1's
    replay (schema 3); ``journal`` is the SQLite journal mode it was written in.
    """
    con = sqlite3.connect(path)
    if journal is not None:
        con.execute(f"PRAGMA journal_mode={journal}")
    con.executescript(SCHEMAS[version])
    con.execute(f"PRAGMA application_id={APPLICATION_ID}")
    con.execute(f"PRAGMA user_version={version}")
    width = len(rows[0])
    con.executemany(f"INSERT INTO games ({', '.join(COLUMNS[:width])}) "
                    f"VALUES ({', '.join('?' * width)})", rows)
    if replay is not None:
        con.execute("INSERT INTO replays (game_id, data) VALUES (1, ?)", (replay,))
    con.commit()
    con.close()


def claim_version(path: Path, version: int) -> None:
    """Mark a records file as schema ``version`` without changing its tables."""
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={version}")
    con.commit()
    con.close()


def as_rows(games: list[GameRecord]) -> list[tuple]:
    """The stored games' values in :data:`COLUMNS` order, as :func:`old_database` takes them."""
    return [(r.date, r.difficulty, r.rows, r.cols, r.mines, r.rule, int(r.won), r.time, r.bbbv,
             r.bbbv_per_second, r.clicks, r.efficiency, int(r.assisted), r.name, r.left_clicks,
             r.right_clicks, r.chord_clicks) for r in games]


def finished_game(seed: int = 5, *, flag_first: bool = False) -> fastmine.Game:
    """A beginner game opened in the middle, then random reveals until it ends.

    ``flag_first`` flags a corner before anything is revealed (a replay keeps it).
    """
    g = fastmine.Game(9, 9, 10, seed=seed)
    if flag_first:
        g.toggle_mark(0, 0)
    g.reveal(4, 4)
    rng = np.random.default_rng(seed)
    while not g.state.is_over:
        hidden = np.argwhere(g.view == fastmine.HIDDEN)
        g.reveal(*(int(v) for v in hidden[rng.integers(len(hidden))]))
    return g


def started_game(rows: int = 9, cols: int = 9, mines: int = 10, seed: int = 3,
                 assisted: bool = False) -> fastmine.Game:
    """A game after one reveal in the middle, still in progress."""
    g = fastmine.Game(rows, cols, mines, seed=seed)
    if assisted:
        with g.assisting():
            g.reveal(rows // 2, cols // 2)
    else:
        g.reveal(rows // 2, cols // 2)
    assert g.state is fastmine.GameState.PLAYING
    return g
