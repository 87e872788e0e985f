# Scratch buffers of the probability kernels, reused across calls.
#
# Every buffer is a typed memoryview over a NumPy array, so a FASTMINE_DEBUG
# build bounds-checks every access.  Per-board buffers are sized by the padded
# board; the DP tables grow by doubling.  Kernels take local copies of the
# views they use and refresh them after any call that may grow a buffer.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t

import numpy as np


cdef class Workspace:
    """Scratch buffers reused across calls (grown on demand, never shrunk)."""

    def __cinit__(self):
        self.board_cap = 0
        self.front_cap = -1
        self.cons_cap = -1
        self.plan_cap = -1
        self.hbits = 0
        self.stamp = 0
        self.grown = 0
        self.prepared = 0
        self.nblocks = 0
        z32 = np.zeros(0, np.int32)
        self.lstate = self.slo = self.shi = self.trans = self.hval = z32
        self.bb0 = self.bb1 = self.blayer = self.bscale = z32
        z64 = np.zeros(0, np.int64)
        self.ltrans = self.soff = self.hstamp = z64
        self.skey = self.hkey = np.zeros(0, np.uint64)
        self.F = self.B = np.zeros(0, np.float64)
        self.Fnz = self.Bnz = np.zeros(0, np.uint8)
        self.ci = np.zeros(0, np.int64)
        self.cf = np.zeros(0, np.float64)
        self.cu = np.zeros(0, np.uint8)

    def nbytes(self):
        """Bytes held by the growable DP buffers (the cache drops big workspaces)."""
        return (self.F.shape[0] + self.B.shape[0] + self.cf.shape[0]) * 9 + \
            (self.skey.shape[0] + self.hkey.shape[0]) * 24 + self.trans.shape[0] * 4 + \
            self.board_cap * 13 + self.front_cap * 150 + self.cons_cap * 50 + self.plan_cap * 200

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
        # sized by the padded board: the view, cell -> constraint / frontier ids
        if n <= self.board_cap:
            return
        n = max(n, 2 * self.board_cap)
        self.pv = np.empty(n, np.int8)
        self.cid = np.empty(n, np.int32)
        self.fid = np.empty(n, np.int32)
        self.icell = np.empty(n, np.int32)
        self.board_cap = n

    cdef void _frontier(self, Py_ssize_t nf, Py_ssize_t nc):
        # sized by the frontier (nf cells at most) and the constraints (nc)
        cdef Py_ssize_t n
        i32 = lambda k: np.empty(k, np.int32)
        if nc > self.cons_cap:
            n = max(nc, 2 * self.cons_cap, 64)
            self.ctarget = i32(n); self.ccell = i32(n); self.cvstart = i32(n + 1)
            self.jstamp = i32(n); self.jfirst = i32(n); self.jlast = i32(n); self.jrem = i32(n)
            self.jslot = i32(n); self.jmask = i32(n); self.jbits = i32(n)
            self.jinc = np.empty(n, np.uint8); self.jdup = np.empty(n, np.uint8)
            self.cons_cap = n
        if nf > self.front_cap or nc > self.front_cap:
            n = max(nf, nc, 2 * self.front_cap, 64)
            # per frontier cell / variable (a variable is at least one cell)
            self.fcons = i32(8 * n); self.cvlist = i32(8 * n)
            self.fn = i32(n); self.fcell = i32(n); self.fvar = i32(n)
            self.vrep = i32(n); self.vmult = i32(n); self.cmark = i32(n); self.cmark2 = i32(n)
            self.ord = i32(n); self.cstart = i32(n + 1); self.pos = i32(n); self.fr = i32(n)
            self.vfix = i32(n); self.tq = i32(n + 8)  # also the CSR cursor (nc) and split stack
            self.vprob = np.empty(n, np.float64)
            self.vsafe = np.empty(n, np.uint8); self.vmine = np.empty(n, np.uint8)
            self.bb0 = i32(n); self.bb1 = i32(n); self.blayer = i32(n); self.bscale = i32(n)
            self.front_cap = n

    cdef void _plan(self, Py_ssize_t n):
        # DP plan of a block of n variables (up to 8 constraint actions each)
        if n > self.plan_cap:
            n = max(n, 2 * self.plan_cap, 64)
            self.pstart = np.empty(n + 1, np.int32)
            self.pslot = np.empty(8 * n, np.int32)
            self.pnew = np.empty(8 * n, np.int32)
            self.pmask = np.empty(8 * n, np.int32)
            self.ptarget = np.empty(8 * n, np.int32)
            self.pcap = np.empty(8 * n, np.int32)
            self.plan_cap = n

    cdef void _layers(self, Py_ssize_t n):
        if n + 1 > self.lstate.shape[0]:
            n = max(n + 1, 2 * self.lstate.shape[0], 64)
            self.lstate = _grow32(self.lstate, n)
            self.ltrans = _grow64(self.ltrans, n)
            self.grown += 1

    cdef void _states(self, Py_ssize_t n):
        if n > self.skey.shape[0]:
            n = max(n, 2 * self.skey.shape[0], 256)
            self.skey = _grow64u(self.skey, n)
            self.slo = _grow32(self.slo, n)
            self.shi = _grow32(self.shi, n)
            self.soff = _grow64(self.soff, n)
            self.grown += 1

    cdef void _trans(self, Py_ssize_t n):
        if n > self.trans.shape[0]:
            self.trans = _grow32(self.trans, max(n, 2 * self.trans.shape[0], 1024))
            self.grown += 1

    cdef void _entries(self, Py_ssize_t n):
        if n > self.F.shape[0]:
            n = max(n, 2 * self.F.shape[0], 1024)
            self.F = _growf(self.F, n)
            self.Fnz = _grow8(self.Fnz, n)
            self.grown += 1

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
            self.grown += 1

    cdef void _back(self, Py_ssize_t n):
        # Two halves of n each: the backward pass's current and previous layer
        # (it swaps which half is which, not the buffers).
        if 2 * n > self.B.shape[0]:
            n = max(n, self.B.shape[0], 256)
            self.B = np.empty(2 * n, np.float64)
            self.Bnz = np.empty(2 * n, np.uint8)

    cdef void _pools(self, Py_ssize_t ni, Py_ssize_t nf):
        # nf doubles and nf bytes (values and their "possible" flags)
        if ni > self.ci.shape[0]:
            self.ci = np.empty(max(ni, 2 * self.ci.shape[0], 64), np.int64)
        if nf > self.cf.shape[0]:
            nf = max(nf, 2 * self.cf.shape[0], 256)
            self.cf = np.empty(nf, np.float64)
            self.cu = np.empty(nf, np.uint8)


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
