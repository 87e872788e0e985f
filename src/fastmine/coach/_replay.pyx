# Private kernel of fastmine.coach.judging: a game's moves replayed and judged.
#
# The coach judges every move of a recorded game against the exact solver's
# analysis of the position before it.  Done move by move in Python (a Game,
# an IncrementalAnalyzer, a Verdict each), the bookkeeping around the count
# cost as much as the count itself: ~8 us a move.  Here one loop replays the
# moves on the engine's own move kernels (GameCore: the same flood fill and
# chord as a game), counts each position with the solver's kept count
# (fastmine.solver._kept: each frontier component's table kept from one
# position to the next; a position it hands back goes to the probability
# kernel, _prob._analyze_known) and writes each move's verdict as numbers
# into arrays.  Only what needs safe
# play (a guess taken while a proven-safe cell existed, a few in a game)
# goes back to Python, which judges it with fastmine.coach.safeplay and
# resumes the loop.
#
# The Python layer (judging.analyze) checks the board, the rule and the
# moves' kinds; this module checks every cell against the board it was
# given, and allocates every buffer it indexes itself.

from libc.math cimport NAN
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t
from libc.string cimport memset

import numpy as np

from .._kernels import GameCore
from ..errors import PositionTooLargeError
from ..solver._prob cimport _analyze_known
from ..solver._workspace cimport Workspace
from ..solver._kept import Counter

# Cell states and view codes: must match fastmine._kernels and fastmine.viewcodes.
cdef enum:
    ST_HIDDEN = 0
    ST_QUESTION = 1
    ST_REVEALED = 2
    ST_FLAG = 3
    V_HIDDEN = -1
    V_FLAG = -2
    V_QUESTION = -3

# What a move was (judging._CATEGORIES lists the Category of each code).
cdef enum:
    C_FIRST_CLICK = 0
    C_SAFE = 1
    C_FORCED_GUESS = 2
    C_AVOIDABLE_RISK = 3
    C_EARLY_GUESS = 4
    C_FORCED_EARLY = 5
    C_WORSE_GUESS = 6
    C_FLAG = 7
    C_WRONG_FLAG = 8
    C_MARK = 9
    C_NO_EFFECT = 10
    C_NOT_ANALYSED = 11

# Move codes of the moves array: a move log's kinds without the assist bit.
cdef enum:
    M_REVEAL = 0
    M_MARK = 1
    M_CHORD = 2
    M_MARK_PLAIN = 3

# Why run() stopped.
cdef enum:
    S_DONE = 0
    S_SAFE_PLAY = 1         # move `at` is a guess taken with a safe cell on offer
    S_AFTER_END = 2         # move `at` comes after the game ended
    S_OFF_BOARD = 3         # move `at` is off the board
    S_FIRST_MINE = 4        # the free first click `at` is a mine on this board
    S_NO_LAYOUT = 5         # no layout fits the view before move `at` (not a real game)

DONE = S_DONE
SAFE_PLAY = S_SAFE_PLAY
AFTER_END = S_AFTER_END
OFF_BOARD = S_OFF_BOARD
FIRST_MINE = S_FIRST_MINE
NO_LAYOUT = S_NO_LAYOUT

# Positions the solver's count takes after the label counter handed one back.
cdef int KEPT_PAUSE = 16

# Game states.
cdef enum:
    G_READY = 0
    G_PLAYING = 1
    G_OVER = 2


cdef class Replay:
    """One game's moves, replayed and judged (see the module comment).

    ``pm``, ``pc``: the board's padded mines and counts (Board._pm, _pc);
    ``moves``: (n, 3) int64 rows (code, row, col), code one of the move log's
    kinds 0..3; ``first_free``: whether the first reveal is free (the rule is
    not "none"); ``deadline``: a time.monotonic() time after which no new
    analysis starts (inf: none).  The verdicts go into ``category``, ``risk``,
    ``best`` (NaN: None), ``n_safe`` (-1: None) and ``survived``.
    """

    cdef readonly object core, view, category, risk, best, n_safe, survived
    cdef readonly object safe, mine         # the current analysis's flags (rows, cols) bool
    cdef readonly Py_ssize_t at             # the move run() stopped at
    cdef readonly int status                # why it stopped
    cdef readonly Py_ssize_t fresh          # analyses started from scratch
    cdef object fault
    cdef object _st_arr, _pv_arr, _flags_arr, _known_arr, _clock
    cdef readonly object counter          # the label counter (its figures, for tests)
    cdef object _cview_arr, _phase_arr, _untouched_arr, _out_arr, _hb_arr
    cdef int8_t[:, :, ::1] cview
    cdef double[:, ::1] kout
    cdef uint8_t[::1] hb
    cdef uint8_t[::1] st
    cdef int8_t[::1] pv
    cdef const int8_t[:, :] v2
    cdef const uint8_t[::1] pm
    cdef const int8_t[::1] pc
    cdef const int64_t[:, ::1] moves
    cdef Workspace ws
    cdef uint8_t[::1] known
    cdef double[::1] prob, prev
    cdef uint8_t[:, ::1] flags
    cdef int8_t[::1] cat_out
    cdef double[::1] risk_out, best_out
    cdef int32_t[::1] nsafe_out
    cdef uint8_t[::1] surv_out
    cdef int rows, cols, W, state
    cdef int64_t mines, max_entries
    cdef Py_ssize_t safe_total, revealed, analysed_at, n
    cdef double deadline, margin
    cdef bint first_free, have, exact, have_prev, prev_exact
    cdef int ncells
    cdef int kept_pause                     # positions left before the counter is tried again
    cdef Py_ssize_t off[8]                  # the eight neighbours' offsets, padded
    cdef Py_ssize_t mcells[9]               # the current move's cells (flat, unpadded)

    def __cinit__(self, Workspace ws, const uint8_t[::1] pm, const int8_t[::1] pc,
                  Py_ssize_t rows, Py_ssize_t cols, int64_t mines, const int64_t[:, ::1] moves,
                  bint first_free, double deadline, int64_t max_entries, object clock,
                  double margin, object fault=None, object kept=None):
        cdef Py_ssize_t n = (rows + 2) * (cols + 2), m = moves.shape[0]
        if rows < 1 or cols < 1 or pm.shape[0] != n or pc.shape[0] != n:
            raise ValueError("the board's arrays do not match its size")
        if moves.shape[1] != 3:
            raise ValueError("moves must be (n, 3) rows of (code, row, col)")
        if not 0 <= mines <= rows * cols:
            raise ValueError("the mine count does not fit the board")
        self.ws = ws
        self.rows, self.cols, self.W = rows, cols, cols + 2
        cdef Py_ssize_t k, W = cols + 2
        for k, d in enumerate((-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1)):
            self.off[k] = d
        self.mines = mines
        self.max_entries = max_entries
        self.safe_total = rows * cols - mines
        self.pm = pm
        self.pc = pc
        self.moves = moves
        self.n = m
        self.first_free = first_free
        self.deadline = deadline
        self.margin = margin
        # For tests only: "approximate" takes every count as approximate; an
        # exception is raised in place of every count (a position too large).
        self.fault = fault
        self.fresh = 0
        self._clock = clock
        self._st_arr = np.zeros(n, np.uint8)
        self._pv_arr = np.full(n, V_HIDDEN, np.int8)
        self.st = self._st_arr
        self.pv = self._pv_arr
        self.core = GameCore(self._st_arr, self._pv_arr, rows, cols)
        self.core.attach(pm, pc)
        view = self._pv_arr.reshape(rows + 2, cols + 2)[1:-1, 1:-1]
        self.v2 = view
        view = view.view()
        view.flags.writeable = False
        self.view = view
        self._known_arr = np.zeros(rows * cols, np.uint8)
        self.known = self._known_arr
        self.prob = np.empty(rows * cols, np.float64)
        self.prev = np.empty(rows * cols, np.float64)
        self._flags_arr = np.zeros((3, rows * cols), np.uint8)
        self.flags = self._flags_arr
        bools = self._flags_arr.view(np.bool_)
        self.safe = bools[0].reshape(rows, cols)
        self.mine = bools[1].reshape(rows, cols)
        self.category = np.full(m, C_NO_EFFECT, np.int8)
        self.risk = np.full(m, NAN, np.float64)
        self.best = np.full(m, NAN, np.float64)
        self.n_safe = np.full(m, -1, np.int32)
        self.survived = np.ones(m, np.uint8)
        self.cat_out = self.category
        self.risk_out = self.risk
        self.best_out = self.best
        self.nsafe_out = self.n_safe
        self.surv_out = self.survived
        # The positions are counted by the label counter, which keeps each
        # frontier component's table from one position to the next and counts
        # again only the components around the cells a move opened (about a
        # quarter of the solver's count from what the last position proved);
        # a position it hands back (a component over its budget) is counted
        # by the solver's kernel from scratch.
        # ``kept``: a (Counter, labels) pair the caller keeps between games of
        # one size (the labels row holds the last position's, as the counter
        # expects), or None for a new one.
        if kept is None:
            kept = (Counter(1, rows, cols, mines), np.zeros((1, rows * cols), np.float64))
        counter, out = kept
        if (type(counter) is not Counter or counter.B != 1 or counter.rows != rows
                or counter.cols != cols or counter.mines != mines):
            raise ValueError("the label counter is not one for a game of this board")
        self.counter = counter
        self._cview_arr = np.zeros((1, rows, cols), np.int8)
        self.cview = self._cview_arr
        self._phase_arr = np.ones(1, np.uint8)
        self._untouched_arr = np.zeros(rows * cols, np.float64)
        self._out_arr = out
        self.kout = out                     # (1, rows * cols) float64, checked by the view
        self._hb_arr = np.zeros(1, np.uint8)
        self.hb = self._hb_arr
        self.state = G_READY
        self.revealed = 0
        self.analysed_at = -1
        self.have = self.have_prev = False
        self.at = 0
        self.status = S_DONE

    @property
    def over(self):
        """Whether the game has ended (a mine opened, or every safe cell)."""
        return self.state == G_OVER

    def cells(self):
        """The cells of the move run() stopped at, as (row, col) pairs."""
        cdef int k
        return [(self.mcells[k] // self.cols, self.mcells[k] % self.cols)
                for k in range(self.ncells)]

    cdef int _forget(self) noexcept:
        memset(&self.known[0], 0, self.known.shape[0])
        self.have_prev = False
        return 0

    cdef int _analyse(self) except -1:
        """The analysis of the view now (self.have: whether there is one)."""
        cdef Py_ssize_t k
        cdef double[::1] tmp
        self.analysed_at = self.revealed
        self.have = False
        if self.deadline < 1e300 and self._clock() > self.deadline:
            return 0                # out of time: the rest is not analysed
        # The analysis just made becomes the previous one; the new one is
        # written over the older buffer (the kernel writes every cell).
        if self.have_prev:
            tmp = self.prev
            self.prev = self.prob
            self.prob = tmp
        memset(&self.flags[0, 0], 0, 3 * self.flags.shape[1])
        if self.fault is None:
            if self.kept_pause > 0:
                self.kept_pause -= 1
            elif self._kept_count() == 0:
                self.exact = self.prev_exact = True
                self.have = True
                self.have_prev = False      # the known cells are not kept on this path
                return 0
            else:
                # A component too large for the counter: it would read the whole
                # view and give up again at once, so the solver's count (from
                # what its last position proved) takes the next positions.
                self.kept_pause = KEPT_PAUSE
        if not self.have_prev:
            self._forget()              # the known cells describe no earlier position
        try:
            if self.fault is not None and self.fault != "approximate":
                raise self.fault
            if not self.have_prev:
                self.fresh += 1
            res = _analyze_known(self.ws, self.v2, self.known, self.mines, self.prob,
                                 self.flags, self.max_entries,
                                 self.prev if self.have_prev else None)
            if res is None:         # not a successor of the last position: afresh
                self._forget()
                self.fresh += 1
                memset(&self.flags[0, 0], 0, 3 * self.flags.shape[1])
                res = _analyze_known(self.ws, self.v2, self.known, self.mines, self.prob,
                                     self.flags, self.max_entries, None)
        except PositionTooLargeError:
            self._forget()
            return 0
        if res is None or type(res) is int:
            self._forget()
            return -2               # no layout fits: not a game on this board
        if res[0] is None:          # no layout ruled out: the last count stands
            self.exact = self.prev_exact
        else:
            self.exact = res[0] and self.fault is None
        self.prev_exact = self.exact
        self.have = self.have_prev = True
        return 0

    cdef int _kept_count(self) except -1:
        """The position counted by the label counter, which keeps each frontier
        component's table from one position to the next: 0, or 1 when it hands
        the position back (a component too large for it)."""
        cdef int r, c, rows = self.rows, cols = self.cols
        cdef Py_ssize_t cell
        cdef int8_t v
        cdef double x
        for r in range(rows):
            for c in range(cols):
                self.cview[0, r, c] = self.v2[r, c]
        self.counter.update(self._cview_arr, self._phase_arr, 1, 0, self._untouched_arr,
                            self._out_arr, self._hb_arr)
        if self.hb[0]:
            return 1
        for r in range(rows):
            for c in range(cols):
                cell = r * cols + c
                v = self.v2[r, c]
                if v >= 0:
                    self.prob[cell] = NAN
                else:
                    x = self.kout[0, cell]
                    self.prob[cell] = x
                    self.flags[0, cell] = x == 0.0
                    self.flags[1, cell] = x == 1.0
        return 0

    cdef int _opened(self, int code, Py_ssize_t p) noexcept:
        """The cells (flat, unpadded) a reveal or chord at padded cell p opens
        directly (not the flood), into self.cells."""
        cdef int8_t v = self.pv[p]
        cdef Py_ssize_t q, W = self.W
        cdef int k, nflags = 0
        cdef Py_ssize_t* off = self.off
        self.ncells = 0
        if code == M_REVEAL:
            if v == V_HIDDEN or v == V_QUESTION:
                self.mcells[0] = (p // W - 1) * self.cols + p % W - 1
                self.ncells = 1
            return 0
        if v < 0:
            return 0
        for k in range(8):
            if self.st[p + off[k]] == ST_FLAG:
                nflags += 1
        if nflags != v:
            return 0
        for k in range(8):
            q = p + off[k]
            # the ring is "revealed" in st: never counted here
            if self.st[q] == ST_HIDDEN or self.st[q] == ST_QUESTION:
                self.mcells[self.ncells] = (q // W - 1) * self.cols + q % W - 1
                self.ncells += 1
        return 0

    cdef int _judge(self, Py_ssize_t i) except -1:
        """The verdict on opening self.cells (move i, a reveal or chord):
        S_SAFE_PLAY when it is a guess taken with a safe cell on offer."""
        cdef Py_ssize_t k, cell, ncell = self.rows * self.cols, nsafe = 0
        cdef double risk = -1.0, best = 2.0, x
        cdef bint all_safe = True
        cdef uint8_t[::1] safe
        if self.analysed_at != self.revealed:
            if self._analyse() == -2:
                return -2
        if not self.have:
            self.cat_out[i] = C_NOT_ANALYSED
            return 0
        safe = self.flags[0]
        for cell in range(ncell):
            nsafe += safe[cell]
        self.nsafe_out[i] = <int32_t>nsafe
        for k in range(self.ncells):
            if not safe[self.mcells[k]]:
                all_safe = False
        if all_safe:
            self.cat_out[i] = C_SAFE
            self.risk_out[i] = 0.0
            self.best_out[i] = 0.0
            return 0
        for k in range(self.ncells):
            x = self.prob[self.mcells[k]]
            if x > risk:
                risk = x
        if nsafe:
            self.risk_out[i] = risk
            self.best_out[i] = 0.0
            return S_SAFE_PLAY
        if not self.exact:          # certain cells stay certain, odds do not
            return 0                # C_NOT_ANALYSED, set by the caller
        for cell in range(ncell):
            x = self.prob[cell]
            if x < best:            # NaN (an open cell) compares False
                best = x
        self.risk_out[i] = risk
        self.best_out[i] = best
        self.cat_out[i] = C_WORSE_GUESS if risk > best + self.margin else C_FORCED_GUESS
        return 0

    cdef bint _local(self) noexcept:
        """Whether the move about to open self.mcells leaves the analysis as
        it is but for those cells: each was proven safe and shows a number (no
        flood), and no number of them touches a cell still in doubt, so the
        move rules out no layout.  (The count would find just that: what
        _analyze_known calls an unchanged position.)"""
        cdef int k, j
        cdef Py_ssize_t cell, p, q, W = self.W, cols = self.cols
        cdef Py_ssize_t* off = self.off
        if not self.have or self.analysed_at != self.revealed or self.ncells == 0:
            return False
        for k in range(self.ncells):
            cell = self.mcells[k]
            p = (cell // cols + 1) * W + cell % cols + 1
            if not self.flags[0, cell] or self.pc[p] == 0:
                return False
            for j in range(8):
                q = p + off[j]
                # hidden, flagged or ?; the ring is "revealed" in st
                if self.st[q] != ST_REVEALED:
                    cell = (q // W - 1) * cols + q % W - 1
                    if not self.flags[0, cell] and not self.flags[1, cell]:
                        return False
        return True

    cdef int _apply(self, int code, Py_ssize_t p) except -1:
        """Make the move, as fastmine.Game does (nothing logged)."""
        cdef uint8_t s = self.st[p]
        cdef bint local
        cdef int k
        core = self.core
        if code == M_REVEAL or code == M_CHORD:
            if code == M_REVEAL:
                if self.state == G_READY and s != ST_FLAG:
                    self.state = G_PLAYING
                if not (s == ST_HIDDEN or s == ST_QUESTION):
                    return 0
                local = self._local()
                core.reveal(p)
            else:
                if not self.ncells:
                    return 0
                local = self._local()
                core.chord(p)
            self._settle()
            if local and self.state != G_OVER:
                # The analysis stands but for the cells opened: now numbers.
                for k in range(self.ncells):
                    self.prob[self.mcells[k]] = NAN
                    self.flags[0, self.mcells[k]] = 0
                    self.flags[2, self.mcells[k]] = 0
                self.analysed_at = self.revealed
        elif s != ST_REVEALED:
            core.toggle_mark(p, code == M_MARK)
        return 0

    cdef int _settle(self) except -1:
        core = self.core
        self.revealed = core.revealed
        if core.exploded or self.revealed == self.safe_total:
            self.state = G_OVER
        return 0

    def run(self, Py_ssize_t start, bint resume=False):
        """Judge and make moves from ``start`` on; with ``resume`` move
        ``start`` was judged already (after SAFE_PLAY): it is only made.

        Returns why it stopped (DONE, SAFE_PLAY, ...), also kept as
        ``status``; ``at`` is the move it stopped at.
        """
        self.status = self._run(start, resume)
        return self.status

    cdef int _run(self, Py_ssize_t start, bint resume) except -1:
        cdef Py_ssize_t i, p, cell
        cdef int64_t code, r, c
        cdef int res, k
        cdef int8_t v
        if not 0 <= start <= self.n:
            raise ValueError("no such move")
        for i in range(start, self.n):
            code = self.moves[i, 0]
            r = self.moves[i, 1]
            c = self.moves[i, 2]
            self.at = i
            if code < 0 or code > 3:
                raise ValueError(f"move {i} has an unknown code {code}")
            if not (resume and i == start):
                if self.state == G_OVER:
                    return S_AFTER_END
                if not (0 <= r < self.rows and 0 <= c < self.cols):
                    return S_OFF_BOARD
            p = (r + 1) * self.W + c + 1
            cell = r * self.cols + c
            if resume and i == start:
                self._opened(code, p)
                self._apply(code, p)
                continue
            if code == M_MARK or code == M_MARK_PLAIN:
                v = self.pv[p]
                if v == V_HIDDEN:
                    if self.analysed_at != self.revealed:
                        if self._analyse() == -2:
                            return S_NO_LAYOUT
                    self.cat_out[i] = C_FLAG if self.pm[p] else C_WRONG_FLAG
                    if self.have:
                        self.risk_out[i] = self.prob[cell]
                else:
                    self.cat_out[i] = C_MARK if v == V_FLAG or v == V_QUESTION else C_NO_EFFECT
                self._apply(code, p)
                continue
            if self.state == G_READY and code == M_CHORD:
                self.ncells = 0
            else:
                self._opened(code, p)
            for k in range(self.ncells):
                if self.pm[(self.mcells[k] // self.cols + 1) * self.W
                           + self.mcells[k] % self.cols + 1]:
                    self.surv_out[i] = 0
            if self.ncells == 0:
                self.cat_out[i] = C_NO_EFFECT
            elif self.state == G_READY and self.first_free:
                if self.pm[p]:
                    return S_FIRST_MINE
                self.cat_out[i] = C_FIRST_CLICK
                self.risk_out[i] = 0.0
                self.best_out[i] = 0.0
            else:
                self.cat_out[i] = C_NOT_ANALYSED
                res = self._judge(i)
                if res == -2:
                    return S_NO_LAYOUT
                if res == S_SAFE_PLAY:
                    return S_SAFE_PLAY
            self._apply(code, p)
        self.at = self.n
        return S_DONE
