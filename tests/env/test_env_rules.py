"""The environment against fastmine.Game: same seeds, same observations,
rewards, masks and ends over random episodes, for every option."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_reference import ReferenceEnv, choose  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fastmine  # noqa: E402
from fastmine.env import MinesweeperEnv, Rewards  # noqa: E402


def play_both(env: MinesweeperEnv, ref: ReferenceEnv, seed: int, episodes: int,
              invalid_rate: float = 0.05) -> int:
    """Play ``episodes`` episodes on both, asserting they agree at every step;
    returns the steps played."""
    rng = np.random.default_rng(seed)
    kinds = env.options.kinds
    steps = 0
    for ep in range(episodes):
        obs, info = env.reset(seed=seed) if ep == 0 else env.reset()
        view, left = ref.reset(info["board_seed"])
        while True:
            assert np.array_equal(obs["view"], view), (ep, steps)
            assert obs["mines_left"].tolist() == [left]
            assert np.array_equal(info["action_mask"], ref.mask())
            a = choose(rng, info["action_mask"], ref.game.board.mines if ref.game.board else None,
                       view, kinds, invalid_rate)
            obs, reward, terminated, truncated, info = env.step(a)
            r, term, trunc, won = ref.step(a)
            view, left = ref.observation()
            steps += 1
            assert reward == r, (ep, steps, a)
            assert (terminated, truncated, info["won"]) == (term, trunc, won)
            if terminated or truncated:
                assert np.array_equal(obs["view"], view)
                assert obs["mines_left"].tolist() == [left]
                assert info["action_mask"].all()
                break
    return steps


@settings(max_examples=60)
@given(rows=st.integers(1, 9), cols=st.integers(2, 9), density=st.floats(0.02, 0.9),
       rule=st.sampled_from(["cell", "opening", "none"]),
       actions=st.sampled_from([(False, False), (True, False), (True, True)]),
       invalid=st.sampled_from(["end", "ignore"]), max_steps=st.sampled_from([None, 1, 7, 40]),
       seed=st.integers(0, 2**64 - 1))
def test_env_plays_as_game(rows, cols, density, rule, actions, invalid, max_steps, seed):
    mines = min(max(1, round(density * rows * cols)), rows * cols - 1)
    flags, chord = actions
    if invalid == "ignore" and max_steps is None:
        max_steps = 4 * rows * cols          # an episode of invalid actions never ends
    rewards = Rewards(progress=2.5, win=3.0, loss=-7.0, invalid=-0.25)
    env = MinesweeperEnv(rows, cols, mines, rule, flags=flags, chord=chord, invalid=invalid,
                         rewards=rewards, max_steps=max_steps)
    ref = ReferenceEnv(rows, cols, mines, rule, flags, chord, invalid, 2.5, 3.0, -7.0, -0.25,
                       max_steps)
    play_both(env, ref, seed % 2**32, episodes=4)


@pytest.mark.parametrize("rule", ["cell", "opening", "none"])
@pytest.mark.parametrize("size", [(9, 9, 10), (16, 16, 40), (16, 30, 99), (8, 8, 60)])
def test_standard_boards_with_chords(rule, size):
    env = MinesweeperEnv(*size, rule, flags=True, chord=True, max_steps=2000)
    ref = ReferenceEnv(*size, rule, True, True, "end", max_steps=2000)
    assert play_both(env, ref, seed=sum(size), episodes=12, invalid_rate=0.01) > 12


def test_no_guess_boards_are_the_generators():
    env = MinesweeperEnv(9, 9, 10, "no_guess", flags=True, chord=True, max_steps=500)
    ref = ReferenceEnv(9, 9, 10, "no_guess", True, True, "end", max_steps=500)
    play_both(env, ref, seed=5, episodes=3, invalid_rate=0.0)


def test_first_click_rules():
    """cell: the first reveal is safe; opening: it opens an area (a zero);
    none: it can lose; no_guess: the board is the no-guess generator's."""
    for rule in ("cell", "opening", "none"):
        env = MinesweeperEnv(9, 9, 30, rule)
        outcomes = set()
        for s in range(60):
            obs, info = env.reset(seed=s)
            obs, reward, terminated, _, info = env.step(40)
            board = fastmine.Board.generate(9, 9, 30, first_click=(4, 4), rule=rule,
                                            seed=info["board_seed"])
            assert np.array_equal(env.mine_mask, board.mines)
            lost = bool(board.mines[4, 4])
            outcomes.add(lost)
            assert terminated == lost
            if rule == "opening":
                assert obs["view"][4, 4] == 0
            elif rule == "cell":
                assert obs["view"][4, 4] >= 0
        assert outcomes == ({False, True} if rule == "none" else {False})
    env = MinesweeperEnv(9, 9, 10, "no_guess")
    _, info = env.reset(seed=3)
    env.step(4 * 9 + 4)
    board = fastmine.Board.generate(9, 9, 10, first_click=(4, 4), rule="no_guess",
                                    seed=info["board_seed"])
    assert np.array_equal(env.mine_mask, board.mines)


def test_opening_falls_back_to_the_cell_on_a_dense_board():
    # 8 cells: a 3x3 opening around (1, 1) leaves no room for 2 mines on 3x3
    env = MinesweeperEnv(3, 3, 2, "opening")
    for s in range(30):
        _, info = env.reset(seed=s)
        obs, _, terminated, _, _ = env.step(4)
        assert not terminated
        board = fastmine.Board.generate(3, 3, 2, first_click=(1, 1), rule="opening",
                                        seed=info["board_seed"])
        assert np.array_equal(env.mine_mask, board.mines)


def test_rewards_of_a_won_game_sum_to_progress_plus_win():
    env = MinesweeperEnv(9, 9, 10, "opening", rewards={"progress": 1.0, "win": 5.0})
    wins = 0
    for s in range(200):
        env.reset(seed=s)
        total, done = 0.0, False
        while not done:
            mines = env.mine_mask
            safe = np.flatnonzero(~mines.ravel() & env.action_masks())
            a = int(safe[0]) if mines.any() else 40
            _, reward, done, truncated, info = env.step(a)
            total += reward
        wins += info["won"]
        assert total == pytest.approx(6.0)
    assert wins == 200


def test_invalid_ignore_keeps_the_game_and_charges_the_penalty():
    env = MinesweeperEnv(9, 9, 10, "opening", invalid="ignore", rewards={"invalid": -0.5})
    obs, _ = env.reset(seed=1)
    obs, _, _, _, info = env.step(40)
    before = obs["view"].copy()
    opened = int(np.flatnonzero(before.ravel() >= 0)[0])
    obs, reward, terminated, truncated, info = env.step(opened)
    assert (reward, terminated, truncated) == (-0.5, False, False)
    assert np.array_equal(obs["view"], before)
    env2 = MinesweeperEnv(9, 9, 10, "opening")
    env2.reset(seed=1)
    env2.step(40)
    assert env2.step(opened)[1:4] == (-1.0, True, False)


def test_max_steps_truncates():
    env = MinesweeperEnv(9, 9, 10, "opening", flags=True, max_steps=3)
    env.reset(seed=0)
    assert env.step(81)[3] is False            # a flag
    assert env.step(81)[3] is False            # and off again
    _, _, terminated, truncated, _ = env.step(81)
    assert (terminated, truncated) == (False, True)
    with pytest.raises(fastmine.GameOverError, match="reset"):
        env.step(0)
