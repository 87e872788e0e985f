"""The coach's compiled replay judges as the move-by-move reference does.

:func:`fastmine.coach.analyze` replays a game's moves in a compiled loop
(fastmine.coach._replay); tests/coach_reference.py judges the same moves one
at a time in Python, on a :class:`fastmine.Game`, as the live coach does.
Every verdict must be the same, and so must every error, whatever the moves:
random play with flags, question marks, chords, clicks on open cells, moves
before the first reveal, under each first-click rule; real recorded games.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from coach_reference import analyze_reference, same_verdicts
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine.coach import analyze, judging

VIDEOS = Path(__file__).resolve().parent / "data" / "videos"


def outcome(fn: Any, *args: Any, **kw: Any) -> tuple[str, Any]:
    try:
        return "ok", fn(*args, **kw)
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)


def assert_both(board: fastmine.Board, moves: Any, **kw: Any) -> list[judging.Verdict] | None:
    ours = outcome(analyze, board, moves, **kw)
    theirs = outcome(analyze_reference, board, moves, **kw)
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] != "ok":
        assert ours[1] == theirs[1]
        return None
    same_verdicts(ours[1], theirs[1])
    return ours[1]   # type: ignore[no-any-return]


def random_moves(rng: np.random.Generator, board: fastmine.Board, n: int,
                 past_the_end: bool) -> list[tuple[int, int, int]]:
    """Moves as a move log's rows: mostly reveals of unknown cells (safe ones
    more often), flags both ways, chords on numbers, clicks on open cells."""
    game = fastmine.Game.from_board(board, question_marks=True)
    moves: list[tuple[int, int, int]] = []
    rows, cols = board.shape
    while len(moves) < n:
        if game.state.is_over:
            if past_the_end:            # one move too many: both must refuse it
                moves.append((int(rng.integers(4)), int(rng.integers(rows)),
                              int(rng.integers(cols))))
            break
        view = game.view
        x = rng.random()
        unknown = np.argwhere(view < 0)
        if x < 0.2:
            kind = int(rng.choice([1, 3]))
            r, c = unknown[rng.integers(len(unknown))]
        elif x < 0.35:
            kind = 2
            r, c = int(rng.integers(rows)), int(rng.integers(cols))
        elif x < 0.4:
            kind = 0
            r, c = int(rng.integers(rows)), int(rng.integers(cols))
        else:
            kind = 0
            pool = np.argwhere((view < 0) & ~board.mines)
            if len(pool) == 0 or rng.random() < 0.1:
                pool = unknown
            r, c = pool[rng.integers(len(pool))]
        r, c = int(r), int(c)
        kind |= int(rng.random() < 0.1) * 4          # now and then a solver's move
        moves.append((kind, r, c))
        game._play_logged(kind, r, c)
    return moves


def random_game(seed: int, rule: str, rows: int, cols: int, past_the_end: bool
                ) -> tuple[fastmine.Board, list[tuple[int, int, int]]] | None:
    """A random board and random_moves on it (None: too many mines for the rule)."""
    rng = np.random.default_rng(seed)
    mines = int(rng.integers(0, rows * cols))
    first = (int(rng.integers(rows)), int(rng.integers(cols)))
    try:
        board = fastmine.Board.generate(rows, cols, mines, seed=seed, first_click=first,
                                        rule="cell" if rule == "none" else rule)
    except ValueError:                  # too many mines for the rule's free cells
        return None
    moves = random_moves(rng, board, 60, past_the_end)
    if rule != "none" and moves and (moves[0][0] & 3) == 0:
        moves[0] = (moves[0][0], *first)     # the free first click where the rule made it
    return board, moves


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["opening", "cell", "none"]),
       st.integers(1, 8), st.integers(1, 10), st.booleans(), st.booleans())
def test_random_play_matches_the_reference(seed, rule, rows, cols, past_the_end, as_array):
    game = random_game(seed, rule, rows, cols, past_the_end)
    if game is None:
        return
    board, moves = game
    arr = np.array(moves, np.int64).reshape(-1, 3)
    assert_both(board, arr if as_array else [tuple(m) for m in moves], rule=rule)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["beginner", "intermediate", "expert"]))
def test_solver_games_with_guesses_match_the_reference(seed, level):
    rows, cols, mines = fastmine.DIFFICULTIES[level]
    game = fastmine.Game(rows, cols, mines, rule="opening", seed=seed)
    rng = np.random.default_rng(seed)
    while not game.state.is_over and len(game.moves) < 400:
        if game.board is not None and rng.random() < 0.03:
            # a guess while safe cells may exist: what safe play judges
            cells = np.argwhere(game.view < 0)
            r, c = (int(v) for v in cells[rng.integers(len(cells))])
            game.reveal(r, c)
        else:
            fastmine.solver.step(game)
    assert game.board is not None
    verdicts = assert_both(game.board, game.moves, rule="opening")
    assert verdicts is not None and len(verdicts) == len(game.moves)


def _videos():
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    for path in sorted(VIDEOS.glob("*")):
        if path.suffix in (".avf", ".rmv", ".mvf", ".evf") and "invalid" not in path.name:
            video = read_video(path)
            yield path.name, rebuild(video, play_video(video))


@pytest.mark.parametrize("name,game", list(_videos()), ids=lambda x: x if isinstance(x, str) else "")
def test_real_games_match_the_reference(name, game):
    assert_both(game.board, game.moves, rule=game.rule, question_marks=game.question_marks)


CORNERS = fastmine.Board.from_mines([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])


@pytest.mark.parametrize("moves, rule", [
    ([("reveal", 0, 0), ("reveal", 1, 1)], "none"),             # after the end
    ([("reveal", 1, 1), ("mark", 9, 0)], "cell"),               # off the board
    ([("reveal", 1, 1), ("reveal", 2**70, 0)], "cell"),         # far off the board
    ([("reveal", 0, 0), ("reveal", 2**70, 0)], "none"),         # ... after the end
    ([("reveal", 0, 0)], "cell"),                               # a free first click on a mine
    ([("reveal", 1, 1), ("jump", 0, 0)], "cell"),               # an unknown kind
    ([("reveal", 0, 0), ("jump", 0, 0)], "none"),               # ... comes first
    ([("reveal", 1, 1), ("reveal", 0)], "cell"),                # not a move
    ([("reveal", 1, 1), ("reveal", 1.5, 0)], "cell"),           # not integers
    (np.array([[0, 1, 1, 0], [9, 0, 0, 0]]), "cell"),           # a move log's unknown kind
    (np.array([[0, 0, 0, 0], [9, 0, 0, 0]]), "none"),           # ... after the end
    (np.array([[0, 1, 1], [2, -1, 0]]), "cell"),                # a move log off the board
    (np.array([[0, 1, 1]], np.uint64), "cell"),                 # unsigned 64-bit rows
    (np.zeros((0, 4), np.int64), "cell"),                       # no moves
])
def test_errors_are_the_reference_s(moves, rule):
    assert_both(CORNERS, moves, rule=rule)


def test_an_iterator_that_fails_fails_where_the_reference_does():
    def moves(first: tuple[int, int]):
        yield ("reveal", *first)
        yield ("reveal", 1, 2)
        raise RuntimeError("the source failed")

    for fn in (analyze, analyze_reference):
        # (0, 0) is a mine: the game is over before the source fails
        with pytest.raises(ValueError, match="after the game ended"):
            fn(CORNERS, moves((0, 0)), rule="none")
        with pytest.raises(RuntimeError, match="the source failed"):
            fn(CORNERS, moves((1, 1)), rule="cell")


def test_a_budget_spent_leaves_the_same_moves_unanalysed():
    game = fastmine.Game(16, 30, 99, rule="opening", seed=11)
    while not game.state.is_over:
        fastmine.solver.step(game)
    assert game.board is not None
    ours = analyze(game.board, game.moves, rule="opening", budget=0)
    theirs = analyze_reference(game.board, game.moves, rule="opening", budget=0)
    same_verdicts(ours, theirs)
    assert {v.category for v in ours} <= {judging.Category.FIRST_CLICK,
                                          judging.Category.NOT_ANALYSED,
                                          judging.Category.NO_EFFECT, judging.Category.MARK,
                                          judging.Category.FLAG, judging.Category.WRONG_FLAG}


def assert_tally_agrees(board: fastmine.Board, moves: Any, **kw: Any) -> None:
    """tally's counts are analyze's categories counted, its verdicts are
    analyze's of the moves a summary speaks of, and the summaries agree."""
    from fastmine.coach import summary, summary_lines, tally

    ours = outcome(tally, board, moves, **kw)
    full = outcome(analyze, board, moves, **kw)
    assert ours[0] == full[0], (ours, full)
    if ours[0] != "ok":
        assert ours[1] == full[1]
        return
    counts, said = ours[1]
    verdicts = full[1]
    assert counts == Counter(v.category for v in verdicts)
    assert said == [v for v in verdicts if v.category in _WORTH or not v.survived]
    assert summary(said) == summary(verdicts)
    assert summary_lines(said) == summary_lines(verdicts)


_WORTH = {judging.Category.FORCED_GUESS, judging.Category.AVOIDABLE_RISK,
          judging.Category.EARLY_GUESS, judging.Category.FORCED_EARLY,
          judging.Category.WORSE_GUESS, judging.Category.WRONG_FLAG,
          judging.Category.NOT_ANALYSED}


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["opening", "cell", "none"]),
       st.integers(1, 8), st.integers(1, 10), st.booleans())
def test_tally_counts_and_says_what_analyze_does(seed, rule, rows, cols, past_the_end):
    game = random_game(seed, rule, rows, cols, past_the_end)
    if game is None:
        return
    board, moves = game
    assert_tally_agrees(board, np.array(moves, np.int64).reshape(-1, 3), rule=rule)


@pytest.mark.parametrize("name,game", list(_videos()), ids=lambda x: x if isinstance(x, str) else "")
def test_tally_on_real_games(name, game):
    assert_tally_agrees(game.board, game.moves, rule=game.rule,
                        question_marks=game.question_marks)


def test_tally_refuses_what_analyze_refuses():
    with pytest.raises(TypeError, match="tally needs a fastmine.Board"):
        from fastmine.coach import tally
        tally("board", [])  # type: ignore[arg-type]


@pytest.fixture
def solver_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position handed to the solver's count, as a component too large
    for the label counter is (its budget one step)."""
    monkeypatch.setattr(judging, "_KEPT_BUDGET", 1)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["opening", "cell", "none"]),
       st.integers(1, 8), st.integers(1, 10))
def test_positions_handed_to_the_solver_are_judged_alike(seed, rule, rows, cols):
    game = random_game(seed, rule, rows, cols, False)
    if game is None:
        return
    board, moves = game
    judging._KEPT_BUDGET = 1
    try:
        assert_both(board, np.array(moves, np.int64).reshape(-1, 3), rule=rule)
    finally:
        judging._KEPT_BUDGET = 0


@pytest.mark.parametrize("name,game", list(_videos()), ids=lambda x: x if isinstance(x, str) else "")
def test_real_games_handed_to_the_solver_are_judged_alike(name, game, solver_counts):
    assert_both(game.board, game.moves, rule=game.rule, question_marks=game.question_marks)



def test_a_kept_counter_serves_the_next_game_of_the_board():
    """The label counter of a board is kept for the next game of that board: the
    same game judged again (its first view the last one's, so the counter's
    labels must come from the row kept with it), then another, then the first
    once more, each as the reference judges it."""
    games = []
    for seed in (11, 12):
        game = fastmine.Game(16, 30, 99, rule="opening", seed=seed)
        while not game.state.is_over and len(game.moves) < 300:
            fastmine.solver.step(game)
        games.append(game)
    for game in (games[0], games[0], games[1], games[0]):
        assert_both(game.board, game.moves, rule="opening")
    assert len(judging._kept_pool) >= 1


def test_a_kept_counter_judges_the_same_position_again():
    """A game whose one count is the position the last game ended on: the
    counter finds the view unchanged and keeps its labels, which must be the
    ones kept with it (not an empty row)."""
    for seed in range(20):
        board = fastmine.Board.generate(6, 6, 8, seed=seed, first_click=(0, 0), rule="cell")
        game = fastmine.Game.from_board(board)
        game.reveal(0, 0)
        hidden = [tuple(int(v) for v in p) for p in np.argwhere(game.view < 0)]
        moves = [("reveal", 0, 0), ("reveal", *hidden[-1])]
        first = assert_both(board, moves, rule="cell")
        again = assert_both(board, moves, rule="cell")
        assert first is not None and again is not None
        same_verdicts(first, again)
