"""The four readers on real videos: what each file holds, and the ways a file reaches them."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from video_files import BAD, EXPECTED, NOT_UTF8, path

import fastmine
from fastmine.videos import EventKind, Video, VideoFormatError, read_video
from fastmine.videos._bytes import decode_code_page, decode_legacy
from fastmine.videos.model import MAX_FILE_BYTES
from fastmine.videos.reading import sniff_format
from fastmine.videos.rmv import BOARD_EVENT_NAMES, read_rmv_board_events


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_file_metadata(name: str) -> None:
    (fmt, fversion, software, sversion, player, date, level, size, cell, time_ms, bbbv,
     outcome, n_events) = EXPECTED[name]
    v = read_video(path(name))
    assert (v.format, v.format_version, v.software, v.software_version) == (
        fmt, fversion, software, sversion)
    assert v.player == player
    assert str(v.date) == date
    assert v.level == level
    assert (v.rows, v.cols, v.mines) == size
    assert v.mine_layout.shape == size[:2] and int(v.mine_layout.sum()) == size[2]
    assert v.cell_size == cell
    assert (v.stated_time_ms, v.stated_bbbv, v.stated_outcome) == (time_ms, bbbv, outcome)
    assert len(v.events) == n_events
    assert v.source == str(path(name))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_stated_3bv_is_the_boards(name: str) -> None:
    v = read_video(path(name))
    if v.stated_bbbv is not None:
        assert fastmine.Board.from_mines(v.mine_layout).bbbv() == v.stated_bbbv


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_events_are_consistent(name: str) -> None:
    v = read_video(path(name))
    ev = v.events
    assert ev.time_ms.dtype == np.int64 and ev.kind.dtype == np.uint8
    assert set(np.unique(ev.kind)) <= set(EventKind)
    on = ev.row >= 0
    assert ((ev.col >= 0) == on).all()
    np.testing.assert_array_equal(ev.row[on], ev.y[on] // v.cell_size)
    np.testing.assert_array_equal(ev.col[on], ev.x[on] // v.cell_size)
    off_x = (ev.x < 0) | (ev.x >= v.cols * v.cell_size)
    off_y = (ev.y < 0) | (ev.y >= v.rows * v.cell_size)
    np.testing.assert_array_equal(~on, off_x | off_y)
    # Arbiter and Clone record one clock; Vienna's and Metasweeper's never go back.
    assert (np.diff(ev.time_ms) >= 0).all()
    assert int(ev.time_ms[0]) >= 0


def test_arrays_are_read_only() -> None:
    v = read_video(path("arbiter_beg.avf"))
    for a in (v.mine_layout, v.events.time_ms, v.events.kind, v.events.x, v.events.row):
        with pytest.raises(ValueError):
            a[0] = 1
    with pytest.raises(TypeError):
        v.details["skin"] = "x"  # type: ignore[index]
    with pytest.raises(AttributeError):
        v.player = "someone else"  # type: ignore[misc]


def test_details() -> None:
    v = read_video(path("vienna2_beg_24px.rmv"))
    assert v.details["nickname"] == "ralokt"
    assert v.details["property_vsweep_skin_fname"] == "24px_new.bmp"
    assert read_video(path("arbiter_beg.avf")).details["skin"] == "3.1"
    assert read_video(path("meta_v3_exp.evf")).details["country"] == "Poland"
    assert read_video(path("meta_v4_beg_pause.evf")).details["country"] == "CZ"
    counts = read_video(path("clone_097.mvf")).details
    assert (counts["left_clicks"], counts["right_clicks"], counts["double_clicks"]) == (
        "93", "23", "66")


def test_vienna_first_press_and_preflags() -> None:
    # Vienna does not record the first click's press: the reader adds it.
    v = read_video(path("vienna1_beg.rmv"))
    assert [EventKind(k) for k in v.events.kind[:2]] == [EventKind.LEFT_DOWN,
                                                          EventKind.LEFT_UP]
    assert v.events.time_ms[0] == v.events.time_ms[1]
    # Preflags come first, at time 0, one PRE_FLAG event on each flagged cell.
    v = read_video(path("vienna2_preflags.rmv"))
    pf = np.flatnonzero(v.events.kind == EventKind.PRE_FLAG)
    np.testing.assert_array_equal(pf, np.arange(pf.shape[0]))
    assert pf.shape[0] == 9 and (v.events.time_ms[pf] == 0).all()
    assert v.mine_layout[v.events.row[pf], v.events.col[pf]].sum() == 2


def test_vienna_board_events() -> None:
    # The last things Vienna shows in its test game: (col 7, row 7) opens as a 1, and it ends.
    data = path("vienna2_beg_24px.rmv").read_bytes()
    be = read_rmv_board_events(data)
    assert BOARD_EVENT_NAMES[int(be.code[-1])] == "open_1"
    assert (int(be.row[-1]), int(be.col[-1])) == (7, 7)
    assert len(be) > 0 and (np.diff(be.after) >= 0).all()


def test_wrong_encoding_is_refused_with_the_file_named() -> None:
    for name, words in BAD.items():
        with pytest.raises(VideoFormatError) as err:
            read_video(path(name))
        assert words in str(err.value)
        assert str(path(name)) in str(err.value)
        assert err.value.source == str(path(name)) and err.value.offset is not None


def test_a_name_that_is_not_utf8_keeps_its_game() -> None:
    """The name is read with replacement characters and said once (the old
    reader refused the whole file); the game is the same as the good name's."""
    for name, player in NOT_UTF8.items():
        v = read_video(path(name))
        assert v.player == player
        assert v.details["not_utf8"] == "the player's name"
        assert v.notes == ("the player's name: not valid UTF-8, shown with replacement "
                           "characters (\ufffd)",)
        same = read_video(path("vienna2_utf8_nonascii.rmv"))
        assert same.notes == () and "not_utf8" not in same.details
        assert np.array_equal(v.mine_layout, same.mine_layout)
        assert np.array_equal(v.events.time_ms, same.events.time_ms)


def test_sources_path_bytes_and_file_objects() -> None:
    p = path("meta_v3_beg.evf")
    by_path = read_video(p)
    by_str = read_video(str(p))
    by_bytes = read_video(p.read_bytes())
    with open(p, "rb") as f:
        by_file = read_video(f)
    by_memory = read_video(io.BytesIO(p.read_bytes()), name="game.evf")
    for v in (by_str, by_bytes, by_file, by_memory):
        assert v.player == by_path.player
        np.testing.assert_array_equal(v.events.time_ms, by_path.events.time_ms)
    assert by_bytes.source == "<bytes>"
    assert by_file.source == str(p)
    assert by_memory.source == "game.evf"


def test_format_is_told_by_content_first() -> None:
    for name, expected in EXPECTED.items():
        data = path(name).read_bytes()
        assert sniff_format(data, "renamed.bin") in (expected[0], None)
        assert read_video(data, name=name).format == expected[0]
    # Signatures win over a wrong extension...
    assert sniff_format(path("vienna1_beg.rmv").read_bytes(), "x.evf") == "rmv"
    assert sniff_format(path("clone_2006.mvf").read_bytes(), "x.avf") == "mvf"
    assert sniff_format(path("arbiter_beg.avf").read_bytes(), "x.evf") == "avf"
    # ...and an explicit format wins over everything.
    with pytest.raises(VideoFormatError, match="not a Viennasweeper video"):
        read_video(path("arbiter_beg.avf"), format="rmv")


def test_unknown_and_empty_input() -> None:
    with pytest.raises(VideoFormatError, match="not a video fastmine reads"):
        read_video(b"\x99hello", name="notes.txt")
    with pytest.raises(VideoFormatError, match="empty.avf"):
        read_video(b"", name="empty.avf")
    with pytest.raises(ValueError, match="unknown video format"):
        read_video(b"", format="mp4")
    with pytest.raises(TypeError):
        read_video(12345)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        read_video(path("no such file.avf"))


def test_oversized_input_is_refused_before_reading(tmp_path) -> None:
    big = tmp_path / "huge.evf"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)         # sparse: nothing is written
    with pytest.raises(VideoFormatError, match="larger than any video") as err:
        read_video(big)
    assert "huge.evf" in str(err.value)


def test_error_pickles() -> None:
    err = VideoFormatError("a.avf", "broken", 12)
    back = pickle.loads(pickle.dumps(err))
    assert (back.source, back.problem, back.offset, str(back)) == (
        "a.avf", "broken", 12, "a.avf: broken (byte 12)")
    assert isinstance(back, ValueError)


def test_repr() -> None:
    v = read_video(path("arbiter_custom_8x11.avf"))
    assert isinstance(v, Video)
    assert repr(v) == "<Video avf Minesweeper Arbiter 0.52.3 '王嘉宁' custom 11x8/7 375 events>"


@pytest.mark.parametrize(("raw", "text"), [
    (b"Tommy", "Tommy"),
    ("王嘉宁".encode("gbk"), "王嘉宁"),                    # GB2312 characters
    ("王堃".encode("gbk"), "王堃"),                       # a GBK-only character
    ("Kamil Murañski".encode("cp1252"), "Kamil Murañski"),
    ("Müller".encode("cp1252"), "Müller"),             # ms-toollib: "M黮ler"
    ("Zoë".encode("cp1252"), "Zoë"),
    ("Łukasz".encode(), "Łukasz"),               # UTF-8 is taken when valid
    (b"\x81\x8d\x8f", "\u0081\u008d\u008f"),         # nothing else fits: Latin-1
])
def test_legacy_names(raw: bytes, text: str) -> None:
    assert decode_legacy(raw) == text


def test_code_page_never_takes_utf8() -> None:
    # Vienna 1 without its utf8 property wrote the Windows code page only.
    assert decode_code_page("aaȑaa".encode()) == "aa葢aa"
