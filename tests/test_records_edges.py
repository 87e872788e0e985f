"""The records store at its edges: numbers beyond SQLite's integers, values of the
wrong type in a database edited elsewhere, files it must refuse untouched, and
folders that do not exist.  Each case was a traceback or a changed file once."""

from __future__ import annotations

import numpy as np
import pytest

from fastmine.records import GameRecord, RecordsError, RecordsStore
from fastmine.records.gamerecord import sqlite_int

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
