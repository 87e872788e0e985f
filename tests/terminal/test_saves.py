"""Saved games and the storage helpers: round trip, atomic writes, corrupt and newer files."""

from __future__ import annotations

import json

import pytest

import fastmine
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.files import savedgame, storage


class FakeClock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _game_in_progress(clock=None) -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=11, clock=clock or FakeClock())
    g.reveal(4, 4)
    hidden = [(r, c) for r in range(9) for c in range(9) if g.view[r, c] == fastmine.HIDDEN]
    g.toggle_mark(*hidden[0])
    g.toggle_mark(*hidden[1])
    g.toggle_mark(*hidden[1])  # a question mark
    g.assisted = True
    return g


def test_round_trip(tmp_path):
    clock = FakeClock()
    g = _game_in_progress(clock)
    clock.t += 42.5
    path = savedgame.save_game(g, data_dir=tmp_path)
    assert path == tmp_path / savedgame.SAVE_FILE
    back = savedgame.load_game(data_dir=tmp_path, clock=clock)
    assert (back.view == g.view).all()
    assert back.state is fastmine.GameState.PLAYING
    assert back.elapsed == pytest.approx(42.5)
    assert back.mines_left == 9 and back.assisted
    assert (back.board.mines == g.board.mines).all()
    # The resumed game plays on to the same result as the original.
    for r in range(9):
        for c in range(9):
            if g.board.mines[r, c] or g.view[r, c] >= 0:
                continue
            for game in (g, back):
                while game.view[r, c] == fastmine.FLAG:
                    game.toggle_mark(r, c)
                game.reveal(r, c)
    assert g.state is back.state is fastmine.GameState.WON
    assert savedgame.delete_save(data_dir=tmp_path) is True
    assert savedgame.delete_save(data_dir=tmp_path) is False
    assert savedgame.load_game(data_dir=tmp_path) is None


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    savedgame.save_game(_game_in_progress(), data_dir=tmp_path)
    savedgame.save_game(_game_in_progress(), data_dir=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [savedgame.SAVE_FILE]


@pytest.mark.parametrize("content", [
    b"{not json",
    b"\xff\xfe garbage",
    b"[1, 2, 3]",
    json.dumps({"format": "fastmine-game", "version": 1, "rows": 9}).encode(),
])
def test_corrupt_save_is_an_error_and_never_overwritten(tmp_path, content):
    path = tmp_path / savedgame.SAVE_FILE
    path.write_bytes(content)
    with pytest.raises(fastmine.SaveFormatError) as err:
        savedgame.load_game(data_dir=tmp_path)
    assert str(path) in str(err.value)
    with pytest.raises(fastmine.SaveFormatError, match="not replacing"):
        savedgame.save_game(_game_in_progress(), data_dir=tmp_path)
    assert path.read_bytes() == content


def test_newer_save_is_refused(tmp_path):
    d = _game_in_progress().to_dict()
    d["version"] = 99
    path = tmp_path / savedgame.SAVE_FILE
    path.write_text(json.dumps(d))
    before = path.read_bytes()
    with pytest.raises(fastmine.FutureVersionError, match="newer"):
        savedgame.load_game(data_dir=tmp_path)
    with pytest.raises(fastmine.FutureVersionError):
        savedgame.save_game(_game_in_progress(), data_dir=tmp_path)
    assert path.read_bytes() == before


def test_move_aside_keeps_the_bytes(tmp_path):
    path = tmp_path / savedgame.SAVE_FILE
    path.write_bytes(b"junk")
    first = savedgame.move_aside(data_dir=tmp_path)
    path.write_bytes(b"more junk")
    second = savedgame.move_aside(data_dir=tmp_path)
    assert first != second and not path.exists()
    assert first.read_bytes() == b"junk" and second.read_bytes() == b"more junk"
    assert first.name.startswith("saved-game.json.corrupt-")


def test_session_moves_a_corrupt_save_aside_with_a_message(tmp_path):
    (tmp_path / savedgame.SAVE_FILE).write_bytes(b"{broken")
    s = Session(GameOptions(), data_dir=tmp_path)
    game, msg = s.check_save()
    (aside,) = tmp_path.glob("saved-game.json.corrupt-*")
    assert game is None and msg == f"Saved game was unreadable; kept it as {aside.name}"
    assert "is corrupt (not JSON" in s.notes[0] and str(aside) in s.notes[0]
    assert aside.read_bytes() == b"{broken"


def test_session_keeps_a_newer_save_and_does_not_overwrite_it(tmp_path):
    d = _game_in_progress().to_dict()
    d["version"] = 99
    path = tmp_path / savedgame.SAVE_FILE
    path.write_text(json.dumps(d))
    before = path.read_bytes()
    s = Session(GameOptions(seed=3), data_dir=tmp_path)
    game, msg = s.check_save()
    assert game is None and "newer" in msg
    s.reveal(4, 4)
    assert "not saved" in s.save_on_quit()
    assert path.read_bytes() == before


def test_session_save_resume_cycle(tmp_path):
    s = Session(GameOptions(seed=3), data_dir=tmp_path, use_records=False)
    assert s.save_on_quit() is None  # nothing started: nothing saved
    assert not (tmp_path / savedgame.SAVE_FILE).exists()
    s.reveal(4, 4)
    s.mark(0, 0)
    assert "saved" in s.save_on_quit()
    s2 = Session(GameOptions(), data_dir=tmp_path, use_records=False)
    game, msg = s2.check_save()
    assert msg is None and game is not None
    s2.resume(game)
    assert int(s2.game.view[0, 0]) == fastmine.FLAG
    s2.new_game()  # abandoning the resumed game removes its save
    assert not (tmp_path / savedgame.SAVE_FILE).exists()


def test_data_dir_order(tmp_path, monkeypatch):
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path / "env"))
    assert storage.data_dir() == tmp_path / "env"
    assert storage.data_dir(tmp_path / "arg") == tmp_path / "arg"
    monkeypatch.delenv(storage.ENV_DATA_DIR)
    import platformdirs
    assert storage.data_dir() == __import__("pathlib").Path(
        platformdirs.user_data_dir("fastmine", appauthor=False))
    made = storage.data_dir(tmp_path / "new" / "dir", create=True)
    assert made.is_dir()


def test_atomic_write_failure_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "f.txt"
    storage.atomic_write_text(path, "old")

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(storage.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        storage.atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_atomic_write_gives_normal_permissions_and_keeps_existing_ones(tmp_path):
    """A new file gets what open() would give (umask), not mkstemp's private 0600;
    a rewrite keeps the mode the file already had."""
    import os
    import stat

    old = os.umask(0o022)
    try:
        path = tmp_path / "results.json"
        storage.atomic_write_text(path, "{}")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        os.chmod(path, 0o600)
        storage.atomic_write_text(path, "{}")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    finally:
        os.umask(old)
