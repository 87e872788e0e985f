"""The records store at its edges: numbers beyond SQLite's integers, values of the
wrong type in a database edited elsewhere, files it must refuse untouched, and
folders that do not exist.  Each case was a traceback or a changed file once."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

import fastmine
from fastmine import cli
from fastmine.records import APPLICATION_ID, GameRecord, RecordsError, RecordsStore
from fastmine.records.gamerecord import sqlite_int
from fastmine.records.schema import GAME_COLUMNS

# ---------------------------------------------------------------- whole numbers beyond SQLite's


@pytest.fixture
def store(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=5.0, name="Ann"))
        yield s


BIG = [2**63, 2**64, -(2**63) - 1, 10**30]


@pytest.mark.parametrize("big", BIG)
def test_numbers_past_64_bits_are_a_value_error_not_an_overflow(store, big):
    # Each was an OverflowError from SQLite's driver.
    calls = [lambda: store.best_times((big, 9, 10)),
             lambda: store.best_times((9, big, 10)),
             lambda: store.statistics((9, 9, big)),
             lambda: store.games((big, 9, 10)),
             lambda: store.abandoned_games((9, 9, big)),
             lambda: store.set_name(big, "Bo"),
             lambda: store.statistics(rule=big),
             lambda: store.games(rule=big),
             lambda: store.is_best_time(GameRecord.make(9, 9, 10, won=True, time=1.0), big)]
    if big > 0:
        calls.append(lambda: store.best_times("beginner", big))
    for call in calls:
        with pytest.raises(ValueError) as info:
            call()
        assert not isinstance(info.value, OverflowError)
        assert str(big) in str(info.value) or "rule" in str(info.value)
    assert [g.name for g in store.games()] == ["Ann"]        # nothing changed


@pytest.mark.parametrize("big", BIG)
def test_a_game_id_past_64_bits_is_no_such_game(store, big):
    assert store.replay(big) is None and store.remove(big) is False
    assert store.count() == 1


def test_ids_and_sizes_must_be_whole_numbers(store):
    for bad in ("1", 1.0, True, None):
        with pytest.raises(TypeError):
            store.set_name(bad, "Bo")
        with pytest.raises(TypeError):
            store.remove(bad)
        with pytest.raises(TypeError):
            store.best_times((bad, 9, 10))
    # NumPy integers are whole numbers
    assert store.best_times((np.int64(9), np.uint16(9), np.int8(10)))[0].name == "Ann"
    store.set_name(np.int64(1), "Cy")
    assert store.games()[0].name == "Cy"


def test_set_name_of_a_game_not_stored_is_an_error_and_changes_nothing(store):
    with pytest.raises(RecordsError, match="no game 7"):
        store.set_name(7, "Bo")
    assert [g.name for g in store.games()] == ["Ann"]


@pytest.mark.parametrize("field, value", [
    ("clicks", 2**63), ("bbbv", 2**64), ("left_clicks", -1), ("rows", np.int64(9)),
    ("bbbv_per_second", 10**400), ("efficiency", float("nan")), ("bbbv_per_second", -1.0),
    ("efficiency", "fast"), ("rule", 2**64), ("difficulty", None), ("time", 10**400),
])
def test_a_record_with_a_value_sqlite_cannot_bind_is_refused_before_the_database(
        store, field, value):
    rec = GameRecord.make(9, 9, 10, won=True, time=1.0, bbbv=5, clicks=5)
    with pytest.raises(RecordsError, match=field):
        store.add(rec.__class__(**{**rec.__dict__, field: value}))
    assert store.count() == 1


def test_sqlite_int_is_the_one_check():
    assert sqlite_int("n", 2**63 - 1) == 2**63 - 1
    assert sqlite_int("n", -(2**63)) == -(2**63)
    assert type(sqlite_int("n", np.int32(4))) is int
    with pytest.raises(ValueError, match="at most 2\\*\\*63 - 1"):
        sqlite_int("n", 2**63)
    with pytest.raises(ValueError, match="0 or more"):
        sqlite_int("n", -1, 0)
    for bad in (True, 1.5, "3", None, np.timedelta64(3, "s")):
        with pytest.raises(TypeError):
            sqlite_int("n", bad)


# ---------------------------------------------------------------- files refused untouched

def _database(path, app_id, version, statements, wal):
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    for sql in statements:
        conn.execute(sql)
    conn.execute(f"PRAGMA application_id={app_id}")
    conn.execute(f"PRAGMA user_version={version}")
    conn.commit()
    conn.close()


FM = APPLICATION_ID
REFUSED = {
    # fastmine's mark, no schema version, a games table of its own: was switched
    # to WAL (header bytes changed) and then failed to migrate
    "marked, schema 0, own games table": (FM, 0, ["CREATE TABLE games (x)"]),
    # was silently migrated into a records database around the other table
    "marked, schema 0, unrelated table": (FM, 0, ["CREATE TABLE notes (x)"]),
    "marked, schema 0, a view": (FM, 0, ["CREATE VIEW v AS SELECT 1"]),
    "unmarked, schema 0, a table": (0, 0, ["CREATE TABLE notes (x)"]),
    "another program": (0x1234, 0, ["CREATE TABLE t (x)"]),
    "another program, no tables": (0x1234, 0, []),
    "a newer fastmine": (FM, 99, ["CREATE TABLE games (x)"]),
    "marked, schema 2, wrong columns": (FM, 2, ["CREATE TABLE games (x)"]),
    "marked, schema 4, replays missing": (FM, 4, [f"CREATE TABLE games ({', '.join(GAME_COLUMNS)})"]),
}


def _files(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("wal", [False, True], ids=["rollback journal", "WAL"])
@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refused_database_is_never_written(tmp_path, case, wal, capsys):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "records.sqlite3"
    _database(db, *REFUSED[case], wal)
    before = _files(data)
    assert list(before) == ["records.sqlite3"]      # no -wal, -shm or -journal yet
    with pytest.raises(RecordsError, match="untouched|newer fastmine"):
        RecordsStore(db)
    assert _files(data) == before
    # and through every command that reads or writes the records
    for argv in (["records"], ["records", "--json"], ["replay", "--list"], ["replay", "1"],
                 ["replay", "last"]):
        assert cli.main([*argv, "--data-dir", str(data)]) != 0, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        assert _files(data) == before, argv
    # a finished game stored there (the terminal game, the app)
    game = fastmine.Game.from_board(fastmine.Board.from_mines([[1, 0]]))
    game.reveal(0, 1)
    with pytest.raises(RecordsError):
        RecordsStore(db).record_game(game)
    assert _files(data) == before


def test_a_corrupt_database_is_never_written(tmp_path):
    db = tmp_path / "records.sqlite3"
    with RecordsStore(db) as store:
        for t in range(200):
            store.add(GameRecord.make(9, 9, 10, won=True, time=1.0 + t, name="x" * 40))
    conn = sqlite3.connect(db)
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    raw = bytearray(db.read_bytes())
    raw[(root - 1) * page] = 0x07                   # the games table's root: no such page kind
    db.write_bytes(bytes(raw))
    before = _files(tmp_path)
    with pytest.raises(RecordsError, match="corrupt"):
        RecordsStore(db)
    assert _files(tmp_path) == before
