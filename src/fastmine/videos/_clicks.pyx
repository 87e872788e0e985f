# Private Cython kernel of fastmine.videos: the clients' click rules, one event at a time.
#
# The rules and their reasons are documented in fastmine.videos.clientrules (the
# Python layer over this kernel, which validates the rest); this is the same
# state machine, line for line, without Python objects on the way.
#
# The board is padded, as in fastmine._kernels: (rows + 2) x (cols + 2) cells with a
# ring whose board value (-2) is neither a mine nor a number and whose cell code (99)
# is never hidden, so a neighbour needs no bounds check and a flood fill stops at the
# ring by itself.  Every array is allocated here from sizes the kernel keeps itself;
# what it is given (the mines, the events, their times) it checks against them.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.mem cimport PyMem_Free, PyMem_Malloc

import numpy as np
cimport numpy as cnp

from ..viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG

cnp.import_array()

# Cell codes (ms-toollib's): 0-8 open, then these.
cdef enum:
    C_HIDDEN = 10
    C_FLAG = 11
    C_QUESTION = 12
    C_WRONG = 14
    C_BLAST = 15
    C_BORDER = 99

# Mouse states (which buttons are down), ms-toollib's names.
cdef enum:
    UP_UP = 0
    UP_DOWN = 1
    UP_DOWN_NOT_FLAG = 2
    DOWN_UP = 3
    CHORDING = 4
    CHORDING_NOT_FLAG = 5
    DOWN_UP_AFTER_CHORDING = 6
    UNDEFINED = 7

# Game status (exported through ClickKernel.status; see clientrules.STATUS_NAMES).
cdef enum:
    S_READY = 0
    S_PREFLAGGING = 1
    S_PLAYING = 2
    S_WON = 3
    S_LOST = 4

# Event kinds: fastmine.videos.EventKind.
cdef enum:
    K_MOVE = 0
    K_LEFT_DOWN = 1
    K_LEFT_UP = 2
    K_RIGHT_DOWN = 3
    K_RIGHT_UP = 4
    K_MIDDLE_DOWN = 5
    K_MIDDLE_UP = 6
    K_PRE_FLAG = 7
    K_BOTH_DOWN = 8
    K_LEFT = 9
    K_RIGHT = 10
    K_MIDDLE = 11

# The click log: buttons and actions (see clientrules.BUTTONS, ACTIONS).
cdef enum:
    B_LEFT = 0
    B_RIGHT = 1
    B_DOUBLE = 2
cdef enum:
    A_REVEAL = 0
    A_FLAG = 1
    A_UNFLAG = 2
    A_QUESTION = 3
    A_UNMARK = 4
    A_MARK = 5
    A_CHORD = 6

# The log's columns (ClickKernel.logs).
cdef enum:
    L_EVENT = 0
    L_CELL = 1
    L_BUTTON = 2
    L_ACTION = 3
    L_CHANGED = 4
    L_COLUMNS = 5

# "Not done here: go on to the playing rules" (a state's rules fall through).
cdef enum:
    FALL = -1

cdef extern from *:
    """
    #ifndef FASTMINE_DEBUG
    #define FASTMINE_DEBUG 0
    #endif
    """
    int FASTMINE_DEBUG

# setup.py defines FASTMINE_DEBUG=1 in a bounds-checked build; exported for the tests.
BOUNDS_CHECKED = bool(FASTMINE_DEBUG)


cdef class ClickKernel:
    """The clients' board and mouse state machine (see fastmine.videos.clientrules)."""

    cdef readonly int rows, cols, w
    cdef int around[8]
    cdef int16_t[::1] board
    cdef int16_t[::1] cells
    cdef uint8_t[::1] own3bv
    cdef int32_t[::1] region
    cdef int32_t[::1] region_flags
    cdef int32_t[::1] stack
    cdef uint8_t[::1] flagged_once
    cdef readonly int nregions
    cdef readonly int left, right, double, lce, rce, dce, bbbv_solved, flags, hidden_safe
    cdef readonly int status, mouse
    cdef readonly bint question_marks, count_chord_right_press
    cdef int preflags
    cdef bint middle, left_down, right_down
    cdef int64_t event
    cdef int64_t[:, ::1] logs          # one row a counted click, columns L_EVENT...
    cdef readonly Py_ssize_t log_len
    cdef Py_ssize_t last_right

    def __cinit__(self, cnp.ndarray mines not None, int rows, int cols, bint question_marks,
                  bint count_chord_right_press):
        # mines: bool, C-contiguous, (rows, cols), within fastmine.limits (the caller
        # checks the limits; the shape and type are checked here, before any use).
        cdef int w = cols + 2
        cdef Py_ssize_t n
        cdef int nmines
        cdef cnp.npy_intp dims[1]
        if (cnp.PyArray_TYPE(mines) != cnp.NPY_BOOL or mines.ndim != 2
                or not cnp.PyArray_IS_C_CONTIGUOUS(mines) or rows < 1 or cols < 1
                or mines.shape[0] != rows or mines.shape[1] != cols
                or (rows + 2) * <int64_t>(cols + 2) >= 2**30):
            raise ValueError(f"the click kernel needs a C-contiguous bool ({rows}, {cols}) "
                             "mine layout of at most 2**30 padded cells")
        n = (rows + 2) * w
        self.rows = rows
        self.cols = cols
        self.w = w
        self.around[0] = -w - 1
        self.around[1] = -w
        self.around[2] = -w + 1
        self.around[3] = -1
        self.around[4] = 1
        self.around[5] = w - 1
        self.around[6] = w
        self.around[7] = w + 1
        # Three blocks instead of seven arrays: each allocation costs more than the
        # board's whole setup on a real board.
        dims[0] = 2 * n
        cdef int16_t[::1] shorts = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT16, 0)
        cdef uint8_t[::1] bytes_ = cnp.PyArray_EMPTY(1, dims, cnp.NPY_UINT8, 0)
        dims[0] = 3 * n
        cdef int32_t[::1] ints = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT32, 0)
        self.board = shorts[:n]
        self.cells = shorts[n:]
        self.own3bv = bytes_[:n]
        self.flagged_once = bytes_[n:]
        self.region = ints[:n]
        self.region_flags = ints[n:2 * n]
        self.stack = ints[2 * n:]
        nmines = _lay(self, <const uint8_t*>cnp.PyArray_DATA(mines))
        self.nregions = 0
        self.hidden_safe = rows * cols - nmines
        self.question_marks = question_marks
        self.count_chord_right_press = count_chord_right_press
        self.status = S_READY
        self.mouse = UP_UP
        self.log_len = 0
        self._grow(0)               # run and play make room for their clicks at once
        self.last_right = -1

    # ------------------------------------------------------------- the log
    cdef int _grow(self, Py_ssize_t cap) except -1:
        cdef Py_ssize_t k = self.log_len, i, j
        cdef cnp.npy_intp dims[2]
        dims[0] = cap
        dims[1] = L_COLUMNS
        # One block for the whole log: an allocation costs more than a game's clicks.
        cdef int64_t[:, ::1] logs = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT64, 0)
        for i in range(k):
            for j in range(L_COLUMNS):
                logs[i, j] = self.logs[i, j]
        self.logs = logs
        return 0

    cdef int _record(self, int button, int action, int p, bint changed) except -1:
        cdef Py_ssize_t k = self.log_len
        if k == self.logs.shape[0]:
            self._grow(2 * k if k else 64)
        if button == B_RIGHT:
            self.last_right = k
        self.logs[k, L_EVENT] = self.event
        self.logs[k, L_CELL] = p
        self.logs[k, L_BUTTON] = button
        self.logs[k, L_ACTION] = action
        self.logs[k, L_CHANGED] = changed
        self.log_len = k + 1
        return 0

    def log(self):
        """(event, button, action, padded cell or -1, changed) arrays of the counted clicks."""
        k = self.log_len
        logs = np.asarray(self.logs)[:k]
        return (logs[:, L_EVENT].copy(), logs[:, L_BUTTON].astype(np.uint8),
                logs[:, L_ACTION].astype(np.uint8), logs[:, L_CELL].astype(np.int32),
                logs[:, L_CHANGED].astype(bool))

    def view(self):
        """The board in fastmine's view codes, a new int8 (rows, cols) array; after a
        win the mines still hidden show as FLAG, after a loss as MINE."""
        return _view(self)

    def grid(self):
        """The padded cell codes, (rows + 2, cols + 2), a copy."""
        return np.asarray(self.cells).reshape(self.rows + 2, self.w).copy()

    cdef int _clear_counts(self) except -1:
        self.flags = 0
        self.flagged_once[:] = 0
        self.double = 0
        self.left = 0
        self.right = 0
        self.log_len = 0
        self.last_right = -1
        return 0

    # ------------------------------------------------------------- the board
    cdef int _reveal(self, int p, int* top, int* opened) except -1:
        cdef int16_t v = self.board[p]
        if self.cells[p] >= 10:
            opened[0] += 1
        self.cells[p] = v
        if v == 0:
            self.stack[top[0]] = p
            top[0] += 1
        return 0

    cdef int _flood(self, int top, int opened, bint blew) except -1:
        """Open the zeros on the stack's regions; mark wrong flags after a blast."""
        cdef int p, q, d
        cdef int16_t c, v
        while top > 0:
            top -= 1
            p = self.stack[top]
            for d in range(8):
                q = p + self.around[d]
                c = self.cells[q]
                if c == C_HIDDEN or c == C_QUESTION:
                    v = self.board[q]           # a zero's neighbour: never a mine
                    self.cells[q] = v
                    opened += 1
                    if v == 0:
                        self.stack[top] = q
                        top += 1
        self.hidden_safe -= opened
        if blew:
            for p in range(self.cells.shape[0]):
                if self.cells[p] == C_FLAG and self.board[p] != -1:
                    self.cells[p] = C_WRONG
        return 0

    cdef int _label(self, int p) except -1:
        """The label of zero p's region, labelling it (and counting its flags) first."""
        cdef int label = self.region[p]
        cdef int top, q, n, d, flags
        if label >= 0:
            return label
        label = self.nregions
        self.nregions += 1
        flags = 0
        self.region[p] = label
        self.stack[0] = p
        top = 1
        while top > 0:
            top -= 1
            q = self.stack[top]
            if self.cells[q] == C_FLAG:
                flags += 1
            for d in range(8):
                n = q + self.around[d]
                if self.board[n] == 0 and self.region[n] < 0:
                    self.region[n] = label
                    self.stack[top] = n
                    top += 1
        self.region_flags[label] = flags
        return label

    cdef int _flag_changed(self, int p, int delta) except -1:
        if self.board[p] == 0 and self.region[p] >= 0:
            self.region_flags[self.region[p]] += delta
        return 0

    cdef int _settle(self) except -1:
        if self.hidden_safe == 0 and self.status != S_LOST:
            self.status = S_WON
        return 0

    # ------------------------------------------------------------- clicks
    cdef int _left_click(self, int p) except -1:
        cdef int top = 0, opened = 0
        cdef int16_t v
        self.left += 1
        if self.cells[p] != C_HIDDEN and self.cells[p] != C_QUESTION:
            self._record(B_LEFT, A_REVEAL, p, False)
            return 0
        v = self.board[p]
        if v == -1:
            self.cells[p] = C_BLAST
            self._flood(0, 0, True)
            self.status = S_LOST
            self._record(B_LEFT, A_REVEAL, p, True)
            return 4
        if v == 0:
            if self.region_flags[self._label(p)] == 0:
                self.bbbv_solved += 1
        elif self.own3bv[p]:
            self.bbbv_solved += 1
        self.lce += 1
        self._reveal(p, &top, &opened)
        self._flood(top, opened, False)
        self._settle()
        self._record(B_LEFT, A_REVEAL, p, True)
        return 2

    cdef int _right_click(self, int p) except -1:
        cdef int16_t v = self.cells[p]
        cdef int action
        self.right += 1
        if v < 10:
            self._record(B_RIGHT, A_MARK, p, False)
            return 0
        if v == C_HIDDEN:
            self.cells[p] = C_FLAG
            self._flag_changed(p, 1)
            self.flags += 1
            if self.board[p] == -1:
                if not self.flagged_once[p]:
                    self.rce += 1
                self.flagged_once[p] = 1
            action = A_FLAG
        elif v == C_FLAG:
            self.cells[p] = C_QUESTION if self.question_marks else C_HIDDEN
            self._flag_changed(p, -1)
            self.flags -= 1
            action = A_QUESTION if self.question_marks else A_UNFLAG
        else:
            self.cells[p] = C_HIDDEN
            action = A_UNMARK
        self._record(B_RIGHT, action, p, True)
        return 1

    cdef int _chord(self, int p) except -1:
        cdef int16_t v = self.cells[p]
        cdef int hidden[8]
        cdef int labels[8]
        cdef int nh = 0, nl = 0, flags = 0, around_bbbv = 0, d, q, i, j, lab
        cdef int16_t c
        cdef bint lost = False, seen
        cdef int top = 0, opened = 0
        self.double += 1
        if v >= 8:
            self._record(B_DOUBLE, A_CHORD, p, False)
            return 0
        for d in range(8):
            q = p + self.around[d]
            c = self.cells[q]
            if c == C_FLAG:
                flags += 1
            elif c == C_HIDDEN or (c == C_QUESTION and self.question_marks):
                hidden[nh] = q
                nh += 1
                if self.own3bv[q]:
                    around_bbbv += 1
        if flags != v or nh == 0:
            self._record(B_DOUBLE, A_CHORD, p, False)
            return 0
        for i in range(nh):
            if self.board[hidden[i]] == -1:
                lost = True
        self.dce += 1
        for i in range(nh):
            q = hidden[i]
            if self.board[q] == 0:
                lab = self._label(q)
                if self.region_flags[lab] == 0:
                    seen = False
                    for j in range(nl):
                        if labels[j] == lab:
                            seen = True
                    if not seen:
                        labels[nl] = lab
                        nl += 1
        self.bbbv_solved += around_bbbv + nl
        for i in range(nh):
            q = hidden[i]
            if self.board[q] == -1:
                self.cells[q] = C_BLAST
            else:
                self._reveal(q, &top, &opened)
        self._flood(top, opened, lost)
        if lost:
            self.status = S_LOST
        else:
            self._settle()
        self._record(B_DOUBLE, A_CHORD, p, True)
        return 4 if lost else 3

    cdef int _off_board_left(self) except -1:
        self.left += 1
        self._record(B_LEFT, A_REVEAL, -1, False)
        return 0

    cdef int _off_board_right(self) except -1:
        self.right += 1
        self._record(B_RIGHT, A_MARK, -1, False)
        return 0

    cdef int _uncount_right(self) except -1:
        cdef Py_ssize_t k, j
        if self.count_chord_right_press:
            return 0
        self.right -= 1
        if self.last_right >= 0:
            # Delete the right click's entry from the log.
            for k in range(self.last_right, self.log_len - 1):
                for j in range(L_COLUMNS):
                    self.logs[k, j] = self.logs[k + 1, j]
            self.log_len -= 1
            self.last_right = -1
        return 0

    cdef int _release_chord(self, bint on, int p, int after, bint uncount) except -1:
        self.mouse = after
        if uncount:
            self._uncount_right()
        if not on:
            return 0
        return self._chord(p)

    # ------------------------------------------------------------- events
    cpdef int step(self, int kind, int row, int col, int64_t event) except -1:
        """One event at (row, col), (-1, -1) off the board: the useful level (0-4)."""
        cdef int status = self.status
        cdef bint on = row >= 0
        cdef int p = (row + 1) * self.w + col + 1 if on else -1
        cdef int e = kind
        cdef int done
        # The cell indexes the board: checked here too (ClientBoard.step checks it
        # first, run and play before any event), so no caller can write off it.
        if ((<unsigned>row >= <unsigned>self.rows or <unsigned>col >= <unsigned>self.cols)
                and not (row == -1 and col == -1)):
            raise ValueError(f"cell ({row}, {col}) is not on the {self.rows}x{self.cols} "
                             "board, nor (-1, -1) for off the board")
        self.event = event
        if status == S_WON or status == S_LOST or e == K_MOVE:
            return 0
        if status != S_PLAYING:
            if e == K_LEFT:
                e = K_LEFT_UP if self.left_down else K_LEFT_DOWN
            elif e == K_RIGHT:
                e = K_RIGHT_UP if self.right_down else K_RIGHT_DOWN
            elif e == K_MIDDLE:
                e = K_MIDDLE_UP if self.middle else K_MIDDLE_DOWN
        if e == K_LEFT_DOWN:
            self.left_down = True
        elif e == K_LEFT_UP:
            self.left_down = False
        elif e == K_RIGHT_DOWN:
            self.right_down = True
        elif e == K_RIGHT_UP:
            self.right_down = False
        elif e == K_LEFT:
            self.left_down = not self.left_down
        elif e == K_RIGHT:
            self.right_down = not self.right_down
        if status == S_READY:
            done = self._ready(e, on, p)
        elif status == S_PREFLAGGING:
            done = self._preflagging(e, on, p)
        else:
            done = FALL
        if done != FALL:
            return done
        return self._playing(e, on, p)

    def run(self, const uint8_t[::1] kinds, const int32_t[::1] rows,
            const int32_t[::1] cols, const int64_t[::1] index):
        """Step through events until the game ends: (events used, position of the
        event that started the game or -1, position of the one that ended it or -1).
        Checks every event first (ValueError, nothing applied)."""
        cdef Py_ssize_t i, n = kinds.shape[0]
        cdef Py_ssize_t start = -1, end = -1, clicks
        cdef int was
        if index.shape[0] != n:
            raise ValueError("kinds, rows, cols and index must be 1-D arrays of one length")
        clicks = _check(self, kinds, rows, cols, NULL)
        if self.logs.shape[0] < self.log_len + clicks:
            self._grow(self.log_len + clicks)
        for i in range(n):
            was = self.status
            self.step(kinds[i], rows[i], cols[i], index[i])
            if self.status != was:
                if start < 0 and self.status >= S_PLAYING:
                    start = i
                if self.status == S_WON or self.status == S_LOST:
                    end = i
                    return i + 1, start, end
        return n, start, end

    def play(self, kinds, rows, cols, times):
        """fastmine.videos.play_video's events, all of a video's: None, having done
        nothing, unless they are four 1-D C-contiguous arrays of one non-zero length
        and of the types read_video gives (uint8 kinds, int32 rows and cols, int64
        times), else run over them with each event's position for its index, moves
        skipped (they change nothing).  Checks the events that are not moves first,
        as run does.  Returns (time of the event that started the game or None, time
        of the one that ended it or of the last event, the log as _frozen_log gives it).
        """
        cdef Py_ssize_t n
        if not (_vector(kinds, cnp.NPY_UINT8) and _vector(rows, cnp.NPY_INT32)
                and _vector(cols, cnp.NPY_INT32) and _vector(times, cnp.NPY_INT64)):
            return None
        n = cnp.PyArray_DIM(<cnp.ndarray>kinds, 0)
        if (n == 0 or cnp.PyArray_DIM(<cnp.ndarray>rows, 0) != n
                or cnp.PyArray_DIM(<cnp.ndarray>cols, 0) != n
                or cnp.PyArray_DIM(<cnp.ndarray>times, 0) != n):
            return None
        return _play(self, kinds, rows, cols, times)

    cdef int _ready(self, int e, bint on, int p) except -2:
        cdef int ms = self.mouse
        if e == K_MIDDLE_DOWN or e == K_MIDDLE_UP:
            return 0
        if e == K_LEFT_DOWN:
            if ms == UP_UP:
                self.mouse = DOWN_UP
                if on:
                    self.status = S_PREFLAGGING
            elif ms == UP_DOWN:
                self.mouse = CHORDING
            elif ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            return 0
        if e == K_PRE_FLAG:
            if not on or self.cells[p] != C_HIDDEN:
                return 0
            self.preflags += 1
            self.status = S_PREFLAGGING
            return self._right_click(p)
        if e == K_RIGHT_DOWN:
            if ms == UP_UP:
                self.mouse = UP_DOWN
                if on:
                    self.preflags = 1
                    self.status = S_PREFLAGGING
                    return self._right_click(p)
                return 0
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = CHORDING
                return 0
            return FALL
        if e == K_LEFT_UP:
            if ms == CHORDING or ms == CHORDING_NOT_FLAG:
                self.mouse = UP_DOWN
                return 0
            if ms == DOWN_UP_AFTER_CHORDING or ms == DOWN_UP or ms == UP_UP:
                self.mouse = UP_UP
                return 0
            return FALL
        if e == K_RIGHT_UP:
            if ms == UP_DOWN:
                self.mouse = UP_UP
                return 0
            if ms == CHORDING:
                self.mouse = DOWN_UP_AFTER_CHORDING
                return 0
            if ms == UP_UP:
                return 0
            return FALL
        if e == K_BOTH_DOWN:
            if ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            elif ms == DOWN_UP or ms == DOWN_UP_AFTER_CHORDING or ms == UP_DOWN or ms == UP_UP:
                self.mouse = CHORDING
            return 0
        return 0

    cdef int _preflagging(self, int e, bint on, int p) except -2:
        cdef int ms = self.mouse
        if e == K_LEFT_UP and ms == DOWN_UP:
            if not on:
                self.mouse = UP_UP
                if self.preflags == 0:
                    self.status = S_READY
                    self._clear_counts()
                    return 0
                return self._off_board_left()
            if self.cells[p] == C_HIDDEN:
                self.status = S_PLAYING
                self.mouse = UP_UP
                return self._left_click(p)
            self.left += 1
            self._record(B_LEFT, A_REVEAL, p, False)
            return 0
        if e == K_PRE_FLAG:
            if not on or self.cells[p] != C_HIDDEN:
                return 0
            self.preflags += 1
            return self._right_click(p)
        if e == K_RIGHT_DOWN:
            if ms == UP_UP:
                if not on:
                    self.mouse = UP_DOWN_NOT_FLAG
                    self._off_board_right()
                    return FALL
                self.mouse = UP_DOWN
                if self.cells[p] == C_HIDDEN:
                    self.preflags += 1
                else:
                    self.preflags -= 1
                    if self.preflags == 0:
                        self.status = S_READY
                        self._clear_counts()
                        if self.cells[p] == C_FLAG:
                            self._flag_changed(p, -1)
                        self.cells[p] = C_HIDDEN
                        return 0
                return self._right_click(p)
            if ms == DOWN_UP:
                self.mouse = CHORDING
                if on and self.preflags == 0:
                    self.status = S_READY
                return FALL
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = CHORDING
                return FALL
            return 0
        if e == K_BOTH_DOWN:
            if ms == DOWN_UP:
                if on and self.preflags == 0:
                    self.status = S_READY
                self.mouse = CHORDING
            elif ms == DOWN_UP_AFTER_CHORDING or ms == UP_DOWN or ms == UP_UP:
                self.mouse = CHORDING
            elif ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            return 0
        return FALL

    cdef int _playing(self, int e, bint on, int p) except -1:
        cdef int ms = self.mouse
        if e == K_LEFT_DOWN:
            if ms == UP_UP or ms == UNDEFINED:
                self.mouse = DOWN_UP
            elif ms == UP_DOWN:
                self.mouse = CHORDING
            elif ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
        elif e == K_LEFT_UP or e == K_LEFT:
            if ms == DOWN_UP:
                self.mouse = UP_UP
                if not on:
                    return self._off_board_left() if e == K_LEFT_UP else 0
                return self._left_click(p)
            if ms == CHORDING or ms == CHORDING_NOT_FLAG:
                return self._release_chord(on, p, UP_DOWN, ms == CHORDING_NOT_FLAG)
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = UP_UP
            elif e == K_LEFT:
                if ms == UP_UP:
                    self.mouse = DOWN_UP
                elif ms == UP_DOWN:
                    self.mouse = CHORDING
                elif ms == UP_DOWN_NOT_FLAG:
                    self.mouse = CHORDING_NOT_FLAG
                elif ms == UNDEFINED:
                    self.mouse = UP_UP
            elif ms == UNDEFINED:
                self.mouse = UP_UP
        elif e == K_RIGHT_DOWN or (e == K_RIGHT and (
                ms == UP_UP or ms == DOWN_UP or ms == DOWN_UP_AFTER_CHORDING)):
            if ms == UP_UP:
                if on:
                    self.mouse = UP_DOWN_NOT_FLAG if self.cells[p] < 10 else UP_DOWN
                    return self._right_click(p)
                self.mouse = UP_DOWN_NOT_FLAG
                self._off_board_right()
            elif ms == DOWN_UP or ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = CHORDING
            elif ms == UNDEFINED:
                self.mouse = UP_DOWN
        elif e == K_RIGHT_UP or e == K_RIGHT:
            if ms == UP_DOWN or ms == UP_DOWN_NOT_FLAG:
                self.mouse = UP_UP
            elif ms == CHORDING or ms == CHORDING_NOT_FLAG:
                return self._release_chord(on, p, DOWN_UP_AFTER_CHORDING,
                                           ms == CHORDING_NOT_FLAG)
            elif ms == UNDEFINED:
                self.mouse = UP_UP
        elif e == K_MIDDLE_DOWN:
            self.middle = True
        elif e == K_MIDDLE_UP or e == K_MIDDLE:
            self.middle = (not self.middle) if e == K_MIDDLE else False
            if not self.middle:
                if not on:
                    self.double += 1
                    self._record(B_DOUBLE, A_CHORD, -1, False)
                    return 0
                return self._chord(p)
        elif e == K_BOTH_DOWN:
            if ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            elif ms == DOWN_UP or ms == DOWN_UP_AFTER_CHORDING or ms == UP_DOWN or ms == UP_UP:
                self.mouse = CHORDING
        return 0


include "_over_bytes.pxi"
include "_clicks_video.pxi"
