"""Saves killed mid-write (kill -9 of real processes): the save is always the old or
the new one, and the temporary files of killed writes are gone by the next write or
start, while a writer at work in another process keeps its own."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fastmine
from fastmine.files import savedgame, writing

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs kill -9")

SRC = Path(fastmine.__file__).resolve().parents[1]

# Saves a game in a loop (a 100x100 game: a save of about 30 KB, so a kill lands
# inside a write as often as not); says "ready" once it has saved once.
WRITER = """
import sys
import fastmine
from fastmine.files import savedgame
game = fastmine.Game(100, 100, 1000, seed=int(sys.argv[2]))
game.reveal(50, 50)
savedgame.save_game(game, data_dir=sys.argv[1])
print("ready", flush=True)
while True:
    try:
        savedgame.save_game(game, data_dir=sys.argv[1])
    except Exception as exc:
        print("error", type(exc).__name__, exc, flush=True)
"""


def _writer(folder: Path, seed: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(seed)],
                            stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(SRC)))
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    return proc


def _temps(folder: Path) -> list[Path]:
    return sorted(folder.glob(f".{savedgame.SAVE_FILE}.*.tmp"))


def _wait_for_a_temporary_file(folder: Path) -> None:
    deadline = time.monotonic() + 10
    while not _temps(folder) and time.monotonic() < deadline:
        pass


@pytest.mark.parametrize("kills", [6, pytest.param(25, marks=pytest.mark.slow)])
def test_kill_9_during_saves_leaves_no_temporary_file_after_the_next_write(tmp_path, kills):
    rng = random.Random(23)
    saved = {seed: fastmine.Game(100, 100, 1000, seed=seed) for seed in range(3)}
    for g in saved.values():
        g.reveal(50, 50)
    cells = {seed: g.to_dict()["cells"] for seed, g in saved.items()}
    left = 0
    for kill in range(kills):
        seed = kill % 3
        proc = _writer(tmp_path, seed)
        if kill % 2:
            time.sleep(rng.uniform(0.0, 0.3))       # any moment
        else:
            _wait_for_a_temporary_file(tmp_path)    # inside a write
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        left += bool(_temps(tmp_path))
        # the save is whole: the one this writer or the one before wrote
        assert savedgame.load_game(data_dir=tmp_path).to_dict()["cells"] == cells[seed]
        # ...and loading it (a start) took away what the killed write left
        assert _temps(tmp_path) == []
    # A write removes them too (without a start in between).
    for _ in range(3):
        proc = _writer(tmp_path, 0)
        time.sleep(rng.uniform(0.05, 0.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    savedgame.save_game(saved[1], data_dir=tmp_path)
    assert _temps(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [savedgame.SAVE_FILE]
    assert left >= 1        # some kills did land inside a write (the test tests something)


def test_two_writers_at_work_never_take_each_others_temporary_files(tmp_path):
    writers = [_writer(tmp_path, 0), _writer(tmp_path, 0)]
    time.sleep(2.0)
    for proc in writers:
        proc.send_signal(signal.SIGKILL)
    outs = [proc.communicate()[0] for proc in writers]
    assert all("error" not in out for out in outs), outs
    savedgame.load_game(data_dir=tmp_path)
    assert _temps(tmp_path) == []


def test_a_locked_temporary_file_is_kept_an_unlocked_one_goes(tmp_path):
    if writing._flock(os.open(tmp_path, os.O_RDONLY), wait=False) is None:
        pytest.skip("no file locks here")
    target = tmp_path / "saved-game.json"
    fd, busy = writing._locked_temp(target)         # a writer at work: holds the lock
    try:
        dead = tmp_path / ".saved-game.json.k1ll3d00.tmp"
        dead.write_text("half")                     # a killed writer's: nobody locks it
        assert writing.remove_stale_temp_files(target) == [dead]
        assert Path(busy).exists()
    finally:
        os.close(fd)
    assert writing.remove_stale_temp_files(target) == [Path(busy)]


def test_only_our_temporary_files_go(tmp_path):
    target = tmp_path / "saved-game.json"
    ours = tmp_path / ".saved-game.json.abcd1234.tmp"
    keep = [tmp_path / ".records.sqlite3.abcd1234.tmp",        # another file's
            tmp_path / ".saved-game.json.notours.tmp",          # not mkstemp's 8 letters
            tmp_path / ".saved-game.json.abcd12345.tmp",
            tmp_path / "saved-game.json.abcd1234.tmp",          # no leading dot
            tmp_path / ".saved-game.json.abcd1234.tmp~",
            tmp_path / ".saved-game.jsonXabcd1234.tmp",
            tmp_path / "keep-me"]
    for p in (ours, *keep):
        p.write_text("x")
    (tmp_path / ".saved-game.json.dir00000.tmp").mkdir()       # a folder
    (tmp_path / ".saved-game.json.link0000.tmp").symlink_to(tmp_path / "keep-me")
    if os.geteuid() == 0:                                       # another user's file
        theirs = tmp_path / ".saved-game.json.their000.tmp"
        theirs.write_text("x")
        os.chown(theirs, 12345, 12345)
        keep.append(theirs)
    savedgame.save_game(fastmine.Game(9, 9, 10), target)
    assert not ours.exists()
    assert all(p.exists() for p in keep)
    assert (tmp_path / ".saved-game.json.dir00000.tmp").is_dir()
    assert (tmp_path / ".saved-game.json.link0000.tmp").is_symlink()
