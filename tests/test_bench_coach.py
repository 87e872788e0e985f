"""The bench's video section (bench/coach_bench.py) runs and reports, on a tiny run."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def test_tiny_run(monkeypatch):
    pytest.importorskip("ms_toollib")
    import fastmine
    from bench import coach_bench

    src = ROOT / "src"
    if Path(fastmine.__file__).resolve().parent.parent == src.resolve():
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
            p for p in (str(src), os.environ.get("PYTHONPATH")) if p))
    doc = coach_bench.run(copies=2, rounds=1)
    rows = {r["file"]: r for r in doc["per_file"]}
    assert doc["expert_games"] == sum(r["expert"] for r in rows.values()) >= 6
    clone = rows["clone_2006.mvf"]              # one ms-toollib cannot read
    assert clone["expert"] and clone["ms-toollib"] is None and clone["coach"] > 0
    assert all(r["read"] > 0 and r["read+coach"] > 0 for r in rows.values())
    assert doc["coach_ms_median_expert"] > 0
    w = doc["whole_runs"]
    assert w["files"] == 2 and "clone_2006.mvf" not in w["distinct"]
    assert set(w["ratio_to_ms_toollib"]) == {
        "ms-toollib", "fastmine analyze --no-coach", "fastmine analyze",
        "fastmine analyze, OPENBLAS_NUM_THREADS=1"}
    assert w["ratio_to_ms_toollib"]["ms-toollib"] == 1.0
    md = "\n".join(coach_bench.videos_section({"videos": doc}))
    assert "Coach per real Expert game" in md and "| fastmine analyze |" in md
    assert "Not measured: not requested" in "\n".join(
        coach_bench.videos_section({"videos": {"skipped": "not requested (--no-videos)"}}))
