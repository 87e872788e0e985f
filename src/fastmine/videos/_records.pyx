# Private Cython kernel of fastmine.videos: a video's event columns, built in one pass.
#
# fastmine.videos.model.Events holds six read-only columns (time, kind, x, y, row,
# col).  Built with NumPy they cost dozens of small calls a file (casts, where, min,
# max, a copy and a frozen view per column), more than the decoding itself.  Here the
# columns are written once into one private bytes object, and each column is a
# read-only array over its part: a bytes object exposes no writable buffer, so NumPy
# refuses to make the arrays writable again (the promise of fastmine._frozen.frozen,
# without a copy).
#
# The kernel checks nothing a reader must word: it reports what it found (where the
# events end, the first unknown code, the time span) and the Python layer raises the
# reader's VideoFormatError.  It validates every size it did not allocate: the
# columns' lengths and a start inside the data.

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport INT64_MAX, INT64_MIN, int32_t, int64_t, uint8_t
from libc.string cimport memchr, memset

import numpy as np
cimport numpy as cnp

cnp.import_array()

cdef extern from *:
    """
    #ifndef FASTMINE_DEBUG
    #define FASTMINE_DEBUG 0
    #endif
    """
    int FASTMINE_DEBUG

# setup.py defines FASTMINE_DEBUG=1 in a bounds-checked build; exported for the tests.
BOUNDS_CHECKED = bool(FASTMINE_DEBUG)

include "_over_bytes.pxi"


cdef struct _Cols:
    # Where each column is written in the bytes object made by _blob.
    int64_t* t
    int32_t* x
    int32_t* y
    int32_t* r
    int32_t* c
    uint8_t* k


# Column layout in the bytes object: time (int64) first, then x, y, row, col (int32),
# then kind (uint8), so every column is aligned to its type.
cdef inline bytes _blob(Py_ssize_t n, _Cols* out):
    blob = PyBytes_FromStringAndSize(NULL, 25 * n)
    cdef char* p = PyBytes_AS_STRING(blob)
    out.t = <int64_t*>p
    out.x = <int32_t*>(p + 8 * n)
    out.y = <int32_t*>(p + 12 * n)
    out.r = <int32_t*>(p + 16 * n)
    out.c = <int32_t*>(p + 20 * n)
    out.k = <uint8_t*>(p + 24 * n)
    return blob


cdef tuple _columns(bytes blob, Py_ssize_t n):
    """The six columns over ``blob``: time, kind, x, y, row, col (Events' order)."""
    return (_over(blob, 0, n, cnp.NPY_INT64), _over(blob, 24 * n, n, cnp.NPY_UINT8),
            _over(blob, 8 * n, n, cnp.NPY_INT32), _over(blob, 12 * n, n, cnp.NPY_INT32),
            _over(blob, 16 * n, n, cnp.NPY_INT32), _over(blob, 20 * n, n, cnp.NPY_INT32))


cdef inline void _cell(int32_t xv, int32_t yv, int64_t w, int64_t h, Py_ssize_t cell_size,
                       int32_t* row, int32_t* col) noexcept nogil:
    # The cell under (xv, yv) for cell_size > 0, -1 for both off the board.  On it
    # x, y >= 0, so C's division is NumPy's floor division; off it the quotient is
    # thrown away.  Written without a branch: whether the pointer is on the board
    # follows no pattern the processor could guess.
    cdef bint on = (xv >= 0) & (xv < w) & (yv >= 0) & (yv < h)
    cdef int32_t rq = <int32_t>(yv // cell_size), cq = <int32_t>(xv // cell_size)
    row[0] = rq if on else -1
    col[0] = cq if on else -1


cdef inline tuple _span(Py_ssize_t n, int64_t lo, int64_t hi):
    """(least, greatest) time of ``n`` events: (0, 0) for none."""
    if n == 0:
        return 0, 0
    return lo, hi


def pack(const int64_t[:] time_ms, const uint8_t[:] kind, const int32_t[:] x,
         const int32_t[:] y, Py_ssize_t cell_size, Py_ssize_t rows, Py_ssize_t cols):
    """Events' columns from time, kind, x and y, with the cell under each pointer.

    Returns ``(lo, hi, columns)``: the least and greatest time (0, 0 for no events)
    and the six read-only columns (time, kind, x, y, row, col).
    """
    cdef Py_ssize_t n = time_ms.shape[0], i
    if kind.shape[0] != n or x.shape[0] != n or y.shape[0] != n:
        raise ValueError(f"the event columns differ in length ({n}, {kind.shape[0]}, "
                         f"{x.shape[0]}, {y.shape[0]})")
    cdef _Cols out
    blob = _blob(n, &out)
    cdef int64_t w = <int64_t>cols * cell_size, h = <int64_t>rows * cell_size
    # A cell size of 0 or less puts every pointer off the board; divide by 1 then.
    cdef Py_ssize_t div = cell_size if cell_size > 0 else 1
    cdef int64_t lo = INT64_MAX, hi = INT64_MIN, tv
    for i in range(n):
        tv = time_ms[i]
        lo = tv if tv < lo else lo
        hi = tv if tv > hi else hi
        out.t[i] = tv
        out.k[i] = kind[i]
        out.x[i] = x[i]
        out.y[i] = y[i]
        _cell(x[i], y[i], w, h, div, &out.r[i], &out.c[i])
    return _span(n, lo, hi) + (_columns(blob, n),)


def avf_events(const uint8_t[::1] data, Py_ssize_t start, const uint8_t[::1] table,
               Py_ssize_t rows, Py_ssize_t cols):
    """Arbiter's 8-byte event records from ``start`` decoded into Events' columns.

    A record is ``code, x_hi, s_lo, x_lo, hundredths, y_hi, s_hi, y_lo``; one with
    both time bytes 0 ends them; x and y are pixels, 16 a cell.  Returns
    ``(n, bad, lo, hi, columns)``: ``n`` the records before the end (-1: no end
    before the data does), ``bad`` the first whose code ``table`` maps to 255 (-1:
    none), the least and greatest time, and the columns (None unless n >= 0 and
    bad == -1).
    """
    cdef Py_ssize_t size = data.shape[0], n = -1, i, bad = -1, p
    if table.shape[0] != 256:
        raise ValueError(f"an event code table has 256 entries, not {table.shape[0]}")
    if start < 0 or start > size:
        raise ValueError(f"the events' start {start} is outside the {size} bytes")
    cdef Py_ssize_t whole = (size - start) // 8
    cdef const uint8_t* d = &data[0] if size > 0 else NULL
    cdef const uint8_t* rec
    cdef bint unknown = False
    # Where the records end, and whether an unknown code comes before (without a
    # branch: real files have none); which one is looked for only if one does.
    for i in range(whole):
        rec = d + start + 8 * i
        if (rec[2] | rec[6]) == 0:
            n = i
            break
        unknown |= table[rec[0]] == 255
    if n < 0:
        return -1, -1, 0, 0, None
    if unknown:
        for i in range(n):
            if table[d[start + 8 * i]] == 255:
                return n, i, 0, 0, None
    cdef _Cols out
    blob = _blob(n, &out)
    cdef int64_t lo = INT64_MAX, hi = INT64_MIN, tv
    cdef int32_t xv, yv
    cdef int64_t w = 16 * <int64_t>cols, h = 16 * <int64_t>rows
    for i in range(n):
        rec = d + start + 8 * i
        # seconds (plus one) in bytes 6, 2; hundredths in byte 4
        tv = ((<int64_t>rec[6] << 8 | rec[2]) - 1) * 1000 + <int64_t>rec[4] * 10
        lo = tv if tv < lo else lo
        hi = tv if tv > hi else hi
        xv = <int32_t>rec[1] << 8 | rec[3]
        yv = <int32_t>rec[5] << 8 | rec[7]
        out.t[i] = tv
        out.k[i] = table[rec[0]]
        out.x[i] = xv
        out.y[i] = yv
        _cell(xv, yv, w, h, 16, &out.r[i], &out.c[i])
    return (n, -1) + _span(n, lo, hi) + (_columns(blob, n),)


def mine_layout(const uint8_t[::1] data, Py_ssize_t pos, Py_ssize_t count, bint col_first,
                Py_ssize_t base, Py_ssize_t rows, Py_ssize_t cols):
    """The mine layout from ``count`` cell pairs of bytes at ``pos``.

    A pair is ``(row, col)``, or ``(col, row)`` with ``col_first``, numbered from
    ``base``.  Returns ``(bad, row, col, distinct, layout)``: ``bad`` the first mine
    off the rows x cols board (-1: none) and its zero-based row and column, the
    number of distinct cells named, and the (rows, cols) bool layout, read-only
    (None when a mine is off the board or a cell is named twice).
    """
    if pos < 0 or count < 0 or pos > data.shape[0] or count > (data.shape[0] - pos) // 2:
        raise ValueError(f"{count} mines at byte {pos} are outside the {data.shape[0]} bytes")
    if rows < 1 or cols < 1:
        raise ValueError(f"a {rows}x{cols} board has no cells")
    if rows > (1 << 30) // cols:
        raise ValueError(f"a {rows}x{cols} board is too large")
    cdef cnp.npy_intp dims[2]
    dims[0] = rows
    dims[1] = cols
    # In a private bytes object, as the event columns: read-only for good, so
    # Video keeps it without a copy.
    blob = PyBytes_FromStringAndSize(NULL, rows * cols)
    cdef uint8_t* cells = <uint8_t*>PyBytes_AS_STRING(blob)
    memset(cells, 0, rows * cols)
    cdef Py_ssize_t i, r, c, distinct = 0
    cdef const uint8_t* pair
    for i in range(count):
        pair = &data[pos + 2 * i]
        if col_first:
            r = pair[1] - base
            c = pair[0] - base
        else:
            r = pair[0] - base
            c = pair[1] - base
        if r < 0 or r >= rows or c < 0 or c >= cols:
            return i, r, c, 0, None
        distinct += cells[r * cols + c] == 0
        cells[r * cols + c] = 1
    if distinct != count:
        return -1, 0, 0, distinct, None
    return -1, 0, 0, distinct, _over_nd(blob, 2, dims, 0, cnp.NPY_BOOL)

# Cursor.scan's size codes (binread.END, binread.TEXT).
cdef enum:
    S_END = -1
    S_TEXT = -2


cdef Py_ssize_t _walk(const uint8_t* d, Py_ssize_t n, Py_ssize_t pos, const int64_t* sizes,
                      Py_ssize_t text_limit, int64_t* out, Py_ssize_t* stop,
                      int* status) noexcept nogil:
    """Walk the records from ``pos``; their starts go to ``out`` unless it is NULL.
    Returns how many there are before the scan stops at ``stop``."""
    cdef Py_ssize_t count = 0, p = pos
    cdef int64_t step
    cdef const void* nul
    status[0] = 1
    while p < n:
        step = sizes[d[p]]
        if step <= 0 and step != S_TEXT:
            status[0] = 0
            break
        if step > 0:
            if out != NULL:
                out[count] = p
            count += 1
            p += step
        else:
            # 4 bytes, then text up to a NUL within text_limit bytes
            nul = NULL
            if p + 4 < n:
                nul = memchr(d + p + 4, 0, min(text_limit + 1, n - (p + 4)))
            if nul == NULL:
                status[0] = 2
                break
            if out != NULL:
                out[count] = p
            count += 1
            p = (<const uint8_t*>nul - d) + 1
    stop[0] = p
    return count


def scan(const uint8_t[::1] data, Py_ssize_t pos, const int64_t[::1] sizes,
         Py_ssize_t text_limit):
    """Where each record of varying size starts, from ``pos`` to the one that ends them.

    ``sizes`` gives by a record's first byte its size (> 0), S_END (-1) for a code
    that ends the records, S_TEXT (-2) for 4 bytes then text ending in a NUL within
    ``text_limit`` bytes, 0 for a code no record has.  Returns ``(status, p,
    starts)``: status 0 with ``p`` the record that stops the scan (an ending or
    unknown code), 1 when the data ends first (``p`` past it), 2 when the text of
    the record at ``p`` has no NUL within its limit; ``starts`` (int64) the
    records before ``p`` when status is 0, else empty.  The records are walked
    twice, to count them and then to note where they start, so that nothing but
    the exact array is allocated.
    """
    cdef Py_ssize_t n = data.shape[0]
    if sizes.shape[0] != 256:
        raise ValueError(f"a record size table has 256 entries, not {sizes.shape[0]}")
    if pos < 0 or pos > n:
        raise ValueError(f"the records' start {pos} is outside the {n} bytes")
    if text_limit < 0:
        raise ValueError(f"a text limit of {text_limit} bytes")
    cdef const uint8_t* d = &data[0] if n > 0 else NULL
    cdef Py_ssize_t p, again
    cdef int status
    cdef cnp.npy_intp count = _walk(d, n, pos, &sizes[0], text_limit, NULL, &p, &status)
    if status != 0:
        count = 0
    starts = cnp.PyArray_EMPTY(1, &count, cnp.NPY_INT64, 0)
    if status == 0 and count > 0:
        again = _walk(d, n, pos, &sizes[0], text_limit,
                      <int64_t*>cnp.PyArray_DATA(<cnp.ndarray>starts), &p, &status)
        if again != count:
            raise RuntimeError("the records changed between two walks")
    return status, p, starts
