"""The files fastmine keeps, treated as a hostile user would: corrupt, full, read-only,
linked, replaced by a FIFO or a device, and littered by a killed writer.

A full disk is a small tmpfs (needs root: skipped otherwise, with the reason);
read-only is a tmpfs remounted read-only as root, or a folder without write
permission for anybody else.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mounts import remount_ro, tmpfs

import fastmine
from fastmine import SaveFormatError
from fastmine.cli import main as cli_main
from fastmine.cli.records import fit, format_best_times, printable, width
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.files import savedgame, storage
from fastmine.records import APPLICATION_ID, GameRecord, RecordsError, RecordsStore

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, mounts and modes are POSIX")

SRC = Path(fastmine.__file__).resolve().parents[1]


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def game_in_progress(clock=None) -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=11, clock=clock or Clock())
    g.reveal(4, 4)
    assert g.state is fastmine.GameState.PLAYING
    return g


def valid_save() -> dict:
    return game_in_progress().to_dict()


# ---------------------------------------------------------------- mounts

@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB file system (a tmpfs), unmounted afterwards."""
    with tmpfs(tmp_path / "disk", "1m") as mnt:
        yield mnt


def fill(disk: Path) -> Path:
    """Fill ``disk`` to the last block; returns the filler file."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"x" * 4096)
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"x")
    finally:
        os.close(fd)
    return filler


@pytest.fixture
def make_read_only(tmp_path):
    """A function that makes a folder read-only: a read-only tmpfs as root, else chmod."""
    undo = []

    def read_only(folder: Path) -> None:
        if os.geteuid() == 0:
            # Root writes through any permission bits: remount a tmpfs read-only.
            remount_ro(folder)
            undo.append(lambda: subprocess.run(["mount", "-o", "remount,rw", str(folder)],
                                               capture_output=True, timeout=30))
        else:
            os.chmod(folder, 0o555)
            undo.append(lambda: os.chmod(folder, 0o755))

    yield read_only
    for u in reversed(undo):
        u()


@pytest.fixture
def data_disk(tmp_path):
    """A folder on its own file system when that is possible (root), else a plain folder."""
    if os.geteuid() == 0:
        with tmpfs(tmp_path / "data", "4m") as mnt:
            yield mnt
    else:
        d = tmp_path / "data"
        d.mkdir()
        yield d


# ---------------------------------------------------------------- malformed saves

BAD_SAVES = {
    "elapsed 2**64": {"elapsed": 2**64},
    "elapsed 1e300": {"elapsed": 1e300},
    "left clicks 2**63": {"clicks": {"left": 2**63, "right": 0, "chord": 0}},
    "chord clicks 2**64": {"clicks": {"left": 0, "right": 0, "chord": 2**64}},
    "mine index 2**70": {"mine_cells": [2**70] * 10},
}


@pytest.mark.parametrize("name", BAD_SAVES)
def test_out_of_range_numbers_are_save_format_errors(tmp_path, name):
    path = tmp_path / savedgame.SAVE_FILE
    path.write_text(json.dumps({**valid_save(), **BAD_SAVES[name]}))
    with pytest.raises(SaveFormatError):
        savedgame.load_game(path)


def test_deeply_nested_save_is_a_save_format_error(tmp_path):
    path = tmp_path / savedgame.SAVE_FILE
    path.write_text('{"clicks": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(SaveFormatError, match="nested"):
        savedgame.load_game(path)


def test_cells_that_contradict_the_rule_are_refused():
    # Lost on the very first click although the rule makes the first click safe.
    g = fastmine.Game(9, 9, 10, seed=3, rule="cell")
    g.reveal(0, 0)
    d = g.to_dict()
    mine = d["mine_cells"][0]
    cells = ["h"] * 81
    cells[mine] = "r"
    with pytest.raises(SaveFormatError, match="contradict"):
        fastmine.Game.from_dict({**d, "cells": "".join(cells), "state": "lost"})
    # The same cells under rule "none" are a real game: lost on the first click.
    lost = fastmine.Game.from_dict({**d, "cells": "".join(cells), "state": "lost",
                                    "rule": "none"})
    assert lost.state is fastmine.GameState.LOST


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12)


@settings(max_examples=150)
@given(key=st.sampled_from(sorted(valid_save())), value=JSON)
def test_any_field_replaced_by_any_json_loads_or_is_a_save_format_error(key, value):
    d = {**valid_save(), key: value}
    text = json.dumps(d)
    try:
        g = fastmine.Game.from_dict(json.loads(text))
    except SaveFormatError:
        return
    # What loads plays, saves and reports like any game.
    g.stats()
    json.dumps(g.to_dict())
    fastmine.files.savedgame.describe(g)


@pytest.mark.parametrize("name", ["elapsed 2**64", "left clicks 2**63"])
def test_the_terminal_game_starts_fresh_and_keeps_the_bytes(tmp_path, name):
    path = tmp_path / savedgame.SAVE_FILE
    raw = json.dumps({**valid_save(), **BAD_SAVES[name]}).encode()
    path.write_bytes(raw)
    s = Session(GameOptions(), data_dir=tmp_path)
    game, trouble = s.check_save()
    assert game is None and "unreadable" in trouble
    [kept] = tmp_path.glob("saved-game.json.corrupt-*")
    assert kept.read_bytes() == raw
    # A fresh game plays and saves in the freed slot.
    s.reveal(4, 4)
    assert "saved" in s.save_on_quit()
    assert savedgame.load_game(data_dir=tmp_path) is not None


def test_the_clock_does_not_run_while_the_resume_question_waits(tmp_path):
    clock = Clock()
    g = game_in_progress(clock)
    clock.t += 1.0
    savedgame.save_game(g, data_dir=tmp_path)
    s = Session(GameOptions(), data_dir=tmp_path, clock=clock)
    saved, _ = s.check_save()
    clock.t += 10.0         # the player reads the question
    s.resume(saved)
    assert s.game.elapsed == pytest.approx(1.0)
    clock.t += 2.0          # playing: the clock runs
    assert s.game.elapsed == pytest.approx(3.0)


# ---------------------------------------------------------------- special files

def bounded(fn, fifo: Path, seconds: float = 20.0):
    """Call ``fn()`` in a thread; fail (and unblock it) if it waits on ``fifo`` too long."""
    box: dict = {}

    def call() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:     # handed to the test below
            box["error"] = exc

    t = threading.Thread(target=call, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        # Open the other end so the blocked open() returns, then fail.
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        t.join(seconds)
        pytest.fail(f"waited on the FIFO {fifo} for {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def test_a_fifo_save_does_not_hang_and_is_left_alone(tmp_path):
    fifo = tmp_path / savedgame.SAVE_FILE
    os.mkfifo(fifo)
    with pytest.raises(SaveFormatError, match="FIFO"):
        bounded(lambda: savedgame.load_game(fifo), fifo)
    with pytest.raises(SaveFormatError):
        bounded(lambda: savedgame.save_game(game_in_progress(), fifo), fifo)
    assert fifo.is_fifo()


def test_fifos_in_the_data_folder_do_not_hang_play(tmp_path):
    os.mkfifo(tmp_path / savedgame.SAVE_FILE)
    os.mkfifo(tmp_path / "records.sqlite3")
    env = dict(os.environ, PYTHONPATH=str(SRC), FASTMINE_DATA_DIR=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "fastmine", "play", "--plain", "--resume",
                        "--seed", "7"], input="r 5 5\nq\n", capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode in (0, 1, 3), r.stderr
    assert "Traceback" not in r.stderr
    assert "FIFO" in r.stderr
    with pytest.raises(RecordsError, match="FIFO"):
        bounded(lambda: RecordsStore(data_dir=tmp_path), tmp_path / "records.sqlite3")


def test_a_save_linked_to_dev_zero_is_not_read(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    link = tmp_path / savedgame.SAVE_FILE
    link.symlink_to("/dev/zero")
    with pytest.raises(SaveFormatError, match="not a regular file"):
        savedgame.load_game(link)


def test_a_save_too_big_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(savedgame, "MAX_SAVE_BYTES", 1000)
    path = tmp_path / savedgame.SAVE_FILE
    path.write_text(json.dumps(valid_save()) + " " * 2000)
    with pytest.raises(SaveFormatError, match="too big"):
        savedgame.load_game(path)


def test_saving_through_a_symlink_keeps_the_link(tmp_path):
    real = tmp_path / "elsewhere" / "my-save.json"
    real.parent.mkdir()
    first = game_in_progress()
    savedgame.save_game(first, real)
    link = tmp_path / "data" / savedgame.SAVE_FILE
    link.parent.mkdir()
    link.symlink_to(real)
    g = game_in_progress()
    g.toggle_mark(0, 0)
    savedgame.save_game(g, data_dir=link.parent)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert savedgame.load_game(real).to_dict()["cells"] == g.to_dict()["cells"]
    assert not list(real.parent.glob(".*.tmp")) and not list(link.parent.glob(".*.tmp"))


def test_stale_temporary_files_are_cleaned_up_only_when_ours_and_not_being_written(tmp_path):
    fcntl = pytest.importorskip("fcntl")

    old = tmp_path / ".saved-game.json.abcd1234.tmp"
    fresh = tmp_path / ".saved-game.json.efgh5678.tmp"     # a killed write a moment ago
    busy = tmp_path / ".saved-game.json.busy5678.tmp"      # a writer at work (locks it)
    other = tmp_path / ".records.sqlite3.abcd1234.tmp"
    odd = tmp_path / ".saved-game.json.notours.tmp"
    linked = tmp_path / ".saved-game.json.link0000.tmp"
    target = tmp_path / "keep-me"
    for p in (old, fresh, busy, other, odd, target):
        p.write_text("x")
    linked.symlink_to(target)
    hour_ago = time.time() - 2 * storage.STALE_TEMP_SECONDS
    for p in (old, other, odd, target):
        os.utime(p, (hour_ago, hour_ago))
    os.utime(linked, (hour_ago, hour_ago), follow_symlinks=False)
    with open(busy, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        savedgame.save_game(game_in_progress(), data_dir=tmp_path)
        assert busy.exists()
    assert not old.exists() and not fresh.exists()
    assert other.exists() and odd.exists() and linked.is_symlink()
    assert target.exists()


# ---------------------------------------------------------------- read-only folder

def test_winning_a_resumed_game_in_a_read_only_folder(data_disk, make_read_only):
    g = fastmine.Game(9, 9, 10, seed=5)
    g.reveal(4, 4)
    savedgame.save_game(g, data_dir=data_disk)
    s = Session(GameOptions(), data_dir=data_disk, use_records=False)
    saved, _ = s.check_save()
    s.resume(saved)
    make_read_only(data_disk)
    mines = s.game.board.mines
    for r, c in zip(*np.nonzero(~mines), strict=True):
        if s.game.view[r, c] < 0:
            s.reveal(int(r), int(c))
    assert s.game.state is fastmine.GameState.WON
    assert any("Could not delete the saved game" in n for n in s.notes)
    assert (data_disk / savedgame.SAVE_FILE).exists()


def test_saving_to_a_read_only_folder_says_so(data_disk, make_read_only):
    make_read_only(data_disk)
    s = Session(GameOptions(seed=3), data_dir=data_disk, use_records=False)
    s.reveal(4, 4)
    msg = s.save_on_quit()
    assert msg.startswith("Game not saved") and ("Read-only" in msg or "ermission" in msg)


# ---------------------------------------------------------------- records database

def test_fastmine_mark_with_another_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "records.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (who TEXT, score REAL)")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("PRAGMA user_version=2")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(RecordsError, match="tables are not"):
        RecordsStore(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.sqlite3"]


def test_full_disk_is_reported_as_a_full_disk(small_disk):
    data = small_disk / "data"
    with RecordsStore(data_dir=data) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=3.0))
        filler = fill(small_disk)
        with pytest.raises(RecordsError, match="full") as err:
            for i in range(1000):
                store.add(GameRecord.make(9, 9, 10, won=True, time=float(i), name="x" * 40))
        assert "rollback" not in str(err.value) and "corrupt" not in str(err.value)
    # Opening on the full disk says the same, and nothing stored was lost.
    with pytest.raises(RecordsError, match="full") as err, RecordsStore(data_dir=data) as store:
        for i in range(1000):
            store.add(GameRecord.make(9, 9, 10, won=True, time=float(i), name="y" * 40))
    assert "corrupt" not in str(err.value)
    filler.unlink()
    with RecordsStore(data_dir=data) as store:
        assert store.count() >= 1
        assert store.games()[0].time == 3.0


def test_full_disk_keeps_the_old_save(small_disk):
    g = game_in_progress()
    savedgame.save_game(g, data_dir=small_disk)
    before = (small_disk / savedgame.SAVE_FILE).read_bytes()
    filler = fill(small_disk)
    big = fastmine.Game(300, 300, 100, seed=1)
    big.reveal(0, 0)
    with pytest.raises(OSError):
        savedgame.save_game(big, data_dir=small_disk)
    assert (small_disk / savedgame.SAVE_FILE).read_bytes() == before
    assert not list(small_disk.glob(".*.tmp"))
    filler.unlink()


def test_read_only_records_are_reported_as_read_only(data_disk, make_read_only):
    with RecordsStore(data_dir=data_disk) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=3.0))
    make_read_only(data_disk)
    with pytest.raises(RecordsError, match="read-only") as err, \
            RecordsStore(data_dir=data_disk) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=2.0))
    assert "corrupt" not in str(err.value)


def test_records_refuse_a_string_win_and_a_negative_limit(tmp_path):
    with pytest.raises(TypeError, match="won"):
        GameRecord.make(9, 9, 10, won="no", time=1.0)
    with RecordsStore(data_dir=tmp_path) as store:
        rec = GameRecord.make(9, 9, 10, won=True, time=1.0)
        with pytest.raises(TypeError, match="won"):
            store.add(rec.__class__(**{**rec.__dict__, "won": "no"}))
        store.add(rec)
        with pytest.raises(ValueError, match="limit"):
            store.best_times("beginner", -1)
        with pytest.raises(TypeError, match="limit"):
            store.best_times("beginner", 2.5)
        assert store.count() == 1


def test_click_counts_beyond_sqlite_are_a_records_error(tmp_path):
    rec = GameRecord.make(9, 9, 10, won=True, time=1.0)
    with RecordsStore(data_dir=tmp_path) as store, pytest.raises(RecordsError, match="clicks"):
        store.add(rec.__class__(**{**rec.__dict__, "clicks": 2**63}))


def test_records_command_escapes_control_characters_and_aligns_wide_names(tmp_path, capsys):
    with RecordsStore(data_dir=tmp_path) as store:
        store.add(GameRecord.make(9, 9, 10, won=True, time=5.0, name="plain"))
        store.add(GameRecord.make(16, 16, 40, won=True, time=6.0, name="山田太郎"))
    # Another program writes an escape sequence into a name.
    conn = sqlite3.connect(tmp_path / "records.sqlite3")
    conn.execute("UPDATE games SET name = ? WHERE id = 1", ("\x1b[2J\x1b]0;pwned\x07evil",))
    conn.commit()
    conn.close()
    assert cli_main(["records", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[2J" in out
    best = out.split("\n\n")[0].splitlines()[1:]     # the best-times table, heading first
    assert len(best) == 3 and "\\x1b[2J" in best[1] and "山田太郎" in best[2]
    # Both rows take as many terminal columns, whatever the name's characters.
    assert width(best[1]) == width(best[2])


def test_width_and_fit():
    assert width("山田") == 4 and width("abc") == 3
    assert fit("山田太郎山田太郎山", 16) == "山田太郎山田太郎"
    assert width(fit("山田太郎山田太郎山", 15)) == 15
    assert printable("a\x00b\tc") == "a\\x00b\\tc"
    wide = GameRecord.make(9, 9, 10, won=True, time=5.0, name="太郎", date="2026-01-01")
    narrow = GameRecord.make(9, 9, 10, won=True, time=5.0, name="Ann", date="2026-01-01")
    _, a, b = format_best_times([wide, narrow], labels=False)
    assert width(a) == width(b)
