# Type stubs for the solver's private kept-count kernel (see _kept.pyx).
import numpy as np
from numpy.typing import NDArray

class Counter:
    B: int
    rows: int
    cols: int
    W: int
    N: int
    Np: int
    mines: int
    recounted: int
    kept: int
    handed_back: int
    repaired: int
    rebuilt: int
    cells_counted: int
    steps_taken: int
    proven: int
    budget: int
    def __init__(self, B: int, rows: int, cols: int, mines: int, budget: int = ...) -> None: ...
    def update(self, views: NDArray[np.int8], phase: NDArray[np.uint8], playing: int,
               ready: int, untouched: NDArray[np.float64], out: NDArray[np.float64],
               handed_back: NDArray[np.uint8]) -> None: ...
    def components(self, g: int) -> list[list[tuple[int, int]]]: ...
    def _age(self, stamp: int) -> None: ...
