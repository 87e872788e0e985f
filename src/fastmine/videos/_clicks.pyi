# Type stubs for the private click kernel of fastmine.videos (see _clicks.pyx).
import numpy as np
from numpy.typing import NDArray

BOUNDS_CHECKED: bool

class ClickKernel:
    rows: int
    cols: int
    w: int
    left: int
    right: int
    double: int
    lce: int
    rce: int
    dce: int
    bbbv_solved: int
    flags: int
    hidden_safe: int
    status: int
    mouse: int
    question_marks: bool
    count_chord_right_press: bool
    log_len: int
    nregions: int
    def __init__(self, mines: NDArray[np.bool_], rows: int, cols: int, question_marks: bool,
                 count_chord_right_press: bool) -> None: ...
    def step(self, kind: int, row: int, col: int, event: int) -> int: ...
    def run(self, kinds: NDArray[np.uint8], rows: NDArray[np.int32], cols: NDArray[np.int32],
            index: NDArray[np.int64]) -> tuple[int, int, int]: ...
    def play(self, kinds: object, rows: object, cols: object, times: object) -> tuple[
        int | None, int, tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.uint8],
                               NDArray[np.uint8], NDArray[np.int64], NDArray[np.bool_]]] | None: ...
    def log(self) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.uint8],
                           NDArray[np.int32], NDArray[np.bool_]]: ...
    def grid(self) -> NDArray[np.int16]: ...
    def view(self) -> NDArray[np.int8]: ...
