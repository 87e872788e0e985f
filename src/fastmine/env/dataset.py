"""Positions with their exact mine probabilities, for supervised learning.

:func:`dataset` plays games in a batched environment and writes every position
met (before each move of a game in play) with the exact probability of a mine
on each cell (:mod:`fastmine.env.labels`) and where the mines really are, to a
compressed ``.npz``; :func:`load_dataset` reads one back, checking its format.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "positions.npz"
>>> _ = dataset(path, 20, rows=9, cols=9, mines=10, seed=1, progress=False)
>>> data = load_dataset(path)
>>> data["views"].shape, data["probabilities"].dtype, data["meta"]["policy"]
((20, 9, 9), dtype('float64'), 'safe')
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import FutureVersionError, SaveFormatError
from .._validate import is_integer
from ..files.owned import refuse_owned
from ..files.writing import atomic_write_bytes
from . import _batch
from .labels import labels
from .options import Options
from .seeds import check_seed
from .vector import MinesweeperVectorEnv

__all__ = ["DATASET_FORMAT", "DATASET_VERSION", "MAX_DATASET_BYTES", "POLICIES", "dataset",
           "load_dataset"]

DATASET_FORMAT = "fastmine-env-dataset"
DATASET_VERSION = 1
POLICIES = ("safe", "random")
"""How the games are played: ``"safe"`` reveals a random safe cell (every game
is won, so the positions span whole games), ``"random"`` a random hidden cell
(games end early: mostly opening positions)."""

_ARRAYS = ("views", "probabilities", "mines")

MAX_DATASET_BYTES = 2 * 2**30
"""Most bytes of the arrays of one :func:`dataset` file (2 GiB: 10 bytes a cell of
each position, held in memory and compressed there before the write); checked
before anything is played or allocated."""


def dataset(path: str | os.PathLike[str], positions: int, *, rows: int = 16, cols: int = 16,
            mines: int = 40, rule: str = "opening", seed: int = 0, policy: str = "safe",
            num_envs: int = 64, overwrite: bool = False, progress: bool | None = None) -> Path:
    """Write ``positions`` positions with exact labels to the ``.npz`` file ``path``.

    Parameters
    ----------
    path : str or path-like
        Where to write (atomically: a reader never sees half a file).
    positions : int
        How many positions (at least 1).
    rows, cols, mines, rule
        The games, as :class:`~fastmine.env.MinesweeperEnv`.
    seed : int
        Seed of the batched environment (the same seed writes the same file).
    policy : str
        ``"safe"`` or ``"random"`` (:data:`POLICIES`).
    num_envs : int
        Games played side by side.
    overwrite : bool
        Replace an existing file (default: refuse).
    progress : bool, optional
        Show a progress bar (default: only on a terminal).

    Returns
    -------
    pathlib.Path
        The file written.  Its arrays: ``views`` (int8, n x rows x cols, the
        observation), ``probabilities`` (float64, :mod:`fastmine.env.labels`), ``mines``
        (bool, the board); ``meta``: the settings, as JSON.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is False.
    ValueError
        ``path`` is one of fastmine's own files (the records, the saved game,
        the settings, a replay: :func:`fastmine.files.owned.refuse_owned`),
        whatever ``overwrite`` says.
    IsADirectoryError
        ``path`` is a folder.
    TypeError, ValueError
        A bad argument, or more positions than :data:`MAX_DATASET_BYTES` holds.
    """
    from tqdm.auto import tqdm

    if not is_integer(positions):
        raise TypeError(f"positions must be an integer, got {type(positions).__name__}")
    if positions < 1:
        raise ValueError(f"positions must be at least 1, got {positions}")
    board = Options.make(rows, cols, mines, rule)
    need = int(positions) * board.cells * 10        # views 1, probabilities 8, mines 1
    if need > MAX_DATASET_BYTES:
        raise ValueError(f"{positions} positions of {board.rows}x{board.cols} need "
                         f"{need / 2**30:,.1f} GiB, over the {MAX_DATASET_BYTES // 2**30} GiB "
                         f"of one dataset: at most "
                         f"{MAX_DATASET_BYTES // (board.cells * 10):,} (write several files)")
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, got {policy!r:.40}")
    seed = check_seed(seed)
    out = Path(path)
    # Checked before playing (a large dataset takes minutes), not only at the write.
    if out.is_dir():
        raise IsADirectoryError(f"{out} is a folder; name the file to write, such as "
                                f"{out / 'positions.npz'}")
    # Never over fastmine's own files, overwrite or not: the records, saved game,
    # settings in any data folder in use, or any such file by its content.
    refuse_owned(out, "the dataset")
    if out.exists() and not overwrite:
        raise FileExistsError(f"{out} exists; pass overwrite=True to replace it")
    envs = MinesweeperVectorEnv(num_envs, copy=False, rows=rows, cols=cols, mines=mines,
                                rule=rule)
    b = envs._batch
    n = int(positions)
    views = np.empty((n, envs.options.rows, envs.options.cols), np.int8)
    probs = np.empty(views.shape, np.float64)
    truth = np.empty(views.shape, np.bool_)
    actions = np.zeros(envs.num_envs, np.int64)
    envs.reset(seed=seed)
    k = 0
    with tqdm(total=n, desc="positions", unit="pos", disable=None if progress is None
              else not progress) as bar:
        while k < n:
            live = np.flatnonzero((b.phase == _batch.PLAYING) & ~b.done)
            for i in live[: n - k]:
                views[k] = b.obs[i]
                probs[k] = labels(views[k], envs.options.mines, over=False)
                truth[k] = b.mine_mask(i)
                k += 1
            bar.update(min(len(live), bar.total - bar.n))
            b.sample(actions, policy == "safe")
            envs.step(actions)
    meta = {"format": DATASET_FORMAT, "version": DATASET_VERSION, "rows": envs.options.rows,
            "cols": envs.options.cols, "mines": envs.options.mines, "rule": envs.options.rule,
            "seed": seed, "policy": policy, "num_envs": envs.num_envs, "positions": n}
    refuse_owned(out, "the dataset")      # again: the path may have changed during the run
    _write_npz(out, {"views": views, "probabilities": probs, "mines": truth,
                     "meta": np.array(json.dumps(meta))})
    return out


def _write_npz(path: Path, arrays: dict[str, NDArray[Any]]) -> None:
    """Write ``arrays`` as a compressed .npz, atomically (fastmine's atomic
    writer: a temporary file flushed to disk, then renamed over ``path``; a
    missing folder is created)."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)          # type: ignore[arg-type]
    atomic_write_bytes(path, buf.getvalue())


def load_dataset(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a file :func:`dataset` wrote: its arrays and ``meta`` (a dict).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.npz`` file.

    Returns
    -------
    dict
        The arrays by name, and ``meta``.

    Raises
    ------
    fastmine.SaveFormatError
        Not such a file, or a damaged one (missing arrays, shapes that disagree).
    fastmine.FutureVersionError
        Written by a newer fastmine.
    OSError
        The file cannot be read.
    """
    try:
        with np.load(path, allow_pickle=False) as z:
            data = {name: z[name] for name in z.files}
    except (ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise SaveFormatError(f"{path} is not a fastmine dataset: {exc}") from None
    try:
        meta = json.loads(str(data.pop("meta")))
        if not isinstance(meta, dict) or meta.get("format") != DATASET_FORMAT:
            raise ValueError("wrong format")
        version = meta["version"]
    except (KeyError, ValueError, TypeError):
        raise SaveFormatError(f"{path} is not a fastmine dataset") from None
    if not isinstance(version, int) or version < 1:
        raise SaveFormatError(f"{path}: unknown dataset version {version!r}")
    if version > DATASET_VERSION:
        raise FutureVersionError(f"{path} was written by a newer fastmine (dataset version "
                                 f"{version}; this one reads up to {DATASET_VERSION})")
    shape = None
    for name in _ARRAYS:
        if name not in data:
            raise SaveFormatError(f"{path} is missing its {name!r} array")
        if shape is None:
            shape = data[name].shape
        elif data[name].shape != shape:
            raise SaveFormatError(f"{path}: {name!r} has shape {data[name].shape}, expected {shape}")
    data["meta"] = meta
    return data
