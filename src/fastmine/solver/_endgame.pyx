# Private kernel of fastmine.solver.endgame: list the layouts, then search.
#
# ``layouts`` lists every mine layout of the undecided cells that satisfies the
# numbers (a backtracking over the cells in an order that closes constraints
# early, with an explicit stack: one entry per cell, so a 300x300 position
# cannot overflow the C stack).  ``search`` finds the move that wins most often over those layouts.
# A set of layouts is a bitset of nw 64-bit words; W(S), the best chance of
# winning from S, is memoised in an open-addressing hash table keyed by the
# bitset; the search too keeps its frames in arrays (one per depth), not on the
# C stack.  The Python layer (endgame.py) validates everything and builds the
# arrays; nothing here checks an index.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

cdef extern from *:
    # Defined by setup.py: 1 in a FASTMINE_DEBUG build.
    int FASTMINE_DEBUG_BUILD

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    static inline int fm_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    static inline int fm_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int fm_popcount64(unsigned long long x) noexcept nogil

BOUNDS_CHECKED = bool(FASTMINE_DEBUG_BUILD)


# ------------------------------------------------------------------ layouts

cdef struct Lister:
    int n                   # cells
    const int32_t *start    # CSR: constraints of the cell at position k
    const int32_t *cons
    const int32_t *order    # position k -> cell
    int32_t *need           # per constraint: mines still needed
    int32_t *left           # per constraint: cells not yet assigned
    uint8_t *assign         # per cell
    uint8_t *out
    int64_t count, limit


cdef inline bint _apply(Lister *e, int k, int is_mine) noexcept nogil:
    """Assign ``is_mine`` to the cell at position k in its constraints; False if one breaks."""
    cdef int j
    cdef bint ok = True
    for j in range(e.start[k], e.start[k + 1]):
        e.left[e.cons[j]] -= 1
        e.need[e.cons[j]] -= is_mine
        if e.need[e.cons[j]] < 0 or e.need[e.cons[j]] > e.left[e.cons[j]]:
            ok = False
    return ok


cdef inline void _undo(Lister *e, int k, int is_mine) noexcept nogil:
    cdef int j
    for j in range(e.start[k], e.start[k + 1]):
        e.left[e.cons[j]] += 1
        e.need[e.cons[j]] += is_mine


cdef int _list(Lister *e, int64_t mines, uint8_t *tried) noexcept nogil:
    """Depth-first over the positions, safe before mine; 0 normally, 1 once
    more than ``limit`` layouts were found.

    ``tried[k]`` (n bytes) is how many values position k has tried; the
    value applied at a position on the current path is ``tried[k] - 1``.
    The same order and the same layouts as a recursion over k would give.
    """
    cdef int n = e.n, k = 0, is_mine
    cdef int64_t left = mines          # mines still to place on positions k..n-1
    if left < 0 or left > n:
        return 0
    tried[0] = 0
    while k >= 0:
        if tried[k] == 2:
            # both values done here: back to the previous position, undoing it
            e.assign[e.order[k]] = 0
            k -= 1
            if k >= 0:
                is_mine = tried[k] - 1
                _undo(e, k, is_mine)
                left += is_mine
            continue
        is_mine = tried[k]
        tried[k] += 1
        if _apply(e, k, is_mine) and 0 <= left - is_mine <= n - k - 1:
            e.assign[e.order[k]] = is_mine
            if k + 1 == n:
                # a complete layout (left - is_mine == 0 here)
                if e.count >= e.limit:
                    return 1
                if e.out != NULL:
                    memcpy(e.out + e.count * n, e.assign, n)
                e.count += 1
                _undo(e, k, is_mine)
            else:
                left -= is_mine
                k += 1
                tried[k] = 0
        else:
            _undo(e, k, is_mine)
    return 0


def layouts(const int32_t[::1] order, const int32_t[::1] start, const int32_t[::1] cons,
            int32_t[::1] need, int32_t[::1] left, int64_t mines, uint8_t[:, ::1] out,
            int64_t limit=-1):
    """Fill ``out`` with the layouts; their number, or -1 when there are more than fit.

    With ``limit`` >= 0 and an ``out`` of no rows, only count (up to ``limit``).
    ``need`` and ``left`` are changed when the listing stops early.
    """
    cdef Lister e
    cdef int n = order.shape[0]
    cdef uint8_t *assign = <uint8_t *> calloc(n + 1, 1)
    cdef uint8_t *tried = <uint8_t *> calloc(n + 1, 1)
    cdef int over
    if assign == NULL or tried == NULL:
        free(assign)
        free(tried)
        raise MemoryError()
    e.n = n
    e.start = &start[0]
    e.cons = &cons[0] if cons.shape[0] else NULL
    e.order = &order[0] if n else NULL
    e.need = &need[0] if need.shape[0] else NULL
    e.left = &left[0] if left.shape[0] else NULL
    e.assign = assign
    e.out = &out[0, 0] if out.shape[0] and out.shape[1] else NULL
    e.count = 0
    e.limit = out.shape[0]
    if limit >= 0 and out.shape[0] == 0:
        e.limit = limit
        e.out = NULL
    with nogil:
        if n == 0:
            # one layout (no cell), if the mine count fits
            over = 0
            if mines == 0:
                e.count = 1
        else:
            over = _list(&e, mines, tried)
    free(assign)
    free(tried)
    return -1 if over else e.count


# ------------------------------------------------------------------ search

cdef struct Search:
    int nw, ncell
    uint64_t *mine          # [ncell][nw]: layouts where the cell is a mine
    uint64_t *vals          # [ncell][9][nw]: layouts where it is safe and shows v
    uint8_t *has            # [ncell][9]: whether vals[cell][v] is non-empty at all
    # memo: open addressing over bitset keys
    uint64_t *keys
    double *wins
    uint8_t *used
    int64_t cap, count
    int64_t budget
    bint aborted
    # scratch: one part bitset and one candidate list per depth
    uint64_t *parts
    int32_t *cand
    int32_t *score
    Py_ssize_t cand_cap     # entries of one depth's candidate list
    int depth_cap
    # the frames, one per depth: the split (its set's size, cell, next value,
    # sum so far, size of the part being evaluated) and the win frame
    # (mode 1: one free cell's split, 2: candidates; their count, the one
    # being evaluated, the best value so far)
    int32_t *sp_n
    int32_t *sp_cell
    int32_t *sp_v
    int32_t *sp_k
    double *sp_acc
    int32_t *f_mode
    int32_t *f_nc
    int32_t *f_t
    double *f_best


cdef inline int _popcount(const uint64_t *a, int nw) noexcept nogil:
    cdef int i, c = 0
    for i in range(nw):
        c += fm_popcount64(a[i])
    return c


cdef inline int _and_count(uint64_t *dst, const uint64_t *a, const uint64_t *b, int nw) noexcept nogil:
    cdef int i, c = 0
    cdef uint64_t x
    for i in range(nw):
        x = a[i] & b[i]
        dst[i] = x
        c += fm_popcount64(x)
    return c


cdef inline int _and_popcount(const uint64_t *a, const uint64_t *b, int nw) noexcept nogil:
    cdef int i, c = 0
    for i in range(nw):
        c += fm_popcount64(a[i] & b[i])
    return c


cdef inline uint64_t _hash(const uint64_t *k, int nw) noexcept nogil:
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(nw):
        h ^= k[i] + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)
        h *= 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 31)


cdef int _grow(Search *s) noexcept nogil:
    """Double the memo table; -1 when out of memory."""
    cdef int64_t cap = s.cap * 2, i, slot
    cdef int nw = s.nw
    cdef uint64_t *keys = <uint64_t *> malloc(cap * nw * sizeof(uint64_t))
    cdef double *wins = <double *> malloc(cap * sizeof(double))
    cdef uint8_t *used = <uint8_t *> calloc(cap, 1)
    if keys == NULL or wins == NULL or used == NULL:
        free(keys)
        free(wins)
        free(used)
        return -1
    for i in range(s.cap):
        if s.used[i]:
            slot = <int64_t> (_hash(s.keys + i * nw, nw) & <uint64_t> (cap - 1))
            while used[slot]:
                slot = (slot + 1) & (cap - 1)
            used[slot] = 1
            memcpy(keys + slot * nw, s.keys + i * nw, nw * sizeof(uint64_t))
            wins[slot] = s.wins[i]
    free(s.keys)
    free(s.wins)
    free(s.used)
    s.keys = keys
    s.wins = wins
    s.used = used
    s.cap = cap
    return 0


cdef int64_t _find(Search *s, const uint64_t *key) noexcept nogil:
    """The memo slot of ``key``: where it is, or the empty slot where it would go."""
    cdef int nw = s.nw
    cdef int64_t slot = <int64_t> (_hash(key, nw) & <uint64_t> (s.cap - 1))
    cdef int i
    cdef bint same
    while s.used[slot]:
        same = True
        for i in range(nw):
            if s.keys[slot * nw + i] != key[i]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & (s.cap - 1)
    return slot


# The search, W(S) and its splits, runs on explicit frames, one per depth d
# (depth 0 is the top level's split of the full set): the split at depth d
# breaks S_d (parts + d * nw, n_d layouts) by what one cell shows, and each
# non-empty part, S_{d+1}, gets a "win frame" at depth d + 1 that evaluates
# its candidate cells by splits at depth d + 1.  The arithmetic and its order
# are exactly those of the obvious recursion, so the values are identical.

cdef enum:
    PUSHED = 1      # a frame was started at the next depth
    DONE = 0        # the value is ready


cdef inline void _start_split(Search *s, int d, int n, int cell) noexcept nogil:
    s.sp_n[d] = n
    s.sp_cell[d] = cell
    s.sp_v[d] = 0
    s.sp_acc[d] = 0.0


cdef int _store(Search *s, const uint64_t *S, double best, double *out) noexcept nogil:
    """Memoise W(S) = best; DONE with ``out`` set (0.0 and aborted when out of memory)."""
    cdef int nw = s.nw
    cdef int64_t slot
    # the table may have moved while the children were evaluated
    if 2 * (s.count + 1) > s.cap:
        if _grow(s) < 0:
            s.aborted = True
            out[0] = 0.0
            return DONE
    slot = _find(s, S)
    s.used[slot] = 1
    memcpy(s.keys + slot * nw, S, nw * sizeof(uint64_t))
    s.wins[slot] = best
    s.count += 1
    out[0] = best
    return DONE


cdef int _enter(Search *s, const uint64_t *S, int n, int depth, double *out) noexcept nogil:
    """Begin W(S) for the set S (at parts + depth * nw) of ``n`` layouts.

    DONE with ``out`` set when the value is known at once (one layout, a memo
    hit, nothing undecided, or the budget ran out: then ``s.aborted``);
    PUSHED when a win frame at ``depth`` was started with its first split.
    """
    cdef int nw = s.nw, ncell = s.ncell, i, v, m, parts, free_cell = -1, nc = 0, j
    cdef int64_t slot
    cdef int32_t *cand
    cdef int32_t *score
    if n == 1:
        out[0] = 1.0
        return DONE
    slot = _find(s, S)
    if s.used[slot]:
        out[0] = s.wins[slot]
        return DONE
    s.budget -= 1
    if s.budget < 0 or depth + 2 >= s.depth_cap:
        s.aborted = True
        out[0] = 0.0
        return DONE
    cand = s.cand + <Py_ssize_t> depth * s.cand_cap
    score = s.score + <Py_ssize_t> depth * s.cand_cap
    for i in range(ncell):
        m = _and_popcount(S, s.mine + <Py_ssize_t> i * nw, nw)
        if m == n:
            continue
        if m:
            # undecided; insertion by safe count, largest first
            j = nc
            while j > 0 and score[j - 1] < n - m:
                cand[j] = cand[j - 1]
                score[j] = score[j - 1]
                j -= 1
            cand[j] = i
            score[j] = n - m
            nc += 1
        elif free_cell < 0:
            # safe in every layout of S: revealing it is free; use it if it splits S
            parts = 0
            for v in range(9):
                if s.has[i * 9 + v] and _and_popcount(S, s.vals + (<Py_ssize_t> i * 9 + v) * nw, nw):
                    parts += 1
                    if parts > 1:
                        free_cell = i
                        break
    if nc == 0:
        return _store(s, S, 1.0, out)
    s.f_nc[depth] = nc
    if free_cell >= 0:
        s.f_mode[depth] = 1
        _start_split(s, depth, n, free_cell)
    else:
        # the first candidate always runs (its safe count is positive)
        s.f_mode[depth] = 2
        s.f_t[depth] = 0
        s.f_best[depth] = 0.0
        _start_split(s, depth, n, cand[0])
    return PUSHED


cdef int _receive(Search *s, int depth, double w, double *out) noexcept nogil:
    """The win frame at ``depth`` gets the value ``w`` of its current split.

    PUSHED when it started its next split (at the same depth); DONE with
    W(S_depth) in ``out`` (memoised) when it has finished.
    """
    cdef int t, n = s.sp_n[depth]
    cdef int32_t *score = s.score + <Py_ssize_t> depth * s.cand_cap
    cdef int32_t *cand = s.cand + <Py_ssize_t> depth * s.cand_cap
    cdef double best
    if s.f_mode[depth] == 1:
        best = w
    else:
        if w > s.f_best[depth]:
            s.f_best[depth] = w
        t = s.f_t[depth] + 1
        s.f_t[depth] = t
        best = s.f_best[depth]
        # a candidate cannot beat best even if it always won afterwards
        if t < s.f_nc[depth] and not score[t] <= best * n:
            _start_split(s, depth, n, cand[t])
            return PUSHED
    return _store(s, s.parts + <Py_ssize_t> depth * s.nw, best, out)


cdef double _split(Search *s, int n, int cell) noexcept nogil:
    """Sum over the values v of |S(cell shows v)| * W(S(cell shows v)), divided
    by n, for the full set S (depth 0); 0.0 with ``s.aborted`` when the budget ran out."""
    cdef int nw = s.nw, d = 0, v, k
    cdef uint64_t *part
    cdef double r, w
    _start_split(s, 0, n, cell)
    while True:
        # advance the split at depth d to its next non-empty part
        while s.sp_v[d] < 9:
            v = s.sp_v[d]
            s.sp_v[d] = v + 1
            cell = s.sp_cell[d]
            if not s.has[cell * 9 + v]:
                continue
            part = s.parts + <Py_ssize_t> (d + 1) * nw
            k = _and_count(part, s.parts + <Py_ssize_t> d * nw,
                           s.vals + (<Py_ssize_t> cell * 9 + v) * nw, nw)
            if k == 0:
                continue
            s.sp_k[d] = k
            if _enter(s, part, k, d + 1, &r) == PUSHED:
                d += 1          # the new frame's first split runs next
                continue
            if s.aborted:
                return 0.0
            s.sp_acc[d] += k * r
        # the split at depth d is complete
        w = s.sp_acc[d] / s.sp_n[d]
        if d == 0:
            return w
        # hand it to its win frame: it starts its next split, or it is done
        # and its value goes to the split one depth up
        if _receive(s, d, w, &r) == DONE:
            if s.aborted:
                return 0.0
            d -= 1
            s.sp_acc[d] += s.sp_k[d] * r


def search(const int8_t[:, ::1] values, int64_t max_nodes):
    """The best first move over the layouts: ``(cell, chance)``.

    ``values[b, i]`` is what cell ``i`` shows in layout ``b`` (-1: a mine).
    Every cell that is not a mine in all layouts is a candidate.  Returns
    ``(-1, 0.0)`` when the node budget ran out, ``(-2, 0.0)`` when every cell
    is a mine in every layout.
    """
    cdef int nb = values.shape[0], ncell = values.shape[1]
    cdef int nw = (nb + 63) // 64, b, i, v, n, best_i = -2, depth_cap = nb + 4, nc, j, t
    cdef Py_ssize_t cnw = <Py_ssize_t> ncell * nw, undecided = 0, frames = depth_cap + 1
    cdef int32_t *top = NULL
    cdef double best_w = -1.0, w
    cdef Search s
    cdef uint64_t *full
    memset(&s, 0, sizeof(Search))
    s.nw = nw
    s.ncell = ncell
    s.cap = 1024
    s.budget = max_nodes
    s.depth_cap = depth_cap
    # Sizes in Py_ssize_t: cells x words (x 9) can pass 2**31.
    s.mine = <uint64_t *> calloc(cnw + 1, sizeof(uint64_t))
    s.vals = <uint64_t *> calloc(9 * cnw + 1, sizeof(uint64_t))
    s.has = <uint8_t *> calloc(<Py_ssize_t> ncell * 9 + 1, 1)
    s.keys = <uint64_t *> malloc(s.cap * nw * sizeof(uint64_t))
    s.wins = <double *> malloc(s.cap * sizeof(double))
    s.used = <uint8_t *> calloc(s.cap, 1)
    s.parts = <uint64_t *> malloc(frames * nw * sizeof(uint64_t))
    top = <int32_t *> malloc((<Py_ssize_t> ncell + 1) * 2 * sizeof(int32_t))
    s.sp_n = <int32_t *> malloc(frames * 7 * sizeof(int32_t))
    s.sp_acc = <double *> malloc(frames * 2 * sizeof(double))
    full = s.parts      # depth 0 holds the full set
    try:
        if (s.mine == NULL or s.vals == NULL or s.has == NULL or s.keys == NULL
                or s.wins == NULL or s.used == NULL or s.parts == NULL or top == NULL
                or s.sp_n == NULL or s.sp_acc == NULL):
            raise MemoryError()
        s.sp_cell = s.sp_n + frames
        s.sp_v = s.sp_n + 2 * frames
        s.sp_k = s.sp_n + 3 * frames
        s.f_mode = s.sp_n + 4 * frames
        s.f_nc = s.sp_n + 5 * frames
        s.f_t = s.sp_n + 6 * frames
        s.f_best = s.sp_acc + frames
        with nogil:
            memset(full, 0, nw * sizeof(uint64_t))
            for b in range(nb):
                full[b >> 6] |= (<uint64_t> 1) << (b & 63)
                for i in range(ncell):
                    v = values[b, i]
                    if v < 0:
                        s.mine[<Py_ssize_t> i * nw + (b >> 6)] |= (<uint64_t> 1) << (b & 63)
                    else:
                        s.vals[(<Py_ssize_t> i * 9 + v) * nw + (b >> 6)] |= (<uint64_t> 1) << (b & 63)
                        s.has[i * 9 + v] = 1
            # Top level: every cell that can be safe, safest first (so the
            # bound below prunes early).
            nc = 0
            for i in range(ncell):
                n = nb - _popcount(s.mine + <Py_ssize_t> i * nw, nw)
                if n == 0:
                    continue
                undecided += n < nb
                j = nc
                while j > 0 and top[ncell + j - 1] < n:
                    top[j] = top[j - 1]
                    top[ncell + j] = top[ncell + j - 1]
                    j -= 1
                top[j] = i
                top[ncell + j] = n
                nc += 1
        # Deeper candidates are undecided at the top too: one list of that
        # many per depth (not one of every cell).
        s.cand_cap = undecided + 1
        s.cand = <int32_t *> malloc(frames * s.cand_cap * sizeof(int32_t))
        s.score = <int32_t *> malloc(frames * s.cand_cap * sizeof(int32_t))
        if s.cand == NULL or s.score == NULL:
            raise MemoryError()
        with nogil:
            for t in range(nc):
                i = top[t]
                n = top[ncell + t]
                if n <= best_w * nb:
                    break
                w = _split(&s, nb, i)
                if s.aborted:
                    break
                if w > best_w + 1e-12:     # ties keep the safer cell (seen first)
                    best_w = w
                    best_i = i
        if s.aborted:
            return -1, 0.0
        return best_i, (best_w if best_i >= 0 else 0.0)
    finally:
        free(top)
        free(s.mine)
        free(s.vals)
        free(s.has)
        free(s.keys)
        free(s.wins)
        free(s.used)
        free(s.parts)
        free(s.cand)
        free(s.score)
        free(s.sp_n)
        free(s.sp_acc)
