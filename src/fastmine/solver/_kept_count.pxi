# Included by _kept.pyx: one component of a game counted anew.
#
# The component of a hidden cell is walked breadth first through the numbers;
# cells with the same numbers around them become one variable of m cells; every
# layout of the variables' mine counts is enumerated (an explicit stack, pruned
# on every number's residual) into a table per mine count; cells proven by the
# count leave it, and the rest is appended to the game's new components.


cdef int _component(Counter self, _Game gs, Py_ssize_t start, _Tables new) except -2:
    """Walk, group, count and append the component of ``start``; 0, 1 or 2 as _update."""
    cdef int32_t S = self.stamp
    cdef int qh = 0, qt = 1, k, k2, t, n, i, j, u, nv = 0, ncons = 0, same, lv, m
    cdef Py_ssize_t q, q2, nb, a
    self.ctag += 1
    cdef int32_t tag = self.ctag
    self.queue[0] = <int32_t>start
    self.mark[start] = S + 1
    # Breadth first through the numbers, each number met once: it becomes
    # the component's next constraint (its target, its hidden cells counted below).
    while qh < qt:
        q = self.queue[qh]
        qh += 1
        for k in range(8):
            nb = q + self.off[k]
            if not 0 <= gs.pv[nb] <= 8 or self.cmark[nb] == tag:
                continue
            self.cmark[nb] = tag
            self.cidx[nb] = ncons
            self.cpos[ncons] = <int32_t>nb
            t = gs.pv[nb]
            for k2 in range(8):
                t -= gs.pv[nb + self.off[k2]] == KNOWN_MINE
            if t < 0:
                return 1                # more proven mines than the number says
            self.er[ncons] = t
            self.ecap[ncons] = 0
            ncons += 1
            for k2 in range(8):
                q2 = nb + self.off[k2]
                if gs.pv[q2] != -1:
                    continue
                if self.mark[q2] == S:
                    self.mark[q2] = S + 1
                    self.queue[qt] = <int32_t>q2
                    qt += 1
                elif self.mark[q2] != S + 1:
                    return 2            # a cell next to this component was not looked at
    # Variables: cells with the same numbers around them (a cell with the
    # same set as q shares q's first number, so it is one of its neighbours).
    cdef int nc = new.ncomp, v0 = new.nvars
    for i in range(qt):
        q = self.queue[i]
        n = 0
        for k in range(8):
            nb = q + self.off[k]
            if 0 <= gs.pv[nb] <= 8:
                self.ccons[8 * i + n] = self.cidx[nb]
                n += 1
        self.clen[i] = n
        lv = -1
        nb = self.cpos[self.ccons[8 * i]]       # its first number
        for k2 in range(8):
            q2 = nb + self.off[k2]
            if self.mark[q2] != S + 2:
                continue
            u = gs.var_of[q2] - v0
            j = self.vfirst[u]          # variable u's first cell, by its place in the queue
            if self.clen[j] != n:
                continue
            same = 1
            for t in range(n):
                if self.ccons[8 * j + t] != self.ccons[8 * i + t]:
                    same = 0
                    break
            if same:
                lv = u
                break
        if lv < 0:
            lv = nv
            nv += 1
            self.evm[lv] = 0
            self.evnc[lv] = n
            for t in range(n):
                self.evcons[8 * lv + t] = self.ccons[8 * i + t]
            self.vfirst[lv] = i
        self.evm[lv] += 1
        for t in range(n):
            self.ecap[self.ccons[8 * i + t]] += 1
        self.mark[q] = S + 2
        gs.var_of[q] = v0 + lv
        gs.comp_of[q] = nc
    for j in range(ncons):
        if self.er[j] > self.ecap[j]:
            return 1                    # a number with too few hidden cells around it
    self.cells_counted += qt
    cdef int st = _enumerate(self, nv, qt)
    if st != 0:
        return st
    # Cells every layout makes mines (or safe) are proven for good: more
    # numbers only rule layouts out.  They leave the component (its mine
    # counts shift by the proven mines) and every later count.
    cdef int mc = 0, nu = 0, x
    for u in range(nv):
        x = self.vseen[u]
        if x == 3:
            self.vnew[u] = nu
            nu += 1
        else:
            self.vnew[u] = -1
            if x == 1:
                mc += self.evm[u]
    # trim to the mine counts that occur, scale by a power of two, append
    cdef int width = qt + 1, klo = 0, khi = qt, w, nin = 0
    while klo <= qt and self.etab[klo] == 0.0:
        klo += 1
    if klo > qt:
        return 1                        # no layout fits the numbers
    while self.etab[khi] == 0.0:
        khi -= 1
    w = khi - klo + 1
    cdef double mx = 0.0, sc
    for k in range(klo, khi + 1):
        mx = max(mx, self.etab[k])
    sc = _pow2_scale(mx)
    cdef Py_ssize_t nt0 = new.ntab, size = <Py_ssize_t>w * (1 + 2 * nu)
    new._ints(max(new.ncells + qt, new.nvars + nu, nc + 1))
    for i in range(qt):
        q = self.queue[i]
        u = gs.var_of[q] - v0
        if self.vnew[u] >= 0:
            new.cells[new.ncells + nin] = <int32_t>q
            nin += 1
            gs.var_of[q] = v0 + self.vnew[u]
            gs.idx[q] = SLOT_VAR + gs.var_of[q]
        else:
            gs.comp_of[q] = -1
            gs.hidden -= 1
            if self.vseen[u] == 1:
                gs.pv[q] = KNOWN_MINE
                gs.idx[q] = SLOT_ONE
                gs.mleft -= 1
            else:
                gs.pv[q] = KNOWN_SAFE
                gs.idx[q] = SLOT_ZERO
    self.proven += qt - nin
    if nu == 0:
        return 0                        # every cell proven: no component left
    new._doubles(nt0 + size)
    for k in range(w):
        new.tab[nt0 + k] = self.etab[klo + k] * sc
    for u in range(nv):
        if self.vnew[u] < 0:
            continue
        a = nt0 + (1 + 2 * self.vnew[u]) * w
        new.vmult[v0 + self.vnew[u]] = self.evm[u]
        new.vto[v0 + self.vnew[u]] = <int32_t>a
        for k in range(w):
            new.tab[a + k] = self.etab[(1 + 2 * u) * width + klo + k] * sc
            new.tab[a + w + k] = self.etab[(2 + 2 * u) * width + klo + k] * sc
    new.lo[nc] = klo - mc
    new.hi[nc] = khi - mc
    new.toff[nc] = <int32_t>nt0
    new.ncells += nin
    new.nvars += nu
    new.ntab = nt0 + size
    new.ncomp = nc + 1
    new.cstart[nc + 1] = new.ncells
    new.vstart[nc + 1] = new.nvars
    self.recounted += 1
    return 0


cdef int _enumerate(Counter self, int nv, int ncells) except -2:
    """Every layout of the component's nv variables, into etab; 0, or 1 over budget.

    etab (width ncells + 1, by mine count): row 0 the layouts, row 1 + 2u
    the mines they put on variable u, row 2 + 2u its safe cells.
    """
    cdef int width = ncells + 1, i = 0, t, j, m, lo, hi, x, u
    cdef Py_ssize_t size = <Py_ssize_t>width * (1 + 2 * nv), a, k
    cdef int64_t steps = 0
    cdef double wl
    cdef bint down = True
    if self.etab.shape[0] < size:
        self.etab = np.zeros(max(size, 2 * self.etab.shape[0]), np.float64)
    for a in range(size):
        self.etab[a] = 0.0
    for u in range(nv):
        self.vseen[u] = 0
    self.ewpre[0] = 1.0
    self.ekpre[0] = 0
    while True:
        if down:
            if i == nv:                 # a layout: every number met
                k = self.ekpre[nv]
                wl = self.ewpre[nv]
                self.etab[k] += wl
                for u in range(nv):
                    x = self.ex[u]
                    m = self.evm[u]
                    if x:
                        self.etab[(1 + 2 * u) * width + k] += wl * x
                        self.vseen[u] |= 1      # a mine on it in some layout
                    if m - x:
                        self.etab[(2 + 2 * u) * width + k] += wl * (m - x)
                        self.vseen[u] |= 2      # a safe cell on it in some layout
                steps += nv
                down = False
                continue
            m = self.evm[i]
            lo = 0
            hi = m
            for t in range(self.evnc[i]):
                j = self.evcons[8 * i + t]
                lo = max(lo, self.er[j] - (self.ecap[j] - m))
                hi = min(hi, self.er[j])
            steps += 1
            if steps > self.budget:
                self.steps_taken += steps
                return 1
            if lo > hi:
                down = False
                continue
            self.ex[i] = lo
            self.exhi[i] = hi
            for t in range(self.evnc[i]):
                j = self.evcons[8 * i + t]
                self.er[j] -= lo
                self.ecap[j] -= m
            self.ewpre[i + 1] = self.ewpre[i] * BINOM[m][lo]
            self.ekpre[i + 1] = self.ekpre[i] + lo
            i += 1
        else:
            if i == 0:
                break
            i -= 1
            m = self.evm[i]
            if self.ex[i] < self.exhi[i]:
                x = self.ex[i] + 1
                self.ex[i] = x
                for t in range(self.evnc[i]):
                    self.er[self.evcons[8 * i + t]] -= 1
                self.ewpre[i + 1] = self.ewpre[i] * BINOM[m][x]
                self.ekpre[i + 1] = self.ekpre[i] + x
                i += 1
                down = True
            else:
                x = self.ex[i]
                for t in range(self.evnc[i]):
                    j = self.evcons[8 * i + t]
                    self.er[j] += x
                    self.ecap[j] += m
    self.steps_taken += steps
    return 0
