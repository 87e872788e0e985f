# Private kernel of fastmine.solver.probability: exact mine probabilities.
#
# The Python layer (probability.py) checks types, shape and the mine count;
# this module checks the values while it reads them.  One call of ``analyze``:
#   1. scan     (_frontier): pad the view; numbers with hidden neighbours are
#               constraints; hidden cells next to one are the frontier, the
#               others the interior.
#   2. group    (_frontier): frontier cells with the same constraints become
#               one variable of multiplicity m (0..m mines, C(m, x) ways);
#               numbers alone decide what they can (unit propagation); the
#               rest splits into components, each in a narrow order.
#   3. count    (_count): a DP per component, per number of mines.
#   4. combine  (here): components and the interior (C(I, n) ways for n mines)
#               are combined in log space, so the total mine count is used
#               exactly and huge boards never overflow.
#   5. marginals (_count): a backward pass per component seeded with the
#               weight of everything else, for each mine count it may hold.
#
# A component whose DP would need a key wider than 64 bits, or more stored
# entries than the budget, is split in halves along its order, dropping the
# constraints that straddle the cut: a relaxation (every true layout is still
# counted, so certain cells stay certain; probabilities near the cut become
# approximate) reported as exact=False.

from libc.math cimport INFINITY, NAN, exp, lgamma, log
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

from ._count cimport backward, count_all
from ._frontier cimport K_MINE, K_NONE, K_SAFE, components, group, reduce_fixed, scan, tidy
from ._workspace cimport Workspace

from ..errors import PositionTooLargeError
from .. import limits as _limits

cdef Py_ssize_t MAX_ROWS = _limits.MAX_ROWS, MAX_COLS = _limits.MAX_COLS
cdef Py_ssize_t MAX_CELLS = _limits.MAX_CELLS

cdef extern from *:
    # Defined by setup.py: 1 in a FASTMINE_DEBUG build.
    int FASTMINE_DEBUG_BUILD

#: True when built with FASTMINE_DEBUG=1 (bounds and wraparound checks on).
BOUNDS_CHECKED = bool(FASTMINE_DEBUG_BUILD)

cdef double LN2 = 0.6931471805599453

# The combination's budget is a multiple of this or of max_entries, whichever
# is larger (fastmine.solver.DEFAULT_MAX_ENTRIES: a tiny max_entries makes the
# counting approximate, it must not refuse the combination).
cdef int64_t COMBINE_BASE = 2_000_000


cdef inline double _lbinom(int64_t n, int64_t k) noexcept:
    if k < 0 or k > n:
        return -INFINITY
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)


cdef inline double _lse_add(double acc, double mx, double v) noexcept:
    # helper for two-pass log-sum-exp: acc += exp(v - mx)
    if v == -INFINITY:
        return acc
    return acc + exp(v - mx)


cdef int C_pending(Workspace ws, int nb) noexcept:
    """Blocks whose mine count can vary (the ones the combination convolves)."""
    cdef int32_t[::1] lstate = ws.lstate, slo = ws.slo, shi = ws.shi, blayer = ws.blayer
    cdef int32_t[::1] bb0 = ws.bb0, bb1 = ws.bb1
    cdef int b, sf, n = 0
    for b in range(nb):
        sf = lstate[blayer[b] + bb1[b] - bb0[b]]
        n += shi[sf] > slo[sf]
    return n


cdef object _combine(Workspace ws, int64_t mines, int64_t fixed):
    """Log weights per block, leave-one-out weights of everything else, Z, interior."""
    cdef int nb = ws.nblocks, b, c, C = 0, n, sf
    cdef int64_t I = ws.ni, Mp = mines - fixed, k, a, j, K, lo, hi, kmin = fixed, kmax = fixed
    cdef Py_ssize_t total = 0, o, idx, tlo, tn, ntlo, ntn, plo, pn, po
    cdef double f, mx, acc, v, logfixed = 0.0, theta = ws.theta, logz, p_int, lnum
    cdef bint nz, feasible, int_safe, int_mine
    cdef int32_t[::1] lstate = ws.lstate, slo = ws.slo, shi = ws.shi, blayer = ws.blayer
    cdef int32_t[::1] bb0 = ws.bb0, bb1 = ws.bb1, bscale = ws.bscale
    cdef int64_t[::1] soff = ws.soff
    cdef double[::1] F = ws.F
    cdef uint8_t[::1] Fnz = ws.Fnz
    # sizes first, so every array is a slice of the workspace's pools
    cdef int64_t w = 0, psize = 0, cwork = 0
    for b in range(nb):
        sf = lstate[blayer[b] + bb1[b] - bb0[b]]
        total += shi[sf] - slo[sf] + 1
        if shi[sf] > slo[sf]:
            psize += w + 1
            w += shi[sf] - slo[sf]
            cwork += (w + 1) * (shi[sf] - slo[sf] + 1)
    psize += w + 1
    tn = w + 1
    # Every prefix convolution is kept for the suffix pass: memory grows with
    # (blocks x their total mine range), the square of the number of blocks
    # when there are thousands of them (a big board revealed at random).  So
    # a budget is checked here, before anything is allocated: 4x the counting
    # tables' (at least 4 x 2,000,000 entries, ~72 MB) and 64x in work.
    cdef int64_t budget = max(ws.max_entries, COMBINE_BASE)
    if psize > 4 * budget or cwork > 64 * budget:
        raise PositionTooLargeError(
            f"this position is too large for exact probabilities: combining its "
            f"{C_pending(ws, nb)} independent regions would store {psize} entries and take "
            f"{cwork} steps, over the limit of {4 * budget} entries ({64 * budget} steps): "
            f"4x and 64x max_entries={budget} (fastmine.solver.analyze(max_entries=...))")
    ws._pools(7 * nb + 6, 2 * total + psize + 2 * tn)
    cdef int64_t[::1] blo = ws.ci[0:nb], bhi = ws.ci[nb:2 * nb], btw = ws.ci[2 * nb:3 * nb]
    cdef int64_t[::1] vb = ws.ci[3 * nb:4 * nb]
    cdef int64_t[::1] Alo = ws.ci[4 * nb:5 * nb + 1], Ahi = ws.ci[5 * nb + 1:6 * nb + 2]
    cdef int64_t[::1] pofs = ws.ci[6 * nb + 2:7 * nb + 4]
    cdef double[::1] LW = ws.cf[0:total], TW = ws.cf[total:2 * total]
    cdef double[::1] P = ws.cf[2 * total:2 * total + psize]
    cdef double[::1] T = ws.cf[2 * total + psize:2 * total + psize + tn]
    cdef double[::1] T2 = ws.cf[2 * total + psize + tn:2 * total + psize + 2 * tn]
    cdef uint8_t[::1] LWnz = ws.cu[0:total], TWnz = ws.cu[total:2 * total]
    cdef uint8_t[::1] Pnz = ws.cu[2 * total:2 * total + psize]
    cdef uint8_t[::1] Tnz = ws.cu[2 * total + psize:2 * total + psize + tn]
    cdef uint8_t[::1] T2nz = ws.cu[2 * total + psize + tn:2 * total + psize + 2 * tn]
    cdef double[::1] Ttmp
    cdef uint8_t[::1] Tnztmp
    total = 0
    for b in range(nb):
        sf = lstate[blayer[b] + bb1[b] - bb0[b]]
        blo[b] = slo[sf]
        bhi[b] = shi[sf]
        btw[b] = total
        total += bhi[b] - blo[b] + 1
        kmin += blo[b]
        kmax += bhi[b]
    for b in range(nb):
        sf = lstate[blayer[b] + bb1[b] - bb0[b]]
        for k in range(blo[b], bhi[b] + 1):
            o = soff[sf] + k - blo[b]
            f = F[o]
            idx = btw[b] + k - blo[b]
            LW[idx] = log(f) + bscale[b] * LN2 - theta * k if f > 0.0 else -INFINITY
            LWnz[idx] = Fnz[o]
            TW[idx] = 1.0
            TWnz[idx] = 1
        if blo[b] == bhi[b]:    # a fixed mine count: just shifts the total
            Mp -= blo[b]
            logfixed += LW[btw[b]]
        else:
            vb[C] = b
            C += 1
    # prefix convolutions P_c = W_vb[0] * ... * W_vb[c-1], over a in [Alo[c], Ahi[c]]
    Alo[0] = 0
    Ahi[0] = 0
    pofs[0] = 0
    for c in range(C):
        b = vb[c]
        Alo[c + 1] = Alo[c] + blo[b]
        Ahi[c + 1] = Ahi[c] + bhi[b]
    for c in range(C + 1):
        pofs[c + 1] = pofs[c] + Ahi[c] - Alo[c] + 1
    assert pofs[C + 1] == psize and Ahi[C] - Alo[C] + 1 == tn
    P[0] = 0.0
    Pnz[0] = 1
    for c in range(C):
        b = vb[c]
        for a in range(Alo[c + 1], Ahi[c + 1] + 1):
            mx = -INFINITY
            nz = False
            for k in range(max(blo[b], a - Ahi[c]), min(bhi[b], a - Alo[c]) + 1):
                v = P[pofs[c] + a - k - Alo[c]] + LW[btw[b] + k - blo[b]]
                mx = max(mx, v)
                nz |= Pnz[pofs[c] + a - k - Alo[c]] and LWnz[btw[b] + k - blo[b]]
            acc = 0.0
            if mx > -INFINITY:
                for k in range(max(blo[b], a - Ahi[c]), min(bhi[b], a - Alo[c]) + 1):
                    acc = _lse_add(acc, mx, P[pofs[c] + a - k - Alo[c]] + LW[btw[b] + k - blo[b]])
            P[pofs[c + 1] + a - Alo[c + 1]] = mx + log(acc) if mx > -INFINITY else -INFINITY
            Pnz[pofs[c + 1] + a - Alo[c + 1]] = nz
    # total: frontier holds K, the interior the other Mp - K
    po = pofs[C]
    feasible = False
    int_safe = True
    int_mine = True
    mx = -INFINITY
    for K in range(Alo[C], Ahi[C] + 1):
        if 0 <= Mp - K <= I:
            if Pnz[po + K - Alo[C]]:
                feasible = True
                int_safe &= Mp - K == 0
                int_mine &= Mp - K == I
            mx = max(mx, P[po + K - Alo[C]] + _lbinom(I, Mp - K))
    if not feasible:
        if mines < kmin or mines > kmax + I:
            ws.err = (f"the numbers need between {kmin} and {kmax + I} mines, "
                      f"but the mine count is {mines}")
        else:
            ws.err = f"no layout of exactly {mines} mines fits the numbers"
        return None
    acc = 0.0
    lnum = 0.0
    for K in range(Alo[C], Ahi[C] + 1):
        if 0 <= Mp - K <= I:
            v = P[po + K - Alo[C]] + _lbinom(I, Mp - K) - mx
            if v > -INFINITY:
                acc += exp(v)
                lnum += exp(v) * (Mp - K)
    logz = mx + log(acc) if mx > -INFINITY else -INFINITY
    p_int = NAN
    if I > 0:
        p_int = lnum / (acc * I) if acc > 0.0 else 0.5
        if int_safe:
            p_int = 0.0
        elif int_mine:
            p_int = 1.0
        else:
            p_int = min(max(p_int, 4.9406564584124654e-324), 1.0 - 1.1102230246251565e-16)
    # suffix-with-interior T_c, rolled from the last block down; R_c = P_c (x) T_c
    tn = Ahi[C] - Alo[C] + 1
    tlo = Mp - Ahi[C]
    for idx in range(tn):
        T[idx] = _lbinom(I, tlo + idx)
        Tnz[idx] = 0 <= tlo + idx <= I
    for c in range(C - 1, -1, -1):
        b = vb[c]
        plo = Alo[c]
        pn = Ahi[c] - Alo[c] + 1
        # R_c[k] - theta k, into TW (normalised below)
        for k in range(blo[b], bhi[b] + 1):
            mx = -INFINITY
            nz = False
            for a in range(plo, plo + pn):
                idx = Mp - k - a - tlo
                v = P[pofs[c] + a - plo] + T[idx]
                mx = max(mx, v)
                nz |= Pnz[pofs[c] + a - plo] and Tnz[idx]
            acc = 0.0
            if mx > -INFINITY:
                for a in range(plo, plo + pn):
                    acc = _lse_add(acc, mx, P[pofs[c] + a - plo] + T[Mp - k - a - tlo])
            o = btw[b] + k - blo[b]
            TW[o] = mx + log(acc) - theta * k if mx > -INFINITY else -INFINITY
            TWnz[o] = nz and LWnz[o]
        mx = -INFINITY
        for k in range(blo[b], bhi[b] + 1):
            o = btw[b] + k - blo[b]
            if TWnz[o]:
                mx = max(mx, TW[o])
        for k in range(blo[b], bhi[b] + 1):
            o = btw[b] + k - blo[b]
            if not TWnz[o]:
                TW[o] = 0.0
            elif mx == -INFINITY:
                TW[o] = 1.0
            else:
                TW[o] = exp(TW[o] - mx)
        if c == 0:
            break
        # T_{c-1}[j] = sum_k W_b[k] T_c[j - k], j in [Mp - Ahi[c], Mp - Alo[c]]
        ntlo = Mp - Ahi[c]
        ntn = Ahi[c] - Alo[c] + 1
        for idx in range(ntn):
            j = ntlo + idx
            mx = -INFINITY
            nz = False
            for k in range(blo[b], bhi[b] + 1):
                v = LW[btw[b] + k - blo[b]] + T[j - k - tlo]
                mx = max(mx, v)
                nz |= LWnz[btw[b] + k - blo[b]] and Tnz[j - k - tlo]
            acc = 0.0
            if mx > -INFINITY:
                for k in range(blo[b], bhi[b] + 1):
                    acc = _lse_add(acc, mx, LW[btw[b] + k - blo[b]] + T[j - k - tlo])
            T2[idx] = mx + log(acc) if mx > -INFINITY else -INFINITY
            T2nz[idx] = nz
        Ttmp = T; T = T2; T2 = Ttmp
        Tnztmp = Tnz; Tnz = T2nz; T2nz = Tnztmp
        tlo = ntlo
    ws.TW = TW
    ws.TWnz = TWnz
    ws.btw = btw
    return logz + logfixed, p_int, int_safe, int_mine


cdef void _scatter(Workspace ws, int cols, double[::1] prob, uint8_t[::1] safe,
                   uint8_t[::1] mine, double p_int, bint int_safe, bint int_mine) noexcept:
    cdef int32_t[::1] fcell = ws.fcell, fvar = ws.fvar, icell = ws.icell
    cdef double[::1] vprob = ws.vprob
    cdef uint8_t[::1] vsafe = ws.vsafe, vmine = ws.vmine
    cdef int W = cols + 2, f, v, i
    cdef Py_ssize_t p, cell
    for f in range(ws.nf):
        p = fcell[f]
        v = fvar[f]
        cell = (p // W - 1) * cols + p % W - 1
        prob[cell] = vprob[v]
        safe[cell] = vsafe[v]
        mine[cell] = vmine[v]
    for i in range(ws.ni):
        p = icell[i]
        cell = (p // W - 1) * cols + p % W - 1
        prob[cell] = p_int
        safe[cell] = int_safe
        mine[cell] = int_mine


cdef object _prepare(Workspace ws, const int8_t[:, :] view, double[::1] prob,
                     uint8_t[::1] interior):
    """Steps 1 and the first half of 2 (scan, group): None, or on a
    contradiction the message (a str), on a view value outside -3..8 that
    value (an int).  Nothing here depends on the mine count or on the numbers'
    values beyond which cells are numbers, so a position that differs from
    another only in one number's value shares this part (see ``score``)."""
    # The shape goes into C ints below: the Python layer checked it against
    # fastmine.limits, and so does this (one comparison per call).
    if not (0 < view.shape[0] <= MAX_ROWS and 0 < view.shape[1] <= MAX_COLS
            and view.shape[0] * view.shape[1] <= MAX_CELLS):
        raise ValueError(f"a {view.shape[0]}x{view.shape[1]} view is outside fastmine.limits")
    cdef int rows = view.shape[0], cols = view.shape[1]
    ws._board(<Py_ssize_t>(rows + 2) * (cols + 2))
    ws.prepared += 1
    ws.cols = cols
    ws.err = None
    cdef int status = scan(ws, view, prob, interior)
    if status == -3:
        return ws.bad
    if status < 0:
        return ws.err
    group(ws, cols + 2)
    return None


cdef object _finish(Workspace ws, int64_t mines, int64_t max_entries, bint marginals=True):
    """Everything after ``_prepare`` up to the marginals (ws.vprob etc.);
    without ``marginals`` only the count (log_z and the interior's share):
    the backward passes, about half the work, are skipped.

    Returns ``(status, log_z, p_int, int_safe, int_mine)``, or on a
    contradiction the message (a str).  Changes the constraints' targets
    and lists (``ctarget``, ``cvstart``, ``cvlist``), nothing else ``_prepare`` made.
    """
    cdef int r
    ws.err = None
    ws.max_entries = max_entries
    ws.max_work = 16 * max_entries
    ws.work = 0
    cdef int fixed = reduce_fixed(ws)
    if fixed < 0 or tidy(ws) < 0:
        return ws.err
    components(ws)
    cdef int unknown = ws.nf + ws.ni
    if mines > unknown:
        return f"{mines} mines do not fit in the {unknown} cells that are not revealed"
    # tilt the DP weights towards the board's mine density (see _count.pyx)
    cdef double p = (<double>mines) / unknown if unknown > 0 else 0.5
    p = min(max(p, 1e-3), 1.0 - 1e-3)
    ws.theta = log(p / (1.0 - p))
    for r in range(9):
        ws.eth[r] = exp(ws.theta * r)
    cdef int status = count_all(ws)
    if status < 0:
        return ws.err
    res = _combine(ws, mines, fixed)
    if res is None:
        return ws.err
    log_z, p_int, int_safe, int_mine = res
    if marginals:
        ws._back(ws.max_layer)
        for r in range(ws.nblocks):
            backward(ws, r)
    return status, log_z, p_int, int_safe, int_mine


cdef object _solve(Workspace ws, const int8_t[:, :] view, int64_t mines, double[::1] prob,
                   uint8_t[::1] interior, int64_t max_entries, bint marginals=True):
    """Everything up to the marginals (ws.vprob etc.; see ``_finish``).

    Returns ``(status, log_z, p_int, int_safe, int_mine)``; on a contradiction
    the message (a str); on a view value outside -3..8, that value (an int).
    """
    res = _prepare(ws, view, prob, interior)
    if res is not None:
        return res
    return _finish(ws, mines, max_entries, marginals)


def analyze(Workspace ws, const int8_t[:, :] view, int64_t mines, double[::1] prob,
            uint8_t[::1] safe, uint8_t[::1] mine, uint8_t[::1] interior, int64_t max_entries):
    """Fill ``prob``/``safe``/``mine``/``interior`` (each rows*cols, row-major).

    Returns ``(exact, log_solutions, frontier_cells, variables, components,
    blocks, interior_probability)``; on a contradiction, the message (a str);
    on a view value outside -3..8, that value (an int).  Raises nothing itself:
    the Python layer turns those into exceptions.
    """
    res = _solve(ws, view, mines, prob, interior, max_entries)
    if type(res) is not tuple:
        return res
    status, log_z, p_int, int_safe, int_mine = res
    _scatter(ws, view.shape[1], prob, safe, mine, p_int, int_safe, int_mine)
    return (status == 0, log_z, ws.nf, ws.nv, ws.ncomp, ws.nblocks, p_int)



def analyze_known(Workspace ws, const int8_t[:, :] view, uint8_t[::1] known, int64_t mines,
                  double[::1] prob, uint8_t[:, ::1] flags, int64_t max_entries,
                  const double[::1] last=None):
    """``analyze`` of a position that follows the one ``known`` describes.

    The Python face of ``_analyze_known`` (the coach's compiled replay calls
    that one directly).
    """
    return _analyze_known(ws, view, known, mines, prob, flags, max_entries, last)


cdef object _analyze_known(Workspace ws, const int8_t[:, :] view, uint8_t[::1] known,
                           int64_t mines, double[::1] prob, uint8_t[:, ::1] flags,
                           int64_t max_entries, const double[::1] last):
    """``analyze`` of a position that follows the one ``known`` describes.

    ``known`` (rows*cols, row-major, kept by the caller between calls, all
    zero at first) holds what the last position analysed with it proved: its
    certain cells are taken out of the count (see _frontier.scan), so a
    game's later positions recount only what is still uncertain.  On success
    it holds this position's certain cells.  ``safe`` and ``mine`` must come
    zeroed; they are the rows of ``flags`` (3, rows*cols: safe, mine,
    interior).  Returns as ``analyze`` (``frontier_cells`` counts the known cells
    next to a number too; ``variables``, ``components`` and ``blocks`` are
    those recounted), or None when the view does not follow that position or
    is inconsistent: the caller clears ``known`` and calls again (a
    contradiction then gets the from-scratch message).

    ``last``: the probabilities of the position ``known`` describes (flat),
    or None.  When the view rules out no layout of it (cells proven safe
    opened, their numbers touching only proven cells: ws.unchanged), nothing
    is counted: the uncertain cells keep their ``last`` odds, and the answer
    is ``(None, frontier_cells, interior_probability)``, the latter -1.0 for
    "the last one" (the count's other figures are the last ones too).
    """
    if not (0 < view.shape[0] <= MAX_ROWS and 0 < view.shape[1] <= MAX_COLS
            and view.shape[0] * view.shape[1] <= MAX_CELLS):
        raise ValueError(f"a {view.shape[0]}x{view.shape[1]} view is outside fastmine.limits")
    cdef int rows = view.shape[0], cols = view.shape[1], k
    cdef Py_ssize_t n = <Py_ssize_t>rows * cols, cell
    if known.shape[0] != n or prob.shape[0] != n or flags.shape[0] != 3 or flags.shape[1] != n:
        raise ValueError("known and the outputs must have one entry per cell")
    cdef uint8_t[::1] safe = flags[0], mine = flags[1], interior = flags[2]
    ws._board(<Py_ssize_t>(rows + 2) * (cols + 2))
    ws.prepared += 1
    ws.cols = cols
    ws.err = None
    cdef int status = scan(ws, view, prob, interior, known)
    if status == -4:
        return None
    if status == -3:
        return ws.bad
    if status < 0:
        return None
    cdef bint same = ws.unchanged and last is not None and last.shape[0] == n
    if same:
        status, log_z, p_int = 0, 0.0, (-1.0 if ws.ni > 0 else NAN)
    else:
        group(ws, cols + 2)
        res = _finish(ws, mines - ws.kmines, max_entries)
        if type(res) is not tuple:
            return None
        status, log_z, p_int, int_safe, int_mine = res
        _scatter(ws, cols, prob, safe, mine, p_int, int_safe, int_mine)
    cdef bint no_interior = ws.ni == 0
    for cell in range(n):
        k = known[cell]
        if k == K_NONE:
            if same:
                prob[cell] = last[cell]     # uncertain before, the same odds now
            elif mine[cell]:
                known[cell] = K_MINE
            elif safe[cell]:
                known[cell] = K_SAFE
        elif k == K_MINE:
            mine[cell] = 1
            if no_interior and interior[cell]:
                p_int = 1.0     # every interior cell was known: all share its odds
        elif k == K_SAFE:
            safe[cell] = 1
            if no_interior and interior[cell]:
                p_int = 0.0
    if same:
        return (None, ws.nf + ws.kfront, p_int)
    return (status == 0, log_z, ws.nf + ws.kfront, ws.nv, ws.ncomp, ws.nblocks, p_int)
