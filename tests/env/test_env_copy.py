"""Copies of an environment (copy.deepcopy, pickle) play on exactly as the
original would, and apart from it."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import fastmine.env  # noqa: E402,F401
from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv  # noqa: E402

SETTINGS = {"rows": 6, "cols": 7, "mines": 8, "rule": "cell", "flags": True, "chord": True,
            "invalid": "ignore", "max_steps": 40, "labels": True}


def run(env, actions_seed, steps):
    """Steps of valid or random actions (a new episode when one ends), as tuples to compare."""
    rng = np.random.default_rng(actions_seed)
    out = []
    info = {"action_mask": env.unwrapped.action_masks()}
    for _ in range(steps):
        valid = np.flatnonzero(info["action_mask"])
        a = int(rng.choice(valid)) if rng.random() < 0.8 else env.unwrapped.random_reveal()
        obs, r, te, tr, info = env.step(a)
        out.append((obs["view"].tobytes(), int(obs["mines_left"][0]), r, te, tr,
                    info["action_mask"].tobytes(), int(info["board_seed"]),
                    info["probabilities"].tobytes()))
        if te or tr:
            obs, info = env.reset()
            out.append(("reset", obs["view"].tobytes(), int(info["board_seed"])))
    return out


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "make"])
def test_a_copy_plays_on_as_the_original_would(how):
    env = (gym.make("fastmine/Minesweeper-v0", **SETTINGS) if how == "make"
           else MinesweeperEnv(**SETTINGS))
    env.reset(seed=5)
    run(env, 0, 25)                        # mid-episode, a few episodes in
    twin = (pickle.loads(pickle.dumps(env)) if how == "pickle" else copy.deepcopy(env))
    assert twin.unwrapped._batch is not env.unwrapped._batch
    assert run(twin, 1, 60) == run(env, 1, 60)
    # Apart: what the copy plays does not reach the original.
    ahead = copy.deepcopy(env)
    run(twin, 2, 30)
    assert run(env, 3, 30) == run(ahead, 3, 30)


def test_a_copy_of_a_batch_plays_on_and_owns_its_arrays():
    envs = MinesweeperVectorEnv(5, copy=False, rows=5, cols=5, mines=4, rule="opening",
                                one_hot=True)
    envs.reset(seed=9)
    for _ in range(7):
        envs.step(envs.random_reveals())
    twin = pickle.loads(pickle.dumps(envs))
    deep = copy.deepcopy(envs)
    for other in (twin, deep):
        assert np.array_equal(other.board_seeds, envs.board_seeds)
    for _ in range(20):
        a = envs.random_reveals()
        assert np.array_equal(twin.random_reveals(), a) and np.array_equal(deep.random_reveals(), a)
        got = [e.step(a) for e in (envs, twin, deep)]
        for obs, reward, term, _, info in got[1:]:
            assert np.array_equal(obs["view"], got[0][0]["view"])
            assert np.array_equal(reward, got[0][1]) and np.array_equal(term, got[0][2])
            assert np.array_equal(info["action_mask"], got[0][4]["action_mask"])
    # copy=False hands out the copy's own arrays, written by the copy's steps only.
    obs, reward, *_ = deep.step(deep.random_reveals())
    assert not np.shares_memory(reward, envs.step(envs.random_reveals())[1])
    before = obs["mines_left"].copy(), reward.copy()
    envs.step(envs.random_reveals())
    assert np.array_equal(obs["mines_left"], before[0]) and np.array_equal(reward, before[1])
    after = deep.step(deep.random_reveals())
    assert np.shares_memory(after[1], reward) and not after[1].flags.writeable
    for got, kernel in ((after[1], deep._batch.reward), (after[0]["mines_left"],
                                                         deep._batch.mines_left),
                        (after[4]["action_mask"], deep._batch.mask)):
        assert np.shares_memory(got, kernel)


def test_a_damaged_state_is_refused():
    env = MinesweeperEnv(4, 4, 3)
    rebuild, (args, state) = env._batch.__reduce__()
    with pytest.raises(ValueError, match="other settings"):
        rebuild(args, state[:-1] + (np.zeros(2, np.uint64),))
    with pytest.raises(ValueError, match="not the state"):
        rebuild(args, state[:3])
