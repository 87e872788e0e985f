"""The batched environment's labels (each game's count kept from step to step, only
the components a step changed counted again) are fastmine.env.labels' of each
game's view, within rounding, step after step: flags put and taken off, invalid
actions ignored, games won, lost and truncated, in every auto-reset mode, at
every board size from one row to Expert."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_reference import assert_labels_close  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastmine.env import MinesweeperVectorEnv, _batch, batch_labels  # noqa: E402
from fastmine.env.labels import labels  # noqa: E402


def play_and_check(envs, steps, seed, invalid_share=0.2, reset_ended=False):
    """Random valid (and some invalid) actions; every game's labels checked at
    every step against fastmine.env.labels.  Returns the phases seen."""
    _, info = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    mines = envs.options.mines
    kinds = set()
    for t in range(steps):
        b = envs._batch
        for i in range(envs.num_envs):
            over = int(b.phase[i]) in (_batch.WON, _batch.LOST)
            want = labels(b.obs[i], mines, over=over,
                          mine_mask=envs.mine_mask(i) if over else None)
            assert_labels_close(info["probabilities"][i], want, (t, i))
            kinds.add(int(b.phase[i]))
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if rng.random() >= invalid_share
                            else rng.integers(len(m)) for m in masks])
        _, _, term, trunc, info = envs.step(actions)
        info = {k: np.array(v) if isinstance(v, np.ndarray) else v for k, v in info.items()}
        if reset_ended and (term | trunc).any():
            # (the reset's info is the reset games' only: the others keep the step's)
            ended = term | trunc
            _, fresh = envs.reset(options={"reset_mask": ended})
            for key in ("probabilities", "action_mask"):
                info[key][ended] = fresh[key][ended]
    return kinds


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP,
                                  AutoresetMode.DISABLED])
@pytest.mark.parametrize("copy", [True, False])
def test_batch_labels_are_each_games_labels(mode, copy):
    envs = MinesweeperVectorEnv(6, rows=6, cols=7, mines=8, flags=True, invalid="ignore",
                                max_steps=25, labels=True, copy=copy, autoreset_mode=mode)
    kinds = play_and_check(envs, 150, 2, reset_ended=mode is AutoresetMode.DISABLED)
    # (same-step reset starts the next game at once: no step ends on a finished one)
    ended = {_batch.LOST} if mode is AutoresetMode.NEXT_STEP else set()
    assert kinds >= {_batch.READY, _batch.PLAYING} | ended
    counter = envs._labeller.counter
    # the counts were kept and reused, never repaired, never handed to the solver
    assert counter.kept > 0 and counter.recounted > 0
    assert counter.repaired == 0 and counter.handed_back == 0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1),
       size=st.sampled_from([(1, 6, 2), (2, 2, 1), (3, 3, 8), (4, 9, 5), (5, 5, 12),
                             (9, 9, 10), (8, 30, 40), (16, 16, 40), (16, 30, 99)]),
       rule=st.sampled_from(["cell", "opening", "none"]), flags=st.booleans(),
       chord=st.booleans())
def test_random_play_at_every_size(seed, size, rule, flags, chord):
    rows, cols, mines = size
    envs = MinesweeperVectorEnv(3, rows=rows, cols=cols, mines=mines, rule=rule, flags=flags,
                                chord=chord and flags, invalid="ignore", max_steps=60,
                                labels=True)
    play_and_check(envs, 40 if rows * cols < 200 else 25, seed)
    assert envs._labeller.counter.repaired == 0


def test_expert_games_long_enough_to_keep_components():
    """Safe-leaning play at Expert: long games whose frontier grows, merges and
    splits (most steps keep some components)."""
    envs = MinesweeperVectorEnv(4, rows=16, cols=30, mines=99, labels=True)
    _, info = envs.reset(seed=11)
    for t in range(120):
        b = envs._batch
        for i in range(4):
            over = int(b.phase[i]) in (_batch.WON, _batch.LOST)
            want = labels(b.obs[i], 99, over=over, mine_mask=envs.mine_mask(i) if over else None)
            assert_labels_close(info["probabilities"][i], want, (t, i))
        # the safest reveal by the labels themselves: games last
        p = np.where(info["action_mask"][:, :480], info["probabilities"].reshape(4, -1), 2.0)
        _, _, _, _, info = envs.step(p.argmin(axis=1))
    c = envs._labeller.counter
    assert c.kept > c.recounted > 0 and c.proven > 0 and c.repaired == 0


def test_a_flag_changes_no_label_and_a_copy_counts_afresh():
    import copy as copy_module

    envs = MinesweeperVectorEnv(2, rows=5, cols=5, mines=3, rule="cell", flags=True,
                                labels=True)
    envs.reset(seed=0)
    _, _, _, _, info = envs.step(np.array([12, 12]))
    before = info["probabilities"].copy()
    hidden = np.flatnonzero(info["action_mask"][0][:25])
    _, _, _, _, info = envs.step(np.array([25 + hidden[0], 25 + hidden[0]]))   # flags
    assert np.array_equal(info["probabilities"], before)
    twin = copy_module.deepcopy(envs)
    a = np.array([hidden[1], hidden[1]])
    assert_labels_close(twin.step(a)[4]["probabilities"], envs.step(a)[4]["probabilities"])


def test_games_the_counter_hands_back_are_counted_by_the_solver(monkeypatch):
    """A component over the enumeration budget: its game goes to the solver's kernel
    (and is counted afresh by the counter at its next step)."""
    made = []
    counter = batch_labels._kept.Counter

    def tiny(*args, **kwargs):
        made.append(counter(*args, budget=3))
        return made[-1]

    monkeypatch.setattr(batch_labels._kept, "Counter", tiny)
    envs = MinesweeperVectorEnv(4, rows=9, cols=9, mines=10, labels=True)
    play_and_check(envs, 60, 4, invalid_share=0.0)
    assert made[0].handed_back > 0 and made[0].repaired == 0
