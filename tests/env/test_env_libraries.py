"""What learning libraries need of the observations: every entry of a batch has an
axis to flatten (Stable-Baselines3's MultiInputPolicy flattens each from its second
axis), and, where Stable-Baselines3 is installed, PPO and sb3-contrib's MaskablePPO
learn on the environment."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import fastmine.env  # noqa: E402,F401
from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv  # noqa: E402

ID = "fastmine/Minesweeper-v0"


@pytest.mark.parametrize("one_hot", [False, True])
def test_every_observation_entry_has_an_axis_to_flatten(one_hot):
    env = MinesweeperEnv(5, 6, 4, one_hot=one_hot)
    obs, _ = env.reset(seed=1)
    for key, space in env.observation_space.spaces.items():
        assert space.shape != () and obs[key].shape == space.shape, key
    assert obs["mines_left"].shape == (1,) and obs["mines_left"].tolist() == [4]
    for copy in (True, False):
        envs = MinesweeperVectorEnv(3, copy=copy, rows=5, cols=6, mines=4, one_hot=one_hot)
        obs, _ = envs.reset(seed=1)
        obs, *_ = envs.step(envs.random_reveals())
        for key, space in envs.single_observation_space.spaces.items():
            assert obs[key].shape == (3, *space.shape), key
            assert obs[key].reshape(3, -1).shape[1] == int(np.prod(space.shape))
        assert obs["mines_left"].shape == (3, 1)
    # Flattened as Gymnasium does it: one vector, the mine count first.
    flat, _ = gym.wrappers.FlattenObservation(gym.make(ID, rows=5, cols=6, mines=4)).reset(seed=1)
    assert flat.shape == (31,) and flat[0] == 4


@pytest.mark.parametrize("algorithm", ["PPO", "MaskablePPO"])
def test_stable_baselines3_learns_with_its_multi_input_policy(algorithm):
    pytest.importorskip("torch")
    sb3 = pytest.importorskip("stable_baselines3")
    cls = (pytest.importorskip("sb3_contrib").MaskablePPO if algorithm == "MaskablePPO"
           else sb3.PPO)
    from stable_baselines3.common.env_checker import check_env

    env = gym.make(ID, rows=5, cols=5, mines=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # (its note that a 2-D view is not an image)
        check_env(env.unwrapped)
    model = cls("MultiInputPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0)
    model.learn(64)
    obs, info = env.reset(seed=3)
    kwargs = {"action_masks": info["action_mask"]} if algorithm == "MaskablePPO" else {}
    action, _ = model.predict(obs, deterministic=True, **kwargs)
    assert 0 <= int(action) < 25
    if algorithm == "MaskablePPO":
        assert info["action_mask"][int(action)]
