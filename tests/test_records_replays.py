"""Replays in the records store: schema 3, and a schema-2 database migrated without loss."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from records_fixtures import as_rows, claim_version, finished_game, old_database

import fastmine
from fastmine.records import SCHEMA_VERSION, GameRecord, RecordsError, RecordsStore
from fastmine.replay import Replay

OLD_ROWS = [
    ("2024-01-02T03:04:05+00:00", "beginner", 9, 9, 10, "opening", 1, 12.5, 20, 1.6, 25, 0.8, 0,
     "Old", 20, 4, 1),
    ("2024-01-03T03:04:05+00:00", "expert", 16, 30, 99, "cell", 0, 40.25, None, None, 9, None, 1,
     None, None, None, None),
]


def test_schema_2_database_migrates_without_loss(tmp_path):
    path = tmp_path / "records.sqlite3"
    old_database(path, 2, OLD_ROWS)   # as fastmine wrote it before replays
    with RecordsStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        old = s.games()
        got = as_rows(old)
        assert got == OLD_ROWS
        assert [s.replay(r.id) for r in old] == [None, None]
        g = finished_game(5, flag_first=True)
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
    g = finished_game(5, flag_first=True)
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
        rec = s.record_game(finished_game(5, flag_first=True))
        path = s.path
    con = sqlite3.connect(path)
    con.execute("UPDATE replays SET data = ? WHERE game_id = ?", (b"{not json", rec.id))
    con.commit()
    con.close()
    with RecordsStore(path) as s, pytest.raises(RecordsError, match="replay of game 1"):
        s.replay(rec.id)


def test_schema_3_without_the_replays_table_is_refused(tmp_path):
    path = tmp_path / "records.sqlite3"
    old_database(path, 2, OLD_ROWS)
    claim_version(path, 3)
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="tables are not"):
        RecordsStore(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("argv, words", [
    (["replay", "999"], "game 999 has no replay"),
    (["replay", "abc"], "a game ID is a number"),
    (["replay", "--import", "/nonexistent/x.fmr"], "no such file: /nonexistent/x.fmr"),
    (["replay", "--export", "1", "x.fmr"], "game 1 has no replay"),
    (["replay", "--export", "1", "/nonexistent/x.fmr"], "the folder /nonexistent does not exist"),
    (["replay", "--speed", "-1"], "--speed must be 0 or more"),
])
def test_replay_command_errors_are_one_named_line(tmp_path, capsys, argv, words):
    from fastmine.cli import main

    with RecordsStore(data_dir=tmp_path) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=5.0))
    # a file named that cannot be read is 1, as in fastmine analyze; the rest usage, 2
    assert main([*argv, "--data-dir", str(tmp_path)]) == (1 if "--import" in argv else 2)
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
