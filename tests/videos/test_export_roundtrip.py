"""Exports that keep the game: every test video, imported and exported with
``fastmine replay --export ID X.evf``, reads back as the same game, in fastmine
and in ms-toollib (the oracle, tests only): outcome, time, board, every click
count, every metric, the mouse path, the cell size, the date and its zone."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timezone

import numpy as np
import pytest

from fastmine import cli
from fastmine.errors import SaveFormatError
from fastmine.records import RecordsStore
from fastmine.replay import Replay
from fastmine.replay.fromvideo import import_video
from fastmine.replay.toevf import to_evf
from fastmine.videos import EventKind, play_video, read_video
from fastmine.videos.rebuild import video_stats
from tests.videos.video_files import BAD, DATA, EXPECTED, NOT_UTF8, ORACLE_READS

# every test video fastmine reads, the one whose name is not UTF-8 among them
READABLE = sorted(n for n in [*EXPECTED, *NOT_UTF8] if n not in BAD)
_CLASSES = {"avf": "AvfVideo", "rmv": "RmvVideo", "mvf": "MvfVideo", "evf": "EvfVideo"}


def _imported(name):
    return import_video((DATA / name).read_bytes(), name)


def _exported(tmp_path, name):
    """The video imported into a fresh records folder and exported, both by the
    command (``replay --import FILE``, ``replay --export last X.evf``)."""
    data = tmp_path / "data"
    assert cli.main(["replay", "--import", str(DATA / name), "--data-dir", str(data)]) == 0
    with RecordsStore(data / "records.sqlite3") as store:
        assert len(store.replay_ids()) == 1
    out = tmp_path / f"{name}.evf"
    assert cli.main(["replay", "--export", "last", str(out), "--data-dir", str(data)]) == 0
    return _imported(name), out


def _same_game(before, play, after, again):
    """``after`` (read back) holds ``before``'s game, with ``play`` and ``again`` their plays."""
    assert np.array_equal(after.mine_layout, before.mine_layout)
    assert (after.rows, after.cols, after.mines) == (before.rows, before.cols, before.mines)
    assert after.cell_size == before.cell_size
    assert again.outcome == play.outcome and again.time_ms == play.time_ms
    counts = ("left", "right", "double", "left_effective", "right_effective",
              "double_effective", "bbbv_solved", "flags")
    assert [getattr(again, c) for c in counts] == [getattr(play, c) for c in counts]
    assert [m[1:] for m in again.moves] == [m[1:] for m in play.moves]
    # every metric, the mouse path's length (in 16-pixel cells) among them
    assert dataclasses.asdict(video_stats(after, again)) == dataclasses.asdict(
        video_stats(before, play))
    # the path point for point: its times (from the first event), kinds and places
    # on the board; a point off the board stays off it
    a, b = before.events, after.events
    assert len(a) == len(b)
    assert np.array_equal(b.time_ms - b.time_ms[0], a.time_ms - a.time_ms[0])
    assert np.array_equal(a.kind, b.kind)
    assert np.array_equal(a.row, b.row) and np.array_equal(a.col, b.col)
    on = a.row >= 0
    assert np.array_equal(a.x[on], b.x[on]) and np.array_equal(a.y[on], b.y[on])


@pytest.mark.parametrize("name", READABLE)
def test_every_test_video_comes_back_the_same_game(tmp_path, name):
    iv, out = _exported(tmp_path, name)
    back = read_video(out)
    _same_game(iv.video, iv.play, back, play_video(back))
    assert back.player == iv.video.player
    assert back.software == iv.video.software        # so its clicks count as the client's
    # the date in the zone the source gave: naive local time stays naive, UTC stays UTC
    assert back.date == iv.video.date
    assert (back.date is None or back.date.tzinfo is None) == (
        iv.video.date is None or iv.video.date.tzinfo is None)
    again = import_video(out.read_bytes(), out.name)
    assert again.replay.mouse_unit == iv.replay.mouse_unit
    assert again.game.view.tolist() == iv.game.view.tolist()
    assert again.game.state is iv.game.state


ms = pytest.importorskip("ms_toollib")


def _oracle(path, cls="EvfVideo"):
    o = getattr(ms, cls)(str(path))
    o.parse()
    o.analyse()
    o.current_time = 1e9
    return {k: getattr(o, k) for k in (
        "row", "column", "mine_num", "bbbv", "rtime_ms", "left", "right", "double", "lce",
        "rce", "dce", "bbbv_solved", "is_completed", "pix_size", "flag")} | {
        "path": round(o.path, 6), "board": np.asarray(o.board).tolist()}


@pytest.mark.parametrize("name", READABLE)
def test_ms_toollib_reads_the_export_as_the_original(tmp_path, name):
    """ms-toollib reads every export; where it reads the original too, the same
    values, the mouse path's length included; where not (Clone before 0.97),
    what fastmine counts by ms-toollib's rules."""
    iv, out = _exported(tmp_path, name)
    theirs = _oracle(out)
    if name in ORACLE_READS:
        assert theirs == _oracle(DATA / name, _CLASSES[name[-3:]])
    p = play_video(read_video(out), question_marks=False, count_chord_right_press=False)
    assert (theirs["left"], theirs["right"], theirs["double"], theirs["lce"], theirs["rce"],
            theirs["dce"], theirs["bbbv_solved"]) == (
        p.left, p.right, p.double, p.left_effective, p.right_effective, p.double_effective,
        p.bbbv_solved)
    assert theirs["rtime_ms"] == p.time_ms and theirs["pix_size"] == iv.video.cell_size


def test_a_release_above_the_board_stays_off_it():
    """A left press and release at y = -1 over a hidden mine of row 1, in a won
    game: clamped onto row 1 it was a click on the mine, and the exported game lost."""
    iv = _imported("vienna2_preflags.rmv")
    rep, unit = iv.replay, iv.video.cell_size       # 16 pixels
    col = int(np.flatnonzero(rep.mines[0])[0])
    at = int(np.searchsorted(rep.mouse[:, 0], 1, side="right"))   # after the first reveal
    ms_ = int(rep.mouse[at - 1, 0])
    x = col * unit + unit // 2
    extra = np.array([[ms_, x, -1, EventKind.LEFT_DOWN], [ms_, x, -1, EventKind.LEFT_UP]])
    mouse = np.vstack([rep.mouse[:at], extra, rep.mouse[at:]])
    replay = dataclasses.replace(rep, mouse=mouse)
    back = read_video(to_evf(replay), "evf")
    play = play_video(back)
    assert play.outcome == "won" and play.time_ms == iv.play.time_ms
    release = np.flatnonzero((back.events.kind == EventKind.LEFT_UP) & (back.events.row < 0))
    assert len(release) >= 1 and (back.events.y[release] >= back.rows * unit).all()
    assert play.left == iv.play.left + 1          # the click off the board still counts


def test_a_clone_game_keeps_the_clients_counts_and_ioe():
    """Clone counts a chord's right press; Metasweeper's rules would not (IOE up)."""
    iv = _imported("clone_097_counts.mvf")
    back = read_video(to_evf(iv.replay, software=iv.software), "evf")
    play = play_video(back)
    assert (play.left, play.right, play.double) == (100, 50, 69)       # the file's own counts
    assert video_stats(back, play).ioe == video_stats(iv.video, iv.play).ioe
    no_software = play_video(read_video(to_evf(iv.replay), "evf"))
    assert no_software.right == 37                          # counted as Metasweeper counts


@pytest.mark.parametrize("name", ["vienna2_beg_24px.rmv", "meta_v3_exp.evf",
                                  "meta_v4_custom_lost.evf"])
def test_cells_not_16_pixels_keep_their_size_and_path(name):
    iv = _imported(name)
    back = read_video(to_evf(iv.replay), "evf")
    assert back.cell_size == iv.video.cell_size != 16
    assert video_stats(back, play_video(back)).path == video_stats(iv.video, iv.play).path


def test_dates_keep_their_zone_or_are_left_out():
    iv = _imported("arbiter_beg.avf")
    local = datetime(2021, 5, 22, 16, 39, 5)
    utc = datetime(2021, 5, 22, 16, 39, 5, tzinfo=timezone.utc)
    assert read_video(to_evf(iv.replay, date=local, software=iv.software), "evf").date == local
    # an aware date cannot be said in Arbiter's local time: left out, not relabelled
    assert read_video(to_evf(iv.replay, date=utc, software=iv.software), "evf").date is None
    assert read_video(to_evf(iv.replay, date=utc), "evf").date == utc
    assert read_video(to_evf(iv.replay, date=local), "evf").date is None
    assert read_video(to_evf(iv.replay, date="2021-05-22T16:39:05+02:00"), "evf").date == \
        datetime(2021, 5, 22, 14, 39, 5, tzinfo=timezone.utc)


def test_the_replay_file_keeps_the_unit():
    iv = _imported("vienna2_beg_24px.rmv")
    again = Replay.from_bytes(iv.replay.to_bytes())
    assert again == iv.replay and again.mouse_unit == 24
    with pytest.raises(ValueError, match="unit"):
        dataclasses.replace(iv.replay, mouse_unit=0)
    d = json.loads(iv.replay.to_bytes())
    assert d["version"] == 4 and d["mouse_unit"] == 24
    for bad in (0, 256, "24", True, 2.5):
        with pytest.raises(SaveFormatError, match="mouse_unit"):
            Replay.from_bytes(json.dumps(d | {"mouse_unit": bad}).encode())


def test_a_path_that_starts_with_a_release_starts_with_a_move():
    """EVF 4 starts with a move, a press or a laid flag (ms-toollib aborts on
    anything else): a path that starts otherwise gets a move to its place first."""
    iv = _imported("vienna2_preflags.rmv")
    rep = iv.replay
    ms0, x0, y0 = (int(v) for v in rep.mouse[0, :3])
    lead = np.array([[ms0, x0, y0, EventKind.MIDDLE_UP], [ms0, x0, y0, EventKind.MOVE]])
    replay = dataclasses.replace(rep, mouse=np.vstack([lead, rep.mouse]))
    back = read_video(to_evf(replay), "evf")
    ev = back.events
    assert ev.kind[0] == EventKind.MOVE and (int(ev.x[0]), int(ev.y[0])) == (x0, y0)
    assert np.array_equal(ev.kind[1:], replay.mouse[:, 3])
    assert np.array_equal(ev.time_ms[1:] - ev.time_ms[0], replay.mouse[:, 0] - ms0)
    assert play_video(back).outcome == "won"
