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
    monkeypatch.delenv(coach_bench.ENV_FOLDER, raising=False)
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
        "ms-toollib", "fastmine analyze --no-coach", "fastmine analyze"}
    # the floors under the starts are measured, and are no ratios
    assert {"start: python -c pass", "start: python -c 'import ms_toollib'"} <= set(w["cpu_s"])
    assert w["ratio_to_ms_toollib"]["ms-toollib"] == 1.0
    md = "\n".join(coach_bench.videos_section({"videos": doc}))
    assert "Coach per real Expert game" in md and "| fastmine analyze |" in md
    assert "Not measured: not requested" in "\n".join(
        coach_bench.videos_section({"videos": {"skipped": "not requested (--no-videos)"}}))


def test_a_folder_of_ones_own(monkeypatch, tmp_path):
    """--videos DIR / $FASTMINE_BENCH_VIDEOS: the Expert files of a folder (walked) that
    both readers read, each once; one that aborts ms-toollib (Clone 2006) and one
    fastmine refuses are left out, as are the other levels."""
    pytest.importorskip("ms_toollib")
    import shutil

    import fastmine
    from bench import coach_bench

    src = ROOT / "src"
    if Path(fastmine.__file__).resolve().parent.parent == src.resolve():
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
            p for p in (str(src), os.environ.get("PYTHONPATH")) if p))
    data = ROOT / "tests" / "data" / "videos"
    (tmp_path / "a" / "b").mkdir(parents=True)
    for name, where in (("clone_2006.mvf", "a"), ("meta_v3_exp.evf", "a/b"),
                        ("vienna1_exp_gbk_name.rmv", "."), ("arbiter_beg.avf", "a"),
                        ("vienna2_utf8_invalid.rmv", "a/b")):
        shutil.copyfile(data / name, tmp_path / where / name)
    assert coach_bench.ms_toollib_reads(
        [tmp_path / "a" / "clone_2006.mvf", tmp_path / "a" / "b" / "meta_v3_exp.evf"]) \
        == [False, True]
    monkeypatch.setenv(coach_bench.ENV_FOLDER, str(tmp_path))
    doc = coach_bench.run(copies=5, rounds=1)
    assert doc["folder"] == str(tmp_path)
    assert [r["file"] for r in doc["per_file"]] == ["meta_v3_exp.evf", "vienna1_exp_gbk_name.rmv"]
    assert doc["expert_games"] == 2 and doc["coach_ms_median_expert"] > 0
    w = doc["whole_runs"]
    assert w["files"] == 5 and w["ratio_to_ms_toollib"]["fastmine analyze"] > 0
    one = coach_bench.run(copies=1, rounds=1, folder=tmp_path)
    assert len(one["per_file"]) == 1 and one["whole_runs"]["distinct"] == [one["per_file"][0]["file"]]
    assert "1 distinct files, each once" in coach_bench.report(one)


def test_trying_files_with_ms_toollib_leaves_no_crash_log(monkeypatch, tmp_path):
    """ms-toollib's panic handler writes crash.log into the working folder: the
    children that try files run in a folder of their own (it was left in the
    checkout's root by every test run), and still answer for every file."""
    pytest.importorskip("ms_toollib")
    from bench import coach_bench

    data = Path(__file__).resolve().parent / "data" / "videos"
    names = ["clone_2006.mvf", "meta_v3_exp.evf", "vienna2_utf8_invalid.rmv", "arbiter_beg.avf"]
    monkeypatch.chdir(data)             # relative names, as a caller in that folder gives
    got = coach_bench.ms_toollib_reads([Path(n) for n in names])
    assert len(got) == 4 and got[1] and got[3]
    assert not (data / "crash.log").exists()
    monkeypatch.chdir(tmp_path)
    assert coach_bench.ms_toollib_reads([data / n for n in names]) == got
    assert not (tmp_path / "crash.log").exists()
