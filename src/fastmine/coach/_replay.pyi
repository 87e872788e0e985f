# Type stubs for the coach's private replay kernel (see _replay.pyx).
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..solver._kept import Counter
from ..solver._workspace import Workspace

DONE: int
SAFE_PLAY: int
AFTER_END: int
OFF_BOARD: int
FIRST_MINE: int
NO_LAYOUT: int

class Replay:
    core: object
    view: NDArray[np.int8]
    category: NDArray[np.int8]
    risk: NDArray[np.float64]
    best: NDArray[np.float64]
    n_safe: NDArray[np.int32]
    survived: NDArray[np.uint8]
    safe: NDArray[np.bool_]
    mine: NDArray[np.bool_]
    at: int
    status: int
    fresh: int
    counter: Counter
    def __init__(
        self,
        ws: Workspace,
        pm: NDArray[np.uint8],
        pc: NDArray[np.int8],
        rows: int,
        cols: int,
        mines: int,
        moves: NDArray[np.int64],
        first_free: bool,
        deadline: float,
        max_entries: int,
        clock: Callable[[], float] | None,
        margin: float,
        fault: BaseException | str | None = None,
        kept: tuple[Counter, NDArray[np.float64]] | None = None,
    ) -> None: ...
    @property
    def over(self) -> bool: ...
    def cells(self) -> list[tuple[int, int]]: ...
    def run(self, start: int, resume: bool = False) -> int: ...
