"""The mouse path a replay keeps from a video: the file's version 3 field, its
caps and corrupt forms, the buttons held, and the terminal player's pointer."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine.cli.replayplayer import Cursor, button_mark, pointer_words
from fastmine.errors import FutureVersionError, SaveFormatError
from fastmine.replay import REPLAY_VERSION, Replay
from fastmine.replay import mousepath as mp
from fastmine.replay.fromvideo import import_video
from tests.videos.video_files import DATA, EXPECTED

from .ptyscreen import PtyScreen

READABLE = sorted(n for n in EXPECTED if "invalid" not in n)


def _imported(name):
    return import_video((DATA / name).read_bytes(), name)


@pytest.mark.parametrize("name", READABLE)
def test_the_replay_keeps_the_videos_mouse_path(name):
    iv = _imported(name)
    ev, mouse = iv.video.events, iv.replay.mouse
    assert mouse is not None and len(mouse) == len(ev)
    assert np.array_equal(mouse[:, 0], ev.time_ms - iv.play.start_ms)
    # the video's own pixels, its cell size the path's unit
    unit = iv.replay.mouse_unit
    assert unit == iv.video.cell_size
    assert np.array_equal(mouse[:, 1], ev.x) and np.array_equal(mouse[:, 2], ev.y)
    assert np.array_equal(mouse[:, 3], ev.kind)
    # the pointer at each click's event is over the clicked cell
    for m in iv.play.moves:
        if m.row >= 0:
            x, y = int(mouse[m.event, 1]), int(mouse[m.event, 2])
            assert (y // unit, x // unit) == (m.row, m.col)
    data = iv.replay.to_bytes()
    # version 3 (older fastmines read it) where the unit is its sixteenths of a cell
    assert json.loads(data)["version"] == (3 if unit == 16 else 4) and REPLAY_VERSION == 4
    assert Replay.from_bytes(data) == iv.replay


def test_a_replay_without_a_path_is_still_version_2_and_old_files_load():
    iv = _imported("vienna1_beg.rmv")
    plain = Replay(iv.replay.mines, iv.replay.rule, iv.replay.moves, iv.replay.state,
                   iv.replay.time, iv.replay.question_marks)
    d = json.loads(plain.to_bytes())
    assert d["version"] == 2 and "mouse" not in d
    assert Replay.from_bytes(plain.to_bytes()) == plain != iv.replay


def _file(replay, **changes):
    d = json.loads(replay.to_bytes())
    d.update(changes)
    return json.dumps(d).encode()


def test_a_newer_replay_is_refused_clearly():
    iv = _imported("vienna1_beg.rmv")
    with pytest.raises(FutureVersionError, match="newer fastmine"):
        Replay.from_bytes(_file(iv.replay, version=REPLAY_VERSION + 1))


def _packed(arr):
    return mp.encode(np.asarray(arr, np.int32))


@pytest.mark.parametrize("changes, words", [
    ({"mouse_count": 2**22 + 1}, "mouse_count"),
    ({"mouse_count": -1}, "mouse_count"),
    ({"mouse_count": "12"}, "mouse_count"),
    ({"mouse": 7}, "must be a string"),
    ({"mouse": "A" * 10_000, "mouse_count": 2}, "longer"),
    ({"mouse": "!!!!"}, "base64"),
    ({"mouse": "AAAA", "mouse_count": 1}, "corrupt"),
    ({"mouse": _packed([[0, 0, 0, 0]] * 3), "mouse_count": 2}, "more than"),
    ({"mouse": _packed([[0, 0, 0, 0]]), "mouse_count": 2}, "holds 1 events"),
    ({"mouse": _packed([[5, 0, 0, 0], [4, 0, 0, 0]]), "mouse_count": 2}, "go forward"),
    ({"mouse": _packed([[0, 0, 0, 12]]), "mouse_count": 1}, "kind"),
    ({"mouse": _packed([[0, 2**21, 0, 0]]), "mouse_count": 1}, "place"),
])
def test_a_corrupt_mouse_path_is_one_clear_error(changes, words):
    iv = _imported("vienna1_beg.rmv")
    with pytest.raises(SaveFormatError, match=words):
        Replay.from_bytes(_file(iv.replay, **changes))


def test_a_zip_bomb_path_is_cut_at_its_count():
    import base64
    import zlib

    bomb = base64.b64encode(zlib.compress(b"\0" * (16 * 1000 * 1000), 9)).decode()
    iv = _imported("vienna1_beg.rmv")
    with pytest.raises(SaveFormatError):
        Replay.from_bytes(_file(iv.replay, mouse=bomb, mouse_count=10))


def _held_reference(kinds):
    left = right = middle = False
    out = []
    for k in kinds:
        if k in (1, 8):
            left = True
        if k in (3, 8):
            right = True
        if k == 2:
            left = False
        if k == 4:
            right = False
        if k == 5:
            middle = True
        if k == 6:
            middle = False
        if k == 9:
            left = not left
        if k == 10:
            right = not right
        if k == 11:
            middle = not middle
        out.append(int(left) | 2 * int(right) | 4 * int(middle))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 11), max_size=60))
def test_buttons_held_match_a_plain_reference(kinds):
    mouse = mp.check_mouse(np.array([[i, 0, 0, k] for i, k in enumerate(kinds)],
                                    np.int32).reshape(-1, 4))
    assert mp.buttons_held(mouse).tolist() == _held_reference(kinds)


def test_the_cursor_follows_the_path_between_moves():
    iv = _imported("arbiter_beg.avf")
    cur = Cursor(iv.replay)
    mouse = iv.replay.mouse
    assert cur.ms == min(0, int(mouse[0, 0]))
    cur.goto(1)
    first = iv.play.moves[0]
    assert cur.ms == iv.replay.moves[0, 3]
    assert cur.pointer()[:2] == (first.row, first.col)
    assert pointer_words(cur).startswith(f"  mouse row {first.row + 1}, col {first.col + 1}")
    # half-way to the next move the pointer is where the path says
    mid = (iv.replay.moves[0, 3] + iv.replay.moves[1, 3]) / 2
    cur.ms = mid
    i = int(np.searchsorted(mouse[:, 0], mid, side="right")) - 1
    assert cur.pointer()[:2] == (int(mouse[i, 2]) // 16, int(mouse[i, 1]) // 16)
    assert [button_mark(b) for b in (1, 2, 3, 4, 0)] == ["L", "R", "B", "M", ""]
    assert pointer_words(Cursor(Replay.from_bytes(
        _file(iv.replay, version=2)))) == ""      # no path: nothing said


def test_the_terminal_player_shows_the_mouse(tmp_path):
    t = PtyScreen(["replay", "--import", str(DATA / "arbiter_beg.avf"), "--speed", "0",
                   "--no-coach"], env={"FASTMINE_DATA_DIR": str(tmp_path)})
    try:
        t.wait_for("q quit")
        t.send("l")
        t.wait_for("move 1/36")
        t.wait_for("mouse row ")
        t.send("$")
        t.wait_for("move 36/36")
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()
