"""Paired comparisons of two ``fastmine solve`` runs, game by game.

Two runs with the same ``--seed`` and the same configuration play the same
boards (game *i* is seeded from the seed, the configuration and *i*), so a
change to a solver can be judged on the games where the two runs disagree:
the difference of win rates has a standard error of about
``sqrt(share of games that differ / games)``, often ten times smaller than two
independent win rates would give.  That is how changes of the ``best`` strategy
are measured (see docs/solver.md).

``fastmine solve --outcomes a.npz`` saves every game's outcome; after a change,
``fastmine solve --outcomes b.npz`` (same options), then
``fastmine solve --compare a.npz b.npz`` prints the difference per
configuration with its standard error and 95 % interval.  Runs over other
game ranges (``--first-game``) are compared on the games both played.

>>> import numpy as np
>>> a = np.array([1, 0, 1, 0, 1], np.int8)
>>> b = np.array([1, 1, 1, 0, 1], np.int8)
>>> d = difference(a, b)
>>> round(d.diff, 3), d.differ
(0.2, 1)
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import FutureVersionError, SaveFormatError
from ..files.owned import refuse_owned
from ..files.reading import read_regular_file
from ..files.writing import atomic_write_bytes

if TYPE_CHECKING:
    from .runs import Run

__all__ = ["WON", "LOST", "STUCK", "Difference", "difference", "save", "load", "compare",
           "format_comparison"]

WON, LOST, STUCK = 1, 0, 2
"""Outcome codes of one game (int8)."""

FORMAT = "fastmine-outcomes"
VERSION = 1


@dataclass(frozen=True)
class Difference:
    """Win rate of run B minus run A over the same games."""

    games: int
    """Games paired (played in both runs)."""
    rate_a: float
    rate_b: float
    diff: float
    """``rate_b - rate_a``."""
    se: float
    """Standard error of ``diff`` (paired)."""
    differ: int
    """Games won in one run and not in the other."""

    @property
    def ci95(self) -> tuple[float, float]:
        """Normal 95 % interval of ``diff``."""
        return (self.diff - 1.959963984540054 * self.se, self.diff + 1.959963984540054 * self.se)


def difference(a: np.ndarray, b: np.ndarray) -> Difference:
    """Paired difference of two outcome arrays of the same games (codes above)."""
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"outcomes must be 1-D and the same length, got {a.shape} and {b.shape}")
    n = len(a)
    if n == 0:
        raise ValueError("no games to compare")
    wa = (a == WON).astype(np.float64)
    wb = (b == WON).astype(np.float64)
    d = wb - wa
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return Difference(n, float(wa.mean()), float(wb.mean()), float(d.mean()), se,
                      int(np.count_nonzero(d)))


def save(run: Run, path: str) -> None:
    """Write every game's outcome of ``run`` to ``path`` (``.npz``), atomically.

    Parameters
    ----------
    run
        A finished (or partial) :class:`~fastmine.solver.runs.Run`.
    path
        The file to write (see :func:`to_bytes` for its content).

    Raises
    ------
    ValueError
        ``path`` is one of fastmine's own files (the records database, the
        saved game ...: :func:`fastmine.files.storage.refuse_owned`).
    OSError
        The file could not be written (the old one is then unchanged).
    """
    refuse_owned(path, "the outcomes file")
    atomic_write_bytes(path, to_bytes(run))


def to_bytes(run: Run) -> bytes:
    """The ``.npz`` file of every game's outcome of ``run``, as :func:`save` writes it.

    Parameters
    ----------
    run
        A finished (or partial) :class:`~fastmine.solver.runs.Run`.

    Returns
    -------
    bytes
        The file: ``meta`` (JSON: format, version, seed, configurations) and
        one outcome array per configuration.
    """
    from .. import __version__

    meta = {"format": FORMAT, "version": VERSION, "fastmine": __version__, "seed": run.seed,
            "first_game": run.first, "configs": [r.config.to_dict() for r in run.results],
            "partial": bool(getattr(run, "partial", False))}
    arrays: dict[str, Any] = {f"c{k}": r.outcomes for k, r in enumerate(run.results)}
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.array(json.dumps(meta)), **arrays)
    return buf.getvalue()


MAX_OUTCOMES_BYTES = 10**9 + (1 << 20)
"""The largest outcomes file read, packed or unpacked: a byte a game for the most
games a run plays (``runs.MAX_GAMES``), plus its metadata."""

MAX_OUTCOMES_MEMBERS = 100_000
"""Most arrays (configurations, and the metadata) an outcomes file may hold."""


def load(path: str) -> tuple[dict[str, Any], list[np.ndarray]]:
    """``(metadata, outcome arrays)`` of a file written by :func:`save`.

    Raises :class:`~fastmine.SaveFormatError` for a file that is not one (or is
    damaged), :class:`~fastmine.FutureVersionError` for one from a newer
    fastmine, and ``FileNotFoundError`` when there is no file.
    """
    try:
        # A regular file of bounded size, read without waiting (a FIFO never
        # blocks), and its members' unpacked sizes checked before unpacking.
        raw = read_regular_file(path, MAX_OUTCOMES_BYTES)
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            infos = z.infolist()
            if (len(infos) > MAX_OUTCOMES_MEMBERS
                    or sum(i.file_size for i in infos) > MAX_OUTCOMES_BYTES):
                raise ValueError(f"it unpacks to more than a run's outcomes "
                                 f"({sum(i.file_size for i in infos):,} bytes in "
                                 f"{len(infos)} arrays)")
        with np.load(io.BytesIO(raw), allow_pickle=False) as f:
            data = {name: f[name] for name in f.files}
        meta = json.loads(str(data.pop("meta")))
    except FileNotFoundError:
        raise
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise SaveFormatError(f"{path} is not a readable fastmine outcomes file ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise SaveFormatError(f"{path} is not a fastmine outcomes file")
    version = meta.get("version")
    if not isinstance(version, int):
        raise SaveFormatError(f"{path} has no valid format version")
    if version > VERSION:
        raise FutureVersionError(f"{path} was written by a newer fastmine (format version {version})")
    configs = meta.get("configs")
    first = meta.setdefault("first_game", 0)     # files written before --first-game: 0
    if type(first) is not int or first < 0:
        raise SaveFormatError(f"{path} has no valid first game number")
    if (not isinstance(configs, list) or not isinstance(meta.get("seed"), int)
            or any(f"c{k}" not in data for k in range(len(configs)))
            or not all(isinstance(c, dict) for c in configs)):
        raise SaveFormatError(f"{path} is incomplete: its configurations or outcomes are missing")
    for c in configs:               # files from before these options had them so
        c.setdefault("lookahead", True)
        c.setdefault("long_term", False)
    return meta, [np.asarray(data[f"c{k}"], np.int8) for k in range(len(configs))]


def _games(config: dict[str, Any]) -> dict[str, Any]:
    """What decides the games a configuration plays: all but the player options
    that do not change them (``long_term``), so runs with and without one pair up."""
    return {k: v for k, v in config.items() if k != "long_term"}


def compare(path_a: str, path_b: str) -> list[tuple[dict[str, Any], Difference]]:
    """The paired difference (B - A) of every configuration the two files share.

    Both runs must have the same seed (else the games differ and pairing means
    nothing: ``ValueError``); the games played in both are paired (game
    numbers are the runs' ``--first-game`` onwards), and runs that share no
    game are a ``ValueError`` too.
    """
    meta_a, out_a = load(path_a)
    meta_b, out_b = load(path_b)
    if meta_a["seed"] != meta_b["seed"]:
        raise ValueError(f"the runs have different seeds ({meta_a['seed']} and "
                         f"{meta_b['seed']}), so they played different games")
    fa, fb = meta_a["first_game"], meta_b["first_game"]
    found = []
    shared = False
    for ca, xa in zip(meta_a["configs"], out_a, strict=True):
        for cb, xb in zip(meta_b["configs"], out_b, strict=True):
            if _games(ca) == _games(cb):
                shared = True
                lo, hi = max(fa, fb), min(fa + len(xa), fb + len(xb))
                if lo < hi:
                    a, b = xa[lo - fa:hi - fa], xb[lo - fb:hi - fb]
                    both = (a >= 0) & (b >= 0)      # a partial run has unplayed games (-1)
                    if both.any():
                        found.append((ca, difference(a[both], b[both])))
    if not shared:
        raise ValueError("the two runs have no configuration in common")
    if not found:
        raise ValueError("the two runs share no game: their game numbers do not overlap "
                         "(see --first-game)")
    return found


def format_comparison(rows: list[tuple[dict[str, Any], Difference]], name_a: str,
                      name_b: str) -> str:
    """A text table of :func:`compare`'s result."""
    head = (f"{'strategy':<13} {'difficulty':<13} {'rule':<8} {'click':<8} {'games':>8} "
            f"{'A':>8} {'B':>8} {'B - A':>9} {'se':>7} {'95% interval':>19} {'differ':>7}")
    lines = [f"A = {name_a}", f"B = {name_b}", head, "-" * len(head)]
    for c, d in rows:
        lo, hi = d.ci95
        click = f"{c['first_click'][0]},{c['first_click'][1]}"
        lines.append(
            f"{c['strategy']:<13} {c['difficulty']:<13} {c['rule']:<8} {click:<8} "
            f"{d.games:>8} {100 * d.rate_a:>7.2f}% {100 * d.rate_b:>7.2f}% "
            f"{100 * d.diff:>+8.2f}pp {100 * d.se:>6.2f} {100 * lo:>+8.2f} to {100 * hi:>+6.2f}"
            f" {d.differ:>7}")
    return "\n".join(lines)
