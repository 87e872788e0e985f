"""Replays in the records store: schema 3, and a schema-2 database migrated without loss."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

import fastmine
from fastmine.records import APPLICATION_ID, SCHEMA_VERSION, GameRecord, RecordsError, RecordsStore
from fastmine.replay import Replay

# The schema as fastmine wrote it before replays (schema 2), copied here as it
# shipped so this test keeps checking real old files whatever records.py becomes.
SCHEMA_2 = """
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
ALTER TABLE games ADD COLUMN left_clicks INTEGER;
ALTER TABLE games ADD COLUMN right_clicks INTEGER;
ALTER TABLE games ADD COLUMN chord_clicks INTEGER;
CREATE INDEX games_by_board ON games (rows, cols, mines, won, time);
"""

OLD_ROWS = [
    ("2024-01-02T03:04:05+00:00", "beginner", 9, 9, 10, "opening", 1, 12.5, 20, 1.6, 25, 0.8, 0,
     "Old", 20, 4, 1),
    ("2024-01-03T03:04:05+00:00", "expert", 16, 30, 99, "cell", 0, 40.25, None, None, 9, None, 1,
     None, None, None, None),
]


def _schema_2_db(path):
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_2)
    con.execute(f"PRAGMA application_id={APPLICATION_ID}")
    con.execute("PRAGMA user_version=2")
    con.executemany(
        "INSERT INTO games (date, difficulty, rows, cols, mines, rule, won, time, bbbv, "
        "bbbv_per_second, clicks, efficiency, assisted, name, left_clicks, right_clicks, "
        "chord_clicks) VALUES (" + ", ".join("?" * 17) + ")", OLD_ROWS)
    con.commit()
    con.close()


def _finished_game(seed=5):
    g = fastmine.Game(9, 9, 10, seed=seed)
    g.toggle_mark(0, 0)
    g.reveal(4, 4)
    rng = np.random.default_rng(seed)
    while not g.state.is_over:
        hidden = np.argwhere(g.view == fastmine.HIDDEN)
        g.reveal(*(int(v) for v in hidden[rng.integers(len(hidden))]))
    return g


def test_schema_2_database_migrates_without_loss(tmp_path):
    path = tmp_path / "records.sqlite3"
    _schema_2_db(path)
    with RecordsStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        old = s.games()
        got = [(r.date, r.difficulty, r.rows, r.cols, r.mines, r.rule, int(r.won), r.time,
                r.bbbv, r.bbbv_per_second, r.clicks, r.efficiency, int(r.assisted), r.name,
                r.left_clicks, r.right_clicks, r.chord_clicks) for r in old]
        assert got == OLD_ROWS
        assert [s.replay(r.id) for r in old] == [None, None]
        g = _finished_game()
        rec = s.record_game(g)
        assert s.replay_ids() == [rec.id]
        rep = s.replay(rec.id)
        assert rep == Replay.from_game(g)
        assert np.array_equal(rep.play().view, g.view)
    # Opening again changes nothing; a loss taken back takes its replay with it.
    with RecordsStore(path) as s:
        assert s.count() == 3
        assert s.remove(rec.id)
        assert s.replay_ids() == []


def test_a_game_without_an_exact_replay_is_still_recorded(tmp_path):
    g = _finished_game()
    d = g.to_dict()
    d.pop("moves")
    resumed = fastmine.Game.from_dict(d)      # as from a save made before replays
    with RecordsStore(data_dir=tmp_path) as s:
        rec = s.record_game(resumed)
        assert s.replay(rec.id) is None and s.count() == 1
        plain = s.add(GameRecord.make(9, 9, 10, won=True, time=3.0))
        assert s.replay(plain.id) is None


def test_a_corrupt_stored_replay_is_reported(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        rec = s.record_game(_finished_game())
        path = s.path
    con = sqlite3.connect(path)
    con.execute("UPDATE replays SET data = ? WHERE game_id = ?", (b"{not json", rec.id))
    con.commit()
    con.close()
    with RecordsStore(path) as s, pytest.raises(RecordsError, match="replay of game 1"):
        s.replay(rec.id)


def test_schema_3_without_the_replays_table_is_refused(tmp_path):
    path = tmp_path / "records.sqlite3"
    _schema_2_db(path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=3")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="tables are not"):
        RecordsStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("argv, words", [
    (["replay", "999"], "game 999 has no replay"),
    (["replay", "abc"], "a game ID is a number"),
    (["replay", "--import", "/nonexistent/x.fmr"], "no such file: /nonexistent/x.fmr"),
    (["replay", "--export", "1", "/nonexistent/x.fmr"], "game 1 has no replay"),
    (["replay", "--speed", "-1"], "--speed must be 0 or more"),
])
def test_replay_command_errors_are_one_named_line(tmp_path, capsys, argv, words):
    from fastmine.cli import main

    with RecordsStore(data_dir=tmp_path) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=5.0))
    assert main([*argv, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastmine replay: ") and words in err
    assert "Traceback" not in err


def test_a_records_folder_that_cannot_be_made_is_a_records_error(tmp_path):
    # The terminal game asks the records for a best time when a game is won and
    # catches RecordsError: an OSError from making the folder escaped it.
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(RecordsError, match="cannot make the records folder"):
        RecordsStore(data_dir=blocker / "data")
    assert blocker.read_text() == "not a folder"


def test_a_remove_that_cannot_write_is_a_records_error_and_keeps_the_game(tmp_path):
    with RecordsStore(data_dir=tmp_path, timeout=0.05) as store:
        rec = store.add(GameRecord.make(9, 9, 10, won=False, time=2.0))
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")        # another program is writing
        try:
            with pytest.raises(RecordsError, match="could not remove the game"):
                store.remove(rec.id)
            with pytest.raises(RecordsError, match="could not change the name"):
                store.set_name(rec.id, "Ann")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert [g.id for g in store.games()] == [rec.id] and store.games()[0].name is None
        assert store.remove(rec.id) and store.count() == 0
