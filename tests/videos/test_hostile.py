"""Truncated, corrupt and hostile videos: one documented error (VideoFormatError,
naming the file and what is wrong), refused before anything large is allocated;
and mutated real files, by hypothesis, give nothing else."""

from __future__ import annotations

import contextlib
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from make_videos import click, evf0, evf4
from video_files import BAD, EXPECTED, NOT_UTF8, path

from fastmine.videos import VideoFormatError, play_video, read_video
from fastmine.videos.clientrules import ClientBoard
from fastmine.videos.model import MAX_EVENT_RATE

_DATA = {name: path(name).read_bytes() for name in [*EXPECTED, *BAD, *NOT_UTF8]}


def _refused(data: bytes, name: str, words: str, **kw: str) -> VideoFormatError:
    with pytest.raises(VideoFormatError) as err:
        read_video(data, name=name, **kw)
    assert words in str(err.value), str(err.value)
    assert str(err.value).startswith(f"{name}: ")
    assert err.value.__cause__ is None          # raised by the reader's own checks
    return err.value


def _peak(fn, *args):  # type: ignore[no-untyped-def]
    """Peak bytes allocated (numpy's included) while ``fn`` runs."""
    tracemalloc.start()
    with contextlib.suppress(VideoFormatError):
        fn(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_truncation_of_the_header_is_refused(name: str) -> None:
    data = _DATA[name]
    fmt = name.rsplit(".", 1)[1]
    for cut in range(0, min(len(data), 300), 7):
        with pytest.raises(VideoFormatError) as err:
            read_video(data[:cut], format=fmt, name=name)
        assert err.value.__cause__ is None


def test_truncated_event_lists_are_refused() -> None:
    for name in sorted(EXPECTED):
        data = _DATA[name]
        cut = len(data) - max(len(data) // 3, 40)
        err = _refused(data[:cut], name, "", format=name.rsplit(".", 1)[1])
        assert err.offset is not None


def test_huge_mine_count_is_refused_before_reading_mines() -> None:
    # Arbiter custom: 256 x 256 with 65535 mines claimed in a 20-byte file.
    data = bytes([52, 0, 0, 0, 0, 6, 255, 255, 255, 255]) + bytes(10)
    _refused(data, "big.avf", "the file ends inside the 65535 mines", format="avf")
    # More mines than cells.
    data = bytes([52, 0, 0, 0, 0, 6, 1, 1, 0, 9]) + bytes(40)
    _refused(data, "full.avf", "9 mines do not fit on a 2x2 board", format="avf")


def test_mines_off_the_board_or_twice_are_refused() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    data = bytearray(_DATA["arbiter_beg.avf"])
    data[6:8] = bytes([9, 1])                              # row 9 of 8
    _refused(bytes(data), "a.avf", "outside the 8x8 board", format="avf")
    data = bytearray(_DATA["arbiter_beg.avf"])
    data[8:10] = data[6:8]                                 # the first mine twice
    _refused(bytes(data), "a.avf", "names a cell twice", format="avf")


def test_hostile_event_count_is_refused_before_allocation() -> None:
    # Clone 2006/2007 state their event count: claim 16 million 6-byte events.
    data = bytearray(_DATA["clone_2006.mvf"])
    name_len_at = 71 + 7 + 2 + 3 + 1 + 4 + 2 * 99
    count_at = name_len_at + 1 + data[name_len_at] + 2
    data[count_at:count_at + 3] = b"\xff\xff\xff"
    _refused(bytes(data), "c.mvf", "16777215 events of 6 bytes do not fit")
    peak = _peak(read_video, bytes(data))
    assert peak < 20 * len(data) + 2**20


def test_more_events_than_a_mouse_makes_are_refused() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    n = 20_000 + MAX_EVENT_RATE + 100          # all within one second
    events = [(1, i * 1000 // n, 40, 40) for i in range(n)]
    _refused(evf0(mines, events), "fast.evf", "more than a mouse makes")
    # The same number spread over ten seconds is a (busy) real game.
    events = [(1, i * 10_000 // n, 40, 40) for i in range(n)]
    assert len(read_video(evf0(mines, events)).events) == n


def test_time_beyond_the_clock_is_refused() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    move = bytes([1, 0, 0, 40, 0, 40])
    pause = bytes([255, 255, 255])                     # 65.5 s more before the next event
    ok = read_video(evf4(mines, move + pause * 100 + move))
    assert int(ok.events.time_ms[-1]) == 100 * 65535
    _refused(evf4(mines, move + pause * 40_000 + move), "x.evf", "is outside 0..")


def test_unknown_event_codes_and_versions() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    _refused(evf0(mines, [(1, 0, 1, 1), (77, 1, 1, 1)]), "x.evf", "unknown event code 77")
    data = bytearray(_DATA["meta_v4_beg_pause.evf"])
    data[0] = 9
    _refused(bytes(data), "x.evf", "EVF version 9 is newer", format="evf")
    data = bytearray(_DATA["vienna1_beg.rmv"])
    data[5] = 3
    _refused(bytes(data), "x.rmv", "RMV version 3")


def test_bad_sizes() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    _refused(evf0(mines, [(1, 0, 1, 1)], cell=0), "x.evf", "cell size is 0")
    data = bytearray(evf0(mines, [(1, 0, 1, 1)]))
    data[2] = 0                                            # no rows
    _refused(bytes(data), "x.evf", "a board needs at least one row")
    data = bytearray(evf0(mines, [(1, 0, 1, 1)]))
    data[5] = 3                                            # says 3 mines, holds 1
    _refused(bytes(data), "x.evf", "the header says 3 mines, the layout holds 1")


def test_a_name_running_on_is_refused() -> None:
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    _refused(evf0(mines, [(1, 0, 1, 1)], player=b"x" * 5000), "x.evf", "runs on for more than")


def test_each_zero_region_is_walked_once() -> None:
    # A hostile game: flag 484 cells of one big opening, open it, then unflag and
    # reveal each (every reveal would walk the whole region again in ms-toollib).
    mines = np.zeros((200, 200), bool)
    mines[199, 199] = True
    cells = [(r, c) for r in range(2, 198, 9) for c in range(2, 198, 9)]
    t = 0
    events = []
    for r, c in cells:
        events.append((8, t, c * 16 + 8, r * 16 + 8))
    events += click(2, 0, 0, t)
    for r, c in cells:
        t += 20
        events += click(4, r, c, t) + click(2, r, c, t + 10)
    v = read_video(evf0(mines, events))
    board = ClientBoard(v.mine_layout)
    ev = v.events
    for i in range(len(ev)):
        board.step(int(ev.kind[i]), int(ev.row[i]), int(ev.col[i]), i)
    assert board.left == len(cells) + 1 and board.right == 2 * len(cells)
    assert board._k.nregions == 1                  # one region, labelled once
    assert play_video(v).bbbv_solved == 1


_OPS = ("truncate", "flip", "overwrite", "delete", "insert", "extreme", "splice")


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(n for n in _DATA if n.endswith(fmt))))
    data = bytearray(_DATA[name])
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(_OPS))
        n = len(data)
        if n == 0:
            break
        # Headers are where a lie does the most harm: aim there half the time.
        at = draw(st.one_of(st.integers(0, min(n, 256) - 1), st.integers(0, n - 1)))
        size = draw(st.integers(1, 16))
        if op == "truncate":
            del data[at:]
        elif op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "overwrite":
            data[at:at + size] = draw(st.binary(min_size=size, max_size=size))
        elif op == "delete":
            del data[at:at + size]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=size))
        elif op == "extreme":
            data[at:at + size] = draw(st.sampled_from([b"\xff", b"\x00", b"\x7f", b"\x80"])) * size
        else:
            src = draw(st.integers(0, n - 1))
            data[at:at + size] = data[src:src + size]
    return name, bytes(data)


def _read_and_play(name: str, data: bytes, fmt: str | None) -> None:
    try:
        v = read_video(data, format=fmt, name=name)
    except VideoFormatError as err:
        assert str(err).startswith(f"{name}: ")
        assert err.__cause__ is None, f"the safety net caught {err.__cause__!r}"
        return
    assert v.mine_layout.shape == (v.rows, v.cols)
    assert int(v.mine_layout.sum()) == v.mines
    assert len(v.events) > 0
    p = play_video(v)
    counts = {b: sum(m.button == b for m in p.moves) for b in ("left", "right", "double")}
    assert counts == {"left": p.left, "right": p.right, "double": p.double}


@pytest.mark.parametrize("fmt", ["avf", "rmv", "mvf", "evf"])
@given(data=st.data())
def test_mutated_real_files_give_only_the_documented_error(fmt: str, data: st.DataObject) -> None:
    name, raw = data.draw(mutated(fmt))
    _read_and_play(name, raw, fmt)
    _read_and_play(name, raw, None)


def test_a_fifo_or_a_folder_is_refused_without_waiting(tmp_path):
    """read_video(path) opened a FIFO with a plain open(), which waits for a
    writer for ever: now it is refused at once, like a folder or a device."""
    import os
    import threading

    fifo = tmp_path / "game.avf"
    os.mkfifo(fifo)
    errors: list[BaseException] = []

    def read() -> None:
        try:
            read_video(fifo)
        except BaseException as exc:  # noqa: BLE001 - the test looks at it below
            errors.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # the old code: let the blocked open() go before failing
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("read_video waited for a writer on a FIFO")
    assert len(errors) == 1 and isinstance(errors[0], OSError)
    assert "is a FIFO, not a regular file" in str(errors[0])
    for other in (tmp_path, "/dev/zero"):
        with pytest.raises(OSError, match="not a regular file"):
            read_video(other)
