"""Paired comparisons of solver runs: per-game outcomes, files, --compare."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fastmine import FutureVersionError, SaveFormatError
from fastmine.cli import main
from fastmine.solver import paired
from fastmine.solver.runs import Config, run_configs

BEGINNER = Config("beginner", 9, 9, 10, "cell", (0, 0), "best")
RANDOM = Config("beginner", 9, 9, 10, "cell", (0, 0), "random")


@given(st.lists(st.tuples(st.sampled_from([0, 1, 2]), st.sampled_from([0, 1, 2])),
                min_size=2, max_size=200))
def test_difference_is_the_paired_mean_and_its_standard_error(pairs):
    a = np.array([x for x, _ in pairs], np.int8)
    b = np.array([y for _, y in pairs], np.int8)
    d = paired.difference(a, b)
    wins_a = [x == paired.WON for x, _ in pairs]
    wins_b = [y == paired.WON for _, y in pairs]
    diffs = [int(y) - int(x) for x, y in zip(wins_a, wins_b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
    assert d.games == n
    assert d.rate_a == pytest.approx(sum(wins_a) / n)
    assert d.diff == pytest.approx(mean)
    assert d.se == pytest.approx(sd / math.sqrt(n))
    assert d.differ == sum(x != 0 for x in diffs)
    lo, hi = d.ci95
    assert lo <= d.diff <= hi


def test_difference_rejects_mismatched_arrays():
    with pytest.raises(ValueError):
        paired.difference(np.zeros(3, np.int8), np.zeros(4, np.int8))
    with pytest.raises(ValueError):
        paired.difference(np.zeros(0, np.int8), np.zeros(0, np.int8))


def test_outcomes_match_the_counts_and_do_not_depend_on_the_workers():
    a = run_configs([BEGINNER, RANDOM], games=40, seed=5, jobs=1, chunk=7, progress=False)
    b = run_configs([BEGINNER, RANDOM], games=40, seed=5, jobs=2, chunk=11, progress=False)
    for ra, rb in zip(a.results, b.results, strict=True):
        assert ra.outcomes.tolist() == rb.outcomes.tolist()
        assert int((ra.outcomes == paired.WON).sum()) == ra.won
        assert int((ra.outcomes == paired.LOST).sum()) == ra.lost
        assert (ra.outcomes >= 0).all()


def test_save_load_compare(tmp_path):
    a = run_configs([BEGINNER, RANDOM], games=30, seed=2, jobs=1, progress=False)
    b = run_configs([RANDOM], games=20, seed=2, jobs=1, progress=False)
    pa, pb = tmp_path / "a.npz", tmp_path / "b.npz"
    paired.save(a, pa)
    paired.save(b, pb)
    meta, arrays = paired.load(pa)
    assert meta["seed"] == 2 and len(arrays) == 2
    assert arrays[1].tolist() == a.results[1].outcomes.tolist()
    [(config, d)] = paired.compare(pa, pb)       # only the shared configuration
    assert config["strategy"] == "random" and d.games == 20
    assert d.diff == 0 and d.differ == 0         # the same games, the same play
    c = run_configs([RANDOM], games=20, seed=3, jobs=1, progress=False)
    paired.save(c, tmp_path / "c.npz")
    with pytest.raises(ValueError, match="different seeds"):
        paired.compare(pa, tmp_path / "c.npz")


def test_compare_pairs_the_games_both_runs_played(tmp_path):
    a = run_configs([RANDOM], games=30, seed=6, jobs=1, progress=False)
    b = run_configs([RANDOM], games=30, seed=6, jobs=1, first=20, progress=False)
    c = run_configs([RANDOM], games=5, seed=6, jobs=1, first=30, progress=False)
    for name, run in (("a", a), ("b", b), ("c", c)):
        paired.save(run, tmp_path / f"{name}.npz")
    assert paired.load(tmp_path / "b.npz")[0]["first_game"] == 20
    [(_, d)] = paired.compare(tmp_path / "a.npz", tmp_path / "b.npz")
    assert d.games == 10 and d.differ == 0        # games 20..29, played alike
    assert d.rate_a == float((a.results[0].outcomes[20:] == paired.WON).mean())
    [(_, d)] = paired.compare(tmp_path / "b.npz", tmp_path / "c.npz")
    assert d.games == 5                           # games 30..34
    with pytest.raises(ValueError, match="share no game"):
        paired.compare(tmp_path / "a.npz", tmp_path / "c.npz")


def test_files_from_before_first_game_start_at_game_0(tmp_path):
    old = tmp_path / "old.npz"
    config = RANDOM.to_dict()
    np.savez(old, meta=np.array(json.dumps({"format": paired.FORMAT, "version": 1, "seed": 0,
                                            "configs": [config]})),
             c0=np.array([1, 0, 1], np.int8))
    meta, [x] = paired.load(old)
    assert meta["first_game"] == 0 and x.tolist() == [1, 0, 1]
    del config["lookahead"]                       # and before the lookahead: it was on
    np.savez(old, meta=np.array(json.dumps({"format": paired.FORMAT, "version": 1, "seed": 0,
                                            "configs": [config]})),
             c0=np.array([1, 0, 1], np.int8))
    assert paired.load(old)[0]["configs"] == [RANDOM.to_dict()]
    for bad in (-3, "1", 2.0, None):
        broken = tmp_path / "broken.npz"
        np.savez(broken, meta=np.array(json.dumps({"format": paired.FORMAT, "version": 1,
                                                   "seed": 0, "first_game": bad,
                                                   "configs": [config]})),
                 c0=np.array([1], np.int8))
        with pytest.raises(SaveFormatError, match="first game"):
            paired.load(broken)


def test_bad_outcome_files_raise_clear_errors_and_stay_untouched(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file")
    with pytest.raises(SaveFormatError):
        paired.load(junk)
    assert junk.read_bytes() == b"not a zip file"
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(b"PK\x03\x04garbage")      # a zip's magic, then nothing
    with pytest.raises(SaveFormatError):
        paired.load(truncated)
    assert truncated.read_bytes() == b"PK\x03\x04garbage"
    partial = tmp_path / "partial.npz"                 # metadata promises an array it lacks
    np.savez(partial, meta=np.array(json.dumps({"format": paired.FORMAT, "version": 1,
                                                "seed": 0, "configs": [{}]})))
    with pytest.raises(SaveFormatError, match="incomplete"):
        paired.load(partial)
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array(json.dumps({"format": "something else"})))
    with pytest.raises(SaveFormatError):
        paired.load(other)
    future = tmp_path / "future.npz"
    np.savez(future, meta=np.array(json.dumps({"format": paired.FORMAT, "version": 99,
                                               "seed": 0, "configs": []})))
    before = future.read_bytes()
    with pytest.raises(FutureVersionError):
        paired.load(future)
    assert future.read_bytes() == before
    with pytest.raises(FileNotFoundError):
        paired.load(tmp_path / "missing.npz")


def test_cli_outcomes_and_compare(tmp_path, capsys):
    a, b = str(tmp_path / "a.npz"), str(tmp_path / "b.npz")
    args = ["solve", "-n", "25", "-d", "beginner", "-r", "cell", "-s", "best", "-j", "1", "-q"]
    assert main(args + ["--outcomes", a]) == 0
    assert main(args + ["--outcomes", b]) == 0
    capsys.readouterr()
    assert main(["solve", "--compare", a, b]) == 0
    out = capsys.readouterr().out
    assert "B - A" in out and "+0.00pp" in out
    assert main(["solve", "--compare", a, str(tmp_path / "missing.npz")]) == 2
    err = capsys.readouterr().err
    assert f"no such file: {tmp_path / 'missing.npz'}" in err and "Errno" not in err
