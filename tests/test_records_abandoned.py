"""Abandoned games in the records store: schema 4, old files migrated without loss,
what an abandonment is, how it counts in the statistics (not played, ends a streak),
the app's old counts imported once, and a random mix of calls against a slow reference."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from records_fixtures import as_rows, claim_version, old_database, started_game

import fastmine
from fastmine.records import (
    SCHEMA_VERSION,
    AbandonedGame,
    GameRecord,
    RecordsError,
    RecordsStore,
    Statistics,
)

OLD_ROWS = [
    ("2024-01-02T03:04:05+00:00", "beginner", 9, 9, 10, "opening", 1, 12.5, 20, 1.6, 25, 0.8, 0,
     "Old", 20, 4, 1),
    ("2024-01-03T03:04:05+00:00", "beginner", 9, 9, 10, "cell", 0, 40.25, None, None, 9, None, 1,
     None, None, None, None),
    ("2024-01-04T03:04:05+00:00", "expert", 16, 30, 99, "opening", 1, 99.0, 300, 3.0, 320, 0.9, 0,
     "Cy", 300, 15, 5),
]
REPLAY_BLOB = b"the stored bytes of a replay, kept as they are"


def old_file(path, version: int) -> list[tuple]:
    """A records file as fastmine ``version`` left it; returns its rows as stored."""
    width = 14 if version == 1 else 17
    rows = [r[:width] for r in OLD_ROWS]
    old_database(path, version, rows, replay=REPLAY_BLOB if version >= 3 else None)
    return [r + (None,) * (17 - width) for r in rows]


def lost_game() -> fastmine.Game:
    g = started_game()
    r, c = np.argwhere(g.board.mines)[0]
    g.reveal(int(r), int(c))
    assert g.state is fastmine.GameState.LOST
    return g


# ---------------------------------------------------------------- migration

@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_older_database_migrates_to_schema_4_without_loss(tmp_path, version):
    path = tmp_path / "records.sqlite3"
    stored = old_file(path, version)
    with RecordsStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION >= 4
        assert as_rows(s.games()) == stored
        assert s.abandoned_games() == []
        assert s.statistics("beginner") == Statistics(1, 1, 1, 1, abandoned=0)
        assert s.best_time("expert").name == "Cy"
        if version >= 3:
            assert s.replay_ids() == [1]
        gave_up = s.record_abandoned(started_game())
        assert gave_up is not None and gave_up.id == 1
    con = sqlite3.connect(path)
    if version >= 3:   # the replay's bytes are untouched
        assert con.execute("SELECT data FROM replays").fetchall() == [(REPLAY_BLOB,)]
    assert con.execute("SELECT after_game FROM abandoned").fetchall() == [(3,)]
    con.close()
    with RecordsStore(path) as s:   # opening again changes nothing
        assert as_rows(s.games()) == stored and len(s.abandoned_games()) == 1
        assert s.statistics("beginner") == Statistics(1, 1, 0, 1, abandoned=1)


def test_schema_4_without_the_abandoned_table_is_refused(tmp_path):
    path = tmp_path / "records.sqlite3"
    old_file(path, 3)
    claim_version(path, 4)
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="tables are not"):
        RecordsStore(path)
    assert path.read_bytes() == before


# ---------------------------------------------------------------- what is recorded

def test_an_abandoned_game_keeps_its_board_rule_time_and_revealed_fraction(tmp_path):
    now = [100.0]
    g = fastmine.Game(16, 16, 40, rule="cell", seed=4, clock=lambda: now[0])
    g.reveal(8, 8)
    now[0] = 112.5
    with RecordsStore(data_dir=tmp_path) as s:
        a = s.record_abandoned(g)
        (back,) = s.abandoned_games()
    assert back == a
    assert (a.difficulty, a.rows, a.cols, a.mines, a.rule) == ("intermediate", 16, 16, 40, "cell")
    assert a.time == pytest.approx(12.5)
    assert a.revealed == pytest.approx(g.revealed_count / (16 * 16 - 40)) and 0 < a.revealed < 1
    assert a.assisted is False and a.date.endswith("+00:00") and a.board_label == "intermediate"


def test_a_game_with_no_reveal_is_not_an_abandonment_and_a_finished_one_is_refused(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        unstarted = fastmine.Game(9, 9, 10, seed=1)
        unstarted.toggle_mark(0, 0)         # a flag is not a reveal
        assert s.record_abandoned(unstarted) is None
        with pytest.raises(RecordsError, match="finished game"):
            s.record_abandoned(lost_game())
        assert s.abandoned_games() == [] and s.count() == 0
        assert AbandonedGame.from_game(unstarted) is None


def test_abandoned_games_are_not_played_but_end_a_streak(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        for won in (True, True):
            s.add(GameRecord.make(9, 9, 10, won=won, time=10.0))
        s.record_abandoned(started_game())
        s.add(GameRecord.make(9, 9, 10, won=True, time=10.0))
        st = s.statistics("beginner")
        assert st == Statistics(played=3, won=3, current_streak=1, best_streak=2, abandoned=1)
        assert st.win_percent == 100.0            # win % is of finished games
        # Another board's and assisted abandonments touch neither count nor streak.
        s.record_abandoned(started_game(16, 16, 40))
        s.record_abandoned(started_game(assisted=True))
        assert s.statistics("beginner") == st
        assert s.statistics("beginner", include_assisted=True).current_streak == 0
        assert s.statistics("beginner", include_assisted=True).abandoned == 2
        assert s.statistics("intermediate") == Statistics(0, 0, 0, 0, abandoned=1)
        assert s.statistics("beginner", rule="cell").abandoned == 0
        assert s.statistics().abandoned == 2
        # A board with only an abandoned game is listed.
        assert [label for label, _, _ in s.summary()] == ["beginner", "intermediate"]


def test_old_counts_are_imported_once_and_end_no_streak(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=10.0))
        assert s.import_abandoned({(9, 9, 10): 2, (12, 20, 40): 1, (16, 30, 99): 0}) == 3
        assert s.import_abandoned({(9, 9, 10): 2}) == 0        # once only
        st = s.statistics("beginner")
        assert (st.abandoned, st.current_streak) == (2, 1)
        assert s.statistics((12, 20, 40)).abandoned == 1
        old = s.abandoned_games((12, 20, 40))[0]
        assert (old.date, old.rule, old.time, old.revealed) == (None, None, None, None)
        for bad in ({(9, 9, 81): 1}, {(9, 9, 10): -1}, {(9, 9, 10): True}, {"beginner": 1},
                    {(2**64, 9, 10): 1}, {(9, 9, 2**64): 1},         # were OverflowErrors
                    {(9, 9, 10): 6_000, (8, 8, 10): 6_000}):       # over the total cap
            with pytest.raises(RecordsError):
                s.import_abandoned(bad)
        assert len(s.abandoned_games()) == 3


def test_a_store_that_cannot_be_written_refuses_an_abandoned_game(tmp_path):
    with RecordsStore(data_dir=tmp_path, timeout=0.05) as s:
        other = sqlite3.connect(s.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")         # another program is writing
        try:
            with pytest.raises(RecordsError, match="could not store the abandoned game"):
                s.record_abandoned(started_game())
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert s.abandoned_games() == []


# ---------------------------------------------------------------- against a slow reference

BOARDS = [(9, 9, 10), (8, 8, 10)]
_STARTED: dict[tuple[tuple[int, int, int], bool], fastmine.Game] = {}


def _started(size: tuple[int, int, int], assisted: bool) -> fastmine.Game:
    # One game in progress per board and assist: recording does not change it.
    key = (size, assisted)
    if key not in _STARTED:
        _STARTED[key] = started_game(*size, seed=11, assisted=assisted)
    return _STARTED[key]


def reference_statistics(events: list[tuple[str, tuple, bool, bool]], size, include_assisted):
    """Played, won, streaks and abandoned straight from the list of events, in order."""
    mine = [e for e in events if e[1] == size and (include_assisted or not e[2])]
    results = [None if kind == "abandon" else won for kind, _, _, won in mine]
    finished = [r for r in results if r is not None]
    runs, run = [0], 0
    for r in results:
        run = run + 1 if r else 0
        runs.append(run)
    return Statistics(len(finished), sum(finished), run, max(runs),
                      sum(r is None for r in results))


CALLS = st.lists(st.tuples(st.sampled_from(["win", "loss", "abandon", "remove"]),
                           st.sampled_from(range(len(BOARDS))), st.booleans(),
                           st.integers(0, 50)), max_size=30)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=CALLS)
def test_random_calls_give_the_statistics_of_a_slow_reference(tmp_path_factory, calls):
    events: list[tuple[str, tuple, bool, bool]] = []     # (kind, board, assisted, won)
    ids: list[int | None] = []                           # the game id of each event
    with RecordsStore(data_dir=tmp_path_factory.mktemp("records")) as s:
        for kind, b, assisted, pick in calls:
            size = BOARDS[b]
            if kind == "abandon":
                assert s.record_abandoned(_started(size, assisted)) is not None
                events.append((kind, size, assisted, False))
                ids.append(None)
            elif kind == "remove":      # a loss taken back: the game is forgotten
                stored = [i for i, gid in enumerate(ids) if gid is not None]
                if stored:
                    i = stored[pick % len(stored)]
                    assert s.remove(ids[i])
                    del events[i], ids[i]
            else:
                rec = s.add(GameRecord.make(*size, won=kind == "win", time=5.0,
                                            assisted=assisted))
                events.append(("game", size, assisted, kind == "win"))
                ids.append(rec.id)
        for size in BOARDS:
            for include_assisted in (False, True):
                assert s.statistics(size, include_assisted=include_assisted) == \
                    reference_statistics(events, size, include_assisted)
        assert len(s.abandoned_games()) == sum(e[0] == "abandon" for e in events)
