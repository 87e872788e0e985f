"""The benchmark's environment section: a quick run measures every peer it has,
reports the targets, and re-renders from its JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not (ROOT / "bench" / "env_bench.py").is_file(),
                                reason="bench/ is not here")


def _env() -> dict[str, str]:
    import fastmine

    src = ROOT / "src"
    ours = Path(fastmine.__file__).resolve().parent.parent == src.resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(src) if ours else None, str(ROOT), env.get("PYTHONPATH")) if p)
    return env


def test_quick_env_section(tmp_path):
    cmd = [sys.executable, "-m", "bench", "--quick", "--sizes", "9x9", "--kernels", "gen_cell",
           "--peers", "fastmine", "--no-memory", "--no-breakdown", "--no-solver", "--no-app",
           "--no-plots", "--out", str(tmp_path), "--name", "env"]
    proc = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    env = json.loads((tmp_path / "env.json").read_text())["env"]
    rows = {(r["peer"], r["rule"], r["copy"]): r for r in env["rows"]}
    for key in (("fastmine_single", "opening", False), ("fastmine_batch", "opening", False),
                ("fastmine_batch", "none", False), ("fastmine_batch", "opening", True)):
        assert rows[key]["status"] == "ok" and rows[key]["steps_per_s"] > 0
        assert 1 < rows[key]["steps_per_episode"] < 100
    gym = rows[("gym_minesweeper", "none", False)]
    assert gym["status"] == ("skipped" if env["peers"]["gym_minesweeper"]["skipped"] else "ok")
    assert env["dataset"]["status"] == "ok" and env["dataset"]["positions_per_s"] > 0
    md = (tmp_path / "env.md").read_text()
    assert "## Gymnasium environments" in md and "fastmine, batched (B=1024)" in md
    # The batch-size sweep (with the one-game loop beside it) and the labels' rows.
    assert [r.get("num_envs") for r in env["sweep"]] == [1, 64, 1024]
    assert all(r["status"] == "ok" and r["steps_per_s"] > 0 for r in env["sweep"] + env["labels"])
    assert "| B | steps/s | per step of a game | x one game |" in md
    assert ", B=1,024, `copy=True`: at least 1,000,000 env-steps/s and 10x" in md
    assert "Exact labels (`labels=True`" in md


def test_batch_size_verdicts():
    """The sweep's lines say whether the targets hold at B=1,024 and how much the
    speed per step changes from B=1,024 up."""
    from bench.report_env import sweep_lines

    def run(rates):
        sweep = [{"peer": "fastmine_single", "size": "16x30/99", "num_envs": 1,
                  "steps_per_s": 250_000.0, "status": "ok"}]
        sweep += [{"peer": "fastmine_batch", "size": "16x30/99", "num_envs": b,
                   "steps_per_s": r, "status": "ok"} for b, r in rates.items()]
        return "\n".join(sweep_lines({"sweep": sweep}))

    md = run({256: 3.5e6, 1024: 3.0e6, 4096: 3.3e6})
    assert "Measured 3,000,000 steps/s, 12.0x: **met**." in md
    assert "From B=1,024 up the speed per step of a game varies by 10%" in md
    md = run({1024: 2.4e6})
    assert "9.6x: **not met**." in md and "varies" not in md


def test_labels_verdict():
    """The labels' line says whether the labelled batch reaches 5x the labelled one-game loop."""
    from bench.report_env import sweep_lines

    def line(batch_rate):
        rows = [{"peer": "fastmine_single", "size": "16x16/40", "num_envs": 1,
                 "steps_per_s": 50_000.0, "status": "ok"},
                {"peer": "fastmine_batch", "size": "16x16/40", "num_envs": 64,
                 "steps_per_s": batch_rate, "status": "ok"}]
        return "\n".join(sweep_lines({"labels": rows}))

    assert "a batch of 64 280,000 (5.6x; target: at least 5x, **met**)." in line(280_000.0)
    assert "(1.6x; target: at least 5x, **not met**)." in line(80_000.0)
