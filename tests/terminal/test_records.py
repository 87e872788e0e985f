"""The records store: round trip, best times, streaks, concurrency, corrupt and old files."""

from __future__ import annotations

import multiprocessing
import sqlite3

import numpy as np
import pytest
from records_fixtures import OLD_GAME, old_database

import fastmine
from fastmine import records
from fastmine.cli import main as cli_main
from fastmine.records import (
    SCHEMA_VERSION,
    FutureSchemaError,
    GameRecord,
    RecordsError,
    RecordsStore,
    Statistics,
)


def _won_game(seed: int = 5) -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=seed)
    g.reveal(4, 4)
    mines = g.board.mines
    for r, c in zip(*np.nonzero(~mines), strict=True):
        if g.view[r, c] < 0:
            g.reveal(int(r), int(c))
    assert g.state is fastmine.GameState.WON
    return g


def _lost_game() -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=2)
    g.reveal(4, 4)
    r, c = np.argwhere(g.board.mines)[0]
    g.reveal(int(r), int(c))
    assert g.state is fastmine.GameState.LOST
    return g


@pytest.fixture
def store(tmp_path):
    with RecordsStore(data_dir=tmp_path) as s:
        yield s


def test_round_trip_of_a_real_game(store, tmp_path):
    g = _won_game()
    stored = store.record_game(g, name="  Ann\x07 ")
    assert stored.id == 1 and stored.name == "Ann"
    with RecordsStore(tmp_path / records.RECORDS_FILE, create=False) as again:
        (back,) = again.games()
    s = g.stats()
    assert back == stored
    assert (back.difficulty, back.rows, back.cols, back.mines, back.rule) == \
        ("beginner", 9, 9, 10, "opening")
    assert back.won is True and back.assisted is False
    assert back.time == pytest.approx(s.time) and back.bbbv == s.bbbv
    assert back.clicks == s.clicks and back.efficiency == pytest.approx(s.efficiency)
    assert back.left_clicks == s.left_clicks
    assert back.date.endswith("+00:00")


def test_lost_and_unfinished_games(store):
    store.record_game(_lost_game())
    (rec,) = store.games()
    assert rec.won is False
    with pytest.raises(RecordsError, match="only finished games"):
        GameRecord.from_game(fastmine.Game(9, 9, 10))


def test_best_times_order_boards_and_assisted(store):
    for t, name in [(30.0, "C"), (10.0, "A"), (20.0, "B"), (10.0, "late tie")]:
        store.add(GameRecord.make(9, 9, 10, won=True, time=t, name=name))
    store.add(GameRecord.make(9, 9, 10, won=False, time=1.0, name="lost"))
    store.add(GameRecord.make(9, 9, 10, won=True, time=2.0, assisted=True, name="bot"))
    store.add(GameRecord.make(16, 30, 99, won=True, time=5.0, name="expert"))
    store.add(GameRecord.make(12, 20, 40, won=True, time=7.0, name="custom"))
    names = [r.name for r in store.best_times("beginner")]
    assert names == ["A", "late tie", "B", "C"]
    assert [r.name for r in store.best_times((9, 9, 10), 2)] == ["A", "late tie"]
    assert store.best_time("beginner", include_assisted=True).name == "bot"
    assert store.best_time("expert").name == "expert"
    assert store.best_time("custom").name == "custom"
    assert store.best_time((12, 20, 40)).name == "custom"
    assert store.best_time("intermediate") is None
    assert store.boards() == [(9, 9, 10), (16, 30, 99), (12, 20, 40)]
    with pytest.raises(ValueError, match="unknown difficulty"):
        store.best_times("impossible")


def test_is_best_time(store):
    fast = GameRecord.make(9, 9, 10, won=True, time=10.0)
    assert store.is_best_time(fast)  # nothing stored yet
    store.add(fast)
    assert not store.is_best_time(GameRecord.make(9, 9, 10, won=True, time=10.0))  # a tie
    assert store.is_best_time(GameRecord.make(9, 9, 10, won=True, time=9.5))
    assert not store.is_best_time(GameRecord.make(9, 9, 10, won=False, time=1.0))
    assert not store.is_best_time(GameRecord.make(9, 9, 10, won=True, time=1.0, assisted=True))
    assert store.is_best_time(GameRecord.make(9, 9, 10, won=True, time=11.0), top=2)
    assert store.is_best_time(GameRecord.make(16, 16, 40, won=True, time=99.0))
    g = _won_game()
    assert store.is_best_time(g)  # microseconds beat 10 s


def test_statistics_and_streaks(store):
    results = [True, True, False, True, True, True, False, True]
    for won in results:
        store.add(GameRecord.make(16, 16, 40, won=won, time=50.0))
    store.add(GameRecord.make(16, 16, 40, won=False, time=5.0, assisted=True))
    st = store.statistics("intermediate")
    assert st == Statistics(played=8, won=6, current_streak=1, best_streak=3)
    assert st.lost == 2 and st.win_percent == pytest.approx(75.0)
    with_bot = store.statistics("intermediate", include_assisted=True)
    assert (with_bot.played, with_bot.current_streak) == (9, 0)
    assert store.statistics("expert") == Statistics(0, 0, 0, 0)
    assert store.statistics("expert").win_percent is None


def test_streaks_against_a_slow_reference():
    rng = np.random.default_rng(0)
    for _ in range(200):
        results = [bool(x) for x in rng.random(rng.integers(0, 30)) < 0.6]
        best = max((len(run) for run in "".join("W" if w else "L" for w in results).split("L")),
                   default=0)
        current = 0
        for w in reversed(results):
            if not w:
                break
            current += 1
        assert Statistics.from_results(results) == Statistics(
            len(results), sum(results), current, best)


def test_bad_records_are_refused(store):
    with pytest.raises(RecordsError, match="time"):
        store.add(GameRecord.make(9, 9, 10, won=True, time=float("nan")))
    with pytest.raises(RecordsError, match="impossible board"):
        store.add(GameRecord.make(9, 9, 81, won=True, time=1.0))
    with pytest.raises(TypeError):
        GameRecord.make(9, 9, 10, won=True, time=1.0, name=5)
    assert store.count() == 0
    long = GameRecord.make(9, 9, 10, won=True, time=1.0, name="x" * 100)
    assert len(long.name) == records.MAX_NAME_LENGTH


def _writer(path: str, worker: int, n: int) -> None:
    with RecordsStore(path, timeout=60) as s:
        for i in range(n):
            s.add(GameRecord.make(9, 9, 10, won=i % 2 == 0, time=float(i), name=f"w{worker}-{i}"))


def test_two_writer_processes_lose_no_rows(tmp_path):
    path = str(tmp_path / "records.sqlite3")
    n = 150
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, n)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    with RecordsStore(path) as s:
        names = [r.name for r in s.games()]
    assert len(names) == 2 * n
    assert set(names) == {f"w{w}-{i}" for w in range(2) for i in range(n)}


@pytest.mark.parametrize("content", [
    b"this is not a database at all" * 50,
    b"SQLite format 3\x00" + bytes(range(256)) * 20,
])
def test_corrupt_file_is_an_error_and_left_untouched(tmp_path, content):
    path = tmp_path / "records.sqlite3"
    path.write_bytes(content)
    with pytest.raises(RecordsError, match="left untouched|corrupt|not an SQLite"):
        RecordsStore(path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.sqlite3"]


def test_truncated_database_is_an_error_and_left_untouched(tmp_path):
    path = tmp_path / "records.sqlite3"
    with RecordsStore(path) as s:
        for i in range(300):
            s.add(GameRecord.make(9, 9, 10, won=True, time=float(i), name="n" * 30))
    # Fold the WAL into the main file, then cut it in half.
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    with pytest.raises(RecordsError), RecordsStore(path) as s:
        s.games()
    assert path.read_bytes() == before


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="not fastmine records"):
        RecordsStore(path)
    assert path.read_bytes() == before


def test_newer_schema_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "records.sqlite3"
    with RecordsStore(path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=3.0))
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    before = path.read_bytes()
    with pytest.raises(FutureSchemaError, match="newer fastmine"):
        RecordsStore(path)
    assert path.read_bytes() == before


def test_old_schema_is_migrated(tmp_path):
    path = tmp_path / "records.sqlite3"
    old_database(path, 1, [OLD_GAME])   # as fastmine schema 1 wrote it
    with RecordsStore(path) as s:
        assert s.schema_version == SCHEMA_VERSION
        (old,) = s.games()
        assert (old.name, old.time, old.left_clicks) == ("Old", 12.5, None)
        s.record_game(_won_game())
        assert [r.name for r in s.best_times("beginner")][-1] == "Old"
    con = sqlite3.connect(path)
    indexes = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    con.close()
    assert "games_by_board" in indexes


def test_missing_database_with_create_false(tmp_path):
    with pytest.raises(RecordsError, match="no records database"):
        RecordsStore(tmp_path / "nope.sqlite3", create=False)
    assert not (tmp_path / "nope.sqlite3").exists()


def test_data_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTMINE_DATA_DIR", str(tmp_path / "env"))
    with RecordsStore() as s:
        assert s.path == tmp_path / "env" / records.RECORDS_FILE
    assert records.default_path(tmp_path / "arg") == tmp_path / "arg" / records.RECORDS_FILE


def records_main(argv: list[str]) -> int:
    return cli_main(["records", *argv])


def test_records_command(tmp_path, capsys):
    assert records_main(["--data-dir", str(tmp_path)]) == 0
    assert "No games recorded yet" in capsys.readouterr().out
    assert not (tmp_path / records.RECORDS_FILE).exists()
    with RecordsStore(data_dir=tmp_path) as s:
        s.add(GameRecord.make(9, 9, 10, won=True, time=12.25, bbbv=20, clicks=25, name="Ann"))
        s.add(GameRecord.make(9, 9, 10, won=False, time=3.0))
        s.add(GameRecord.make(12, 20, 40, won=True, time=70.0, name="Cy"))
    assert records_main(["--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Best times" in out and "Statistics" in out
    line = next(ln for ln in out.splitlines() if ln.startswith("beginner") and "Ann" in ln)
    assert "12.25" in line and "1.63" in line  # 3BV/s = 20 / 12.25
    stats = [ln for ln in out.splitlines() if ln.startswith("beginner") and "Ann" not in ln]
    assert stats[0].split()[1:4] == ["2", "1", "50.0"]
    assert "custom 12x20/40" in out
    assert records_main(["--data-dir", str(tmp_path), "-d", "12x20/40"]) == 0
    assert "Cy" in capsys.readouterr().out
    assert records_main(["--data-dir", str(tmp_path), "-d", "nonsense"]) == 2
    (tmp_path / records.RECORDS_FILE).write_bytes(b"garbage" * 100)
    assert records_main(["--data-dir", str(tmp_path)]) == 1
    assert "not an SQLite database" in capsys.readouterr().err
