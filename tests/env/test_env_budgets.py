"""Budgets before allocation, and overflow as ValueError (issue 33's env items):
the batched environment caps bytes, not cells, and checks them before Gymnasium's
space batching; render() stays within its budget; huge counts and numbers are a
clear ValueError, never MemoryError or OverflowError."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import fastmine.env.vector as vector_module  # noqa: E402
from fastmine.env import (  # noqa: E402
    MinesweeperEnv,
    MinesweeperVectorEnv,
    _batch,
    dataset,
    options,
    render,
)
from fastmine.env.options import Options  # noqa: E402


class Allocated(Exception):
    """Raised by the stand-ins below: something of the batch's size was about to be made."""


@pytest.fixture
def no_allocation(monkeypatch):
    """The batch kernel and Gymnasium's space batching refuse to run: a refusal
    must come before either."""
    def refuse(*args, **kwargs):
        raise Allocated
    monkeypatch.setattr(vector_module, "batch_space", refuse)
    monkeypatch.setattr(_batch, "Batch", refuse)


@pytest.mark.parametrize("num_envs, settings", [
    (2**40, {}),                                                     # was MemoryError
    (600, dict(rows=1024, cols=1024, one_hot=True, flags=True, chord=True)),  # ~60 GB
    (1000, dict(rows=1024, cols=1024, mines=1000)),               # under the old cell cap
    (2000, dict(rows=1024, cols=1024, mines=1000)),               # over it: spaces came first
])
def test_batch_over_the_byte_budget_is_refused_before_allocating(num_envs, settings,
                                                                   no_allocation):
    with pytest.raises(ValueError, match="GiB"):
        MinesweeperVectorEnv(num_envs, **settings)


def test_byte_estimate_counts_what_the_settings_add():
    plain = Options.make(30, 30, 100)
    rich = Options.make(30, 30, 100, flags=True, chord=True, one_hot=True, labels=True)
    assert rich.batch_bytes_per_game() > 10 * plain.batch_bytes_per_game()
    # And it bounds what an environment really allocates (measured with tracemalloc).
    for opts, kw in ((plain, {}), (rich, dict(flags=True, chord=True, one_hot=True))):
        tracemalloc.start()
        envs = MinesweeperVectorEnv(64, rows=30, cols=30, mines=100, **kw)
        envs.reset(seed=0)
        envs.step(envs.random_reveals())
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert peak <= opts.batch_bytes(64) * 1.1 + 2**20, (peak, opts.batch_bytes(64))
    assert options.MAX_BATCH_BYTES == 4 * 2**30


def test_a_batch_within_budget_is_made():
    envs = MinesweeperVectorEnv(4, rows=9, cols=9, mines=10, one_hot=True)
    assert envs.reset(seed=0)[0]["view"].shape == (4, 14, 9, 9)


def reference_image(view):
    """The old drawing: every tile gathered, then transposed (16 pixels a cell)."""
    v = np.asarray(view, np.int64)
    rows, cols = v.shape
    return np.ascontiguousarray(render._TILES[v + 6].transpose(0, 2, 1, 3, 4)).reshape(
        rows * 16, cols * 16, 3)


def test_rgb_array_draws_as_before_and_shrinks_within_its_budget():
    view = np.random.default_rng(0).integers(-6, 9, (7, 11)).astype(np.int8)
    assert np.array_equal(render.rgb_array(view), reference_image(view))
    for c in (8, 4, 2, 1):
        assert np.array_equal(render.rgb_array(view, c), reference_image(view)[::16 // c, ::16 // c])
    env = MinesweeperEnv(1024, 1024, 1000, render_mode="rgb_array")
    env.reset(seed=0)
    tracemalloc.start()
    image = env.render()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert image.shape == (4096, 4096, 3)           # 4 pixels a cell, not 16 (768 MB)
    assert image.nbytes <= render.MAX_RENDER_BYTES and peak <= 1.2 * render.MAX_RENDER_BYTES


def test_batched_render_shares_the_budget_and_refuses_past_it():
    envs = MinesweeperVectorEnv(64, rows=64, cols=64, mines=100, render_mode="rgb_array")
    envs.reset(seed=0)
    images = envs.render()
    assert len(images) == 64 and images[0].shape == (512, 512, 3)       # 8 pixels a cell
    assert sum(im.nbytes for im in images) <= render.MAX_RENDER_BYTES
    with pytest.raises(ValueError, match="render fewer"):
        render.cell_size(1024, 1024, images=64)


def test_dataset_too_large_is_a_value_error_before_playing(tmp_path, no_allocation):
    with pytest.raises(ValueError, match="GiB"):
        dataset(tmp_path / "d.npz", 2**40, rows=9, cols=9, mines=10)
    assert not (tmp_path / "d.npz").exists()


@pytest.mark.parametrize("kwargs", [
    dict(max_steps=2**63), dict(max_steps=10**30),
    dict(rewards={"win": 10**400}), dict(rewards={"loss": -10**400}),
    dict(rewards={"progress": 1e200}),
])
def test_huge_numbers_are_value_errors(kwargs):
    for make in (MinesweeperEnv, lambda **k: MinesweeperVectorEnv(2, **k)):
        with pytest.raises(ValueError):
            make(rows=5, cols=5, mines=3, **kwargs)


def test_largest_settings_still_work():
    env = MinesweeperEnv(5, 5, 3, max_steps=2**63 - 1, rewards={"win": 1e100})
    env.reset(seed=0)
    env.step(12)
