# Private kernel: the counting DP of the probability engine.
#
# A block is a run order[b0:b1] of variables (a component, or a piece of one).
# Forward: layer i holds the states after assigning the first i variables.  A
# state is the residual of every open constraint, packed into a 64-bit key
# (each constraint gets a bit field just wide enough for its largest residual);
# each state carries, per number of mines used so far, the weighted count of
# partial layouts (weights C(m, x) * exp(theta * x), the tilt keeping huge
# components in float range) and a boolean "reachable".  Every layer is kept.
# Backward: seeded with the weight of the rest of the board for each mine
# count, it yields every variable's expected mines, and, from the booleans,
# exactly which values are possible, so certainty never rests on a float.
#
# _plan, run once per block, indexes the workspace directly (ws.ord[i]): a
# memoryview bound to a local costs an atomic acquire and release per call.
# The DP passes bind theirs once per call and loop over them many times.

from libc.math cimport frexp, ldexp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

from ._frontier cimport cell_name
from ._workspace cimport Workspace

cdef enum:
    KEY_BITS = 64

include "_binom.pxi"   # BINOM[m][x] = C(m, x), m <= 8


cdef int _plan(Workspace ws, int b0, int b1) except -2:
    """Per-step constraint actions for the block ws.ord[b0:b1]; 1 if the key would not fit.

    Each open constraint owns a bit field of the 64-bit state key, just wide
    enough for its largest residual (a "1" needs one bit, a "0" none).
    """
    ws._plan(b1 - b0)
    cdef int n = b1 - b0, i, v, f, t, j, e, u, pu, first, last, cap, sh, nb, ne = 0, status = 0
    cdef bint inc
    cdef uint64_t free = ~(<uint64_t>0), m
    ws.pstamp += 1
    cdef int label = ws.pstamp
    for i in range(n):
        ws.pos[ws.ord[b0 + i]] = i
    for i in range(n):
        f = ws.vrep[ws.ord[b0 + i]]
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            if ws.jstamp[j] == label:
                continue
            ws.jstamp[j] = label
            inc = not ws.jdup[j]
            first = n
            last = -1
            cap = 0
            for e in range(ws.cvstart[j], ws.cvstart[j + 1]):
                u = ws.cvlist[e]
                pu = ws.pos[u]
                if pu < 0:
                    inc = False    # straddles the block: dropped (relaxation)
                    break
                first = min(first, pu)
                last = max(last, pu)
                cap += ws.vmult[u]
            ws.jinc[j] = inc
            ws.jfirst[j] = first
            ws.jlast[j] = last
            ws.jrem[j] = cap
    for i in range(n):
        v = ws.ord[b0 + i]
        f = ws.vrep[v]
        ws.pstart[i] = ne
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            if not ws.jinc[j]:
                continue
            if ws.jfirst[j] == i:
                nb = 0
                while (1 << nb) <= min(ws.ctarget[j], ws.jrem[j]):
                    nb += 1
                m = (<uint64_t>1 << nb) - 1
                sh = 0
                while sh + nb <= KEY_BITS and ((free >> sh) & m) != m:
                    sh += 1
                if sh + nb > KEY_BITS:
                    status = 1
                    break
                free &= ~(m << sh)
                ws.jslot[j] = sh
                ws.jmask[j] = <int32_t>m
                ws.pnew[ne] = 1
            else:
                ws.pnew[ne] = 0
            ws.jrem[j] -= ws.vmult[v]
            ws.pslot[ne] = ws.jslot[j]
            ws.pmask[ne] = ws.jmask[j]
            ws.ptarget[ne] = ws.ctarget[j]
            ws.pcap[ne] = ws.jrem[j]
            ne += 1
        if status:
            break
        for t in range(ws.fn[f]):
            j = ws.fcons[8 * f + t]
            if ws.jinc[j] and ws.jlast[j] == i:
                free |= (<uint64_t>ws.jmask[j]) << ws.jslot[j]
    ws.pstart[n] = ne
    for i in range(n):
        ws.pos[ws.ord[b0 + i]] = -1
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
    cdef int64_t grown = ws.grown
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
        if ws.grown != grown:
            lstate = ws.lstate; slo = ws.slo; shi = ws.shi; trans = ws.trans; hval = ws.hval
            soff = ws.soff; hstamp = ws.hstamp; skey = ws.skey; hkey = ws.hkey
            F = ws.F; Fnz = ws.Fnz; ltrans = ws.ltrans
            grown = ws.grown
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
        if ws.grown != grown:
            F = ws.F
            Fnz = ws.Fnz
            grown = ws.grown
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


cdef str _where(Workspace ws, int v, str what):
    return f"{what} cell {cell_name(ws, ws.ccell[ws.fcons[8 * ws.vrep[v]]])}"


cdef int count_all(Workspace ws) except -2:
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


cdef void backward(Workspace ws, int b) noexcept:
    cdef int32_t[::1] order = ws.ord, vmult = ws.vmult, lstate = ws.lstate
    cdef int32_t[::1] slo = ws.slo, shi = ws.shi, trans = ws.trans
    cdef int64_t[::1] ltrans = ws.ltrans, soff = ws.soff, btw = ws.btw
    cdef double[::1] F = ws.F, TW = ws.TW, vprob = ws.vprob
    cdef uint8_t[::1] Fnz = ws.Fnz, TWnz = ws.TWnz, vsafe = ws.vsafe, vmine = ws.vmine
    # The current layer's weights are B[bc:], the previous one's B[bp:] (halves
    # of one buffer, swapped by offset: swapping memoryviews costs atomics).
    cdef double[::1] B = ws.B
    cdef uint8_t[::1] Bnz = ws.Bnz
    cdef Py_ssize_t bc = 0, bp = ws.B.shape[0] // 2, btmp
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
        B[bc + a] = TW[btw[b] + a]
        Bnz[bc + a] = TWnz[btw[b] + a]
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
            B[bp + a] = 0.0
            Bnz[bp + a] = 0
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
                    if not Bnz[bc + to + a]:
                        continue
                    bv = B[bc + to + a]
                    wb = wx * bv
                    B[bp + fo + a] += wb
                    Bnz[bp + fo + a] = 1
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
            if B[bp + a] > mx:
                mx = B[bp + a]
        if mx > 0.0:
            frexp(mx, &ex)
            sc = ldexp(1.0, -ex)
            for a in range(cnt):
                B[bp + a] *= sc
        btmp = bc; bc = bp; bp = btmp
