"""What is measured: the kernels, the board sizes, and how each case is built."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .peers import Case


@dataclass(frozen=True)
class Kernel:
    """One operation measured on every peer."""

    name: str
    title: str
    what: str


KERNELS: dict[str, Kernel] = {k.name: k for k in (
    Kernel("gen_cell", "generate (safe cell)",
           "lay the mines with the clicked cell kept safe, and count the neighbours"),
    Kernel("gen_opening", "generate (opening)",
           "lay the mines with the clicked cell and its neighbours kept safe, and count"),
    Kernel("count", "neighbour counts",
           "neighbour counts of a given mine mask (building a board from mines)"),
    Kernel("bbbv", "3BV", "the 3BV of a given board (fewest clicks to clear it)"),
    Kernel("bbbv_empty", "3BV (near-empty)",
           "the 3BV of a board with one mine: one flood fill over the whole board"),
    Kernel("reveal_opening", "reveal (opening)",
           "a new game's first reveal, in the largest opening of a normal-density board"),
    Kernel("reveal_empty", "reveal (near-empty)",
           "a new game's first reveal on a board with one mine: opens every other cell"),
)}


#: Kernels that touch every cell of the board: the report gives their ns per
#: cell and the memory floor (bench.tasks.memory_floor) beside them.
WHOLE_BOARD = ("count", "bbbv", "bbbv_empty", "reveal_empty")


@dataclass(frozen=True)
class Size:
    """A board size and its mine count for the normal-density kernels."""

    rows: int
    cols: int
    mines: int

    @property
    def cells(self) -> int:
        """rows * cols."""
        return self.rows * self.cols

    @property
    def label(self) -> str:
        """``"16x30"``."""
        return f"{self.rows}x{self.cols}"


def size(label: str) -> Size:
    """Parse ``"16x30"`` or ``"16x30/99"``; without a mine count the density is 20%
    (the standard presets 9x9, 16x16 and 16x30 get their usual 10, 40 and 99)."""
    dims, _, m = label.partition("/")
    rows, cols = (int(x) for x in dims.lower().split("x"))
    if m:
        return Size(rows, cols, int(m))
    return Size(rows, cols, STANDARD.get((rows, cols), max(1, rows * cols // 5)))


STANDARD = {(9, 9): 10, (16, 16): 40, (16, 30): 99}

FULL_SIZES = ("9x9", "16x16", "16x30", "50x50", "200x200", "1000x1000")
FASTMINE_ONLY_SIZES = ("5000x5000",)
QUICK_SIZES = ("9x9", "16x30", "50x50", "200x200")


#: A pool of boards holds at most this many boards and this many cells in all
#: (each peer keeps its own copy of every board while a figure is taken).
POOL_BOARDS = 64
POOL_CELLS = 8_000_000
#: Kernels that draw a new board on every call already: no pool.
GENERATES = ("gen_cell", "gen_opening")


def pool_size(kernel: str, rows: int, cols: int) -> int:
    """How many different boards the timed calls of ``kernel`` rotate through.

    Repeating one board lets the CPU's branch predictor learn it (a 200x200
    board's flood fill ran 2.4 times faster repeated than over 64 boards) and
    keeps it in the caches, which no user playing game after game ever sees.
    So every kernel given a board rotates through a pool: up to
    :data:`POOL_BOARDS` boards and :data:`POOL_CELLS` cells in all (64 boards up
    to 300x300, 8 at 1000x1000), never fewer than 2, so that no call follows
    a call on the same board.  The generation kernels lay a new board on every
    call and need no pool.
    """
    if kernel in GENERATES:
        return 1
    return max(2, min(POOL_BOARDS, POOL_CELLS // (rows * cols)))


def make_pool(kernel: str, rows: int, cols: int, mines: int, seed: int) -> list[Case]:
    """The boards the timed calls rotate through, the same for every peer.

    Board ``i`` is ``make_case(..., seed + i)``: board 0 is the case a single
    board would be.  The near-empty kernels' boards are all alike (one mine in
    the corner) but separate arrays, so the caches do not keep one for them.
    """
    return [make_case(kernel, rows, cols, mines, seed + i)
            for i in range(pool_size(kernel, rows, cols))]


def make_case(kernel: str, rows: int, cols: int, mines: int, seed: int) -> Case:
    """The input every peer gets for ``kernel`` at this size (same seed, same board).

    Generation kernels get only the size and the click (the centre).  The
    others get a layout drawn with NumPy (not with any peer): uniform mines
    outside the 3x3 block at the centre.  ``reveal_opening`` clicks the board's
    largest opening (so the reveal is a real flood fill, not a 3x3 block);
    ``reveal_empty`` gets one mine in the bottom-right corner and clicks the
    top-left.
    """
    click = (rows // 2, cols // 2)
    if kernel in ("gen_cell", "gen_opening"):
        return Case(rows, cols, mines, click)
    if kernel in ("reveal_empty", "bbbv_empty"):
        mask = np.zeros((rows, cols), bool)
        mask[-1, -1] = True
        return Case(rows, cols, 1, (0, 0), mask)
    rng = np.random.default_rng(seed)
    allowed = np.ones((rows, cols), bool)
    allowed[max(click[0] - 1, 0):click[0] + 2, max(click[1] - 1, 0):click[1] + 2] = False
    flat = np.zeros(rows * cols, bool)
    flat[rng.choice(np.flatnonzero(allowed), mines, replace=False)] = True
    mask = flat.reshape(rows, cols)
    if kernel == "reveal_opening":
        click = _largest_opening(mask)
    return Case(rows, cols, mines, click, mask)


def _largest_opening(mask: np.ndarray) -> tuple[int, int]:
    """The first cell (row-major) of the board's largest opening (zero region).

    Ties go to the opening that starts first; with no opening, (0, 0).  Plain NumPy (the suite runs
    without SciPy): every zero cell takes the smallest flat index among itself
    and its zero neighbours, then jumps to its label's label, until nothing
    changes; each opening ends labelled with its first cell.
    """
    from .peers.numpy_peer import count

    rows, cols = mask.shape
    n = rows * cols
    zero = (~mask & (count(mask) == 0)).ravel()
    if not zero.any():
        return (0, 0)                       # no opening: the top-left cell, as before
    label = np.where(zero, np.arange(n), n)
    while True:
        padded = np.full((rows + 2, cols + 2), n)
        padded[1:-1, 1:-1] = label.reshape(rows, cols)
        low = label.reshape(rows, cols).copy()
        for dr in range(3):
            for dc in range(3):
                np.minimum(low, padded[dr:dr + rows, dc:dc + cols], out=low)
        new = np.where(zero, low.ravel(), n)
        new[zero] = new[new[zero]]          # a label is a zero cell of the same opening
        if np.array_equal(new, label):
            break
        label = new
    firsts, sizes = np.unique(label[zero], return_counts=True)
    return divmod(int(firsts[np.argmax(sizes)]), cols)
