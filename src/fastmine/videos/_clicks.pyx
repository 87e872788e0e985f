# Private Cython kernel of fastmine.videos: the clients' click rules, one event at a time.
#
# The rules and their reasons are documented in fastmine.videos.clientrules (the
# Python layer over this kernel, which validates every argument); this is the same
# state machine, line for line, without Python objects on the way.
#
# The board is padded, as in fastmine._kernels: (rows + 2) x (cols + 2) cells with a
# ring whose board value (-2) is neither a mine nor a number and whose cell code (99)
# is never hidden, so a neighbour needs no bounds check and a flood fill stops at the
# ring by itself.  Every array is allocated here from sizes the kernel keeps itself.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t

import numpy as np
cimport numpy as cnp

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
    cdef int64_t[::1] log_event
    cdef int32_t[::1] log_cell
    cdef uint8_t[::1] log_button, log_action, log_changed
    cdef readonly Py_ssize_t log_len
    cdef Py_ssize_t last_right

    def __cinit__(self, cnp.ndarray board not None, cnp.ndarray own3bv not None,
                  int rows, int cols, int hidden_safe, bint question_marks,
                  bint count_chord_right_press):
        # board: the padded numbers (-1 a mine, -2 the ring), int16, (rows+2)*(cols+2);
        # own3bv: uint8, 1 where a number has no 0 around it.  Checked by the caller.
        cdef int w = cols + 2
        cdef Py_ssize_t n = (rows + 2) * w
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
        self.board = np.ascontiguousarray(board, dtype=np.int16).copy()
        self.own3bv = np.ascontiguousarray(own3bv, dtype=np.uint8).copy()
        cells = np.full(n, C_BORDER, dtype=np.int16)
        cells.reshape(rows + 2, w)[1:-1, 1:-1] = C_HIDDEN
        self.cells = cells
        self.region = np.full(n, -1, dtype=np.int32)
        self.region_flags = np.zeros(n, dtype=np.int32)
        self.stack = np.empty(n, dtype=np.int32)
        self.flagged_once = np.zeros(n, dtype=np.uint8)
        self.nregions = 0
        self.hidden_safe = hidden_safe
        self.question_marks = question_marks
        self.count_chord_right_press = count_chord_right_press
        self.status = S_READY
        self.mouse = UP_UP
        self.log_len = 0
        self._grow(64)
        self.last_right = -1

    # ------------------------------------------------------------- the log
    cdef void _grow(self, Py_ssize_t cap):
        cdef Py_ssize_t k = self.log_len
        ev = np.empty(cap, dtype=np.int64)
        cell = np.empty(cap, dtype=np.int32)
        button = np.empty(cap, dtype=np.uint8)
        action = np.empty(cap, dtype=np.uint8)
        changed = np.empty(cap, dtype=np.uint8)
        if k:
            ev[:k] = self.log_event[:k]
            cell[:k] = self.log_cell[:k]
            button[:k] = self.log_button[:k]
            action[:k] = self.log_action[:k]
            changed[:k] = self.log_changed[:k]
        self.log_event = ev
        self.log_cell = cell
        self.log_button = button
        self.log_action = action
        self.log_changed = changed

    cdef void _record(self, int button, int action, int p, bint changed):
        cdef Py_ssize_t k = self.log_len
        if k == self.log_event.shape[0]:
            self._grow(2 * k)
        if button == B_RIGHT:
            self.last_right = k
        self.log_event[k] = self.event
        self.log_cell[k] = p
        self.log_button[k] = button
        self.log_action[k] = action
        self.log_changed[k] = changed
        self.log_len = k + 1

    def log(self):
        """(event, button, action, padded cell or -1, changed) arrays of the counted clicks."""
        k = self.log_len
        return (np.asarray(self.log_event[:k]).copy(), np.asarray(self.log_button[:k]).copy(),
                np.asarray(self.log_action[:k]).copy(), np.asarray(self.log_cell[:k]).copy(),
                np.asarray(self.log_changed[:k]).astype(bool))

    def grid(self):
        """The padded cell codes, (rows + 2, cols + 2), a copy."""
        return np.asarray(self.cells).reshape(self.rows + 2, self.w).copy()

    cdef void _clear_counts(self):
        self.flags = 0
        self.flagged_once[:] = 0
        self.double = 0
        self.left = 0
        self.right = 0
        self.log_len = 0
        self.last_right = -1

    # ------------------------------------------------------------- the board
    cdef void _reveal(self, int p, int* top, int* opened):
        cdef int16_t v = self.board[p]
        if self.cells[p] >= 10:
            opened[0] += 1
        self.cells[p] = v
        if v == 0:
            self.stack[top[0]] = p
            top[0] += 1

    cdef void _flood(self, int top, int opened, bint blew):
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

    cdef int _label(self, int p):
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

    cdef void _flag_changed(self, int p, int delta):
        if self.board[p] == 0 and self.region[p] >= 0:
            self.region_flags[self.region[p]] += delta

    cdef void _settle(self):
        if self.hidden_safe == 0 and self.status != S_LOST:
            self.status = S_WON

    # ------------------------------------------------------------- clicks
    cdef int _left_click(self, int p):
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

    cdef int _right_click(self, int p):
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

    cdef int _chord(self, int p):
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

    cdef int _off_board_left(self):
        self.left += 1
        self._record(B_LEFT, A_REVEAL, -1, False)
        return 0

    cdef void _off_board_right(self):
        self.right += 1
        self._record(B_RIGHT, A_MARK, -1, False)

    cdef void _uncount_right(self):
        cdef Py_ssize_t k
        if self.count_chord_right_press:
            return
        self.right -= 1
        if self.last_right >= 0:
            # Delete the right click's entry from the log.
            for k in range(self.last_right, self.log_len - 1):
                self.log_event[k] = self.log_event[k + 1]
                self.log_cell[k] = self.log_cell[k + 1]
                self.log_button[k] = self.log_button[k + 1]
                self.log_action[k] = self.log_action[k + 1]
                self.log_changed[k] = self.log_changed[k + 1]
            self.log_len -= 1
            self.last_right = -1

    cdef int _release_chord(self, bint on, int p, int after, bint uncount):
        self.mouse = after
        if uncount:
            self._uncount_right()
        if not on:
            return 0
        return self._chord(p)

    # ------------------------------------------------------------- events
    cpdef int step(self, int kind, int row, int col, int64_t event):
        """One event at (row, col), (-1, -1) off the board: the useful level (0-4)."""
        cdef int status = self.status
        cdef bint on = row >= 0
        cdef int p = (row + 1) * self.w + col + 1 if on else -1
        cdef int e = kind
        cdef int done
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
        event that started the game or -1, position of the one that ended it or -1)."""
        cdef Py_ssize_t i, n = kinds.shape[0]
        cdef Py_ssize_t start = -1, end = -1
        cdef int was
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

    cdef int _ready(self, int e, bint on, int p):
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

    cdef int _preflagging(self, int e, bint on, int p):
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

    cdef int _playing(self, int e, bint on, int p):
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
