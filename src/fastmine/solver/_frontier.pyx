# Private kernel: frontier extraction for the probability engine.
#
# The view is copied into a padded, raveled int8 board (ring = OUTSIDE), so the
# eight neighbours of a cell are fixed offsets and no loop needs a bounds check.
# Then: numbered cells with hidden neighbours become constraints; hidden cells
# next to one are the frontier (grouped into variables: cells with the same set
# of constraints), the others interior.  Unit propagation fixes what single
# numbers decide, duplicate constraints are dropped, and the rest is split into
# components, each put in an order that keeps the counting DP narrow.
#
# The steps index the workspace's buffers directly (ws.fid[p]): a memoryview
# bound to a local costs an atomic acquire and release on every call, and
# these run for every hypothetical position the best strategy scores.

from libc.math cimport NAN
from libc.stdint cimport int8_t, int32_t, uint8_t

from ._workspace cimport Workspace

cdef enum:
    OUTSIDE = 9     # the padding ring: not hidden, not a number
    KNOWN_MINE = 10 # a hidden cell an earlier position proved a mine (see scan's known)
    KNOWN_SAFE = 11 # a hidden cell an earlier position proved safe


cdef inline void _offsets(int W, int* off) noexcept:
    # increasing order, so constraint ids collected around a cell come sorted
    off[0] = -W - 1; off[1] = -W; off[2] = -W + 1; off[3] = -1
    off[4] = 1; off[5] = W - 1; off[6] = W; off[7] = W + 1


cdef int scan(Workspace ws, const int8_t[:, :] view, double[::1] prob,
              uint8_t[::1] interior, uint8_t[::1] known=None) except -2:
    """Pad the view; find the constraints, the frontier and the interior.

    0 on success; -1 on a contradiction (message in ws.err); -3 on a value
    outside -3..8 (kept in ws.bad).  Flags and question marks become hidden.

    ``known`` (one code a cell, row-major): what an earlier position of the
    same game proved (K_MINE, K_SAFE) and which cells it showed open
    (K_OPEN).  A proven cell stays proven as cells open, so it is taken out
    of the count: a known mine lowers its numbers' targets (and ws.kmines
    counts it off the mine total), a known safe cell only leaves the unknown
    cells.  The layouts counted are the same, so are the probabilities.  Its
    probability is written here (1 or 0), its interior flag too; the caller
    sets its safe/mine flags.  -4 when the view does not follow that position
    (an open cell hidden again, a known mine open, a number its known mines
    overfill): the caller starts afresh.  Every open cell is marked K_OPEN,
    and K_DONE once its neighbours are all open or proven: it can never be a
    constraint again, so later scans skip its neighbours.

    ws.unchanged tells whether the layouts are those of the last position:
    every cell opened since was proven safe, and its number touches no cell
    left uncertain (only proven ones), so it rules out no layout (a number its
    known mines do not make is -4 above).  The counts are then the last ones.
    """
    cdef int rows = view.shape[0], cols = view.shape[1]
    cdef int W = cols + 2
    cdef Py_ssize_t N = <Py_ssize_t>(rows + 2) * W
    cdef int off[8]
    cdef int r, c, k, n, v, t, nc = 0, nf = 0, ni = 0, kmines = 0, kfront = 0
    cdef bint has_known = known is not None
    cdef bint unchanged = has_known, fresh = False
    cdef Py_ssize_t p, q, cell
    cdef int8_t[::1] pv = ws.pv
    cdef int32_t[::1] cid = ws.cid, fid = ws.fid, icell = ws.icell
    cdef int32_t[::1] ctarget, ccell, fcons, fn, fcell     # bound once sized, below
    _offsets(W, off)
    # Only the ring is set up front: every other cell is written by the passes
    # below before anything reads it (this runs for every hypothetical
    # position the best strategy scores, so whole-board passes count).
    for p in range(W):
        pv[p] = OUTSIDE; cid[p] = -1; fid[p] = -1
        pv[N - W + p] = OUTSIDE; cid[N - W + p] = -1; fid[N - W + p] = -1
    for r in range(1, rows + 1):
        p = r * W
        pv[p] = OUTSIDE; cid[p] = -1; fid[p] = -1
        pv[p + W - 1] = OUTSIDE; cid[p + W - 1] = -1; fid[p + W - 1] = -1
    if not has_known:
        for r in range(rows):
            p = (r + 1) * W + 1
            for c in range(cols):
                v = view[r, c]
                if v < -3 or v > 8:
                    ws.bad = v
                    return -3
                pv[p + c] = v if v >= 0 else -1
                fid[p + c] = -1
    else:
        for r in range(rows):
            p = (r + 1) * W + 1
            cell = <Py_ssize_t>r * cols
            for c in range(cols):
                v = view[r, c]
                if v < -3 or v > 8:
                    ws.bad = v
                    return -3
                fid[p + c] = -1
                k = known[cell + c]
                if v >= 0:
                    if k == K_MINE:
                        return -4
                    if k == K_SAFE or k == K_NONE:   # opened since the last position
                        unchanged &= k == K_SAFE
                        fresh = True
                        known[cell + c] = K_FRESH
                    pv[p + c] = v
                elif k == K_NONE:
                    pv[p + c] = -1
                elif k == K_MINE:
                    pv[p + c] = KNOWN_MINE
                    prob[cell + c] = 1.0
                    kmines += 1
                elif k == K_SAFE:
                    pv[p + c] = KNOWN_SAFE
                    prob[cell + c] = 0.0
                else:           # open before, hidden now
                    return -4
    ws.kmines = kmines
    # Constraints, numbered in row-major order; their cells are kept in icell
    # for now (it is free until the interior is listed below).
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            p = r * W + c
            v = pv[p]
            cid[p] = -1
            if v < 0:
                continue
            cell = (r - 1) * cols + c - 1
            if has_known and known[cell] == K_DONE:
                prob[cell] = NAN        # a number settled in an earlier position
                interior[cell] = 0
                continue
            if v > 8:                   # a known cell (has_known only)
                interior[cell] = 1
                for k in range(8):
                    t = pv[p + off[k]]
                    if 0 <= t <= 8:
                        interior[cell] = 0
                        kfront += 1
                        break
                continue
            prob[cell] = NAN
            interior[cell] = 0
            n = 0
            for k in range(8):
                t = pv[p + off[k]]
                if t < 0:
                    n += 1
                    fid[p + off[k]] = -2    # next to a number: on the frontier
                elif t == KNOWN_MINE:
                    v -= 1
            if v < 0 or (v > n and has_known):
                return -4               # not what the known cells' position allows
            pv[p] = v                   # its target (lowered by its known mines)
            if has_known:
                if known[cell] == K_FRESH:
                    unchanged &= n == 0     # a new number on an uncertain cell: news
                    known[cell] = K_OPEN
                if n == 0:
                    known[cell] = K_DONE    # its cells are all open or proven: for good
            if v > n:
                ws.err = (f"cell ({r - 1}, {c - 1}) shows {v} but has only {n} "
                          f"unrevealed neighbour{'s' if n != 1 else ''}")
                return -1
            if n > 0:
                cid[p] = nc
                icell[nc] = <int32_t>p
                nc += 1
    # each frontier cell is next to a constraint: at most 8 per constraint
    ws._frontier(min(<Py_ssize_t>rows * cols, 8 * <Py_ssize_t>nc), nc)
    ctarget = ws.ctarget; ccell = ws.ccell
    fcons = ws.fcons; fn = ws.fn; fcell = ws.fcell
    for k in range(nc):
        ccell[k] = icell[k]
        ctarget[k] = pv[icell[k]]
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            p = r * W + c
            if pv[p] >= 0:
                continue
            if fid[p] != -2:        # no number around it (most hidden cells)
                interior[(r - 1) * cols + c - 1] = 1
                icell[ni] = <int32_t>p
                ni += 1
                continue
            n = 0
            for k in range(8):
                q = p + off[k]
                if cid[q] >= 0:
                    fcons[8 * nf + n] = cid[q]
                    n += 1
            interior[(r - 1) * cols + c - 1] = 0
            fn[nf] = n
            fcell[nf] = <int32_t>p
            fid[p] = nf
            nf += 1
    ws.nc = nc
    ws.nf = nf
    ws.ni = ni
    ws.kfront = kfront
    ws.unchanged = unchanged and fresh
    return 0


cdef int group(Workspace ws, int W) except -2:
    """Merge frontier cells with identical constraint sets into variables."""
    cdef int off[8]
    cdef int f, g, k, t, n, v, nv = 0, j
    cdef Py_ssize_t p0
    cdef bint same
    _offsets(W, off)
    for f in range(ws.nf):
        ws.fvar[f] = -1
    for f in range(ws.nf):
        if ws.fvar[f] >= 0:
            continue
        v = nv
        nv += 1
        ws.fvar[f] = v
        ws.vrep[v] = f
        ws.vmult[v] = 1
        # a cell with the same set shares its first constraint, so it is one
        # of that constraint's (at most 8) neighbours
        n = ws.fn[f]
        p0 = ws.ccell[ws.fcons[8 * f]]
        for k in range(8):
            g = ws.fid[p0 + off[k]]
            if g <= f or ws.fvar[g] >= 0 or ws.fn[g] != n:
                continue
            same = True
            for t in range(n):
                if ws.fcons[8 * g + t] != ws.fcons[8 * f + t]:
                    same = False
                    break
            if same:
                ws.fvar[g] = v
                ws.vmult[v] += 1
    ws.nv = nv
    # constraint -> variables (CSR)
    for j in range(ws.nc + 1):
        ws.cvstart[j] = 0
    for v in range(nv):
        f = ws.vrep[v]
        for t in range(ws.fn[f]):
            ws.cvstart[ws.fcons[8 * f + t] + 1] += 1
    for j in range(ws.nc):
        ws.cvstart[j + 1] += ws.cvstart[j]
        ws.tq[j] = ws.cvstart[j]
    for v in range(nv):
        f = ws.vrep[v]
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            ws.cvlist[ws.tq[j]] = v
            ws.tq[j] += 1
    return 0


cdef int reduce_fixed(Workspace ws) except -2:
    """Fix every variable a single number decides, repeatedly (unit propagation).

    A number whose residual is 0 makes its free cells safe; one whose residual
    equals its free cells makes them all mines.  Fixed variables leave the
    constraint lists (targets reduced), so the DP only sees undecided cells and
    the frontier falls apart into smaller components.  Returns the mines fixed.
    """
    cdef int nc = ws.nc, j, j2, e, u, x, f, t, head = 0, count = 0, w, rd, end
    cdef int fixed = 0
    for u in range(ws.nv):
        # A variable with no cell left (fifty.Counter fixed them all) is fixed
        # safe; in a scanned position every variable has a cell.
        ws.vfix[u] = -1 if ws.vmult[u] > 0 else 0
        ws.cmark[u] = -1 if ws.vmult[u] > 0 else -2
    for j in range(nc):
        t = 0
        for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
            t += ws.vmult[ws.cvlist[e]]
        ws.jrem[j] = t
        ws.jfirst[j] = j
        ws.jinc[j] = 1
    count = nc
    while count > 0:
        j = ws.jfirst[head]
        head = head + 1 if head + 1 < nc else 0
        count -= 1
        ws.jinc[j] = 0
        if ws.ctarget[j] < 0 or ws.ctarget[j] > ws.jrem[j]:
            ws.err = f"no mine layout fits the numbers around cell {cell_name(ws, ws.ccell[j])}"
            return -1
        if ws.jrem[j] == 0 or (0 < ws.ctarget[j] < ws.jrem[j]):
            continue
        for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
            u = ws.cvlist[e]
            if ws.vfix[u] >= 0:
                continue
            x = ws.vmult[u] if ws.ctarget[j] > 0 else 0
            ws.vfix[u] = x
            ws.cmark[u] = -2
            fixed += x
            ws.vprob[u] = 1.0 if x else 0.0
            ws.vsafe[u] = x == 0
            ws.vmine[u] = x > 0
            f = ws.vrep[u]
            for t in range(ws.fn[f]):
                j2 = ws.fcons[8 * f + t]
                ws.jrem[j2] -= ws.vmult[u]
                ws.ctarget[j2] -= x
                if not ws.jinc[j2]:
                    ws.jinc[j2] = 1
                    ws.jfirst[(head + count) % nc] = j2
                    count += 1
    # drop fixed variables from the constraint lists
    w = 0
    rd = ws.cvstart[0]
    for j in range(nc):
        end = ws.cvstart[j + 1]
        ws.cvstart[j] = w
        for e in range(rd, end):
            if ws.vfix[ws.cvlist[e]] < 0:
                ws.cvlist[w] = ws.cvlist[e]
                w += 1
        rd = end
    ws.cvstart[nc] = w
    return fixed


cdef int tidy(Workspace ws) except -2:
    """Mark duplicate or emptied constraints, and the key bits each live one needs."""
    cdef int j, j2, e, f, t, ln, cap
    cdef bint same
    for j in range(ws.nc):
        ws.jdup[j] = 0
        ln = ws.cvstart[j + 1] - ws.cvstart[j]
        if ln == 0:
            ws.jdup[j] = 1
            ws.jbits[j] = 0
            continue
        f = ws.vrep[ws.cvlist[ws.cvstart[j]]]
        for t in range(ws.fn[f]):
            j2 = ws.fcons[8 * f + t]
            if j2 >= j:
                break
            if ws.cvstart[j2 + 1] - ws.cvstart[j2] != ln:
                continue
            same = True
            for e in range(ln):
                if ws.cvlist[ws.cvstart[j] + e] != ws.cvlist[ws.cvstart[j2] + e]:
                    same = False
                    break
            if same:
                if ws.ctarget[j] != ws.ctarget[j2]:
                    ws.err = (f"the numbers at {cell_name(ws, ws.ccell[j2])} and {cell_name(ws, ws.ccell[j])} "
                              f"contradict each other")
                    return -1
                ws.jdup[j] = 1
                break
    # bits a constraint's residual takes in a DP key (0: never in a key)
    for j in range(ws.nc):
        cap = 0
        for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
            cap += ws.vmult[ws.cvlist[e]]
        t = 0
        if not ws.jdup[j] and ws.cvstart[j + 1] - ws.cvstart[j] > 1:
            while (1 << t) <= min(ws.ctarget[j], cap):
                t += 1
        ws.jbits[j] = t
    return 0


cdef int _bfs(Workspace ws, int32_t[::1] mark, int32_t[::1] out, int start, int at,
              int label) noexcept:
    """Breadth-first order of ``start``'s component written to out[at:]; returns the end."""
    cdef int head = at, tail = at, v, f, t, j, e, u
    out[tail] = start
    tail += 1
    mark[start] = label
    while head < tail:
        v = out[head]
        head += 1
        f = ws.vrep[v]
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
                u = ws.cvlist[e]
                if mark[u] != label:
                    mark[u] = label
                    out[tail] = u
                    tail += 1
    return tail


cdef int _greedy(Workspace ws, int start, int at) noexcept:
    """Order start's component from start, always taking the fringe variable that adds
    the fewest key bits (closing a constraint counts negative), oldest first on ties.

    The DP's key size and state count follow the open constraints, so this keeps
    a frontier "swept" from one end instead of growing a wide BFS front.
    """
    cdef int nfr = 0, tick = 0, q, bq, u, f, t, j, e, w, d, bestd, bestt
    ws.fr[nfr] = start
    nfr += 1
    ws.cmark2[start] = tick
    tick += 1
    while nfr > 0:
        bq = 0
        bestd = 1 << 30
        bestt = 1 << 30
        for q in range(nfr):
            u = ws.fr[q]
            f = ws.vrep[u]
            d = 0
            for t in range(ws.fn[f]):
                j = ws.fcons[8 * f + t]
                if ws.jbits[j] == 0:
                    continue
                if ws.jrem[j] == ws.cvstart[j + 1] - ws.cvstart[j]:
                    d += ws.jbits[j]
                elif ws.jrem[j] == 1:
                    d -= ws.jbits[j]
            if d < bestd or (d == bestd and ws.cmark2[u] < bestt):
                bestd = d
                bestt = ws.cmark2[u]
                bq = q
        u = ws.fr[bq]
        nfr -= 1
        ws.fr[bq] = ws.fr[nfr]
        ws.ord[at] = u
        at += 1
        ws.cmark2[u] = -2
        f = ws.vrep[u]
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            ws.jrem[j] -= 1
            if ws.jrem[j] > 0:
                for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
                    w = ws.cvlist[e]
                    if ws.cmark2[w] == -1:
                        ws.cmark2[w] = tick
                        tick += 1
                        ws.fr[nfr] = w
                        nfr += 1
    return at


cdef void components(Workspace ws) noexcept:
    """Components, each ordered greedily (see _greedy) from a far end."""
    cdef int v, s, j, end, at = 0, ncomp = 0
    for v in range(ws.nv):
        ws.cmark[v] = -1 if ws.vfix[v] < 0 else -2    # fixed variables take no part
        ws.cmark2[v] = -1
    for j in range(ws.nc):
        ws.jrem[j] = ws.cvstart[j + 1] - ws.cvstart[j]
    ws.cstart[0] = 0
    for s in range(ws.nv):
        if ws.cmark[s] != -1:
            continue
        end = _bfs(ws, ws.cmark, ws.tq, s, 0, ncomp)
        at = _greedy(ws, ws.tq[end - 1], at)
        ncomp += 1
        ws.cstart[ncomp] = at
    ws.ncomp = ncomp


cdef str cell_name(Workspace ws, Py_ssize_t p):
    cdef int W = ws.cols + 2
    return f"({p // W - 1}, {p % W - 1})"
