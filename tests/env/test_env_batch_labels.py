"""The batched environment's labels (counted for the whole batch, kept where a view
did not change) are exactly fastmine.env.labels' of each game's view, step after step:
flags put and taken off, invalid actions ignored, games won, lost and truncated,
in every auto-reset mode."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402

from fastmine.env import MinesweeperVectorEnv, _batch  # noqa: E402
from fastmine.env.labels import labels  # noqa: E402


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("copy", [True, False])
def test_batch_labels_are_each_games_labels(mode, copy):
    n, rows, cols, mines = 6, 6, 7, 8
    envs = MinesweeperVectorEnv(n, rows=rows, cols=cols, mines=mines, flags=True,
                                invalid="ignore", max_steps=25, labels=True, copy=copy,
                                autoreset_mode=mode)
    _, info = envs.reset(seed=2)
    rng = np.random.default_rng(3)
    kinds = set()
    for _ in range(150):
        b = envs._batch
        for i in range(n):
            over = int(b.phase[i]) in (_batch.WON, _batch.LOST)
            want = labels(b.obs[i], mines, over=over, mine_mask=envs.mine_mask(i) if over else None)
            assert np.array_equal(info["probabilities"][i], want), i
            kinds.add(int(b.phase[i]))
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if rng.random() < 0.8
                            else rng.integers(len(m)) for m in masks])
        _, _, _, _, info = envs.step(actions)
        info = {k: np.array(v) if isinstance(v, np.ndarray) else v for k, v in info.items()}
    # (same-step reset starts the next game at once: no step ends on a finished one)
    ended = {_batch.LOST} if mode is AutoresetMode.NEXT_STEP else set()
    assert kinds >= {_batch.READY, _batch.PLAYING} | ended


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
    assert np.array_equal(twin.step(a)[4]["probabilities"], envs.step(a)[4]["probabilities"])
