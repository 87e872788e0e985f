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
#
# The two states a reveal may open are 0 and 1, so "openable" is one test,
# ``(s & 0xFE) == 0``, that also works on eight cells at once (see fm_* below).
cdef enum:
    ST_HIDDEN = 0
    ST_QUESTION = 1
    ST_REVEALED = 2
    ST_FLAG = 3

# View codes: must match fastmine.viewcodes.
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

# Eight cells at a time.  A word is read with memcpy (no alignment or aliasing
# assumption; compilers turn it into one load).  Only whole-word "all" / "none"
# questions are asked, so byte order does not matter.  Every caller reads a
# word only where all eight bytes lie inside one padded row (ring included),
# so a word never leaves the buffer.
cdef extern from *:
    """
    #include <string.h>
    #include <stdint.h>
    #define FM_ONES 0x0101010101010101ULL
    #define FM_HIGH 0x8080808080808080ULL
    #define FM_NOT_OPENABLE 0xFEFEFEFEFEFEFEFEULL
    static inline uint64_t fm_load8(const void* p) { uint64_t v; memcpy(&v, p, 8); return v; }
    /* some byte of v is 0 (exact) */
    static inline int fm_has_zero(uint64_t v) { return ((v - FM_ONES) & ~v & FM_HIGH) != 0; }
    /* all 8 cells are openable zeros: state 0/1 and count 0 */
    static inline int fm_all_open_zero(const uint8_t* st, const int8_t* pc) {
        return ((fm_load8(st) & FM_NOT_OPENABLE) | fm_load8(pc)) == 0;
    }
    /* none of the 8 cells is openable */
    static inline int fm_none_openable(const uint8_t* st) {
        return !fm_has_zero(fm_load8(st) & FM_NOT_OPENABLE);
    }
    /* all 8 cells are safe zeros (no mine, count 0) */
    static inline int fm_all_zero_cells(const uint8_t* pm, const int8_t* pc) {
        return (fm_load8(pm) | fm_load8(pc)) == 0;
    }
    /* none of the 8 cells is a safe zero */
    static inline int fm_no_zero_cell(const uint8_t* pm, const int8_t* pc) {
        return !fm_has_zero(fm_load8(pm) | fm_load8(pc));
    }
    /* none of the 8 cells is a mine */
    static inline int fm_no_mine(const uint8_t* pm) { return fm_load8(pm) == 0; }
    /* none of the 8 cells is in state s */
    static inline int fm_none_in_state(const uint8_t* st, uint8_t s) {
        return !fm_has_zero(fm_load8(st) ^ (FM_ONES * s));
    }
    """
    bint fm_all_open_zero(const uint8_t* st, const int8_t* pc) noexcept nogil
    bint fm_no_mine(const uint8_t* pm) noexcept nogil
    bint fm_none_in_state(const uint8_t* st, uint8_t s) noexcept nogil
    bint fm_none_openable(const uint8_t* st) noexcept nogil
    bint fm_all_zero_cells(const uint8_t* pm, const int8_t* pc) noexcept nogil
    bint fm_no_zero_cell(const uint8_t* pm, const int8_t* pc) noexcept nogil

# Rows as bits (3BV): bit j of a row is its real cell j.  Portable: the
# builtins where the compiler has them, plain loops elsewhere; the word trick
# that packs eight cells into eight bits assumes little-endian byte order, so
# a big-endian build packs them one at a time.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define fm_ctz64(x) __builtin_ctzll(x)
    #define fm_popcount64(x) __builtin_popcountll(x)
    #elif defined(_MSC_VER) && defined(_M_X64)
    #include <intrin.h>
    static inline int fm_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #define fm_popcount64(x) ((int)__popcnt64(x))
    #else
    static inline int fm_ctz64(uint64_t x) { int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i; }
    static inline int fm_popcount64(uint64_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
    #endif
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    #define FM_LITTLE 0
    #else
    #define FM_LITTLE 1
    #endif

    /* Bits of the zero cells (pm | pc == 0) of one row: cells m[0..ncols-1],
       c[0..ncols-1]; writes (ncols + 63) / 64 words.  Reads only those cells.
       Returns the row's mines (pm is 0 or 1: eight bytes sum by one multiply). */
    static Py_ssize_t fm_zero_bits(const uint8_t* m, const int8_t* c, Py_ssize_t ncols, uint64_t* out) {
        Py_ssize_t j = 0, w, mines = 0;
        Py_ssize_t nw = (ncols + 63) / 64;
        for (w = 0; w < nw; w++) out[w] = 0;
        if (FM_LITTLE) {
            for (; j + 8 <= ncols; j += 8) {
                uint64_t mw = fm_load8(m + j);
                uint64_t v = mw | fm_load8(c + j);
                /* high bit of each byte: that byte is 0 (exact, no carries) */
                uint64_t t = ~(((v & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | v) & FM_HIGH;
                uint64_t bits = ((t >> 7) * 0x0102040810204080ULL) >> 56;
                out[j >> 6] |= bits << (j & 63);
                mines += (Py_ssize_t)((mw * FM_ONES) >> 56);
            }
        }
        for (; j < ncols; j++) {
            mines += m[j];
            if ((m[j] | (uint8_t)c[j]) == 0) out[j >> 6] |= 1ULL << (j & 63);
        }
        return mines;
    }

    /* The runs of set bits of a row of nw words, as inclusive (first + s, first + e)
       pairs into out (room for 32 * nw pairs: runs are at least one bit apart); returns how many. */
    static Py_ssize_t fm_runs(const uint64_t* bits, Py_ssize_t nw, Py_ssize_t first, Py_ssize_t* out) {
        Py_ssize_t w, k = 0, open = -1;
        for (w = 0; w < nw; w++) {
            uint64_t x = bits[w];
            Py_ssize_t b = 64 * w;
            if (open >= 0) {
                uint64_t y = ~x;
                if (y == 0) continue;
                int t = fm_ctz64(y);
                out[2 * k] = first + open; out[2 * k + 1] = first + b + t - 1; k++;
                open = -1;
                x &= ~0ULL << t;
            }
            while (x) {
                int s = fm_ctz64(x);
                uint64_t y = ~x & (~0ULL << s);
                if (y == 0) { open = b + s; break; }
                int t = fm_ctz64(y);
                out[2 * k] = first + b + s; out[2 * k + 1] = first + b + t - 1; k++;
                x &= ~0ULL << t;
            }
        }
        if (open >= 0) { out[2 * k] = first + open; out[2 * k + 1] = first + 64 * nw - 1; k++; }
        return k;
    }
    """
    int fm_popcount64(uint64_t x) noexcept nogil
    Py_ssize_t fm_zero_bits(const uint8_t* m, const int8_t* c, Py_ssize_t ncols, uint64_t* out) noexcept nogil
    Py_ssize_t fm_runs(const uint64_t* bits, Py_ssize_t nw, Py_ssize_t first, Py_ssize_t* out) noexcept nogil

# Move kinds of the move log (GameCore): code = padded cell * 8 + kind, plus
# MV_ASSIST for a solver's move.  The moves write them; nothing else does.
# A mark says which cycle it used (the setting may change mid-game):
# MV_MARK through the question mark, MV_MARK_PLAIN flag <-> hidden.
cdef enum:
    MV_REVEAL = 0
    MV_MARK = 1
    MV_CHORD = 2
    MV_MARK_PLAIN = 3
    MV_ASSIST = 4

# Exported so the Python layer and tests share one definition.
STATE_HIDDEN = ST_HIDDEN
STATE_REVEALED = ST_REVEALED
STATE_FLAG = ST_FLAG
STATE_QUESTION = ST_QUESTION
MOVE_REVEAL = MV_REVEAL
MOVE_MARK = MV_MARK
MOVE_CHORD = MV_CHORD
MOVE_MARK_PLAIN = MV_MARK_PLAIN
MOVE_ASSIST = MV_ASSIST


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

cdef inline Py_ssize_t uf_find(Py_ssize_t* parent, Py_ssize_t i) noexcept nogil:
    # Path halving: iterative, and each find shortens the path for the next.
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


def bbbv_openings(const uint8_t[::1] pm, const int8_t[::1] pc, Py_ssize_t rows,
                  Py_ssize_t cols):
    """Return (3BV, number of openings) of a padded board.

    An opening is an 8-connected region of safe zero cells; one click clears it
    and its border.  3BV = openings + safe numbered cells with no zero
    neighbour (each needs its own click).

    Each row becomes a row of bits (1 = safe zero cell), eight cells per step.
    The cells some opening uncovers are then, per row, the bits of the rows
    above, at and below or-ed and widened by one, counted by popcount; the
    singles are the other safe cells.  Openings = runs of set bits minus the
    unions of runs that touch across adjacent rows (union-find over run
    numbers).  The work per row is a few word operations plus a little per run.
    """
    check_padded(pm.shape[0], rows, cols)
    check_padded(pc.shape[0], rows, cols)
    cdef Py_ssize_t W = cols + 2
    cdef Py_ssize_t nw = (cols + 63) // 64
    cdef Py_ssize_t r, a, end, i, j, k, ri, rk, w
    cdef Py_ssize_t mines = 0, merges = 0, covered = 0, nruns
    cdef uint64_t u, left, right, last_mask
    cdef const uint8_t* m = &pm[0]
    cdef const int8_t* cnt = &pc[0]
    cdef uint64_t* bits = NULL
    cdef uint64_t* up
    cdef uint64_t* mid
    cdef uint64_t* down
    cdef Py_ssize_t* rowstart = NULL
    cdef Py_ssize_t* parent = NULL
    cdef IdxBuf runs
    runs.data = NULL
    last_mask = ~(<uint64_t>0) if cols % 64 == 0 else ((<uint64_t>1) << (cols % 64)) - 1
    rowstart = <Py_ssize_t*>malloc((rows + 3) * sizeof(Py_ssize_t))
    # rows + 2 bit rows: the ring rows stay 0 (no zero cell there).
    bits = <uint64_t*>calloc((rows + 2) * nw, sizeof(uint64_t))
    if rowstart == NULL or bits == NULL:
        free(rowstart)
        free(bits)
        raise MemoryError("fastmine: out of memory computing 3BV")
    try:
        buf_init(&runs, 256)
        with nogil:
            rowstart[0] = 0
            rowstart[1] = 0
            for r in range(1, rows + 1):
                mines += fm_zero_bits(m + r * W + 1, cnt + r * W + 1, cols, bits + r * nw)
                # Pass 1: the runs of zero cells ((a, b) padded, inclusive).
                buf_reserve(&runs, 64 * nw + 2)    # at most 32 * nw runs, two entries each
                k = fm_runs(bits + r * nw, nw, r * W + 1, runs.data + runs.size)
                runs.size += 2 * k
                rowstart[r + 1] = runs.size // 2
            rowstart[rows + 2] = rowstart[rows + 1]
            nruns = runs.size // 2
            # Uncovered safe cells: per row, (up | mid | down) widened by one.
            for r in range(1, rows + 1):
                up = bits + (r - 1) * nw
                mid = bits + r * nw
                down = bits + (r + 1) * nw
                for w in range(nw):
                    u = up[w] | mid[w] | down[w]
                    left = (up[w - 1] | mid[w - 1] | down[w - 1]) if w > 0 else 0
                    right = (up[w + 1] | mid[w + 1] | down[w + 1]) if w + 1 < nw else 0
                    u = u | (u << 1) | (u >> 1) | (left >> 63) | (right << 63)
                    if w + 1 == nw:
                        u &= last_mask
                    covered += fm_popcount64(u)
        parent = <Py_ssize_t*>malloc((nruns if nruns > 0 else 1) * sizeof(Py_ssize_t))
        if parent == NULL:
            raise MemoryError("fastmine: out of memory computing 3BV")
        with nogil:
            # A run touches a run of the row above when their columns, one
            # widened by one cell each side, overlap (8-connectivity).
            for i in range(nruns):
                parent[i] = i
            for r in range(2, rows + 1):
                j = rowstart[r - 1]
                for i in range(rowstart[r], rowstart[r + 1]):
                    a = runs.data[2 * i] - W
                    end = runs.data[2 * i + 1] - W
                    while j < rowstart[r] and runs.data[2 * j + 1] < a - 1:
                        j += 1
                    k = j
                    ri = i              # run i is alone until its first touch
                    while k < rowstart[r] and runs.data[2 * k] <= end + 1:
                        rk = uf_find(parent, k)
                        if ri != rk:
                            merges += 1
                            # Link to the smaller number: the older run's set.
                            if ri < rk:
                                parent[rk] = ri
                            else:
                                parent[ri] = rk
                                ri = rk
                        k += 1
    finally:
        buf_free(&runs)
        free(rowstart)
        free(parent)
        free(bits)
    openings = nruns - merges
    return openings + (rows * cols - mines - covered), openings


# --------------------------------------------------------------------------
# Game core: the move kernels over one game's padded arrays
# --------------------------------------------------------------------------

# Changed cells are recorded as runs: (first padded cell, length), each run
# inside one row.  A cell that continues the last run extends it, so a flood
# records about one entry per row it crosses instead of one per cell.
cdef inline int rec(IdxBuf* b, Py_ssize_t p, Py_ssize_t length) except -1 nogil:
    if b.size and b.data[b.size - 2] + b.data[b.size - 1] == p:
        b.data[b.size - 1] += length
        return 0
    if b.size + 2 > b.cap:
        buf_reserve(b, 2)
    b.data[b.size] = p
    b.data[b.size + 1] = length
    b.size += 2
    return 0


cdef struct Fill:
    # One flood fill's arrays and buffers, passed by pointer so the stores
    # through the byte arrays cannot make the compiler reload them.
    uint8_t* st
    int8_t* view
    const int8_t* pc
    Py_ssize_t n
    Py_ssize_t W
    Py_ssize_t opened
    IdxBuf* changes
    IdxBuf* spans


cdef inline int open_one(Fill* f, Py_ssize_t x) except -1 nogil:
    """Reveal the openable cell x (a number next to a zero)."""
    f.st[x] = ST_REVEALED
    f.view[x] = f.pc[x]
    f.opened += 1
    rec(f.changes, x, 1)
    return 0


cdef Py_ssize_t open_run(Fill* f, Py_ssize_t x, bint clicked) except -1 nogil:
    """x is an openable zero: reveal its whole run of openable zeros in the row
    and the openable cells at both ends, queue the run for the rows above and
    below, and return the run's last cell.  ``clicked``: x is the cell the move
    acted on, and is recorded first (callers report a move's cell as the first
    changed cell)."""
    cdef uint8_t* st = f.st
    cdef const int8_t* pc = f.pc
    cdef Py_ssize_t a = x, b = x, i
    # The ring is revealed, never openable: no run leaves its row.
    while (st[a - 1] & 0xFE) == 0 and pc[a - 1] == 0:
        a -= 1
    # A word is read only while its last byte is inside the buffer; a window
    # that reaches the ring fails the test, so it never crosses the row.
    while b + 9 <= f.n and fm_all_open_zero(st + b + 1, pc + b + 1):
        b += 8
    while (st[b + 1] & 0xFE) == 0 and pc[b + 1] == 0:
        b += 1
    # Left end, run, right end: recorded in this order they make one run.
    if not clicked and (st[a - 1] & 0xFE) == 0:
        open_one(f, a - 1)
    if b - a < 16:
        # Most runs are short where mines are about: a loop beats a call.
        for i in range(a, b + 1):
            st[i] = ST_REVEALED
            f.view[i] = 0
    else:
        memset(st + a, ST_REVEALED, b - a + 1)
        memset(f.view + a, 0, b - a + 1)
    f.opened += b - a + 1
    if not clicked:
        rec(f.changes, a, b - a + 1)
        if (st[b + 1] & 0xFE) == 0:
            open_one(f, b + 1)
    else:
        # x first: x..b, the right end, then the left end and a..x-1 (two runs).
        rec(f.changes, x, b - x + 1)
        if (st[b + 1] & 0xFE) == 0:
            open_one(f, b + 1)
        if (st[a - 1] & 0xFE) == 0:
            open_one(f, a - 1)
        if x > a:
            rec(f.changes, a, x - a)
    if f.spans.size + 2 > f.spans.cap:
        buf_reserve(f.spans, 2)
    f.spans.data[f.spans.size] = a
    f.spans.data[f.spans.size + 1] = b
    f.spans.size += 2
    return b


cdef int scan_row(Fill* f, Py_ssize_t lo, Py_ssize_t hi) except -1 nogil:
    """Open what a run of zeros uncovers in an adjacent row, cells lo..hi
    (the run widened by one, same row, ring cells included): each openable
    number, and each run of openable zeros that starts there."""
    cdef uint8_t* st = f.st
    cdef const int8_t* pc = f.pc
    cdef Py_ssize_t x = lo, start
    while x <= hi:
        if (st[x] & 0xFE) != 0:
            x += 1
            # Already open or flagged (typically the row the fill came from):
            # skip eight cells at a time.
            while x + 8 <= hi + 1 and fm_none_openable(st + x):
                x += 8
        elif pc[x] != 0:
            # A stretch of openable numbers (the edge of the region): opened
            # and recorded together.
            start = x
            while True:
                st[x] = ST_REVEALED
                f.view[x] = pc[x]
                x += 1
                if x > hi or (st[x] & 0xFE) != 0 or pc[x] == 0:
                    break
            f.opened += x - start
            rec(f.changes, start, x - start)
        else:
            x = open_run(f, x, False) + 2   # the cell after a run is not an openable zero
    return 0


cdef class GameCore:
    """Move kernels of one game.  Owned and driven by fastmine.game.Game.

    Holds typed views of the game's padded state and view arrays (and, once
    mines are laid, of the board's), so a move costs no buffer acquisition.
    Every move appends the cells it changed to one buffer, as runs;
    ``take_changes`` converts them to (row, col) pairs.
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
    cdef IdxBuf spans
    cdef bint has_board
    # The move log (fastmine.replay): pairs (padded cell * 8 + kind, game ms),
    # appended by the moves themselves so logging costs no Python call.
    cdef IdxBuf log
    cdef public double base     # clock value at game time 0 (set by Game)

    def __cinit__(self, uint8_t[::1] st, int8_t[::1] view, Py_ssize_t rows,
                  Py_ssize_t cols):
        cdef Py_ssize_t r, W = cols + 2
        check_padded(st.shape[0], rows, cols)
        check_padded(view.shape[0], rows, cols)
        self.st = st
        self.view = view
        self.n = st.shape[0]
        self.rows = rows
        self.cols = cols
        self.W = W
        neighbour_offsets(self.W, self.off)
        self.has_board = False
        # The flood fill stops at the ring only because it is revealed: the
        # core makes sure of that itself rather than trust the caller.
        st[:W] = ST_REVEALED
        st[(rows + 1) * W:] = ST_REVEALED
        for r in range(1, rows + 1):
            st[r * W] = ST_REVEALED
            st[r * W + W - 1] = ST_REVEALED
        buf_init(&self.changes, 64)
        buf_init(&self.spans, 64)
        buf_init(&self.log, 64)
        self.base = 0.0

    def __dealloc__(self):
        buf_free(&self.changes)
        buf_free(&self.spans)
        buf_free(&self.log)

    cdef int _log(self, Py_ssize_t code, object now) except -1:
        # now None: the clock is not running yet (before the first reveal): 0 ms.
        cdef double t = 0.0
        if now is not None:
            t = (<double>now - self.base) * 1000.0 + 0.5
            if not t >= 0.0:          # a clock that went back (or NaN)
                t = 0.0
            elif t > 9.0e15:          # beyond any real game: keep the cast defined
                t = 9.0e15
        cdef Py_ssize_t ms = <Py_ssize_t>t
        # A log's times never go back (replay files refuse that): a clock
        # that stepped back logs the move at the previous move's time.
        if self.log.size >= 2 and ms < self.log.data[self.log.size - 1]:
            ms = self.log.data[self.log.size - 1]
        buf_push(&self.log, code)
        buf_push(&self.log, ms)
        return 0

    def log_bytes(self):
        """The move log as bytes of native int64 pairs (code, ms)."""
        cdef Py_ssize_t i
        out = np.empty(self.log.size, np.int64)
        cdef int64_t[::1] o = out
        for i in range(self.log.size):
            o[i] = self.log.data[i]
        return out.tobytes()

    def log_set(self, const int64_t[::1] pairs):
        """Replace the move log with ``pairs`` (a flat int64 array, code then ms)."""
        cdef Py_ssize_t i
        self.log.size = 0
        buf_reserve(&self.log, pairs.shape[0])
        for i in range(pairs.shape[0]):
            self.log.data[i] = pairs[i]
        self.log.size = pairs.shape[0]

    def log_count(self):
        """Number of moves logged."""
        return self.log.size // 2

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
        """Reveal safe openable cell p and, if it is a zero, flood its region.

        Scanline fill: a run of openable zeros is opened whole (eight cells at
        a time), then the rows above and below it are scanned once over its
        width plus one; the runs found there are queued on an explicit stack
        (no recursion).  Every cell opened is recorded once, so the fill
        touches each cell a small constant number of times.
        """
        cdef Fill f
        cdef Py_ssize_t a, b, W = self.W
        f.st = &self.st[0]
        f.view = &self.view[0]
        f.pc = &self.pc[0]
        f.n = self.n
        f.W = W
        f.opened = 0
        f.changes = &self.changes
        f.spans = &self.spans
        if f.pc[p] != 0:
            open_one(&f, p)
        else:
            self.spans.size = 0
            open_run(&f, p, True)
            while self.spans.size:
                self.spans.size -= 2
                a = self.spans.data[self.spans.size]
                b = self.spans.data[self.spans.size + 1]
                scan_row(&f, a - W - 1, b - W + 1)
                scan_row(&f, a + W - 1, b + W + 1)
        self.revealed += f.opened
        return 0

    cdef int _open(self, Py_ssize_t p) except -1 nogil:
        if self.pm[p]:
            self.st[p] = ST_REVEALED
            self.view[p] = V_EXPLODED
            self.exploded += 1
            rec(&self.changes, p, 1)
        else:
            self._open_safe(p)
        return 0

    def reveal(self, Py_ssize_t p, Py_ssize_t flags=-1, object now=None):
        """Reveal padded cell p if it is hidden or question-marked.

        ``flags`` >= 0 logs the move (kind bits added to the reveal kind) at
        clock ``now`` (None: before the clock runs)."""
        self._inside(p)
        if flags >= 0:
            self._log(p * 8 + MV_REVEAL + flags, now)
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

    def reveal_many(self, const Py_ssize_t[:, :] cells, Py_ssize_t start, Py_ssize_t win_at,
                    Py_ssize_t flags=-1, object now=None):
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
        if flags >= 0:
            for i in range(start, start + tried):
                self._log(((cells[i, 0] + 1) * W + cells[i, 1] + 1) * 8 + MV_REVEAL + flags, now)
        return tried

    def chord(self, Py_ssize_t p, Py_ssize_t flags=-1, object now=None):
        """Chord on p: if its flag count equals its number, open the rest.

        A revealed 0 chords too (no flag around it: its hidden neighbours
        open), as Arbiter, Vienna and Metasweeper do: a 0 leaves a neighbour
        hidden when a flag stopped the flood and was then taken off.
        (``flags``, ``now``: logged as :meth:`reveal` does.)  Before the
        board is attached (no reveal yet) nothing is revealed: logged only."""
        cdef Py_ssize_t k, nb, nflags = 0
        cdef uint8_t s
        self._inside(p)
        if flags >= 0:
            self._log(p * 8 + MV_CHORD + flags, now)
        if not self.has_board or self.st[p] != ST_REVEALED or self.view[p] < 0:
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

    def toggle_mark(self, Py_ssize_t p, bint question_marks, Py_ssize_t flags=-1,
                    object now=None):
        """hidden -> flag -> question (if enabled) -> hidden.
        (``flags``, ``now``: logged as :meth:`reveal` does, the kind saying
        the cycle: MV_MARK with the question mark, MV_MARK_PLAIN without.)"""
        self._inside(p)
        if flags >= 0:
            self._log(p * 8 + (MV_MARK if question_marks else MV_MARK_PLAIN) + flags, now)
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
        rec(&self.changes, p, 1)

    def finish_win(self):
        """Show every mine as flagged (all safe cells are open by now)."""
        cdef Py_ssize_t r, p, end
        cdef const uint8_t* pm = &self.pm[0]
        cdef uint8_t* st = &self.st[0]
        cdef int8_t* view = &self.view[0]
        with nogil:
            for r in range(1, self.rows + 1):
                p = r * self.W + 1
                end = p + self.cols
                while p < end:
                    # Mines are few: skip eight mine-free cells at a time
                    # (the word stays inside the row's real cells).
                    if p + 8 <= end and fm_no_mine(pm + p):
                        p += 8
                        continue
                    if pm[p] and st[p] != ST_FLAG:
                        st[p] = ST_FLAG
                        view[p] = V_FLAG
                        self.flags += 1
                        rec(&self.changes, p, 1)
                    p += 1

    def finish_loss(self):
        """Show every unflagged mine and mark every wrong flag."""
        cdef Py_ssize_t r, p, end
        cdef uint8_t s
        cdef const uint8_t* pm = &self.pm[0]
        cdef uint8_t* st = &self.st[0]
        cdef int8_t* view = &self.view[0]
        with nogil:
            for r in range(1, self.rows + 1):
                p = r * self.W + 1
                end = p + self.cols
                while p < end:
                    if p + 8 <= end and fm_no_mine(pm + p) and fm_none_in_state(st + p, ST_FLAG):
                        p += 8
                        continue
                    s = st[p]
                    if pm[p]:
                        if s == ST_HIDDEN or s == ST_QUESTION:
                            view[p] = V_MINE
                            rec(&self.changes, p, 1)
                    elif s == ST_FLAG:
                        view[p] = V_WRONG_FLAG
                        rec(&self.changes, p, 1)
                    p += 1

    def changed_count(self):
        """How many cells changed since the last :meth:`take_changes`."""
        cdef Py_ssize_t i, total = 0
        for i in range(1, self.changes.size, 2):
            total += self.changes.data[i]
        return total

    def take_changes(self):
        """Return the cells changed since the last call as an (n, 2) array."""
        cdef Py_ssize_t i, k, p, q, r, c0, length, W = self.W
        cdef double inv = 1.0 / <double>W
        cdef Py_ssize_t* shrunk
        cdef Py_ssize_t* o
        cdef cnp.npy_intp dims[2]
        dims[0] = self.changed_count()
        dims[1] = 2
        out = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INTP, 0)
        # Raw pointer: the array was just made C-contiguous with exactly
        # 2 * (sum of the run lengths) entries, which the loop writes.
        o = <Py_ssize_t*>cnp.PyArray_DATA(out)
        with nogil:
            for i in range(0, self.changes.size, 2):
                p = self.changes.data[i]
                length = self.changes.data[i + 1]
                # p // W by a floating reciprocal, corrected by one step: exact
                # for any padded index (< 2**31), and cheaper than a divide.
                q = <Py_ssize_t>(<double>p * inv)
                if q * W > p:
                    q -= 1
                elif (q + 1) * W <= p:
                    q += 1
                r = q - 1
                c0 = p - q * W - 1
                for k in range(length):
                    o[2 * k] = r
                    o[2 * k + 1] = c0 + k
                o += 2 * length
        self.changes.size = 0
        if self.changes.cap > SHRINK_ABOVE:
            # A huge move must not pin its buffer for the rest of the game.
            shrunk = <Py_ssize_t*>realloc(self.changes.data, 64 * sizeof(Py_ssize_t))
            if shrunk != NULL:
                self.changes.data = shrunk
                self.changes.cap = 64
        if self.spans.cap > SHRINK_ABOVE:
            shrunk = <Py_ssize_t*>realloc(self.spans.data, 64 * sizeof(Py_ssize_t))
            if shrunk != NULL:
                self.spans.data = shrunk
                self.spans.cap = 64
        return out
