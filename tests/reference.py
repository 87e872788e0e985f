"""A slow, obviously-correct Minesweeper engine: the executable spec of the rules.

Plain lists, plain loops, a FIFO queue for flood fill (no recursion), no numpy.
The differential tests drive fastmine and this engine with the same moves and
require identical results.  When the two disagree, read this file first: it is
meant to be simple enough to check against the rules in docs/engine-tests.md line by line.

View codes are the integers of ``fastmine.viewcodes``, repeated here so the spec
stands on its own (a test checks they agree).
"""

from __future__ import annotations

from collections import deque

HIDDEN = -1
FLAG = -2
QUESTION = -3
MINE = -4
EXPLODED = -5
WRONG_FLAG = -6

READY = "ready"
PLAYING = "playing"
WON = "won"
LOST = "lost"


class RefGameOver(Exception):
    """A move on a finished game (fastmine raises GameOverError)."""


def neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    """The up-to-eight cells around (r, c) that lie on the board."""
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == 0 and dc == 0:
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                out.append((rr, cc))
    return out


class RefBoard:
    """Mines (a list of lists of bools) and the numbers they make."""

    def __init__(self, mines: list[list[bool]]):
        self.rows = len(mines)
        self.cols = len(mines[0])
        self.mines = [[bool(x) for x in row] for row in mines]
        self.mine_count = sum(sum(row) for row in self.mines)
        # The count of a mine cell is its own neighbour count, as in fastmine.
        self.counts = [
            [
                sum(1 for rr, cc in neighbours(self.rows, self.cols, r, c) if self.mines[rr][cc])
                for c in range(self.cols)
            ]
            for r in range(self.rows)
        ]

    def cells(self):
        """Every (row, col) of the board in row-major order."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c

    def is_zero(self, r: int, c: int) -> bool:
        """A safe cell with no adjacent mine: revealing it opens its region."""
        return not self.mines[r][c] and self.counts[r][c] == 0

    def openings(self) -> list[set[tuple[int, int]]]:
        """The 8-connected regions of zero cells."""
        seen = set()
        regions = []
        for start in self.cells():
            if start in seen or not self.is_zero(*start):
                continue
            region = {start}
            seen.add(start)
            queue = deque([start])
            while queue:
                r, c = queue.popleft()
                for nb in neighbours(self.rows, self.cols, r, c):
                    if nb not in seen and self.is_zero(*nb):
                        seen.add(nb)
                        region.add(nb)
                        queue.append(nb)
            regions.append(region)
        return regions

    def bbbv(self) -> int:
        """One click per opening, plus one per safe cell no opening uncovers."""
        regions = self.openings()
        uncovered = set()
        for region in regions:
            for r, c in region:
                uncovered.add((r, c))
                uncovered.update(neighbours(self.rows, self.cols, r, c))
        singles = sum(
            1 for r, c in self.cells() if not self.mines[r][c] and (r, c) not in uncovered
        )
        return len(regions) + singles


class RefGame:
    """The game rules over a fixed board (like ``fastmine.Game.from_board``).

    Every move returns the set of cells whose view changed; it is computed by
    comparing the whole view before and after, so it cannot miss a cell.
    """

    def __init__(self, board: RefBoard, question_marks: bool = True):
        self.board = board
        self.rows = board.rows
        self.cols = board.cols
        self.question_marks = question_marks
        self.view = [[HIDDEN] * self.cols for _ in range(self.rows)]
        self.state = READY
        self.left_clicks = 0
        self.right_clicks = 0
        self.chord_clicks = 0

    # -- what the view says
    def is_hidden(self, r: int, c: int) -> bool:
        """Hidden or question-marked: a cell that a reveal may open."""
        return self.view[r][c] in (HIDDEN, QUESTION)

    def flags(self) -> int:
        """Cells showing a flag (correct or, after a loss, wrong)."""
        return sum(1 for r, c in self.board.cells() if self.view[r][c] in (FLAG, WRONG_FLAG))

    @property
    def mines_left(self) -> int:
        """Mines minus flags."""
        return self.board.mine_count - self.flags()

    def _snapshot(self) -> list[list[int]]:
        return [row[:] for row in self.view]

    def _changed(self, before: list[list[int]]) -> set[tuple[int, int]]:
        return {(r, c) for r, c in self.board.cells() if before[r][c] != self.view[r][c]}

    def _check_playable(self) -> None:
        if self.state in (WON, LOST):
            raise RefGameOver(self.state)

    # -- moves
    def _open(self, r: int, c: int) -> None:
        """Reveal one hidden cell: a mine explodes, a zero floods its region."""
        if self.board.mines[r][c]:
            self.view[r][c] = EXPLODED
            return
        self.view[r][c] = self.board.counts[r][c]
        queue = deque([(r, c)])
        while queue:
            qr, qc = queue.popleft()
            if self.board.counts[qr][qc] != 0:
                continue
            for nr, nc in neighbours(self.rows, self.cols, qr, qc):
                if self.is_hidden(nr, nc):  # flags stop the flood
                    self.view[nr][nc] = self.board.counts[nr][nc]
                    queue.append((nr, nc))

    def _settle(self) -> None:
        cells = list(self.board.cells())
        if any(self.view[r][c] == EXPLODED for r, c in cells):
            self.state = LOST
            for r, c in cells:
                if self.board.mines[r][c] and self.view[r][c] in (HIDDEN, QUESTION):
                    self.view[r][c] = MINE
                elif not self.board.mines[r][c] and self.view[r][c] == FLAG:
                    self.view[r][c] = WRONG_FLAG
        elif all(self.view[r][c] >= 0 for r, c in cells if not self.board.mines[r][c]):
            self.state = WON
            for r, c in cells:
                if self.board.mines[r][c]:
                    self.view[r][c] = FLAG

    def reveal(self, r: int, c: int) -> set[tuple[int, int]]:
        """Left click."""
        self._check_playable()
        self.left_clicks += 1
        before = self._snapshot()
        if self.is_hidden(r, c):
            self.state = PLAYING
            self._open(r, c)
            self._settle()
        return self._changed(before)

    def toggle_mark(self, r: int, c: int) -> set[tuple[int, int]]:
        """Right click: hidden -> flag -> question (if enabled) -> hidden."""
        self._check_playable()
        self.right_clicks += 1
        before = self._snapshot()
        v = self.view[r][c]
        if v == HIDDEN:
            self.view[r][c] = FLAG
        elif v == FLAG:
            self.view[r][c] = QUESTION if self.question_marks else HIDDEN
        elif v == QUESTION:
            self.view[r][c] = HIDDEN
        return self._changed(before)

    def chord(self, r: int, c: int) -> set[tuple[int, int]]:
        """Open the unflagged neighbours of a number whose flags match it.

        A revealed 0 is such a number too (no flag around it, so its hidden
        neighbours open): a 0 keeps a hidden neighbour when a flag stopped the
        flood and was taken off later.  Arbiter, Vienna and Metasweeper open
        it; so does fastmine.
        """
        self._check_playable()
        self.chord_clicks += 1
        before = self._snapshot()
        number = self.view[r][c]
        around = neighbours(self.rows, self.cols, r, c)
        if number >= 0 and sum(1 for rr, cc in around if self.view[rr][cc] == FLAG) == number:
            for rr, cc in around:
                if self.is_hidden(rr, cc):
                    self._open(rr, cc)
            self._settle()
        return self._changed(before)
