# Private kernel of fastmine.solver.probability: exact mine probabilities.
#
# Input is a *padded, raveled* view: (rows + 2) x (cols + 2) int8 cells, the
# ring set to OUTSIDE (9), hidden/flag/question cells already folded to -1 by
# the Python layer, which also checked every value.  The kernel trusts that.
#
# Pipeline (one call of ``analyze``):
#   1. scan:    numbered cells with hidden neighbours become constraints; hidden
#               cells next to a constraint are the frontier, the others interior.
#   2. group:   frontier cells with the same set of constraints become one
#               variable with a multiplicity m (it holds 0..m mines, C(m, x) ways).
#   3. split:   variables linked by shared constraints form components; each is
#               ordered by a breadth-first search from a far end, which keeps the
#               number of "open" constraints (the DP state) small on a frontier.
#   4. count:   per component, a dynamic programme over that order.  A state is
#               the residual of every open constraint (4 bits each, <= 16 open);
#               each state carries the weighted count of partial layouts *per
#               number of mines used so far*.  All layers are stored (forward).
#   5. combine: components and the interior (C(I, n) ways to put n mines there)
#               are combined in log space so the total mine count is used
#               exactly and huge boards never overflow.
#   6. marginals: a backward pass per component, seeded with the weight of
#               "everything else" for each mine count, gives each variable's
#               expected mines; booleans carried alongside the floats decide
#               certainty exactly (a float can underflow, a boolean cannot).
#
# A component whose DP needs more than 16 open constraints or more stored
# entries than the budget is split in halves along its order, dropping the
# constraints that straddle the cut (a relaxation: every true layout is still
# counted, so cells found certain stay certain; probabilities become
# approximate and the result says exact=False).

from libc.math cimport INFINITY, NAN, exp, frexp, ldexp, lgamma, log
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

import numpy as np

cdef extern from *:
    # Defined by setup.py: 1 in a FASTMINE_DEBUG build.
    int FASTMINE_DEBUG_BUILD

#: True when built with FASTMINE_DEBUG=1 (bounds and wraparound checks on).
BOUNDS_CHECKED = bool(FASTMINE_DEBUG_BUILD)

#: Value of the padding ring of the view handed to :func:`analyze`.
OUTSIDE = 9

DEF KEY_BITS = 64       # DP state key: the residuals of the open constraints, packed
DEF LN2 = 0.6931471805599453

cdef double BINOM[9][9]
cdef int _bi, _bj
for _bi in range(9):
    for _bj in range(9):
        BINOM[_bi][_bj] = 0.0
    BINOM[_bi][0] = 1.0
    for _bj in range(1, _bi + 1):
        BINOM[_bi][_bj] = BINOM[_bi - 1][_bj - 1] + (BINOM[_bi - 1][_bj] if _bj <= _bi - 1 else 0.0)


cdef class Workspace:
    """Scratch buffers reused across calls (grown on demand, never shrunk)."""

    # per-board scratch, sized by the padded board
    cdef int32_t[::1] cid, fid, ctarget, ccell, fcons, fn, fcell, fvar
    cdef int32_t[::1] vrep, vmult, cvstart, cvlist, cmark, cmark2, ord, tq, cstart
    cdef int32_t[::1] pos, jstamp, jfirst, jlast, jrem, jslot, jmask, icell, jbits, fr, vfix
    cdef uint8_t[::1] jinc, jdup
    cdef int32_t[::1] pstart, pslot, pmask, pnew, ptarget, pcap
    cdef double[::1] vprob
    cdef uint8_t[::1] vsafe, vmine
    cdef Py_ssize_t board_cap
    # DP storage, grown on demand
    cdef int32_t[::1] lstate, slo, shi, trans, hval
    cdef int64_t[::1] ltrans, soff, hstamp
    cdef uint64_t[::1] skey, hkey
    cdef double[::1] F, B0, B1
    cdef uint8_t[::1] Fnz, B0nz, B1nz
    cdef int hbits
    cdef int64_t stamp
    # blocks (components, or pieces of a split component)
    cdef int32_t[::1] bb0, bb1, blayer, bscale
    cdef int nblocks
    # counters of the current call
    cdef int nl, nc, nf, nv, ni, ncomp, cols, pstamp
    # terminal weights of each block's backward pass (from _combine)
    cdef double[::1] TW
    cdef uint8_t[::1] TWnz
    cdef int64_t[::1] btw
    cdef Py_ssize_t ns, ne, nt, max_layer
    cdef int64_t work, max_work, max_entries
    cdef double theta
    cdef double eth[9]
    cdef object err

    def __cinit__(self):
        self.board_cap = 0
        self.hbits = 0
        self.stamp = 0
        self.nblocks = 0
        z32 = np.zeros(0, np.int32)
        self.lstate = self.slo = self.shi = self.trans = self.hval = z32
        self.bb0 = self.bb1 = self.blayer = self.bscale = z32
        z64 = np.zeros(0, np.int64)
        self.ltrans = self.soff = self.hstamp = z64
        self.skey = self.hkey = np.zeros(0, np.uint64)
        self.F = self.B0 = self.B1 = np.zeros(0, np.float64)
        self.Fnz = self.B0nz = self.B1nz = np.zeros(0, np.uint8)

    def nbytes(self):
        """Bytes held by the growable DP buffers (the cache drops big workspaces)."""
        return (self.F.shape[0] + self.B0.shape[0] + self.B1.shape[0]) * 9 + \
            (self.skey.shape[0] + self.hkey.shape[0]) * 24 + self.trans.shape[0] * 4 + \
            self.board_cap * 4 * 40

    def structure(self):
        """The last call's frontier structure (for tests and debugging)."""
        nv, nc, nf = self.nv, self.nc, self.nf
        a = lambda m, k: np.asarray(m)[:k].copy()
        return {
            "order": a(self.ord, nv), "mult": a(self.vmult, nv),
            "comp_start": a(self.cstart, self.ncomp + 1),
            "var_of_cell": a(self.fvar, nf), "cell": a(self.fcell, nf),
            "cons_cell": a(self.ccell, nc), "cons_target": a(self.ctarget, nc),
            "cons_vars": [a(self.cvlist, self.cvstart[j + 1])[self.cvstart[j]:] for j in range(nc)],
            "blocks": [(self.bb0[b], self.bb1[b]) for b in range(self.nblocks)],
        }

    cdef void _board(self, Py_ssize_t n):
        if n <= self.board_cap:
            return
        n = max(n, 2 * self.board_cap)
        i32 = lambda k: np.empty(k, np.int32)
        self.cid = i32(n); self.fid = i32(n); self.ctarget = i32(n); self.ccell = i32(n)
        self.fcons = i32(8 * n); self.fn = i32(n); self.fcell = i32(n); self.fvar = i32(n)
        self.vrep = i32(n); self.vmult = i32(n); self.cvstart = i32(n + 1)
        self.cvlist = i32(8 * n); self.cmark = i32(n); self.cmark2 = i32(n)
        self.ord = i32(n); self.tq = i32(n); self.cstart = i32(n + 1)
        self.pos = i32(n); self.jstamp = i32(n); self.jfirst = i32(n); self.jlast = i32(n)
        self.jrem = i32(n); self.jslot = i32(n); self.icell = i32(n)
        self.jmask = i32(n); self.jbits = i32(n); self.fr = i32(n)
        self.vfix = i32(n)
        self.jinc = np.empty(n, np.uint8); self.jdup = np.empty(n, np.uint8)
        self.pstart = i32(n + 1); self.pslot = i32(8 * n); self.pnew = i32(8 * n)
        self.pmask = i32(8 * n)
        self.ptarget = i32(8 * n); self.pcap = i32(8 * n)
        self.vprob = np.empty(n, np.float64)
        self.vsafe = np.empty(n, np.uint8); self.vmine = np.empty(n, np.uint8)
        self.bb0 = i32(n); self.bb1 = i32(n); self.blayer = i32(n); self.bscale = i32(n)
        self.board_cap = n

    cdef void _layers(self, Py_ssize_t n):
        if n + 1 > self.lstate.shape[0]:
            n = max(n + 1, 2 * self.lstate.shape[0], 64)
            self.lstate = _grow32(self.lstate, n)
            self.ltrans = _grow64(self.ltrans, n)

    cdef void _states(self, Py_ssize_t n):
        if n > self.skey.shape[0]:
            n = max(n, 2 * self.skey.shape[0], 256)
            self.skey = _grow64u(self.skey, n)
            self.slo = _grow32(self.slo, n)
            self.shi = _grow32(self.shi, n)
            self.soff = _grow64(self.soff, n)

    cdef void _trans(self, Py_ssize_t n):
        if n > self.trans.shape[0]:
            self.trans = _grow32(self.trans, max(n, 2 * self.trans.shape[0], 1024))

    cdef void _entries(self, Py_ssize_t n):
        if n > self.F.shape[0]:
            n = max(n, 2 * self.F.shape[0], 1024)
            self.F = _growf(self.F, n)
            self.Fnz = _grow8(self.Fnz, n)

    cdef void _hash(self, Py_ssize_t n):
        # a table with at least 2n slots (load <= 1/2)
        cdef int bits = 6
        while (<Py_ssize_t>1 << bits) < 2 * n:
            bits += 1
        if bits > self.hbits:
            self.hkey = np.empty(1 << bits, np.uint64)
            self.hval = np.empty(1 << bits, np.int32)
            self.hstamp = np.zeros(1 << bits, np.int64)
            self.hbits = bits

    cdef void _back(self, Py_ssize_t n):
        if n > self.B0.shape[0]:
            n = max(n, 2 * self.B0.shape[0], 256)
            self.B0 = np.empty(n, np.float64); self.B1 = np.empty(n, np.float64)
            self.B0nz = np.empty(n, np.uint8); self.B1nz = np.empty(n, np.uint8)


cdef _grow32(int32_t[::1] a, Py_ssize_t n):
    b = np.empty(n, np.int32)
    b[:a.shape[0]] = a
    return b

cdef _grow64(int64_t[::1] a, Py_ssize_t n):
    b = np.empty(n, np.int64)
    b[:a.shape[0]] = a
    return b

cdef _grow64u(uint64_t[::1] a, Py_ssize_t n):
    b = np.empty(n, np.uint64)
    b[:a.shape[0]] = a
    return b

cdef _growf(double[::1] a, Py_ssize_t n):
    b = np.empty(n, np.float64)
    b[:a.shape[0]] = a
    return b

cdef _grow8(uint8_t[::1] a, Py_ssize_t n):
    b = np.empty(n, np.uint8)
    b[:a.shape[0]] = a
    return b


# --------------------------------------------------------------------------
# 1-3. Frontier, variables, components
# --------------------------------------------------------------------------

cdef inline void _offsets(int W, int* off) noexcept:
    # increasing order, so constraint ids collected around a cell come sorted
    off[0] = -W - 1; off[1] = -W; off[2] = -W + 1; off[3] = -1
    off[4] = 1; off[5] = W - 1; off[6] = W; off[7] = W + 1


cdef int _scan(Workspace ws, const int8_t[::1] pv, int rows, int cols,
               double[::1] prob, uint8_t[::1] interior) except -2:
    cdef int W = cols + 2
    cdef Py_ssize_t N = <Py_ssize_t>(rows + 2) * W
    cdef int off[8]
    cdef int r, c, k, n, v, nc = 0, nf = 0, ni = 0
    cdef Py_ssize_t p, q, cell
    cdef int32_t[::1] cid = ws.cid, fid = ws.fid, ctarget = ws.ctarget, ccell = ws.ccell
    cdef int32_t[::1] fcons = ws.fcons, fn = ws.fn, fcell = ws.fcell, icell = ws.icell
    _offsets(W, off)
    for p in range(N):
        cid[p] = -1
        fid[p] = -1
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            p = r * W + c
            v = pv[p]
            if v < 0:
                continue
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
                ctarget[nc] = v
                ccell[nc] = <int32_t>p
                nc += 1
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


cdef int _group(Workspace ws, int W) except -2:
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


cdef int _reduce(Workspace ws) except -2:
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
        vfix[u] = -1
        cmark[u] = -1
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
            ws.err = f"no mine layout fits the numbers around cell {_rc(ws, ws.ccell[j])}"
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


cdef int _tidy(Workspace ws) except -2:
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
                    ws.err = (f"the numbers at {_rc(ws, ccell[j2])} and {_rc(ws, ccell[j])} "
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


cdef void _components(Workspace ws) noexcept:
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


# --------------------------------------------------------------------------
# 4. Counting: one dynamic programme per block
# --------------------------------------------------------------------------

cdef int _plan(Workspace ws, int b0, int b1) noexcept:
    """Per-step constraint actions for the block order[b0:b1]; 1 if the key would not fit.

    Each open constraint owns a bit field of the 64-bit state key, just wide
    enough for its largest residual (a "1" needs one bit, a "0" none).
    """
    cdef int32_t[::1] order = ws.ord, pos = ws.pos, vrep = ws.vrep, fn = ws.fn
    cdef int32_t[::1] fcons = ws.fcons, cvstart = ws.cvstart, cvlist = ws.cvlist
    cdef int32_t[::1] vmult = ws.vmult, jstamp = ws.jstamp, jfirst = ws.jfirst
    cdef int32_t[::1] jlast = ws.jlast, jrem = ws.jrem, jslot = ws.jslot, ctarget = ws.ctarget
    cdef int32_t[::1] jmask = ws.jmask
    cdef int32_t[::1] pstart = ws.pstart, pslot = ws.pslot, pnew = ws.pnew, pmask = ws.pmask
    cdef int32_t[::1] ptarget = ws.ptarget, pcap = ws.pcap
    cdef uint8_t[::1] jinc = ws.jinc, jdup = ws.jdup
    cdef int n = b1 - b0, i, v, f, t, j, e, u, pu, first, last, cap, sh, nb, ne = 0, status = 0
    cdef bint inc
    cdef uint64_t free = ~(<uint64_t>0), m
    ws.pstamp += 1
    cdef int label = ws.pstamp
    for i in range(n):
        pos[order[b0 + i]] = i
    for i in range(n):
        f = vrep[order[b0 + i]]
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            if jstamp[j] == label:
                continue
            jstamp[j] = label
            inc = not jdup[j]
            first = n
            last = -1
            cap = 0
            for e in range(cvstart[j], cvstart[j + 1]):
                u = cvlist[e]
                pu = pos[u]
                if pu < 0:
                    inc = False    # straddles the block: dropped (relaxation)
                    break
                first = min(first, pu)
                last = max(last, pu)
                cap += vmult[u]
            jinc[j] = inc
            jfirst[j] = first
            jlast[j] = last
            jrem[j] = cap
    for i in range(n):
        v = order[b0 + i]
        f = vrep[v]
        pstart[i] = ne
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            if not jinc[j]:
                continue
            if jfirst[j] == i:
                nb = 0
                while (1 << nb) <= min(ctarget[j], jrem[j]):
                    nb += 1
                m = (<uint64_t>1 << nb) - 1
                sh = 0
                while sh + nb <= KEY_BITS and ((free >> sh) & m) != m:
                    sh += 1
                if sh + nb > KEY_BITS:
                    status = 1
                    break
                free &= ~(m << sh)
                jslot[j] = sh
                jmask[j] = <int32_t>m
                pnew[ne] = 1
            else:
                pnew[ne] = 0
            jrem[j] -= vmult[v]
            pslot[ne] = jslot[j]
            pmask[ne] = jmask[j]
            ptarget[ne] = ctarget[j]
            pcap[ne] = jrem[j]
            ne += 1
        if status:
            break
        for t in range(fn[f]):
            j = fcons[8 * f + t]
            if jinc[j] and jlast[j] == i:
                free |= (<uint64_t>jmask[j]) << jslot[j]
    pstart[n] = ne
    for i in range(n):
        pos[order[b0 + i]] = -1
    return status


cdef int _forward(Workspace ws, int b0, int b1, bint force) except -2:
    """Forward DP over order[b0:b1]; 0 done, 1 over budget (caller rolls back), -1 no layout."""
    cdef int n = b1 - b0, i, v, m, x, x2, e, e0, e1, sh, rr, ok, ex, stride, scale = 0
    cdef int L = ws.nl
    cdef Py_ssize_t s, s0, s1, t, t0, nnew, cur, a, ln, fo, to, tb, idx, nprev
    cdef uint64_t key, nk, h, hmask
    cdef int64_t stamp
    cdef double wx, mx, f
    cdef double w[9]
    cdef int hshift
    cdef int32_t[::1] order = ws.ord, vmult = ws.vmult, pstart = ws.pstart
    cdef int32_t[::1] pslot = ws.pslot, pnew = ws.pnew, ptarget = ws.ptarget, pcap = ws.pcap
    cdef int32_t[::1] pmask = ws.pmask
    ws._layers(L + n + 2)
    ws._states(ws.ns + 1)
    ws._entries(ws.ne + 1)
    cdef int32_t[::1] lstate = ws.lstate, slo = ws.slo, shi = ws.shi, trans = ws.trans
    cdef int32_t[::1] hval = ws.hval
    cdef int64_t[::1] ltrans = ws.ltrans, soff = ws.soff, hstamp = ws.hstamp
    cdef uint64_t[::1] skey = ws.skey, hkey = ws.hkey
    cdef double[::1] F = ws.F
    cdef uint8_t[::1] Fnz = ws.Fnz
    # layer 0: nothing assigned, one empty state
    lstate[L] = <int32_t>ws.ns
    s = ws.ns
    skey[s] = 0
    slo[s] = 0
    shi[s] = 0
    soff[s] = ws.ne
    F[ws.ne] = 1.0
    Fnz[ws.ne] = 1
    ws.ns += 1
    ws.ne += 1
    lstate[L + 1] = <int32_t>ws.ns
    ws.max_layer = max(ws.max_layer, 1)
    for i in range(n):
        v = order[b0 + i]
        m = vmult[v]
        stride = m + 1
        for x in range(stride):
            w[x] = BINOM[m][x] * ws.eth[x]
        e0 = pstart[i]
        e1 = pstart[i + 1]
        s0 = lstate[L + i]
        s1 = ws.ns
        nprev = s1 - s0
        tb = ws.nt
        ws._trans(tb + nprev * stride)
        ws._states(s1 + nprev * stride)
        ws._hash(nprev * stride)
        lstate = ws.lstate; slo = ws.slo; shi = ws.shi; trans = ws.trans; hval = ws.hval
        soff = ws.soff; hstamp = ws.hstamp; skey = ws.skey; hkey = ws.hkey
        hmask = (<uint64_t>1 << ws.hbits) - 1
        hshift = 64 - ws.hbits
        ws.stamp += 1
        stamp = ws.stamp
        t0 = s1
        nnew = 0
        # pass 1: which states follow, and the range of mine counts each one sees
        for s in range(s0, s1):
            key = skey[s]
            for x in range(stride):
                idx = tb + (s - s0) * stride + x
                ok = 1
                nk = key
                for e in range(e0, e1):
                    sh = pslot[e]
                    if pnew[e]:
                        rr = ptarget[e] - x
                    else:
                        rr = <int>((key >> sh) & <uint64_t>pmask[e]) - x
                    if rr < 0:
                        ok = -1
                        break
                    if rr > pcap[e]:
                        ok = 0
                        break
                    nk = (nk & ~((<uint64_t>pmask[e]) << sh)) | ((<uint64_t>rr) << sh)
                if ok < 0:
                    for x2 in range(x, stride):
                        trans[tb + (s - s0) * stride + x2] = -1
                    break
                if ok == 0:
                    trans[idx] = -1
                    continue
                h = (nk * <uint64_t>0x9E3779B97F4A7C15) >> hshift
                while True:
                    if hstamp[h] != stamp:
                        hstamp[h] = stamp
                        hkey[h] = nk
                        hval[h] = <int32_t>nnew
                        t = t0 + nnew
                        nnew += 1
                        skey[t] = nk
                        slo[t] = slo[s] + x
                        shi[t] = shi[s] + x
                        break
                    if hkey[h] == nk:
                        t = t0 + hval[h]
                        slo[t] = min(slo[t], slo[s] + x)
                        shi[t] = max(shi[t], shi[s] + x)
                        break
                    h = (h + 1) & hmask
                trans[idx] = <int32_t>(t - t0)
        if nnew == 0:
            ws.err = _where(ws, v, "no mine layout fits the numbers around")
            return -1
        # pass 2: weighted counts per (state, mines so far)
        cur = ws.ne
        for t in range(t0, t0 + nnew):
            soff[t] = cur
            cur += shi[t] - slo[t] + 1
        if not force and (cur > ws.max_entries or ws.work > ws.max_work):
            return 1
        ws._entries(cur)
        F = ws.F
        Fnz = ws.Fnz
        for a in range(ws.ne, cur):
            F[a] = 0.0
            Fnz[a] = 0
        for s in range(s0, s1):
            fo = soff[s]
            ln = shi[s] - slo[s] + 1
            for x in range(stride):
                t = trans[tb + (s - s0) * stride + x]
                if t < 0:
                    continue
                t += t0
                wx = w[x]
                to = soff[t] + slo[s] + x - slo[t]
                for a in range(ln):
                    F[to + a] += wx * F[fo + a]
                    Fnz[to + a] |= Fnz[fo + a]
                ws.work += ln
        # keep the largest entry in [0.5, 1): exact power-of-two rescaling
        mx = 0.0
        for a in range(ws.ne, cur):
            if F[a] > mx:
                mx = F[a]
        if mx > 0.0:
            frexp(mx, &ex)
            if ex != 0:
                f = ldexp(1.0, -ex)
                for a in range(ws.ne, cur):
                    F[a] *= f
                scale += ex
        ltrans[L + i] = tb
        ws.nt = tb + nprev * stride
        ws.max_layer = max(ws.max_layer, cur - ws.ne)
        ws.ne = cur
        ws.ns = t0 + nnew
        lstate[L + i + 2] = <int32_t>ws.ns
    ws.nl = L + n + 1
    cdef int b = ws.nblocks
    ws.bb0[b] = b0
    ws.bb1[b] = b1
    ws.blayer[b] = L
    ws.bscale[b] = scale
    ws.nblocks = b + 1
    return 0


cdef str _rc(Workspace ws, Py_ssize_t p):
    cdef int W = ws.cols + 2
    return f"({p // W - 1}, {p % W - 1})"


cdef str _where(Workspace ws, int v, str what):
    return f"{what} cell {_rc(ws, ws.ccell[ws.fcons[8 * ws.vrep[v]]])}"


cdef int _count_all(Workspace ws) except -2:
    """Count every component; 0 exact, 1 some component was split (approximate), -1 no layout."""
    cdef int32_t[::1] stack = ws.tq, cstart = ws.cstart, pos = ws.pos, jstamp = ws.jstamp
    cdef int c, j, b0, b1, mid, st, top = 0, approx = 0
    cdef Py_ssize_t nl, ns, ne, nt
    cdef bint single
    ws.nl = 0
    ws.ns = 0
    ws.ne = 0
    ws.nt = 0
    ws.nblocks = 0
    ws.max_layer = 0
    ws.pstamp = 0
    ws._layers(1)
    ws.lstate[0] = 0
    for j in range(ws.nv):
        pos[j] = -1
    for j in range(ws.nc):
        jstamp[j] = -1
    for c in range(ws.ncomp):
        stack[0] = cstart[c]
        stack[1] = cstart[c + 1]
        top = 2
        while top > 0:
            top -= 2
            b0 = stack[top]
            b1 = stack[top + 1]
            single = b1 - b0 == 1
            st = _plan(ws, b0, b1)
            if st == 0:
                nl, ns, ne, nt = ws.nl, ws.ns, ws.ne, ws.nt
                st = _forward(ws, b0, b1, single)
                if st < 0:
                    return -1
                if st > 0:
                    ws.nl, ws.ns, ws.ne, ws.nt = nl, ns, ne, nt
            if st > 0:
                approx = 1
                mid = (b0 + b1) // 2
                stack[top] = mid
                stack[top + 1] = b1
                stack[top + 2] = b0
                stack[top + 3] = mid
                top += 4
    return approx


# --------------------------------------------------------------------------
# 6. Marginals: backward pass per block
# --------------------------------------------------------------------------

cdef void _backward(Workspace ws, int b) noexcept:
    cdef int32_t[::1] order = ws.ord, vmult = ws.vmult, lstate = ws.lstate
    cdef int32_t[::1] slo = ws.slo, shi = ws.shi, trans = ws.trans
    cdef int64_t[::1] ltrans = ws.ltrans, soff = ws.soff, btw = ws.btw
    cdef double[::1] F = ws.F, TW = ws.TW, vprob = ws.vprob
    cdef uint8_t[::1] Fnz = ws.Fnz, TWnz = ws.TWnz, vsafe = ws.vsafe, vmine = ws.vmine
    cdef double[::1] Bc = ws.B0, Bp = ws.B1, Btmp
    cdef uint8_t[::1] Bcnz = ws.B0nz, Bpnz = ws.B1nz, Bnztmp
    cdef int b0 = ws.bb0[b], n = ws.bb1[b] - b0, L0 = ws.blayer[b]
    cdef int i, L, v, m, x, stride, ex, nfeas
    cdef Py_ssize_t s, s0, s1, sf, t, a, ln, fo, Fo, to, base, nbase, cnt, tb
    cdef double w[9]
    cdef int feas[9]
    cdef double wx, bv, wb, fb, num, den, mx, sc, P
    cdef bint safe, mine
    sf = lstate[L0 + n]
    ln = shi[sf] - slo[sf] + 1
    for a in range(ln):
        Bc[a] = TW[btw[b] + a]
        Bcnz[a] = TWnz[btw[b] + a]
    for i in range(n - 1, -1, -1):
        L = L0 + i
        v = order[b0 + i]
        m = vmult[v]
        stride = m + 1
        for x in range(stride):
            w[x] = BINOM[m][x] * ws.eth[x]
            feas[x] = 0
        s0 = lstate[L]
        s1 = lstate[L + 1]
        base = soff[s0]
        nbase = soff[s1]
        cnt = nbase - base
        for a in range(cnt):
            Bp[a] = 0.0
            Bpnz[a] = 0
        num = 0.0
        den = 0.0
        tb = ltrans[L]
        for s in range(s0, s1):
            Fo = soff[s]
            fo = Fo - base
            ln = shi[s] - slo[s] + 1
            for x in range(stride):
                t = trans[tb + (s - s0) * stride + x]
                if t < 0:
                    continue
                t += s1
                to = soff[t] - nbase + slo[s] + x - slo[t]
                wx = w[x]
                for a in range(ln):
                    if not Bcnz[to + a]:
                        continue
                    bv = Bc[to + a]
                    wb = wx * bv
                    Bp[fo + a] += wb
                    Bpnz[fo + a] = 1
                    fb = F[Fo + a] * wb
                    den += fb
                    num += x * fb
                    if Fnz[Fo + a]:
                        feas[x] = 1
        safe = True
        mine = True
        nfeas = 0
        for x in range(stride):
            if feas[x]:
                nfeas += 1
                if x > 0:
                    safe = False
                if x < m:
                    mine = False
        if safe:
            P = 0.0
        elif mine:
            P = 1.0
        else:
            if den > 0.0:
                P = num / (den * m)
            else:   # every weight underflowed (only on absurd boards): a fair guess
                P = 0.0
                for x in range(stride):
                    P += feas[x] * x
                P /= nfeas * m
            # exactly 0 and 1 are reserved for certain cells
            P = min(max(P, 4.9406564584124654e-324), 1.0 - 1.1102230246251565e-16)
        vprob[v] = P
        vsafe[v] = safe
        vmine[v] = mine
        mx = 0.0
        for a in range(cnt):
            if Bp[a] > mx:
                mx = Bp[a]
        if mx > 0.0:
            frexp(mx, &ex)
            sc = ldexp(1.0, -ex)
            for a in range(cnt):
                Bp[a] *= sc
        Btmp = Bc; Bc = Bp; Bp = Btmp
        Bnztmp = Bcnz; Bcnz = Bpnz; Bpnz = Bnztmp


# --------------------------------------------------------------------------
# 5. Combining blocks and the interior (log space)
# --------------------------------------------------------------------------

cdef inline double _lbinom(int64_t n, int64_t k) noexcept:
    if k < 0 or k > n:
        return -INFINITY
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)


cdef inline double _lse_add(double acc, double mx, double v) noexcept:
    # helper for two-pass log-sum-exp: acc += exp(v - mx)
    if v == -INFINITY:
        return acc
    return acc + exp(v - mx)


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
    blo_a = np.empty(max(nb, 1), np.int64)
    bhi_a = np.empty(max(nb, 1), np.int64)
    btw_a = np.empty(max(nb, 1), np.int64)
    cdef int64_t[::1] blo = blo_a, bhi = bhi_a, btw = btw_a
    for b in range(nb):
        sf = lstate[blayer[b] + bb1[b] - bb0[b]]
        blo[b] = slo[sf]
        bhi[b] = shi[sf]
        btw[b] = total
        total += bhi[b] - blo[b] + 1
        kmin += blo[b]
        kmax += bhi[b]
    lw_a = np.empty(max(total, 1), np.float64)
    lwnz_a = np.empty(max(total, 1), np.uint8)
    tw_a = np.empty(max(total, 1), np.float64)
    twnz_a = np.empty(max(total, 1), np.uint8)
    cdef double[::1] LW = lw_a, TW = tw_a
    cdef uint8_t[::1] LWnz = lwnz_a, TWnz = twnz_a
    vb_a = np.empty(max(nb, 1), np.int32)
    cdef int32_t[::1] vb = vb_a
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
    alo_a = np.zeros(C + 1, np.int64)
    ahi_a = np.zeros(C + 1, np.int64)
    pofs_a = np.zeros(C + 2, np.int64)
    cdef int64_t[::1] Alo = alo_a, Ahi = ahi_a, pofs = pofs_a
    for c in range(C):
        b = vb[c]
        Alo[c + 1] = Alo[c] + blo[b]
        Ahi[c + 1] = Ahi[c] + bhi[b]
    for c in range(C + 1):
        pofs[c + 1] = pofs[c] + Ahi[c] - Alo[c] + 1
    p_a = np.empty(pofs[C + 1], np.float64)
    pnz_a = np.empty(pofs[C + 1], np.uint8)
    cdef double[::1] P = p_a
    cdef uint8_t[::1] Pnz = pnz_a
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
    t_a = np.empty(tn, np.float64)
    tnz_a = np.empty(tn, np.uint8)
    t2_a = np.empty(tn, np.float64)
    t2nz_a = np.empty(tn, np.uint8)
    cdef double[::1] T = t_a, T2 = t2_a, Ttmp
    cdef uint8_t[::1] Tnz = tnz_a, T2nz = t2nz_a, Tnztmp
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


def analyze(Workspace ws, const int8_t[::1] pv, int rows, int cols, int64_t mines,
            double[::1] prob, uint8_t[::1] safe, uint8_t[::1] mine, uint8_t[::1] interior,
            int64_t max_entries):
    """Fill ``prob``/``safe``/``mine``/``interior`` (each rows*cols, row-major).

    Returns ``(exact, log_solutions, frontier_cells, variables, components,
    blocks, interior_probability)`` or raises nothing: on a contradiction it
    returns a message string instead, which the Python layer raises.
    """
    cdef int W = cols + 2
    cdef Py_ssize_t N = <Py_ssize_t>(rows + 2) * W
    cdef int r
    ws._board(N)
    ws.cols = cols
    ws.err = None
    ws.max_entries = max_entries
    ws.max_work = 16 * max_entries
    ws.work = 0
    if _scan(ws, pv, rows, cols, prob, interior) < 0:
        return ws.err
    _group(ws, W)
    cdef int fixed = _reduce(ws)
    if fixed < 0 or _tidy(ws) < 0:
        return ws.err
    _components(ws)
    cdef int unknown = ws.nf + ws.ni
    if mines > unknown:
        return (f"{mines} mines do not fit in the {unknown} cells that are not revealed")
    cdef double p = (<double>mines) / unknown if unknown > 0 else 0.5
    p = min(max(p, 1e-3), 1.0 - 1e-3)
    ws.theta = log(p / (1.0 - p))
    for r in range(9):
        ws.eth[r] = exp(ws.theta * r)
    cdef bint exact = True
    cdef int status = _count_all(ws)
    if status < 0:
        return ws.err
    if status > 0:
        exact = False
    res = _combine(ws, mines, fixed)
    if res is None:
        return ws.err
    log_z, p_int, int_safe, int_mine = res
    ws._back(ws.max_layer)
    for r in range(ws.nblocks):
        _backward(ws, r)
    _scatter(ws, cols, prob, safe, mine, p_int, int_safe, int_mine)
    return (exact, log_z, ws.nf, ws.nv, ws.ncomp, ws.nblocks, p_int)
