# Private kernel of fastmine.solver.fifty: where 50/50 shapes may still form.
#
# FiftyRisk looks at three shapes, each named by its top-left cell: two hidden
# cells side by side (their short ends: the three cells left of the first and
# the three right of the second), one above the other (the three above and
# the three below), and a 2x2 block (its four diagonal corner cells).  A shape
# can still close when its own cells are hidden and none of its end cells is
# revealed; the ends that are not known mines would still have to become
# mines.  ``shapes`` finds all of them in one pass over the board, which
# FiftyRisk did with a dozen NumPy passes (about 250 us on Expert); the
# Python layer (fifty.FiftyRisk) checks the arguments and does the counting.

from libc.math cimport INFINITY, exp, fabs
from libc.stdint cimport int8_t, int64_t, uint8_t

from ._prob cimport _solve
from ._workspace cimport Workspace


cdef inline int _end(const int8_t[:, :] view, const uint8_t[:, :] mine, Py_ssize_t rows,
                     Py_ssize_t cols, Py_ssize_t r, Py_ssize_t c) noexcept:
    """An end cell: 0 off the board or a known mine, 1 hidden, -1 revealed."""
    if r < 0 or r >= rows or c < 0 or c >= cols or mine[r, c]:
        return 0
    return -1 if view[r, c] >= 0 else 1


cdef inline bint _hidden(const int8_t[:, :] view, const uint8_t[:, :] mine,
                         Py_ssize_t r, Py_ssize_t c) noexcept:
    """Not revealed and not a known mine (the caller keeps (r, c) on the board)."""
    return view[r, c] < 0 and not mine[r, c]


def shapes(const int8_t[:, :] view, const uint8_t[:, :] mine, int8_t[:, :, ::1] out):
    """Fill ``out[k, r, c]`` for the shape k (0: side by side, 1: one above
    the other, 2: a 2x2 block) whose top-left cell is (r, c): how many of its
    end cells are hidden (still to become mines for it to close), or -1 when
    it cannot form (a cell of it off the board, revealed or a known mine, or
    an end cell revealed).  ``out`` has shape (3, rows, cols)."""
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1]
    cdef Py_ssize_t r, c, k
    cdef int e, n
    for r in range(rows):
        for c in range(cols):
            out[0, r, c] = out[1, r, c] = out[2, r, c] = -1
            if not _hidden(view, mine, r, c):
                continue
            if c + 1 < cols and _hidden(view, mine, r, c + 1):
                n = 0
                for k in range(-1, 2):
                    e = _end(view, mine, rows, cols, r + k, c - 1)
                    if e < 0:
                        break
                    n += e
                    e = _end(view, mine, rows, cols, r + k, c + 2)
                    if e < 0:
                        break
                    n += e
                if e >= 0:
                    out[0, r, c] = n
            if r + 1 < rows and _hidden(view, mine, r + 1, c):
                n = 0
                for k in range(-1, 2):
                    e = _end(view, mine, rows, cols, r - 1, c + k)
                    if e < 0:
                        break
                    n += e
                    e = _end(view, mine, rows, cols, r + 2, c + k)
                    if e < 0:
                        break
                    n += e
                if e >= 0:
                    out[1, r, c] = n
            if (r + 1 < rows and c + 1 < cols and _hidden(view, mine, r + 1, c)
                    and _hidden(view, mine, r, c + 1) and _hidden(view, mine, r + 1, c + 1)):
                n = 0
                for k in range(4):
                    e = _end(view, mine, rows, cols, r - 1 + 3 * (k // 2), c - 1 + 3 * (k % 2))
                    if e < 0:
                        break
                    n += e
                if e >= 0:
                    out[2, r, c] = n


# ----------------------------------------------------------------- counting
#
# A shape's share: the part of the position's layouts in which it closes with
# its first cell a mine, counted exactly by the probability engine (_solve)
# on a copy of the view where the shape's mines are taken off the numbers
# around them and every cell it fixes shows 9 (known: _frontier.scan takes it
# only while ws.known_ok).
# A side-by-side pair at (r, c) fixes (r, c) and its hidden ends as mines and
# (r, c + 1) as safe; an upright pair the same with (r + 1, c); a block fixes
# (r, c), (r + 1, c + 1) and its hidden corners as mines, the other two safe.

cdef struct Shape:
    int own                 # its own mine cells: mr/mc[:own]
    int ends                # its end cells (some maybe off the board): er/ec[:ends]
    Py_ssize_t mr[8]        # room for the hidden ends after its own mines
    Py_ssize_t mc[8]
    Py_ssize_t sr[2]        # its safe cells (as many as its own mines)
    Py_ssize_t sc[2]
    Py_ssize_t er[6]
    Py_ssize_t ec[6]


cdef void _cells(int kind, Py_ssize_t r, Py_ssize_t c, Shape* sh) noexcept:
    """The cells of the shape (kind, r, c)."""
    cdef int k
    if kind == 2:
        sh.own, sh.ends = 2, 4
        sh.mr[0], sh.mc[0], sh.mr[1], sh.mc[1] = r, c, r + 1, c + 1
        sh.sr[0], sh.sc[0], sh.sr[1], sh.sc[1] = r + 1, c, r, c + 1
        for k in range(4):
            sh.er[k] = r - 1 + 3 * (k // 2)
            sh.ec[k] = c - 1 + 3 * (k % 2)
        return
    sh.own, sh.ends = 1, 6
    sh.mr[0], sh.mc[0] = r, c
    for k in range(3):
        if kind == 0:
            sh.er[k], sh.ec[k], sh.er[k + 3], sh.ec[k + 3] = r + k - 1, c - 1, r + k - 1, c + 2
        else:
            sh.er[k], sh.ec[k], sh.er[k + 3], sh.ec[k + 3] = r - 1, c + k - 1, r + 2, c + k - 1
    if kind == 0:
        sh.sr[0], sh.sc[0] = r, c + 1
    else:
        sh.sr[0], sh.sc[0] = r + 1, c


cdef double _with(Workspace ws, const int8_t[:, :] view, int8_t[:, ::1] work, int64_t mines,
                  const Py_ssize_t* mr, const Py_ssize_t* mc, int n, const Py_ssize_t* sr,
                  const Py_ssize_t* sc, int ns, double log_z, double[::1] prob,
                  uint8_t[::1] interior, int64_t max_entries) except? -1.0:
    """The share of the layouts in which the n cells (mr, mc) are mines and
    the ns cells (sr, sc) are safe (hidden cells on the board: the caller's)."""
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1]
    cdef Py_ssize_t i, j, rr, cc
    for i in range(rows):
        for j in range(cols):
            work[i, j] = view[i, j]
    for i in range(n):          # a known mine: off every number around it
        for rr in range(max(mr[i] - 1, 0), min(mr[i] + 2, rows)):
            for cc in range(max(mc[i] - 1, 0), min(mc[i] + 2, cols)):
                if view[rr, cc] >= 0:
                    work[rr, cc] -= 1
                    if work[rr, cc] < 0:
                        return 0.0      # a number would have too many mines
    for i in range(n):
        work[mr[i], mc[i]] = 9
    for i in range(ns):
        work[sr[i], sc[i]] = 9
    ws.known_ok = True
    try:
        res = _solve(ws, work, mines - n, prob, interior, max_entries, False)    # a count only
    finally:
        ws.known_ok = False
    if type(res) is not tuple or res[1] == -INFINITY:
        return 0.0
    return exp(<double>res[1] - log_z)


def layouts_with(Workspace ws, const int8_t[:, :] view, int8_t[:, ::1] work, int64_t mines,
                 const Py_ssize_t[:, ::1] known_mines, const Py_ssize_t[:, ::1] known_safe,
                 double log_z, double[::1] prob, uint8_t[::1] interior, int64_t max_entries):
    """:func:`_with` for cells given as (2, n) arrays of rows and columns."""
    cdef Py_ssize_t n = known_mines.shape[1], ns = known_safe.shape[1]
    return _with(ws, view, work, mines, &known_mines[0, 0] if n else NULL,
                 &known_mines[1, 0] if n else NULL, n, &known_safe[0, 0] if ns else NULL,
                 &known_safe[1, 0] if ns else NULL, ns, log_z, prob, interior, max_entries)


cdef double _share(Workspace ws, const int8_t[:, :] view, const uint8_t[:, :] mine,
                   int8_t[:, ::1] work, int64_t mines, int kind, Py_ssize_t r, Py_ssize_t c,
                   double log_z, double[::1] prob, uint8_t[::1] interior,
                   int64_t max_entries) except? -1.0:
    """The share of the shape (kind, r, c): its own mines and hidden ends
    mines, its other cells safe."""
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1]
    cdef Shape sh
    cdef Py_ssize_t i, x, y
    _cells(kind, r, c, &sh)
    cdef int n = sh.own
    for i in range(sh.ends):    # the hidden ends join the mines
        x, y = sh.er[i], sh.ec[i]
        if 0 <= x < rows and 0 <= y < cols and not mine[x, y]:
            sh.mr[n], sh.mc[n] = x, y
            n += 1
    return _with(ws, view, work, mines, sh.mr, sh.mc, n, sh.sr, sh.sc, sh.own, log_z, prob,
                 interior, max_entries)


cdef inline double _cached(Workspace ws, const int8_t[:, :] view, const uint8_t[:, :] mine,
                           int8_t[:, ::1] work, double[:, :, ::1] cache, int64_t mines,
                           int kind, Py_ssize_t r, Py_ssize_t c, double log_z,
                           double[::1] prob, uint8_t[::1] interior,
                           int64_t max_entries) except? -1.0:
    """:func:`_share`, remembered in ``cache`` (negative: not counted yet)."""
    if cache[kind, r, c] < 0.0:
        cache[kind, r, c] = _share(ws, view, mine, work, mines, kind, r, c, log_z, prob,
                                   interior, max_entries)
    return cache[kind, r, c]


cdef inline bint _open(const int8_t[:, :, ::1] miss, int kind, Py_ssize_t r, Py_ssize_t c,
                       int most) noexcept:
    """The shape (kind, r, c) is on the board and may close with its hidden
    ends plus its own mines (1, a block 2) being at most ``most`` mines."""
    if r < 0 or c < 0:
        return False
    return 0 <= miss[kind, r, c] and miss[kind, r, c] + (2 if kind == 2 else 1) <= most


# The shapes a cell (r, c) is in: (kind, row offset, column offset) of their
# top-left cells.
cdef int _KIND[8]
cdef int _DR[8]
cdef int _DC[8]
_KIND[:] = [0, 0, 1, 1, 2, 2, 2, 2]
_DR[:] = [0, 0, 0, -1, 0, 0, -1, -1]
_DC[:] = [0, -1, 0, 0, 0, -1, 0, -1]


def near(const int8_t[:, :, ::1] miss, int64_t left, Py_ssize_t r, Py_ssize_t c):
    """Whether a shape with (r, c) in it may close with up to 3 more mines
    (4 counting the pair's own mine, 5 the block's two; at most ``left``)."""
    cdef int k
    for k in range(8):
        if _open(miss, _KIND[k], r + _DR[k], c + _DC[k], min(5 if _KIND[k] == 2 else 4, left)):
            return True
    return False


def factor_share(Workspace ws, const int8_t[:, :] view, const uint8_t[:, :] mine,
                 const int8_t[:, :, ::1] miss, double[:, :, ::1] cache, int8_t[:, ::1] work,
                 int64_t mines, int64_t left, Py_ssize_t r, Py_ssize_t c, double log_z,
                 double[::1] prob, uint8_t[::1] interior, int64_t max_entries):
    """The 50/50 risk guessing (r, c) now removes: the shares of the pairs it
    is in that may close (see :func:`near`), plus the largest of its blocks'
    (they overlap).  Returns (pairs, block)."""
    cdef int k, kind
    cdef double pairs = 0.0, block = 0.0, s
    cdef Py_ssize_t rr, cc
    for k in range(8):
        kind, rr, cc = _KIND[k], r + _DR[k], c + _DC[k]
        if not _open(miss, kind, rr, cc, min(5 if kind == 2 else 4, left)):
            continue
        s = _cached(ws, view, mine, work, cache, mines, kind, rr, cc, log_z, prob, interior,
                    max_entries)
        if kind == 2:
            block = max(block, s)
        else:
            pairs += s
    return pairs, block


def pseudo(Workspace ws, const int8_t[:, :] view, const uint8_t[:, :] mine,
           const int8_t[:, :, ::1] miss, double[:, :, ::1] cache, int8_t[:, ::1] work,
           double[:, ::1] enablers, const double[:, :] probs, int64_t mines, int64_t left,
           double log_z, double[::1] prob, uint8_t[::1] interior, int64_t max_entries):
    """Scan the shapes that need at most two mines (their own included), by
    kind then row-major: add each one's share to its hidden end cells
    (``enablers``) and return the first of its cells whose mine probability
    is all that share (a cell that is a mine only inside the shape: a 50/50
    or safe) as a flat index, else -1."""
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1]
    cdef Shape sh
    cdef Py_ssize_t r, c, x, y, i
    cdef int kind
    cdef double s, p
    for kind in range(3):
        for r in range(rows):
            for c in range(cols):
                if not _open(miss, kind, r, c, min(2, left)):
                    continue
                s = _cached(ws, view, mine, work, cache, mines, kind, r, c, log_z, prob,
                            interior, max_entries)
                _cells(kind, r, c, &sh)
                for i in range(sh.ends):
                    x, y = sh.er[i], sh.ec[i]
                    if 0 <= x < rows and 0 <= y < cols and not mine[x, y]:
                        enablers[x, y] += s
                if s <= 0.0:
                    continue
                # the shape's cells in the order (r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)
                for i in range(4 if kind == 2 else 2):
                    if kind == 2:
                        x, y = r + i % 2, c + i // 2
                    elif i == 0:
                        x, y = r, c
                    else:
                        x, y = sh.sr[0], sh.sc[0]
                    p = probs[x, y]
                    if fabs(s - p) <= 1e-9 * p:
                        return x * cols + y
    return -1
