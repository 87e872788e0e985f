"""Caps tied to what a real game holds, checked before any work.

A replay (read by ``fastmine replay --import``, the records store and so the
app), a saved game's move log and a game code: anything under the caps loads
in memory bounded by its board's size (measured with tracemalloc, never with a
clock), and anything over them is refused before it is unpacked or played.
"""

from __future__ import annotations

import base64
import json
import math
import sqlite3
import tracemalloc
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import gamecode, movelog
from fastmine.errors import SaveFormatError
from fastmine.limits import MAX_LOG_MOVES, MOVES_ANY_BOARD, MOVES_PER_CELL, max_moves
from fastmine.replay import Replay, fileformat, playback

BYTES_PER_MOVE_OR_CELL = 256
"""Peak memory a replay may take to load, per move and per cell (measured: 76-121)."""


def _peak(fn: Callable[[], Any]) -> tuple[Any, int]:
    """``fn()``'s result (or the exception it raised) and its peak traced memory."""
    tracemalloc.start()
    try:
        try:
            out: Any = fn()
        except Exception as exc:  # noqa: BLE001 - returned to the test to look at
            out = exc
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _marks_replay(rows: int, cols: int, marks: int, seed: int = 1) -> Replay:
    """A real game of ``rows`` x ``cols``: one reveal, then ``marks`` marks on one cell."""
    board = fastmine.Board.from_mines(np.eye(rows, cols, dtype=bool)[::-1]
                                      if rows * cols > 1 else np.zeros((1, 1), bool))
    game = fastmine.Game.from_board(board)
    safe = [tuple(int(v) for v in x) for x in np.argwhere(~board.mines)]
    game.reveal(*safe[seed % len(safe)])
    hidden = [tuple(int(v) for v in x) for x in np.argwhere(game.view == fastmine.HIDDEN)]
    for _ in range(marks):
        if hidden:
            game.toggle_mark(*hidden[0])
    return Replay.from_game(game)


def _forged(rows: int, cols: int, n: int, *, move_count: int | None = None,
            mines: int | None = None) -> bytes:
    """A replay file claiming ``n`` identical marks on cell (0, 0) (tiny once packed)."""
    mask = np.zeros(rows * cols, bool)
    mask[-1] = True
    pairs = np.empty((n, 2), "<i8")
    pairs[:, 0] = 0 * 8 + movelog.MOVE_MARK
    pairs[:, 1] = 0
    doc = {"format": "fastmine-replay", "version": 2, "rows": rows, "cols": cols,
           "mines": mines if mines is not None else 1, "rule": "none",
           "question_marks": True, "assisted": False, "state": "playing", "time": 0.0,
           "mine_layout": base64.b64encode(np.packbits(mask).tobytes()).decode(),
           "move_count": n if move_count is None else move_count,
           "moves": base64.b64encode(zlib.compress(pairs.tobytes(), 9)).decode()}
    return json.dumps(doc).encode()


class _Untouchable:
    """Stands in for a module (or, called, a function) whose use would be work done
    too early."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"{self.what}.{name} used: the input was not refused first")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{self.what} called: the input was not refused first")


# ------------------------------------------------------------------ the cap itself


def test_the_cap_follows_the_board():
    assert max_moves(9, 9) == MOVES_PER_CELL * 81 + MOVES_ANY_BOARD == 11_296
    assert max_moves(16, 30) == 17_680
    assert max_moves(5000, 5000) == MAX_LOG_MOVES
    assert playback.moves_cap(9, 9) == max_moves(9, 9)


def test_a_real_game_is_far_under_the_cap():
    """A solver plays a whole Expert game in at most three moves a cell (reveal,
    flag, chord): the cap leaves more than five times that."""
    from fastmine import solver

    g = fastmine.Game(16, 30, 99, seed=7)
    solver.play(g, strategy="auto")
    assert len(g.moves) <= 3 * 480 < max_moves(16, 30) / 5
    assert Replay.from_bytes(Replay.from_game(g).to_bytes()) == Replay.from_game(g)


# ------------------------------------------------------------------ replays under the cap


@settings(max_examples=12)
@given(rows=st.integers(1, 24), cols=st.integers(2, 24), fill=st.floats(0, 1), seed=st.integers(0, 99))
def test_any_replay_under_the_cap_loads_in_memory_bounded_by_its_board(rows, cols, fill, seed):
    cap = max_moves(rows, cols)
    rep = _marks_replay(rows, cols, int(fill * (cap - 1)), seed)
    data = rep.to_bytes()
    back, peak = _peak(lambda: Replay.from_bytes(data))
    assert back == rep
    assert peak <= BYTES_PER_MOVE_OR_CELL * (cap + rows * cols) + (1 << 20), peak


def test_the_largest_replay_of_a_board_plays_back_in_bounded_memory():
    rows, cols = 40, 40
    rep = _marks_replay(rows, cols, max_moves(rows, cols) - 1)
    assert len(rep) == max_moves(rows, cols)
    game, peak = _peak(rep.play)
    assert isinstance(game, fastmine.Game)
    # no Python list of every move (~200 bytes a move) while playing
    assert peak <= 64 * len(rep) + (1 << 20), peak


# ------------------------------------------------------------------ replays over the cap


@settings(max_examples=25)
@given(rows=st.integers(1, 30), cols=st.integers(2, 30), extra=st.integers(1, 10**6))
def test_any_replay_over_the_cap_is_refused_before_work(rows, cols, extra):
    n = max_moves(rows, cols) + extra
    data = _forged(rows, cols, min(n, 2_000), move_count=n)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fileformat, "zlib", _Untouchable("zlib"))
        mp.setattr(fileformat, "_unb64", _Untouchable("base64 decoding"))
        mp.setattr(Replay, "frames", _Untouchable("Replay.frames"))
        err, peak = _peak(lambda: Replay.from_bytes(data))
    assert isinstance(err, SaveFormatError), err
    assert "fastmine.limits.max_moves" in str(err)
    assert peak <= 8 * len(data) + (64 << 10), peak


def test_four_million_marks_packed_small_are_refused_at_once():
    """The issue's file, scaled down: identical marks packed by zlib (a few KB)
    on a 9x9 board.  It used to be unpacked and played in full (4M marks:
    9-23 s and 785 MB); now its move count is refused before anything."""
    data = _forged(9, 9, 200_000)
    assert len(data) < 16_000
    err, peak = _peak(lambda: Replay.from_bytes(data))
    assert isinstance(err, SaveFormatError) and "11,296" in str(err)
    assert peak < 64 << 10, peak


def test_a_moves_field_longer_than_its_count_allows_is_refused_unread(monkeypatch):
    data = json.loads(_forged(9, 9, 10))
    data["moves"] = "A" * 100_000          # 10 moves pack to well under 300 characters
    monkeypatch.setattr(fileformat, "zlib", _Untouchable("zlib"))
    with pytest.raises(SaveFormatError, match="longer"):
        Replay.from_bytes(json.dumps(data).encode())
    data = json.loads(_forged(9, 9, 10))
    data["mine_layout"] = "A" * 100_000
    with pytest.raises(SaveFormatError, match="longer"):
        Replay.from_bytes(json.dumps(data).encode())


def test_a_replay_that_is_not_one_flat_object_is_refused_before_parsing(monkeypatch):
    monkeypatch.setattr(fileformat, "json", _Untouchable("json"))
    for data in (b"[" + b"1," * 10_000 + b"1]", b'{"a": [' + b"[" * 300 + b"]" * 301 + b"}",
                 b"{" * 300):
        with pytest.raises(SaveFormatError, match="not one flat object"):
            Replay.from_bytes(data)
    with pytest.raises(SaveFormatError, match="more than a replay holds"):
        Replay.from_bytes(b" " * (playback.MAX_REPLAY_BYTES + 1))


def test_no_replay_holds_more_moves_than_its_board_allows():
    """Built by hand, played from a game or read: one cap."""
    rep = _marks_replay(3, 3, 5)
    moves = np.zeros((max_moves(3, 3) + 1, 4), np.int64)
    with pytest.raises(ValueError, match="at most 10,144 moves"):
        Replay(rep.mines.copy(), rep.rule, moves, rep.state, rep.time)
    g = fastmine.Game.from_board(fastmine.Board.from_mines(rep.mines))
    g.reveal(0, 0) if not rep.mines[0, 0] else g.reveal(2, 2)
    hidden = [tuple(int(v) for v in x) for x in np.argwhere(g.view == fastmine.HIDDEN)]
    for _ in range(max_moves(3, 3)):
        g.toggle_mark(*hidden[0])
    with pytest.raises(ValueError, match="more moves than a replay holds"):
        Replay.from_game(g)


def test_the_records_store_refuses_an_over_cap_replay_quickly(tmp_path):
    """The app reads replays through the store: the same cap, at once."""
    from fastmine.records import RecordsError, RecordsStore

    game = fastmine.Game(9, 9, 10, seed=3)
    while not game.state.is_over:
        game.reveal(*(int(v) for v in np.argwhere(game.view == fastmine.HIDDEN)[0]))
    with RecordsStore(data_dir=tmp_path) as store:
        rec = store.record_game(game)
    db = sqlite3.connect(tmp_path / "records.sqlite3")
    with db:
        db.execute("UPDATE replays SET data = ? WHERE game_id = ?",
                   (_forged(9, 9, 200_000), rec.id))
    db.close()
    with RecordsStore(data_dir=tmp_path) as store:
        err, peak = _peak(lambda: store.replay(rec.id))
    assert isinstance(err, RecordsError) and "max_moves" in str(err)
    assert peak < 256 << 10, peak


# ------------------------------------------------------------------ saved games


def test_a_saved_move_log_over_the_cap_is_not_unpacked(monkeypatch):
    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    d = g.to_dict()
    pairs = np.zeros((max_moves(9, 9) + 1, 2), "<i8")
    d["moves"] = base64.b64encode(pairs.tobytes()).decode()
    import fastmine.gameformat as gameformat

    monkeypatch.setattr(gameformat, "base64", _Untouchable("base64"))
    back = fastmine.Game.from_dict(d)
    assert not back.moves_complete           # the game goes on, without a replay
    assert np.array_equal(back.view, g.view)
    monkeypatch.undo()
    d["moves"] = base64.b64encode(pairs[: max_moves(9, 9)].tobytes()).decode()
    with pytest.raises(SaveFormatError):     # under the cap it is read (and checked)
        fastmine.Game.from_dict(d)


# ------------------------------------------------------------------ game codes


def _with_check(body: list[int]) -> str:
    h = gamecode._check_value(body)
    symbols = body + [(h >> (5 * (2 - i))) & 31 for i in range(3)]
    return "".join(gamecode.ALPHABET[s] for s in symbols)


def test_the_longest_real_code_is_under_the_cap():
    """Board codes are longest with half the cells mines on 2,500 cells."""
    longest = 0
    for rows, cols in [(50, 50), (1, 2500), (2500, 1), (25, 100), (49, 51), (7, 357)]:
        n = rows * cols
        for k in (n // 2, n // 2 + 1):
            mask = np.zeros(n, bool)
            mask[np.random.default_rng(k).choice(n, k, replace=False)] = True
            code = gamecode.board_code(fastmine.Board.from_mines(mask.reshape(rows, cols)))
            longest = max(longest, len(code.replace("-", "")))
            assert gamecode.decode(code).board.mines.ravel().tolist() == mask.tolist()
    assert 500 < longest <= gamecode.MAX_CODE_SYMBOLS
    # and by the bit count, every size a board code holds
    for n in range(2, gamecode.MAX_BOARD_CODE_CELLS + 1):
        width = (math.comb(n, n // 2) - 1).bit_length()
        assert (5 + 1 + 1 + 3 * (5 + 12) + width + 4) // 5 + 3 <= gamecode.MAX_CODE_SYMBOLS


@settings(max_examples=200)
@given(st.text(max_size=gamecode.MAX_CODE_CHARS))
def test_any_text_under_the_cap_reads_in_bounded_memory(text):
    out, peak = _peak(lambda: gamecode.decode(text))
    assert isinstance(out, (gamecode.GameSpec, ValueError)), out
    assert peak < 256 << 10, peak


@settings(max_examples=25)
@given(extra=st.integers(1, 10**6), ch=st.sampled_from("0A -\u00a0z\u200b"))
def test_text_over_the_cap_is_refused_before_it_is_read(extra, ch):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(gamecode, "unicodedata", _Untouchable("unicodedata"))
        with pytest.raises(ValueError, match="not a game code"):
            gamecode.decode(ch * (gamecode.MAX_CODE_CHARS + extra))


def test_a_long_code_with_good_check_letters_is_refused_at_once():
    """The quadratic case: 160,000 letters whose check letters match (5-8 s before)."""
    code = _with_check([1] + [7] * 160_000)
    out, peak = _peak(lambda: gamecode.decode(code))
    assert isinstance(out, ValueError) and "not a game code" in str(out)
    assert peak < 64 << 10, peak
    # just under the symbol cap but with good check letters: read, then refused
    # as damaged (in linear time: the value is built by int(..., 32))
    code = _with_check([1] + [0] * (gamecode.MAX_CODE_SYMBOLS - 4))
    with pytest.raises(ValueError, match="damaged"):
        gamecode.decode(code)


@pytest.mark.parametrize("sep", ["\u00a0", "\u202f", "\u2007", "\u3000", "\u2013", "\u2014",
                                 "\u2010", "\u2011", "\u2212", "\u200b", "\u2060", "\ufeff",
                                 "\u00ad", "\u200d", "\t", "_", " - "])
def test_a_pasted_code_with_unicode_spaces_and_dashes_reads_the_same(sep):
    code = gamecode.seed_code(16, 30, 99, seed=12345)
    want = gamecode.decode(code)
    assert gamecode.decode(code.replace("-", sep)) == want
    assert gamecode.decode(sep + code.lower().replace("-", sep) + sep) == want


def test_a_full_width_code_reads_the_same():
    code = gamecode.board_code(fastmine.Board.from_mines([[0, 1, 0], [0, 0, 1]]))
    wide = "".join(chr(ord(c) + 0xFEE0) if c != "-" else "\u30fc" for c in code)
    with pytest.raises(ValueError, match="not one of them"):     # a katakana long mark
        gamecode.decode(wide)
    wide = "".join(chr(ord(c) + 0xFEE0) if c != "-" else "\uff0d" for c in code)
    assert np.array_equal(gamecode.decode(wide).board.mines, gamecode.decode(code).board.mines)
