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

def analyze_known(
    ws: Workspace,
    view: NDArray[np.int8],
    known: NDArray[np.uint8],
    mines: int,
    prob: NDArray[np.float64],
    flags: NDArray[np.uint8],
    max_entries: int,
    last: NDArray[np.float64] | None = None,
) -> tuple[bool, float, int, int, int, int, float] | tuple[None, int, float] | int | None: ...
