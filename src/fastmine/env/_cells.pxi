# The cell-level parts of the batch kernel (_batch.pyx includes this file, so
# they compile into the same module and inline): state and view codes, the
# eight-cells-at-a-time tests, the bounds checks of the debug build, and the
# flood fill that writes the view and the action mask.

# Cell states (as fastmine._kernels; the environment never makes question marks).
cdef enum:
    ST_HIDDEN = 0
    ST_REVEALED = 2
    ST_FLAG = 3

# View codes: must match fastmine's (HIDDEN, FLAG, MINE, EXPLODED, WRONG_FLAG).
cdef enum:
    V_HIDDEN = -1
    V_FLAG = -2
    V_MINE = -4
    V_EXPLODED = -5
    V_WRONG_FLAG = -6

# A mine's entry in a game's counts (every other count is 0..8).
cdef enum:
    PC_MINE = -1

# Phases of a game (exported: the Python layer reads them).
cdef enum:
    PH_READY = 0
    PH_PLAYING = 1
    PH_WON = 2
    PH_LOST = 3

# First-click rules as the kernel lays them (no_guess boards come from Python).
cdef enum:
    RULE_NONE = 0
    RULE_CELL = 1
    RULE_OPENING = 2
    RULE_EXTERNAL = 3

cdef extern from *:
    """
    #ifndef FASTMINE_DEBUG
    #define FASTMINE_DEBUG 0
    #endif
    #include <string.h>
    #include <stdint.h>
    #define FMB_ONES 0x0101010101010101ULL
    #define FMB_HIGH 0x8080808080808080ULL
    #define FMB_NOT_OPENABLE 0xFEFEFEFEFEFEFEFEULL
    static inline uint64_t fmb_load8(const void* p) { uint64_t v; memcpy(&v, p, 8); return v; }
    static inline int fmb_has_zero(uint64_t v) { return ((v - FMB_ONES) & ~v & FMB_HIGH) != 0; }
    /* all 8 cells are openable zeros: state 0/1 and count 0 */
    static inline int fmb_all_open_zero(const uint8_t* st, const int8_t* pc) {
        return ((fmb_load8(st) & FMB_NOT_OPENABLE) | fmb_load8(pc)) == 0;
    }
    /* none of the 8 cells is openable */
    static inline int fmb_none_openable(const uint8_t* st) {
        return !fmb_has_zero(fmb_load8(st) & FMB_NOT_OPENABLE);
    }
    /* The bounds-checked build (FASTMINE_DEBUG=1) checks every index the kernel
       writes through a raw pointer and aborts loudly on one out of range; the
       release build compiles the checks away. */
    #include <stdio.h>
    #include <stdlib.h>
    static inline void FMB_CHECK(int ok, const char* what) {
        if (FASTMINE_DEBUG && !ok) {
            fprintf(stderr, "fastmine.env kernel: check failed: %s\\n", what);
            abort();
        }
    }
    /* Ask for the cache lines of n bytes from p ahead of their use, to read
       (fmb_fetch) or to write (fmb_fetch_w).  A hint only: no fault, no
       change to memory, and the callers pass spans of arrays they own. */
    static inline void fmb_fetch(const void* p, Py_ssize_t n) {
        const char* c = (const char*)p;
        for (Py_ssize_t k = 0; k < n; k += 64) __builtin_prefetch(c + k, 0, 3);
        __builtin_prefetch(c + n - 1, 0, 3);
    }
    static inline void fmb_fetch_w(void* p, Py_ssize_t n) {
        char* c = (char*)p;
        for (Py_ssize_t k = 0; k < n; k += 64) __builtin_prefetch(c + k, 1, 3);
        __builtin_prefetch(c + n - 1, 1, 3);
    }
    """
    int FASTMINE_DEBUG
    void fmb_fetch(const void* p, Py_ssize_t n) noexcept nogil
    void fmb_fetch_w(void* p, Py_ssize_t n) noexcept nogil
    void FMB_CHECK(bint ok, const char* what) noexcept nogil
    bint fmb_all_open_zero(const uint8_t* st, const int8_t* pc) noexcept nogil
    bint fmb_none_openable(const uint8_t* st) noexcept nogil


# --------------------------------------------------------------------------
# The flood fill: fastmine._kernels' scanline fill, writing the unpadded view
# and the action mask as it opens cells.  Runs go on an explicit stack of
# (first, last, padded row) triples; each run is pushed once and runs are
# disjoint, so the stack never holds more than 3 * rows * cols entries.
# --------------------------------------------------------------------------

cdef struct Fill:
    uint8_t* st
    const int8_t* pc
    int8_t* view        # rows * cols, row-major: view index of padded x in padded row R
    uint8_t* mrev       # is x - 2R - cols - 1 (see vi)
    uint8_t* mflag      # NULL without flag actions
    Py_ssize_t n
    Py_ssize_t W
    Py_ssize_t cols
    Py_ssize_t nv       # cells of the view
    Py_ssize_t opened
    Py_ssize_t* stack
    Py_ssize_t top
    Py_ssize_t cap      # entries of the stack


cdef inline Py_ssize_t vi(Fill* f, Py_ssize_t x, Py_ssize_t R) noexcept nogil:
    # padded x = R * (cols + 2) + C, view index (R - 1) * cols + C - 1
    return x - 2 * R - f.cols - 1


cdef inline void open_one(Fill* f, Py_ssize_t x, Py_ssize_t R) noexcept nogil:
    """Reveal the openable safe cell x."""
    cdef Py_ssize_t o = vi(f, x, R)
    FMB_CHECK(x > f.W and x < f.n - f.W and o >= 0 and o < f.nv, "open_one: cell on the board")
    f.st[x] = ST_REVEALED
    f.view[o] = f.pc[x]
    f.mrev[o] = 0
    if f.mflag != NULL:
        f.mflag[o] = 0
    f.opened += 1


cdef Py_ssize_t open_run(Fill* f, Py_ssize_t x, Py_ssize_t R) noexcept nogil:
    """x is an openable zero: reveal its run of openable zeros in row R and the
    openable numbers at both ends, push the run, return its last cell."""
    cdef uint8_t* st = f.st
    cdef const int8_t* pc = f.pc
    cdef Py_ssize_t a = x, b = x, length, o
    while (st[a - 1] & 0xFE) == 0 and pc[a - 1] == 0:
        a -= 1
    # A word is read only while its last byte is inside the board's buffer;
    # a window reaching the ring fails the test, so it never leaves the row.
    while b + 9 <= f.n and fmb_all_open_zero(st + b + 1, pc + b + 1):
        b += 8
    while (st[b + 1] & 0xFE) == 0 and pc[b + 1] == 0:
        b += 1
    if (st[a - 1] & 0xFE) == 0:
        open_one(f, a - 1, R)
    length = b - a + 1
    o = vi(f, a, R)
    FMB_CHECK(a > f.W and b < f.n - f.W and o >= 0 and o + length <= f.nv
              and f.top + 3 <= f.cap, "open_run: run on the board, room on the stack")
    memset(st + a, ST_REVEALED, length)
    memset(f.view + o, 0, length)
    memset(f.mrev + o, 0, length)
    if f.mflag != NULL:
        memset(f.mflag + o, 0, length)
    f.opened += length
    if (st[b + 1] & 0xFE) == 0:
        open_one(f, b + 1, R)
    f.stack[f.top] = a
    f.stack[f.top + 1] = b
    f.stack[f.top + 2] = R
    f.top += 3
    return b


cdef void scan_row(Fill* f, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t R) noexcept nogil:
    """Open what a run of zeros uncovers in the adjacent padded row R, cells
    lo..hi (the run widened by one; ring cells included, never opened)."""
    cdef uint8_t* st = f.st
    cdef const int8_t* pc = f.pc
    cdef Py_ssize_t x = lo
    FMB_CHECK(lo >= 0 and hi < f.n, "scan_row: row in the buffer")
    while x <= hi:
        if (st[x] & 0xFE) != 0:
            x += 1
            while x + 8 <= hi + 1 and fmb_none_openable(st + x):
                x += 8
        elif pc[x] != 0:
            open_one(f, x, R)
            x += 1
        else:
            x = open_run(f, x, R) + 2   # the cell after a run is not an openable zero


cdef void open_safe(Fill* f, Py_ssize_t p, Py_ssize_t R) noexcept nogil:
    """Reveal the safe hidden cell p (padded row R) and flood its zero region."""
    cdef Py_ssize_t a, b, W = f.W
    if f.pc[p] != 0:
        open_one(f, p, R)
        return
    f.top = 0
    open_run(f, p, R)
    while f.top:
        f.top -= 3
        a = f.stack[f.top]
        b = f.stack[f.top + 1]
        R = f.stack[f.top + 2]
        scan_row(f, a - W - 1, b - W + 1, R - 1)
        scan_row(f, a + W - 1, b + W + 1, R + 1)
