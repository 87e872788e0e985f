"""The records database's own name taken by something else, said plainly.

A folder where SQLite keeps the database's write-ahead log (``records.sqlite3-wal``),
shared memory or journal: SQLite only says "unable to open database file", and
fastmine added "check that its folder exists", which it does.  A
``records.sqlite3`` that is a link to a missing file read as "no games recorded
yet", and the app would have made a new, empty database at the link's target.
Each is now one sentence that names the cause and what to do; nothing is changed
or made.  Through the command line and through the app's store, which opens the
same file.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

import fastmine
from fastmine.app.playerdata import PlayerData, PlayerDataError
from fastmine.cli import main
from fastmine.records import RecordsStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symbolic links and folders as files")


def finished_game(seed: int = 3) -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=seed)
    g.reveal(4, 4)
    while not g.state.is_over:
        g.reveal(*(int(v) for v in np.argwhere(g.view == fastmine.HIDDEN)[0]))
    return g


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def records_dir(tmp_path: Path) -> Path:
    """A data folder with a valid database of one game, checkpointed (no -wal left)."""
    data = tmp_path / "data"
    with RecordsStore(data_dir=data) as store:
        store.record_game(finished_game(), name="Ann")
    assert sorted(p.name for p in data.iterdir()) == ["records.sqlite3"]
    return data


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- a folder for the log

@pytest.mark.parametrize("suffix, what, reads", [
    ("-wal", "write-ahead log", False),
    ("-shm", "shared-memory file", True),   # SQLite still reads then; only a write fails
    ("-journal", "journal", False),
])
def test_a_folder_in_place_of_the_log_is_named_and_nothing_changes(records_dir, capsys,
                                                                   suffix, what, reads):
    db = records_dir / "records.sqlite3"
    before = digest(db)
    folder = records_dir / f"records.sqlite3{suffix}"
    folder.mkdir()
    (folder / "kept.txt").write_text("mine")
    want = (f"{folder} is a directory, but SQLite needs that name for the {what} of the "
            f"records database {db}; move it out of the way and try again "
            "(the records were not touched)")
    for argv in (["records"], ["records", "--json", "-"], ["replay", "--list"]):
        code, out, err = run_cli([*argv, "--data-dir", str(records_dir)], capsys)
        if reads:
            assert code == 0 and err == "", err
            continue
        assert code != 0 and out == ""
        assert f": cannot open the records: {want}\n" in err, err
        assert "unable to open" not in err and "check that its folder exists" not in err
    with pytest.raises(PlayerDataError) as exc:
        PlayerData(str(records_dir)).record_game(finished_game(seed=4))
    doing = "could not store the game" if reads else "cannot open the records"
    assert str(exc.value) == f"{doing}: {want}"
    assert digest(db) == before
    assert (folder / "kept.txt").read_text() == "mine"
    left = {p.name for p in records_dir.iterdir()}
    if reads:   # a reader in WAL mode makes an empty log (as it always did)
        wal = records_dir / "records.sqlite3-wal"
        assert not wal.exists() or wal.stat().st_size == 0
        left.discard(wal.name)
    assert left == {"records.sqlite3", folder.name}
    # moved out of the way, as the message says: the records are all there
    folder.rename(records_dir.parent / "moved")
    code, out, _ = run_cli(["records", "--data-dir", str(records_dir), "--json", "-"], capsys)
    assert code == 0 and [g["name"] for g in json.loads(out)["games"]] == ["Ann"]


# ---------------------------------------------------------------- a link to nowhere

def test_a_link_to_a_missing_records_file_is_not_no_records(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    target = tmp_path / "usb-stick" / "records.sqlite3"     # its folder exists: SQLite could make it
    target.parent.mkdir()
    link = data / "records.sqlite3"
    link.symlink_to(target)
    want = (f"the records file {link} is a link to {target}, which does not exist (a moved "
            "file, or a disk that is not there?); bring that file back, or remove the link "
            f"to start new records. Nothing was made at {target}")
    for argv in (["records"], ["records", "--difficulty", "beginner"], ["records", "--json", "-"],
                 ["replay", "--list"]):
        code, out, err = run_cli([*argv, "--data-dir", str(data)], capsys)
        assert code != 0, argv
        assert "No games recorded yet" not in out and "no recorded game" not in out
        assert want in err, err
    with pytest.raises(PlayerDataError) as exc:
        PlayerData(str(data)).record_game(finished_game())
    assert str(exc.value) == want
    assert not os.path.lexists(target) and list(target.parent.iterdir()) == []
    assert link.is_symlink() and sorted(p.name for p in data.iterdir()) == ["records.sqlite3"]


def test_a_relative_link_names_where_it_points_from_the_data_folder(tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / "records.sqlite3").symlink_to("old/records.sqlite3")
    code, _, err = run_cli(["records", "--data-dir", str(data)], capsys)
    assert code == 1
    assert f"is a link to {data / 'old' / 'records.sqlite3'}, which does not exist" in err


def test_a_link_to_a_records_file_that_is_there_still_reads_and_records(records_dir, tmp_path,
                                                                        capsys):
    moved = tmp_path / "elsewhere.sqlite3"
    (records_dir / "records.sqlite3").rename(moved)
    (records_dir / "records.sqlite3").symlink_to(moved)
    code, out, err = run_cli(["records", "--data-dir", str(records_dir), "--json", "-"], capsys)
    assert code == 0 and [g["name"] for g in json.loads(out)["games"]] == ["Ann"], err
    PlayerData(str(records_dir)).record_game(finished_game(seed=4), name="Bob")
    with RecordsStore(moved, create=False) as store:
        assert sorted(r.name or "" for r in store.games()) == ["Ann", "Bob"]
    assert (records_dir / "records.sqlite3").is_symlink()
