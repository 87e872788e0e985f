# Type stubs for the private endgame kernel (see _endgame.pyx).
import numpy as np
from numpy.typing import NDArray

BOUNDS_CHECKED: bool

def layouts(
    order: NDArray[np.int32],
    start: NDArray[np.int32],
    cons: NDArray[np.int32],
    need: NDArray[np.int32],
    left: NDArray[np.int32],
    mines: int,
    out: NDArray[np.uint8],
    limit: int = -1,
) -> int: ...
def search(values: NDArray[np.int8], max_nodes: int) -> tuple[int, float]: ...
