# Type stubs for the private logic kernel (see _logic.pyx).
import numpy as np
from numpy.typing import NDArray

KNOWN_MINE: int
KNOWN_SAFE: int
UNKNOWN: int
OUTSIDE: int

class Logic:
    rows: int
    cols: int
    W: int
    n: int
    mines: int
    known_mines: int
    unknown: int
    safe_left: int
    board_mode: bool
    def __init__(self, rows: int, cols: int) -> None: ...
    def load_board(self, pm: NDArray[np.uint8], pc: NDArray[np.int8], mines: int) -> None: ...
    def load_view(self, view: NDArray[np.int8], mines: int) -> None: ...
    def set_counts(self, pc: NDArray[np.int8]) -> None: ...
    def reveal(self, p: int) -> None: ...
    def mark_safe(self, cells: NDArray[np.intp]) -> None: ...
    def mark_mines(self, cells: NDArray[np.intp]) -> None: ...
    def learn(self, cells: NDArray[np.intp], view: NDArray[np.int8]) -> None: ...
    def new_safe(self) -> NDArray[np.intp]: ...
    def run(self, pairs: bool = ...) -> bool: ...
    def knowledge(self) -> NDArray[np.int8]: ...
    def view(self) -> NDArray[np.int8]: ...
    def frontier_numbers(self) -> NDArray[np.intp]: ...
    def found(self) -> tuple[NDArray[np.intp], NDArray[np.intp]]: ...

def fifty_pair(
    view: NDArray[np.int8],
    mine: NDArray[np.uint8],
    probs: NDArray[np.float64],
    use_probs: bool,
    out: NDArray[np.intp],
) -> bool: ...

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
