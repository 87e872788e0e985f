"""Exhaustive endgame search: the move that wins most often when few boards remain.

When only a few cells are unknown, every board consistent with the view can be
listed (:func:`solutions`), each equally likely.  :func:`best_move` then
searches all move sequences: the chance of winning from a set ``S`` of
possible boards is 1 when every undecided cell is resolved, and otherwise

    W(S) = max over undecided cells x of  sum over numbers v  |S(x safe, shows v)| / |S| * W(S(x, v))

(revealing a cell that is safe in every board of S is free and only splits S,
so it is done first).  Sets are bitmasks over the listed boards and results
are memoized, so the search is fast for the few dozen boards it is used on.
The flood fill of a revealed zero is ignored: it only adds information, so the
values found are lower bounds of the true chances.  A node budget keeps the
search bounded; past it the search gives up (None) and the caller guesses by
probability instead.

>>> import numpy as np
>>> view = np.array([[1, -1], [1, -1]], np.int8)   # one mine in the right column
>>> cells, boards = solutions(view, 1)
>>> len(boards)
2
>>> round(best_move(view, 1)[1], 3)   # a true 50/50
0.5
"""

from __future__ import annotations

import numpy as np

__all__ = ["solutions", "best_move", "MAX_CELLS", "MAX_SOLUTIONS", "MAX_NODES"]

MAX_CELLS = 24
"""Most unknown cells :func:`best_move` will enumerate."""

MAX_SOLUTIONS = 400
"""Most boards :func:`best_move` will search over."""

MAX_NODES = 20000
"""Search budget: distinct board sets evaluated before giving up."""


class _Abort(Exception):
    pass


def solutions(view: np.ndarray, mines: int, limit: int = MAX_SOLUTIONS):
    """All mine layouts of the unknown cells consistent with ``view``.

    Returns ``(cells, boards)``: the flat indices of the unknown cells (every
    code < 0 counts as unknown) and a bool array, one row per board, or None
    when there are more than ``limit`` boards.
    """
    rows, cols = view.shape
    unknown = view < 0
    cells = np.flatnonzero(unknown)
    n = len(cells)
    index = {int(c): i for i, c in enumerate(cells)}
    cons: list[tuple[int, list[int]]] = []
    for p in np.flatnonzero(view >= 0):
        r, c = divmod(int(p), cols)
        members = [index[rr * cols + cc]
                   for rr in range(max(r - 1, 0), min(r + 2, rows))
                   for cc in range(max(c - 1, 0), min(c + 2, cols))
                   if unknown[rr, cc]]
        if members:
            cons.append((int(view[r, c]), members))
        elif view[r, c] != 0:
            return cells, np.zeros((0, n), bool)
    # Order cells so constraints close early: constrained cells first, by
    # first appearance, then the unconstrained ones.
    order: list[int] = []
    seen = set()
    for _, members in cons:
        for i in members:
            if i not in seen:
                seen.add(i)
                order.append(i)
    order += [i for i in range(n) if i not in seen]
    pos = {cell: k for k, cell in enumerate(order)}
    # For each constraint: remaining need, and how many of its cells are still open.
    need = [v for v, _ in cons]
    left = [len(m) for _, m in cons]
    of_cell: list[list[int]] = [[] for _ in range(n)]
    for j, (_, members) in enumerate(cons):
        for i in members:
            of_cell[pos[i]].append(j)
    assign = [False] * n
    out: list[list[bool]] = []

    def rec(k: int, mines_left: int) -> None:
        if mines_left < 0 or mines_left > n - k:
            return
        if k == n:
            if len(out) >= limit:
                raise _Abort
            out.append(assign.copy())
            return
        cell = order[k]
        js = of_cell[k]
        for is_mine in (False, True):
            ok = True
            for j in js:
                left[j] -= 1
                if is_mine:
                    need[j] -= 1
                if need[j] < 0 or need[j] > left[j]:
                    ok = False
            if ok:
                assign[cell] = is_mine
                rec(k + 1, mines_left - is_mine)
            for j in js:
                left[j] += 1
                if is_mine:
                    need[j] += 1
        assign[cell] = False

    try:
        rec(0, mines)
    except _Abort:
        return None
    return cells, np.array(out, bool).reshape(len(out), n)


def best_move(view: np.ndarray, mines: int, max_nodes: int = MAX_NODES):
    """The winning-most move: ``((row, col), chance of winning)``, or None.

    None when there are too many unknown cells or boards, when the search
    budget runs out, or when no board is consistent with the view.
    """
    rows, cols = view.shape
    unknown = view < 0
    if unknown.sum() > MAX_CELLS:
        return None
    found = solutions(view, mines)
    if found is None:
        return None
    cells, boards = found
    nb = len(boards)
    if nb == 0:
        return None
    ncell = len(cells)
    # Number each unknown cell shows in each board (its mined neighbours).
    mine_grid = np.zeros((nb, rows + 2, cols + 2), np.int8)
    flat = mine_grid.reshape(nb, -1)
    pcells = (cells // cols + 1) * (cols + 2) + cells % cols + 1
    flat[:, pcells] = boards
    counts = np.zeros((nb, rows, cols), np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                counts += mine_grid[:, dr:dr + rows, dc:dc + cols]
    values = counts.reshape(nb, -1)[:, cells]
    bit = [1 << s for s in range(nb)]
    mine_mask = [sum(bit[s] for s in np.flatnonzero(boards[:, i])) for i in range(ncell)]
    by_value: list[list[tuple[int, int]]] = []
    for i in range(ncell):
        groups: dict[int, int] = {}
        for s in np.flatnonzero(~boards[:, i]):
            v = int(values[s, i])
            groups[v] = groups.get(v, 0) | bit[s]
        by_value.append(list(groups.items()))
    memo: dict[int, float] = {}
    budget = [max_nodes]

    def win(S: int) -> float:
        got = memo.get(S)
        if got is not None:
            return got
        budget[0] -= 1
        if budget[0] < 0:
            raise _Abort
        n = S.bit_count()
        undecided = []
        free = None
        for i in range(ncell):
            m = mine_mask[i] & S
            if m == S:
                continue
            if m:
                undecided.append((n - m.bit_count(), i))
            elif free is None:
                parts = [S & g for _, g in by_value[i] if S & g]
                if len(parts) > 1:
                    free = parts
        if not undecided:
            memo[S] = 1.0
            return 1.0
        if free is not None:
            w = sum(part.bit_count() * win(part) for part in free) / n
            memo[S] = w
            return w
        undecided.sort(reverse=True)
        best = 0.0
        for safe_n, i in undecided:
            if safe_n <= best * n:
                break   # cannot beat best even if it always wins afterwards
            w = 0.0
            for _, g in by_value[i]:
                part = S & g
                if part:
                    w += part.bit_count() * win(part)
            w /= n
            if w > best:
                best = w
        memo[S] = best
        return best

    full = (1 << nb) - 1
    try:
        best_i, best_w = -1, -1.0
        order = sorted(range(ncell), key=lambda i: mine_mask[i].bit_count())
        for i in order:
            if mine_mask[i] == full:
                continue
            safe_n = nb - mine_mask[i].bit_count()
            if safe_n <= best_w * nb:
                break
            w = sum((g.bit_count() * win(g)) for _, g in by_value[i]) / nb
            if w > best_w + 1e-12:
                best_i, best_w = i, w
    except _Abort:
        return None
    if best_i < 0:
        return None
    r, c = divmod(int(cells[best_i]), cols)
    return (r, c), best_w
