"""Every real game comes in (issue 32, section 5): a video whose first mouse
events go back in time (10 ms, then 0 ms, as in a real won Arbiter Expert
game) is imported and analysed with its real result and time; a player's
name that is not valid UTF-8 is read with replacement characters, and said
once, by ``fastmine analyze`` and ``fastmine replay --import``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from fastmine import cli
from fastmine.records import RecordsStore
from fastmine.replay.fromvideo import import_video
from fastmine.videos import play_video, read_video
from fastmine.videos.rebuild import timed_moves
from tests.videos.video_files import DATA, NOT_UTF8

NOTE = "not valid UTF-8, shown with replacement characters"


def _back_in_time(name: str) -> bytes:
    """An Arbiter video whose first event is at 10 ms and the second at 0 ms."""
    data = bytearray((DATA / name).read_bytes())
    header = re.search(rb"\[\d\|", data)
    assert header is not None
    close_at = data.index(b"]", header.start())
    first = re.compile(rb"[\x00\x01]\x01").search(data, close_at + 2)
    assert first is not None
    start = first.start() - 1
    assert data[start + 4] == 0 and data[start + 12] == 0      # both at 0 ms
    data[start + 4] = 1                                        # the first: 10 ms
    return bytes(data)


@pytest.mark.parametrize("name", ["arbiter_beg.avf", "arbiter_exp_lost.avf"])
def test_times_that_go_back_are_imported_with_the_real_result_and_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    """Old code: 'the mouse path's times must go forward' (or 'times go
    backwards' from the moves), exit 2 and nothing recorded."""
    odd = tmp_path / name
    odd.write_bytes(_back_in_time(name))
    video = read_video(odd)
    assert video.events.time_ms[:2].tolist() == [10, 0]
    play = play_video(video)
    original = play_video(read_video(DATA / name))
    assert (play.outcome, play.time_ms) == (original.outcome, original.time_ms)
    code = cli.main(["replay", "--import", str(odd), "--data-dir", str(tmp_path / "data"),
                     "--timeline", "--speed", "0", "--no-coach"])
    out, err = capsys.readouterr()
    assert code == 0, err
    with RecordsStore(tmp_path / "data" / "records.sqlite3", create=False) as store:
        (record,) = store.games()
        replay = store.replay(record.id)
    assert record.won == (original.outcome == "won")
    assert record.time == pytest.approx(original.time_ms / 1000)
    assert replay is not None and replay.mouse is not None
    assert (np.diff(replay.mouse[:, 0]) >= 0).all()
    assert len(replay.mouse) == len(video.events)
    # the game itself is the original's, move for move
    good = import_video((DATA / name).read_bytes(), name)
    assert replay.play().view.tolist() == good.game.view.tolist()
    assert replay.time == pytest.approx(good.replay.time)
    code = cli.main(["analyze", str(odd), str(DATA / name), "--json", "-"])
    out, err = capsys.readouterr()
    assert code == 0, err
    a, b = json.loads(out)["games"]
    assert {k: v for k, v in a.items() if k != "file"} == {
        k: v for k, v in b.items() if k != "file"}


def test_timed_moves_never_go_back() -> None:
    play = play_video(read_video(_back_in_time("arbiter_exp_lost.avf")))
    times = [m[3] for m in timed_moves(play)]
    assert times == sorted(times)
    assert times == [min([t, *times[i + 1:]]) for i, t in enumerate(times)]
    good = timed_moves(play_video(read_video(DATA / "arbiter_exp_lost.avf")))
    assert timed_moves(play) == good          # the one move at 10 ms is back at 0


def test_a_name_that_is_not_utf8_is_analysed_and_said_once(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Old code: 'the player's name is not valid UTF-8', the game lost, exit 1."""
    for name, player in NOT_UTF8.items():
        code = cli.main(["analyze", str(DATA / name)])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert f"Viennasweeper 5.0.0a2, {player}; " in out
        assert err.count(NOTE) == 1 and "the player's name" in err


def test_a_name_that_is_not_utf8_is_imported_and_said_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, player in NOT_UTF8.items():
        code = cli.main(["replay", "--import", str(DATA / name), "--data-dir", str(tmp_path),
                         "--timeline", "--speed", "0", "--no-coach"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert err.count(NOTE) == 1 and f"player {player}," in err
        with RecordsStore(tmp_path / "records.sqlite3", create=False) as store:
            assert [g.name for g in store.games()] == [player]


def test_an_evf4_name_that_is_not_utf8_keeps_its_game(tmp_path: Path) -> None:
    data = (DATA / "meta_v4_beg_pause.evf").read_bytes()
    name = "匿".encode()
    assert data.count(b"\0" + name + b"\0") == 1
    odd = data.replace(b"\0" + name + b"\0", b"\0\xff\xfe\xfd\0")
    video = read_video(odd, name="odd.evf")
    good = read_video(data, name="good.evf")
    assert video.player == "\ufffd" * 3 and good.player == "匿"
    assert video.details["not_utf8"] == "the player's name" and len(video.notes) == 1
    assert play_video(video).time_ms == play_video(good).time_ms
