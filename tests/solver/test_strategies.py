"""Each strategy on crafted positions, plus argument checks and whole games."""

from __future__ import annotations

import numpy as np
import pytest
from solver_fixtures import game_at, needs_exact

import fastmine
from fastmine import FLAG, HIDDEN, QUESTION, GameState
from fastmine.solver.strategies import STRATEGIES, first_click_for, play, step

# 1-2-1 against the top wall: (0,1) is safe, (0,0) and (0,2) are mines.
ONE_TWO_ONE = dict(mask=["*.*", "...", "..."], reveals=[(2, 1)])
# Only the mine count proves column 0 safe: both mines must touch the 2.
GLOBAL = dict(mask=["...*", "....", "..*."], reveals=[(2, 3), (1, 2)])


def copy(game: fastmine.Game) -> fastmine.Game:
    return fastmine.Game.from_dict(game.to_dict())


def clicked(changed) -> tuple[int, int]:
    """The cell a move acted on (the engine lists it first)."""
    return int(changed[0][0]), int(changed[0][1])


# ------------------------------------------------------------------ arguments

def test_unknown_strategy_lists_the_choices():
    game = game_at(**ONE_TWO_ONE)
    with pytest.raises(ValueError, match="best, auto, deterministic"):
        step(game, "greedy")
    with pytest.raises(TypeError):
        step(game, 3)
    with pytest.raises(ValueError):
        play(game, "greedy")


def test_needs_a_game():
    with pytest.raises(TypeError, match="fastmine.Game"):
        step("game")
    with pytest.raises(TypeError):
        play(np.zeros((3, 3)))


def test_bad_rng_and_first_click():
    with pytest.raises(TypeError):
        step(game_at(**ONE_TWO_ONE), "random", rng="seed")
    with pytest.raises(TypeError):
        play(fastmine.Game(9, 9, 10), "random", first_click=[0, 0])


@pytest.mark.parametrize("option", ["endgame", "lookahead"])
def test_search_switches_must_be_booleans(option):
    game = fastmine.Game(9, 9, 10, seed=1)
    with pytest.raises(TypeError, match=f"{option} must be True or False"):
        play(game, "best", **{option: "no"})   # a truthy string would have meant "on"
    assert game.state is fastmine.GameState.READY       # nothing was played
    assert play(game, "best", rng=1, **{option: False}).is_over


def test_finished_and_paused_games():
    game = game_at(["*."], reveals=[(0, 1)])
    assert game.state is GameState.WON
    with pytest.raises(fastmine.GameOverError):
        step(game, "random")
    game = game_at(**ONE_TWO_ONE)
    game.pause()
    with pytest.raises(fastmine.GamePausedError):
        step(game, "deterministic")


@pytest.mark.parametrize("strategy", ["random", "deterministic", "auto"])
def test_first_move_follows_the_rule(strategy):
    game = fastmine.Game(16, 30, 99, rule="opening", seed=5)
    changed = step(game, strategy, rng=0)
    assert clicked(changed) == (3, 3)
    assert game.assisted and game.state is GameState.PLAYING
    assert game.view[3, 3] == 0


def test_first_move_on_intermediate_opens_at_2_2():
    """At Intermediate's density the opening goes to (2, 2), not (3, 3)."""
    game = fastmine.Game(16, 16, 40, rule="opening", seed=5)
    assert clicked(step(game, "best")) == (2, 2)
    assert game.view[2, 2] == 0


def test_first_click_positions():
    assert first_click_for(16, 30, "opening", 99) == (3, 3)       # Expert
    assert first_click_for(16, 16, "opening", 40) == (2, 2)       # Intermediate
    assert first_click_for(16, 16, "opening", 52) == (3, 3)       # as dense as Expert
    assert first_click_for(16, 30, "opening", 75) == (2, 2)       # as sparse as Intermediate
    assert first_click_for(9, 9, "opening", 10) == (2, 2)
    assert first_click_for(9, 9, "opening", 30) == (2, 2)         # small: never (3, 3)
    assert first_click_for(2, 2, "opening", 1) == (1, 1)
    assert first_click_for(16, 30, "none", 99) == (0, 0)
    assert first_click_for(16, 30, "no_guess", 99) == (8, 15)
    with pytest.raises(TypeError, match="mines must be an integer"):
        first_click_for(16, 16, "opening", "40")
    with pytest.raises(TypeError):
        first_click_for(16, 16, "opening")      # the mine count decides
    for bad in (0, 256, -1):
        with pytest.raises(ValueError, match="holds 1 to 255 mines"):
            first_click_for(16, 16, "opening", bad)


def test_play_first_click_override():
    game = fastmine.Game(9, 9, 10, rule="cell", seed=2)
    play(game, "random", first_click=(8, 8), rng=0)
    assert game.view[8, 8] >= 0            # the cell rule kept the first click safe


# ------------------------------------------------------------------ random

def test_random_is_uniform_over_unflagged_hidden_cells():
    game = game_at(["*...", "....", "...*"], reveals=[(1, 1)], flags=[(0, 0)])
    game.toggle_mark(0, 1)
    game.toggle_mark(0, 1)        # (0, 1) is now a question mark: still eligible
    assert game.view[0, 1] == QUESTION
    open_cells = {tuple(x) for x in np.argwhere((game.view == HIDDEN) | (game.view == QUESTION))}
    seen = {}
    for seed in range(400):
        cell = clicked(step(copy(game), "random", rng=seed))
        seen[cell] = seen.get(cell, 0) + 1
    assert set(seen) == open_cells          # never the flag, every other cell
    assert min(seen.values()) > 400 / len(open_cells) / 3


# ------------------------------------------------------------------ deterministic

def test_deterministic_chords_when_flags_match():
    game = game_at(["*..", "...", "..."], reveals=[(1, 1)], flags=[(0, 0)])
    step(game, "deterministic")
    assert game.chord_clicks == 1
    assert game.state is GameState.WON


def test_deterministic_flags_forced_mines():
    game = game_at(["*.*.."], reveals=[(0, 4)])
    changed = step(game, "deterministic")
    assert clicked(changed) == (0, 2) and game.view[0, 2] == FLAG


def test_deterministic_clears_a_question_mark_on_the_way_to_a_flag():
    game = game_at(["*.*.."], reveals=[(0, 4)])
    game.toggle_mark(0, 2)
    game.toggle_mark(0, 2)
    assert game.view[0, 2] == QUESTION
    step(game, "deterministic")
    assert game.view[0, 2] == HIDDEN
    step(game, "deterministic")
    assert game.view[0, 2] == FLAG


def test_deterministic_trusts_flags_even_wrong_ones():
    game = game_at(["*..", "...", "..."], reveals=[(1, 1)], flags=[(0, 1)])
    step(game, "deterministic")           # chords on the wrong flag
    assert game.state is GameState.LOST


def test_deterministic_has_no_move_on_one_two_one():
    game = game_at(**ONE_TWO_ONE)
    assert len(step(game, "deterministic")) == 0
    assert play(game, "deterministic") is GameState.PLAYING


# ------------------------------------------------------------------ inference

def test_inference_reveals_the_safe_cell_of_one_two_one():
    game = game_at(**ONE_TWO_ONE)
    assert clicked(step(game, "inference")) == (0, 1)
    assert game.state is GameState.WON


@needs_exact
def test_inference_uses_the_mine_count():
    game = game_at(**GLOBAL)
    assert clicked(step(game, "inference")) == (0, 0)


@needs_exact
def test_inference_flags_a_certain_mine_when_nothing_is_safe():
    game = game_at(["*.*.."], reveals=[(0, 4)])     # (0,2) is a mine; (0,0)/(0,1) a 50/50
    assert clicked(step(game, "inference")) == (0, 2)
    assert game.view[0, 2] == FLAG
    assert len(step(game, "inference")) == 0       # nothing else is certain


def test_inference_ignores_wrong_flags():
    game = game_at(**ONE_TWO_ONE, flags=[(0, 1)])
    changed = step(game, "inference")       # un-flags the safe cell first
    assert clicked(changed) == (0, 1) and game.view[0, 1] != FLAG
    while game.view[0, 1] < 0:
        step(game, "inference")
    assert game.state is GameState.WON


# ------------------------------------------------------------------ probability

@needs_exact
def test_probability_looks_only_at_the_frontier():
    game = game_at(**GLOBAL)
    cell = clicked(step(copy(game), "probability", rng=0))
    assert cell[1] != 0           # column 0 is safe, but off the frontier


@needs_exact
def test_probability_takes_a_certain_frontier_cell():
    game = game_at(**ONE_TWO_ONE)
    assert clicked(step(game, "probability", rng=0)) == (0, 1)


# ------------------------------------------------------------------ auto

def test_auto_prefers_single_cell_rules():
    game = game_at(["*.*.."], reveals=[(0, 4)])
    step(game, "auto")
    assert game.view[0, 2] == FLAG


@needs_exact
def test_auto_falls_back_to_inference_then_random():
    game = game_at(**ONE_TWO_ONE)
    assert clicked(step(game, "auto")) == (0, 1)
    game = game_at(["*.", ".."], reveals=[(1, 1)])   # a 1 seeing three cells: a guess
    changed = step(game, "auto", rng=3)
    assert len(changed) and game.left_clicks == 2


# ------------------------------------------------------------------ best

@needs_exact
def test_best_takes_certain_cells_first():
    game = game_at(**ONE_TWO_ONE)
    assert clicked(step(game, "best")) == (0, 1)
    game = game_at(**GLOBAL)
    assert clicked(step(game, "best"))[1] == 0


@needs_exact
def test_best_never_flags():
    for seed in range(20):
        game = fastmine.Game(9, 9, 10, rule="opening", seed=seed)
        play(game, "best", rng=seed)
        assert game.right_clicks == 0


@needs_exact
def test_best_unflags_a_wrongly_flagged_safe_cell():
    game = game_at(**ONE_TWO_ONE, flags=[(0, 1)])
    assert play(game, "best") is GameState.WON


@needs_exact
def test_best_guesses_a_corner_off_the_frontier():
    mask = np.zeros((6, 6), bool)
    mask[1, 1] = mask[3, 4] = mask[4, 1] = True
    game = fastmine.Game.from_board(fastmine.Board.from_mines(mask))
    game.reveal(0, 0)                       # shows 1: its three neighbours are risky
    assert game.view[0, 0] == 1
    cell = clicked(step(game, "best", rng=0))
    assert cell in {(0, 5), (5, 0), (5, 5)}


@needs_exact
def test_best_endgame_picks_the_better_guess():
    # Two hidden cells left with one mine and nothing to tell them apart: 50/50,
    # but best still moves and the game ends.
    game = game_at(["*.", ".."], reveals=[(1, 0), (1, 1)])
    assert game.view[1, 0] == 1
    assert play(game, "best", rng=1) in (GameState.WON, GameState.LOST)


@needs_exact
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_finishes_or_stops(strategy):
    for seed in range(5):
        game = fastmine.Game(9, 9, 10, rule="opening", seed=seed)
        state = play(game, strategy, rng=seed)
        assert state is game.state
        assert state.is_over or strategy in ("deterministic", "inference")


@needs_exact
def test_play_is_reproducible():
    def run(seed):
        g = fastmine.Game(16, 16, 40, rule="cell", seed=seed)
        play(g, "best", rng=seed)
        return g.to_dict()["cells"], g.state

    assert run(11) == run(11)
