# Type stubs for the private guess kernel (see _guess.pyx).
import numpy as np
from numpy.typing import NDArray

from ._workspace import Workspace

class Scratch:
    rows: int
    cols: int
    def __init__(self, rows: int, cols: int) -> None: ...

def candidates(
    view: NDArray[np.int8],
    probs: NDArray[np.float64],
    mine: NDArray[np.uint8],
    interior: NDArray[np.uint8],
    p_int: float,
    ratio: float,
    interior_ratio: float,
    few: int,
    out: NDArray[np.intp],
    key: NDArray[np.float64],
) -> int: ...

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

def deep_value(
    ws: Workspace,
    sc: Scratch,
    view: NDArray[np.int8],
    mines: int,
    r: int,
    c: int,
    probs: NDArray[np.float64],
    log_z: float,
    has_bound: bool,
    bound: float,
    max_entries: int,
    ratio: float,
    interior_ratio: float,
    few: int,
    ncand: int,
    blend: float,
) -> tuple[float, int]: ...
