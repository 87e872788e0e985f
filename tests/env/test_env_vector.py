"""The batched environment against B single environments with the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from env_reference import choose  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv  # noqa: E402


def lockstep(kwargs: dict, num_envs: int, seed, steps: int, rng_seed: int) -> int:
    """Step a batched environment and ``num_envs`` single ones side by side and
    assert they agree at every step; returns how many episodes ended."""
    vec = MinesweeperVectorEnv(num_envs, **kwargs)
    singles = [MinesweeperEnv(**kwargs) for _ in range(num_envs)]
    seeds = ([seed + i for i in range(num_envs)] if isinstance(seed, int) else list(seed))
    obs, info = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=seeds[i])
        assert np.array_equal(obs["view"][i], o["view"])
        assert inf["board_seed"] == info["board_seed"][i]
    rng = np.random.default_rng(rng_seed)
    ended = np.zeros(num_envs, bool)
    episodes = 0
    kinds = vec.options.kinds
    for _ in range(steps):
        if rng.random() < 0.5:
            actions = vec.random_reveals()
            expect = [env.random_reveal() for env in singles]
            assert actions.tolist() == expect
        else:
            actions = np.array([
                choose(rng, info["action_mask"][i], vec.mine_mask(i) if vec.mine_mask(i).any()
                       else None, obs["view"][i], kinds) for i in range(num_envs)])
        obs, reward, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:            # next-step auto-reset: the action is ignored
                o, inf = env.reset()
                r, term, trunc = 0.0, False, False
            else:
                o, r, term, trunc, inf = env.step(int(actions[i]))
            assert np.array_equal(obs["view"][i], o["view"])
            assert np.array_equal(obs["mines_left"][i], o["mines_left"])
            assert (reward[i], terminated[i], truncated[i]) == (r, term, trunc)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"])
            assert info["board_seed"][i] == inf["board_seed"]
            assert info["won"][i] == inf["won"]
        ended = terminated | truncated
        episodes += int(ended.sum())
    return episodes


@settings(max_examples=40)
@given(num_envs=st.integers(1, 6), rows=st.integers(1, 8), cols=st.integers(2, 8),
       density=st.floats(0.02, 0.6), rule=st.sampled_from(["cell", "opening", "none"]),
       actions=st.sampled_from([(False, False), (True, False), (True, True)]),
       invalid=st.sampled_from(["end", "ignore"]), max_steps=st.sampled_from([None, 3, 25]),
       seed=st.integers(0, 2**63), rng_seed=st.integers(0, 2**32 - 1))
def test_batch_is_b_single_environments(num_envs, rows, cols, density, rule, actions, invalid,
                                        max_steps, seed, rng_seed):
    mines = min(max(1, round(density * rows * cols)), rows * cols - 1)
    flags, chord = actions
    if invalid == "ignore" and max_steps is None:
        max_steps = 50
    kwargs = dict(rows=rows, cols=cols, mines=mines, rule=rule, flags=flags, chord=chord,
                  invalid=invalid, max_steps=max_steps)
    lockstep(kwargs, num_envs, seed, steps=40, rng_seed=rng_seed)


@pytest.mark.parametrize("seed", [7, [3, 2**64 - 1, 11]])
def test_seed_lists(seed):
    kwargs = dict(rows=9, cols=9, mines=10, rule="opening", flags=True, chord=True,
                  max_steps=300)
    assert lockstep(kwargs, 3, seed, steps=120, rng_seed=1) > 3


def test_intermediate_many_episodes():
    assert lockstep(dict(rows=16, cols=16, mines=40), 8, 123, steps=200, rng_seed=2) > 20


def test_no_guess_batch():
    lockstep(dict(rows=8, cols=8, mines=10, rule="no_guess"), 3, 5, steps=25, rng_seed=3)


def test_make_vec_and_next_step_autoreset():
    import fastmine.env  # noqa: F401  (registers the id)

    envs = gym.make_vec("fastmine/Minesweeper-v0", num_envs=4,
                        vectorization_mode="vector_entry_point", rows=5, cols=5, mines=24,
                        rule="none")
    assert isinstance(envs.unwrapped, MinesweeperVectorEnv)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=0)
    assert obs["view"].shape == (4, 5, 5) and obs["view"].dtype == np.int8
    # 24 mines in 25 cells: almost every first reveal loses
    obs, reward, terminated, truncated, info = envs.step(np.zeros(4, np.int64))
    lost = terminated & (obs["view"][:, 0, 0] == -5)
    assert lost.any()
    seeds_before = info["board_seed"].copy()
    obs, reward, terminated2, _, info = envs.step(np.full(4, 3))
    for i in np.flatnonzero(lost):
        assert (obs["view"][i] == -1).all()        # the new episode's first observation
        assert reward[i] == 0.0 and not terminated2[i]
        assert info["board_seed"][i] != seeds_before[i]
        assert info["action_mask"][i].all()


def test_reset_mask_resets_only_those_games():
    envs = MinesweeperVectorEnv(3, rows=9, cols=9, mines=10)
    obs, _ = envs.reset(seed=1)
    with pytest.raises(ValueError, match="first reset"):
        MinesweeperVectorEnv(2, rows=9, cols=9, mines=10).reset(
            options={"reset_mask": np.array([True, False])})
    obs, *_ = envs.step(np.array([40, 40, 40]))
    before = obs["view"].copy()
    obs, info = envs.reset(options={"reset_mask": np.array([False, True, False])})
    assert np.array_equal(obs["view"][[0, 2]], before[[0, 2]])
    assert (obs["view"][1] == -1).all()


def test_copy_false_hands_out_one_read_only_array():
    envs = MinesweeperVectorEnv(4, copy=False, rows=9, cols=9, mines=10)
    obs1, _ = envs.reset(seed=0)
    obs2, reward, *_ , info = envs.step(envs.random_reveals())
    assert obs1["view"] is obs2["view"]            # one preallocated array, written in place
    assert obs2["view"].flags.c_contiguous
    for arr in (obs2["view"], reward, info["action_mask"]):
        with pytest.raises(ValueError, match="read-only"):
            arr[...] = 0
    copied = MinesweeperVectorEnv(4, rows=9, cols=9, mines=10)
    a, _ = copied.reset(seed=0)
    b, *_ = copied.step(np.full(4, 40))
    assert not np.shares_memory(a["view"], b["view"])


def test_one_hot_planes_match_the_view():
    from fastmine.env import PLANE_CODES

    envs = MinesweeperVectorEnv(3, rows=6, cols=7, mines=8, one_hot=True, flags=True)
    plain = MinesweeperVectorEnv(3, rows=6, cols=7, mines=8, flags=True)
    envs.reset(seed=4)
    plain.reset(seed=4)
    for _ in range(15):
        a = plain.random_reveals()
        obs, *_ = envs.step(a)
        ref, *_ = plain.step(a)
        assert obs["view"].shape == (3, len(PLANE_CODES), 6, 7)
        assert obs["view"].sum(axis=1).max() == 1
        assert np.array_equal(np.array(PLANE_CODES)[obs["view"].argmax(axis=1)], ref["view"])
        assert obs in envs.observation_space


def test_unseeded_games_in_a_seed_list_get_their_own_seeds():
    envs = MinesweeperVectorEnv(3, rows=9, cols=9, mines=10)
    _, info = envs.reset(seed=[5, None, None])
    single = MinesweeperEnv(9, 9, 10)
    _, first = single.reset(seed=5)
    assert info["board_seed"][0] == first["board_seed"]
    assert len(set(info["board_seed"].tolist())) == 3
    _, again = envs.reset(seed=[5, None, None])
    assert again["board_seed"][0] == first["board_seed"]
    assert not np.array_equal(again["board_seed"][1:], info["board_seed"][1:])


def test_entropy_seeding_differs():
    a = MinesweeperVectorEnv(4, rows=9, cols=9, mines=10)
    b = MinesweeperVectorEnv(4, rows=9, cols=9, mines=10)
    _, ia = a.reset()
    _, ib = b.reset()
    assert not np.array_equal(ia["board_seed"], ib["board_seed"])
    assert len(set(ia["board_seed"].tolist())) == 4


def test_same_as_gymnasiums_sync_vector_env():
    """Gymnasium's SyncVectorEnv over single environments (seeds s + i, next-step
    auto-reset) and the batched kernel give the same results."""
    import fastmine.env  # noqa: F401  (registers the id)

    kwargs = dict(rows=9, cols=9, mines=10, flags=True, max_steps=40)
    sync = gym.make_vec("fastmine/Minesweeper-v0", num_envs=4, vectorization_mode="sync",
                        **kwargs)
    batch = gym.make_vec("fastmine/Minesweeper-v0", num_envs=4,
                         vectorization_mode="vector_entry_point", **kwargs)
    a, ia = sync.reset(seed=9)
    b, ib = batch.reset(seed=9)
    assert np.array_equal(ia["board_seed"], ib["board_seed"])
    rng = np.random.default_rng(0)
    for _ in range(80):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in ib["action_mask"]])
        a, ra, ta, ua, ia = sync.step(actions)
        b, rb, tb, ub, ib = batch.step(actions)
        for key in ("view", "mines_left"):
            assert np.array_equal(a[key], b[key])
        assert np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        for key in ("action_mask", "board_seed", "won"):
            assert np.array_equal(ia[key], ib[key])
