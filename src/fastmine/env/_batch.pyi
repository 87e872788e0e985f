# Type stubs for the private batch kernel of fastmine.env (see _batch.pyx).
import numpy as np
from numpy.typing import NDArray

BOUNDS_CHECKED: bool
READY: int
PLAYING: int
WON: int
LOST: int
RULE_CODES: dict[str, int]
FETCH_AHEAD: int

def next_seed(state: int) -> tuple[int, int]: ...
def fast_remainder(x: int, d: int) -> int: ...

class Batch:
    B: int
    rows: int
    cols: int
    W: int
    P: int
    N: int
    mines: int
    safe: int
    n_actions: int
    rule: int
    flags: bool
    chord: bool
    invalid_ends: bool
    r_progress: float
    r_win: float
    r_loss: float
    r_invalid: float
    max_steps: int
    obs: NDArray[np.int8]
    mask: NDArray[np.bool_]
    mines_left: NDArray[np.int32]
    reward: NDArray[np.float64]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]
    won: NDArray[np.bool_]
    done: NDArray[np.bool_]
    phase: NDArray[np.uint8]
    board_seed: NDArray[np.uint64]
    def __init__(self, B: int, rows: int, cols: int, mines: int, rule: int, flags: bool,
                 chord: bool, invalid_ends: bool, r_progress: float, r_win: float,
                 r_loss: float, r_invalid: float, max_steps: int) -> None: ...
    def __reduce__(self) -> tuple[object, tuple[object, ...]]: ...
    def seed(self, which: NDArray[np.uint8], seeds: NDArray[np.uint64]) -> None: ...
    def reset(self, which: NDArray[np.uint8]) -> None: ...
    def reset_board_seed(self, i: int, board_seed: int) -> None: ...
    def set_board(self, i: int, mines: NDArray[np.uint8]) -> None: ...
    def mine_mask(self, i: int) -> NDArray[np.bool_]: ...
    def finished_mines_into(self, out: NDArray[np.float64]) -> None: ...
    def needs_board(self, actions: NDArray[np.int64], out: NDArray[np.uint8]) -> int: ...
    def step(self, actions: NDArray[np.int64]) -> None: ...
    def step_copy(self, actions: NDArray[np.int64], view_out: NDArray[np.int8],
                  mask_out: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.bool_],
                                                         NDArray[np.bool_], NDArray[np.int32],
                                                         NDArray[np.uint64], NDArray[np.bool_],
                                                         NDArray[np.bool_], NDArray[np.bool_],
                                                         NDArray[np.bool_]]: ...
    def sample(self, out: NDArray[np.int64] | None, safe_only: bool) -> NDArray[np.int64]: ...
