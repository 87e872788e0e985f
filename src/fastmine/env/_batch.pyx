# Private Cython kernel of fastmine.env: B Minesweeper games stepped in one call.
#
# Every board is padded, as in fastmine._kernels: (rows + 2) x (cols + 2) cells
# with a ring that is never a mine and always "revealed", so no neighbour needs
# a bounds check and a flood fill stops at the ring by itself.  The observation
# (the view) is not padded: the kernel writes it straight into the (B, rows,
# cols) array the environment hands out.
#
# The kernel allocates the arrays its state lives in and takes every size from
# itself; an array handed in (actions, a copy=True step's view and mask, the
# sampler's output) is checked against those sizes, type and C order first.
# The Python layer (fastmine.env.single / vector) validates actions before they
# arrive, and the kernel is compiled without bounds checks.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

import numpy as np
cimport numpy as cnp

cnp.import_array()

include "_cells.pxi"
include "_rng.pxi"
include "_board.pxi"
include "_agent.pxi"

# Exported for the Python layer.
READY = PH_READY
PLAYING = PH_PLAYING
WON = PH_WON
LOST = PH_LOST

RULE_CODES = {"none": RULE_NONE, "cell": RULE_CELL, "opening": RULE_OPENING,
              "no_guess": RULE_EXTERNAL}

BOUNDS_CHECKED = bool(FASTMINE_DEBUG)

cdef enum:
    FASTMOD_CELLS = 4096
    # How many games ahead a step asks for the memory of the game it will step
    # (its state is out of the cache in a batch of more than a few hundred).
    AHEAD = 6


cdef struct Out:
    # Where a copy=True step writes each game's outputs (B games each).
    int8_t* view        # B x rows x cols
    uint8_t* mask       # B x n_actions
    double* reward
    uint8_t* term
    uint8_t* trunc
    int32_t* left
    uint64_t* seed
    uint8_t* won


cdef void* _out(cnp.ndarray a, int typenum, int ndim, const cnp.npy_intp* dims) except NULL:
    """The data of ``a``, an output array the kernel will write: of that type
    and shape, C-ordered and writable, else ValueError."""
    cdef int k
    if (cnp.PyArray_TYPE(a) != typenum or cnp.PyArray_NDIM(a) != ndim
            or not cnp.PyArray_IS_C_CONTIGUOUS(a) or not cnp.PyArray_ISWRITEABLE(a)):
        raise ValueError("fastmine.env: output arrays of the wrong shape or type")
    for k in range(ndim):
        if cnp.PyArray_DIMS(a)[k] != dims[k]:
            raise ValueError("fastmine.env: output arrays of the wrong shape or type")
    return cnp.PyArray_DATA(a)


def next_seed(uint64_t state):
    """``(output, new state)`` of one splitmix64 step: how episode seeds are drawn."""
    cdef uint64_t s = state
    cdef uint64_t out = splitmix64(&s)
    return out, s


# How many games ahead a step asks for memory (tests step batches on both sides).
FETCH_AHEAD = AHEAD


def fast_remainder(uint64_t x, uint64_t d):
    """``x % d`` as the board's draws take it (by multiplication), for tests;
    ``1 <= d <= 2**63``."""
    if d < 1 or d > (<uint64_t>1 << 63):
        raise ValueError("fastmine.env: divisor out of range")
    return fmb_fastmod(x, fmb_fastmod_m(d), d)


def _rebuild(args, state):
    """A Batch of settings ``args`` holding ``state`` (the other half of Batch.__reduce__)."""
    b = Batch(*args)
    b._load(state)
    return b


cdef class Batch:
    """B games of one size and rule, their observations and action masks.

    Private: fastmine.env.single and fastmine.env.vector own one each and
    validate everything before it reaches a method here.
    """

    cdef readonly Py_ssize_t B, rows, cols, W, P, N, mines, safe, n_actions
    cdef readonly int rule
    cdef readonly bint flags, chord, invalid_ends
    cdef readonly double r_progress, r_win, r_loss, r_invalid
    cdef readonly int64_t max_steps
    # Arrays the Python layer reads (made read-only there).
    cdef readonly object obs, mask, mines_left, reward, terminated, truncated, won
    cdef readonly object done, phase, board_seed
    cdef uint8_t* pm            # scratch: a board's 0/1 mines while it is laid
    cdef int8_t* pc
    cdef uint8_t* st
    cdef uint8_t* st_fresh      # one padded state array of a fresh game (ring revealed)
    cdef int8_t* view
    cdef uint8_t* mk
    cdef int32_t* left
    cdef double* rew
    cdef uint8_t* term
    cdef uint8_t* trunc
    cdef uint8_t* wn
    cdef uint8_t* dn
    cdef uint8_t* ph
    cdef uint64_t* bseed
    cdef uint8_t* laid
    cdef int32_t* revealed
    cdef int32_t* nflags
    cdef int64_t* steps
    cdef uint64_t* stream
    cdef uint64_t* sampler
    cdef uint32_t* cand
    cdef int64_t* act           # the step's actions, copied while checked
    cdef uint32_t* ml           # each game's mines, padded cells (B x mines), once laid
    cdef uint32_t* vof          # padded cell -> view index (real cells only)
    cdef uint32_t* allc         # view index -> padded cell (every cell, row-major)
    cdef uint64_t* fmod         # fmb_fastmod_m(n) at n for n = 1..N (small boards), else NULL
    cdef Py_ssize_t* stack
    cdef Py_ssize_t off[8]
    cdef object _keep           # the numpy arrays behind the raw pointers
    cdef object _args           # the constructor's arguments (for pickling)

    def __cinit__(self, Py_ssize_t B, Py_ssize_t rows, Py_ssize_t cols, Py_ssize_t mines,
                  int rule, bint flags, bint chord, bint invalid_ends, double r_progress,
                  double r_win, double r_loss, double r_invalid, int64_t max_steps):
        cdef Py_ssize_t r, W
        # The Python layer checked these; the kernel re-checks what its memory depends on.
        if B < 1 or rows < 1 or cols < 1 or rows > (1 << 12) or cols > (1 << 12):
            raise ValueError(f"fastmine.env: unsupported batch {B} of {rows}x{cols} boards")
        if not 1 <= mines < rows * cols or rule < RULE_NONE or rule > RULE_EXTERNAL:
            raise ValueError("fastmine.env: bad mine count or rule")
        if chord and not flags:
            raise ValueError("fastmine.env: chord actions need flag actions")
        self._args = (B, rows, cols, mines, rule, flags, chord, invalid_ends, r_progress,
                      r_win, r_loss, r_invalid, max_steps)
        self.B = B
        self.rows = rows
        self.cols = cols
        self.W = cols + 2
        self.P = (rows + 2) * (cols + 2)
        self.N = rows * cols
        self.mines = mines
        self.safe = rows * cols - mines
        self.rule = rule
        self.flags = flags
        self.chord = chord
        self.invalid_ends = invalid_ends
        self.n_actions = self.N * (1 + (1 if flags else 0) + (1 if chord else 0))
        self.r_progress = r_progress / <double>self.safe
        self.r_win = r_win
        self.r_loss = r_loss
        self.r_invalid = r_invalid
        self.max_steps = max_steps if max_steps > 0 else 0
        W = self.W
        self.off[0] = -W - 1
        self.off[1] = -W
        self.off[2] = -W + 1
        self.off[3] = -1
        self.off[4] = 1
        self.off[5] = W - 1
        self.off[6] = W
        self.off[7] = W + 1

        # A game's mines live in its counts (PC_MINE), not in an array of their
        # own: a quarter less state a game for a step to bring into the cache.
        pm = np.zeros(self.P, np.uint8)
        pc = np.zeros((B, self.P), np.int8)
        st = np.zeros((B, self.P), np.uint8)
        fresh = np.full((rows + 2, cols + 2), ST_REVEALED, np.uint8)
        fresh[1:-1, 1:-1] = ST_HIDDEN
        self.obs = np.full((B, rows, cols), V_HIDDEN, np.int8)
        self.mask = np.zeros((B, self.n_actions), np.bool_)
        self.mines_left = np.full(B, mines, np.int32)
        self.reward = np.zeros(B, np.float64)
        self.terminated = np.zeros(B, np.bool_)
        self.truncated = np.zeros(B, np.bool_)
        self.won = np.zeros(B, np.bool_)
        self.done = np.zeros(B, np.bool_)
        self.phase = np.zeros(B, np.uint8)
        self.board_seed = np.zeros(B, np.uint64)
        laid = np.zeros(B, np.uint8)
        revealed = np.zeros(B, np.int32)
        nflags = np.zeros(B, np.int32)
        steps = np.zeros(B, np.int64)
        stream = np.zeros(B, np.uint64)
        sampler = np.zeros(B, np.uint64)
        cand = np.zeros(self.N, np.uint32)
        stack = np.zeros(3 * self.N + 3, np.intp)
        ml = np.zeros((B, mines), np.uint32)
        act = np.zeros(B, np.int64)
        vof = np.zeros((rows + 2, cols + 2), np.uint32)
        vof[1:-1, 1:-1] = np.arange(self.N, dtype=np.uint32).reshape(rows, cols)
        allc = np.flatnonzero(np.pad(np.ones((rows, cols), np.bool_), 1)).astype(np.uint32)
        # The lay draws a number below n for n = N, N - 1, ...: its remainders by
        # multiplication (a 64-bit division was the lay's largest cost); up to
        # 4,096 cells (a 32 KiB table), larger boards divide.
        fmod = np.zeros(self.N + 1 if self.N <= FASTMOD_CELLS else 0, np.uint64)
        self._keep = (pm, pc, st, fresh, laid, revealed, nflags, steps, stream, sampler,
                      ml, cand, stack, vof, fmod, act, allc)
        self.pm = <uint8_t*>cnp.PyArray_DATA(pm)
        self.pc = <int8_t*>cnp.PyArray_DATA(pc)
        self.st = <uint8_t*>cnp.PyArray_DATA(st)
        self.st_fresh = <uint8_t*>cnp.PyArray_DATA(fresh)
        self.view = <int8_t*>cnp.PyArray_DATA(self.obs)
        self.mk = <uint8_t*>cnp.PyArray_DATA(self.mask)
        self.left = <int32_t*>cnp.PyArray_DATA(self.mines_left)
        self.rew = <double*>cnp.PyArray_DATA(self.reward)
        self.term = <uint8_t*>cnp.PyArray_DATA(self.terminated)
        self.trunc = <uint8_t*>cnp.PyArray_DATA(self.truncated)
        self.wn = <uint8_t*>cnp.PyArray_DATA(self.won)
        self.dn = <uint8_t*>cnp.PyArray_DATA(self.done)
        self.ph = <uint8_t*>cnp.PyArray_DATA(self.phase)
        self.bseed = <uint64_t*>cnp.PyArray_DATA(self.board_seed)
        self.laid = <uint8_t*>cnp.PyArray_DATA(laid)
        self.revealed = <int32_t*>cnp.PyArray_DATA(revealed)
        self.nflags = <int32_t*>cnp.PyArray_DATA(nflags)
        self.steps = <int64_t*>cnp.PyArray_DATA(steps)
        self.stream = <uint64_t*>cnp.PyArray_DATA(stream)
        self.sampler = <uint64_t*>cnp.PyArray_DATA(sampler)
        self.cand = <uint32_t*>cnp.PyArray_DATA(cand)
        self.ml = <uint32_t*>cnp.PyArray_DATA(ml)
        self.act = <int64_t*>cnp.PyArray_DATA(act)
        self.vof = <uint32_t*>cnp.PyArray_DATA(vof)
        self.allc = <uint32_t*>cnp.PyArray_DATA(allc)
        self.fmod = <uint64_t*>cnp.PyArray_DATA(fmod) if fmod.shape[0] else NULL
        if self.fmod != NULL:
            for r in range(1, self.N + 1):
                self.fmod[r] = fmb_fastmod_m(<uint64_t>r)
        self.stack = <Py_ssize_t*>cnp.PyArray_DATA(stack)
        for r in range(B):
            self._clear(r)
        # Until the Python layer seeds them, every game is over: nothing runs unseeded.
        self.done[:] = True

    # ---------------------------------------------------------------- copies

    def _state(self):
        """Every array a game's state lives in, in a fixed order (the scratch
        arrays pm, cand and stack, and the constant fresh state, are left out)."""
        _pm, pc, st, _fresh, laid, revealed, nflags, steps, stream, sampler, ml = self._keep[:11]
        return (pc, st, laid, revealed, nflags, steps, stream, sampler, ml, self.obs,
                self.mask, self.mines_left, self.reward, self.terminated, self.truncated,
                self.won, self.done, self.phase, self.board_seed)

    def __reduce__(self):
        # copy.deepcopy and pickle: a new Batch of the same settings, then every
        # state array copied into the ones it allocated itself (so the raw
        # pointers stay its own).
        return (_rebuild, (self._args, tuple(a.copy() for a in self._state())))

    def _load(self, state):
        """Copy ``state`` (as :meth:`_state` returns) into this batch's arrays."""
        mine = self._state()
        if not isinstance(state, tuple) or len(state) != len(mine):
            raise ValueError("fastmine.env: not the state of a batch")
        for dst, src in zip(mine, state):
            src = np.asarray(src)
            if src.shape != dst.shape or src.dtype != dst.dtype:
                raise ValueError("fastmine.env: the state of a batch of other settings")
        for dst, src in zip(mine, state):
            np.copyto(dst, src, casting="no")

    # ---------------------------------------------------------------- seeding

    def seed(self, const uint8_t[::1] which, const uint64_t[::1] seeds):
        """Restart the episode-seed and sampler streams of the games where
        ``which`` is set from ``seeds`` (both of length B)."""
        cdef Py_ssize_t i
        if which.shape[0] != self.B or seeds.shape[0] != self.B:
            raise ValueError("fastmine.env: seed arrays must have one entry per game")
        for i in range(self.B):
            if which[i]:
                self.stream[i] = seeds[i]
                self.sampler[i] = seeds[i] ^ SAMPLER_KEY

    def reset(self, const uint8_t[::1] which):
        """Start a new episode in every game where ``which`` is set (its board
        seed drawn from its stream)."""
        cdef Py_ssize_t i
        if which.shape[0] != self.B:
            raise ValueError("fastmine.env: reset mask must have one entry per game")
        with nogil:
            for i in range(self.B):
                if which[i]:
                    self._new_episode(i, splitmix64(&self.stream[i]))

    def reset_board_seed(self, Py_ssize_t i, uint64_t board_seed):
        """Start a new episode in game i on the board of ``board_seed`` (its
        stream is left where it was)."""
        if not 0 <= i < self.B:
            raise IndexError(f"fastmine.env: no game {i}")
        self._new_episode(i, board_seed)

    cdef void _clear(self, Py_ssize_t i) noexcept nogil:
        cdef Py_ssize_t N = self.N
        memcpy(self.st + i * self.P, self.st_fresh, self.P)
        memset(self.view + i * N, V_HIDDEN, N)
        cdef uint8_t* m = self.mk + i * self.n_actions
        memset(m, 1, N)
        if self.flags:
            memset(m + N, 1, N)
        if self.chord:
            memset(m + 2 * N, 0, N)
        self.left[i] = <int32_t>self.mines
        self.ph[i] = PH_READY
        self.laid[i] = 0
        self.revealed[i] = 0
        self.nflags[i] = 0
        self.steps[i] = 0

    cdef void _new_episode(self, Py_ssize_t i, uint64_t board_seed) noexcept nogil:
        self._clear(i)
        self.bseed[i] = board_seed
        self.dn[i] = 0
        self.rew[i] = 0.0
        self.term[i] = 0
        self.trunc[i] = 0
        self.wn[i] = 0

    # ---------------------------------------------------------------- boards

    cdef void _lay(self, Py_ssize_t i, Py_ssize_t fr, Py_ssize_t fc) noexcept nogil:
        """fastmine._kernels.lay_mines for game i, first click (fr, fc)."""
        cdef Py_ssize_t rows = self.rows, cols = self.cols, radius, block
        if self.rule == RULE_NONE:
            radius = -1
        elif self.rule == RULE_CELL:
            radius = 0
        else:
            # Board.generate: the 3x3 opening when the mines fit outside it, else the cell.
            block = ((min(fr + 1, rows - 1) - max(fr - 1, 0) + 1)
                     * (min(fc + 1, cols - 1) - max(fc - 1, 0) + 1))
            radius = 1 if self.mines <= rows * cols - block else 0
        lay_mines(self.pm, self.ml + i * self.mines, self.cand, self.allc, self.fmod,
                  self.bseed[i], rows, cols, self.mines, fr, fc, radius)
        self._count(i)
        self.laid[i] = 1

    cdef void _count(self, Py_ssize_t i) noexcept nogil:
        """Game i's counts from the scratch mine array, each mine marked in them."""
        count_from_mask(self.pc + i * self.P, self.pm, self.W, self.P)
        mark_mines(self.pc + i * self.P, self.ml + i * self.mines, self.mines, self.W, self.P)

    def set_board(self, Py_ssize_t i, const uint8_t[:, ::1] mines):
        """Give game i (not yet started) the board of the 0/1 array ``mines``."""
        cdef Py_ssize_t r, c, total = 0
        cdef uint8_t* pm
        if not 0 <= i < self.B:
            raise IndexError(f"fastmine.env: no game {i}")
        if mines.shape[0] != self.rows or mines.shape[1] != self.cols:
            raise ValueError("fastmine.env: the board does not fit the environment")
        for r in range(self.rows):
            for c in range(self.cols):
                total += mines[r, c] != 0
        if total != self.mines:
            raise ValueError(f"fastmine.env: the board has {total} mines, not {self.mines}")
        pm = self.pm
        memset(pm, 0, self.P)
        total = 0
        for r in range(self.rows):
            for c in range(self.cols):
                pm[(r + 1) * self.W + c + 1] = mines[r, c] != 0
                if mines[r, c] != 0:
                    self.ml[i * self.mines + total] = <uint32_t>((r + 1) * self.W + c + 1)
                    total += 1
        self._count(i)
        self.laid[i] = 1

    def mine_mask(self, Py_ssize_t i):
        """Game i's mines as a (rows, cols) bool array (all False before the first reveal)."""
        if not 0 <= i < self.B:
            raise IndexError(f"fastmine.env: no game {i}")
        pc = self._keep[1][i].reshape(self.rows + 2, self.cols + 2)[1:-1, 1:-1]
        out = pc == PC_MINE
        if not self.laid[i]:
            out[:] = False
        return out

    def finished_mines_into(self, double[:, ::1] out):
        """Write 1.0 on game i's mines and 0.0 elsewhere into ``out[i]`` (rows*cols,
        row-major) for every game won or lost: the labels of a finished game."""
        cdef Py_ssize_t i, r, c
        cdef const int8_t* pc
        if out.shape[0] != self.B or out.shape[1] != self.N:
            raise ValueError("fastmine.env: one row per game, one entry per cell")
        for i in range(self.B):
            if self.ph[i] != PH_WON and self.ph[i] != PH_LOST:
                continue
            pc = self.pc + i * self.P
            for r in range(self.rows):
                for c in range(self.cols):
                    out[i, r * self.cols + c] = (
                        1.0 if self.laid[i] and pc[(r + 1) * self.W + c + 1] == PC_MINE else 0.0)

    def needs_board(self, const int64_t[::1] actions, uint8_t[::1] out):
        """Set ``out[i]`` where stepping ``actions`` would lay game i's mines
        (a reveal of a hidden cell before the first reveal); returns how many."""
        cdef Py_ssize_t i, a, total = 0, r, c
        if actions.shape[0] != self.B or out.shape[0] != self.B:
            raise ValueError("fastmine.env: one action per game")
        for i in range(self.B):
            out[i] = 0
            a = actions[i]
            if self.dn[i] or self.laid[i] or a < 0 or a >= self.N:
                continue
            r = a // self.cols
            c = a - r * self.cols
            if self.st[i * self.P + (r + 1) * self.W + c + 1] == ST_HIDDEN:
                out[i] = 1
                total += 1
        return total

    # ---------------------------------------------------------------- steps

    def step(self, cnp.ndarray actions):
        """Step every game with its action; a game whose episode ended at the
        previous step starts a new one instead (its action ignored)."""
        # One compare a game keeps the kernel's memory safe whatever it is given.
        self._take_actions(actions)
        with nogil:
            self._step_all(NULL)

    cdef int _take_actions(self, cnp.ndarray actions) except -1:
        """Copy ``actions`` (int64 (B,), C order) into the kernel's own buffer,
        checking each (the caller's array could change under a step that runs
        without the GIL); nothing is stepped if one is out of range."""
        cdef Py_ssize_t i
        cdef int64_t a
        cdef const int64_t* given
        if (cnp.PyArray_TYPE(actions) != cnp.NPY_INT64 or cnp.PyArray_NDIM(actions) != 1
                or not cnp.PyArray_IS_C_CONTIGUOUS(actions)
                or cnp.PyArray_DIMS(actions)[0] != self.B):
            raise ValueError("fastmine.env: one action per game, an int64 array")
        given = <const int64_t*>cnp.PyArray_DATA(actions)
        for i in range(self.B):
            a = given[i]
            if a < 0 or a >= self.n_actions:
                raise ValueError(f"action {a} of environment {i} is out of range "
                                 f"(0 to {self.n_actions - 1})")
            self.act[i] = a
        return 0

    def step_copy(self, cnp.ndarray actions, cnp.ndarray view_out, cnp.ndarray mask_out):
        """:meth:`step`, and each game's outputs written into new arrays right
        after its step, while they are in the cache (a pass over a large batch
        after the step read them back from memory, one pass an array).

        ``view_out`` int8 (B, rows, cols) and ``mask_out`` bool (B, actions)
        are the caller's (checked: type, shape, C order, writable, before
        anything is stepped); the others are made here and returned:
        ``(reward, terminated, truncated, mines_left (B, 1), board_seed, won,
        every, every, every)``, ``every`` three new bool arrays of True (the
        info's ``_key`` masks).  Made in C, and NumPy arrays rather than
        memoryviews: the Python work between two steps of a batch larger than
        the cache runs with little of it still cached, and each NumPy call
        there (an np.ones, a row of an array) cost microseconds."""
        cdef Out o
        cdef Py_ssize_t B = self.B, k
        cdef cnp.npy_intp d3[3]
        cdef cnp.npy_intp d2[2]
        d3[0] = B
        d3[1] = self.rows
        d3[2] = self.cols
        o.view = <int8_t*>_out(view_out, cnp.NPY_INT8, 3, d3)
        d2[0] = B
        d2[1] = self.n_actions
        o.mask = <uint8_t*>_out(mask_out, cnp.NPY_BOOL, 2, d2)
        self._take_actions(actions)
        d2[1] = 1
        reward = cnp.PyArray_EMPTY(1, d2, cnp.NPY_FLOAT64, 0)
        term = cnp.PyArray_EMPTY(1, d2, cnp.NPY_BOOL, 0)
        trunc = cnp.PyArray_EMPTY(1, d2, cnp.NPY_BOOL, 0)
        left = cnp.PyArray_EMPTY(2, d2, cnp.NPY_INT32, 0)
        seed = cnp.PyArray_EMPTY(1, d2, cnp.NPY_UINT64, 0)
        won = cnp.PyArray_EMPTY(1, d2, cnp.NPY_BOOL, 0)
        every = tuple([cnp.PyArray_EMPTY(1, d2, cnp.NPY_BOOL, 0) for k in range(3)])
        o.reward = <double*>cnp.PyArray_DATA(reward)
        o.term = <uint8_t*>cnp.PyArray_DATA(term)
        o.trunc = <uint8_t*>cnp.PyArray_DATA(trunc)
        o.left = <int32_t*>cnp.PyArray_DATA(left)
        o.seed = <uint64_t*>cnp.PyArray_DATA(seed)
        o.won = <uint8_t*>cnp.PyArray_DATA(won)
        for k in range(3):
            memset(cnp.PyArray_DATA(every[k]), 1, B)
        with nogil:
            self._step_all(&o)
        return (reward, term, trunc, left, seed, won) + every

    cdef void _step_all(self, Out* o) noexcept nogil:
        """Step every game (the actions taken already); with ``o`` (or NULL)
        write each game's outputs there right after its step."""
        cdef Py_ssize_t i, N = self.N, A = self.n_actions
        for i in range(self.B):
            # A batch's state outgrows the cache past a few hundred games: the
            # memory of a game a few ahead is asked for now, and arrives while
            # the games before it are stepped.
            if i + AHEAD < self.B:
                self._fetch(i + AHEAD)
                if o != NULL:
                    fmb_fetch_w(o.view + (i + AHEAD) * N, N)
                    fmb_fetch_w(o.mask + (i + AHEAD) * A, A)
            if self.dn[i]:
                self._new_episode(i, splitmix64(&self.stream[i]))
            else:
                step_one(self, i, self.act[i])
                if self.chord and not self.dn[i]:
                    chord_mask_of(self, i)
            if o != NULL:
                memcpy(o.view + i * N, self.view + i * N, N)
                memcpy(o.mask + i * A, self.mk + i * A, A)
                o.reward[i] = self.rew[i]
                o.term[i] = self.term[i]
                o.trunc[i] = self.trunc[i]
                o.left[i] = self.left[i]
                o.seed[i] = self.bseed[i]
                o.won[i] = self.wn[i]

    cdef void _fetch(self, Py_ssize_t i) noexcept nogil:
        """Ask for what stepping game i will touch first: its view and mask
        (copied whole), and the cells of its action (or its whole state, to be
        reset)."""
        cdef Py_ssize_t N = self.N, a, cell, p
        fmb_fetch(self.view + i * N, N)
        fmb_fetch(self.mk + i * self.n_actions, self.n_actions)
        if self.dn[i]:
            fmb_fetch_w(self.st + i * self.P, self.P)
            return
        a = self.act[i]
        cell = a % N
        p = (cell // self.cols + 1) * self.W + cell % self.cols + 1
        if not self.laid[i]:
            fmb_fetch_w(self.pc + i * self.P, self.P)
        else:
            fmb_fetch(self.pc + i * self.P + p, 1)
        fmb_fetch(self.st + i * self.P + p, 1)

    # ---------------------------------------------------------------- random agent

    def sample(self, out, bint safe_only):
        """A uniformly random valid reveal for every game into ``out`` (int64
        (B,), or None: a new array, made here), from each game's own sampler
        stream (``safe_only``: among the safe hidden cells once the mines are
        laid); returns ``out``.  A game with no valid reveal (every hidden cell
        flagged) gets a random valid action of any kind; a game whose episode
        ended gets 0 (its next action is ignored)."""
        cdef Py_ssize_t i
        cdef cnp.npy_intp n = self.B
        if out is None:
            out = cnp.PyArray_EMPTY(1, &n, cnp.NPY_INT64, 0)
        cdef int64_t* a = <int64_t*>_out(out, cnp.NPY_INT64, 1, &n)
        with nogil:
            for i in range(self.B):
                a[i] = 0 if self.dn[i] else self._sample_one(i, safe_only)
        return out

    cdef int64_t _sample_one(self, Py_ssize_t i, bint safe_only) noexcept nogil:
        return sample_reveal(self.mk + i * self.n_actions, self.pc + i * self.P,
                             &self.sampler[i], self.N, self.n_actions, self.cols,
                             safe_only and self.laid[i])


include "_step.pxi"
