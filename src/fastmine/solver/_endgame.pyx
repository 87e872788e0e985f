# Private kernel of fastmine.solver.endgame: list the layouts, then search.
#
# ``layouts`` lists every mine layout of the undecided cells that satisfies the
# numbers (a backtracking over the cells in an order that closes constraints
# early).  ``search`` finds the move that wins most often over those layouts.
# A set of layouts is a bitset of nw 64-bit words; W(S), the best chance of
# winning from S, is memoised in an open-addressing hash table keyed by the
# bitset.  The Python layer (endgame.py) validates everything and builds the
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


cdef int _rec(Lister *e, int k, int64_t mines_left) noexcept nogil:
    """0 normally, 1 once more than ``limit`` layouts were found."""
    cdef int j, ok, cell, is_mine
    if mines_left < 0 or mines_left > e.n - k:
        return 0
    if k == e.n:
        if e.count >= e.limit:
            return 1
        memcpy(e.out + e.count * e.n, e.assign, e.n)
        e.count += 1
        return 0
    cell = e.order[k]
    for is_mine in range(2):
        ok = 1
        for j in range(e.start[k], e.start[k + 1]):
            e.left[e.cons[j]] -= 1
            e.need[e.cons[j]] -= is_mine
            if e.need[e.cons[j]] < 0 or e.need[e.cons[j]] > e.left[e.cons[j]]:
                ok = 0
        if ok:
            e.assign[cell] = is_mine
            if _rec(e, k + 1, mines_left - is_mine):
                return 1
        for j in range(e.start[k], e.start[k + 1]):
            e.left[e.cons[j]] += 1
            e.need[e.cons[j]] += is_mine
    e.assign[cell] = 0
    return 0


def layouts(const int32_t[::1] order, const int32_t[::1] start, const int32_t[::1] cons,
            int32_t[::1] need, int32_t[::1] left, int64_t mines, uint8_t[:, ::1] out):
    """Fill ``out`` with the layouts; their number, or -1 when there are more than fit."""
    cdef Lister e
    cdef int n = order.shape[0]
    cdef uint8_t *assign = <uint8_t *> calloc(n + 1, 1)
    cdef int over
    if assign == NULL:
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
    with nogil:
        if n == 0:
            # one layout (no cell), if the mine count fits
            over = 0
            if mines == 0:
                e.count = 1
        else:
            over = _rec(&e, 0, mines)
    free(assign)
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
    # scratch: one part bitset and one candidate list per recursion depth
    uint64_t *parts
    int32_t *cand
    int32_t *score
    int depth_cap


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


cdef double _split(Search *s, const uint64_t *S, int n, int cell, int depth) noexcept nogil:
    """Sum over the values v of |S(cell shows v)| * W(S(cell shows v)), divided by n."""
    cdef int nw = s.nw, v, k
    cdef uint64_t *part = s.parts + (depth + 1) * nw
    cdef double acc = 0.0
    for v in range(9):
        if not s.has[cell * 9 + v]:
            continue
        k = _and_count(part, S, s.vals + (cell * 9 + v) * nw, nw)
        if k:
            acc += k * _win(s, part, k, depth + 1)
            if s.aborted:
                return 0.0
    return acc / n


cdef double _win(Search *s, const uint64_t *S, int n, int depth) noexcept nogil:
    """W(S): the best chance of winning from the set S of ``n`` layouts."""
    cdef int nw = s.nw, ncell = s.ncell, i, v, m, parts, free_cell = -1, nc = 0, j, t, ti
    cdef int64_t slot
    cdef double best, w
    cdef int32_t *cand
    cdef int32_t *score
    if n == 1:
        return 1.0
    slot = _find(s, S)
    if s.used[slot]:
        return s.wins[slot]
    s.budget -= 1
    if s.budget < 0 or depth + 2 >= s.depth_cap:
        s.aborted = True
        return 0.0
    cand = s.cand + depth * ncell
    score = s.score + depth * ncell
    for i in range(ncell):
        m = _and_popcount(S, s.mine + i * nw, nw)
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
                if s.has[i * 9 + v] and _and_popcount(S, s.vals + (i * 9 + v) * nw, nw):
                    parts += 1
                    if parts > 1:
                        free_cell = i
                        break
    if nc == 0:
        best = 1.0
    elif free_cell >= 0:
        best = _split(s, S, n, free_cell, depth)
    else:
        best = 0.0
        for t in range(nc):
            if score[t] <= best * n:
                break       # cannot beat best even if it always won afterwards
            w = _split(s, S, n, cand[t], depth)
            if s.aborted:
                return 0.0
            if w > best:
                best = w
    if s.aborted:
        return 0.0
    # the table may have moved while the children were evaluated
    if 2 * (s.count + 1) > s.cap:
        if _grow(s) < 0:
            s.aborted = True
            return 0.0
    slot = _find(s, S)
    s.used[slot] = 1
    memcpy(s.keys + slot * nw, S, nw * sizeof(uint64_t))
    s.wins[slot] = best
    s.count += 1
    return best


def search(const int8_t[:, ::1] values, int64_t max_nodes):
    """The best first move over the layouts: ``(cell, chance)``.

    ``values[b, i]`` is what cell ``i`` shows in layout ``b`` (-1: a mine).
    Every cell that is not a mine in all layouts is a candidate.  Returns
    ``(-1, 0.0)`` when the node budget ran out, ``(-2, 0.0)`` when every cell
    is a mine in every layout.
    """
    cdef int nb = values.shape[0], ncell = values.shape[1]
    cdef int nw = (nb + 63) // 64, b, i, v, n, best_i = -2, depth_cap = nb + 4, nc, j, t
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
    s.mine = <uint64_t *> calloc(ncell * nw + 1, sizeof(uint64_t))
    s.vals = <uint64_t *> calloc(ncell * 9 * nw + 1, sizeof(uint64_t))
    s.has = <uint8_t *> calloc(ncell * 9 + 1, 1)
    s.keys = <uint64_t *> malloc(s.cap * nw * sizeof(uint64_t))
    s.wins = <double *> malloc(s.cap * sizeof(double))
    s.used = <uint8_t *> calloc(s.cap, 1)
    s.parts = <uint64_t *> malloc((depth_cap + 1) * nw * sizeof(uint64_t))
    s.cand = <int32_t *> malloc((depth_cap * ncell + 1) * sizeof(int32_t))
    s.score = <int32_t *> malloc((depth_cap * ncell + 1) * sizeof(int32_t))
    full = s.parts      # depth 0 holds the full set
    try:
        if (s.mine == NULL or s.vals == NULL or s.has == NULL or s.keys == NULL
                or s.wins == NULL or s.used == NULL or s.parts == NULL or s.cand == NULL
                or s.score == NULL):
            raise MemoryError()
        with nogil:
            memset(full, 0, nw * sizeof(uint64_t))
            for b in range(nb):
                full[b >> 6] |= (<uint64_t> 1) << (b & 63)
                for i in range(ncell):
                    v = values[b, i]
                    if v < 0:
                        s.mine[i * nw + (b >> 6)] |= (<uint64_t> 1) << (b & 63)
                    else:
                        s.vals[(i * 9 + v) * nw + (b >> 6)] |= (<uint64_t> 1) << (b & 63)
                        s.has[i * 9 + v] = 1
            # Top level: every cell that can be safe, safest first (so the
            # bound below prunes early).
            nc = 0
            for i in range(ncell):
                n = nb - _popcount(s.mine + i * nw, nw)
                if n == 0:
                    continue
                j = nc
                while j > 0 and s.score[j - 1] < n:
                    s.cand[j] = s.cand[j - 1]
                    s.score[j] = s.score[j - 1]
                    j -= 1
                s.cand[j] = i
                s.score[j] = n
                nc += 1
            # Depth 0's candidate row is reused by the recursion: copy it out.
            top = <int32_t *> malloc((nc + 1) * 2 * sizeof(int32_t))
            if top != NULL:
                memcpy(top, s.cand, nc * sizeof(int32_t))
                memcpy(top + nc, s.score, nc * sizeof(int32_t))
            else:
                s.aborted = True
                nc = 0
            for t in range(nc):
                i = top[t]
                n = top[nc + t]
                if n <= best_w * nb:
                    break
                w = _split(&s, full, nb, i, 0)
                if s.aborted:
                    break
                if w > best_w + 1e-12:     # ties keep the safer cell (seen first)
                    best_w = w
                    best_i = i
            free(top)
        if s.aborted:
            return -1, 0.0
        return best_i, (best_w if best_i >= 0 else 0.0)
    finally:
        free(s.mine)
        free(s.vals)
        free(s.has)
        free(s.keys)
        free(s.wins)
        free(s.used)
        free(s.parts)
        free(s.cand)
        free(s.score)
