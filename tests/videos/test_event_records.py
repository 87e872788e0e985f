"""The compiled event and mine decoders (fastmine.videos._records) against slow
pure-Python references, on hypothesis-made records, hostile ones included; and
the columns they give are private, read-only and stay so."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fastmine.videos import Events, VideoFormatError
from fastmine.videos._records import avf_events, mine_layout, pack, scan
from fastmine.videos.avf import _KINDS, _find_first_event, _find_header
from fastmine.videos.binread import END, TEXT, Cursor

_CODES = [1, 3, 5, 21, 9, 17, 145, 33, 65, 193]


# ------------------------------------------------------------ references

def _cell(x: int, y: int, cell_size: int, rows: int, cols: int) -> tuple[int, int]:
    if 0 <= x < cols * cell_size and 0 <= y < rows * cell_size:
        return y // cell_size, x // cell_size
    return -1, -1


def _ref_avf(data: bytes, start: int, table: list[int], rows: int, cols: int):  # type: ignore[no-untyped-def]
    """Arbiter's records decoded one at a time, as the format describes them."""
    recs = [data[p:p + 8] for p in range(start, len(data) - 7, 8)]
    ends = [i for i, r in enumerate(recs) if r[2] == 0 and r[6] == 0]
    if not ends:
        return -1, -1, None
    n = ends[0]
    for i in range(n):
        if table[recs[i][0]] == 255:
            return n, i, None
    t, k, x, y, row, col = [], [], [], [], [], []
    for r in recs[:n]:
        t.append((r[6] * 256 + r[2] - 1) * 1000 + r[4] * 10)
        k.append(table[r[0]])
        x.append(r[1] * 256 + r[3])
        y.append(r[5] * 256 + r[7])
        rc = _cell(x[-1], y[-1], 16, rows, cols)
        row.append(rc[0])
        col.append(rc[1])
    return n, -1, (t, k, x, y, row, col)


def _ref_layout(data: bytes, pos: int, count: int, col_first: bool, base: int, rows: int,
                cols: int):  # type: ignore[no-untyped-def]
    cells = []
    for i in range(count):
        a, b = data[pos + 2 * i] - base, data[pos + 2 * i + 1] - base
        r, c = (b, a) if col_first else (a, b)
        if not (0 <= r < rows and 0 <= c < cols):
            return i, r, c, None
        cells.append((r, c))
    if len(set(cells)) != count:
        return -1, 0, 0, len(set(cells))
    layout = [[False] * cols for _ in range(rows)]
    for r, c in cells:
        layout[r][c] = True
    return -1, 0, 0, layout


def _check_columns(columns, expected) -> None:  # type: ignore[no-untyped-def]
    dtypes = (np.int64, np.uint8, np.int32, np.int32, np.int32, np.int32)
    for got, want, dtype in zip(columns, expected, dtypes, strict=True):
        assert got.dtype == dtype and got.ndim == 1
        assert got.tolist() == list(want)
        assert not got.flags.writeable
        with pytest.raises(ValueError, match="WRITEABLE"):
            got.flags.writeable = True


# ------------------------------------------------------------ strategies

def _record(draw, codes: st.SearchStrategy[int]) -> bytes:  # type: ignore[no-untyped-def]
    code = draw(codes)
    x, y = draw(st.integers(0, 65535)), draw(st.integers(0, 65535))
    s = draw(st.integers(1, 65535))
    rec = [code, x >> 8, s & 255, x & 255, draw(st.integers(0, 255)), y >> 8, s >> 8, y & 255]
    return bytes(rec)


@st.composite
def _avf_stream(draw):  # type: ignore[no-untyped-def]
    """Records of real codes with pointers near the board (and off it), sometimes an
    unknown code, sometimes no end, sometimes a torn last record; bytes before them."""
    hostile = draw(st.booleans())
    codes = st.sampled_from(_CODES) | st.integers(0, 255) if hostile else st.sampled_from(_CODES)
    near = st.integers(0, 600)
    records = []
    for _ in range(draw(st.integers(0, 40))):
        rec = bytearray(_record(draw, codes))
        if draw(st.booleans()):     # mostly on the board, as a mouse is
            x, y = draw(near), draw(near)
            rec[1], rec[3], rec[5], rec[7] = x >> 8, x & 255, y >> 8, y & 255
        records.append(bytes(rec))
    end = b""
    if not hostile or draw(st.booleans()):
        end = bytes([draw(st.integers(0, 255)), 0, 0, 0, 0, 0, 0, 0])
    tail = draw(st.binary(max_size=20))
    head = draw(st.binary(max_size=9))
    return head, b"".join(records) + end + tail


# ------------------------------------------------------------ tests

@given(_avf_stream(), st.integers(1, 40), st.integers(1, 40))
def test_avf_events_match_the_reference(stream, rows, cols) -> None:  # type: ignore[no-untyped-def]
    head, body = stream
    data = head + body
    n, bad, lo, hi, columns = avf_events(data, len(head), _KINDS, rows, cols)
    ref_n, ref_bad, ref_cols = _ref_avf(data, len(head), _KINDS.tolist(), rows, cols)
    assert (n, bad) == (ref_n, ref_bad)
    if ref_cols is None:
        assert columns is None
        return
    assert columns is not None
    _check_columns(columns, ref_cols)
    if n:
        assert (lo, hi) == (min(ref_cols[0]), max(ref_cols[0]))


def test_avf_events_refuse_a_start_outside_the_data() -> None:
    with pytest.raises(ValueError, match="outside"):
        avf_events(b"\x01" * 16, 17, _KINDS, 8, 8)
    with pytest.raises(ValueError, match="outside"):
        avf_events(b"\x01" * 16, -1, _KINDS, 8, 8)
    with pytest.raises(ValueError, match="256"):
        avf_events(b"\x01" * 16, 0, _KINDS[:255], 8, 8)
    assert avf_events(b"", 0, _KINDS, 8, 8)[:2] == (-1, -1)


@given(st.lists(st.tuples(st.integers(-2**40, 2**40), st.integers(0, 255),
                          st.integers(-2**31, 2**31 - 1), st.integers(-2**31, 2**31 - 1)),
                max_size=30),
       st.integers(-3, 40), st.integers(1, 30), st.integers(1, 30))
def test_pack_matches_the_reference(events, cell_size, rows, cols) -> None:  # type: ignore[no-untyped-def]
    # small pointers too, so that many fall on the board
    events = [(t, k, x % 700 if i % 2 else x, y % 700 if i % 2 else y)
              for i, (t, k, x, y) in enumerate(events)]
    t = np.array([e[0] for e in events], np.int64)
    k = np.array([e[1] for e in events], np.uint8)
    x = np.array([e[2] for e in events], np.int32)
    y = np.array([e[3] for e in events], np.int32)
    lo, hi, columns = pack(t, k, x, y, cell_size, rows, cols)
    cells = [_cell(e[2], e[3], cell_size, rows, cols) if cell_size > 0 else (-1, -1)
             for e in events]
    _check_columns(columns, (t.tolist(), k.tolist(), x.tolist(), y.tolist(),
                             [c[0] for c in cells], [c[1] for c in cells]))
    assert (lo, hi) == ((min(t.tolist()), max(t.tolist())) if events else (0, 0))


def test_pack_takes_strided_columns_and_refuses_unequal_ones() -> None:
    t = np.arange(10, dtype=np.int64)[::2]
    x = np.arange(20, dtype=np.int32)[::4]
    k = np.zeros(5, np.uint8)
    _, _, columns = pack(t, k, x, x, 16, 1, 1)
    assert columns[0].tolist() == [0, 2, 4, 6, 8]
    assert columns[4].tolist() == [0] * 4 + [-1]
    with pytest.raises(ValueError, match="differ in length"):
        pack(t, k[:4], x, x, 16, 1, 1)


@st.composite
def _mines(draw):  # type: ignore[no-untyped-def]
    rows, cols = draw(st.integers(1, 20)), draw(st.integers(1, 20))
    base = draw(st.integers(0, 1))
    count = draw(st.integers(0, 30))
    hostile = draw(st.booleans())
    byte = st.integers(0, 255) if hostile else st.integers(base, base + max(rows, cols) - 1)
    pairs = draw(st.lists(st.tuples(byte, byte), min_size=count, max_size=count))
    head = draw(st.binary(max_size=5))
    data = head + bytes(b for p in pairs for b in p) + draw(st.binary(max_size=5))
    return data, len(head), count, draw(st.booleans()), base, rows, cols


@given(_mines())
def test_mine_layout_matches_the_reference(case) -> None:  # type: ignore[no-untyped-def]
    bad, r, c, distinct, layout = mine_layout(*case)
    ref_bad, ref_r, ref_c, ref = _ref_layout(*case)
    assert bad == ref_bad
    if ref_bad >= 0:
        assert (r, c, layout) == (ref_r, ref_c, None)
    elif isinstance(ref, int):
        assert (distinct, layout) == (ref, None)
    else:
        assert layout is not None and layout.dtype == np.bool_
        assert layout.tolist() == ref


def test_mine_layout_refuses_pairs_outside_the_data() -> None:
    with pytest.raises(ValueError, match="outside"):
        mine_layout(b"\x01\x01\x01", 0, 2, False, 1, 8, 8)
    with pytest.raises(ValueError, match="outside"):
        mine_layout(b"\x01\x01", -1, 1, False, 1, 8, 8)
    with pytest.raises(ValueError, match="no cells"):
        mine_layout(b"\x01\x01", 0, 1, False, 1, 0, 8)


def test_events_build_keeps_its_checks_and_words() -> None:
    cur = Cursor(b"", "v.avf")
    with pytest.raises(VideoFormatError, match="no mouse events"):
        Events.build([], [], [], [], 16, 8, 8, cur)
    with pytest.raises(VideoFormatError, match="an event time of -5 ms is outside"):
        Events.build([3, -5, 9], [0, 0, 0], [1, 2, 3], [1, 2, 3], 16, 8, 8, cur)
    with pytest.raises(VideoFormatError, match="an event time of 2147483648 ms"):
        Events.build([0, 2**31], [0, 0], [1, 2], [1, 2], 16, 8, 8, cur)
    with pytest.raises(VideoFormatError, match="20001 mouse events in 0.000 s"):
        Events.build([7] * 20_001, [0] * 20_001, [1] * 20_001, [1] * 20_001, 16, 8, 8, cur)
    ev = Events.build([5, 6], [1, 2], [-1, 130], [17, 5], 16, 8, 8, cur)
    assert ev.row.tolist() == [-1, -1] and ev.col.tolist() == [-1, -1]
    ev = Events.build([5, 6], [1, 2], [0, 127], [0, 127], 16, 8, 8, cur)
    assert ev.row.tolist() == [0, 7] and ev.col.tolist() == [0, 7]
    # Columns are private: changing the caller's arrays afterwards changes nothing.
    t = np.array([1, 2], np.int64)
    ev = Events.build(t, [1, 2], [0, 1], [0, 1], 16, 8, 8, cur)
    t[0] = 99
    assert ev.time_ms.tolist() == [1, 2]


def test_built_in_the_same_mode_as_the_other_kernels() -> None:
    from fastmine import _kernels
    from fastmine.videos import _records
    assert _records.BOUNDS_CHECKED == _kernels.BOUNDS_CHECKED


# ------------------------------------------------------------ Cursor.scan

def _ref_scan(data: bytes, pos: int, sizes: list[int], end_of: str, limit: int):  # type: ignore[no-untyped-def]
    """Cursor.scan as it was, one record at a time in Python: the starts and where it
    stopped, or the error's words and the position it left."""
    cur = Cursor(data, "v", pos)
    starts = []
    n = len(data)
    p = pos
    try:
        while p < n:
            step = sizes[data[p]]
            if step > 0:
                starts.append(p)
                p += step
            elif step == TEXT:
                starts.append(p)
                cur.pos = p + 4
                cur.cstring("a metric's text", limit)
                p = cur.pos
            else:
                break
        if p >= n:
            cur.pos = n
            raise cur.fail(f"the file ends before {end_of}: it is truncated")
        if sizes[data[p]] == 0:
            raise cur.fail(f"unknown event code {data[p]}", p)
    except VideoFormatError as exc:
        return str(exc), cur.pos
    return starts, p


@st.composite
def _scan_case(draw):  # type: ignore[no-untyped-def]
    """A few codes with sizes 1-9, an ending code, a text code, unknown codes; records
    of them, sometimes torn or with text lacking its NUL, in front some bytes."""
    sizes = [0] * 256
    codes = draw(st.lists(st.integers(0, 255), min_size=4, max_size=8, unique=True))
    sizes[codes[0]] = END
    sizes[codes[1]] = TEXT
    for c in codes[2:]:
        sizes[c] = draw(st.integers(1, 9))
    body = bytearray(draw(st.binary(max_size=4)))
    pos = len(body)
    known = [c for c in codes if sizes[c] != 0]
    for _ in range(draw(st.integers(0, 30))):
        code = draw(st.sampled_from(known) | st.integers(0, 255))
        body.append(code)
        if sizes[code] == TEXT:
            body += draw(st.binary(min_size=3, max_size=3))
            text = draw(st.binary(max_size=12).filter(lambda b: b"\0" not in b))
            body += text + (b"\0" if draw(st.integers(0, 5)) else b"")
        elif sizes[code] > 0:
            body += draw(st.binary(min_size=sizes[code] - 1, max_size=sizes[code] - 1))
    return bytes(body), pos, sizes


@given(_scan_case(), st.integers(0, 12))
def test_scan_matches_the_python_reference(case, limit) -> None:  # type: ignore[no-untyped-def]
    data, pos, sizes = case
    ref = _ref_scan(data, pos, sizes, "the end", limit)
    cur = Cursor(data, "v", pos)
    try:
        got = cur.scan(sizes, "the end", limit)
    except VideoFormatError as exc:
        assert str(exc) == ref[0]     # (the cursor is dropped with the error)
    else:
        assert (got.tolist(), cur.pos) == ref
        assert got.dtype == np.int64


def test_scan_kernel_refuses_bad_arguments() -> None:
    table = np.zeros(256, np.int64)
    with pytest.raises(ValueError, match="256"):
        scan(b"\x01", 0, table[:10], 5)
    with pytest.raises(ValueError, match="outside"):
        scan(b"\x01", 2, table, 5)
    with pytest.raises(ValueError, match="text limit"):
        scan(b"\x01", 0, table, -1)
    table[1] = 1
    status, p, starts = scan(b"\x01" * 5000, 0, table, 5)
    assert (status, p, starts.tolist()) == (1, 5000, [])
    status, p, starts = scan(b"\x01" * 5000 + b"\x00", 0, table, 5)
    assert (status, p, starts.tolist()) == (0, 5000, list(range(5000)))


@pytest.mark.parametrize("data", [b"\x05abc", b"\x05abcde", b"\x05abc" + b"x" * 20,
                                  b"\x05abc" + b"x" * 20 + b"\0\x01", b"\x05abcxy\0\x01",
                                  b"\x02\x05abcxy\0\x01", b"\x02\x05ab"])
def test_scan_text_records_end_as_before(data: bytes) -> None:
    sizes = [0] * 256
    sizes[5], sizes[1], sizes[2] = TEXT, END, 1
    ref = _ref_scan(data, 0, sizes, "the end", 8)
    cur = Cursor(data, "v")
    try:
        got = cur.scan(sizes, "the end", 8)
    except VideoFormatError as exc:
        assert str(exc) == ref[0]
    else:
        assert (got.tolist(), cur.pos) == ref


# ------------------------------------------------------------ Arbiter's anchors

_HEADER_RE = re.compile(rb"\[[0-3]\|")
_FIRST_EVENT_RE = re.compile(rb"[\x00\x01]\x01", re.DOTALL)
_ANCHOR_BYTES = st.lists(st.sampled_from(
    [b"[0|", b"[3|", b"[4|", b"[", b"|", b"0", b"\x00\x01", b"\x01\x01", b"\x01", b"\x00",
     b"x"]), max_size=25).map(b"".join) | st.binary(max_size=40)


@given(_ANCHOR_BYTES, st.integers(0, 12), st.integers(-12, 12))
@example(b"[0|", 0, -1)
@example(b"x[3", 0, 0)
@example(b"[1|\x01", 0, -1)
@example(b"\x00\x01", 0, -1)
@example(b"\x00\x00\x01", 1, 0)
@example(b"x[2|", 1, 0)
def test_the_anchors_are_found_where_the_patterns_find_them(data, start, cut) -> None:  # type: ignore[no-untyped-def]
    # the end of the search near the data's end, before or past it, or near its start
    width = max(len(data) + cut - start, 0) if cut >= -6 else -cut
    for find, pattern in ((_find_header, _HEADER_RE), (_find_first_event, _FIRST_EVENT_RE)):
        m = pattern.search(data, start, start + width)
        assert find(data, start, start + width) == (-1 if m is None else m.start())
