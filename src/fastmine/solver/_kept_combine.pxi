# Included by _kept.pyx: a game's labels from its components' tables.


cdef int _combine(Counter self, _Game gs, int g, double[:, ::1] out) except -2:
    """The labels of game g from its components' tables; 0, or 1 when no layout fits."""
    cdef _Tables t = gs.t
    cdef int C = t.ncomp, c, k, r, v, w, rows = self.rows, cols = self.cols, W = self.W
    cdef int64_t I = gs.hidden - t.ncells, M = gs.mleft, n
    cdef Py_ssize_t a, ln, lnn, base, nbase, p, cell, to
    cdef double x, mx, lmax, z, zmine, zsafe, num, ns, sc, p_int = 0.0
    cdef int32_t[::1] alo = self.alo, ahi = self.ahi, pofs = self.pofs
    if I < 0 or gs.hidden > self.N:
        return 2                        # the cell counts broke: count the game afresh
    if M < 0:
        return 1                        # more mines proven than the board has
    # prefix products: pre_c over a in [alo[c], ahi[c]], the first c components' layouts
    alo[0] = 0
    ahi[0] = 0
    pofs[0] = 0
    for c in range(C):
        alo[c + 1] = alo[c] + t.lo[c]
        ahi[c + 1] = ahi[c] + t.hi[c]
        pofs[c + 1] = pofs[c] + ahi[c] - alo[c] + 1
    ln = ahi[C] - alo[C] + 1
    if self.pre.shape[0] < pofs[C] + ln:
        self.pre = np.zeros(max(pofs[C] + ln, 2 * self.pre.shape[0]), np.float64)
    cdef double[::1] pre = self.pre
    pre[0] = 1.0
    for c in range(C):
        base = pofs[c]
        nbase = pofs[c + 1]
        ln = ahi[c] - alo[c] + 1
        lnn = ahi[c + 1] - alo[c + 1] + 1
        w = t.hi[c] - t.lo[c] + 1
        to = t.toff[c]
        for a in range(lnn):
            pre[nbase + a] = 0.0
        for a in range(ln):
            x = pre[base + a]
            if x == 0.0:
                continue
            for k in range(w):
                pre[nbase + a + k] += x * t.tab[to + k]
        mx = 0.0
        for a in range(lnn):
            mx = max(mx, pre[nbase + a])
        if mx == 0.0:
            return 1
        sc = _pow2_scale(mx)
        for a in range(lnn):
            pre[nbase + a] *= sc
    # The interior's ways, C(I, M - K), for the frontier's K mines, relative
    # to the largest (each from the log-factorials: no error carried along).
    ln = ahi[C] - alo[C] + 1
    lmax = -INFINITY
    for a in range(ln):
        n = M - (alo[C] + a)
        if 0 <= n <= I:
            lmax = max(lmax, self.lfact[I] - self.lfact[n] - self.lfact[I - n])
    if lmax == -INFINITY:
        return 1
    cdef double[::1] G = self.g1, G2 = self.g2, Gt, rk = self.rk, vp = self.vp
    for a in range(ln):
        n = M - (alo[C] + a)
        if 0 <= n <= I:
            G[a] = exp(self.lfact[I] - self.lfact[n] - self.lfact[I - n] - lmax)
        else:
            G[a] = 0.0
    z = zmine = zsafe = 0.0
    base = pofs[C]
    for a in range(ln):
        n = M - (alo[C] + a)
        x = G[a] * pre[base + a]
        z += x
        zmine += x * n
        zsafe += x * (I - n)
    if z == 0.0:
        return 1
    if I > 0:
        p_int = _ratio(zmine, zsafe)
    # suffix pass: G_{c+1}[a] (a in [alo[c+1], ahi[c+1]]) weighs the layouts of
    # the components after c and the interior, given a mines before them
    for c in range(C - 1, -1, -1):
        base = pofs[c]
        ln = ahi[c] - alo[c] + 1
        lnn = ahi[c + 1] - alo[c + 1] + 1
        w = t.hi[c] - t.lo[c] + 1
        to = t.toff[c]
        # everything but component c, for each of its mine counts
        for k in range(w):
            x = 0.0
            for a in range(ln):
                x += pre[base + a] * G[a + k]
            rk[k] = x
        for v in range(t.vstart[c], t.vstart[c + 1]):
            num = 0.0
            ns = 0.0
            for k in range(w):
                num += t.tab[t.vto[v] + k] * rk[k]
                ns += t.tab[t.vto[v] + w + k] * rk[k]
            vp[SLOT_VAR + v] = _ratio(num, ns)
        if c == 0:
            break
        mx = 0.0
        for a in range(ln):
            x = 0.0
            for k in range(w):
                x += t.tab[to + k] * G[a + k]
            G2[a] = x
            mx = max(mx, x)
        if mx > 0.0:
            sc = _pow2_scale(mx)
            for a in range(ln):
                G2[a] *= sc
        Gt = G
        G = G2
        G2 = Gt
    # every cell's label from its slot: no branch a cell
    vp[SLOT_ZERO] = 0.0
    vp[SLOT_ONE] = 1.0
    vp[SLOT_INTERIOR] = p_int
    cdef int32_t[::1] idx = gs.idx
    cdef double[::1] row = out[g]
    for r in range(rows):
        p = (r + 1) * W + 1
        cell = <Py_ssize_t>r * cols
        for c in range(cols):
            row[cell + c] = vp[idx[p + c]]
    return 0
