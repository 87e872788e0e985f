"""fastmine.env.sb3: the batched environment as a Stable-Baselines3 VecEnv.

The contract test needs no SB3: a plain reference below steps single environments
exactly as SB3's DummyVecEnv does (same-step reset, terminal_observation,
TimeLimit.truncated, float32 rewards), and the adapter must give the same.  Where
SB3 is installed, the real DummyVecEnv is compared too, and MaskablePPO learns on it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_reference import assert_labels_close  # noqa: E402

from fastmine.env import MinesweeperEnv  # noqa: E402
from fastmine.env.sb3 import MinesweeperSB3VecEnv  # noqa: E402

SETTINGS = [
    dict(rows=5, cols=5, mines=5, flags=True, max_steps=10),
    dict(rows=4, cols=6, mines=3, rule="cell", one_hot=True),
    dict(rows=4, cols=4, mines=3, rule="none", labels=True, invalid="ignore", max_steps=8),
]


class ReferenceVecEnv:
    """What SB3's DummyVecEnv does over single environments (its step_wait and reset)."""

    def __init__(self, n, **settings):
        self.envs = [MinesweeperEnv(**settings) for _ in range(n)]
        self.reset_infos = [{} for _ in range(n)]

    def reset(self, seed):
        obs = []
        for i, env in enumerate(self.envs):
            o, self.reset_infos[i] = env.reset(seed=seed + i)
            obs.append(o)
        return {k: np.stack([o[k] for o in obs]) for k in obs[0]}

    def step(self, actions):
        obs, rews, dones, infos = [], [], [], []
        for i, env in enumerate(self.envs):
            o, r, term, trunc, info = env.step(actions[i])
            info["TimeLimit.truncated"] = trunc and not term
            if term or trunc:
                info["terminal_observation"] = o
                o, self.reset_infos[i] = env.reset()
            obs.append(o)
            rews.append(r)
            dones.append(term or trunc)
            infos.append(info)
        return ({k: np.stack([o[k] for o in obs]) for k in obs[0]},
                np.array(rews, np.float32), np.array(dones), infos)

    def masks(self):
        return np.stack([env.action_masks() for env in self.envs])


def same(a, b, where):
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), (where, sorted(a), sorted(b))
        for k in a:
            same(a[k], b[k], f"{where}/{k}")
    else:
        assert type(a) is type(b), (where, type(a), type(b))
        a, b = np.asarray(a), np.asarray(b)
        if where.endswith("/probabilities"):
            assert_labels_close(b, a, where)    # the batch's labels: equal up to rounding
        else:
            assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b), where


def run_side_by_side(ref, adapter, steps=100, seed=5):
    a = ref.reset(seed)
    adapter.seed(seed)
    b = adapter.reset()
    same(a, b, "reset")
    for i in range(adapter.num_envs):
        same(ref.reset_infos[i], adapter.reset_infos[i], f"reset_infos[{i}]")
    rng = np.random.default_rng(0)
    ended = 0
    for t in range(steps):
        masks = np.stack(adapter.env_method("action_masks"))
        assert np.array_equal(masks, ref.masks()) and masks.dtype == np.bool_
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        a, ra, da, ia = ref.step(actions)
        b, rb, db, ib = adapter.step(actions)
        same(a, b, f"step {t} obs")
        same(ra, rb, f"step {t} rewards")
        same(da, db, f"step {t} dones")
        assert isinstance(ib, list) and len(ib) == adapter.num_envs
        for i in range(adapter.num_envs):
            same(ia[i], ib[i], f"step {t} infos[{i}]")
            same(ref.reset_infos[i], adapter.reset_infos[i], f"step {t} reset_infos[{i}]")
        ended += int(db.sum())
    assert ended > 3


@pytest.mark.parametrize("settings", SETTINGS)
def test_adapter_steps_as_sb3s_dummy_vec_env_defines_it(settings):
    n = 4
    adapter = MinesweeperSB3VecEnv(n, **settings)
    assert adapter.num_envs == n
    assert adapter.observation_space == MinesweeperEnv(**settings).observation_space
    assert adapter.action_space.n == MinesweeperEnv(**settings).action_space.n
    run_side_by_side(ReferenceVecEnv(n, **settings), adapter)


def test_adapter_attributes_and_refusals():
    adapter = MinesweeperSB3VecEnv(3, rows=5, cols=5, mines=4)
    assert adapter.has_attr("action_masks") and not adapter.has_attr("no_such_thing")
    assert adapter.get_attr("render_mode") == [None] * 3
    assert adapter.env_is_wrapped(object, indices=[0, 2]) == [False, False]
    adapter.reset()
    assert [m.shape for m in adapter.env_method("action_masks", indices=[1])] == [(25,)]
    assert adapter.seed(7) == [7, 8, 9]
    with pytest.raises(AttributeError):
        adapter.get_attr("no_such_thing")
    with pytest.raises(ValueError, match="copy"):
        MinesweeperSB3VecEnv(2, copy=False)
    with pytest.raises(ValueError, match="options"):
        adapter.set_options({"board_seed": 1})
    with pytest.raises(RuntimeError, match="step_async"):
        adapter.step_wait()


def test_adapter_renders_tiled_images():
    adapter = MinesweeperSB3VecEnv(3, rows=2, cols=3, mines=1, render_mode="rgb_array")
    adapter.reset()
    assert adapter.render().shape == (2 * 32, 2 * 48, 3)


def sb3_or_skip():
    pytest.importorskip("torch")
    return pytest.importorskip("stable_baselines3")


@pytest.mark.parametrize("settings", SETTINGS[:2])
def test_adapter_is_sb3s_vec_env_and_matches_its_dummy_vec_env(settings):
    sb3 = sb3_or_skip()
    from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

    adapter = MinesweeperSB3VecEnv(4, **settings)
    assert isinstance(adapter, VecEnv) and isinstance(VecMonitor(adapter), VecEnv)
    dummy = DummyVecEnv([lambda: MinesweeperEnv(**settings) for _ in range(4)])
    dummy.seed(11)
    adapter.seed(11)
    same(dummy.reset(), adapter.reset(), "reset")
    rng = np.random.default_rng(2)
    for t in range(60):
        masks = np.stack(adapter.env_method("action_masks"))
        assert np.array_equal(masks, np.stack(dummy.env_method("action_masks")))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        a, ra, da, ia = dummy.step(actions)
        b, rb, db, ib = adapter.step(actions)
        same(a, b, f"{t} obs")
        same(ra, rb, f"{t} rewards")
        same(da, db, f"{t} dones")
        for x, y in zip(ia, ib, strict=True):
            same(x, y, f"{t} info")
    assert sb3.__version__


def test_maskable_ppo_learns_from_the_batched_env():
    sb3_or_skip()
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import VecMonitor

    envs = VecMonitor(MinesweeperSB3VecEnv(8, rows=5, cols=5, mines=3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = sb3_contrib.MaskablePPO("MultiInputPolicy", envs, n_steps=16, batch_size=64,
                                        n_epochs=1, seed=0)
        model.learn(256)
    obs = envs.reset()
    masks = np.stack(envs.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert actions.shape == (8,) and masks[np.arange(8), actions].all()
    assert len(model.ep_info_buffer) > 0            # VecMonitor saw episodes end
