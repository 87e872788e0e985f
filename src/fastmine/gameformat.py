"""Saving and loading a :class:`fastmine.Game` as a dict (the save format).

:meth:`fastmine.Game.to_dict` writes the dict; :meth:`fastmine.Game.from_dict`
reads it through :func:`_load`, which checks everything and raises
:class:`fastmine.SaveFormatError` for anything corrupt.  Kept apart from
:mod:`fastmine.game` so the game and its rules of play
(:mod:`fastmine.gameplay`) stay short modules.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _kernels, movelog
from ._validate import as_int, check_file_version, check_mines, check_seed, check_size, file_field
from .board import Board, _check_rule
from .errors import SaveFormatError
from .limits import max_moves
from .viewcodes import EXPLODED, FLAG, HIDDEN, QUESTION, GameState

if TYPE_CHECKING:
    from .game import Game

SAVE_FORMAT = "fastmine-game"
SAVE_VERSION = 1

_ST_HIDDEN = _kernels.STATE_HIDDEN
_ST_REVEALED = _kernels.STATE_REVEALED
_ST_FLAG = _kernels.STATE_FLAG
_ST_QUESTION = _kernels.STATE_QUESTION
_ST_CHARS = {_ST_HIDDEN: "h", _ST_REVEALED: "r", _ST_FLAG: "f", _ST_QUESTION: "q"}
_CHAR_ST = {v: k for k, v in _ST_CHARS.items()}


def _log_text(game: Game) -> str:
    pairs = np.frombuffer(game._core.log_bytes(), np.int64).astype("<i8")
    return base64.b64encode(pairs.tobytes()).decode("ascii")


def _dump(game: Game) -> dict[str, Any]:
    """The save dict of ``game`` (:meth:`Game.to_dict`)."""
    st = game._st.reshape(game.rows + 2, game.cols + 2)[1:-1, 1:-1].ravel()
    cells = "".join(_ST_CHARS[int(s)] for s in st)
    mines = None
    if game.board is not None:
        mines = np.flatnonzero(game.board.mines.ravel()).tolist()
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rows": game.rows,
        "cols": game.cols,
        "mines": game.mine_count,
        "rule": game.rule,
        "seed": game.seed,
        "question_marks": game.question_marks,
        "state": game.state.value,
        "mine_cells": mines,
        "cells": cells,
        "elapsed": game.elapsed,
        "paused": game.paused,
        "assisted": game.assisted,
        "clicks": {"left": game.left_clicks, "right": game.right_clicks,
                   "chord": game.chord_clicks},
        # The move log for replays: base64 of little-endian int64 pairs
        # (padded cell * 8 + kind, ms); None if this game's log is
        # incomplete.  Optional on load, as is its layout's version (1 when
        # missing: every mark cycled as "question_marks" says).
        "moves": _log_text(game) if game.moves_complete else None,
        "moves_version": movelog.LOG_VERSION,
    }


def _load_log(game: Game, text: object, version: object) -> None:
    """Give ``game`` the move log saved as ``text`` in layout ``version`` (see
    :meth:`Game.to_dict`), or mark its log incomplete if there is none."""
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SaveFormatError(f"saved game's moves_version must be a whole number from 1, "
                              f"got {version!r:.40}")
    if text is None or version > movelog.LOG_VERSION:
        # No log, or one in a layout from a newer fastmine: the game goes on
        # without a replay rather than not at all.
        fresh = (game._state is GameState.READY and not (game.left_clicks or game.right_clicks
                                                          or game.chord_clicks))
        game._log_complete = fresh
        return
    if not isinstance(text, str):
        raise SaveFormatError("saved game's moves must be a base64 string or null")
    if len(text) > 4 * ((16 * max_moves(game.rows, game.cols) + 2) // 3):
        # More moves than a replay of this board holds (limits.max_moves): the
        # game goes on without them (it would have no replay), and they are
        # neither unpacked nor kept.
        game._log_complete = False
        return
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise SaveFormatError("saved game's moves are not valid base64") from None
    if len(raw) % 16:
        raise SaveFormatError("saved game's moves are cut short (not whole moves)")
    pairs = np.frombuffer(raw, "<i8").reshape(-1, 2).astype(np.int64)
    try:
        # Times in order are not required: a save written before the log kept
        # them in order (a clock that went back) still loads ...
        movelog.check(pairs, game.rows, game.cols, padded=True,
                      max_ms=MAX_SAVED_SECONDS * 1000, times_ordered=False, version=version)
    except ValueError as exc:
        raise SaveFormatError(f"saved game's moves cannot be read: {exc}") from None
    pairs = movelog.upgrade(pairs, version, game.question_marks)
    # ... with each move at the previous move's time at least, as the log now
    # records them: a replay made from it must read back (its file checks that).
    pairs[:, 1] = np.maximum.accumulate(pairs[:, 1])
    game._core.log_set(pairs.ravel())


MAX_SAVED_SECONDS = 1e9
"""Longest game time a save may hold (about 31 years); more is a corrupt file."""

MAX_SAVED_CLICKS = 2**53
"""Most clicks of each kind a save may hold (exact in every JSON reader)."""


def _field(d: dict[str, Any], key: str, types: type | tuple[type, ...], what: str) -> Any:
    return file_field(d, key, types, what, "saved game")


def _load(cls: type[Game], d: object, clock: Callable[[], float]) -> Game:
    if not isinstance(d, dict):
        raise SaveFormatError(f"a saved game must be a dict, got {type(d).__name__}")
    if d.get("format") != SAVE_FORMAT:
        raise SaveFormatError(f"not a fastmine saved game (format {d.get('format')!r})")
    version = _field(d, "version", int, "an integer")
    check_file_version(version, SAVE_VERSION, "save")
    try:
        rows, cols = check_size(_field(d, "rows", int, "an integer"), _field(d, "cols", int, "an integer"))
        mines = check_mines(_field(d, "mines", int, "an integer"), rows, cols)
        rule = _check_rule(_field(d, "rule", str, "a string"))
        seed = check_seed(d.get("seed"))
    except (ValueError, TypeError) as exc:
        raise SaveFormatError(f"saved game has a bad size or setting: {exc}") from None
    qm = _field(d, "question_marks", bool, "true or false")
    state_name = _field(d, "state", str, "a string")
    try:
        state = GameState(state_name)
    except ValueError:
        raise SaveFormatError(f"saved game has unknown state {state_name!r:.60}") from None
    cells = _field(d, "cells", str, "a string")
    if len(cells) != rows * cols or not set(cells) <= set(_CHAR_ST):
        raise SaveFormatError(f"saved game's cells must be {rows * cols} of the letters h, r, f, q")
    elapsed = _field(d, "elapsed", (int, float), "a number")
    # Compared as Python numbers: an int like 2**64 must not reach numpy or float().
    if not (isinstance(elapsed, int) or math.isfinite(elapsed)) or not (
            0 <= elapsed <= MAX_SAVED_SECONDS):
        raise SaveFormatError(f"saved game has a bad elapsed time {elapsed!r:.60} "
                              f"(0 to {MAX_SAVED_SECONDS:.0f} seconds)")
    clicks = _field(d, "clicks", dict, "a dict")
    try:
        left, right, chord = (as_int(k, clicks[k]) for k in ("left", "right", "chord"))
    except (KeyError, TypeError) as exc:
        raise SaveFormatError(f"saved game has bad click counts: {exc}") from None
    if not all(0 <= n <= MAX_SAVED_CLICKS for n in (left, right, chord)):
        raise SaveFormatError(f"saved game's click counts must be 0 to {MAX_SAVED_CLICKS}")

    st = np.frombuffer(cells.encode("ascii"), np.uint8)
    codes = np.zeros(256, np.uint8)
    for ch, s in _CHAR_ST.items():
        codes[ord(ch)] = s
    st = codes[st]
    paused = d.get("paused", False)
    assisted = d.get("assisted", False)
    if not isinstance(paused, bool) or not isinstance(assisted, bool):
        raise SaveFormatError("saved game fields 'paused' and 'assisted' must be true or false")
    if paused and state.is_over:
        raise SaveFormatError(f"saved game is {state.value} but paused; a finished game cannot pause")
    mine_cells = d.get("mine_cells")
    board = None
    if mine_cells is not None:
        if not isinstance(mine_cells, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in mine_cells):
            raise SaveFormatError("saved game's mine_cells must be a list of cell indices")
        # Range first: an index too big for int64 must not reach numpy.
        if len(mine_cells) != mines or not all(0 <= i < rows * cols for i in mine_cells) or (
                len(set(mine_cells)) != mines):
            raise SaveFormatError(f"saved game's mine_cells must be {mines} distinct cells of the board")
        idx = np.asarray(mine_cells, np.int64)
        mask = np.zeros(rows * cols, bool)
        mask[idx] = True
        board = Board.from_mines(mask.reshape(rows, cols))
    elif state is not GameState.READY or (st == _ST_REVEALED).any():
        raise SaveFormatError("saved game has revealed cells but no mines")

    game = object.__new__(cls)
    game._setup(rows, cols, mines, rule, seed, qm, clock)
    inner = game._st.reshape(rows + 2, cols + 2)[1:-1, 1:-1]
    inner[...] = st.reshape(rows, cols)
    pv = game._pv.reshape(rows + 2, cols + 2)[1:-1, 1:-1]
    pv[...] = np.select(
        [inner == _ST_HIDDEN, inner == _ST_FLAG, inner == _ST_QUESTION],
        [HIDDEN, FLAG, QUESTION], 0).astype(np.int8)
    if board is not None:
        revealed = inner == _ST_REVEALED
        pv[revealed] = board.counts[revealed]
        pv[revealed & board.mines] = EXPLODED
        game._attach(board)
    game._core.recount()
    core = game._core
    # The declared state must be the one the cells imply.
    if core.exploded:
        implied = GameState.LOST
    elif board is not None and core.revealed == game._safe:
        implied = GameState.WON
    elif core.revealed:
        implied = GameState.PLAYING
    else:
        implied = GameState.READY
    if implied is not state:
        raise SaveFormatError(f"saved game says {state.value!r} but its cells say {implied.value!r}")
    if state is GameState.LOST and rule != "none" and core.revealed == 0:
        # Under these rules the first reveal is always safe, so a lost game has
        # opened at least one safe cell: only mines open contradicts the rule.
        raise SaveFormatError(f"saved game is lost on its first click, which the rule "
                              f"{rule!r} makes safe: its cells contradict its mines")
    if state is GameState.LOST:
        core.finish_loss()
    elif state is GameState.WON:
        core.finish_win()
    core.take_changes()
    game._state = state
    game._elapsed = float(elapsed)
    game.left_clicks, game.right_clicks, game.chord_clicks = left, right, chord
    game.assisted = assisted
    game._paused = paused
    _load_log(game, d.get("moves"), d.get("moves_version", 1))
    if state is GameState.PLAYING and not paused:
        game._started = clock()
        game._core.base = game._started - game._elapsed
    return game
