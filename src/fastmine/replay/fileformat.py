"""The replay file: its format, its limits, and reading and writing it.

A replay file is one flat JSON object: the board's size and settings, how the
game ended, and the mine layout and moves packed in base64 (the moves
zlib-compressed); ``docs/replays.md`` describes every field.  Everything read
is checked against the board before it is unpacked (sizes, counts, lengths),
and then by playing the moves, so a file that loads plays back exactly.
:class:`fastmine.replay.Replay` reads and writes through this module; its
methods (``to_dict``, ``from_bytes``, ``save``, ``load``, ...) are the public
way in.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import movelog
from .._validate import check_file_version, check_mines, check_size, file_field
from ..board import _check_rule
from ..errors import FutureVersionError, GameOverError, SaveFormatError
from ..files.owned import refuse_owned
from ..files.reading import read_regular_file
from ..files.writing import atomic_write_bytes
from ..gameformat import MAX_SAVED_SECONDS
from ..limits import MAX_LOG_MOVES, MAX_REPLAY_BYTES, max_moves
from ..viewcodes import GameState
from . import mousepath

if TYPE_CHECKING:
    from .playback import Replay

__all__ = ["MAX_REPLAY_BYTES", "MAX_REPLAY_FIELDS", "MAX_REPLAY_MOVES", "REPLAY_FORMAT",
           "REPLAY_VERSION", "moves_cap"]

REPLAY_FORMAT = "fastmine-replay"
REPLAY_VERSION = 4
"""The newest replay file version this fastmine writes and reads.
Version 2 logs each mark's cycle (kind 3: without "?"); in a version 1 file
every mark cycled as its ``question_marks`` says (read as such).  Version 3
adds the mouse path (:mod:`fastmine.replay.mousepath`), in sixteenths of a
cell; version 4 adds ``mouse_unit``, the path's units a cell (a video's own
pixels).  Each replay is written in the oldest version that holds it (2
without a path, 3 with a path in sixteenths), which older fastmines read."""

MAX_REPLAY_MOVES = MAX_LOG_MOVES
"""Most moves a replay file may hold on any board (4,194,304; 64 MB unpacked); on a
given board at most :func:`fastmine.limits.max_moves` (16 a cell plus 10,000)."""

MAX_REPLAY_FIELDS = 256
"""A replay file is one flat JSON object of a dozen fields: a file with more
commas, brackets or braces than this is refused before it is parsed (a list of
millions of numbers would cost far more memory than its bytes)."""



def moves_cap(rows: int, cols: int) -> int:
    """The most moves a replay of a ``rows`` x ``cols`` board holds.

    Parameters
    ----------
    rows, cols
        The board's size.

    Returns
    -------
    int
        :func:`fastmine.limits.max_moves`, and never more than :data:`MAX_REPLAY_MOVES`.
    """
    return min(MAX_REPLAY_MOVES, max_moves(rows, cols))


def to_dict(rep: Replay) -> dict[str, Any]:
    """The JSON-ready dict of ``rep``'s file (:meth:`fastmine.replay.Replay.to_dict`)."""
    pairs = movelog.encode(rep.moves, rep.cols, padded=False)
    out = {
        "format": REPLAY_FORMAT,
        "version": (2 if rep.mouse is None else 3 if rep.mouse_unit == mousepath.UNIT
                    else REPLAY_VERSION),
        "rows": rep.rows,
        "cols": rep.cols,
        "mines": rep.mine_count,
        "rule": rep.rule,
        "question_marks": rep.question_marks,
        "assisted": rep.assisted,
        "state": rep.state.value,
        "time": rep.time,
        "mine_layout": _b64(np.packbits(rep.mines.ravel()).tobytes()),
        "move_count": len(rep),
        "moves": _b64(zlib.compress(pairs.tobytes(), 9)),
    }
    if rep.mouse is not None:
        out["mouse_count"] = int(rep.mouse.shape[0])
        out["mouse"] = mousepath.encode(rep.mouse)
        if rep.mouse_unit != mousepath.UNIT:
            out["mouse_unit"] = rep.mouse_unit
    return out


def to_bytes(rep: Replay) -> bytes:
    """The bytes of ``rep``'s file (:meth:`fastmine.replay.Replay.to_bytes`)."""
    return (json.dumps(rep.to_dict(), separators=(",", ":")) + "\n").encode("utf-8")


def from_bytes(cls: type[Replay], data: bytes) -> Replay:
    """The replay in a file's bytes (:meth:`fastmine.replay.Replay.from_bytes`)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"a replay is bytes, got {type(data).__name__}")
    if len(data) > MAX_REPLAY_BYTES:
        raise SaveFormatError(f"not a replay: {len(data):,} bytes, more than a replay "
                              f"holds ({MAX_REPLAY_BYTES:,})")
    data = bytes(data)
    if sum(data.count(ch) for ch in (b",", b"[", b"{")) > MAX_REPLAY_FIELDS:
        raise SaveFormatError("not a replay (it is not one flat object of a few fields)")
    try:
        d = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFormatError(f"not a replay (not JSON: {exc})") from None
    except RecursionError:
        raise SaveFormatError("not a replay (nested too deeply)") from None
    return cls.from_dict(d)


def save(rep: Replay, path: str | os.PathLike[str]) -> Path:
    """Write ``rep``'s file atomically (:meth:`fastmine.replay.Replay.save`)."""
    refuse_owned(path, "the replay file")
    return atomic_write_bytes(path, rep.to_bytes())


def load(cls: type[Replay], path: str | os.PathLike[str]) -> Replay:
    """The replay in the file ``path`` (:meth:`fastmine.replay.Replay.load`)."""
    try:
        data = read_regular_file(path, MAX_REPLAY_BYTES)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise SaveFormatError(f"cannot read the replay {path}: {exc}") from None
    try:
        return cls.from_bytes(data)
    except FutureVersionError as exc:
        raise FutureVersionError(f"{path}: {exc}") from None
    except SaveFormatError as exc:
        raise SaveFormatError(f"the replay {path} is corrupt: {exc}") from None


def _b64_length(n: int) -> int:
    """Characters of the base64 of ``n`` bytes."""
    return 4 * ((n + 2) // 3)


def _zlib_bound(n: int) -> int:
    """The most bytes zlib makes of ``n`` bytes (zlib's compressBound, plus slack)."""
    return n + (n >> 12) + (n >> 14) + (n >> 25) + 64


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unb64(d: dict[str, Any], key: str) -> bytes:
    v = d.get(key)
    if not isinstance(v, str):
        raise SaveFormatError(f"replay field {key!r} must be a base64 string")
    try:
        return base64.b64decode(v.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise SaveFormatError(f"replay field {key!r} is not valid base64") from None


def _get(d: dict[str, Any], key: str, types: tuple[type, ...], what: str) -> Any:
    return file_field(d, key, types, what, "replay")


def from_dict(cls: type[Replay], d: object) -> Replay:
    """The replay a file's dict holds (:meth:`fastmine.replay.Replay.from_dict`)."""
    if not isinstance(d, dict) or d.get("format") != REPLAY_FORMAT:
        raise SaveFormatError("not a fastmine replay")
    version = _get(d, "version", (int,), "an integer")
    check_file_version(version, REPLAY_VERSION, "replay")
    try:
        rows, cols = check_size(_get(d, "rows", (int,), "an integer"),
                                _get(d, "cols", (int,), "an integer"))
        mines = check_mines(_get(d, "mines", (int,), "an integer"), rows, cols)
        rule = _check_rule(_get(d, "rule", (str,), "a string"))
    except (ValueError, TypeError) as exc:
        if isinstance(exc, SaveFormatError):
            raise
        raise SaveFormatError(f"bad size or setting: {exc}") from None
    qm = _get(d, "question_marks", (bool,), "true or false")
    assisted = _get(d, "assisted", (bool,), "true or false")
    try:
        state = GameState(_get(d, "state", (str,), "a string"))
    except ValueError:
        raise SaveFormatError(f"unknown game state {d.get('state')!r:.40}") from None
    t = _get(d, "time", (int, float), "a number")
    if not (isinstance(t, int) or math.isfinite(t)) or not 0 <= t <= MAX_SAVED_SECONDS:
        raise SaveFormatError(f"bad game time {t!r:.40}")
    # Before anything is unpacked: the move count against the board's cap, and
    # each base64 field against what that count and board can take.
    n = _get(d, "move_count", (int,), "an integer")
    cap = moves_cap(rows, cols)
    if not 0 <= n <= cap:
        raise SaveFormatError(f"move_count must be 0 to {cap:,} on a {rows}x{cols} board "
                              f"(fastmine.limits.max_moves), got {n}")
    for key, most in (("mine_layout", _b64_length((rows * cols + 7) // 8)),
                      ("moves", _b64_length(_zlib_bound(16 * n)))):
        if isinstance(d.get(key), str) and len(d[key]) > most:
            raise SaveFormatError(f"replay field {key!r} is longer ({len(d[key]):,} "
                                  f"characters) than a {rows}x{cols} board with {n} moves "
                                  f"takes ({most:,})")
    layout = _unb64(d, "mine_layout")
    if len(layout) != (rows * cols + 7) // 8:
        raise SaveFormatError(f"the mine layout must be {(rows * cols + 7) // 8} bytes "
                              f"for {rows}x{cols}, got {len(layout)}")
    mask = np.unpackbits(np.frombuffer(layout, np.uint8))
    if mask[rows * cols:].any() or int(mask.sum()) != mines:
        raise SaveFormatError(f"the mine layout does not hold exactly {mines} mines")
    try:
        # Bounded: a small corrupt file must not unpack to gigabytes.
        z = zlib.decompressobj()
        raw = z.decompress(_unb64(d, "moves"), 16 * n + 1)
        if not z.eof:
            raise SaveFormatError("the moves hold more than move_count moves")
    except zlib.error as exc:
        raise SaveFormatError(f"the moves are corrupt ({exc})") from None
    if len(raw) != 16 * n:
        raise SaveFormatError(f"the moves hold {len(raw) // 16} moves, not {n}")
    log_version = 1 if version == 1 else 2      # the move log's layout in this file
    try:
        moves = movelog.check(np.frombuffer(raw, "<i8").reshape(n, 2), rows, cols,
                              padded=False, max_ms=MAX_SAVED_SECONDS * 1000,
                              times_ordered=True, version=log_version)
    except ValueError as exc:
        raise SaveFormatError(f"the moves cannot be played back: {exc}") from None
    # A version 1 file's marks cycled as its question_marks says.
    moves = movelog.upgrade(moves, log_version, qm)
    mouse = None
    unit = mousepath.UNIT
    if version >= 3 and ("mouse" in d or "mouse_count" in d):
        mouse = mousepath.decode(d.get("mouse"), d.get("mouse_count"))
        if version >= 4 and "mouse_unit" in d:
            try:
                unit = mousepath.check_unit(d["mouse_unit"])
            except ValueError as exc:
                raise SaveFormatError(f"replay field 'mouse_unit': {exc}") from None
    rep = cls(mask[:rows * cols].astype(bool).reshape(rows, cols), rule, moves, state,
              float(t), qm, assisted, mouse, unit)
    try:
        end = rep.play()
    except GameOverError:
        over = next(i for i, g in enumerate(rep.frames()) if g.state.is_over)
        raise SaveFormatError(f"the moves cannot be played: move {over + 1} comes after "
                              f"the game was over (it ended at move {over})") from None
    except ValueError as exc:
        raise SaveFormatError(f"the moves cannot be played: {exc}") from None
    if end.state is not state:
        raise SaveFormatError(f"the file says the game was {state.value} but its moves "
                              f"leave it {end.state.value}")
    return rep
