# Private kernel: exact probabilities of a batch of games' positions, each
# game's count kept from one position to the next.  Two callers: the batched
# environment's labels (fastmine.env.batch_labels, a batch of games stepped
# together) and the coach's replay (fastmine.coach._replay, one game's moves
# judged one after another).
#
# The labels are the solver's probabilities (fastmine.solver.probabilities):
# the share of the mine layouts that agree with every number shown, given the
# total mine count.  They factor over the frontier's components (hidden cells
# next to a number, joined when they share a number): for each component, a
# table of its layouts per number of mines k, and per variable (cells with the
# same numbers around them, m of them) the layouts' mines and safe cells on
# it per k.  A step changes only the components around the cells it opened,
# so only those are recounted; the others keep their tables.  What every
# label depends on is the combination over the total mine count (the interior
# takes the mines the frontier leaves): prefix products of the component
# tables, a suffix pass with the interior's binomials, and one sum per
# variable, recomputed each step a game changes (short polynomials: cheap);
# then each cell's label is read from its slot (0, 1, the interior's, its
# variable's), kept per cell as cells open, join components or are proven.
#
# A component is counted by enumerating its variables' mine counts in the
# order a breadth-first walk visits them, pruning on every number's residual
# (an explicit stack, no recursion: _kept_count.pxi).  Cells that every
# layout of their component makes mines, or safe, are proven for good (more
# numbers only rule layouts out): they leave the count, a proven mine lowering
# its numbers and the game's mine total, as fastmine.solver.incremental's known
# cells do.  A component over the step budget, or a view the counts find
# inconsistent, is handed back (status 1): the caller counts that game
# with the solver's own kernel, and the game is counted afresh here at its
# next step.  A game not in play is set to an untouched board, so its first
# step counts only around the cells the first reveal opened.
#
# Layout weights are products of binomials, scaled by powers of two only (so
# a mine or safe cell is certain exactly when its weight is exactly zero, as
# the solver's boolean reachability says); the combination normalises each
# partial product by a power of two, and a label is a ratio, so the scales
# cancel.  The labels equal the solver's up to float rounding (its weights are
# tilted and combined in log space): tests/env compare them within 1e-12.
#
# Every array here is allocated by this module and sized from its own
# counters; the arrays handed in are checked against the batch's shape first.

from libc.math cimport INFINITY, exp, frexp, ldexp, lgamma
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

import numpy as np

from .. import limits as _limits

cdef enum:
    OUT = 9             # the padding ring: neither hidden nor a number
    # slots of a label in Counter.vp: 0.0, 1.0, the interior's, then each variable's
    SLOT_ZERO = 0
    SLOT_ONE = 1
    SLOT_INTERIOR = 2
    SLOT_VAR = 3
    KNOWN_MINE = 10     # a hidden cell an earlier count proved a mine
    KNOWN_SAFE = 11     # a hidden cell an earlier count proved safe
    # enumeration steps a component may take before the solver counts it: at 30x30/180
    # a component took between 10,000 and 30,000 (a step is some 5 ns)
    BUDGET = 50000

include "_binom.pxi"   # BINOM[m][x] = C(m, x), m <= 8

cdef double TINY = 4.9406564584124654e-324          # the solver's clamps of an uncertain cell
cdef double BELOW_ONE = 1.0 - 1.1102230246251565e-16


cdef inline double _pow2_scale(double mx) noexcept:
    """The power of two that brings ``mx`` (> 0) into [0.5, 1)."""
    cdef int ex
    frexp(mx, &ex)
    return ldexp(1.0, -ex)


cdef inline double _ratio(double num, double other) noexcept:
    """num / (num + other), exactly 0 or 1 when one side is exactly zero."""
    if num == 0.0:
        return 0.0
    if other == 0.0:
        return 1.0
    return min(max(num / (num + other), TINY), BELOW_ONE)


cdef class _Tables:
    """A game's components: cells, variables and tables, one component after another.

    ``tab`` holds, per component of width w = hi - lo + 1, its layouts per
    mine count (w entries at toff) and per variable the mines and the safe
    cells those layouts put on it (w each, at vto and vto + w).
    """
    cdef int32_t[::1] cells, cstart, vstart, lo, hi, toff, vmult, vto
    cdef double[::1] tab
    cdef int ncomp, ncells, nvars, cap
    cdef Py_ssize_t ntab

    def __cinit__(self):
        self.cap = 0
        self.ncomp = self.ncells = self.nvars = 0
        self.ntab = 0
        z = np.zeros(0, np.int32)
        self.cells = self.cstart = self.vstart = self.lo = self.hi = z
        self.toff = self.vmult = self.vto = z
        self._ints(16)
        self.tab = np.empty(256, np.float64)

    cdef void _ints(self, int n):
        """Room for n cells, variables and components (content kept)."""
        if n <= self.cap:
            return
        n = max(n, 2 * self.cap)
        cdef Py_ssize_t k = self.cap + 1 if self.cap else 0
        self.cells = _grown(self.cells, n + 1, k)
        self.cstart = _grown(self.cstart, n + 1, k)
        self.vstart = _grown(self.vstart, n + 1, k)
        self.lo = _grown(self.lo, n + 1, k)
        self.hi = _grown(self.hi, n + 1, k)
        self.toff = _grown(self.toff, n + 1, k)
        self.vmult = _grown(self.vmult, n + 1, k)
        self.vto = _grown(self.vto, n + 1, k)
        self.cap = n

    cdef void _doubles(self, Py_ssize_t n):
        """Room for n table entries (content kept)."""
        if n <= self.tab.shape[0]:
            return
        new = np.empty(max(n, 2 * self.tab.shape[0]), np.float64)
        new[:self.ntab] = np.asarray(self.tab)[:self.ntab]
        self.tab = new


cdef int32_t[::1] _grown(int32_t[::1] a, Py_ssize_t n, Py_ssize_t keep):
    new = np.empty(n, np.int32)
    if keep:
        new[:keep] = np.asarray(a)[:keep]
    return new


cdef class _Game:
    """One game's state: its padded view (hidden -1), where each cell's component
    and variable are, the hidden cells, and its components."""
    cdef int8_t[::1] pv, raw
    # idx: where each cell's label is in the counter's ``vals`` (see _combine)
    cdef int32_t[::1] comp_of, var_of, idx
    cdef _Tables t
    # hidden: cells hidden and not proven (-1 in pv); mleft: the mines not proven
    cdef int hidden
    cdef int64_t mleft
    # valid: the state is the game's last view's; blank: that view is untouched
    cdef bint valid, blank

    def __cinit__(self, Py_ssize_t n_padded, Py_ssize_t n):
        self.pv = np.full(n_padded, OUT, np.int8)
        self.raw = np.full(n, -1, np.int8)   # the last view as given (flags and all)
        self.comp_of = np.full(n_padded, -1, np.int32)
        self.var_of = np.full(n_padded, -1, np.int32)
        self.idx = np.zeros(n_padded, np.int32)
        self.t = _Tables()
        self.hidden = 0
        self.valid = False
        self.blank = False


cdef class Counter:
    """The label state of a batch of B games (rows x cols, ``mines`` each).

    Parameters
    ----------
    B, rows, cols, mines : int
        The batch's shape and mine count (checked by the Python layer).
    budget : int
        Enumeration steps a component may take before its game is handed back
        (tests make it tiny to send every game down the solver's path).
    """
    cdef readonly int B, rows, cols, W, N
    cdef readonly Py_ssize_t Np
    cdef readonly int64_t mines, budget
    # what the counts did since the counter was made (tests and the docs' figures)
    cdef readonly int64_t recounted, kept, handed_back, repaired, rebuilt
    cdef readonly int64_t cells_counted, steps_taken, proven
    cdef list games
    cdef int8_t[::1] blank_pv     # the padded view of an untouched board
    cdef int32_t[::1] blank_idx   # its label slots
    cdef _Tables spare
    cdef int off[8]
    cdef int32_t stamp, ctag
    # per padded cell: membership stamps, constraint ids
    cdef int32_t[::1] mark, cmark, cidx
    # per cell: lists
    cdef int32_t[::1] opened, dlist, queue, ccons, clen
    # per component variable / constraint during a count
    cdef int32_t[::1] evm, evnc, evcons, er, ecap, ex, exhi, ekpre, dirty, vfirst, cpos, vseen, vnew
    cdef double[::1] ewpre, etab
    # the combination
    cdef double[::1] lfact, pre, g1, g2, rk, vp
    cdef int32_t[::1] alo, ahi, pofs

    def __cinit__(self, int B, int rows, int cols, int64_t mines, int64_t budget=BUDGET):
        if not (0 < rows <= _limits.MAX_ROWS and 0 < cols <= _limits.MAX_COLS
                and <int64_t>rows * cols <= _limits.MAX_CELLS):
            raise ValueError(f"a {rows}x{cols} board is outside fastmine.limits")
        if B < 1 or mines < 0 or mines > <int64_t>rows * cols:
            raise ValueError("a batch of at least one game, and a mine count that fits")
        if budget < 1:
            raise ValueError(f"the budget must be at least 1, got {budget}")
        self.budget = budget
        self.B, self.rows, self.cols, self.mines = B, rows, cols, mines
        self.W = cols + 2
        self.N = rows * cols
        self.Np = <Py_ssize_t>(rows + 2) * (cols + 2)
        cdef int W = self.W, n = self.N
        self.off[0] = -W - 1; self.off[1] = -W; self.off[2] = -W + 1; self.off[3] = -1
        self.off[4] = 1; self.off[5] = W - 1; self.off[6] = W; self.off[7] = W + 1
        self.games = [_Game(self.Np, self.N) for _ in range(B)]
        self.blank_pv = np.full(self.Np, OUT, np.int8)
        self.blank_idx = np.full(self.Np, SLOT_ZERO, np.int32)
        for r in range(rows):
            self.blank_pv[(r + 1) * W + 1:(r + 1) * W + 1 + cols] = -1
            self.blank_idx[(r + 1) * W + 1:(r + 1) * W + 1 + cols] = SLOT_INTERIOR
        self.spare = _Tables()
        self.stamp = 0
        self.ctag = 0
        i32 = lambda k: np.zeros(k, np.int32)
        self.mark = i32(self.Np); self.cmark = i32(self.Np); self.cidx = i32(self.Np)
        self.opened = i32(n); self.dlist = i32(n); self.queue = i32(n)
        self.ccons = i32(8 * n); self.clen = i32(n)
        self.vseen = i32(n); self.vnew = i32(n); self.cpos = i32(n); self.vfirst = i32(n)
        self.evm = i32(n); self.evnc = i32(n); self.evcons = i32(8 * n)
        self.er = i32(n); self.ecap = i32(n); self.ex = i32(n + 1); self.exhi = i32(n + 1)
        self.ekpre = i32(n + 1); self.dirty = i32(n + 1)
        self.ewpre = np.zeros(n + 1, np.float64)
        self.etab = np.zeros(64, np.float64)
        self.lfact = np.array([lgamma(k + 1.0) for k in range(n + 1)], np.float64)
        self.g1 = np.zeros(n + 1, np.float64)
        self.g2 = np.zeros(n + 1, np.float64)
        self.rk = np.zeros(n + 1, np.float64)
        self.vp = np.zeros(n + SLOT_VAR, np.float64)   # the label slots (see _combine)
        self.pre = np.zeros(64, np.float64)
        self.alo = i32(n + 1); self.ahi = i32(n + 1); self.pofs = i32(n + 2)

    def update(self, const int8_t[:, :, ::1] views, const uint8_t[::1] phase, int playing,
               int ready, const double[::1] untouched, double[:, ::1] out,
               uint8_t[::1] handed_back):
        """Count every game whose ``phase`` is ``playing``, writing its labels into ``out``.

        A game whose view has not changed since its last count keeps its row
        of ``out`` (``out`` holds the last labels between calls).  A game whose
        phase is ``ready`` gets the ``untouched`` row (an untouched board's
        labels); it and any other game not in play (finished: the caller
        writes its row) are counted from an untouched board when they next
        play.  Games this kernel hands back (``handed_back[g] = 1``: a
        component over the budget, or an inconsistent view) are for the caller
        to count; they are counted afresh at their next step.
        """
        cdef int B = self.B, g, st
        cdef Py_ssize_t k, N = self.N
        if (views.shape[0] != B or views.shape[1] != self.rows or views.shape[2] != self.cols
                or phase.shape[0] != B or handed_back.shape[0] != B or untouched.shape[0] != N
                or out.shape[0] != B or out.shape[1] != N):
            raise ValueError("the views, phases and outputs must have the batch's shape")
        cdef _Game gs
        for g in range(B):
            handed_back[g] = 0
            gs = <_Game>self.games[g]
            if phase[g] != playing:
                if phase[g] == ready:
                    for k in range(N):
                        out[g, k] = untouched[k]
                if not gs.blank:
                    self._blank(gs)
                continue
            st = self._update(gs, views, g, out)
            if st == 2:                 # a broken invariant: count the game afresh
                self.repaired += 1
                gs.valid = False
                st = self._update(gs, views, g, out)
            if st != 0:
                gs.valid = False
                handed_back[g] = 1
                self.handed_back += 1

    cdef void _blank(self, _Game gs) noexcept:
        """The state of an untouched board: every cell hidden, no component."""
        memcpy(&gs.pv[0], &self.blank_pv[0], self.Np)
        memcpy(&gs.idx[0], &self.blank_idx[0], self.Np * sizeof(int32_t))
        memset(&gs.comp_of[0], 0xFF, self.Np * sizeof(int32_t))     # -1 everywhere
        memset(&gs.raw[0], 0xFF, self.N)                            # HIDDEN everywhere
        gs.hidden = self.N
        gs.mleft = self.mines
        gs.t.ncomp = gs.t.ncells = gs.t.nvars = 0
        gs.t.ntab = 0
        gs.t.cstart[0] = 0
        gs.t.vstart[0] = 0
        gs.valid = True
        gs.blank = True

    def components(self, int g):
        """Game g's components as lists of (row, col) cells (for tests and debugging)."""
        if not 0 <= g < self.B:
            raise IndexError(f"no game {g}")
        cdef _Game gs = <_Game>self.games[g]
        cdef _Tables t = gs.t
        if not gs.valid:
            return []
        return [[(int(t.cells[i]) // self.W - 1, int(t.cells[i]) % self.W - 1)
                 for i in range(t.cstart[c], t.cstart[c + 1])] for c in range(t.ncomp)]

    def _age(self, int32_t stamp):
        """Set the stamps (tests: the start-over before they could wrap)."""
        self.stamp = self.ctag = stamp

    cdef int _read(self, _Game gs, const int8_t[:, :, ::1] views, int g) except -2:
        """Take the view anew: the ring, the cells, no component.  Returns 0."""
        cdef int rows = self.rows, cols = self.cols, W = self.W, r, c, v, hidden = 0
        cdef Py_ssize_t p
        for p in range(self.Np):
            gs.pv[p] = OUT
            gs.comp_of[p] = -1
            gs.idx[p] = SLOT_ZERO
        for r in range(rows):
            p = (r + 1) * W + 1
            for c in range(cols):
                v = views[g, r, c]
                if v < 0 or v > 8:
                    v = -1
                    hidden += 1
                    gs.idx[p + c] = SLOT_INTERIOR
                gs.raw[r * cols + c] = views[g, r, c]
                gs.pv[p + c] = <int8_t>v
        gs.hidden = hidden
        gs.mleft = self.mines
        gs.t.ncomp = gs.t.ncells = gs.t.nvars = 0
        gs.t.ntab = 0
        gs.t.cstart[0] = 0
        gs.t.vstart[0] = 0
        return 0

    cdef int _update(self, _Game gs, const int8_t[:, :, ::1] views, int g,
                     double[:, ::1] out) except -2:
        """0 counted; 1 hand back to the caller; 2 an invariant broke (count afresh)."""
        cdef int rows = self.rows, cols = self.cols, W = self.W, r, c, v, k, i, c0
        cdef int nopen = 0, nd = 0, st
        cdef Py_ssize_t p, q
        cdef _Tables old = gs.t, new
        cdef bint full = not gs.valid
        if self.stamp > (1 << 30) or self.ctag > (1 << 30):    # stamps must only grow: start over
            self.mark[:] = 0
            self.cmark[:] = 0
            self.dirty[:] = 0
            self.stamp = self.ctag = 0
        self.stamp += 3
        cdef int32_t S = self.stamp
        cdef const int8_t* vw = &views[g, 0, 0]
        cdef int8_t* rw
        cdef uint64_t w1, w2
        cdef int i0, i1, hidden0 = gs.hidden
        cdef bint anydirty = False
        cdef int N = self.N
        if not full:
            if memcmp(vw, &gs.raw[0], N) == 0:
                return 0                    # the same view: the labels stand
            gs.blank = False
            rw = &gs.raw[0]
            i0 = 0
            while i0 < N and not full:
                i1 = min(i0 + 8, N)
                if i1 == i0 + 8:
                    memcpy(&w1, vw + i0, 8)     # eight cells at a time where nothing changed
                    memcpy(&w2, rw + i0, 8)
                    if w1 == w2:
                        i0 = i1
                        continue
                for i in range(i0, i1):
                    v = vw[i]
                    if v == rw[i]:
                        continue
                    rw[i] = <int8_t>v
                    if v < 0 or v > 8:
                        v = -1
                    p = (i // cols + 1) * W + i % cols + 1
                    if gs.pv[p] != v:
                        if v >= 0 and (gs.pv[p] == -1 or gs.pv[p] == KNOWN_SAFE):
                            self.opened[nopen] = <int32_t>p
                            nopen += 1
                            gs.hidden -= gs.pv[p] == -1
                            gs.pv[p] = <int8_t>v
                            gs.idx[p] = SLOT_ZERO
                        elif v == -1 and gs.pv[p] > 9:
                            continue        # hidden, and still proven
                        else:               # hidden again: not this game's next position
                            full = True
                            break
                i0 = i1
            if not full and nopen == 0:
                return 0                    # flags only: the labels stand
        if full:
            gs.blank = False
            self.rebuilt += 1
            self._read(gs, views, g)
            old = gs.t
            # every hidden cell next to a number
            for r in range(rows):
                p = (r + 1) * W + 1
                for c in range(cols):
                    if gs.pv[p + c] == -1 and self._numbered(gs, p + c):
                        self.mark[p + c] = S
                        self.dlist[nd] = <int32_t>(p + c)
                        nd += 1
        else:
            for i in range(nopen):
                p = self.opened[i]
                c0 = gs.comp_of[p]
                if c0 >= 0:
                    self.dirty[c0] = S
                    anydirty = True
                gs.comp_of[p] = -1
                for k in range(8):
                    q = p + self.off[k]
                    if gs.pv[q] == -1:
                        if self.mark[q] != S:
                            self.mark[q] = S
                            self.dlist[nd] = <int32_t>q
                            nd += 1
                        c0 = gs.comp_of[q]
                        if c0 >= 0:
                            self.dirty[c0] = S
                            anydirty = True
            if nd == 0 and not anydirty and gs.hidden == hidden0:
                # Only proven-safe cells opened, next to no cell in doubt: no
                # layout is ruled out, every label stands (theirs was 0 already).
                return 0
            for c in range(old.ncomp):
                if self.dirty[c] != S:
                    continue
                for i in range(old.cstart[c], old.cstart[c + 1]):
                    q = old.cells[i]
                    if gs.pv[q] == -1 and self.mark[q] != S:
                        self.mark[q] = S
                        self.dlist[nd] = <int32_t>q
                        nd += 1
        # compose the new components: the kept ones, then the ones counted anew
        new = self.spare
        new.ncomp = new.ncells = new.nvars = 0
        new.ntab = 0
        new.cstart[0] = 0
        new.vstart[0] = 0
        if not full:
            for c in range(old.ncomp):
                if self.dirty[c] != S:
                    self._keep(gs, old, c, new)
        for i in range(nd):
            q = self.dlist[i]
            if self.mark[q] != S:
                continue                    # taken by an earlier component
            if not self._numbered(gs, q):
                self.mark[q] = S + 1
                gs.comp_of[q] = -1
                gs.idx[q] = SLOT_INTERIOR
                continue
            st = _component(self, gs, q, new)
            if st != 0:
                return st
        gs.t = new
        self.spare = old
        gs.valid = True
        return _combine(self, gs, g, out)

    cdef inline bint _numbered(self, _Game gs, Py_ssize_t p) noexcept:
        cdef int k, t
        for k in range(8):
            t = gs.pv[p + self.off[k]]
            if 0 <= t <= 8:
                return True
        return False

    cdef void _keep(self, _Game gs, _Tables old, int c, _Tables new):
        """Copy component c of ``old`` to the end of ``new`` (its count stands)."""
        cdef int nc = new.ncomp, c0 = old.cstart[c], c1 = old.cstart[c + 1]
        cdef int v0 = old.vstart[c], v1 = old.vstart[c + 1], i, v
        cdef int nv0 = new.nvars, ncl0 = new.ncells
        cdef Py_ssize_t t0 = old.toff[c], size = (old.hi[c] - old.lo[c] + 1) * (1 + 2 * (v1 - v0))
        cdef Py_ssize_t a, nt0 = new.ntab
        cdef Py_ssize_t q
        new._ints(max(new.ncells + c1 - c0, new.nvars + v1 - v0, nc + 1))
        new._doubles(nt0 + size)
        for i in range(c0, c1):
            q = old.cells[i]
            new.cells[ncl0 + i - c0] = <int32_t>q
            gs.comp_of[q] = nc
            gs.var_of[q] = gs.var_of[q] - v0 + nv0
            gs.idx[q] = SLOT_VAR + gs.var_of[q]
        for v in range(v0, v1):
            new.vmult[nv0 + v - v0] = old.vmult[v]
            new.vto[nv0 + v - v0] = <int32_t>(old.vto[v] - t0 + nt0)
        for a in range(size):
            new.tab[nt0 + a] = old.tab[t0 + a]
        new.lo[nc] = old.lo[c]
        new.hi[nc] = old.hi[c]
        new.toff[nc] = <int32_t>nt0
        new.ncells = ncl0 + c1 - c0
        new.nvars = nv0 + v1 - v0
        new.ntab = nt0 + size
        new.ncomp = nc + 1
        new.cstart[nc + 1] = new.ncells
        new.vstart[nc + 1] = new.nvars
        self.kept += 1


# A component counted (walked, grouped, enumerated, appended): _kept_count.pxi;
# the labels of a game from its components' tables: _kept_combine.pxi.
include "_kept_count.pxi"
include "_kept_combine.pxi"
