"""Gymnasium's own checks, seeding, rendering, and bad input (nothing changes)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import fastmine  # noqa: E402
import fastmine.env  # noqa: E402
from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv, board_seeds  # noqa: E402
from fastmine.env.render import CELL  # noqa: E402

ID = "fastmine/Minesweeper-v0"


@pytest.mark.parametrize("kwargs", [
    {},
    {"rows": 9, "cols": 9, "mines": 10, "rule": "cell"},
    {"rows": 5, "cols": 4, "mines": 3, "rule": "none", "one_hot": True},
    {"rows": 9, "cols": 9, "mines": 10, "flags": True, "chord": True, "max_steps": 100,
     "invalid": "ignore"},
    {"rows": 6, "cols": 6, "mines": 5, "labels": True},
    {"rows": 8, "cols": 8, "mines": 10, "rule": "no_guess"},
])
def test_check_env_passes(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # any warning of the checker fails the test
        env = gym.make(ID, **kwargs)
        check_env(env.unwrapped)        # (with its spec: every render mode is checked too)
        env.close()


def _combinations():
    """Every rule with every action set; one-hot views, invalid modes, labels and render
    modes taking turns across them, so each meets each rule and action set."""
    rules = ("opening", "cell", "none", "no_guess")
    kinds = ({}, {"flags": True}, {"flags": True, "chord": True})
    for i, (rule, acts) in enumerate((r, a) for r in rules for a in kinds):
        yield pytest.param({"rows": 7, "cols": 6, "mines": 8, "rule": rule, **acts,
                            "one_hot": i % 2 == 1, "invalid": ("end", "ignore")[i // 2 % 2],
                            "labels": i % 3 == 0, "max_steps": 60,
                            "render_mode": (None, "ansi", "rgb_array")[i % 3]},
                           id=f"{rule}-{'+'.join(acts) or 'reveal'}")


@pytest.mark.parametrize("kwargs", list(_combinations()))
def test_gymnasiums_checkers_pass_every_rule_and_action_set(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(ID, **kwargs)          # with Gymnasium's passive checker around it
        check_env(env.unwrapped)
        obs, info = env.reset(seed=4)
        for _ in range(150):
            obs, _, terminated, truncated, info = env.step(
                env.action_space.sample(mask=info["action_mask"].astype(np.int8)))
            assert env.observation_space.contains(obs)
            if kwargs["render_mode"]:
                env.render()
            if terminated or truncated:
                obs, info = env.reset()
        env.close()


def test_make_returns_the_environment():
    env = gym.make(ID, rows=16, cols=16, mines=40, rule="cell")
    assert isinstance(env.unwrapped, MinesweeperEnv)
    obs, info = env.reset(seed=1)
    assert obs["view"].dtype == np.int8 and obs["view"].shape == (16, 16)
    assert obs["mines_left"].dtype == np.int32 and obs["mines_left"].tolist() == [40]
    assert info["action_mask"].shape == (256,) and info["action_mask"].all()
    assert env.action_space == gym.spaces.Discrete(256)
    assert env.unwrapped.action_masks().shape == (256,)


def test_action_layout():
    env = MinesweeperEnv(4, 5, 3, flags=True, chord=True)
    o = env.options
    assert env.action_space.n == 60 and o.kinds == ("reveal", "flag", "chord")
    assert o.action("flag", 2, 3) == 20 + 13
    assert o.decode(53) == ("chord", 2, 3)
    with pytest.raises(ValueError, match="reveal, flag, chord"):
        o.action("mark", 0, 0)
    with pytest.raises(ValueError, match="outside"):
        o.action("reveal", 4, 0)


def test_seeding_contract():
    env = MinesweeperEnv(9, 9, 10)
    seeds = []
    _, info = env.reset(seed=42)
    seeds.append(info["board_seed"])
    for _ in range(3):
        seeds.append(env.reset()[1]["board_seed"])
    assert seeds == board_seeds(42, 4)
    assert env.reset(seed=42)[1]["board_seed"] == seeds[0]
    # A board seed plays fastmine.Game's board with that seed.
    env.step(40)
    game = fastmine.Game(9, 9, 10, seed=seeds[0])
    game.reveal(4, 4)
    assert np.array_equal(env.mine_mask, game.board.mines)
    # board_seed option: that board once, the stream goes on where it was.
    _, info = env.reset(options={"board_seed": 99})
    assert info["board_seed"] == 99
    assert env.reset()[1]["board_seed"] == seeds[1]
    # Two unseeded environments differ; the same reset seed gives the same game.
    a, b = MinesweeperEnv(9, 9, 10), MinesweeperEnv(9, 9, 10)
    assert a.reset()[1]["board_seed"] != b.reset()[1]["board_seed"]
    moves = [40, 0, 80, 8, 72, 3, 30]
    runs = []
    for env in (a, b):
        env.reset(seed=7)
        runs.append([env.step(m)[0]["view"].tobytes() for m in moves if not _over(env)])
    assert runs[0] == runs[1]


def _over(env: MinesweeperEnv) -> bool:
    return bool(env._batch.done[0])


def test_render_modes():
    env = MinesweeperEnv(3, 4, 2, "opening", flags=True, render_mode="ansi")
    env.reset(seed=3)
    env.step(12)             # flag (0, 0)
    text = env.render()
    assert text.splitlines() == ["F###", "####", "####"]
    img = MinesweeperEnv(3, 4, 2, render_mode="rgb_array")
    img.reset(seed=3)
    pic = img.render()
    assert pic.shape == (3 * CELL, 4 * CELL, 3) and pic.dtype == np.uint8
    img.step(0)
    assert not np.array_equal(img.render(), pic)
    vec = MinesweeperVectorEnv(2, rows=3, cols=4, mines=2, render_mode="ansi")
    vec.reset(seed=0)
    assert vec.render() == ("####\n####\n####",) * 2
    with pytest.raises(ValueError, match="render_mode"):
        MinesweeperEnv(render_mode="human")


# ----------------------------------------------------------------- bad input

def state(env) -> tuple:
    b = env._batch
    return tuple(np.array(getattr(b, k)).tobytes() for k in
                 ("obs", "mask", "mines_left", "phase", "done", "board_seed", "reward"))


@pytest.mark.parametrize("action, error, match", [
    (-1, ValueError, "from 0 to 80"),
    (81, ValueError, "from 0 to 80"),
    (2**70, ValueError, "from 0 to 80"),
    (True, TypeError, "bool"),
    (3.0, TypeError, "integer"),
    ("4", TypeError, "integer"),
    (None, TypeError, "integer"),
    (np.array([1, 2]), TypeError, "shape"),
    (np.array(1.5), TypeError, "dtype"),
])
def test_bad_single_action_changes_nothing(action, error, match):
    env = MinesweeperEnv(9, 9, 10)
    env.reset(seed=1)
    env.step(40)
    before = state(env)
    with pytest.raises(error, match=match):
        env.step(action)
    assert state(env) == before
    env.step(np.int16(0))         # numpy integers and 0-d arrays are fine
    if not _over(env):
        env.step(np.array(80, np.uint8))


@pytest.mark.parametrize("actions, error, match", [
    (np.array([0, 1, 81]), ValueError, "action 81 of environment 2"),
    (np.array([0, -1, 2]), ValueError, "action -1 of environment 1"),
    (np.array([0, 1]), ValueError, r"shape \(3,\)"),
    (np.zeros((3, 1), np.int64), ValueError, r"shape \(3,\)"),
    (np.array([0.0, 1.0, 2.0]), TypeError, "integers"),
    (np.array([True, False, True]), TypeError, "integers"),
    (["a", "b", "c"], TypeError, "integers"),
    (np.array([0, 1, 2**40], np.uint64), ValueError, "out of range"),
])
def test_bad_batch_actions_change_nothing(actions, error, match):
    envs = MinesweeperVectorEnv(3, rows=9, cols=9, mines=10)
    envs.reset(seed=1)
    envs.step(np.array([40, 40, 40]))
    before = state(envs)
    with pytest.raises(error, match=match):
        envs.step(actions)
    assert state(envs) == before
    envs.step([0, 1, 2])              # a list of ints is fine


def test_kernel_refuses_out_of_range_actions_itself():
    envs = MinesweeperVectorEnv(2, rows=3, cols=3, mines=1)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        envs._batch.step(np.array([0, 9], np.int64))
    before = envs._batch.obs.copy()
    for bad in (np.array([0, 1], np.int32), np.array([[0, 1]], np.int64), np.array([0], np.int64),
                np.array([0, 5, 1, 5], np.int64)[::2]):
        with pytest.raises(ValueError, match="one action per game, an int64 array"):
            envs._batch.step(bad)
    assert np.array_equal(envs._batch.obs, before)


def test_step_before_reset_and_after_the_end():
    with pytest.raises(fastmine.GameOverError, match="reset"):
        MinesweeperEnv(9, 9, 10).step(0)
    with pytest.raises(fastmine.GameOverError, match="reset"):
        MinesweeperVectorEnv(2, rows=9, cols=9, mines=10).step([0, 0])
    env = MinesweeperEnv(2, 2, 3, "none")
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(fastmine.GameOverError, match="ended"):
        env.step(1)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"rows": 0}, ValueError, "rows must be from 1"),
    ({"cols": 2000}, ValueError, "cols must be from 1"),
    ({"rows": 1, "cols": 1, "mines": 1}, ValueError, "no room"),
    ({"mines": 256}, ValueError, "between 1 and 255"),
    ({"mines": 0}, ValueError, "between 1 and 255"),
    ({"mines": 4.0}, TypeError, "integer"),
    ({"rows": True}, TypeError, "bool"),
    ({"rule": "safe"}, ValueError, "first-click rule"),
    ({"rule": 1}, TypeError, "string"),
    ({"chord": True}, ValueError, "needs flags"),
    ({"flags": 1}, TypeError, "True or False"),
    ({"invalid": "skip"}, ValueError, "invalid must be"),
    ({"max_steps": 0}, ValueError, "at least 1"),
    ({"rewards": {"win": float("nan")}}, ValueError, "finite"),
    ({"rewards": {"lose": 1}}, ValueError, "unknown reward"),
    ({"rewards": {"win": "1"}}, TypeError, "number"),
    ({"rewards": [1, 2]}, TypeError, "Rewards or a dict"),
    ({"rows": 2, "cols": 2, "mines": 2, "rule": "no_guess"}, ValueError, "without guessing"),
])
def test_bad_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        MinesweeperEnv(**kwargs)
    with pytest.raises(error, match=match):
        MinesweeperVectorEnv(2, **kwargs)


@pytest.mark.parametrize("seed, error", [(-1, ValueError), (2**64, ValueError),
                                         (1.5, TypeError), ("7", TypeError), (True, TypeError)])
def test_bad_seeds(seed, error):
    env = MinesweeperEnv(9, 9, 10)
    with pytest.raises(error, match="seed"):
        env.reset(seed=seed)
    with pytest.raises(error, match="seed"):
        MinesweeperVectorEnv(2, rows=9, cols=9, mines=10).reset(seed=seed)


def test_bad_reset_options():
    env = MinesweeperEnv(9, 9, 10)
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"seed": 1})
    with pytest.raises(ValueError, match="board_seed"):
        env.reset(options={"board_seed": -1})
    with pytest.raises(TypeError, match="board_seed must be an integer, got NoneType"):
        env.reset(options={"board_seed": None})
    envs = MinesweeperVectorEnv(2, rows=9, cols=9, mines=10)
    with pytest.raises(ValueError, match="one per environment"):
        envs.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="past 2\\*\\*64"):
        envs.reset(seed=2**64 - 1)
    with pytest.raises(TypeError, match="reset_mask"):
        envs.reset(options={"reset_mask": [True, True]})
    with pytest.raises(ValueError, match="shape"):
        envs.reset(options={"reset_mask": np.ones(3, bool)})
    with pytest.raises(TypeError, match="num_envs"):
        MinesweeperVectorEnv(2.0)
    with pytest.raises(ValueError, match="num_envs"):
        MinesweeperVectorEnv(0)


def test_kernel_build_mode_matches_the_engines():
    """The batch kernel is built like the engine's (FASTMINE_DEBUG=1 checks every
    index it writes, and the environment tests then run under those checks)."""
    from fastmine import _kernels
    from fastmine.env import _batch

    assert _batch.BOUNDS_CHECKED == _kernels.BOUNDS_CHECKED
