# Whole-board parts of the batch kernel (_batch.pyx includes this file): the
# neighbour counts from a game's mine array, the view of a lost and of a won
# game, the chord part of the action mask.  Each takes one game's arrays
# (padded state of (rows + 2) x (cols + 2) cells, unpadded view) and sizes.


cdef extern from *:
    """
    /* The neighbour counts of a padded board from its 0/1 mine array: every
       cell of the inner rows sums its eight neighbours (the ring columns get
       sums too, never read).  Byte adds over the whole rows: the compiler
       makes them vector adds, 16 cells at a time, about four times fewer
       operations than adding one around each mine (eight read-modify-writes
       a mine, 792 at Expert). */
    static void fmb_counts(int8_t* restrict pc, const uint8_t* restrict pm,
                           Py_ssize_t W, Py_ssize_t P) {
        for (Py_ssize_t x = W + 1; x < P - W - 1; x++)
            pc[x] = (int8_t)(pm[x - W - 1] + pm[x - W] + pm[x - W + 1] + pm[x - 1]
                             + pm[x + 1] + pm[x + W - 1] + pm[x + W] + pm[x + W + 1]);
    }
    """
    void fmb_counts(int8_t* pc, const uint8_t* pm, Py_ssize_t W, Py_ssize_t P) noexcept nogil


cdef void count_from_mask(int8_t* pc, const uint8_t* pm, Py_ssize_t W, Py_ssize_t P) noexcept nogil:
    """The neighbour counts of a board (``P`` padded cells, rows ``W`` wide) from
    its 0/1 mine array, whose ring is 0 (a mine's own count leaves it out)."""
    FMB_CHECK(P >= 3 * W and W >= 3, "count: a padded board")
    fmb_counts(pc, pm, W, P)


cdef void mark_mines(int8_t* pc, const uint32_t* ml, Py_ssize_t mines, Py_ssize_t W,
                     Py_ssize_t P) noexcept nogil:
    """Mark each mine of a game's list in its counts (PC_MINE: no count is
    negative, and the flood fill opens only cells whose count is 0 or more
    next to a 0, which a mine never is)."""
    cdef Py_ssize_t j, q
    for j in range(mines):
        q = ml[j]
        FMB_CHECK(q > W and q < P - W, "mark: mine on the board")
        pc[q] = PC_MINE


cdef void lost_view(int8_t* view, const int8_t* pc, const uint8_t* st, const uint32_t* ml,
                    const uint32_t* vof, Py_ssize_t mines, bint any_flag, Py_ssize_t rows,
                    Py_ssize_t cols) noexcept nogil:
    """Show every hidden mine and mark every wrong flag (fastmine.Game's lost view)."""
    cdef Py_ssize_t r, c, o = 0, W = cols + 2, j, q
    cdef const int8_t* pcr
    cdef const uint8_t* str_
    cdef int8_t v
    cdef uint8_t m, hid, wrong
    if not any_flag:
        # No flag, so no wrong flag: visit the mines only (a whole-board scan
        # was 40% of a random agent's steps at Expert).
        for j in range(mines):
            q = ml[j]
            if st[q] == ST_HIDDEN:
                FMB_CHECK(vof[q] < <uint32_t>(rows * cols), "lost view: mine on the board")
                view[vof[q]] = V_MINE
        return
    # Branch-free over every cell (a mine is a coin flip to the predictor).
    for r in range(1, rows + 1):
        pcr = pc + r * W + 1
        str_ = st + r * W + 1
        for c in range(cols):
            m = (<uint8_t>pcr[c]) >> 7      # PC_MINE is the only negative count
            v = view[o + c]
            hid = m & (str_[c] == ST_HIDDEN)
            wrong = (m ^ 1) & (str_[c] == ST_FLAG)
            view[o + c] = <int8_t>(v + hid * (V_MINE - v) + wrong * (V_WRONG_FLAG - v))
        o += cols


cdef Py_ssize_t flag_mines(int8_t* view, uint8_t* st, const uint32_t* ml, const uint32_t* vof,
                           Py_ssize_t mines) noexcept nogil:
    """Flag every mine not flagged yet (a won game's view); returns how many."""
    cdef Py_ssize_t j, q, added = 0
    for j in range(mines):
        q = ml[j]
        if st[q] != ST_FLAG:
            st[q] = ST_FLAG
            view[vof[q]] = V_FLAG
            added += 1
    return added


cdef void chord_mask(uint8_t* m, const uint8_t* st, const int8_t* view, const Py_ssize_t* off,
                     Py_ssize_t rows, Py_ssize_t cols) noexcept nogil:
    """The chord part of a game's mask: numbers whose flags match and that have
    a hidden neighbour (``off``: the 8 padded neighbour offsets)."""
    cdef Py_ssize_t r, c, p, k, o = 0, W = cols + 2, flagged, hidden
    for r in range(1, rows + 1):
        p = r * W + 1
        for c in range(cols):
            m[o] = 0
            if view[o] >= 0:
                flagged = 0
                hidden = 0
                for k in range(8):
                    if st[p + c + off[k]] == ST_FLAG:
                        flagged += 1
                    elif st[p + c + off[k]] == ST_HIDDEN:
                        hidden += 1
                m[o] = flagged == view[o] and hidden > 0
            o += 1
