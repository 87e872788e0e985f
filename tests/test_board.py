"""Board.from_mines against the reference: counts, 3BV, openings, views of the arrays."""

from __future__ import annotations

import numpy as np
import pytest
from engine_strategies import masks
from hypothesis import given
from reference import RefBoard

import fastmine
from fastmine import Board


def check_against_reference(mask) -> None:
    board = Board.from_mines(mask)
    ref = RefBoard(mask)
    assert (board.rows, board.cols) == (ref.rows, ref.cols)
    assert board.shape == (ref.rows, ref.cols)
    assert board.mine_count == ref.mine_count
    assert board.mines.tolist() == ref.mines
    assert board.counts.tolist() == ref.counts
    assert board.openings() == len(ref.openings())
    assert board.bbbv() == ref.bbbv()


@given(masks())
def test_from_mines_matches_reference(mask):
    check_against_reference(mask)


@given(masks(max_side=40))
def test_from_mines_matches_reference_larger(mask):
    check_against_reference(mask)


@pytest.mark.parametrize("mask", [
    [[1, 0]], [[0, 1]], [[1], [0]], [[0], [1]],
    [[0, 0, 1, 0, 0, 0, 1, 0]],
    [[0], [0], [1], [0], [0], [0]],
    [[1, 1, 1], [1, 0, 1], [1, 1, 1]],
    [[0, 0, 0], [0, 1, 0], [0, 0, 0]],
    [[1] * 7 + [0]],
])
def test_small_and_thin_boards(mask):
    check_against_reference(mask)


def test_known_board():
    board = Board.from_mines([
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 0, 1],
    ])
    assert board.counts.tolist() == [
        [0, 0, 0, 0],
        [1, 1, 1, 0],
        [1, 0, 2, 1],
        [1, 1, 2, 0],
    ]
    # One opening (the top two rows and (2,2), (2,3)), plus (2,0), (3,0), (3,1)
    # and (3,2), which no opening uncovers.
    assert board.openings() == 1
    assert board.bbbv() == 5
    assert str(board) == "....\n111.\n1*21\n112*"


def test_mask_types_are_equivalent():
    lists = [[False, True, False], [True, False, False]]
    boards = [
        Board.from_mines(lists),
        Board.from_mines([[0, 1, 0], [1, 0, 0]]),
        Board.from_mines(np.array(lists)),
        Board.from_mines(np.array(lists, dtype=np.int64)),
        Board.from_mines(np.array(lists, dtype=np.uint8)),
        Board.from_mines(np.asfortranarray(np.array(lists))),
        Board.from_mines(np.repeat(np.array(lists), 2, axis=0)[::2]),  # a strided view
    ]
    for b in boards[1:]:
        assert b == boards[0]
        assert hash(b) == hash(boards[0])
    assert Board.from_mines([[1, 0, 0], [0, 0, 0]]) != boards[0]
    assert boards[0] != "not a board"


def test_board_arrays_are_read_only_and_caller_mask_is_copied():
    mask = np.zeros((4, 5), bool)
    mask[1, 2] = True
    board = Board.from_mines(mask)
    mask[1, 2] = False  # the board must not see this
    assert board.mines[1, 2]
    assert board.mines.dtype == np.bool_ and board.counts.dtype == np.int8
    assert board.mines.shape == board.counts.shape == (4, 5)
    generated = Board.generate(4, 5, 3, first_click=(0, 0), seed=1)
    for arr in (board.mines, board.counts, generated.mines, generated.counts):
        assert not arr.flags.writeable
        with pytest.raises(ValueError):
            arr[0, 0] = 1
        with pytest.raises(ValueError):  # a Board is immutable, not just its views
            arr.flags.writeable = True


def test_board_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="Board.generate"):
        Board()


def test_bbbv_is_cached_and_repr():
    board = Board.from_mines([[0, 0, 1], [0, 0, 0], [0, 0, 0]])
    assert board.bbbv() == board.bbbv() == 1
    assert board.openings() == 1
    assert repr(board) == "<Board 3x3, 1 mines>"


def test_codes_agree_with_reference():
    import reference
    for name in ("HIDDEN", "FLAG", "QUESTION", "MINE", "EXPLODED", "WRONG_FLAG"):
        assert getattr(fastmine, name) == getattr(reference, name)
    codes = [fastmine.HIDDEN, fastmine.FLAG, fastmine.QUESTION, fastmine.MINE,
             fastmine.EXPLODED, fastmine.WRONG_FLAG]
    assert len(set(codes)) == 6 and not set(codes) & set(range(9))
