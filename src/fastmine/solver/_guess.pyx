# Private kernel of fastmine.solver.best: the guesses.
#
# When nothing is certain, ``best`` picks a few candidate cells (candidates),
# scores each by its secondary safety (score: for every number the cell could
# show, the position with that number is solved exactly) and, when the two
# best are close, values both one move deeper (deep_value: the same again in
# every position the cell can lead to).  The Python layer (best.Planner)
# checks the arguments and keeps the buffers; the probability engine's steps
# come from _prob (see _prob.pxd).

from libc.math cimport NAN, exp
from libc.stdlib cimport free, malloc
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

import numpy as np

from ._prob cimport _finish, _prepare, _scatter, _solve
from ._workspace cimport Workspace


cdef inline int _unknown_around(const int8_t[:, :] view, Py_ssize_t rows, Py_ssize_t cols,
                                Py_ssize_t r, Py_ssize_t c) noexcept:
    """How many of the 8 neighbours of (r, c) are not revealed (view < 0)."""
    cdef Py_ssize_t rr, cc
    cdef int n = 0
    for rr in range(max(r - 1, 0), min(r + 2, rows)):
        for cc in range(max(c - 1, 0), min(c + 2, cols)):
            if (rr != r or cc != c) and view[rr, cc] < 0:
                n += 1
    return n


cdef inline bint _witness(const int8_t[:, :] view, Py_ssize_t rows, Py_ssize_t cols,
                          Py_ssize_t r, Py_ssize_t c) noexcept:
    """(r, c) is on the board, revealed, and has a neighbour that is not."""
    if r < 0 or r >= rows or c < 0 or c >= cols or view[r, c] < 0:
        return False
    return _unknown_around(view, rows, cols, r, c) > 0


cdef inline bint _near(const int8_t[:, :] view, Py_ssize_t rows, Py_ssize_t cols,
                       Py_ssize_t r, Py_ssize_t c, int u) noexcept:
    """An off-frontier cell with ``u`` unknown neighbours worth a guess: two or
    three of them (a corner or an edge), or two steps up, down, left or right
    of a revealed number that still has unknown neighbours."""
    return (1 < u < 4 or _witness(view, rows, cols, r - 2, c)
            or _witness(view, rows, cols, r + 2, c)
            or _witness(view, rows, cols, r, c - 2)
            or _witness(view, rows, cols, r, c + 2))




cdef Py_ssize_t _candidates(const int8_t[:, :] view, const double[:, :] probs,
                            const uint8_t[:, :] mine, const uint8_t[:, :] interior,
                            double p_int, double ratio, double interior_ratio, Py_ssize_t few,
                            Py_ssize_t[::1] out, double[::1] key) noexcept:
    # see candidates()
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1], r, c, n = 0
    cdef double best = -1.0, best_f = -1.0, s, floor
    cdef bint any_interior = False, near_any = False, near
    cdef Py_ssize_t n_interior = 0
    cdef int u, fewest = 9
    for r in range(rows):
        for c in range(cols):
            if view[r, c] >= 0:
                continue
            s = -1.0 if mine[r, c] else 1.0 - probs[r, c]
            if s > best:
                best = s
            if interior[r, c]:
                if not mine[r, c]:
                    any_interior = True
                    n_interior += 1
            elif s > best_f:
                best_f = s
    floor = ratio * best
    cdef bint take_interior = any_interior and 1.0 - p_int >= interior_ratio * best_f
    cdef bint all_interior = take_interior and n_interior < few
    if take_interior and not all_interior:
        # is any off-frontier cell "near"?  If not, the fewest unknown neighbours decide
        for r in range(rows):
            for c in range(cols):
                if view[r, c] < 0 and interior[r, c] and not mine[r, c]:
                    u = _unknown_around(view, rows, cols, r, c)
                    if u < fewest:
                        fewest = u
                    if _near(view, rows, cols, r, c, u):
                        near_any = True
    for r in range(rows):
        for c in range(cols):
            if view[r, c] >= 0:
                continue
            s = -1.0 if mine[r, c] else 1.0 - probs[r, c]
            if not interior[r, c]:
                if s < floor:
                    continue
            elif mine[r, c] or not take_interior:
                continue
            elif not all_interior:
                u = _unknown_around(view, rows, cols, r, c)
                if near_any:
                    near = _near(view, rows, cols, r, c, u)
                else:
                    near = u == fewest
                if not near:
                    continue
            out[n] = r * cols + c
            key[n] = -s
            n += 1
    if n == 0:
        for r in range(rows):
            for c in range(cols):
                s = -1.0 if view[r, c] >= 0 or mine[r, c] else 1.0 - probs[r, c]
                if s == best:
                    out[n] = r * cols + c
                    key[n] = -s
                    n += 1
    return n


def candidates(const int8_t[:, :] view, const double[:, :] probs, const uint8_t[:, :] mine,
               const uint8_t[:, :] interior, double p_int, double ratio, double interior_ratio,
               Py_ssize_t few, Py_ssize_t[::1] out, double[::1] key):
    """The cells ``best`` scores when it must guess, in row-major order.

    Writes their flat indices to ``out`` and minus their safety to ``key``
    (for a stable sort, safest first) and returns how many.  ``probs``,
    ``mine``, ``interior`` and ``p_int`` are the position's exact analysis.
    The rule (best.Planner._candidates; tests/solver/ keeps a NumPy
    reference): the frontier cells at least ``ratio`` as safe as the safest
    cell; when the cells off the frontier (not known mines) are at least
    ``interior_ratio`` as safe as the safest frontier cell, also all of them
    when fewer than ``few``, otherwise those two steps up, down, left or right
    of a revealed number with unknown neighbours or with two or three unknown
    neighbours -- or, when there are none of those, the ones with the fewest
    unknown neighbours; when that picks nothing, every cell as safe as the
    safest.  The Python layer gives arrays of one shape and room for every cell.
    """
    cdef Py_ssize_t rows = view.shape[0], cols = view.shape[1]
    if (probs.shape[0] != rows or probs.shape[1] != cols or mine.shape[0] != rows
            or mine.shape[1] != cols or interior.shape[0] != rows or interior.shape[1] != cols
            or out.shape[0] < rows * cols or key.shape[0] < rows * cols):
        raise ValueError(f"candidates: the arrays do not fit a {rows}x{cols} view")
    return _candidates(view, probs, mine, interior, p_int, ratio, interior_ratio, few, out, key)


cdef void _two_safest(Workspace ws, double p_int, bint int_safe, bint int_mine,
                      double *s1, double *s2) noexcept:
    """The safeties (1 - P(mine)) of the two safest unknown cells of the last
    position solved: a group of m equal cells counts m times; with one unknown
    cell both are its safety, with none both are 1."""
    cdef int v, m
    cdef double q, b1 = 2.0, b2 = 2.0     # the two smallest P(mine)
    cdef int32_t[::1] vmult = ws.vmult
    cdef double[::1] vprob = ws.vprob
    for v in range(ws.nv):
        q = vprob[v]
        m = vmult[v]
        if q < b1:
            b2 = b1 if m == 1 else q
            b1 = q
        elif q < b2:
            b2 = q
    if ws.ni > 0:
        q = 0.0 if int_safe else (1.0 if int_mine else p_int)
        if q < b1:
            b2 = b1 if ws.ni == 1 else q
            b1 = q
        elif q < b2:
            b2 = q
    if b1 > 1.0:            # nothing unknown
        b1 = b2 = 0.0
    elif b2 > 1.0:          # one unknown cell
        b2 = b1
    s1[0] = 1.0 - b1
    s2[0] = 1.0 - b2


cdef void _numbers(const int8_t[:, :] view, const double[:, :] probs, int r, int c,
                   bint use_probs, int *top, int *lo, int *hi, double *mean) noexcept:
    """The numbers revealing (r, c) could show: ``top`` unknown neighbours, and,
    from the exact ``probs`` (with ``use_probs``; otherwise 0..top and mean 0),
    at least ``lo`` (the certain mines around) and at most ``hi`` (the
    neighbours that may be mines) -- no layout has any other -- and the
    expected number ``mean`` (the sum of the neighbours' probabilities)."""
    cdef int rows = view.shape[0], cols = view.shape[1], rr, cc
    cdef int r0 = max(r - 1, 0), r1 = min(r + 2, rows), c0 = max(c - 1, 0), c1 = min(c + 2, cols)
    top[0] = lo[0] = hi[0] = 0
    mean[0] = 0.0
    for rr in range(r0, r1):
        for cc in range(c0, c1):
            if (rr != r or cc != c) and view[rr, cc] < 0:
                top[0] += 1
                if use_probs:
                    mean[0] += probs[rr, cc]
                    if probs[rr, cc] == 1.0:
                        lo[0] += 1
                    if probs[rr, cc] > 0.0:
                        hi[0] += 1
    if not use_probs:
        hi[0] = top[0]


cdef int _score(Workspace ws, int8_t[:, :] child, int64_t mines, double[::1] prob,
                uint8_t[::1] interior, int64_t max_entries, const double[:, :] probs,
                int r, int c, double log_z, double safe, bint has_bound, double bound,
                double blend, double[::1] parts, bint use_probs, int *values_out,
                double *total_out) except -1:
    # see score(); returns the positions solved
    cdef int cols = child.shape[1]
    cdef int top = 0, i, j, v, values = 0, calls = 0, lo = 0, hi = 0
    cdef int order[9]
    cdef double mean = 0.0, total = 0.0, left = safe, w, s1, s2, rest = 1.0 - blend
    cdef int8_t original = child[r, c]
    _numbers(child, probs, r, c, use_probs, &top, &lo, &hi, &mean)
    # Likely numbers first: by distance from the mean, ties to the smaller
    # (a stable insertion sort of 0..top).
    for i in range(top + 1):
        parts[i] = 0.0
        j = i
        while j > 0 and abs(order[j - 1] - mean) > abs(i - mean):
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    # The positions for the different v differ only in the target of (r, c)'s
    # constraint: scan and group them once (with v = 0 there), keep the
    # constraints' targets and lists, and put them back before each v.
    child[r, c] = 0
    shared = _prepare(ws, child, prob, interior)
    child[r, c] = original
    cdef int nc = 0, ne = 0, j0 = -1
    cdef int32_t *saved = NULL
    cdef int32_t[::1] ctarget, cvstart, cvlist
    if shared is None:
        nc = ws.nc
        ctarget = ws.ctarget
        cvstart = ws.cvstart
        cvlist = ws.cvlist
        ne = cvstart[nc]
        j0 = ws.cid[(r + 1) * (cols + 2) + c + 1]     # -1: no unknown neighbours
        saved = <int32_t *>malloc((2 * nc + 1 + ne + 1) * sizeof(int32_t))
        if saved == NULL:
            raise MemoryError()
        for j in range(nc):
            saved[j] = ctarget[j]
        for j in range(nc + 1):
            saved[nc + j] = cvstart[j]
        for j in range(ne):
            saved[2 * nc + 1 + j] = cvlist[j]
    try:
        for i in range(top + 1):
            if has_bound and total + left < bound:
                values_out[0] = -1
                total_out[0] = 0.0
                return calls
            v = order[i]
            if v < lo or v > hi:
                continue            # no layout can show it: nothing to solve
            calls += 1
            if shared is not None:
                continue            # the rest of the position has no layout
            if calls > 1:
                for j in range(nc):
                    ctarget[j] = saved[j]
                for j in range(nc + 1):
                    cvstart[j] = saved[nc + j]
                for j in range(ne):
                    cvlist[j] = saved[2 * nc + 1 + j]
            if j0 >= 0:
                ctarget[j0] = v
            res = _finish(ws, mines, max_entries)
            if type(res) is not tuple:
                continue            # this number cannot show here
            status, log_zv, p_int, int_safe, int_mine = res
            _two_safest(ws, p_int, int_safe, int_mine, &s1, &s2)
            w = exp(<double>log_zv - log_z)
            left -= w
            values += 1
            parts[v] = w * (blend * s1 + rest * s2)
            total += parts[v]
    finally:
        free(saved)
    total = 0.0
    for v in range(top + 1):
        total += parts[v]
    values_out[0] = values
    total_out[0] = total
    return calls


def score(Workspace ws, int8_t[:, :] child, int64_t mines, double[::1] prob,
          uint8_t[::1] interior, int64_t max_entries, const double[:, :] probs,
          int r, int c, double log_z, double safe, bint has_bound, double bound,
          double blend, double[::1] parts, bint use_probs):
    """Secondary safety of revealing (r, c): ``(values, score, positions solved)``.

    ``child`` is the position (r, c) is in; for each number v the cell could
    show, the position with v at (r, c) is solved (no per-cell output): scanned
    and grouped once, the rest per v.  ``child`` is left as it was.  A number that cannot show
    (no layout) is skipped.  ``score`` is the sum over the numbers that can of
    P(safe and shows v) * (blend * best safety + (1 - blend) * second-best),
    summed in the order of v so that it does not depend on the work order.

    With ``use_probs`` (``probs`` are the position's exact probabilities) the
    numbers near the expected count are tried first, so that with
    ``has_bound`` the cell is given up sooner, and numbers below the count of
    certain mines around the cell (P exactly 1) or above its neighbours that
    may be mines (P above 0) are skipped without solving: no layout has them.
    Without it ``probs`` is not read and the numbers go 0, 1, 2, ...  Once even
    a perfect rest could not reach ``bound``, ``values`` is -1; otherwise it
    counts the numbers that can show.  ``parts`` is scratch of at least 9
    entries.  The Python layer checks every argument.
    """
    cdef int values = 0, rows = child.shape[0], cols = child.shape[1]
    cdef double total = 0.0
    if (prob.shape[0] < <Py_ssize_t>rows * cols or interior.shape[0] < <Py_ssize_t>rows * cols
            or parts.shape[0] < 9 or not (0 <= r < rows and 0 <= c < cols)
            or (use_probs and (probs.shape[0] != rows or probs.shape[1] != cols))):
        raise ValueError(f"score: the buffers or cell ({r}, {c}) do not fit a {rows}x{cols} view")
    cdef int calls = _score(ws, child, mines, prob, interior, max_entries, probs, r, c, log_z,
                            safe, has_bound, bound, blend, parts, use_probs, &values, &total)
    return values, total, calls


cdef class Scratch:
    """The buffers of :func:`deep_value` for boards of one size."""

    cdef readonly int rows, cols
    cdef int8_t[:, ::1] child
    cdef double[::1] prob, cprob
    cdef double[:, ::1] cprob2
    cdef uint8_t[::1] interior, csafe, cmine, cint
    cdef uint8_t[:, ::1] cmine2, cint2
    cdef Py_ssize_t[::1] cands
    cdef double[::1] keys, parts

    def __init__(self, int rows, int cols):
        cdef Py_ssize_t n = <Py_ssize_t>rows * cols
        self.rows = rows
        self.cols = cols
        self.child = np.empty((rows, cols), np.int8)
        self.prob = np.empty(n, np.float64)          # score's scratch
        self.interior = np.empty(n, np.uint8)
        cprob = np.empty(n, np.float64)              # the analysis of a next position
        flags = np.empty((3, n), np.uint8)
        self.cprob = cprob
        self.cprob2 = cprob.reshape(rows, cols)
        self.csafe = flags[0]
        self.cmine = flags[1]
        self.cint = flags[2]
        self.cmine2 = flags[1].reshape(rows, cols)
        self.cint2 = flags[2].reshape(rows, cols)
        self.cands = np.empty(n, np.intp)
        self.keys = np.empty(n, np.float64)
        self.parts = np.empty(9, np.float64)


def deep_value(Workspace ws, Scratch sc, const int8_t[:, :] view, int64_t mines, int r, int c,
               const double[:, :] probs, double log_z, bint has_bound, double bound,
               int64_t max_entries, double ratio, double interior_ratio, Py_ssize_t few,
               int ncand, double blend):
    """How good revealing (r, c) is, one move deeper than its score:
    ``(value, positions solved)``, the value NaN once it cannot reach ``bound``.

    ``probs`` and ``log_z`` are the exact analysis of ``view``.  For each
    number v the cell could show (between the certain and the possible mines
    around it): w = P(safe and shows v), from the layout counts of the
    position with v there; that position counts w when it has a certain-safe
    cell or nothing left to find, otherwise w times the best score (as
    :func:`score`, with the same pruning) of its ``ncand`` safest candidates
    (:func:`candidates`, ties in row-major order).  With ``has_bound``, NaN as
    soon as the numbers not yet solved, counted as certain wins, could not
    lift the sum to ``bound`` (less 1e-12).  Summed in the order of v.
    best.Planner.deep_value is this in Python terms; the Python layer checks
    every argument (``sc`` has the view's shape).
    """
    cdef int rows = view.shape[0], cols = view.shape[1], rr, cc, v, lo, hi, top
    cdef int calls = 0, values, t, k0, top0
    cdef Py_ssize_t n, p, q, j, m
    cdef double mean, total = 0.0, left = 1.0 - probs[r, c], w, lzb, p_int, s, sv, best, top1
    cdef bint any_safe, open_left, has_top
    cdef int8_t[:, ::1] child = sc.child
    cdef double[::1] cprob = sc.cprob, keys = sc.keys
    cdef uint8_t[::1] csafe = sc.csafe, cmine = sc.cmine
    cdef Py_ssize_t[::1] cands = sc.cands
    if (rows != sc.rows or cols != sc.cols or probs.shape[0] != rows
            or probs.shape[1] != cols or not (0 <= r < rows and 0 <= c < cols)):
        raise ValueError(f"deep_value: a {rows}x{cols} view, {probs.shape[0]}x{probs.shape[1]} "
                         f"probabilities and cell ({r}, {c}) for {sc.rows}x{sc.cols} buffers")
    for rr in range(rows):
        for cc in range(cols):
            child[rr, cc] = view[rr, cc]
    _numbers(view, probs, r, c, True, &top, &lo, &hi, &mean)
    for v in range(lo, hi + 1):
        if has_bound and total + left < bound - 1e-12:
            return NAN, calls
        child[r, c] = v
        calls += 1
        res = _solve(ws, child, mines, sc.cprob, sc.cint, max_entries)
        if type(res) is not tuple:
            continue            # no layout shows v here
        _, lzb, p_int, int_safe, int_mine = res
        _scatter(ws, cols, sc.cprob, sc.csafe, sc.cmine, p_int, int_safe, int_mine)
        w = exp(lzb - log_z)
        left -= w
        # (every unknown cell is on the frontier or in the interior, so the
        # scatter wrote its flags; revealed cells' flags are not read)
        any_safe = False
        open_left = False
        p = 0
        for rr in range(rows):
            for cc in range(cols):
                if child[rr, cc] < 0:
                    any_safe |= csafe[p]
                    open_left |= not cmine[p]
                p += 1
        if any_safe or not open_left:
            total += w
            continue
        n = _candidates(child, sc.cprob2, sc.cmine2, sc.cint2, p_int, ratio, interior_ratio,
                        few, cands, keys)
        has_top = False
        top0 = 0
        top1 = 0.0
        for t in range(min(<Py_ssize_t>ncand, n)):
            # the t-th safest candidate, ties in list order (a stable sort);
            # taken ones are marked with a key above any real one (<= 1)
            q = 0
            best = 2.0
            for m in range(n):
                if keys[m] < best:
                    best = keys[m]
                    q = m
            keys[q] = 3.0
            j = cands[q]
            s = 1.0 - cprob[j]
            if has_top and top0 == 0 and s < top1:
                continue        # even if every number led to a certain win
            calls += _score(ws, child, mines, sc.prob, sc.interior, max_entries, sc.cprob2,
                            <int>(j // cols), <int>(j % cols), lzb, s, has_top and top0 == 0,
                            top1 if has_top and top0 == 0 else 0.0, blend, sc.parts, True,
                            &values, &sv)
            if values < 0:
                continue
            k0 = 0 if values > 1 else -1
            if not has_top or k0 > top0 or (k0 == top0 and sv > top1):
                has_top = True
                top0 = k0
                top1 = sv
        total += w * top1
    return total, calls
