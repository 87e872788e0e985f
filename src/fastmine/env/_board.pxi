# Whole-board parts of the batch kernel (_batch.pyx includes this file, after
# _rng.pxi): a board's mines laid from its seed, the neighbour counts from a
# game's mine array, the view of a lost and of a won
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


cdef inline Py_ssize_t draw_below(Rng* rng, Py_ssize_t n, const uint64_t* fmod) noexcept nogil:
    """A draw below n from a board's stream, as Board.generate draws it (``fmod``:
    the remainders' table of small boards, or NULL: larger boards divide)."""
    if fmod != NULL:
        return <Py_ssize_t>rng_below_m(rng, <uint64_t>n, fmod[n])
    return <Py_ssize_t>rng_below(rng, <uint64_t>n)


cdef void lay_mines(uint8_t* pm, uint32_t* ml, uint32_t* cand, const uint32_t* allc,
                    const uint64_t* fmod, uint64_t seed, Py_ssize_t rows, Py_ssize_t cols,
                    Py_ssize_t mines, Py_ssize_t fr, Py_ssize_t fc,
                    Py_ssize_t radius) noexcept nogil:
    """fastmine._kernels.lay_mines: ``mines`` mines drawn from ``seed``, none
    within ``radius`` of the first click (fr, fc) (-1: anywhere), into ``pm``
    (the padded board, 0/1, cleared here) and ``ml`` (their padded cells).
    ``cand``: room for every cell; ``allc``: every cell's padded index, row-major."""
    cdef Py_ssize_t N = rows * cols, n_allowed = 0, r, k, j, r0, r1, c0, c1, start, stop
    cdef uint32_t tmp
    cdef Rng rng
    memset(pm, 0, (rows + 2) * (cols + 2))
    rng_seed(&rng, seed)
    # The allowed cells in row-major order (the order Board.generate shuffles):
    # every cell (the table allc) with the safe block's cells left out, in at
    # most four runs copied whole.
    if radius < 0:
        memcpy(cand, allc, N * sizeof(uint32_t))
        n_allowed = N
    else:
        r0 = max(fr - radius, 0)
        r1 = min(fr + radius, rows - 1)
        c0 = max(fc - radius, 0)
        c1 = min(fc + radius, cols - 1)
        start = 0
        for r in range(r0, r1 + 1):
            stop = r * cols + c0                # up to the block's first cell in row r
            memcpy(cand + n_allowed, allc + start, (stop - start) * sizeof(uint32_t))
            n_allowed += stop - start
            start = r * cols + c1 + 1
        memcpy(cand + n_allowed, allc + start, (N - start) * sizeof(uint32_t))
        n_allowed += N - start
    FMB_CHECK(n_allowed >= mines and n_allowed <= N, "lay: room for the mines")
    # Fisher-Yates, cut short: draw r swaps a random later cell to place r.  A
    # place is never read after its draw, so only the drawn cell is kept (as a
    # mine, or with a dense board as a safe cell: then the mines are the cells
    # left at places k and on).
    if mines <= n_allowed - mines:
        for r in range(mines):
            j = r + draw_below(&rng, n_allowed - r, fmod)
            tmp = cand[j]
            cand[j] = cand[r]
            pm[tmp] = 1
            ml[r] = tmp
    else:
        k = n_allowed - mines
        for j in range(n_allowed):
            pm[cand[j]] = 1
        for r in range(k):
            j = r + draw_below(&rng, n_allowed - r, fmod)
            tmp = cand[j]
            cand[j] = cand[r]
            pm[tmp] = 0
        memcpy(ml, cand + k, mines * sizeof(uint32_t))
