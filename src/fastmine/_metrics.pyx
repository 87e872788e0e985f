# Private Cython kernels of fastmine.metrics: connected regions and ZiNi.
#
# fastmine/metrics.py checks every argument (C-contiguous uint8 masks of a size
# fastmine handles, output arrays of the same shape) before calling in; these
# kernels trust it.  Every array access goes through a typed memoryview, so a
# FASTMINE_DEBUG=1 build checks each index.  No recursion: flood fills use an
# explicit stack, and ZiNi picks its next cell from a segment tree.

from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t

import numpy as np


def label8(const uint8_t[:, ::1] mask, int32_t[:, ::1] out):
    """Label the 8-connected regions of the cells where ``mask`` is set: 1, 2, ...
    in row-major order of each region's first cell; 0 elsewhere.  Returns how
    many regions there are."""
    cdef Py_ssize_t rows = mask.shape[0], cols = mask.shape[1]
    cdef Py_ssize_t r, c, rr, cc, top, p, label = 0
    cdef int64_t[::1] stack = np.empty(rows * cols, np.int64)
    for r in range(rows):
        for c in range(cols):
            out[r, c] = 0
    for r in range(rows):
        for c in range(cols):
            if not mask[r, c] or out[r, c]:
                continue
            label += 1
            out[r, c] = <int32_t>label
            stack[0] = r * cols + c
            top = 1
            while top:
                top -= 1
                p = stack[top]
                for rr in range(max(p // cols - 1, 0), min(p // cols + 2, rows)):
                    for cc in range(max(p % cols - 1, 0), min(p % cols + 2, cols)):
                        if mask[rr, cc] and not out[rr, cc]:
                            out[rr, cc] = <int32_t>label
                            stack[top] = rr * cols + cc      # labelled when pushed: once
                            top += 1
    return label


cdef class _Zini:
    """One run of the ZiNi algorithm on a board (see fastmine.metrics.zini).

    Cells are numbered column by column (``i = col * rows + row``), the order in
    which the algorithm breaks ties, as the reference implementation does.
    """

    cdef Py_ssize_t rows, cols, n, leaves, closed, clicks
    cdef bint human
    cdef uint8_t[::1] mine, opened, flagged, fallback
    cdef int32_t[::1] number, op1, op2, premium, start, members
    cdef int64_t[::1] tree

    def __init__(self, const uint8_t[:, ::1] mines, bint human):
        cdef Py_ssize_t rows = mines.shape[0], cols = mines.shape[1]
        cdef Py_ssize_t n = rows * cols, i, j, r, c, rr, cc, k, top, q, ops = 0
        self.rows, self.cols, self.n, self.human = rows, cols, n, human
        self.mine = np.zeros(n, np.uint8)
        self.opened = np.zeros(n, np.uint8)
        self.flagged = np.zeros(n, np.uint8)
        self.fallback = np.zeros(n, np.uint8)
        self.number = np.zeros(n, np.int32)
        self.op1 = np.zeros(n, np.int32)
        self.op2 = np.zeros(n, np.int32)
        self.premium = np.zeros(n, np.int32)
        for c in range(cols):
            for r in range(rows):
                self.mine[c * rows + r] = mines[r, c]
        for i in range(n):
            r, c = i % rows, i // rows
            for cc in range(max(c - 1, 0), min(c + 2, cols)):
                for rr in range(max(r - 1, 0), min(r + 2, rows)):
                    self.number[i] += self.mine[cc * rows + rr]
        # Openings, numbered in the order of their first cell; a cell on the
        # border of openings keeps the first two it touches (op1 < op2).
        cdef int64_t[::1] stack = np.empty(n, np.int64)
        for i in range(n):
            if self.number[i] != 0 or self.op1[i] != 0:
                continue
            ops += 1
            self.op1[i] = <int32_t>ops
            stack[0] = i
            top = 1
            while top:
                top -= 1
                q = stack[top]
                r, c = q % rows, q // rows
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    for rr in range(max(r - 1, 0), min(r + 2, rows)):
                        j = cc * rows + rr
                        if self.number[j] != 0:
                            if self.op1[j] == 0:
                                self.op1[j] = <int32_t>ops
                            elif self.op1[j] != ops and self.op2[j] == 0:
                                self.op2[j] = <int32_t>ops
                        elif self.op1[j] == 0:
                            self.op1[j] = <int32_t>ops
                            stack[top] = j
                            top += 1
        # The cells of each opening (its zeros and its border), as lists.
        self.start = np.zeros(ops + 2, np.int32)
        for i in range(n):
            if self.op1[i]:
                self.start[self.op1[i] + 1] += 1
            if self.op2[i]:
                self.start[self.op2[i] + 1] += 1
        for k in range(1, ops + 2):
            self.start[k] += self.start[k - 1]
        self.members = np.zeros(self.start[ops + 1], np.int32)
        cdef int32_t[::1] fill = np.array(self.start[:ops + 1], np.int32)
        for i in range(n):
            k = self.op1[i]
            if k:
                self.members[fill[k]] = <int32_t>i
                fill[k] += 1
            k = self.op2[i]
            if k:
                self.members[fill[k]] = <int32_t>i
                fill[k] += 1
        # Premium: what a chord there gains over left clicks (3BV around it,
        # less the flags and clicks it costs).
        for i in range(n):
            if self.number[i] == 0:
                self.premium[i] = -2 + 1
            else:
                k = 0
                r, c = i % rows, i // rows
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    for rr in range(max(r - 1, 0), min(r + 2, rows)):
                        j = cc * rows + rr
                        if not self.mine[j] and self.op1[j] == 0:
                            k += 1
                k += (self.op1[i] != 0) + (self.op2[i] != 0)
                self.premium[i] = <int32_t>(k - self.number[i] - 2)
            # A cell worth a plain click: a zero, or a number on no opening.
            self.fallback[i] = (not self.mine[i]
                                and (self.number[i] == 0 or self.op1[i] == 0))
        self.leaves = 1
        while self.leaves < n:
            self.leaves *= 2
        self.tree = np.full(2 * self.leaves, -1, np.int64)
        for i in range(n):
            self.tree[self.leaves + i] = i if self._eligible(i) else -1
        for k in range(self.leaves - 1, 0, -1):
            self.tree[k] = self._pick(self.tree[2 * k], self.tree[2 * k + 1])
        self.closed = n
        self.clicks = 0

    cdef inline bint _eligible(self, Py_ssize_t i):
        return not self.mine[i] and (self.opened[i] or not self.human)

    cdef inline int64_t _pick(self, int64_t a, int64_t b):
        # The higher premium; on a tie the first cell.
        if a < 0:
            return b
        if b < 0:
            return a
        if self.premium[b] > self.premium[a] or (self.premium[b] == self.premium[a] and b < a):
            return b
        return a

    cdef void _update(self, Py_ssize_t i):
        cdef Py_ssize_t k = self.leaves + i
        self.tree[k] = i if self._eligible(i) else -1
        k //= 2
        while k:
            self.tree[k] = self._pick(self.tree[2 * k], self.tree[2 * k + 1])
            k //= 2

    cdef void _add(self, Py_ssize_t i, int d):
        self.premium[i] += d
        self._update(i)

    cdef void _around(self, Py_ssize_t i, int d):
        cdef Py_ssize_t r = i % self.rows, c = i // self.rows, rr, cc
        for cc in range(max(c - 1, 0), min(c + 2, self.cols)):
            for rr in range(max(r - 1, 0), min(r + 2, self.rows)):
                self._add(cc * self.rows + rr, d)

    cdef void _open(self, Py_ssize_t i):
        self.opened[i] = 1
        self._add(i, 1)                 # no click needed to open it any more
        if self.op1[i] == 0:            # a 3BV of its own, solved
            self._around(i, -1)
        self.closed -= 1

    cdef void _reveal(self, Py_ssize_t i):
        cdef Py_ssize_t k, j, op
        if self.opened[i] or self.flagged[i]:
            return
        if self.number[i] != 0:
            self._open(i)
            return
        op = self.op1[i]                # a zero: its whole opening, solved
        for k in range(self.start[op], self.start[op + 1]):
            j = self.members[k]
            if not self.opened[j]:
                self._open(j)
            self._add(j, -1)

    cdef void _click(self, Py_ssize_t i):
        self._reveal(i)
        self.clicks += 1

    cdef void _flag_around(self, Py_ssize_t i):
        cdef Py_ssize_t r = i % self.rows, c = i // self.rows, rr, cc, j
        for cc in range(max(c - 1, 0), min(c + 2, self.cols)):
            for rr in range(max(r - 1, 0), min(r + 2, self.rows)):
                j = cc * self.rows + rr
                if self.mine[j] and not self.flagged[j]:
                    self.flagged[j] = 1
                    self.clicks += 1
                    self._around(j, 1)  # one flag fewer to lay around it

    cdef void _chord(self, Py_ssize_t i):
        cdef Py_ssize_t r = i % self.rows, c = i // self.rows, rr, cc
        self.clicks += 1
        for cc in range(max(c - 1, 0), min(c + 2, self.cols)):
            for rr in range(max(r - 1, 0), min(r + 2, self.rows)):
                self._reveal(cc * self.rows + rr)

    def run(self, Py_ssize_t mines):
        """Play the board out; returns the clicks used."""
        cdef Py_ssize_t i, best, first = 0
        if self.human:                  # Human ZiNi: every opening first
            for i in range(self.n):
                if not self.mine[i] and self.number[i] == 0 and not self.opened[i]:
                    self._click(i)
        while self.closed > mines:
            best = self.tree[1]
            if best >= 0 and self.premium[best] >= 0:
                if not self.opened[best]:
                    self._click(best)
                self._flag_around(best)
                self._chord(best)
                continue
            # Nothing worth a chord: click the first cell worth a click.  Cells
            # only ever open, so the first such cell never moves back.
            while first < self.n and (self.opened[first] or not self.fallback[first]):
                first += 1
            if first == self.n:
                break
            self._click(first)
        return self.clicks


ctypedef fused coord:
    int32_t
    double


# sqrt of every whole square a step of under _NEAR pixels each way makes:
# consecutive mouse events lie a few pixels apart, so a pixel path's steps are
# read from this table instead of computed (sqrt's latency was most of a path's
# cost).  The table holds exactly what sqrt gives for the same double, so the
# sum is the same to the last bit; a longer step is computed as before.
cdef enum:
    _NEAR = 45
    _ROOTS_N = 2 * (_NEAR - 1) * (_NEAR - 1) + 1
cdef double _ROOTS[_ROOTS_N]
cdef Py_ssize_t _r
for _r in range(_ROOTS_N):
    _ROOTS[_r] = sqrt(<double>_r)


cdef inline double _step(int64_t dx, int64_t dy) noexcept nogil:
    cdef double fx, fy
    if -_NEAR < dx < _NEAR and -_NEAR < dy < _NEAR:
        return _ROOTS[dx * dx + dy * dy]
    fx = <double>dx
    fy = <double>dy
    return sqrt(fx * fx + fy * fy)


def path(const coord[::1] x, const coord[::1] y, const uint8_t[::1] keep, bint use_keep):
    """Sum of the distances between consecutive points (x[i], y[i]), in order,
    over the points with keep[i] set (every point when not use_keep): one
    pass, where NumPy's diff, hypot, mask and sum made five arrays of a
    video's thousands of mouse events.  sqrt, not hypot: pixel coordinates
    cannot overflow a square, and hypot's care for it costs four times as much."""
    cdef Py_ssize_t i, n = x.shape[0]
    cdef double total = 0.0, px = 0.0, py = 0.0, dx, dy
    cdef int32_t qx = 0, qy = 0
    cdef bint have = False
    if y.shape[0] != n or (use_keep and keep.shape[0] != n):
        raise ValueError("x, y and keep must be of one length")
    if coord is int32_t:
        for i in range(n):
            if use_keep and not keep[i]:
                continue
            if have:    # a step of 0 adds 0.0: the same sum, without a branch
                total += _step(<int64_t>x[i] - qx, <int64_t>y[i] - qy)
            qx = x[i]
            qy = y[i]
            have = True
    else:
        for i in range(n):
            if use_keep and not keep[i]:
                continue
            if have:
                dx = x[i] - px
                dy = y[i] - py
                if dx != 0.0 or dy != 0.0:
                    total += sqrt(dx * dx + dy * dy)
            px = x[i]
            py = y[i]
            have = True
    return total


def path_on_board(const int32_t[::1] x, const int32_t[::1] y, const int32_t[::1] row,
                  Py_ssize_t start, Py_ssize_t stop):
    """:func:`path` over a video's events ``start`` to ``stop`` (excluded) whose
    ``row`` is not negative (the pointer on the board), without a mask array."""
    cdef Py_ssize_t i, n = x.shape[0]
    cdef double total = 0.0
    cdef int32_t qx = 0, qy = 0
    cdef bint have = False
    if y.shape[0] != n or row.shape[0] != n:
        raise ValueError("x, y and row must be of one length")
    if not 0 <= start <= stop <= n:
        raise ValueError(f"events {start} to {stop} are not within the {n} events")
    for i in range(start, stop):
        if row[i] < 0:
            continue
        if have:
            total += _step(<int64_t>x[i] - qx, <int64_t>y[i] - qy)
        qx = x[i]
        qy = y[i]
        have = True
    return total
