"""The batched environment's three auto-reset modes and its info layout, against
Gymnasium's SyncVectorEnv over single environments as the reference: the same seeds
and actions give the same observations, rewards, ends and infos (every ``_key``
mask, ``final_obs`` and ``final_info`` included)."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from env_reference import assert_labels_close  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

import fastmine.env  # noqa: E402,F401
from fastmine import GameOverError  # noqa: E402
from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv  # noqa: E402

ID = "fastmine/Minesweeper-v0"
MODES = list(AutoresetMode)


def assert_same(a, b, where=""):
    """Equal nested infos/observations: same keys, dtypes and values."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), (where, sorted(a), sorted(b))
        for k in a:
            assert_same(a[k], b[k], f"{where}/{k}")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert isinstance(b, np.ndarray) and b.dtype == object and a.shape == b.shape, where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert (x is None) == (y is None), f"{where}[{i}]"
            if x is not None:
                assert_same(x, y, f"{where}[{i}]")
    else:
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype and a.shape == b.shape, (where, a.dtype, b.dtype, a.shape, b.shape)
        if where.endswith("/probabilities"):
            assert_labels_close(b, a, where)    # the batch's labels: equal up to rounding
        else:
            assert np.array_equal(a, b), where


def pair(mode, n, **kwargs):
    sync = SyncVectorEnv([lambda: MinesweeperEnv(**kwargs) for _ in range(n)],
                         autoreset_mode=mode)
    batch = MinesweeperVectorEnv(n, autoreset_mode=mode, **kwargs)
    return sync, batch


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kwargs", [
    dict(rows=5, cols=5, mines=5, flags=True, max_steps=12),
    dict(rows=4, cols=6, mines=3, rule="cell", one_hot=True, invalid="ignore", max_steps=9),
    dict(rows=4, cols=4, mines=3, rule="none", labels=True),
])
def test_every_mode_steps_as_gymnasiums_sync_vector_env(mode, kwargs):
    n = 5
    sync, batch = pair(mode, n, **kwargs)
    assert batch.metadata["autoreset_mode"] is mode
    a, ia = sync.reset(seed=3)
    b, ib = batch.reset(seed=3)
    assert_same(a, b, "reset obs")
    assert_same(ia, ib, "reset info")
    rng = np.random.default_rng(1)
    ended_total = 0
    masks = ib["action_mask"].copy()
    for t in range(120):
        # valid and invalid actions both (invalid ones end or are ignored)
        actions = np.array([rng.choice(np.flatnonzero(m)) if rng.random() < 0.9
                            else rng.integers(len(m)) for m in masks])
        a, ra, ta, ua, ia = sync.step(actions)
        b, rb, tb, ub, ib = batch.step(actions)
        where = f"step {t}"
        assert_same(a, b, where + " obs")
        assert_same(ra, rb, where + " reward")
        assert_same(ta, tb, where + " terminated")
        assert_same(ua, ub, where + " truncated")
        assert_same(ia, ib, where + " info")
        masks[ib["_action_mask"]] = ib["action_mask"][ib["_action_mask"]]
        ended = ta | ua
        ended_total += int(ended.sum())
        if mode is AutoresetMode.DISABLED and ended.any():
            a, ia = sync.reset(options={"reset_mask": ended.copy()})
            b, ib = batch.reset(options={"reset_mask": ended.copy()})
            assert_same(a, b, where + " reset obs")
            assert_same(ia, ib, where + " reset info")
            masks[ended] = ib["action_mask"][ended]
    assert ended_total > 5


def test_same_step_via_make_vec_and_final_observation():
    envs = gym.make_vec(ID, num_envs=4, vectorization_mode="vector_entry_point",
                        autoreset_mode=AutoresetMode.SAME_STEP, rows=5, cols=5, mines=24)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=0)
    # 24 mines in 25 cells: the first reveal loses (rule opening falls back to the cell:
    # the second reveal, the last safe cell aside, loses)
    for _ in range(3):
        obs, reward, terminated, truncated, info = envs.step(envs.unwrapped.random_reveals())
        if terminated.any():
            break
    assert terminated.any()
    for i in np.flatnonzero(terminated):
        assert (obs["view"][i] == -1).all()               # the new episode, at once
        final = info["final_obs"][i]
        assert final is not None and (final["view"] < -1).any()   # the last view: mines shown
        assert info["_final_obs"][i] and info["final_info"]["_won"][i]
    for i in np.flatnonzero(~terminated):
        assert info["final_obs"][i] is None and not info["_final_obs"][i]
    assert "_won" in info and info["_won"].all() and info["_action_mask"].all()


def test_string_mode_and_bad_mode():
    assert MinesweeperVectorEnv(2, autoreset_mode="SameStep").autoreset_mode is AutoresetMode.SAME_STEP
    with pytest.raises(ValueError, match="autoreset_mode"):
        MinesweeperVectorEnv(2, autoreset_mode="sometimes")


def test_disabled_refuses_to_step_an_ended_game_and_changes_nothing():
    envs = MinesweeperVectorEnv(3, autoreset_mode=AutoresetMode.DISABLED, rows=5, cols=5,
                                mines=24, rule="none")
    envs.reset(seed=0)
    for _ in range(30):
        _, _, terminated, _, _ = envs.step(envs.random_reveals())
        if terminated.any():
            break
    assert terminated.any()
    view = envs._batch.obs.copy()
    with pytest.raises(GameOverError, match="reset_mask"):
        envs.step(np.zeros(3, np.int64))
    assert np.array_equal(view, envs._batch.obs)
    envs.reset(options={"reset_mask": terminated.copy()})
    envs.step(envs.random_reveals())


@pytest.mark.parametrize("copy", [True, False])
def test_next_step_info_has_gymnasiums_key_masks(copy):
    envs = MinesweeperVectorEnv(3, copy=copy, rows=9, cols=9, mines=10)
    _, info = envs.reset(seed=0)
    for key in ("action_mask", "board_seed", "won"):
        assert info[f"_{key}"].dtype == np.bool_ and info[f"_{key}"].all()
    _, _, _, _, info = envs.step(envs.random_reveals())
    assert info["_won"].shape == (3,) and info["_won"].all()
