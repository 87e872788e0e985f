# Type stubs for the private probability kernel (see _prob.pyx).
import numpy as np
from numpy.typing import NDArray

from ._workspace import Workspace

BOUNDS_CHECKED: bool

def analyze(
    ws: Workspace,
    view: NDArray[np.int8],
    mines: int,
    prob: NDArray[np.float64],
    safe: NDArray[np.uint8],
    mine: NDArray[np.uint8],
    interior: NDArray[np.uint8],
    max_entries: int,
) -> tuple[bool, float, int, int, int, int, float] | str | int: ...

def score(
    ws: Workspace,
    child: NDArray[np.int8],
    mines: int,
    prob: NDArray[np.float64],
    interior: NDArray[np.uint8],
    max_entries: int,
    probs: NDArray[np.float64],
    r: int,
    c: int,
    log_z: float,
    safe: float,
    has_bound: bool,
    bound: float,
    blend: float,
    parts: NDArray[np.float64],
    use_probs: bool,
) -> tuple[int, float, int]: ...
