"""Slow, obviously-correct versions of the community's board metrics, for the tests.

Plain lists and loops, recomputed from scratch at every step (fastmine.metrics
keeps running counts in a Cython kernel):

- 3BV solved, from the definition: the openings whose zeros are all open, plus
  the open numbers no opening uncovers;
- islands: groups of those numbers;
- Greedy and Human ZiNi, written out from the algorithm's description: before
  every step each cell's premium is worked out anew from the board as it is.
"""

from __future__ import annotations

from collections import deque

from reference import RefBoard, neighbours


def _around(b: RefBoard, r: int, c: int) -> list[tuple[int, int]]:
    """The 3x3 block around (r, c), the cell itself included."""
    return [(r, c), *neighbours(b.rows, b.cols, r, c)]


def isolated(b: RefBoard) -> set[tuple[int, int]]:
    """Safe numbers with no zero around them: each is a 3BV of its own."""
    return {(r, c) for r, c in b.cells() if not b.mines[r][c] and not b.is_zero(r, c)
            and not any(b.is_zero(*p) for p in neighbours(b.rows, b.cols, r, c))}


def bbbv_solved(b: RefBoard, view: list[list[int]]) -> int:
    """Openings with every zero open, plus open isolated numbers."""
    def is_open(r: int, c: int) -> bool:
        return 0 <= view[r][c] <= 8

    done = sum(1 for region in b.openings() if all(is_open(*p) for p in region))
    return done + sum(1 for p in isolated(b) if is_open(*p))


def islands(b: RefBoard) -> int:
    """8-connected groups of isolated numbers (a FIFO flood, no recursion)."""
    cells = isolated(b)
    seen: set[tuple[int, int]] = set()
    groups = 0
    for start in sorted(cells):
        if start in seen:
            continue
        groups += 1
        seen.add(start)
        queue = deque([start])
        while queue:
            for p in neighbours(b.rows, b.cols, *queue.popleft()):
                if p in cells and p not in seen:
                    seen.add(p)
                    queue.append(p)
    return groups


def zini(b: RefBoard, human: bool = False) -> int:
    """Greedy ZiNi (``human``: Human ZiNi), from scratch at every step.

    Openings are numbered in the order their first zero comes, column by
    column; a number on the border of openings counts the first two of them.
    A cell's premium is what a chord there saves: the unsolved 3BV around it
    (isolated numbers still closed in its 3x3 block, and its openings not yet
    open; a zero counts its own opening) less the mines not yet flagged around
    it, less 1 for the chord, less 1 more if it is still closed.  Each step
    takes the highest premium (the first cell, column by column, on a tie)
    among the safe cells (Human ZiNi: the open ones) if it is 0 or more: open
    it if closed, flag its mines, chord it.  Else it clicks the first closed
    zero or isolated number.  Every click counts, until only mines are closed.
    """
    order = [(r, c) for c in range(b.cols) for r in range(b.rows)]    # column by column
    op_of: dict[tuple[int, int], int] = {}
    regions = sorted(b.openings(), key=lambda reg: min(order.index(p) for p in reg))
    for k, region in enumerate(regions, 1):
        for p in region:
            op_of[p] = k
    borders: dict[tuple[int, int], list[int]] = {}
    for p in order:
        if p not in op_of:
            touching = sorted({op_of[q] for q in neighbours(b.rows, b.cols, *p) if q in op_of})
            borders[p] = touching[:2]
    singles = isolated(b)
    opened: set[tuple[int, int]] = set()
    flagged: set[tuple[int, int]] = set()
    clicks = 0

    def openings_of(p: tuple[int, int]) -> list[int]:
        return [op_of[p]] if p in op_of else borders.get(p, [])

    def reveal(p: tuple[int, int]) -> None:
        if p in opened or p in flagged:
            return
        if p in op_of:                      # a zero opens its whole opening and border
            k = op_of[p]
            opened.update(q for q in order if k in openings_of(q) and not b.mines[q[0]][q[1]])
        else:
            opened.add(p)

    def premium(p: tuple[int, int]) -> int:
        block = _around(b, *p)
        gain = sum(1 for q in block if q in singles and q not in opened)
        gain += sum(1 for k in openings_of(p)
                    if not all(q in opened for q in op_of if op_of[q] == k))
        unflagged = sum(1 for q in block if b.mines[q[0]][q[1]] and q not in flagged)
        return gain - unflagged - 1 - (p not in opened)

    safe = [p for p in order if not b.mines[p[0]][p[1]]]
    if human:
        for p in safe:
            if p in op_of and p not in opened:
                reveal(p)
                clicks += 1
    while len(opened) < len(safe):
        best, best_premium = None, -1
        for p in safe:
            if human and p not in opened:
                continue
            value = premium(p)
            if value > best_premium:
                best, best_premium = p, value
        if best is not None:
            if best not in opened:
                reveal(best)
                clicks += 1
            for q in _around(b, *best):
                if b.mines[q[0]][q[1]] and q not in flagged:
                    flagged.add(q)
                    clicks += 1
            clicks += 1
            for q in _around(b, *best):
                reveal(q)
            continue
        first = next((p for p in safe if p not in opened and (p in op_of or p in singles)), None)
        if first is None:
            break
        reveal(first)
        clicks += 1
    return clicks
