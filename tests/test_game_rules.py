"""Game rules: random move sequences against the reference, and the rules one by one."""

from __future__ import annotations

import numpy as np
import pytest
from engine_strategies import assert_same, changed_set, masks, moves, play_both, play_one, ref_of
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from reference import RefBoard, RefGame, neighbours

import fastmine
from fastmine import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, Board, Game, GameState


@settings(max_examples=300)
@given(masks(), moves, st.booleans())
def test_moves_match_reference(mask, script, question_marks):
    game = Game.from_board(Board.from_mines(mask), question_marks=question_marks)
    ref = RefGame(RefBoard(mask), question_marks=question_marks)
    assert_same(game, ref)
    play_both(game, ref, script)


@settings(max_examples=200)
@given(
    st.sampled_from([(9, 9, 10), (5, 5, 20), (4, 7, 3), (1, 12, 4), (12, 1, 11), (8, 8, 60)]),
    st.sampled_from(["cell", "opening", "none"]),
    st.integers(0, 2**64 - 1),
    st.integers(0, 10**6),
    moves,
)
def test_generated_games_match_reference(size, rule, seed, first, script):
    """Once a generated game has laid its mines, it plays like a fixed board."""
    rows, cols, mines = size
    game = Game(rows, cols, mines, rule=rule, seed=seed)
    fr, fc = divmod(first % (rows * cols), cols)
    changed = changed_set(game.reveal(fr, fc))
    ref = RefGame(ref_of(game.board))
    assert changed == ref.reveal(fr, fc)
    assert_same(game, ref)
    play_both(game, ref, script)


def test_reveal_floods_zero_region_and_its_border():
    game = Game.from_board(Board.from_mines([
        [0, 0, 0, 0, 1],
        [0, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [0, 0, 0, 1, 0],
    ]))
    changed = changed_set(game.reveal(0, 0))
    assert game.view.tolist() == [
        [0, 0, 0, 1, -1],
        [2, 2, 1, 1, -1],
        [-1, -1, -1, -1, -1],
        [-1, -1, -1, -1, -1],
    ]
    assert changed == {(r, c) for r in range(2) for c in range(4)}
    assert game.state is GameState.PLAYING


def test_flags_stop_the_flood_and_flagged_cells_cannot_be_revealed():
    game = Game.from_board(Board.from_mines([[0, 0, 0, 0, 0, 1]]))
    game.toggle_mark(0, 2)
    assert changed_set(game.reveal(0, 2)) == set()
    assert game.view[0, 2] == FLAG
    assert game.state is GameState.READY  # a refused reveal does not start the game
    assert changed_set(game.reveal(0, 0)) == {(0, 0), (0, 1)}
    assert game.view.tolist() == [[0, 0, FLAG, HIDDEN, HIDDEN, HIDDEN]]


def test_question_marked_cells_can_be_revealed_and_are_flooded():
    game = Game.from_board(Board.from_mines([[0, 0, 0, 0, 1]]))
    game.toggle_mark(0, 1)
    game.toggle_mark(0, 1)
    assert game.view[0, 1] == QUESTION
    game.toggle_mark(0, 2)
    game.toggle_mark(0, 2)
    # ... and the win flags the mine at (0, 4).
    assert changed_set(game.reveal(0, 1)) == {(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)}
    assert game.state is GameState.WON


@pytest.mark.parametrize("question_marks, cycle", [
    (True, [FLAG, QUESTION, HIDDEN, FLAG]),
    (False, [FLAG, HIDDEN, FLAG, HIDDEN]),
])
def test_mark_cycle(question_marks, cycle):
    game = Game(3, 3, 1, question_marks=question_marks)
    seen = []
    for _ in cycle:
        assert changed_set(game.toggle_mark(1, 1)) == {(1, 1)}
        seen.append(int(game.view[1, 1]))
        assert game.mines_left == (0 if seen[-1] == FLAG else 1)
    assert seen == cycle
    assert game.state is GameState.READY and game.board is None
    assert game.right_clicks == len(cycle)


def test_marking_a_revealed_cell_does_nothing():
    game = Game.from_board(Board.from_mines([[1, 0, 0], [0, 0, 0]]))
    game.reveal(0, 1)
    assert changed_set(game.toggle_mark(0, 1)) == set()
    assert game.view[0, 1] == 1


def test_question_marks_can_be_switched_off_mid_game():
    game = Game(3, 3, 1)
    game.toggle_mark(0, 0)
    game.toggle_mark(0, 0)
    assert game.view[0, 0] == QUESTION
    game.question_marks = False
    game.toggle_mark(0, 0)
    assert game.view[0, 0] == HIDDEN
    game.toggle_mark(0, 0)
    game.toggle_mark(0, 0)
    assert game.view[0, 0] == HIDDEN


CHORD_BOARD = [
    [0, 0, 0, 0],
    [0, 1, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 1],
]


def test_chord_opens_unflagged_neighbours_when_flags_match():
    game = Game.from_board(Board.from_mines(CHORD_BOARD))
    game.reveal(0, 0)  # a 1
    assert changed_set(game.chord(0, 0)) == set()  # no flag yet: nothing
    game.toggle_mark(1, 1)
    changed = changed_set(game.chord(0, 0))
    assert changed == {(0, 1), (1, 0)}
    assert game.view[0, 1] == 1 and game.view[1, 0] == 1


def test_chord_with_too_many_flags_does_nothing():
    game = Game.from_board(Board.from_mines(CHORD_BOARD))
    game.reveal(0, 0)
    game.toggle_mark(1, 1)
    game.toggle_mark(0, 1)
    assert changed_set(game.chord(0, 0)) == set()
    assert game.state is GameState.PLAYING


def test_chord_with_a_wrong_flag_loses():
    game = Game.from_board(Board.from_mines(CHORD_BOARD))
    game.reveal(0, 0)
    game.toggle_mark(0, 1)  # wrong: the mine is at (1, 1)
    game.toggle_mark(3, 3)  # right, elsewhere
    game.toggle_mark(3, 2)  # wrong, elsewhere
    game.toggle_mark(2, 3)
    game.toggle_mark(2, 3)  # a question mark on a safe cell stays
    changed = changed_set(game.chord(0, 0))
    assert game.state is GameState.LOST
    v = game.view
    assert v[1, 1] == EXPLODED
    assert v[0, 1] == WRONG_FLAG and v[3, 2] == WRONG_FLAG
    assert v[3, 3] == FLAG
    assert v[2, 3] == QUESTION
    assert v[1, 0] == 1  # the safe neighbour was opened too
    assert changed == {(1, 1), (1, 0), (0, 1), (3, 2)}


def test_chord_on_non_numbers_does_nothing():
    game = Game.from_board(Board.from_mines([[0, 0, 1, 0, 0]]))
    assert changed_set(game.chord(0, 0)) == set()  # before any reveal
    game.reveal(0, 0)
    before = game.view.copy()
    for cell in [(0, 0), (0, 4), (0, 1)]:  # a zero, a hidden cell, a 1 without flags
        assert changed_set(game.chord(*cell)) == set()
    assert np.array_equal(game.view, before)
    assert game.chord_clicks == 4


def test_chord_on_a_revealed_zero_opens_its_hidden_neighbours():
    # The clients' rule (Arbiter, Vienna, Metasweeper): a flag stops the flood,
    # is taken off, and a chord on the 0 next to it opens it.
    mines = [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]]
    game = Game.from_board(Board.from_mines(mines), question_marks=False)
    ref = RefGame(RefBoard(mines), question_marks=False)
    for op, r, c in [("toggle_mark", 1, 1), ("reveal", 0, 0), ("toggle_mark", 1, 1)]:
        assert changed_set(getattr(game, op)(r, c)) == getattr(ref, op)(r, c)
    assert game.view[1, 1] == HIDDEN and game.view[0, 0] == 0
    assert changed_set(game.chord(0, 0)) == ref.chord(0, 0) == {(1, 1)}
    assert game.view[1, 1] == 0 and game.state is GameState.PLAYING
    assert_same(game, ref)


def test_chord_on_a_zero_with_a_flag_around_does_nothing():
    # A flag next to a 0 is a wrong one: the flags (1) do not match the 0.
    mines = [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]]
    game = Game.from_board(Board.from_mines(mines))
    game.toggle_mark(1, 1)
    game.toggle_mark(0, 1)
    game.reveal(0, 0)
    game.toggle_mark(1, 1)
    game.toggle_mark(1, 1)          # flag -> ? -> hidden: (0, 1) is still flagged
    assert game.view[0, 0] == 0 and game.view[1, 1] == HIDDEN
    assert changed_set(game.chord(0, 0)) == set()
    assert game.view[1, 1] == HIDDEN and game.chord_clicks == 1


@settings(max_examples=300)
@given(masks(), st.data(), st.booleans(), moves)
def test_chord_on_zeros_matches_reference(mask, data, question_marks, script):
    """Flags laid around a hidden 0 stop its flood; some are taken off (to
    hidden or, with question marks, to ?) and every revealed 0 is chorded, in
    a random order; then random moves.  fastmine and the reference agree on
    every move."""
    ref_board = RefBoard(mask)
    zeros = [cell for cell in ref_board.cells() if ref_board.is_zero(*cell)]
    assume(zeros)
    game = Game.from_board(Board.from_mines(mask), question_marks=question_marks)
    ref = RefGame(ref_board, question_marks=question_marks)
    start = data.draw(st.sampled_from(zeros))
    around = neighbours(ref_board.rows, ref_board.cols, *start)
    flagged = data.draw(st.lists(st.sampled_from(around), unique=True, min_size=1))
    for cell in flagged:
        play_one(game, ref, "toggle_mark", *cell)
    play_one(game, ref, "reveal", *start)
    for cell in flagged:
        for _ in range(data.draw(st.integers(0, 2))):
            play_one(game, ref, "toggle_mark", *cell)
    opened = [cell for cell in ref_board.cells() if ref.view[cell[0]][cell[1]] == 0]
    for cell in data.draw(st.permutations(opened)):
        if ref.state not in ("won", "lost"):
            play_one(game, ref, "chord", *cell)
    play_both(game, ref, script)


def test_win_view_flags_every_mine():
    game = Game.from_board(Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]]))
    game.toggle_mark(0, 0)
    game.toggle_mark(2, 2)
    game.toggle_mark(2, 2)  # a question mark on a mine
    for cell in [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0)]:
        assert game.state is not GameState.WON
        changed = changed_set(game.reveal(*cell))
    assert game.state is GameState.WON
    # The last opening, and the question-marked mine now flagged.
    assert changed == {(2, 0), (2, 1), (2, 2)}
    assert game.view.tolist() == [[FLAG, 1, 0], [1, 2, 1], [0, 1, FLAG]]
    assert game.mines_left == 0


def test_loss_view():
    mask = [[1, 0, 0, 1], [0, 0, 0, 0], [1, 0, 0, 1]]
    game = Game.from_board(Board.from_mines(mask))
    game.toggle_mark(0, 0)     # right flag
    game.toggle_mark(1, 1)     # wrong flag
    game.toggle_mark(2, 0)
    game.toggle_mark(2, 0)     # question mark on a mine
    game.toggle_mark(1, 2)
    game.toggle_mark(1, 2)     # question mark on a safe cell
    game.reveal(0, 1)
    changed = changed_set(game.reveal(0, 3))
    assert game.state is GameState.LOST
    assert game.view.tolist() == [
        [FLAG, 1, HIDDEN, EXPLODED],
        [HIDDEN, WRONG_FLAG, QUESTION, HIDDEN],
        [MINE, HIDDEN, HIDDEN, MINE],
    ]
    assert changed == {(0, 3), (1, 1), (2, 0), (2, 3)}
    assert game.mines_left == 2


def test_first_reveal_on_a_mine_of_a_fixed_board_loses():
    game = Game.from_board(Board.from_mines([[1, 0], [0, 0]]))
    assert changed_set(game.reveal(0, 0)) == {(0, 0)}
    assert game.state is GameState.LOST and game.state.is_over
    assert game.view[0, 0] == EXPLODED


def test_states_and_is_over():
    assert not GameState.READY.is_over and not GameState.PLAYING.is_over
    assert GameState.WON.is_over and GameState.LOST.is_over


def test_view_is_read_only_int8():
    game = Game(4, 4, 3, seed=1)
    assert game.view.dtype == np.int8 and game.view.shape == (4, 4) == game.shape
    with pytest.raises(ValueError):
        game.view[0, 0] = 0


def test_moves_after_the_end_raise_game_over():
    game = Game.from_board(Board.from_mines([[1, 0]]))
    game.reveal(0, 1)
    assert game.state is GameState.WON
    for move in (game.reveal, game.toggle_mark, game.chord):
        with pytest.raises(fastmine.GameOverError, match="over"):
            move(0, 0)


def test_repr():
    game = Game.from_board(Board.from_mines([[1, 0, 0]]))
    assert repr(game) == "<Game 1x3/1 ready, 0/2 revealed, 1 mines left>"
    game.reveal(0, 2)
    assert game.revealed_count == 2 and game.state is GameState.WON
