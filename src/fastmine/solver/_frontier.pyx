# Private kernel: frontier extraction for the probability engine.
#
# The view is copied into a padded, raveled int8 board (ring = OUTSIDE), so the
# eight neighbours of a cell are fixed offsets and no loop needs a bounds check.
# Then: numbered cells with hidden neighbours become constraints; hidden cells
# next to one are the frontier (grouped into variables: cells with the same set
# of constraints), the others interior.  Unit propagation fixes what single
# numbers decide, duplicate constraints are dropped, and the rest is split into
# components, each put in an order that keeps the counting DP narrow.

from libc.math cimport NAN
from libc.stdint cimport int8_t, int32_t, uint8_t

from ._workspace cimport Workspace

cdef enum:
    OUTSIDE = 9     # the padding ring: not hidden, not a number


cdef inline void _offsets(int W, int* off) noexcept:
    # increasing order, so constraint ids collected around a cell come sorted
    off[0] = -W - 1; off[1] = -W; off[2] = -W + 1; off[3] = -1
    off[4] = 1; off[5] = W - 1; off[6] = W; off[7] = W + 1


cdef int scan(Workspace ws, const int8_t[:, :] view, double[::1] prob,
              uint8_t[::1] interior) except -2:
    """Pad the view; find the constraints, the frontier and the interior.

    0 on success; -1 on a contradiction (message in ws.err); -3 on a value
    outside -3..8 (kept in ws.bad).  Flags and question marks become hidden.
    """
    cdef int rows = view.shape[0], cols = view.shape[1]
    cdef int W = cols + 2
    cdef Py_ssize_t N = <Py_ssize_t>(rows + 2) * W
    cdef int off[8]
    cdef int r, c, k, n, v, nc = 0, nf = 0, ni = 0
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
    for r in range(rows):
        p = (r + 1) * W + 1
        for c in range(cols):
            v = view[r, c]
            if v < -3 or v > 8:
                ws.bad = v
                return -3
            pv[p + c] = v if v >= 0 else -1
    # Constraints, numbered in row-major order; their cells are kept in icell
    # for now (it is free until the interior is listed below).
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            p = r * W + c
            v = pv[p]
            cid[p] = -1
            if v < 0:
                continue
            fid[p] = -1
            cell = (r - 1) * cols + c - 1
            prob[cell] = NAN
            interior[cell] = 0
            n = 0
            for k in range(8):
                if pv[p + off[k]] < 0:
                    n += 1
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
            n = 0
            for k in range(8):
                q = p + off[k]
                if cid[q] >= 0:
                    fcons[8 * nf + n] = cid[q]
                    n += 1
            interior[(r - 1) * cols + c - 1] = n == 0
            if n == 0:
                icell[ni] = <int32_t>p
                fid[p] = -1
                ni += 1
            else:
                fn[nf] = n
                fcell[nf] = <int32_t>p
                fid[p] = nf
                nf += 1
    ws.nc = nc
    ws.nf = nf
    ws.ni = ni
    return 0


cdef int group(Workspace ws, int W) except -2:
    """Merge frontier cells with identical constraint sets into variables."""
    cdef int off[8]
    cdef int f, g, k, t, n, v, nv = 0, j
    cdef Py_ssize_t p0
    cdef bint same
    cdef int32_t[::1] fid = ws.fid, ccell = ws.ccell, fcons = ws.fcons, fn = ws.fn
    cdef int32_t[::1] fvar = ws.fvar, vrep = ws.vrep, vmult = ws.vmult
    cdef int32_t[::1] cvstart = ws.cvstart, cvlist = ws.cvlist, tq = ws.tq
    _offsets(W, off)
    for f in range(ws.nf):
        fvar[f] = -1
    for f in range(ws.nf):
        if fvar[f] >= 0:
            continue
        v = nv
        nv += 1
        fvar[f] = v
        vrep[v] = f
        vmult[v] = 1
        # a cell with the same set shares its first constraint, so it is one
        # of that constraint's (at most 8) neighbours
        n = fn[f]
        p0 = ccell[fcons[8 * f]]
        for k in range(8):
            g = fid[p0 + off[k]]
            if g <= f or fvar[g] >= 0 or fn[g] != n:
                continue
            same = True
            for t in range(n):
                if fcons[8 * g + t] != fcons[8 * f + t]:
                    same = False
                    break
            if same:
                fvar[g] = v
                vmult[v] += 1
    ws.nv = nv
    # constraint -> variables (CSR)
    for j in range(ws.nc + 1):
        cvstart[j] = 0
    for v in range(nv):
        f = vrep[v]
        for t in range(fn[f]):
            cvstart[fcons[8 * f + t] + 1] += 1
    for j in range(ws.nc):
        cvstart[j + 1] += cvstart[j]
        tq[j] = cvstart[j]
    for v in range(nv):
        f = vrep[v]
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            cvlist[tq[j]] = v
            tq[j] += 1
    return 0


cdef int reduce_fixed(Workspace ws) except -2:
    """Fix every variable a single number decides, repeatedly (unit propagation).

    A number whose residual is 0 makes its free cells safe; one whose residual
    equals its free cells makes them all mines.  Fixed variables leave the
    constraint lists (targets reduced), so the DP only sees undecided cells and
    the frontier falls apart into smaller components.  Returns the mines fixed.
    """
    cdef int32_t[::1] vrep = ws.vrep, fn = ws.fn, fcons = ws.fcons, vmult = ws.vmult
    cdef int32_t[::1] cvstart = ws.cvstart, cvlist = ws.cvlist, ctarget = ws.ctarget
    cdef int32_t[::1] vfix = ws.vfix, jfc = ws.jrem, jq = ws.jfirst, cmark = ws.cmark
    cdef double[::1] vprob = ws.vprob
    cdef uint8_t[::1] inq = ws.jinc, vsafe = ws.vsafe, vmine = ws.vmine
    cdef int nc = ws.nc, j, j2, e, u, x, f, t, head = 0, count = 0, w, rd, end
    cdef int fixed = 0
    for u in range(ws.nv):
        # A variable with no cell left (fifty.Counter fixed them all) is fixed
        # safe; in a scanned position every variable has a cell.
        vfix[u] = -1 if vmult[u] > 0 else 0
        cmark[u] = -1 if vmult[u] > 0 else -2
    for j in range(nc):
        t = 0
        for e in range(cvstart[j], cvstart[j + 1]):
            t += vmult[cvlist[e]]
        jfc[j] = t
        jq[j] = j
        inq[j] = 1
    count = nc
    while count > 0:
        j = jq[head]
        head = head + 1 if head + 1 < nc else 0
        count -= 1
        inq[j] = 0
        if ctarget[j] < 0 or ctarget[j] > jfc[j]:
            ws.err = f"no mine layout fits the numbers around cell {cell_name(ws, ws.ccell[j])}"
            return -1
        if jfc[j] == 0 or (0 < ctarget[j] < jfc[j]):
            continue
        for e in range(cvstart[j], cvstart[j + 1]):
            u = cvlist[e]
            if vfix[u] >= 0:
                continue
            x = vmult[u] if ctarget[j] > 0 else 0
            vfix[u] = x
            cmark[u] = -2
            fixed += x
            vprob[u] = 1.0 if x else 0.0
            vsafe[u] = x == 0
            vmine[u] = x > 0
            f = vrep[u]
            for t in range(fn[f]):
                j2 = fcons[8 * f + t]
                jfc[j2] -= vmult[u]
                ctarget[j2] -= x
                if not inq[j2]:
                    inq[j2] = 1
                    jq[(head + count) % nc] = j2
                    count += 1
    # drop fixed variables from the constraint lists
    w = 0
    rd = cvstart[0]
    for j in range(nc):
        end = cvstart[j + 1]
        cvstart[j] = w
        for e in range(rd, end):
            if vfix[cvlist[e]] < 0:
                cvlist[w] = cvlist[e]
                w += 1
        rd = end
    cvstart[nc] = w
    return fixed


cdef int tidy(Workspace ws) except -2:
    """Mark duplicate or emptied constraints, and the key bits each live one needs."""
    cdef int32_t[::1] vrep = ws.vrep, fn = ws.fn, fcons = ws.fcons, vmult = ws.vmult
    cdef int32_t[::1] cvstart = ws.cvstart, cvlist = ws.cvlist, ctarget = ws.ctarget
    cdef int32_t[::1] ccell = ws.ccell, jbits = ws.jbits
    cdef uint8_t[::1] jdup = ws.jdup
    cdef int j, j2, e, f, t, ln, cap
    cdef bint same
    for j in range(ws.nc):
        jdup[j] = 0
        ln = cvstart[j + 1] - cvstart[j]
        if ln == 0:
            jdup[j] = 1
            jbits[j] = 0
            continue
        f = vrep[cvlist[cvstart[j]]]
        for t in range(fn[f]):
            j2 = fcons[8 * f + t]
            if j2 >= j:
                break
            if cvstart[j2 + 1] - cvstart[j2] != ln:
                continue
            same = True
            for e in range(ln):
                if cvlist[cvstart[j] + e] != cvlist[cvstart[j2] + e]:
                    same = False
                    break
            if same:
                if ctarget[j] != ctarget[j2]:
                    ws.err = (f"the numbers at {cell_name(ws, ccell[j2])} and {cell_name(ws, ccell[j])} "
                              f"contradict each other")
                    return -1
                jdup[j] = 1
                break
    # bits a constraint's residual takes in a DP key (0: never in a key)
    for j in range(ws.nc):
        cap = 0
        for e in range(cvstart[j], cvstart[j + 1]):
            cap += vmult[cvlist[e]]
        t = 0
        if not jdup[j] and cvstart[j + 1] - cvstart[j] > 1:
            while (1 << t) <= min(ctarget[j], cap):
                t += 1
        jbits[j] = t
    return 0


cdef int _bfs(Workspace ws, int32_t[::1] mark, int32_t[::1] out, int start, int at,
              int label) noexcept:
    """Breadth-first order of ``start``'s component written to out[at:]; returns the end."""
    cdef int32_t[::1] vrep = ws.vrep, fn = ws.fn, fcons = ws.fcons
    cdef int32_t[::1] cvstart = ws.cvstart, cvlist = ws.cvlist
    cdef int head = at, tail = at, v, f, t, j, e, u
    out[tail] = start
    tail += 1
    mark[start] = label
    while head < tail:
        v = out[head]
        head += 1
        f = vrep[v]
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            for e in range(cvstart[j], cvstart[j + 1]):
                u = cvlist[e]
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
    cdef int32_t[::1] vrep = ws.vrep, fn = ws.fn, fcons = ws.fcons, order = ws.ord
    cdef int32_t[::1] cvstart = ws.cvstart, cvlist = ws.cvlist, jbits = ws.jbits
    cdef int32_t[::1] jleft = ws.jrem, vstate = ws.cmark2, fr = ws.fr
    cdef int nfr = 0, tick = 0, q, bq, u, f, t, j, e, w, d, bestd, bestt
    fr[nfr] = start
    nfr += 1
    vstate[start] = tick
    tick += 1
    while nfr > 0:
        bq = 0
        bestd = 1 << 30
        bestt = 1 << 30
        for q in range(nfr):
            u = fr[q]
            f = vrep[u]
            d = 0
            for t in range(fn[f]):
                j = fcons[8 * f + t]
                if jbits[j] == 0:
                    continue
                if jleft[j] == cvstart[j + 1] - cvstart[j]:
                    d += jbits[j]
                elif jleft[j] == 1:
                    d -= jbits[j]
            if d < bestd or (d == bestd and vstate[u] < bestt):
                bestd = d
                bestt = vstate[u]
                bq = q
        u = fr[bq]
        nfr -= 1
        fr[bq] = fr[nfr]
        order[at] = u
        at += 1
        vstate[u] = -2
        f = vrep[u]
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            jleft[j] -= 1
            if jleft[j] > 0:
                for e in range(cvstart[j], cvstart[j + 1]):
                    w = cvlist[e]
                    if vstate[w] == -1:
                        vstate[w] = tick
                        tick += 1
                        fr[nfr] = w
                        nfr += 1
    return at


cdef void components(Workspace ws) noexcept:
    """Components, each ordered greedily (see _greedy) from a far end."""
    cdef int32_t[::1] cmark = ws.cmark, cmark2 = ws.cmark2, tq = ws.tq
    cdef int32_t[::1] cstart = ws.cstart, jleft = ws.jrem, cvstart = ws.cvstart
    cdef int32_t[::1] vfix = ws.vfix
    cdef int v, s, j, end, at = 0, ncomp = 0
    for v in range(ws.nv):
        cmark[v] = -1 if vfix[v] < 0 else -2    # fixed variables take no part
        cmark2[v] = -1
    for j in range(ws.nc):
        jleft[j] = cvstart[j + 1] - cvstart[j]
    cstart[0] = 0
    for s in range(ws.nv):
        if cmark[s] != -1:
            continue
        end = _bfs(ws, cmark, tq, s, 0, ncomp)
        at = _greedy(ws, tq[end - 1], at)
        ncomp += 1
        cstart[ncomp] = at
    ws.ncomp = ncomp


cdef str cell_name(Workspace ws, Py_ssize_t p):
    cdef int W = ws.cols + 2
    return f"({p // W - 1}, {p % W - 1})"
