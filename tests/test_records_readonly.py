"""A records database fastmine may read but not write: a read-only disk, a file or a
folder that cannot be written.  Everything stored still shows, with one note that new
games cannot be recorded there; every write is a clear RecordsError and the file is
left byte for byte as it was.

Root writes through permission bits, so the read-only places here are ones that
stop root too: a tmpfs remounted read-only, a read-only bind mount, and the
immutable attribute (chattr +i), made with tests/mounts.py (the ``disk`` fixture,
a tmpfs, is in tests/conftest.py).  They need root: skipped otherwise, with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mounts import remount_ro, run_as_root, unmount
from records_fixtures import OLD_GAME, finished_game, old_database, started_game

import fastmine
from fastmine.cli import main as cli_main
from fastmine.records import SCHEMA_VERSION, GameRecord, RecordsError, RecordsStore
from fastmine.replay import Replay

pytestmark = pytest.mark.skipif(os.name != "posix", reason="mounts and file attributes are POSIX")

NOTE = "new games cannot be recorded there"


@pytest.fixture
def immutable():
    """A function that sets the immutable attribute (chattr +i), undone afterwards."""
    done: list[Path] = []

    def set_immutable(path: Path) -> None:
        run_as_root("chattr", "+i", str(path))
        done.append(path)

    yield set_immutable
    for path in reversed(done):
        subprocess.run(["chattr", "-i", str(path)], capture_output=True, timeout=30)


def fill(data: Path) -> list[GameRecord]:
    """Two games with their replays and a named best time, the way the games store them."""
    with RecordsStore(data_dir=data) as store:
        stored = [store.record_game(finished_game(seed), "Ann") for seed in (5, 6)]
        stored.append(store.add(GameRecord.make(9, 9, 10, won=True, time=7.25, name="Bo")))
    return stored


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def check_reads(data: Path, stored: list[GameRecord]) -> None:
    with RecordsStore(data_dir=data) as store:
        assert store.read_only
        assert NOTE in (store.read_only_note or "")
        assert store.games() == stored
        assert store.best_time("beginner").name == "Bo"
        assert store.statistics("beginner").played == len(stored)
        ids = store.replay_ids()
        assert ids == [r.id for r in stored[:2]]
        replay = store.replay(ids[0])
        assert isinstance(replay, Replay) and replay.play().state.is_over


def check_writes_refused(data: Path, stored: list[GameRecord]) -> None:
    before = snapshot(data)
    with RecordsStore(data_dir=data) as store:
        for write in (lambda: store.add(GameRecord.make(9, 9, 10, won=True, time=1.0)),
                      lambda: store.record_game(finished_game(7)),
                      lambda: store.set_name(stored[0].id, "Cy"),
                      lambda: store.remove(stored[0].id),
                      lambda: store.record_abandoned(started_game()),
                      lambda: store.import_abandoned({(9, 9, 10): 1})):
            with pytest.raises(RecordsError, match="read-only disk") as err:
                write()
            assert "unchanged" in str(err.value) and "corrupt" not in str(err.value)
        assert store.games() == stored
    assert snapshot(data) == before


def check_commands(data: Path, stored: list[GameRecord], capsys) -> None:
    capsys.readouterr()
    assert cli_main(["records", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert "Bo" in out and "7.25" in out and "Statistics" in out
    assert err.count(NOTE) == 1 and str(data) in err
    assert cli_main(["records", "--json", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert [g["id"] for g in json.loads(out)["games"]] == [r.id for r in stored]
    assert err.count(NOTE) == 1
    assert cli_main(["replay", "--list", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 2 and err.count(NOTE) == 1
    assert cli_main(["replay", "last", "--plain", "--speed", "0", "--no-coach",
                     "--data-dir", str(data)]) == 0
    out, _ = capsys.readouterr()
    assert "won" in out or "lost" in out


# ---------------------------------------------------------------- a read-only disk

def test_a_read_only_disk_shows_every_stored_game(disk, capsys):
    stored = fill(disk)
    remount_ro(disk)
    check_reads(disk, stored)
    check_commands(disk, stored, capsys)


def test_recording_on_a_read_only_disk_is_refused_and_changes_nothing(disk):
    stored = fill(disk)
    remount_ro(disk)
    check_writes_refused(disk, stored)


@pytest.mark.parametrize(("version", "journal"),
                         [(1, "wal"), (2, "wal"), (2, "delete"), (3, "wal")])
def test_an_older_schema_on_a_read_only_disk_is_read_as_it_is(disk, capsys, version, journal):
    path = disk / "records.sqlite3"
    old_database(path, version, [OLD_GAME], journal=journal)
    remount_ro(disk)
    before = snapshot(disk)
    with RecordsStore(data_dir=disk) as store:
        assert store.schema_version == version < SCHEMA_VERSION      # not migrated
        (game,) = store.games()
        assert (game.name, game.time, game.won, game.left_clicks) == ("Old", 12.5, True, None)
        assert store.best_time("beginner") == game
        assert store.replay_ids() == [] and store.replay(game.id) is None
        assert store.abandoned_games() == [] and store.statistics().abandoned == 0
        with pytest.raises(RecordsError, match="read-only disk"):
            store.add(GameRecord.make(9, 9, 10, won=True, time=1.0))
    assert snapshot(disk) == before
    assert cli_main(["records", "--data-dir", str(disk)]) == 0
    out, err = capsys.readouterr()
    assert "Old" in out and "12.50" in out and NOTE in err


def test_an_empty_records_file_on_a_read_only_disk_has_no_games(disk, capsys):
    (disk / "records.sqlite3").write_bytes(b"")
    remount_ro(disk)
    with RecordsStore(data_dir=disk) as store:
        assert store.games() == [] and store.replay_ids() == [] and store.read_only
    assert cli_main(["records", "--data-dir", str(disk)]) == 0
    out, err = capsys.readouterr()
    assert "No games recorded yet" in out and NOTE in err


# ---------------------------------------------------------------- a file or folder not writable

def test_a_records_file_that_cannot_be_written(tmp_path, immutable, capsys):
    # The folder is writable (SQLite may keep its shared-memory file there), the file is not.
    stored = fill(tmp_path)
    immutable(tmp_path / "records.sqlite3")
    check_reads(tmp_path, stored)
    check_writes_refused(tmp_path, stored)
    check_commands(tmp_path, stored, capsys)


def test_a_records_folder_that_cannot_be_written(tmp_path, immutable, capsys):
    # SQLite cannot make its -wal and -shm files beside the database.
    data = tmp_path / "data"
    stored = fill(data)
    immutable(data)
    check_reads(data, stored)
    check_writes_refused(data, stored)
    check_commands(data, stored, capsys)
    assert sorted(p.name for p in data.iterdir()) == ["records.sqlite3"]


# ---------------------------------------------------------------- a writer elsewhere

WRITER = """
import sys
from fastmine.records import GameRecord, RecordsStore
with RecordsStore(data_dir=sys.argv[1]) as store:
    store.add(GameRecord.make(9, 9, 10, won=False, time=2.0, name="Writer"))
"""


def test_a_writer_through_another_mount_does_not_change_the_file_under_a_reader(disk, tmp_path):
    # The same folder read-only here and read-write for another program (a bind mount):
    # the reader holds SQLite's shared lock, so the writer keeps its log beside the
    # file instead of copying it into the file being read.
    stored = fill(disk)
    view = tmp_path / "view"
    view.mkdir()
    run_as_root("mount", "--bind", str(disk), str(view))
    try:
        run_as_root("mount", "-o", "remount,ro,bind", str(view))
        # Read before the reader opens: closing any descriptor of the file in this
        # process would let go of the reader's POSIX lock.
        main_file = (disk / "records.sqlite3").read_bytes()
        with RecordsStore(data_dir=view) as reader:
            assert reader.read_only and reader.games() == stored
            subprocess.run([sys.executable, "-c", WRITER, str(disk)], check=True, timeout=120)
            assert (disk / "records.sqlite3-wal").exists()
            assert reader.games() == stored
            assert reader._db().execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert (disk / "records.sqlite3").read_bytes() == main_file
        # With the writer's log beside it, a new reader reads through SQLite's own
        # read-only mode and sees the new game too.
        with RecordsStore(data_dir=view) as reader:
            assert reader.read_only and reader._lock_fd is None
            assert [g.name for g in reader.games()] == ["Ann", "Ann", "Bo", "Writer"]
        with RecordsStore(data_dir=disk) as writer:
            assert [g.name for g in writer.games()] == ["Ann", "Ann", "Bo", "Writer"]
    finally:
        unmount(view)


def test_a_win_in_the_terminal_game_on_a_read_only_disk_asks_no_name(disk):
    from fastmine.cli.tui.session import GameOptions, Session

    with RecordsStore(data_dir=disk) as store:      # a slower best time to beat
        store.add(GameRecord.make(9, 9, 10, won=True, time=999.0, name="Slow"))
    remount_ro(disk)
    before = snapshot(disk)
    s = Session(GameOptions(seed=3), data_dir=disk)
    s.reveal(4, 4)
    mines = s.game.board.mines
    for r, c in zip(*np.nonzero(~mines), strict=True):
        if s.game.view[r, c] < 0:
            s.reveal(int(r), int(c))
    assert s.game.state is fastmine.GameState.WON
    assert s.outcome is not None and not s.outcome.best     # no name asked for
    msg = s.finish_record(None)
    assert msg is not None and msg.startswith("Records not saved") and "read-only disk" in msg
    assert snapshot(disk) == before


def test_abandoning_in_the_terminal_game_on_a_read_only_disk_goes_on(disk):
    from fastmine.cli.tui.session import GameOptions, Session

    fill(disk)
    remount_ro(disk)
    before = snapshot(disk)
    s = Session(GameOptions(seed=3), data_dir=disk)
    s.reveal(4, 4)
    msg = s.new_game()
    assert msg.startswith("New game") and "abandoned game was not recorded" in msg
    assert any("read-only disk" in n for n in s.notes)
    assert s.game.state is fastmine.GameState.READY
    assert snapshot(disk) == before
