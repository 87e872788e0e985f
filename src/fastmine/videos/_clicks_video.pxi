# A whole video in and out of the click kernel (_clicks.pyx includes this file after
# the ClickKernel class): the board laid from the mines, a video's events checked and
# played, the click log and the view handed back.  Functions of the kernel, not
# methods, only to keep _clicks.pyx a readable size; the arrays they write are the
# kernel's own, of its sizes, and what they are given they check first.

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The index of the first non-zero byte, in memory order, of 8 bytes read into w
       with memcpy (w != 0). */
    static inline int fastmine_first_byte(uint64_t w) {
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__)
    #  if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        return __builtin_ctzll(w) >> 3;
    #  else
        return __builtin_clzll(w) >> 3;
    #  endif
    #else
        unsigned char b[8];
        int i = 0;
        memcpy(b, &w, 8);
        while (!b[i]) i++;
        return i;
    #endif
    }
    """
    int fastmine_first_byte(uint64_t w) nogil


# fastmine's view codes (fastmine.viewcodes), by ms-toollib cell code 0-15; the view
# shows a finished game's mines by these (see ClickKernel.view).
cdef int8_t VIEW_OF[16]
for _code in range(16):
    VIEW_OF[_code] = _code
VIEW_OF[C_HIDDEN] = HIDDEN
VIEW_OF[C_FLAG] = FLAG
VIEW_OF[C_QUESTION] = QUESTION
VIEW_OF[C_WRONG] = WRONG_FLAG
VIEW_OF[C_BLAST] = EXPLODED
cdef int8_t V_MINE = MINE, V_FLAG = FLAG


cdef inline Py_ssize_t _next_click(const uint8_t[::1] kinds, Py_ssize_t i) noexcept:
    """The position of the first event from i on that is not a move (kind 0), or the
    number of events.  A video is mostly moves: they are skipped eight at a time."""
    cdef Py_ssize_t n = kinds.shape[0]
    cdef uint64_t word
    while i + 8 <= n:
        memcpy(&word, &kinds[i], 8)
        if word != 0:
            return i + fastmine_first_byte(word)
        i += 8
    while i < n and kinds[i] == K_MOVE:
        i += 1
    return i


cdef bint _vector(object a, int typenum):
    """Whether ``a`` is a 1-D C-contiguous native ndarray of that type."""
    if not cnp.PyArray_Check(a):
        return False
    cdef cnp.ndarray v = <cnp.ndarray>a
    return (cnp.PyArray_NDIM(v) == 1 and cnp.PyArray_TYPE(v) == typenum
            and cnp.PyArray_IS_C_CONTIGUOUS(v) and cnp.PyArray_ISNOTSWAPPED(v))


cdef int _lay(ClickKernel self, const uint8_t* m) except -1:
    """Lay the board from the mines ``m`` (bool, rows x cols, row by row): the ring,
    the numbers, each number's own 3BV, nothing flagged or labelled; returns the
    number of mines.  The kernel's arrays are allocated, of its own sizes."""
    cdef int rows = self.rows, cols = self.cols, w = self.w, r, c, nmines = 0
    cdef Py_ssize_t n = (rows + 2) * w, p, q
    # Local views: the compiler keeps their data pointers in registers.
    cdef int16_t[::1] board = self.board, cell = self.cells
    cdef uint8_t[::1] mine = self.own3bv       # first the padded mines, then the 3BV
    cdef int16_t s
    # No mine, no first flag anywhere; no zero region labelled yet (-1: all bits set).
    memset(&self.own3bv[0], 0, n * sizeof(uint8_t))
    memset(&self.flagged_once[0], 0, n * sizeof(uint8_t))
    memset(&self.region[0], 0xFF, n * sizeof(int32_t))
    memset(&self.region_flags[0], 0, n * sizeof(int32_t))
    # The ring: board -2 (neither a mine nor a number), cell 99 (never hidden).
    for c in range(w):
        board[c] = board[n - w + c] = -2
        cell[c] = cell[n - w + c] = C_BORDER
    for r in range(1, rows + 1):
        board[r * w] = board[r * w + w - 1] = -2
        cell[r * w] = cell[r * w + w - 1] = C_BORDER
    for r in range(rows):
        p = (r + 1) * w + 1
        for c in range(cols):
            mine[p + c] = m[r * cols + c] != 0
            nmines += mine[p + c]
            cell[p + c] = C_HIDDEN
    # The numbers: mines around each cell; -1 a mine (no branch: mines are random).
    for r in range(rows):
        p = (r + 1) * w + 1
        for c in range(cols):
            q = p + c
            s = (mine[q - w - 1] + mine[q - w] + mine[q - w + 1] + mine[q - 1]
                 + mine[q + 1] + mine[q + w - 1] + mine[q + w] + mine[q + w + 1])
            board[q] = s - (s + 1) * mine[q]
    # A number is a 3BV of its own when no 0 touches it (the ring's -2 is no 0).
    for r in range(rows):
        p = (r + 1) * w + 1
        for c in range(cols):
            q = p + c
            # Without branches: which cells are numbers and 0s is all but random.
            mine[q] = (board[q] > 0) & (
                (board[q - w - 1] != 0) & (board[q - w] != 0) & (board[q - w + 1] != 0)
                & (board[q - 1] != 0) & (board[q + 1] != 0) & (board[q + w - 1] != 0)
                & (board[q + w] != 0) & (board[q + w + 1] != 0))
    return nmines


cdef Py_ssize_t _check(ClickKernel self, const uint8_t[::1] kinds, const int32_t[::1] rows,
                       const int32_t[::1] cols, Py_ssize_t* at) except -1:
    """Raise ClientBoard.run's ValueError if an event has an unknown kind or a cell
    off the board other than (-1, -1); else return the number of events that are
    not moves.  With ``at`` (room for every event) it looks at those alone (play
    skips the moves) and writes their positions there."""
    cdef Py_ssize_t i, n = kinds.shape[0], clicks = 0
    cdef int k, top = 0, r, c
    cdef bint bad_cell = False
    if rows.shape[0] != n or cols.shape[0] != n:
        raise ValueError("kinds, rows, cols and index must be 1-D arrays of one length")
    i = 0 if at == NULL else _next_click(kinds, 0)
    while i < n:
        k = kinds[i]
        if k != K_MOVE:
            if at != NULL:
                at[clicks] = i
            clicks += 1
        if k > top:
            top = k
        r = rows[i]
        c = cols[i]
        # One unsigned comparison a side: -1 wraps past any size.
        bad_cell |= (<unsigned>r >= <unsigned>self.rows or <unsigned>c >= <unsigned>self.cols) \
            and not (r == -1 and c == -1)
        i = i + 1 if at == NULL else _next_click(kinds, i + 1)
    if top > K_MIDDLE:
        raise ValueError(f"unknown event kind {top}")
    if bad_cell:
        raise ValueError(f"a cell is neither on the {self.rows}x{self.cols} board nor "
                         "(-1, -1) for off the board")
    return clicks


cdef tuple _play(ClickKernel self, const uint8_t[::1] kinds, const int32_t[::1] rows,
                 const int32_t[::1] cols, const int64_t[::1] times):
    """ClickKernel.play, on arrays known to be of its types, of one non-zero length."""
    cdef Py_ssize_t i, j, n = kinds.shape[0]
    cdef Py_ssize_t start = -1, end = -1, clicks
    cdef int was
    # The clicks' positions, found once: the moves are skipped in one pass.
    cdef Py_ssize_t* at = <Py_ssize_t*>PyMem_Malloc(n * sizeof(Py_ssize_t))
    if at == NULL:
        raise MemoryError()
    try:
        clicks = _check(self, kinds, rows, cols, at)
        # Room for a log entry a click: no growing on the way.
        if self.logs.shape[0] < self.log_len + clicks:
            self._grow(self.log_len + clicks)
        for j in range(clicks):
            i = at[j]
            was = self.status
            self.step(kinds[i], rows[i], cols[i], i)
            if self.status != was:
                if start < 0 and self.status >= S_PLAYING:
                    start = i
                if self.status == S_WON or self.status == S_LOST:
                    end = i
                    break
    finally:
        PyMem_Free(at)
    return (None if start < 0 else times[start], times[end] if end >= 0 else times[n - 1],
            _frozen_log(self, times))


cdef tuple _frozen_log(ClickKernel self, const int64_t[::1] times):
    """The log as the arrays of a ClickLog, read-only for good: (time, event, button,
    action, row-major cell or -1, changed), the time of each entry ``times[event]``.

    Their memory is one bytes object's, so no view of them can be made writable.
    Raises ValueError, before anything is made, if an entry's event is not an
    index of ``times``.
    """
    cdef Py_ssize_t k = self.log_len, i, nt = times.shape[0]
    cdef int64_t e
    cdef int p, w = self.w, cols = self.cols
    for i in range(k):
        e = self.logs[i, L_EVENT]
        if e < 0 or e >= nt:
            raise ValueError(f"a click's event index {e} is not one of the {nt} times")
    data = PyBytes_FromStringAndSize(NULL, 27 * k)
    cdef char* base = PyBytes_AS_STRING(data)
    # The int64 columns first, so each starts 8-aligned (bytes' data is).
    cdef int64_t* time_ = <int64_t*>base
    cdef int64_t* event = time_ + k
    cdef int64_t* cell = event + k
    cdef uint8_t* button = <uint8_t*>(cell + k)
    cdef uint8_t* action = button + k
    cdef uint8_t* changed = action + k
    for i in range(k):
        e = self.logs[i, L_EVENT]
        time_[i] = times[e]
        event[i] = e
        p = <int>self.logs[i, L_CELL]
        cell[i] = (p // w - 1) * cols + p % w - 1 if p >= 0 else -1
        button[i] = <uint8_t>self.logs[i, L_BUTTON]
        action[i] = <uint8_t>self.logs[i, L_ACTION]
        changed[i] = self.logs[i, L_CHANGED] != 0
    return (_over(data, 0, k, cnp.NPY_INT64), _over(data, 8 * k, k, cnp.NPY_INT64),
            _over(data, 24 * k, k, cnp.NPY_UINT8), _over(data, 25 * k, k, cnp.NPY_UINT8),
            _over(data, 16 * k, k, cnp.NPY_INT64), _over(data, 26 * k, k, cnp.NPY_BOOL))


cdef object _view(ClickKernel self):
    """ClickKernel.view."""
    cdef cnp.npy_intp dims[2]
    dims[0] = self.rows
    dims[1] = self.cols
    out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT8, 0)
    cdef int8_t[:, ::1] o = out
    cdef int r, c, p
    cdef int16_t code
    cdef bint over = self.status == S_WON or self.status == S_LOST
    cdef int8_t shown = V_MINE if self.status == S_LOST else V_FLAG
    for r in range(self.rows):
        p = (r + 1) * self.w + 1
        for c in range(self.cols):
            code = self.cells[p + c]
            if over and self.board[p + c] == -1 and (code == C_HIDDEN or code == C_QUESTION):
                o[r, c] = shown
            else:
                o[r, c] = VIEW_OF[code]
    return out
