"""Exact labels: info["probabilities"] and the datasets, against the solver."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from env_reference import assert_labels_close  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fastmine  # noqa: E402
from fastmine import solver  # noqa: E402
from fastmine.env import MinesweeperEnv, MinesweeperVectorEnv, dataset, load_dataset  # noqa: E402
from fastmine.env.dataset import DATASET_VERSION  # noqa: E402


def expected(view: np.ndarray, mines: int, over: bool, mask: np.ndarray) -> np.ndarray:
    """The definition: the solver's probability on unknown cells, 0 on open
    ones; at the end, the mines themselves."""
    if over:
        return mask.astype(float)
    p = solver.probabilities(view, mines)
    return np.where(view >= 0, 0.0, p)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), flags=st.booleans(),
       rule=st.sampled_from(["cell", "opening", "none"]))
def test_info_probabilities_are_the_solvers(seed, flags, rule):
    env = MinesweeperEnv(8, 8, 12, rule, flags=flags, labels=True, max_steps=60)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    assert np.allclose(info["probabilities"], 12 / 64)        # nothing known yet
    for _ in range(60):
        mask = info["action_mask"]
        a = int(rng.choice(np.flatnonzero(mask)))
        obs, _, terminated, truncated, info = env.step(a)
        over = terminated and env._batch.phase[0] >= 2
        want = expected(obs["view"], 12, over, env.mine_mask)
        assert np.array_equal(info["probabilities"], want)
        assert not np.isnan(info["probabilities"]).any()
        if over:
            shown = np.isin(obs["view"], [fastmine.MINE, fastmine.EXPLODED, fastmine.FLAG])
            assert np.array_equal(info["probabilities"] == 1.0, shown | env.mine_mask)
        if terminated or truncated:
            break


def test_certain_cells_are_exactly_zero_or_one():
    env = MinesweeperEnv(16, 16, 40, "opening", labels=True)
    _, info = env.reset(seed=3)
    obs, _, _, _, info = env.step(2 * 16 + 2)
    a = solver.analyze(obs["view"], 40)
    p = info["probabilities"]
    assert np.array_equal(p == 0.0, a.safe | (obs["view"] >= 0))
    assert np.array_equal(p == 1.0, a.mine)
    # and they are right
    assert not env.mine_mask[a.safe].any() and env.mine_mask[a.mine].all()


def test_vector_labels_match_single():
    envs = MinesweeperVectorEnv(3, rows=6, cols=6, mines=6, labels=True)
    singles = [MinesweeperEnv(6, 6, 6, labels=True) for _ in range(3)]
    _, info = envs.reset(seed=10)
    for i, s in enumerate(singles):
        s.reset(seed=10 + i)
    for _ in range(12):
        a = envs.random_reveals()
        _, _, _, _, info = envs.step(a)
        for i, s in enumerate(singles):
            if s._batch.done[0]:
                _, inf = s.reset()
            else:
                *_, inf = s.step(int(a[i]))
            assert_labels_close(info["probabilities"][i], inf["probabilities"], i)


def test_dataset_round_trip(tmp_path):
    path = tmp_path / "d.npz"
    out = dataset(path, 300, rows=9, cols=9, mines=10, seed=5, num_envs=16, progress=False)
    assert out == path
    data = load_dataset(path)
    views, probs, mines = data["views"], data["probabilities"], data["mines"]
    assert views.shape == probs.shape == mines.shape == (300, 9, 9)
    assert data["meta"] == {"format": "fastmine-env-dataset", "version": DATASET_VERSION,
                            "rows": 9, "cols": 9, "mines": 10, "rule": "opening", "seed": 5,
                            "policy": "safe", "num_envs": 16, "positions": 300}
    for k in range(0, 300, 7):
        assert np.array_equal(probs[k], expected(views[k], 10, False, mines[k]))
        assert mines[k].sum() == 10
        assert not mines[k][views[k] >= 0].any()       # the open cells are safe
        assert (views[k] >= 0).any()                    # positions of games in play
    # The labels are calibrated: cells given p are mines about p of the time.
    hidden = views == fastmine.HIDDEN
    p, m = probs[hidden], mines[hidden]
    assert abs(p.mean() - m.mean()) < 0.02
    # The same seed writes the same positions.
    again = dataset(tmp_path / "e.npz", 300, rows=9, cols=9, mines=10, seed=5, num_envs=16,
                    progress=False)
    assert np.array_equal(load_dataset(again)["views"], views)


def test_dataset_random_policy_and_refusals(tmp_path):
    path = tmp_path / "r.npz"
    dataset(path, 40, rows=8, cols=8, mines=10, policy="random", seed=1, progress=False)
    assert load_dataset(path)["meta"]["policy"] == "random"
    with pytest.raises(FileExistsError, match="overwrite"):
        dataset(path, 10, rows=8, cols=8, mines=10, progress=False)
    before = path.read_bytes()
    assert path.read_bytes() == before
    dataset(path, 10, rows=8, cols=8, mines=10, overwrite=True, progress=False)
    assert load_dataset(path)["views"].shape[0] == 10
    with pytest.raises(ValueError, match="policy"):
        dataset(tmp_path / "x.npz", 10, policy="greedy")
    with pytest.raises(ValueError, match="at least 1"):
        dataset(tmp_path / "x.npz", 0)
    with pytest.raises(TypeError, match="integer"):
        dataset(tmp_path / "x.npz", 1.5)
    assert not (tmp_path / "x.npz").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.npz"]    # no temporary left


def test_dataset_into_a_new_folder_and_never_over_a_folder(tmp_path):
    nested = tmp_path / "data" / "sets" / "p.npz"
    dataset(nested, 5, rows=6, cols=6, mines=5, progress=False)
    assert load_dataset(nested)["views"].shape == (5, 6, 6)
    folder = tmp_path / "data"
    for overwrite in (False, True):
        with pytest.raises(IsADirectoryError, match="is a folder; name the file"):
            dataset(folder, 5, rows=6, cols=6, mines=5, overwrite=overwrite, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["sets"]
    assert sorted(p.name for p in (folder / "sets").iterdir()) == ["p.npz"]


def test_load_dataset_refuses_damaged_and_newer_files(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(fastmine.SaveFormatError, match="not a fastmine dataset"):
        load_dataset(bad)
    path = tmp_path / "d.npz"
    dataset(path, 5, rows=5, cols=5, mines=3, progress=False)
    data = dict(np.load(path))
    meta = json.loads(str(data["meta"]))

    def write(name: str, **changes: object) -> object:
        arrays = {**data, **{k: v for k, v in changes.items() if k != "meta"}}
        if "meta" in changes:
            arrays["meta"] = np.array(json.dumps(changes["meta"]))
        p = tmp_path / name
        np.savez(p, **arrays)
        return p

    with pytest.raises(fastmine.FutureVersionError, match="newer fastmine"):
        load_dataset(write("new.npz", meta={**meta, "version": DATASET_VERSION + 1}))
    with pytest.raises(fastmine.SaveFormatError, match="not a fastmine dataset"):
        load_dataset(write("other.npz", meta={**meta, "format": "other"}))
    with pytest.raises(fastmine.SaveFormatError, match="shape"):
        load_dataset(write("shape.npz", mines=np.zeros((4, 5, 5), bool)))
    short = tmp_path / "short.npz"
    with zipfile.ZipFile(short, "w") as z:
        z.writestr("meta.npy", b"")
    with pytest.raises(fastmine.SaveFormatError):
        load_dataset(short)
