# Private Cython kernels of the fastmine engine.
#
# Every array here is a *padded, raveled* board: (rows + 2) x (cols + 2) cells in
# row-major order, with a one-cell ring around the real board.  The ring is a
# sentinel (never a mine, never hidden), so the eight neighbours of any real cell
# are at fixed offsets and no inner loop needs a bounds check.  The Python layer
# (board.py, game.py) validates every argument before it reaches this module;
# the kernels trust their input and are compiled without bounds checks unless
# FASTMINE_DEBUG=1 was set at build time.

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

import numpy as np
cimport numpy as cnp

cnp.import_array()

# Cell states of a game (padded ``st`` array).  The border ring is REVEALED so
# flood fill and chord never step onto it.
cdef enum:
    ST_HIDDEN = 0
    ST_REVEALED = 1
    ST_FLAG = 2
    ST_QUESTION = 3

# View codes: must match fastmine.codes.
cdef enum:
    V_HIDDEN = -1
    V_FLAG = -2
    V_QUESTION = -3
    V_MINE = -4
    V_EXPLODED = -5
    V_WRONG_FLAG = -6

# setup.py defines FASTMINE_DEBUG=1 in a bounds-checked build; exported so tests
# and benchmarks can tell which build they are running.
cdef extern from *:
    """
    #ifndef FASTMINE_DEBUG
    #define FASTMINE_DEBUG 0
    #endif
    """
    int FASTMINE_DEBUG

BOUNDS_CHECKED = bool(FASTMINE_DEBUG)

# Exported so the Python layer and tests share one definition.
STATE_HIDDEN = ST_HIDDEN
STATE_REVEALED = ST_REVEALED
STATE_FLAG = ST_FLAG
STATE_QUESTION = ST_QUESTION


# --------------------------------------------------------------------------
# Growable index buffer (the explicit stack/queue of flood fills)
# --------------------------------------------------------------------------

cdef struct IdxBuf:
    Py_ssize_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int buf_init(IdxBuf* b, Py_ssize_t cap) except -1 nogil:
    if cap < 16:
        cap = 16
    b.data = <Py_ssize_t*>malloc(cap * sizeof(Py_ssize_t))
    if b.data == NULL:
        with gil:
            raise MemoryError("fastmine: out of memory for the flood-fill stack")
    b.size = 0
    b.cap = cap
    return 0


cdef inline int buf_push(IdxBuf* b, Py_ssize_t v) except -1 nogil:
    cdef Py_ssize_t* grown
    if b.size == b.cap:
        grown = <Py_ssize_t*>realloc(b.data, 2 * b.cap * sizeof(Py_ssize_t))
        if grown == NULL:
            with gil:
                raise MemoryError("fastmine: out of memory for the flood-fill stack")
        b.data = grown
        b.cap *= 2
    b.data[b.size] = v
    b.size += 1
    return 0


cdef int buf_reserve(IdxBuf* b, Py_ssize_t extra) except -1 nogil:
    """Make room for ``extra`` more entries without a check per push."""
    cdef Py_ssize_t cap = b.cap
    cdef Py_ssize_t* grown
    while b.size + extra > cap:
        cap *= 2
    if cap != b.cap:
        grown = <Py_ssize_t*>realloc(b.data, cap * sizeof(Py_ssize_t))
        if grown == NULL:
            with gil:
                raise MemoryError("fastmine: out of memory for the flood-fill stack")
        b.data = grown
        b.cap = cap
    return 0


cdef inline void buf_free(IdxBuf* b) noexcept nogil:
    free(b.data)
    b.data = NULL
    b.size = 0
    b.cap = 0


# Change buffers bigger than this (in entries) are shrunk after each move.
cdef enum:
    SHRINK_ABOVE = 1 << 16


cdef inline void neighbour_offsets(Py_ssize_t W, Py_ssize_t* off) noexcept nogil:
    off[0] = -W - 1
    off[1] = -W
    off[2] = -W + 1
    off[3] = -1
    off[4] = 1
    off[5] = W - 1
    off[6] = W
    off[7] = W + 1


# --------------------------------------------------------------------------
# Random numbers: xoshiro256** seeded by splitmix64 (reproducible everywhere)
# --------------------------------------------------------------------------

cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    r.s0 = splitmix64(&seed)
    r.s1 = splitmix64(&seed)
    r.s2 = splitmix64(&seed)
    r.s3 = splitmix64(&seed)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef inline uint64_t rng_below(Rng* r, uint64_t n) noexcept nogil:
    """Unbiased integer in [0, n), n >= 1 (rejects the short top range)."""
    cdef uint64_t threshold = (<uint64_t>0 - n) % n
    cdef uint64_t x = rng_next(r)
    while x < threshold:
        x = rng_next(r)
    return x % n


# --------------------------------------------------------------------------
# Board construction
# --------------------------------------------------------------------------

cdef void count_into(const uint8_t[::1] pm, int8_t[::1] pc, Py_ssize_t rows,
                     Py_ssize_t cols) noexcept nogil:
    """pc[p] = number of mines among the 8 neighbours of every real cell p.

    A gather, not a scatter: each cell sums its eight neighbours, with no
    branch on the (random) mine layout, so the loop vectorises.  Mines are 0/1
    and the ring is never a mine.  The ring of ``pc`` is left as it was.
    """
    cdef Py_ssize_t W = cols + 2, r, c
    cdef const uint8_t* up
    cdef const uint8_t* mid
    cdef const uint8_t* down
    cdef int8_t* out
    for r in range(1, rows + 1):
        mid = &pm[r * W]
        up = mid - W
        down = mid + W
        out = &pc[r * W]
        for c in range(1, cols + 1):
            out[c] = <int8_t>(up[c - 1] + up[c] + up[c + 1] + mid[c - 1] + mid[c + 1]
                              + down[c - 1] + down[c] + down[c + 1])


cdef int check_padded(Py_ssize_t n, Py_ssize_t rows, Py_ssize_t cols) except -1:
    """The kernels take a board's size from its own buffers: a size that does
    not match them is refused here, whatever the caller believes."""
    if rows < 1 or cols < 1 or rows > n or cols > n or (rows + 2) * (cols + 2) != n:
        raise ValueError(f"fastmine: a {rows}x{cols} board does not match its buffer of {n} cells")
    return 0


def count_neighbours(const uint8_t[::1] pm, int8_t[::1] pc, Py_ssize_t rows,
                     Py_ssize_t cols):
    """Fill the padded ``pc`` with neighbour mine counts of ``pm`` (its ring untouched)."""
    check_padded(pm.shape[0], rows, cols)
    check_padded(pc.shape[0], rows, cols)
    with nogil:
        count_into(pm, pc, rows, cols)


def from_mask(const uint8_t[:, ::1] mask):
    """Pad a 0/1 mask (rows, cols) and count it: ``(pm, pc, mines)``.

    The fast path of ``Board.from_mines`` for a C-contiguous bool array (viewed
    as uint8 by the caller, which has checked the size).  Any non-zero byte is
    a mine.  The arrays are new and read-only, as ``lay_mines`` returns them.
    """
    cdef Py_ssize_t rows = mask.shape[0], cols = mask.shape[1], W = cols + 2
    cdef Py_ssize_t r, c, mines = 0
    cdef cnp.npy_intp n = (rows + 2) * (cols + 2)
    pm_arr = cnp.PyArray_ZEROS(1, &n, cnp.NPY_UINT8, 0)
    pc_arr = cnp.PyArray_ZEROS(1, &n, cnp.NPY_INT8, 0)
    cdef uint8_t[::1] pm = pm_arr
    cdef int8_t[::1] pc = pc_arr
    cdef uint8_t v
    with nogil:
        for r in range(rows):
            for c in range(cols):
                v = mask[r, c] != 0
                pm[(r + 1) * W + c + 1] = v
                mines += v
        count_into(pm, pc, rows, cols)
    cnp.PyArray_CLEARFLAGS(<cnp.ndarray>pm_arr, cnp.NPY_ARRAY_WRITEABLE)
    cnp.PyArray_CLEARFLAGS(<cnp.ndarray>pc_arr, cnp.NPY_ARRAY_WRITEABLE)
    return pm_arr, pc_arr, mines


def lay_mines(Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t mines, Py_ssize_t fr,
              Py_ssize_t fc, int radius, uint64_t seed):
    """Lay ``mines`` mines uniformly over the allowed cells, then count.

    Returns new read-only padded arrays (mines as uint8, counts as int8).  Cells within Chebyshev distance
    ``radius`` of (fr, fc) are excluded (radius -1: nothing excluded).  The
    allowed cells are listed once and a partial Fisher-Yates shuffle picks
    min(mines, allowed - mines) of them -- the smaller side, so a dense board
    costs no more than a sparse one and there is no retry loop.
    """
    cdef Py_ssize_t W = cols + 2
    cdef Py_ssize_t n_allowed = 0, r, c, p, i, j, k, pick
    cdef uint32_t* cand
    cdef uint32_t tmp
    cdef uint8_t mark
    cdef Rng rng
    cdef cnp.npy_intp n = (rows + 2) * (cols + 2)
    pm_arr = cnp.PyArray_ZEROS(1, &n, cnp.NPY_UINT8, 0)
    pc_arr = cnp.PyArray_ZEROS(1, &n, cnp.NPY_INT8, 0)
    cdef uint8_t[::1] pm = pm_arr
    cdef int8_t[::1] pc = pc_arr
    rng_seed(&rng, seed)
    cand = <uint32_t*>malloc((rows * cols if rows * cols > 0 else 1) * sizeof(uint32_t))
    if cand == NULL:
        raise MemoryError("fastmine: out of memory laying mines")
    with nogil:
        for r in range(rows):
            for c in range(cols):
                if radius >= 0 and fr - radius <= r <= fr + radius and fc - radius <= c <= fc + radius:
                    continue
                cand[n_allowed] = <uint32_t>((r + 1) * W + c + 1)
                n_allowed += 1
        # Choose the smaller of the two sets; if it is the safe set, start
        # with every allowed cell mined and clear the chosen ones.
        if mines <= n_allowed - mines:
            k = mines
            mark = 1
        else:
            k = n_allowed - mines
            mark = 0
            for i in range(n_allowed):
                pm[cand[i]] = 1
        for i in range(k):
            j = i + <Py_ssize_t>rng_below(&rng, <uint64_t>(n_allowed - i))
            tmp = cand[i]
            cand[i] = cand[j]
            cand[j] = tmp
            pm[cand[i]] = mark
        count_into(pm, pc, rows, cols)
    free(cand)
    # A Board is immutable: read-only at the source, so no view of it can be
    # made writeable again.
    cnp.PyArray_CLEARFLAGS(<cnp.ndarray>pm_arr, cnp.NPY_ARRAY_WRITEABLE)
    cnp.PyArray_CLEARFLAGS(<cnp.ndarray>pc_arr, cnp.NPY_ARRAY_WRITEABLE)
    return pm_arr, pc_arr


# --------------------------------------------------------------------------
# 3BV and openings
# --------------------------------------------------------------------------

def bbbv_openings(const uint8_t[::1] pm, const int8_t[::1] pc, Py_ssize_t rows,
                  Py_ssize_t cols):
    """Return (3BV, number of openings) of a padded board.

    An opening is an 8-connected region of safe zero cells; one click clears it
    and its border.  3BV = openings + safe numbered cells with no zero
    neighbour (each needs its own click).  ``z`` marks the safe zero cells
    (1 = not yet flooded, 2 = flooded); the flood visits zero cells only, and
    the singles are counted by a branch-free pass over ``z``.
    """
    check_padded(pm.shape[0], rows, cols)
    check_padded(pc.shape[0], rows, cols)
    cdef Py_ssize_t W = cols + 2, n = (rows + 2) * (cols + 2)
    cdef Py_ssize_t r, c, p, q, nb, k
    cdef Py_ssize_t openings = 0, singles = 0
    cdef Py_ssize_t off[8]
    cdef uint8_t* z
    cdef const uint8_t* m = &pm[0]
    cdef const int8_t* cnt = &pc[0]
    cdef uint8_t cover
    cdef IdxBuf stack
    neighbour_offsets(W, off)
    z = <uint8_t*>calloc(n, 1)  # the ring stays 0: never a zero cell
    if z == NULL:
        raise MemoryError("fastmine: out of memory computing 3BV")
    try:
        buf_init(&stack, 64)
        with nogil:
            for r in range(1, rows + 1):
                p = r * W
                for c in range(1, cols + 1):
                    z[p + c] = (m[p + c] == 0) & (cnt[p + c] == 0)
            for r in range(1, rows + 1):
                p = r * W
                for c in range(1, cols + 1):
                    q = p + c
                    cover = (z[q - W - 1] | z[q - W] | z[q - W + 1] | z[q - 1] | z[q + 1]
                             | z[q + W - 1] | z[q + W] | z[q + W + 1])
                    singles += (m[q] == 0) & (z[q] == 0) & (cover == 0)
            for r in range(1, rows + 1):
                p = r * W
                for c in range(1, cols + 1):
                    if z[p + c] != 1:
                        continue
                    openings += 1
                    z[p + c] = 2
                    stack.size = 0
                    buf_push(&stack, p + c)
                    while stack.size:
                        stack.size -= 1
                        q = stack.data[stack.size]
                        for k in range(8):
                            nb = q + off[k]
                            if z[nb] == 1:
                                z[nb] = 2
                                buf_push(&stack, nb)
    finally:
        buf_free(&stack)
        free(z)
    return openings + singles, openings


# --------------------------------------------------------------------------
# Game core: the move kernels over one game's padded arrays
# --------------------------------------------------------------------------

cdef class GameCore:
    """Move kernels of one game.  Owned and driven by fastmine.game.Game.

    Holds typed views of the game's padded state and view arrays (and, once
    mines are laid, of the board's), so a move costs no buffer acquisition.
    Every move appends the padded indices of the cells it changed to one
    buffer; ``take_changes`` converts them to (row, col) pairs.
    """

    cdef uint8_t[::1] st
    cdef int8_t[::1] view
    cdef const uint8_t[::1] pm
    cdef const int8_t[::1] pc
    cdef readonly Py_ssize_t rows, cols, W, n
    cdef Py_ssize_t off[8]
    cdef readonly Py_ssize_t revealed
    cdef readonly Py_ssize_t flags
    cdef readonly Py_ssize_t exploded
    cdef IdxBuf changes
    cdef bint has_board

    def __cinit__(self, uint8_t[::1] st, int8_t[::1] view, Py_ssize_t rows,
                  Py_ssize_t cols):
        check_padded(st.shape[0], rows, cols)
        check_padded(view.shape[0], rows, cols)
        self.st = st
        self.view = view
        self.n = st.shape[0]
        self.rows = rows
        self.cols = cols
        self.W = cols + 2
        neighbour_offsets(self.W, self.off)
        self.has_board = False
        buf_init(&self.changes, 64)

    def __dealloc__(self):
        buf_free(&self.changes)

    def attach(self, const uint8_t[::1] pm, const int8_t[::1] pc):
        """Give the core the board's mines and counts (at the first reveal)."""
        check_padded(pm.shape[0], self.rows, self.cols)
        check_padded(pc.shape[0], self.rows, self.cols)
        self.pm = pm
        self.pc = pc
        self.has_board = True

    def recount(self):
        """Recompute revealed / flag / exploded counters from ``st`` and ``view``."""
        cdef Py_ssize_t r, p, end
        self.revealed = 0
        self.flags = 0
        self.exploded = 0
        for r in range(1, self.rows + 1):
            p = r * self.W + 1
            end = p + self.cols
            while p < end:
                if self.st[p] == ST_FLAG:
                    self.flags += 1
                elif self.st[p] == ST_REVEALED:
                    if self.view[p] == V_EXPLODED:
                        self.exploded += 1
                    elif self.view[p] >= 0:
                        self.revealed += 1
                p += 1

    cdef inline int _inside(self, Py_ssize_t p) except -1:
        # One comparison per move: a cell of the real board (not the ring, whose
        # neighbours are off the buffer).  The Python layer never sends another.
        if p <= self.W or p >= self.n - self.W - 1:
            raise ValueError(f"fastmine: padded cell {p} is not on the {self.rows}x{self.cols} board")
        return 0

    cdef int _open_safe(self, Py_ssize_t p) except -1 nogil:
        """Reveal safe hidden cell p and flood its zero region (BFS queue)."""
        # Local pointers and counters: the stores through uint8/int8 pointers
        # below may alias anything, so fields read through ``self`` would be
        # reloaded on every step of the loop.
        cdef uint8_t* st = &self.st[0]
        cdef int8_t* view = &self.view[0]
        cdef const int8_t* pc = &self.pc[0]
        cdef Py_ssize_t start = self.changes.size, head, size, q, nb, k
        cdef Py_ssize_t* data
        cdef Py_ssize_t off[8]
        cdef uint8_t s
        for k in range(8):
            off[k] = self.off[k]
        st[p] = ST_REVEALED
        view[p] = pc[p]
        buf_push(&self.changes, p)
        head = start
        size = self.changes.size
        data = self.changes.data
        # Cells are marked revealed when queued, so each enters the queue once
        # and the queue itself is the list of changed cells.
        while head < size:
            q = data[head]
            head += 1
            if pc[q] != 0:
                continue
            if size + 8 > self.changes.cap:
                self.changes.size = size
                buf_reserve(&self.changes, 8)
                data = self.changes.data
            for k in range(8):
                nb = q + off[k]
                s = st[nb]
                if s == ST_HIDDEN or s == ST_QUESTION:
                    st[nb] = ST_REVEALED
                    view[nb] = pc[nb]
                    data[size] = nb
                    size += 1
        self.changes.size = size
        self.revealed += size - start
        return 0

    cdef int _open(self, Py_ssize_t p) except -1 nogil:
        if self.pm[p]:
            self.st[p] = ST_REVEALED
            self.view[p] = V_EXPLODED
            self.exploded += 1
            buf_push(&self.changes, p)
        else:
            self._open_safe(p)
        return 0

    def reveal(self, Py_ssize_t p):
        """Reveal padded cell p if it is hidden or question-marked."""
        self._inside(p)
        cdef uint8_t s = self.st[p]
        if s == ST_HIDDEN or s == ST_QUESTION:
            with nogil:
                self._open(p)

    def first_outside(self, const Py_ssize_t[:, :] cells):
        """Index of the first (row, col) pair of ``cells`` ((n, 2)) that is off
        the board, or -1 when every one is on it."""
        cdef Py_ssize_t i, r, c
        for i in range(cells.shape[0]):
            r = cells[i, 0]
            c = cells[i, 1]
            if r < 0 or r >= self.rows or c < 0 or c >= self.cols:
                return i
        return -1

    def reveal_many(self, const Py_ssize_t[:, :] cells, Py_ssize_t start, Py_ssize_t win_at):
        """Reveal the (row, col) pairs ``cells[start:]`` (all on the board:
        :meth:`first_outside`) in order, as :meth:`reveal` does, stopping after
        a mine or once ``win_at`` safe cells are revealed; returns how many of
        them were tried."""
        cdef Py_ssize_t i, p, n = cells.shape[0], tried = n - start, W = self.W
        cdef uint8_t s
        with nogil:
            for i in range(start, n):
                p = (cells[i, 0] + 1) * W + cells[i, 1] + 1
                s = self.st[p]
                if s == ST_HIDDEN or s == ST_QUESTION:
                    self._open(p)
                    if self.exploded or self.revealed >= win_at:
                        tried = i + 1 - start
                        break
        return tried

    def chord(self, Py_ssize_t p):
        """Chord on p: if its flag count equals its number, open the rest."""
        cdef Py_ssize_t k, nb, nflags = 0
        cdef uint8_t s
        self._inside(p)
        if self.st[p] != ST_REVEALED or self.view[p] <= 0:
            return
        for k in range(8):
            if self.st[p + self.off[k]] == ST_FLAG:
                nflags += 1
        if nflags != self.view[p]:
            return
        with nogil:
            for k in range(8):
                nb = p + self.off[k]
                s = self.st[nb]
                if s == ST_HIDDEN or s == ST_QUESTION:
                    self._open(nb)

    def state_at(self, Py_ssize_t p):
        """The cell state (STATE_*) of padded cell p."""
        self._inside(p)
        return self.st[p]

    def toggle_mark(self, Py_ssize_t p, bint question_marks):
        """hidden -> flag -> question (if enabled) -> hidden."""
        self._inside(p)
        cdef uint8_t s = self.st[p]
        if s == ST_HIDDEN:
            self.st[p] = ST_FLAG
            self.view[p] = V_FLAG
            self.flags += 1
        elif s == ST_FLAG:
            self.flags -= 1
            if question_marks:
                self.st[p] = ST_QUESTION
                self.view[p] = V_QUESTION
            else:
                self.st[p] = ST_HIDDEN
                self.view[p] = V_HIDDEN
        elif s == ST_QUESTION:
            self.st[p] = ST_HIDDEN
            self.view[p] = V_HIDDEN
        else:
            return
        buf_push(&self.changes, p)

    def finish_win(self):
        """Show every mine as flagged (all safe cells are open by now)."""
        cdef Py_ssize_t r, p, end
        for r in range(1, self.rows + 1):
            p = r * self.W + 1
            end = p + self.cols
            while p < end:
                if self.pm[p] and self.st[p] != ST_FLAG:
                    self.st[p] = ST_FLAG
                    self.view[p] = V_FLAG
                    self.flags += 1
                    buf_push(&self.changes, p)
                p += 1

    def finish_loss(self):
        """Show every unflagged mine and mark every wrong flag."""
        cdef Py_ssize_t r, p, end
        cdef uint8_t s
        for r in range(1, self.rows + 1):
            p = r * self.W + 1
            end = p + self.cols
            while p < end:
                s = self.st[p]
                if self.pm[p]:
                    if s == ST_HIDDEN or s == ST_QUESTION:
                        self.view[p] = V_MINE
                        buf_push(&self.changes, p)
                elif s == ST_FLAG:
                    self.view[p] = V_WRONG_FLAG
                    buf_push(&self.changes, p)
                p += 1

    def take_changes(self):
        """Return the cells changed since the last call as an (n, 2) array."""
        cdef Py_ssize_t i, p, q, W = self.W
        cdef double inv = 1.0 / <double>W
        cdef Py_ssize_t* shrunk
        cdef cnp.npy_intp dims[2]
        dims[0] = self.changes.size
        dims[1] = 2
        out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INTP, 0)
        # Raw pointer: the array was just made C-contiguous with exactly this size.
        cdef Py_ssize_t* o = <Py_ssize_t*>cnp.PyArray_DATA(out)
        # p // W by a floating reciprocal, corrected by one step: exact for any
        # padded index (< 2**31), and several times cheaper than a 64-bit divide.
        for i in range(dims[0]):
            p = self.changes.data[i]
            q = <Py_ssize_t>(<double>p * inv)
            if q * W > p:
                q -= 1
            elif (q + 1) * W <= p:
                q += 1
            o[2 * i] = q - 1
            o[2 * i + 1] = p - q * W - 1
        self.changes.size = 0
        if self.changes.cap > SHRINK_ABOVE:
            # A huge flood must not pin its buffer for the rest of the game.
            shrunk = <Py_ssize_t*>realloc(self.changes.data, 64 * sizeof(Py_ssize_t))
            if shrunk != NULL:
                self.changes.data = shrunk
                self.changes.cap = 64
        return out
