# Type stubs for the private 50/50 shapes kernel (see _fifty.pyx).
import numpy as np
from numpy.typing import NDArray

from ._workspace import Workspace

def shapes(view: NDArray[np.int8], mine: NDArray[np.uint8], out: NDArray[np.int8]) -> None: ...

class Counter:
    def __init__(self, ws: Workspace, view: NDArray[np.int8], mines: int, log_z: float,
                 prob: NDArray[np.float64], interior: NDArray[np.uint8],
                 max_entries: int) -> None: ...

def layouts_with(counter: Counter, known_mines: NDArray[np.intp],
                 known_safe: NDArray[np.intp]) -> float: ...
def near(miss: NDArray[np.int8], left: int, r: int, c: int) -> bool: ...
def factor_share(counter: Counter, mine: NDArray[np.uint8], miss: NDArray[np.int8],
                 cache: NDArray[np.float64], left: int, r: int, c: int) -> tuple[float, float]: ...
def pseudo(counter: Counter, mine: NDArray[np.uint8], miss: NDArray[np.int8],
           cache: NDArray[np.float64], enablers: NDArray[np.float64],
           probs: NDArray[np.float64], left: int) -> int: ...
