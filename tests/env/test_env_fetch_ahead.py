"""A batched step asks for the memory of the game ``FETCH_AHEAD`` games on as it
steps each one, and a copy=True step writes each game's outputs into the arrays
it hands out right after stepping it.  Batches just under, at and over that
distance, and several times it, step exactly as Gymnasium's SyncVectorEnv over
single environments (each a batch of one game, which never looks ahead): every
auto-reset mode, copy=True and copy=False, reveals, flags, chords, invalid
actions, truncations."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv, _batch  # noqa: E402

AHEAD = _batch.FETCH_AHEAD
SETTINGS = dict(rows=6, cols=7, mines=7, flags=True, chord=True, max_steps=14)


def assert_same(a, b, where):
    """Equal observations, infos or arrays: same keys, dtypes, shapes and values
    (``final_obs`` and ``final_info`` are object arrays of dicts or None)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), (where, sorted(a), sorted(b))
        for k in a:
            assert_same(a[k], b[k], f"{where}/{k}")
        return
    a, b = np.asarray(a), np.asarray(b)
    assert (a.dtype, a.shape) == (b.dtype, b.shape), (where, a.dtype, b.dtype, a.shape, b.shape)
    if a.dtype == object:
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert (x is None) == (y is None), f"{where}[{i}]"
            if x is not None:
                assert_same(x, y, f"{where}[{i}]")
    else:
        assert np.array_equal(a, b), where


def test_the_distance_is_small_and_positive():
    assert 1 <= AHEAD <= 64


@pytest.mark.parametrize("num_envs", [AHEAD - 1, AHEAD, AHEAD + 1, 3 * AHEAD + 5])
@pytest.mark.parametrize("mode", list(AutoresetMode))
@pytest.mark.parametrize("copy", [True, False])
def test_batches_around_the_fetch_distance_step_as_single_envs(num_envs, mode, copy):
    sync = SyncVectorEnv([lambda: MinesweeperEnv(**SETTINGS) for _ in range(num_envs)],
                         autoreset_mode=mode)
    batch = MinesweeperVectorEnv(num_envs, copy=copy, autoreset_mode=mode, **SETTINGS)
    a, ia = sync.reset(seed=11)
    b, ib = batch.reset(seed=11)
    assert_same(a, b, "reset obs")
    assert_same(ia, ib, "reset info")
    rng = np.random.default_rng(num_envs)
    masks = ib["action_mask"].copy()
    ends = 0
    for t in range(60):
        # Mostly valid actions of every kind, some invalid (they end the game).
        actions = np.array([rng.choice(np.flatnonzero(m)) if rng.random() < 0.92
                            else rng.integers(len(m)) for m in masks])
        a, ra, ta, ua, ia = sync.step(actions)
        b, rb, tb, ub, ib = batch.step(actions)
        for what, x, y in (("obs", a, b), ("reward", ra, rb), ("terminated", ta, tb),
                           ("truncated", ua, ub), ("info", ia, ib)):
            assert_same(x, y, f"step {t} {what}")
        masks[ib["_action_mask"]] = ib["action_mask"][ib["_action_mask"]]
        ended = ta | ua
        ends += int(ended.sum())
        if mode is AutoresetMode.DISABLED and ended.any():
            a, ia = sync.reset(options={"reset_mask": ended.copy()})
            b, ib = batch.reset(options={"reset_mask": ended.copy()})
            assert_same(a, b, f"step {t} reset obs")
            assert_same(ia, ib, f"step {t} reset info")
            masks[ended] = ib["action_mask"][ended]
    assert ends >= num_envs      # episodes ended (and restarted) all along


def test_copy_true_outputs_are_new_writable_arrays_of_their_own():
    """The arrays a copy=True step writes in the kernel are the caller's: writable,
    none sharing memory with another, and zeroing them all changes nothing the
    environment plays next (a twin stepped alike gives the same every step)."""
    envs = MinesweeperVectorEnv(2 * AHEAD + 3, rows=9, cols=9, mines=10)
    twin = MinesweeperVectorEnv(2 * AHEAD + 3, rows=9, cols=9, mines=10)
    envs.reset(seed=4)
    twin.reset(seed=4)
    for t in range(12):
        actions = twin.random_reveals()
        got, ref = envs.step(actions), twin.step(actions)
        for what, x, y in zip(("obs", "reward", "terminated", "truncated", "info"), got, ref,
                              strict=True):
            assert_same(x, y, f"step {t} {what}")
        obs, rew, term, trunc, info = got
        arrays = [obs["view"], obs["mines_left"], rew, term, trunc, *info.values()]
        for k, x in enumerate(arrays):
            assert x.flags.writeable
            assert not any(np.shares_memory(x, y) for y in arrays[k + 1:])
            x[...] = 0


def test_the_kernel_refuses_outputs_of_another_size():
    """step_copy and sample check every array they are given to write against
    their own batch (they write B games into each): type, shape, C order and
    writability, and step nothing when one is off; step_copy's own arrays are
    new, of the batch's shapes."""
    envs = MinesweeperVectorEnv(AHEAD + 2, rows=5, cols=4, mines=3)
    envs.reset(seed=1)
    b = envs._batch
    n = envs.num_envs
    view, mask = np.empty((n, 5, 4), np.int8), np.empty((n, 20), np.bool_)
    frozen = np.empty((n, 20), np.bool_)
    frozen.flags.writeable = False
    before = b.obs.copy()
    actions = np.zeros(n, np.int64)
    for bad_view, bad_mask in [(np.empty((n, 4, 5), np.int8), mask),
                               (np.empty((n, 5, 4), np.uint8), mask),
                               (np.empty((n, 5, 8), np.int8)[:, :, ::2], mask),
                               (np.empty((n - 1, 5, 4), np.int8), mask),
                               (view, np.empty((n, 19), np.bool_)),
                               (view, np.empty((n, 20), np.uint8)), (view, frozen),
                               (view, np.empty((20, n), np.bool_).T)]:
        with pytest.raises(ValueError, match="wrong shape or type"):
            b.step_copy(actions, bad_view, bad_mask)
        assert np.array_equal(b.obs, before)
    with pytest.raises(TypeError):
        b.step_copy(actions, view, [[True] * 20] * n)
    for bad in (np.empty(n - 1, np.int64), np.empty(n, np.int32), np.empty((n, 1), np.int64)):
        with pytest.raises(ValueError, match="wrong shape or type"):
            b.sample(bad, False)
    made = b.step_copy(actions, view, mask)
    assert not np.array_equal(b.obs, before)
    assert [(x.dtype, x.shape) for x in made] == [
        (np.float64, (n,)), (np.bool_, (n,)), (np.bool_, (n,)), (np.int32, (n, 1)),
        (np.uint64, (n,)), (np.bool_, (n,)), (np.bool_, (n,)), (np.bool_, (n,)),
        (np.bool_, (n,))]
    assert all(x.all() for x in made[6:])
    assert len({id(x) for x in made}) == 9 and not any(
        np.shares_memory(x, y) for k, x in enumerate(made) for y in made[k + 1:])
