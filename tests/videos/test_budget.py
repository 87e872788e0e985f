"""The readers' memory budget (binread.MAX_READ_BYTES, checked before
allocating) and a fuzz harness per reader that calls it directly, past
read_video's safety net: only VideoFormatError (a ValueError) or a video."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_videos import evf4
from test_hostile import mutated
from video_files import EXPECTED, path

from fastmine.videos import VideoFormatError, binread, read_video
from fastmine.videos.reading import FORMATS

MIB = 2**20


def _peak(fn, *args):  # type: ignore[no-untyped-def]
    """(error or None, peak bytes allocated while ``fn`` runs, numpy's included)."""
    tracemalloc.start()
    try:
        fn(*args)
        err = None
    except VideoFormatError as exc:
        err = exc
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return err, peak


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_reader_allocates_no_more_than_it_budgets(name, monkeypatch):
    """What a reader asks of the budget bounds what it allocates (so a file it
    lets through never costs more than MAX_READ_BYTES)."""
    asked: list[int] = []
    real = binread.Cursor.budget

    def spy(self, count, cost, what):  # type: ignore[no-untyped-def]
        asked.append(count * cost)
        return real(self, count, cost, what)

    monkeypatch.setattr(binread.Cursor, "budget", spy)
    data = path(name).read_bytes()
    reader = FORMATS[name.rsplit(".", 1)[1]]
    reader(data, name)                      # warm: imports and caches out of the count
    asked.clear()
    err, peak = _peak(reader, data, name)
    assert err is None and asked
    assert peak <= max(asked) + 128 * 1024 <= binread.MAX_READ_BYTES


def _clone(name: str, size: int) -> tuple[bytes, int]:
    """A Clone 0.97 or 2007 video grown to ``size`` bytes of events, its event
    count stating them all (their times run on, so no other check refuses it)."""
    data = path(name).read_bytes()
    v097 = name == "clone_097.mvf"
    start = 74 + 7 + 1 + 1 + 3 + 2 + 2 + 6 + 1 if v097 else 71 + 7 + 1 + 1 + 3 + 1
    name_at = start + 4 + 2 * 99
    count_at = name_at + 1 + data[name_at] + 2
    record = 5 if v097 else 6
    count = (size - count_at - 3) // record
    rng = np.random.default_rng(1)
    body = rng.integers(0, 256, count * record, dtype=np.uint8).tobytes()
    return data[:count_at] + count.to_bytes(3, "big") + body, count


@pytest.mark.parametrize("name", ["clone_097.mvf", "clone_2007_cp1252_name.mvf"])
def test_a_16_mib_clone_video_is_refused_before_it_is_decoded(name):
    """Issue 33: a 16 MiB Clone video whose count states millions of events
    was decoded to ~710 MB before a later check refused it."""
    data, count = _clone(name, 16 * MIB - 64)
    assert len(data) <= 16 * MIB and count > 2_500_000
    err, peak = _peak(FORMATS["mvf"], data, name)
    assert err is not None and isinstance(err, ValueError)
    assert "more than a video reader allocates" in str(err), str(err)
    assert peak < MIB                                       # nothing large allocated
    with pytest.raises(VideoFormatError, match="more than a video reader allocates"):
        read_video(data, name=name)


def test_a_16_mib_vienna_video_is_refused_after_one_scan_of_its_records():
    """RMV states no count: its records are found by one scan (8 bytes each
    while scanning), and refused there, before the arrays of their fields."""
    data = path("vienna1_beg.rmv").read_bytes()
    at: list[int] = []
    real = binread.Cursor.scan

    def spy(self, sizes, end_of):  # type: ignore[no-untyped-def]
        at.append(self.pos)
        return real(self, sizes, end_of)

    binread.Cursor.scan = spy          # type: ignore[method-assign]
    try:
        FORMATS["rmv"](data, "v.rmv")
    finally:
        binread.Cursor.scan = real     # type: ignore[method-assign]
    n = (16 * MIB - len(data)) // 9
    t = np.arange(n, dtype=np.uint32) + 1000
    moves = np.zeros((n, 9), np.uint8)
    moves[:, 0] = 1
    moves[:, 1], moves[:, 2], moves[:, 3] = t >> 16, (t >> 8) & 255, t & 255
    moves[:, 6], moves[:, 8] = 20, 70
    end = data.index(bytes([16]), at[0])            # the won game's end event
    big = data[:at[0]] + moves.tobytes() + data[end:]
    err, peak = _peak(FORMATS["rmv"], big, "big.rmv")
    assert err is not None and "more than a video reader allocates" in str(err), str(err)
    assert peak < 24 * MIB < n * 352             # the scan's offsets, not the fields


def test_a_16_mib_evf4_video_is_refused_after_one_scan():
    mines = np.zeros((8, 8), bool)
    mines[0, 0] = True
    n = 16 * MIB // 6 - 100
    move = bytes([1, 1, 0, 0, 0, 0])
    data = evf4(mines, move * n)
    err, peak = _peak(FORMATS["evf"], data, "big.evf")
    assert err is not None and "more than a video reader allocates" in str(err), str(err)
    assert peak < 32 * MIB


@pytest.mark.parametrize("fmt", ["avf", "rmv", "mvf", "evf"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_reader_alone_gives_a_video_or_its_documented_error(fmt, data):
    """The reader itself, without read_video's net (which turns a stray
    IndexError into VideoFormatError): mutated real files give a video or a
    VideoFormatError, nothing else."""
    name, raw = data.draw(mutated(fmt))
    try:
        video = FORMATS[fmt](raw, name)
    except VideoFormatError as err:
        assert isinstance(err, ValueError) and str(err).startswith(f"{name}: ")
        return
    assert video.mine_layout.shape == (video.rows, video.cols)
    assert len(video.events) > 0
