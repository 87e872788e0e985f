# Private kernel of fastmine.solver.fifty: where 50/50 shapes may still form.
#
# FiftyRisk looks at three shapes, each named by its top-left cell: two hidden
# cells side by side (their short ends: the three cells left of the first and
# the three right of the second), one above the other (the three above and
# the three below), and a 2x2 block (its four diagonal corner cells).  A shape
# can still close when its own cells are hidden and none of its end cells is
# revealed; the ends that are not known mines would still have to become
# mines.  ``shapes`` finds all of them in one pass over the board, which
# FiftyRisk did with a dozen NumPy passes (about 250 us on Expert); Counter
# counts their layouts.  The Python layer (fifty.FiftyRisk) checks the
# arguments and keeps the buffers and the factor.

import numpy as np

from libc.math cimport INFINITY, exp, fabs
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

from ._prob cimport _finish, _prepare
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
# its first cell a mine, counted exactly by the probability engine.  The
# position is scanned and grouped once (Counter); each count then fixes the
# shape's cells on that prepared structure -- a fixed cell leaves its
# variable (one cell fewer) or the interior, a fixed mine also lowers the
# numbers around it -- and runs only the rest of the engine (_finish, without
# the marginals).  That is what rescanning a copy of the view with those
# cells taken off the board would count, without the copy, scan and grouping.
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


cdef class Counter:
    """One position, scanned and grouped once, for counting its layouts with
    some hidden cells fixed as mines or safe (:meth:`share`).

    ``ws`` is the Counter's own from then on: every count works in it.
    ``log_z`` is the log of the position's number of layouts (its analysis).
    """

    cdef Workspace ws
    cdef int32_t[::1] target, cvstart, cvlist, vmult      # as _prepare left them
    cdef int nc, nv, nf, ni, W
    cdef int64_t mines, max_entries, prepared
    cdef double log_z
    cdef bint ok

    def __init__(self, Workspace ws, const int8_t[:, :] view, int64_t mines, double log_z,
                 double[::1] prob, uint8_t[::1] interior, int64_t max_entries):
        self.ws = ws
        self.mines = mines
        self.log_z = log_z
        self.max_entries = max_entries
        self.W = view.shape[1] + 2
        self.ok = _prepare(ws, view, prob, interior) is None
        self.prepared = ws.prepared
        self.nc, self.nv, self.nf, self.ni = ws.nc, ws.nv, ws.nf, ws.ni
        # _finish changes the targets and lists, and a count the multiplicities
        self.target = np.array(ws.ctarget[:ws.nc])
        self.cvstart = np.array(ws.cvstart[:ws.nc + 1])
        self.cvlist = np.array(ws.cvlist[:ws.cvstart[ws.nc]])
        self.vmult = np.array(ws.vmult[:ws.nv])

    cdef double share(self, const Py_ssize_t* mr, const Py_ssize_t* mc, int n,
                      const Py_ssize_t* sr, const Py_ssize_t* sc, int ns) except? -1.0:
        """The share of the layouts in which the n cells (mr, mc) are mines and
        the ns cells (sr, sc) are safe: hidden cells on the board, none given
        twice (the caller's)."""
        cdef Workspace ws = self.ws
        if ws.prepared != self.prepared:
            raise RuntimeError("another position was prepared in this Counter's workspace: "
                               "give each Counter (each FiftyRisk) a workspace of its own")
        if not self.ok:
            return 0.0
        cdef int32_t[::1] ctarget = ws.ctarget, cvstart = ws.cvstart, cvlist = ws.cvlist
        cdef int32_t[::1] vmult = ws.vmult, fid = ws.fid, fvar = ws.fvar, fn = ws.fn
        cdef int32_t[::1] fcons = ws.fcons
        cdef int i, t, f, nf = self.nf, ni = self.ni
        cdef Py_ssize_t p
        for i in range(self.nc):
            ctarget[i] = self.target[i]
        for i in range(self.nc + 1):
            cvstart[i] = self.cvstart[i]
        for i in range(self.cvstart[self.nc]):
            cvlist[i] = self.cvlist[i]
        for i in range(self.nv):
            vmult[i] = self.vmult[i]
        for i in range(n + ns):
            if i < n:
                p = (mr[i] + 1) * self.W + mc[i] + 1
            else:
                p = (sr[i - n] + 1) * self.W + sc[i - n] + 1
            f = fid[p]
            if f < 0:               # off the frontier
                ni -= 1
                continue
            # A variable is cells with the same numbers around: one cell fewer
            # (none left: reduce_fixed takes it as fixed), and a mine is off
            # each of those numbers.
            vmult[fvar[f]] -= 1
            nf -= 1
            if i < n:
                for t in range(fn[f]):
                    ctarget[fcons[8 * f + t]] -= 1
        ws.nf, ws.ni = nf, ni       # the unknown cells (_finish's tilt and its check)
        try:
            res = _finish(ws, self.mines - n, self.max_entries, False)     # a count only
        finally:
            ws.nf, ws.ni = self.nf, self.ni
        if type(res) is not tuple or res[1] == -INFINITY:
            return 0.0              # no layout: a number would get too many mines, say
        return exp(<double>res[1] - self.log_z)


def layouts_with(Counter counter, const Py_ssize_t[:, ::1] known_mines,
                 const Py_ssize_t[:, ::1] known_safe):
    """:meth:`Counter.share` for cells given as (2, n) arrays of rows and columns."""
    cdef Py_ssize_t n = known_mines.shape[1], ns = known_safe.shape[1]
    return counter.share(&known_mines[0, 0] if n else NULL, &known_mines[1, 0] if n else NULL,
                         n, &known_safe[0, 0] if ns else NULL,
                         &known_safe[1, 0] if ns else NULL, ns)


cdef double _share(Counter counter, const uint8_t[:, :] mine, int kind, Py_ssize_t r,
                   Py_ssize_t c) except? -1.0:
    """The share of the shape (kind, r, c): its own mines and hidden ends
    mines, its other cells safe."""
    cdef Py_ssize_t rows = mine.shape[0], cols = mine.shape[1]
    cdef Shape sh
    cdef Py_ssize_t i, x, y
    _cells(kind, r, c, &sh)
    cdef int n = sh.own
    for i in range(sh.ends):    # the hidden ends join the mines
        x, y = sh.er[i], sh.ec[i]
        if 0 <= x < rows and 0 <= y < cols and not mine[x, y]:
            sh.mr[n], sh.mc[n] = x, y
            n += 1
    return counter.share(sh.mr, sh.mc, n, sh.sr, sh.sc, sh.own)


cdef inline double _cached(Counter counter, const uint8_t[:, :] mine,
                           double[:, :, ::1] cache, int kind, Py_ssize_t r,
                           Py_ssize_t c) except? -1.0:
    """:func:`_share`, remembered in ``cache`` (negative: not counted yet)."""
    if cache[kind, r, c] < 0.0:
        cache[kind, r, c] = _share(counter, mine, kind, r, c)
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


def factor_share(Counter counter, const uint8_t[:, :] mine, const int8_t[:, :, ::1] miss,
                 double[:, :, ::1] cache, int64_t left, Py_ssize_t r, Py_ssize_t c):
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
        s = _cached(counter, mine, cache, kind, rr, cc)
        if kind == 2:
            block = max(block, s)
        else:
            pairs += s
    return pairs, block


def pseudo(Counter counter, const uint8_t[:, :] mine, const int8_t[:, :, ::1] miss,
           double[:, :, ::1] cache, double[:, ::1] enablers, const double[:, :] probs,
           int64_t left):
    """Scan the shapes that need at most two mines (their own included), by
    kind then row-major: add each one's share to its hidden end cells
    (``enablers``) and return the first of its cells whose mine probability
    is all that share (a cell that is a mine only inside the shape: a 50/50
    or safe) as a flat index, else -1."""
    cdef Py_ssize_t rows = mine.shape[0], cols = mine.shape[1]
    cdef Shape sh
    cdef Py_ssize_t r, c, x, y, i
    cdef int kind
    cdef double s, p
    for kind in range(3):
        for r in range(rows):
            for c in range(cols):
                if not _open(miss, kind, r, c, min(2, left)):
                    continue
                s = _cached(counter, mine, cache, kind, r, c)
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
