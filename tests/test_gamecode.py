"""Game codes (fastmine.gamecode): round trips, typos caught, same board as the original."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine import Board, Game, gamecode
from fastmine.board import RULES
from fastmine.gamecode import ALPHABET, GameSpec, board_code, decode, seed_code

TYPO = "this code has a typo: its check letters do not match"


@st.composite
def sizes(draw, max_side=40):
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(2 if rows == 1 else 1, max_side))
    mines = draw(st.integers(1, rows * cols - 1))
    return rows, cols, mines


@settings(max_examples=200)
@given(sizes(max_side=3000), st.sampled_from(RULES), st.integers(0, 2**64 - 1))
def test_seed_codes_round_trip(size, rule, seed):
    rows, cols, mines = size
    code = seed_code(rows, cols, mines, seed=seed, rule=rule)
    spec = decode(code)
    assert spec == GameSpec("seed", rows, cols, mines, rule, seed=seed)
    assert spec.code == code
    # Tolerant reading: lower case, other separators, I/L/O for 1/1/0.
    messy = " ".join(code.lower().replace("-", "")).replace("1", "l").replace("0", "o")
    assert decode(messy) == spec


@settings(max_examples=120)
@given(sizes(max_side=50), st.randoms(use_true_random=False))
def test_board_codes_round_trip(size, rnd):
    rows, cols, mines = size
    cells = rnd.sample(range(rows * cols), mines)
    mask = np.zeros(rows * cols, bool)
    mask[cells] = True
    board = Board.from_mines(mask.reshape(rows, cols))
    code = board_code(board)
    spec = decode(code)
    assert spec.kind == "board" and spec.rule == "none" and spec.seed is None
    assert (spec.rows, spec.cols, spec.mines) == (rows, cols, mines)
    assert spec.board == board
    np.testing.assert_array_equal(spec.board.mines, mask.reshape(rows, cols))


def test_presets_give_short_codes():
    assert len(seed_code(16, 30, 99, seed=2**40 - 1).replace("-", "")) == 15
    assert len(gamecode.daily("2026-11-24").replace("-", "")) <= 15


def _codes():
    rnd = random.Random(18)
    out = [seed_code(16, 30, 99, seed=rnd.getrandbits(64), rule="opening"),
           seed_code(7, 11, 20, seed=5, rule="none"), gamecode.daily("2026-01-01")]
    mask = np.array([rnd.random() < 0.2 for _ in range(12 * 9)]).reshape(12, 9)
    mask[0, 0] = True
    out.append(board_code(Board.from_mines(mask)))
    return out


@pytest.mark.parametrize("code", _codes())
def test_every_single_substitution_is_refused(code):
    symbols = code.replace("-", "")
    for i, old in enumerate(symbols):
        for new in ALPHABET:
            if new == old:
                continue
            bad = symbols[:i] + new + symbols[i + 1:]
            with pytest.raises(ValueError, match="typo"):
                decode(bad)


@pytest.mark.parametrize("code", _codes())
def test_neighbour_swaps_and_lost_characters_never_give_another_game(code):
    symbols = code.replace("-", "")
    spec = decode(code)
    for i in range(len(symbols) - 1):
        swapped = symbols[:i] + symbols[i + 1] + symbols[i] + symbols[i + 2:]
        if swapped != symbols:
            with pytest.raises(ValueError, match="typo"):
                decode(swapped)
        dropped = symbols[:i] + symbols[i + 1:]
        try:
            got = decode(dropped)
        except ValueError:
            continue
        assert got == spec    # never a different board (in practice always refused)


def test_typo_message_and_bad_characters():
    code = seed_code(9, 9, 10, seed=7)
    last = code[-1]
    bad = code[:-1] + ("0" if last != "0" else "1")
    with pytest.raises(ValueError) as exc:
        decode(bad)
    assert str(exc.value) == TYPO
    with pytest.raises(ValueError, match="except U"):
        decode(code[:-1] + "U")
    with pytest.raises(ValueError, match="empty"):
        decode("  - ")
    with pytest.raises(ValueError, match="too short"):
        decode("1A")
    with pytest.raises(TypeError, match="text"):
        decode(12345)  # type: ignore[arg-type]


def _forge(symbols):
    """A code with valid check letters over any symbols (what a typo cannot make)."""
    h = gamecode._check_value(symbols)
    text = "".join(ALPHABET[s] for s in symbols)
    return text + "".join(ALPHABET[(h >> (5 * (2 - i))) & 31] for i in range(3))


def test_newer_version_is_refused_clearly():
    body = decode_symbols(seed_code(9, 9, 10, seed=7))[:-3]
    body[0] = 2
    with pytest.raises(ValueError, match=r"newer fastmine \(code version 2.*update fastmine"):
        decode(_forge(body))
    body[0] = 0
    with pytest.raises(ValueError, match="not a fastmine game code"):
        decode(_forge(body))


def test_damaged_but_checked_codes_are_refused():
    good = decode_symbols(seed_code(9, 9, 10, seed=7))[:-3]
    with pytest.raises(ValueError, match="damaged"):
        decode(_forge(good + [5]))          # extra characters
    with pytest.raises(ValueError, match="damaged"):
        decode(_forge(good[:2]))            # ends too early
    # A custom size with 0 mines.
    w = gamecode._Writer()
    w.put(1, 5)
    w.put(0, 1)
    w.put(0, 2)
    w.put(0, 1)
    for v in (4, 4, 0):
        w.put_number(v)
    w.put(0, 4)
    with pytest.raises(ValueError, match="damaged: mines must be between"):
        decode(gamecode._to_code(w))


def decode_symbols(code):
    return [ALPHABET.index(ch) for ch in code.replace("-", "")]


def test_board_codes_refuse_huge_boards_and_code_of():
    big = Board.generate(60, 60, 100, first_click=(0, 0), seed=1)
    with pytest.raises(ValueError, match="share a seed code"):
        board_code(big)
    g = Game(9, 9, 10)                      # fresh randomness: no code before the board
    assert gamecode.code_of(g) is None
    g.reveal(4, 4)
    spec = decode(gamecode.code_of(g))
    assert spec.kind == "board" and spec.board == g.board
    seeded = Game(16, 30, 99, rule="cell", seed=99)
    assert decode(gamecode.code_of(seeded)) == GameSpec("seed", 16, 30, 99, "cell", seed=99)


@pytest.mark.parametrize("rule", ["opening", "cell", "none"])
def test_a_seed_code_plays_the_same_board(clock, rule):
    original = Game(16, 30, 99, rule=rule, seed=2024, clock=clock)
    copy = gamecode.new_game(gamecode.code_of(original), clock=clock)
    for g in (original, copy):
        g.reveal(7, 11)
    assert original.board == copy.board
    np.testing.assert_array_equal(original.view, copy.view)


def test_a_board_code_plays_the_same_board_whatever_the_first_click(clock):
    original = Game(9, 9, 10, seed=3, clock=clock)
    original.reveal(0, 0)
    code = board_code(original.board)
    for first in [(0, 0), (8, 8), (4, 2)]:
        g = gamecode.new_game(code, question_marks=False, clock=clock)
        assert g.board == original.board and not g.question_marks
        g.reveal(*first)
        assert g.board == original.board


def test_no_guess_seed_code_plays_the_same_board(clock):
    code = seed_code(9, 9, 10, seed=11, rule="no_guess")
    a, b = gamecode.new_game(code, clock=clock), gamecode.new_game(code, clock=clock)
    a.reveal(4, 4)
    b.reveal(4, 4)
    assert a.board == b.board


def test_daily_is_stable_and_differs_across_dates_and_difficulties():
    d = dt.date(2026, 11, 24)
    code = gamecode.daily(d)
    assert code == gamecode.daily("2026-11-24") == gamecode.daily(dt.datetime(2026, 11, 24, 23))
    # Pinned: everyone, on any machine and any later fastmine, gets this code that day.
    assert code == "16JGD-2EABH-C0P7J"
    spec = decode(code)
    assert (spec.rows, spec.cols, spec.mines, spec.rule) == (16, 30, 99, "opening")
    days = {gamecode.daily(d + dt.timedelta(days=i)) for i in range(60)}
    assert len(days) == 60
    assert gamecode.daily(d, "beginner") != code
    assert decode(gamecode.daily(d, "beginner")).rows == 9
    with pytest.raises(ValueError, match="unknown difficulty"):
        gamecode.daily(d, "impossible")
    with pytest.raises(ValueError, match="2026-11-24"):
        gamecode.daily("24/11/2026")


def test_bad_arguments():
    with pytest.raises(TypeError, match="integer seed"):
        seed_code(9, 9, 10, seed=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed must be"):
        seed_code(9, 9, 10, seed=2**64)
    with pytest.raises(ValueError, match="unknown first-click rule"):
        seed_code(9, 9, 10, seed=1, rule="safe")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mines must be"):
        seed_code(9, 9, 81, seed=1)
    with pytest.raises(TypeError):
        board_code("board")  # type: ignore[arg-type]
