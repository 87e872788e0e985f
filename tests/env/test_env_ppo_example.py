"""examples/ppo_cleanrl.py runs (one PPO update from the batched env, then a greedy
evaluation), where PyTorch is installed."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_cleanrl.py"
pytestmark = pytest.mark.skipif(not EXAMPLE.is_file(), reason="examples/ is not here")


def test_ppo_example_trains_from_the_batched_env():
    pytest.importorskip("torch")
    main = runpy.run_path(str(EXAMPLE))["main"]
    result = main(["--num-envs", "8", "--num-steps", "8", "--total-steps", "128",
                   "--epochs", "1", "--minibatches", "2", "--channels", "8",
                   "--eval-games", "4"])
    steps = [s for s, _, _ in result["log"]]
    assert steps == [64, 128]
    assert all(0.0 <= rate <= 1.0 for _, rate, _ in result["log"])
    assert 0.0 <= result["eval"] <= 1.0


def test_label_recipe_runs_from_the_batched_env(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    recipe = EXAMPLE.parent / "label_recipe.py"
    main = runpy.run_path(str(recipe))["main"]
    out = tmp_path / "curve.png"
    result = main(["--positions", "300", "--rounds", "1", "--games", "16", "--eval-games", "16",
                   "--channels", "8", "--layers", "2", "--epochs", "1", "--out", str(out)])
    assert [stage for stage, _, _ in result["curve"]] == [0, 1]
    assert all(0.0 <= rate <= 1.0 for _, rate, _ in result["curve"])
    assert out.stat().st_size > 1000
