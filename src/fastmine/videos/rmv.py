"""Reader for ``.rmv`` videos, recorded by Viennasweeper (Vienna Minesweeper).

Versions 1 (Vienna up to 4.x) and 2 (from 5.0), as the RMV specification
(github.com/ralokt/rmv_spec) describes them: a header of section sizes, the
player fields, the board (mines as ``(col, row)`` pairs), preflags, one-byte
properties (question marks, no-flag, mode, level; version 1 adds ``utf8``,
version 2 the 3BV and the cell size), version 2's named extension
properties, then the events:

- 1-7: a mouse event (move, left press/release, right press/release, middle
  press/release): 3-byte game time in ms, a button-state byte, then x, y:
  unsigned and offset by (12, 56) from the window in version 1, signed and
  from the board's corner in version 2.
- 28 (version 2): a short move, 1 byte of elapsed ms and two 4-bit signed
  pixel steps.
- 9-14, 18-27: a board event, ``(col, row)``: what a cell now shows
  (:data:`BOARD_EVENT_NAMES`).  Vienna records them after each mouse event.
- 0 (version 1): a time stamp change, 4 bytes, ignored.
- 15, 16, 17: the end (blast, win, other), with the game time in ms.

Vienna does not record the press of the game's first click (its clock starts
there): the reader puts a left press before the first recorded event, as
every RMV player does.  Text is UTF-8 in version 2 and in version 1 with the
``utf8`` property (anything else there is refused, as the specification
asks); version 1 without it used the Windows code page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np
from numpy.typing import NDArray

from ._bytes import NOT_UTF8, decode_code_page, decode_utf8, decode_utf8_kept
from .binread import END, Cursor
from .model import EventKind, Events, Video

__all__ = ["BOARD_EVENT_NAMES", "BoardEvents", "read_rmv"]

BOARD_EVENT_NAMES = {
    9: "pressed", 10: "pressed_question", 11: "closed", 12: "question", 13: "flag",
    14: "blast", 18: "open_0", 19: "open_1", 20: "open_2", 21: "open_3", 22: "open_4",
    23: "open_5", 24: "open_6", 25: "open_7", 26: "open_8", 27: "blast",
}
"""What an RMV board event says a cell now shows, by event code."""

_MODES = ("classic", "upk", "cheat", "density", "win7", "competitive_solvable",
          "strong_solvable", "weak_solvable", "to_be_solvable", "strong_guessable",
          "weak_guessable", "chording_recursive", "flag_recursive", "chording_flag_recursive")
_LEVELS = ("beginner", "intermediate", "expert", "custom")
_CLONES = {1: "Viennasweeper", 2: "Minesweeper Arbiter", 3: "Minesweeper X",
           4: "Minesweeper Clone", 5: "Metasweeper", 6: "Freesweeper", 7: "Mysweeper"}
_RELEASE = re.compile(r"Release\s+(\S+)")
_PLAYER_FIELDS = ("name", "nickname", "country", "token")
_MOUSE_KINDS = np.zeros(256, dtype=np.uint8)
for _code, _kind in ((1, EventKind.MOVE), (2, EventKind.LEFT_DOWN), (3, EventKind.LEFT_UP),
                     (4, EventKind.RIGHT_DOWN), (5, EventKind.RIGHT_UP),
                     (6, EventKind.MIDDLE_DOWN), (7, EventKind.MIDDLE_UP), (28, EventKind.MOVE)):
    _MOUSE_KINDS[_code] = _kind
_ENDINGS = {15: "lost", 16: "won", 17: "unfinished"}


@dataclass(frozen=True, eq=False)
class BoardEvents:
    """The board changes an RMV file records, in order.

    Attributes
    ----------
    after : ndarray of int32
        Index (in :attr:`Video.events`) of the mouse event each change followed.
    code : ndarray of uint8
        The RMV event code (see :data:`BOARD_EVENT_NAMES`).
    row, col : ndarray of int32
        The cell.
    """

    after: NDArray[np.int32]
    code: NDArray[np.uint8]
    row: NDArray[np.int32]
    col: NDArray[np.int32]

    def __len__(self) -> int:
        return int(self.code.shape[0])


def _text(field: tuple[bytes, int], utf8: bool, what: str, bad: list[str]) -> str:
    raw, _ = field
    return decode_utf8_kept(raw, what, bad) if utf8 else decode_code_page(raw)


def read_rmv(data: bytes, source: str = "<bytes>") -> Video:
    """Read a Viennasweeper video (RMV version 1 or 2).

    Parameters
    ----------
    data : bytes
        The whole file.
    source : str
        The file's name, for error messages.

    Returns
    -------
    Video
        With ``details["board_events"]`` unset; the board changes Vienna
        recorded are returned by :func:`read_rmv_board_events`.

    Raises
    ------
    VideoFormatError
        If the bytes are not a readable RMV video.
        Records that would cost more memory to decode than
        :data:`~fastmine.videos.binread.MAX_READ_BYTES` are refused before
        they are decoded.
    """
    return _read(data, source)[0]


def read_rmv_board_events(data: bytes, source: str = "<bytes>") -> BoardEvents:
    """The board changes an RMV video records (what Vienna showed after each click).

    Raises
    ------
    VideoFormatError
        As :func:`read_rmv`.
    """
    return _read(data, source)[1]


def _read(data: bytes, source: str) -> tuple[Video, BoardEvents]:
    cur = Cursor(data, source)
    if cur.take(4, "the signature") != b"*rmv":
        raise cur.fail("no '*rmv' signature: this is not a Viennasweeper video", 0)
    version = cur.u16("the format version")
    if version not in (1, 2):
        raise cur.fail(f"RMV version {version} is not one this reader knows (1 or 2)", 4)
    clone_id = major = 0
    if version == 2:
        clone_id = cur.u8("the clone id")
        major = cur.u8("the clone's major version")
    cur.skip(4, "the file size")
    result_size = cur.u16("the result string size") if version == 1 else 0
    info_size = cur.u16("the version info size")
    cur.skip(4, "the player info and board sizes")
    preflags_size = cur.u16("the preflags size")
    props_size = cur.u16("the properties size")
    if version == 2:
        cur.skip(2, "the extension properties size")
    cur.skip(6, "the event and checksum sizes")
    stated_bbbv: int | None = None
    if version == 1:
        result = cur.take(result_size, "the result string")
        m = re.search(rb"3BV:(\d{1,5})#", result)
        stated_bbbv = int(m.group(1)) if m else None
    info = cur.take(info_size, "the version info").decode("latin-1")
    n_fields = cur.u16("the player field count")
    fields: list[tuple[bytes, int]] = []
    for i in range(n_fields):
        size = cur.u8(f"player field {i + 1}'s size")
        fields.append((cur.take(size, f"player field {i + 1}"), cur.pos - size))
    timestamp = cur.u32("the time stamp")
    cols = cur.u8("the column count")
    rows = cur.u8("the row count")
    mines = cur.u16("the mine count")
    layout = cur.mines(rows, cols, mines, col_first=True, base=0)
    preflags: list[tuple[int, int]] = []
    if preflags_size:
        n = cur.u16("the preflag count")
        flags_at = cur.pos
        raw_pf = np.frombuffer(cur.take(2 * n, f"the {n} preflags"), dtype=np.uint8).reshape(-1, 2)
        if ((raw_pf[:, 0] >= cols) | (raw_pf[:, 1] >= rows)).any():
            raise cur.fail(f"a preflag is outside the {rows}x{cols} board", flags_at)
        preflags = [(int(c), int(r)) for c, r in raw_pf]
    need = 4 if version == 1 else 7
    if props_size < need:
        raise cur.fail(f"{props_size} properties, RMV version {version} has at least {need}")
    props = cur.take(props_size, "the properties")
    marks, nf, mode, level = props[0], props[1], props[2], props[3]
    if level > 3:
        raise cur.fail(f"level {level} is not an RMV level (0-3)", cur.pos - props_size + 3)
    cell_size = 16
    utf8 = version == 2
    if version == 2:
        stated_bbbv = props[4] | props[5] << 8
        cell_size = props[6]
        if cell_size == 0:
            raise cur.fail("the cell size is 0 pixels", cur.pos - props_size + 6)
    elif props_size > 4:
        utf8 = props[4] == 1
    details: dict[str, str] = {"version_info": info}
    clone_name: str | None = None
    if version == 2:
        for i in range(cur.u16("the extension property count")):
            key_at = cur.pos + 1
            key = decode_utf8(cur.take(cur.u8("a property name's size"), "a property name"),
                              "an extension property's name", cur, key_at)
            value_at = cur.pos + 1
            value = cur.take(cur.u8(f"property {key!r}'s size"), f"property {key!r}")
            if key == "clone_name":
                clone_name = decode_utf8(value, "the clone name", cur, value_at)
            elif i < 64:
                details[f"property_{key}"] = value.decode("latin-1")
    not_utf8: list[str] = []
    texts = {name: _text(field, utf8, f"the player's {name}", not_utf8)
             for name, field in zip(_PLAYER_FIELDS, fields[:4], strict=False)}
    if not_utf8:
        details[NOT_UTF8] = ", ".join(not_utf8)
    for name in ("nickname", "country"):
        if texts.get(name):
            details[name] = texts[name]

    t, k, xs, ys, after, bcode, brow, bcol, end, end_ms = _events(cur, version, rows, cols)
    if preflags:
        pf = np.array(preflags, dtype=np.int64).reshape(-1, 2)
        t = np.concatenate([np.zeros(pf.shape[0], np.int64), t])
        k = np.concatenate([np.full(pf.shape[0], EventKind.PRE_FLAG, np.uint8), k])
        xs = np.concatenate([pf[:, 0] * cell_size, xs])
        ys = np.concatenate([pf[:, 1] * cell_size, ys])
    events = Events.build(t, k, xs, ys, cell_size, rows, cols, cur)
    board_events = BoardEvents(
        after=(after + len(preflags)).astype(np.int32), code=bcode.astype(np.uint8),
        row=brow.astype(np.int32), col=bcol.astype(np.int32))

    if version == 1:
        software = "Viennasweeper"
    elif clone_id == 0:
        if clone_name is None:
            raise cur.fail("clone id 0 but no 'clone_name' property")
        software = clone_name
    else:
        software = _CLONES.get(clone_id, f"RMV clone {clone_id}")
    release = _RELEASE.search(info)
    software_version = release.group(1) if release else (str(major) if version == 2 else "")
    details["edition"] = info.split(" - Release")[0]
    return Video(
        source=cur.source, format="rmv", format_version=str(version), software=software,
        software_version=software_version, player=texts.get("name", ""),
        date=datetime.fromtimestamp(timestamp, tz=timezone.utc) if timestamp else None,
        level=_LEVELS[level], rows=rows, cols=cols, mines=mines, mine_layout=layout,
        cell_size=cell_size, question_marks=bool(marks),
        mode=_MODES[mode] if mode < len(_MODES) else f"mode {mode}", events=events,
        stated_time_ms=end_ms, stated_bbbv=stated_bbbv, stated_outcome=_ENDINGS[end],
        details=details | {"no_flags": "yes" if nf else "no"}), board_events


def _sizes(version: int) -> list[int]:
    """Bytes each event code takes (0: not an event of this version; -1: the end)."""
    size = [0] * 256
    for c in range(1, 8):
        size[c] = 9                      # mouse
    for c in (*range(9, 15), *range(18, 28)):
        size[c] = 3                      # board
    for c in (15, 16, 17):
        size[c] = END                    # the end (4 bytes with its time)
    if version == 1:
        size[0] = 5                      # a time stamp change
    else:
        size[28] = 3                     # a short mouse move
    return size


_SIZES = {1: _sizes(1), 2: _sizes(2)}
_EVENT_COST = 352       # bytes a record costs to decode (binread.MAX_READ_BYTES)


def _events(cur: Cursor, version: int, rows: int, cols: int) -> tuple[
        NDArray[np.int64], NDArray[np.uint8], NDArray[np.int64], NDArray[np.int64],
        NDArray[np.int64], NDArray[np.uint8], NDArray[np.int64], NDArray[np.int64], int, int]:
    """The event section: mouse events, board events, and the end.

    One scan finds where each event starts (its code says its size:
    :meth:`binread.Cursor.scan`); the fields are then read for all events at once.
    """
    data = cur.data
    n = len(data)
    at = cur.scan(_SIZES[version], "the game's end event")
    p = cur.pos
    end = data[p]
    if p + 4 > n:
        cur.pos = p
        raise cur.fail("the file ends inside an event: it is truncated")
    end_ms = data[p + 1] << 16 | data[p + 2] << 8 | data[p + 3]
    cur.pos = p + 4
    cur.budget(at.shape[0], _EVENT_COST, "events")
    d = np.frombuffer(data, dtype=np.uint8)
    code = d[at]
    mouse = ((code >= 1) & (code <= 7)) | (code == 28)
    full = (code >= 1) & (code <= 7)
    short = code == 28
    board = ((code >= 9) & (code <= 14)) | ((code >= 18) & (code <= 27))
    m_at, m_full, m_short = at[mouse], full[mouse], short[mouse]
    if m_at.shape[0] and m_short[0]:
        raise cur.fail("a short mouse move comes before any full one", int(m_at[0]))

    def byte(k: int) -> NDArray[np.int64]:
        # (A short event's far bytes are read past it, and not used.)
        out: NDArray[np.int64] = d[np.minimum(m_at + k, n - 1)].astype(np.int64)
        return out

    t_abs = byte(1) << 16 | byte(2) << 8 | byte(3)
    x_abs = byte(5) << 8 | byte(6)
    y_abs = byte(7) << 8 | byte(8)
    if version == 1:
        x_abs, y_abs = x_abs - 12, y_abs - 56
    else:
        x_abs = np.where(x_abs >= 0x8000, x_abs - 0x10000, x_abs)
        y_abs = np.where(y_abs >= 0x8000, y_abs - 0x10000, y_abs)
    packed = byte(2)
    nib_x, nib_y = packed >> 4, packed & 15
    # A short move adds its steps to the last event's time and place.
    t = _accumulate(m_full, t_abs, np.where(m_short, byte(1), 0))
    x = _accumulate(m_full, x_abs, np.where(m_short, np.where(nib_x >= 8, nib_x - 16, nib_x), 0))
    y = _accumulate(m_full, y_abs, np.where(m_short, np.where(nib_y >= 8, nib_y - 16, nib_y), 0))
    kind = _MOUSE_KINDS[code[mouse]]
    if kind.shape[0]:
        # Vienna's clock starts at the first click's press, which it does not record.
        t, x, y = (np.r_[a[:1], a] for a in (t, x, y))
        kind = np.r_[np.uint8(EventKind.LEFT_DOWN), kind].astype(np.uint8)
    b_at = at[board]
    b_col, b_row = d[b_at + 1].astype(np.int64), d[b_at + 2].astype(np.int64)
    outside = (b_col >= cols) | (b_row >= rows)
    if outside.any():
        i = int(np.argmax(outside))
        raise cur.fail(f"a board event names cell (row {int(b_row[i])}, col {int(b_col[i])}), "
                       f"outside the {rows}x{cols} board", int(b_at[i]))
    # Each board change follows the mouse event before it (+1: the added press).
    after = np.cumsum(mouse)[board] - 1 + (1 if kind.shape[0] else 0)
    return (t, kind, x, y, after, code[board], b_row, b_col, end, end_ms)


def _accumulate(full: NDArray[np.bool_], absolute: NDArray[np.int64],
                step: NDArray[np.int64]) -> NDArray[np.int64]:
    """Values that full events set and short ones step from the previous value."""
    if full.shape[0] == 0:
        return absolute
    idx = np.arange(full.shape[0])
    last_full = np.maximum.accumulate(np.where(full, idx, 0))
    steps = np.cumsum(step)
    out: NDArray[np.int64] = absolute[last_full] + steps - steps[last_full]
    return out
