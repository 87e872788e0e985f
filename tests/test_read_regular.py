"""Reading the user's files (files.reading.read_regular_file, and read_video of a
path through it): the whole file in one read with nothing large allocated, a
file that grows while it is read refused past its limit or read whole under it,
and the same words as before for a file too big, not regular, or missing."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from fastmine.files import reading
from fastmine.files.reading import read_regular_file
from fastmine.videos import VideoFormatError, read_video
from fastmine.videos.model import MAX_FILE_BYTES
from tests.videos.video_files import path as video_path


def _peak(fn, *args):  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        result = fn(*args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_a_small_file_is_read_without_a_large_buffer(tmp_path: Path) -> None:
    # The old reader asked os.read for 1 MiB at a time (a 1 MiB bytes object per
    # file) and read_video(path) for 16 MiB; now the file's size and one byte more.
    f = tmp_path / "a.bin"
    f.write_bytes(b"x" * 50_000)
    data, peak = _peak(read_regular_file, f, 10**8)
    assert data == b"x" * 50_000
    assert peak < 200_000
    video = video_path("arbiter_exp_lost.avf")
    _, peak = _peak(read_video, str(video))
    assert peak < 4 * video.stat().st_size + 2_000_000


def _growing(monkeypatch: pytest.MonkeyPatch, told: int) -> None:
    """fstat says the file holds ``told`` bytes: as if it grew after fstat."""
    real = os.fstat

    def fstat(fd: int) -> os.stat_result:
        st = real(fd)
        return os.stat_result((st.st_mode, *st[1:6], told, *st[7:]))
    monkeypatch.setattr(reading.os, "fstat", fstat)


@pytest.mark.parametrize("told", [0, 1, 99, 100])
def test_a_file_that_grew_under_its_limit_is_read_whole(tmp_path, monkeypatch, told) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "grew.bin"
    f.write_bytes(bytes(range(256)) * 9)    # 2,304 bytes
    _growing(monkeypatch, told)
    assert read_regular_file(f, 5000) == bytes(range(256)) * 9
    assert read_regular_file(f, 2304) == bytes(range(256)) * 9


def test_a_file_that_grew_past_its_limit_is_refused(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "grew.bin"
    f.write_bytes(b"y" * 3_000_000)
    _growing(monkeypatch, 10)
    with pytest.raises(OSError, match=r"grew.bin is too big \(more than 2500000 bytes\)"):
        read_regular_file(f, 2_500_000)
    seen = []
    with pytest.raises(ValueError, match="sizes"):
        read_regular_file(f, 2_500_000, name="mine",
                          too_big=lambda size, grew: seen.append((size, grew)) or ValueError("sizes"))
    assert seen == [(2_500_001, True)]


def test_a_video_that_grew_past_the_cap_names_its_size(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "big.avf"
    with f.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 10)
    _growing(monkeypatch, 100)
    with pytest.raises(VideoFormatError) as err:
        read_video(str(f), name="v.avf")
    assert str(err.value) == (f"v.avf: {MAX_FILE_BYTES + 1} bytes is larger than any video "
                              f"({MAX_FILE_BYTES} bytes at most)")


def test_the_words_for_files_too_big_not_regular_or_missing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "c.bin"
    f.write_bytes(b"z" * 11)
    assert read_regular_file(f, 11) == b"z" * 11
    with pytest.raises(OSError, match=r"c.bin is too big \(11 bytes; at most 10\)$"):
        read_regular_file(f, 10)
    with pytest.raises(ValueError, match="told"):
        read_regular_file(f, 10, too_big=lambda size, grew: ValueError(f"told {size} {grew}"))
    with pytest.raises(OSError, match=r"is a directory, not a regular file$"):
        read_regular_file(tmp_path, 10)
    with pytest.raises(OSError, match=r"^where is a directory, not a regular file$"):
        read_regular_file(tmp_path, 10, name="where")
    with pytest.raises(FileNotFoundError):
        read_regular_file(tmp_path / "none", 10)
    f.write_bytes(b"")
    assert read_regular_file(f, 10) == b""
    big = tmp_path / "big.avf"
    with big.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(VideoFormatError, match=f"{MAX_FILE_BYTES + 1} bytes is larger than any"):
        read_video(big)
    with pytest.raises(OSError, match=r"is a directory, not a regular file$"):
        read_video(tmp_path)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc")
def test_a_file_whose_size_says_zero_is_read_whole() -> None:
    # /proc files are regular files of st_size 0 with content.
    assert b"Name:" in read_regular_file("/proc/self/status", 1 << 20)
