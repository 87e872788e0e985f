"""The records store at its edges: numbers beyond SQLite's integers, values of the
wrong type in a database edited elsewhere, files it must refuse untouched, and
folders that do not exist.  Each case was a traceback or a changed file once."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import cli
from fastmine.records import APPLICATION_ID, GameRecord, RecordsError, RecordsStore
from fastmine.records.gamerecord import sqlite_int
from fastmine.records.schema import ABANDONED_COLUMNS, GAME_COLUMNS

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


# ---------------------------------------------------------------- values of the wrong type

def _sound_reference(table, row):
    """A row fastmine wrote, in plain Python: the slow, obvious form of SOUND_ROW."""
    def whole(v, low=0):
        return type(v) is int and v >= low

    def seconds(v, high=1e308):
        return type(v) in (int, float) and 0 <= v <= high

    def opt(test, v):
        return v is None or test(v)

    def text(v):
        return type(v) is str

    if table == "games":
        (_, date, difficulty, rows, cols, mines, rule, won, time, bbbv, rate, clicks, eff,
         assisted, name, left, right, chord, software) = row
        return (text(date) and text(difficulty) and whole(rows, 1) and whole(cols, 1)
                and whole(mines, 1) and text(rule) and whole(won) and won <= 1
                and seconds(time) and opt(whole, bbbv) and opt(seconds, rate)
                and whole(clicks) and opt(seconds, eff) and whole(assisted) and assisted <= 1
                and opt(text, name) and opt(whole, left) and opt(whole, right)
                and opt(whole, chord) and opt(text, software))
    (_, date, difficulty, rows, cols, mines, rule, time, revealed, assisted, after) = row
    return (opt(text, date) and text(difficulty) and whole(rows, 1) and whole(cols, 1)
            and whole(mines, 1) and opt(text, rule) and opt(seconds, time)
            and opt(lambda v: seconds(v, 1), revealed) and whole(assisted) and assisted <= 1
            and opt(whole, after))


def _fill(data):
    """A records database with won and lost games, a replay, abandoned games."""
    with RecordsStore(data_dir=data) as store:
        game = fastmine.Game.from_board(fastmine.Board.from_mines([[1, 0, 0], [0, 0, 0],
                                                                   [0, 0, 0]]))
        game.reveal(2, 2)
        store.record_game(game, "Ann")
        for t in range(3):
            store.add(GameRecord.make(9, 9, 10, won=t != 1, time=5.0 + t, bbbv=12, clicks=20,
                                      name=f"p{t}"))
        started = fastmine.Game(9, 9, 10, seed=2)
        started.reveal(4, 4)
        store.record_abandoned(started)
        store.import_abandoned({(16, 16, 40): 2})
    return data / "records.sqlite3"


# Column -> values of the wrong type or range another program could store, as
# stored: SQLite converts by column affinity (5 into a TEXT column is '5', '9'
# into an INTEGER one is 9), so these are the ones that stay wrong.
WRONG = {
    "date": [b"\x00"], "difficulty": [b"x"], "rows": ["nine", b"9", 2.5, 0, -3],
    "cols": ["x", 1e308 * 10], "mines": ["ten", 0], "rule": [b"opening"],
    "won": [2, "yes", 0.5], "time": ["fast", b"\x01", -1.0, 1e308 * 10],
    "bbbv": ["x", -1, 2.5], "bbbv_per_second": ["quick", -0.5], "clicks": ["many", -2],
    "efficiency": [b"x", -1], "assisted": [2, "no"], "name": [b"\x00\xff"],
    "left_clicks": ["x", -1], "right_clicks": [1.5], "chord_clicks": [b""],
}
WRONG_ABANDONED = {
    "date": [b"x"], "difficulty": [b"y"], "rows": ["x", 0], "rule": [b"r"], "time": ["slow", -1],
    "revealed": [1.5, "half", -0.1], "assisted": [5, "x"], "after_game": ["first", -1, 0.5],
}


def _set(db, table, column, value, row_id=1):
    conn = sqlite3.connect(db)
    try:
        conn.execute("PRAGMA ignore_check_constraints = ON")   # as another program can
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (value, row_id))
        conn.commit()
    finally:
        conn.close()


CASES = [("games", c, v) for c, vs in WRONG.items() for v in vs] + \
        [("abandoned", c, v) for c, vs in WRONG_ABANDONED.items() for v in vs]


@pytest.mark.parametrize("table, column, value", CASES,
                         ids=[f"{t}.{c}={v!r}"[:40] for t, c, v in CASES])
def test_a_row_of_the_wrong_type_is_left_out_and_named_not_a_traceback(
        tmp_path, capsys, table, column, value):
    db = _fill(tmp_path)
    _set(db, table, column, value)
    before = _files(tmp_path)
    what = "1 game (id 1)" if table == "games" else "1 abandoned game (id 1)"
    for argv in (["records"], ["records", "--json"], ["records", "-d", "beginner"],
                 ["records", "-d", "3x3/1"], ["replay", "--list"]):
        assert cli.main([*argv, "--data-dir", str(tmp_path)]) == 0, argv
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and what in err and "wrong type" in err, (argv, err)
    # the JSON holds every other row, and only sound values
    assert cli.main(["records", "--json", "--data-dir", str(tmp_path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["games"]) == 4 - (table == "games")
    assert len(doc["abandoned"]) == 3 - (table == "abandoned")
    # a replay plays from its own bytes, whatever its game's row holds
    assert cli.main(["replay", "1", "--plain", "--data-dir", str(tmp_path)]) == 0
    assert "won at" in capsys.readouterr().out
    with RecordsStore(db) as store:
        assert store.count() == 4 - (table == "games")
        store.summary(include_assisted=True)
        store.last_name()
    assert _files(tmp_path) == before


@pytest.mark.parametrize("value", ["text", 12, 1.5])
def test_a_replay_stored_as_another_type_is_unreadable_in_one_line(tmp_path, capsys, value):
    db = _fill(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE replays SET data = ? WHERE game_id = 1", (value,))
    conn.commit()
    conn.close()
    assert cli.main(["replay", "1", "--plain", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "replay of game 1 is unreadable" in err
    with RecordsStore(db) as store, pytest.raises(RecordsError, match="not bytes"):
        store.replay(1)


def test_text_that_is_not_utf8_reads_with_replacement_characters(tmp_path, capsys):
    db = _fill(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET name = CAST(x'41ff42' AS TEXT) WHERE id = 2")
    conn.commit()
    conn.close()
    with RecordsStore(db) as store:
        assert store.games()[1].name == "A\ufffdB"
    assert cli.main(["records", "--data-dir", str(tmp_path)]) == 0
    assert "A\ufffdB" in capsys.readouterr().out


VALUES = st.one_of(st.none(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False),
                   st.text(max_size=5), st.binary(max_size=3))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["games", "abandoned"]), st.integers(1, 4),
                          st.data()), max_size=6))
def test_any_values_in_any_columns_give_exactly_the_sound_rows(tmp_path_factory, edits):
    data = tmp_path_factory.mktemp("records")
    db = _fill(data)
    for table, row_id, draw in edits:
        columns = GAME_COLUMNS[1:] if table == "games" else ABANDONED_COLUMNS[1:]
        if table == "abandoned" and row_id > 3:
            continue
        with contextlib.suppress(sqlite3.IntegrityError):   # NULL in a NOT NULL column
            _set(db, table, draw.draw(st.sampled_from(columns)), draw.draw(VALUES), row_id)
    conn = sqlite3.connect(db)
    conn.text_factory = lambda raw: raw.decode("utf-8", "replace")   # a blob stays bytes
    sound = {t: {row[0] for row in conn.execute(f"SELECT * FROM {t}")
                 if _sound_reference(t, row)}
             for t in ("games", "abandoned")}
    counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("games", "abandoned")}
    conn.close()
    with RecordsStore(db) as store:
        assert {g.id for g in store.games()} == sound["games"]
        assert {a.id for a in store.abandoned_games()} == sound["abandoned"]
        assert store.count() == len(sound["games"])
        for g in store.games():
            assert type(g.time) is float and type(g.rows) is int and type(g.date) is str
        store.summary(include_assisted=True)
        note = store.unsound_note
        bad = counts["games"] - len(sound["games"]), counts["abandoned"] - len(sound["abandoned"])
        assert (note is None) == (bad == (0, 0))
        if bad[0]:
            assert f"{bad[0]} game" in note
        if bad[1]:
            assert f"{bad[1]} abandoned game" in note
        json.dumps([dataclasses.asdict(g) for g in store.games()])



# ---------------------------------------------------------------- commands that only read

READING = [["records"], ["records", "--json"], ["records", "-d", "expert"],
           ["records", "--plot", "out.png"], ["replay"], ["replay", "last"], ["replay", "3"],
           ["replay", "--list"], ["replay", "--export", "1", "out.json"],
           ["replay", "--verdicts", "-", "1"]]


@pytest.mark.parametrize("argv", READING, ids=" ".join)
@pytest.mark.parametrize("typo", ["typo/", "typo", "a/b/c"])
def test_a_data_folder_that_does_not_exist_is_said_and_not_made(
        tmp_path, monkeypatch, capsys, argv, typo):
    monkeypatch.chdir(tmp_path)
    assert cli.main([*argv, "--data-dir", typo]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "does not exist" in err and "--data-dir" in err
    assert list(tmp_path.iterdir()) == []               # no folder, no database, no output


@pytest.mark.parametrize("argv", READING, ids=" ".join)
def test_a_data_folder_from_the_environment_must_exist_too(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(tmp_path / "typo"))
    assert cli.main(argv) == 2
    assert "FASTMINE_DATA_DIR" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_file_in_place_of_the_data_folder_is_not_a_folder(tmp_path, capsys):
    (tmp_path / "data").write_text("x")
    assert cli.main(["records", "--data-dir", str(tmp_path / "data")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_an_existing_folder_without_records_is_no_games_yet_and_stays_empty(tmp_path, capsys):
    assert cli.main(["records", "--data-dir", str(tmp_path)]) == 0
    assert "No games recorded yet" in capsys.readouterr().out
    assert cli.main(["replay", "--list", "--data-dir", str(tmp_path)]) == 0
    assert "no recorded game has a replay yet" in capsys.readouterr().out
    for argv in (["replay"], ["replay", "last"], ["replay", "2"]):
        assert cli.main([*argv, "--data-dir", str(tmp_path)]) == 2
        assert "no recorded game has a replay yet" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_the_platform_folder_may_not_exist_yet(tmp_path, monkeypatch, capsys):
    import platformdirs

    monkeypatch.delenv("FASTMINE_DATA_DIR", raising=False)
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "fresh"))
    assert cli.main(["records"]) == 0
    assert "No games recorded yet" in capsys.readouterr().out
    assert cli.main(["replay", "--list"]) == 0
    assert not (tmp_path / "fresh").exists()


def test_a_trigger_put_in_the_records_is_refused_before_it_can_run(tmp_path, capsys):
    # A trigger deleting the older games at each insert wiped them at the next
    # game recorded: fastmine makes no trigger, so a file holding one is refused.
    db = _fill(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TRIGGER wipe AFTER INSERT ON games "
                 "BEGIN DELETE FROM games WHERE id < new.id; END")
    conn.commit()
    conn.close()
    before = _files(tmp_path)
    with pytest.raises(RecordsError, match="triggers fastmine did not make"):
        RecordsStore(db)
    for argv in (["records"], ["replay", "--list"]):
        assert cli.main([*argv, "--data-dir", str(tmp_path)]) != 0
        assert one_line_error(capsys.readouterr().err)
    assert _files(tmp_path) == before


def one_line_error(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err and "trigger" in err


def test_a_replay_blob_bigger_than_any_replay_is_refused_unread(tmp_path):
    import tracemalloc

    from fastmine.replay.playback import MAX_REPLAY_BYTES

    db = _fill(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE replays SET data = zeroblob(?) WHERE game_id = 1",
                 (MAX_REPLAY_BYTES + 1,))
    conn.commit()
    conn.close()
    with RecordsStore(db) as store:
        tracemalloc.start()
        try:
            with pytest.raises(RecordsError, match="more than a replay holds"):
                store.replay(1)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 2**20          # the 64 MiB were never read (they were, then refused)
