# Private Cython kernel: a fast logical Minesweeper solver.
#
# It finds cells that are certain by *local* logic -- the single-cell rules and
# the pairwise rule over two numbers at most two cells apart -- iterated to a
# fixpoint, plus the global mine-count rule (no mines left / every unknown is a
# mine).  It is sound but not complete: when it is stuck the caller falls back
# to the exact engine (fastmine.solver.probability) for the cells only global
# reasoning finds.
#
# Two modes share one state machine:
#   * board mode (load_board): the true board is known, a cell found safe is
#     revealed at once (with the flood fill of zeros) -- used to test whether a
#     board can be solved without guessing;
#   * view mode (load_view): only a game's view is known, cells found safe are
#     recorded, not revealed -- used by the strategies.
#
# Arrays are padded and raveled like the engine's: one ring of K_OUT cells, so
# the 8 neighbours of any real cell are at fixed offsets.  Every real cell keeps
# ``um``, the bitmask of its neighbour slots that are still unknown (slot k is
# offset off[k]; off[7-k] == -off[k]), and every revealed number keeps ``rem``,
# its number minus the known mines around it.  A number whose ``um`` or ``rem``
# changed is queued for the single-cell rules (q1) and for the pair rule (q2);
# a pair is only re-examined when one of its two numbers changed.

from libc.stdint cimport int8_t, int16_t, uint8_t
from libc.stdlib cimport free, malloc, realloc

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef enum:
    K_UNKNOWN = -1
    K_MINE = 9
    K_SAFE = 10     # known safe, not (yet) revealed
    K_OUT = 11      # the padding ring

KNOWN_MINE = K_MINE
KNOWN_SAFE = K_SAFE
UNKNOWN = K_UNKNOWN
OUTSIDE = K_OUT


cdef struct IdxBuf:
    Py_ssize_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int buf_init(IdxBuf* b, Py_ssize_t cap) except -1:
    if cap < 16:
        cap = 16
    b.data = <Py_ssize_t*>malloc(cap * sizeof(Py_ssize_t))
    if b.data == NULL:
        raise MemoryError("fastmine: out of memory in the logic solver")
    b.size = 0
    b.cap = cap
    return 0


cdef inline int buf_push(IdxBuf* b, Py_ssize_t v) except -1 nogil:
    cdef Py_ssize_t* grown
    if b.size == b.cap:
        grown = <Py_ssize_t*>realloc(b.data, 2 * b.cap * sizeof(Py_ssize_t))
        if grown == NULL:
            with gil:
                raise MemoryError("fastmine: out of memory in the logic solver")
        b.data = grown
        b.cap *= 2
    b.data[b.size] = v
    b.size += 1
    return 0


cdef inline int popcount8(unsigned int x) noexcept nogil:
    x = x - ((x >> 1) & 0x55)
    x = (x & 0x33) + ((x >> 2) & 0x33)
    return (x + (x >> 4)) & 0x0F


cdef inline Py_ssize_t imax(Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    return a if a > b else b


cdef inline Py_ssize_t imin(Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    return a if a < b else b


# Neighbour slot k of a cell is at (DR[k], DC[k]).
cdef int DR[8]
cdef int DC[8]
DR[:] = [-1, -1, -1, 0, 0, 1, 1, 1]
DC[:] = [-1, 0, 1, -1, 1, -1, 0, 1]


cdef class Logic:
    """Local-logic solver over one padded board (see the module comment)."""

    cdef readonly Py_ssize_t rows, cols, W, n
    cdef readonly Py_ssize_t mines, known_mines, unknown, safe_left
    cdef readonly bint board_mode
    cdef int8_t[::1] kn
    cdef int8_t[::1] rem
    cdef uint8_t[::1] um
    cdef uint8_t[::1] inq
    cdef const uint8_t[::1] pm
    cdef const int8_t[::1] pc
    cdef object kn_arr
    cdef Py_ssize_t off[8]
    # The 24 other cells of the 5x5 window: padded offset, the bitmask of the
    # centre's neighbour slots that are also neighbours of that cell, and the
    # index of the opposite offset.
    cdef Py_ssize_t poff[24]
    cdef uint8_t pshare[24]
    cdef int popp[24]
    cdef IdxBuf q1, q2, stack, found_safe, found_mine
    cdef Py_ssize_t safe_taken     # found_safe[:safe_taken] were handed out by new_safe()

    def __cinit__(self, Py_ssize_t rows, Py_ssize_t cols):
        cdef int k, d, dr, dc, kr, kc
        self.rows = rows
        self.cols = cols
        self.W = cols + 2
        self.n = (rows + 2) * (cols + 2)
        for k in range(8):
            self.off[k] = DR[k] * self.W + DC[k]
        d = 0
        for dr in range(-2, 3):
            for dc in range(-2, 3):
                if dr == 0 and dc == 0:
                    continue
                self.poff[d] = dr * self.W + dc
                self.pshare[d] = 0
                for k in range(8):
                    kr = DR[k]
                    kc = DC[k]
                    if abs(kr - dr) <= 1 and abs(kc - dc) <= 1 and not (kr == dr and kc == dc):
                        self.pshare[d] |= <uint8_t>(1 << k)
                d += 1
        for d in range(24):
            self.popp[d] = 23 - d   # the window is listed symmetrically
        self.kn_arr = np.full(self.n, K_OUT, np.int8)
        self.kn = self.kn_arr
        self.rem = np.zeros(self.n, np.int8)
        self.um = np.zeros(self.n, np.uint8)
        self.inq = np.zeros(self.n, np.uint8)
        buf_init(&self.q1, 64)
        buf_init(&self.q2, 64)
        buf_init(&self.stack, 64)
        buf_init(&self.found_safe, 64)
        buf_init(&self.found_mine, 64)

    def __dealloc__(self):
        free(self.q1.data)
        free(self.q2.data)
        free(self.stack.data)
        free(self.found_safe.data)
        free(self.found_mine.data)

    # ------------------------------------------------------------ set-up

    cdef void _clear(self, Py_ssize_t mines) noexcept:
        cdef Py_ssize_t r, p, end
        self.kn[:] = K_OUT
        self.rem[:] = 0
        self.inq[:] = 0
        for r in range(1, self.rows + 1):
            p = r * self.W + 1
            end = p + self.cols
            while p < end:
                self.kn[p] = K_UNKNOWN
                p += 1
        self.mines = mines
        self.known_mines = 0
        self.unknown = self.rows * self.cols
        self.safe_left = self.unknown - mines
        self.q1.size = 0
        self.q2.size = 0
        self.found_safe.size = 0
        self.found_mine.size = 0
        self.safe_taken = 0

    cdef void _masks(self) noexcept:
        cdef Py_ssize_t p, k
        cdef uint8_t m
        for p in range(self.W + 1, self.n - self.W - 1):
            m = 0
            for k in range(8):
                if self.kn[p + self.off[k]] == K_UNKNOWN:
                    m |= <uint8_t>(1 << k)
            self.um[p] = m

    def load_board(self, const uint8_t[::1] pm, const int8_t[::1] pc, Py_ssize_t mines):
        """Board mode: start from an all-unknown board whose mines are ``pm``."""
        # The size comes from this solver's own buffers: a board of another
        # size is refused (one comparison; the loops below trust it).
        if pm.shape[0] != self.n or pc.shape[0] != self.n:
            raise ValueError(f"a board of {pm.shape[0]} padded cells does not fit a "
                             f"{self.rows}x{self.cols} solver")
        self.pm = pm
        self.pc = pc
        self.board_mode = True
        self._clear(mines)
        self._masks()

    def load_view(self, const int8_t[:, :] view, Py_ssize_t mines):
        """View mode: numbers (>= 0) are revealed; every other code is unknown."""
        cdef Py_ssize_t r, c, p
        cdef int8_t v
        if view.shape[0] != self.rows or view.shape[1] != self.cols:
            raise ValueError(f"a {view.shape[0]}x{view.shape[1]} view does not fit a "
                             f"{self.rows}x{self.cols} solver")
        self.board_mode = False
        self._clear(mines)
        for r in range(self.rows):
            for c in range(self.cols):
                v = view[r, c]
                if v >= 0:
                    p = (r + 1) * self.W + c + 1
                    self.kn[p] = v
                    self.rem[p] = v
                    self.unknown -= 1
        self._masks()
        for p in range(self.W + 1, self.n - self.W - 1):
            if 0 <= self.kn[p] <= 8 and self.um[p]:
                self._touch(p)

    def set_counts(self, const int8_t[::1] pc):
        """Board mode: the board's counts changed (mines were moved); re-read numbers.

        Known mines must not have moved.  Each revealed number whose count
        changed gets a fresh ``rem`` and is queued again.
        """
        cdef Py_ssize_t p, k, km
        if pc.shape[0] != self.n:
            raise ValueError(f"counts of {pc.shape[0]} padded cells do not fit a "
                             f"{self.rows}x{self.cols} solver")
        self.pc = pc
        for p in range(self.W + 1, self.n - self.W - 1):
            if 0 <= self.kn[p] <= 8 and self.kn[p] != pc[p]:
                self.kn[p] = pc[p]
                km = 0
                for k in range(8):
                    if self.kn[p + self.off[k]] == K_MINE:
                        km += 1
                self.rem[p] = <int8_t>(pc[p] - km)
                self._touch(p)

    # ------------------------------------------------------------ moves

    cdef inline int _touch(self, Py_ssize_t p) except -1 nogil:
        if self.um[p] == 0:
            return 0
        if not (self.inq[p] & 1):
            self.inq[p] |= 1
            buf_push(&self.q1, p)
        if not (self.inq[p] & 2):
            self.inq[p] |= 2
            buf_push(&self.q2, p)
        return 0

    cdef int _set_mine(self, Py_ssize_t q) except -1 nogil:
        cdef Py_ssize_t k, nb
        cdef int8_t v
        if self.kn[q] != K_UNKNOWN:
            return 0
        if self.board_mode and not self.pm[q]:
            with gil:
                raise AssertionError("fastmine logic solver: deduced a mine on a safe cell")
        self.kn[q] = K_MINE
        self.known_mines += 1
        self.unknown -= 1
        if not self.board_mode:
            buf_push(&self.found_mine, q)
        for k in range(8):
            nb = q + self.off[k]
            self.um[nb] &= <uint8_t>~(1 << (7 - k))
            v = self.kn[nb]
            if 0 <= v <= 8:
                self.rem[nb] -= 1
                self._touch(nb)
        return 0

    cdef int _open(self, Py_ssize_t c) except -1 nogil:
        # Reveal c (board mode); its neighbours learn it is no longer unknown.
        cdef Py_ssize_t k, nb, km = 0
        cdef int8_t v
        self.kn[c] = self.pc[c]
        self.unknown -= 1
        self.safe_left -= 1
        for k in range(8):
            nb = c + self.off[k]
            self.um[nb] &= <uint8_t>~(1 << (7 - k))
            v = self.kn[nb]
            if v == K_MINE:
                km += 1
            elif 0 <= v <= 8:
                self._touch(nb)
        self.rem[c] = <int8_t>(self.pc[c] - km)
        self._touch(c)
        return 0

    cdef int _set_safe(self, Py_ssize_t q) except -1 nogil:
        cdef Py_ssize_t k, nb, c
        cdef int8_t v
        if self.kn[q] != K_UNKNOWN:
            return 0
        if not self.board_mode:
            self.kn[q] = K_SAFE
            self.unknown -= 1
            buf_push(&self.found_safe, q)
            for k in range(8):
                nb = q + self.off[k]
                self.um[nb] &= <uint8_t>~(1 << (7 - k))
                v = self.kn[nb]
                if 0 <= v <= 8:
                    self._touch(nb)
            return 0
        if self.pm[q]:
            with gil:
                raise AssertionError("fastmine logic solver: deduced a safe cell on a mine")
        # Flood fill: cells are marked K_SAFE when pushed, opened when popped.
        self.kn[q] = K_SAFE
        self.stack.size = 0
        buf_push(&self.stack, q)
        while self.stack.size:
            self.stack.size -= 1
            c = self.stack.data[self.stack.size]
            self._open(c)
            if self.pc[c] == 0:
                for k in range(8):
                    nb = c + self.off[k]
                    if self.kn[nb] == K_UNKNOWN:
                        self.kn[nb] = K_SAFE
                        buf_push(&self.stack, nb)
        return 0

    def reveal(self, Py_ssize_t p):
        """Board mode: reveal padded cell ``p`` (must be safe) as a player would."""
        if not self.board_mode:
            raise ValueError("reveal needs board mode")
        self._set_safe(p)

    def mark_safe(self, Py_ssize_t[::1] cells):
        """Tell the solver these padded cells are safe (from the exact engine)."""
        cdef Py_ssize_t i
        for i in range(cells.shape[0]):
            self._set_safe(cells[i])

    def learn(self, const Py_ssize_t[:, :] cells, const int8_t[:, :] view):
        """View mode: the game revealed ``cells`` ((n, 2) row, col); read their numbers.

        Cells the solver knew were safe, and cells it knew nothing about (opened
        by a flood fill), become numbers; only the numbers around them are
        queued again, so the next :meth:`run` works on what changed.  Raises
        ``ValueError`` for a cell it had proven to be a mine, or one outside
        the board or not revealed in ``view``.
        """
        cdef Py_ssize_t i, r, c, p, k, nb, km
        cdef int8_t v
        cdef uint8_t m
        if self.board_mode:
            raise ValueError("learn needs view mode")
        if cells.shape[0] and cells.shape[1] != 2:
            raise ValueError(f"cells must be (n, 2), got {cells.shape[1]} columns")
        if view.shape[0] != self.rows or view.shape[1] != self.cols:
            raise ValueError("view does not match the solver's board size")
        for i in range(cells.shape[0]):
            r = cells[i, 0]
            c = cells[i, 1]
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise ValueError(f"cell ({r}, {c}) is off the board")
            v = view[r, c]
            if not 0 <= v <= 8:
                raise ValueError(f"cell ({r}, {c}) is not revealed (code {v})")
            p = (r + 1) * self.W + c + 1
            if 0 <= self.kn[p] <= 8:
                continue
            if self.kn[p] == K_MINE:
                raise ValueError(f"cell ({r}, {c}) was proven a mine but shows {v}")
            if self.kn[p] == K_UNKNOWN:
                self.unknown -= 1
                for k in range(8):
                    self.um[p + self.off[k]] &= <uint8_t>~(1 << (7 - k))
            km = 0
            m = 0
            for k in range(8):
                nb = p + self.off[k]
                if self.kn[nb] == K_MINE:
                    km += 1
                elif self.kn[nb] == K_UNKNOWN:
                    m |= <uint8_t>(1 << k)
                elif 0 <= self.kn[nb] <= 8:
                    self._touch(nb)
            self.kn[p] = v
            self.rem[p] = <int8_t>(v - km)
            self.um[p] = m
            self._touch(p)

    def new_safe(self):
        """View mode: padded indices of the cells proven safe since the last call."""
        cdef Py_ssize_t i, n = self.found_safe.size - self.safe_taken
        out = np.empty(n, np.intp)
        cdef Py_ssize_t[::1] o = out
        for i in range(n):
            o[i] = self.found_safe.data[self.safe_taken + i]
        self.safe_taken = self.found_safe.size
        return out

    def mark_mines(self, Py_ssize_t[::1] cells):
        """Tell the solver these padded cells are mines (from the exact engine)."""
        cdef Py_ssize_t i
        for i in range(cells.shape[0]):
            self._set_mine(cells[i])

    # ------------------------------------------------------------ rules

    cdef int _single(self, Py_ssize_t p) except -1 nogil:
        cdef uint8_t m = self.um[p]
        cdef int u, r, k
        if m == 0:
            return 0
        u = popcount8(m)
        r = self.rem[p]
        if r == 0:
            for k in range(8):
                if m & (1 << k):
                    self._set_safe(p + self.off[k])
            return 1
        if r == u:
            for k in range(8):
                if m & (1 << k):
                    self._set_mine(p + self.off[k])
            return 1
        return 0

    cdef int _apply(self, Py_ssize_t base, uint8_t m, bint mine) except -1 nogil:
        cdef int k
        for k in range(8):
            if m & (1 << k):
                if mine:
                    self._set_mine(base + self.off[k])
                else:
                    self._set_safe(base + self.off[k])
        return 0

    cdef int _pairs(self, Py_ssize_t a) except -1 nogil:
        """The pair rule between number ``a`` and each number near it.

        With x mines in a's own cells, s shared and y in b's own cells:
        x + s = ra, y + s = rb, 0 <= x <= na, 0 <= s <= S, 0 <= y <= nb.
        Whatever the feasible range of x forces is certain.  Returns 1 after the
        first pair that deduced something (the caller re-runs the cheap rules).
        """
        cdef int d, S, na, nb, ra, rb, lo, hi, ylo, yhi
        cdef Py_ssize_t b
        cdef uint8_t ma, mb, sa, sb, onlya, onlyb
        cdef int8_t vb
        cdef int done
        for d in range(24):
            ma = self.um[a]
            if ma == 0:
                return 0
            b = a + self.poff[d]
            if b < 0 or b >= self.n:
                continue    # two rows off the board (columns wrap onto the ring)
            vb = self.kn[b]
            if vb < 0 or vb > 8:
                continue
            mb = self.um[b]
            sa = ma & self.pshare[d]
            if sa == 0 or mb == 0:
                continue
            sb = mb & self.pshare[self.popp[d]]
            onlya = ma & ~sa
            onlyb = mb & ~sb
            S = popcount8(sa)
            na = popcount8(onlya)
            nb = popcount8(onlyb)
            ra = self.rem[a]
            rb = self.rem[b]
            lo = <int>imax(imax(0, ra - S), ra - rb)
            hi = <int>imin(imin(na, ra), ra - rb + nb)
            if lo > hi:
                continue    # contradictory position: deduce nothing from it
            ylo = lo + rb - ra
            yhi = hi + rb - ra
            done = 0
            if na:
                if hi == 0:
                    self._apply(a, onlya, False)
                    done = 1
                elif lo == na:
                    self._apply(a, onlya, True)
                    done = 1
            if nb:
                if yhi == 0:
                    self._apply(b, onlyb, False)
                    done = 1
                elif ylo == nb:
                    self._apply(b, onlyb, True)
                    done = 1
            if ra - lo == 0:
                self._apply(a, sa, False)
                done = 1
            elif ra - hi == S:
                self._apply(a, sa, True)
                done = 1
            if done:
                return 1
        return 0

    cdef int _global(self) except -1:
        """Mine-count rule: no mines left, or every unknown cell is a mine."""
        cdef Py_ssize_t p, left = self.mines - self.known_mines
        cdef bint mine
        if self.unknown == 0 or (left != 0 and left != self.unknown):
            return 0
        mine = left != 0
        for p in range(self.W + 1, self.n - self.W - 1):
            if self.kn[p] == K_UNKNOWN:
                if mine:
                    self._set_mine(p)
                else:
                    self._set_safe(p)
        return 1

    cdef int _run(self, bint pairs) except -1:
        cdef Py_ssize_t p
        while True:
            if self.board_mode and self.safe_left == 0:
                return 1
            with nogil:
                while self.q1.size:
                    self.q1.size -= 1
                    p = self.q1.data[self.q1.size]
                    self.inq[p] &= ~1
                    self._single(p)
                if pairs:
                    while self.q2.size and self.q1.size == 0:
                        self.q2.size -= 1
                        p = self.q2.data[self.q2.size]
                        self.inq[p] &= ~2
                        if 0 <= self.kn[p] <= 8:
                            self._pairs(p)
                else:
                    while self.q2.size:
                        self.q2.size -= 1
                        self.inq[self.q2.data[self.q2.size]] &= ~2
            if self.q1.size:
                continue
            if self._global():
                continue
            return 1 if (self.board_mode and self.safe_left == 0) else 0

    def run(self, bint pairs=True):
        """Apply the rules to a fixpoint.  Board mode: returns True when solved."""
        return bool(self._run(pairs))

    # ------------------------------------------------------------ results

    def knowledge(self):
        """The padded knowledge array (int8, a copy): -1 unknown, 0..8 revealed,
        KNOWN_MINE, KNOWN_SAFE, OUTSIDE."""
        return self.kn_arr.copy()

    def view(self):
        """The (rows, cols) view a player would see: numbers, else -1 (hidden)."""
        k = self.kn_arr.reshape(self.rows + 2, self.cols + 2)[1:-1, 1:-1]
        out = np.where((k >= 0) & (k <= 8), k, np.int8(-1)).astype(np.int8)
        return out

    def frontier_numbers(self):
        """Padded indices of revealed numbers that still touch unknown cells."""
        k = self.kn_arr
        um = np.asarray(self.um)
        return np.flatnonzero((k >= 0) & (k <= 8) & (um != 0))

    def found(self):
        """View mode: (safe, mines) padded indices deduced since load_view."""
        cdef Py_ssize_t i
        safe = np.empty(self.found_safe.size, np.intp)
        mine = np.empty(self.found_mine.size, np.intp)
        for i in range(self.found_safe.size):
            safe[i] = self.found_safe.data[i]
        for i in range(self.found_mine.size):
            mine[i] = self.found_mine.data[i]
        return safe, mine


# ------------------------------------------------------------------ 50/50 pairs

cdef bint _only_one_sees(const uint8_t[:, :] mine, Py_ssize_t rows, Py_ssize_t cols,
                         Py_ssize_t ar, Py_ssize_t ac, Py_ssize_t br, Py_ssize_t bc) noexcept:
    """Whether every neighbour of a that does not touch b is a known mine."""
    cdef Py_ssize_t r, c
    for r in range(max(ar - 1, 0), min(ar + 2, rows)):
        for c in range(max(ac - 1, 0), min(ac + 2, cols)):
            if (r != ar or c != ac) and max(abs(r - br), abs(c - bc)) > 1 and not mine[r, c]:
                return False
    return True


def fifty_pair(const int8_t[:, :] view, const uint8_t[:, :] mine, const double[:, :] probs,
               bint use_probs, Py_ssize_t[::1] out):
    """The first unavoidable 50/50 pair in row-major order of its number.

    A number with one mine left to place among exactly two undecided
    neighbours (unknown, not in ``mine``), where every other neighbour of
    either cell is a known mine or touches both.  With ``use_probs`` the two
    cells must also be at P(mine) = 1/2 in ``probs`` (always true of a real
    pair; a shortcut).  Writes (ar, ac, br, bc) to ``out`` and returns True,
    or returns False.  The Python layer (best.unavoidable_pair) checks shapes.
    """
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1], r, c, rr, cc
    cdef Py_ssize_t n, k
    cdef Py_ssize_t cells[4]
    cdef int need
    for r in range(rows):
        for c in range(cols):
            if view[r, c] < 0:
                continue
            need = view[r, c]
            n = 0
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    if mine[rr, cc]:
                        need -= 1
                    elif view[rr, cc] < 0:
                        if n < 2:
                            cells[2 * n] = rr
                            cells[2 * n + 1] = cc
                        n += 1
            if n != 2 or need != 1:
                continue
            if use_probs and not (abs(probs[cells[0], cells[1]] - 0.5) < 1e-9
                                  and abs(probs[cells[2], cells[3]] - 0.5) < 1e-9):
                continue
            if (_only_one_sees(mine, rows, cols, cells[0], cells[1], cells[2], cells[3])
                    and _only_one_sees(mine, rows, cols, cells[2], cells[3], cells[0], cells[1])):
                for k in range(4):
                    out[k] = cells[k]
                return True
    return False
