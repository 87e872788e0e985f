# Shared scratch of the probability kernels (see _workspace.pyx).

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t


cdef class Workspace:
    # per-board scratch, sized by the padded board
    cdef int8_t[::1] pv
    cdef int32_t[::1] cid, fid, ctarget, ccell, fcons, fn, fcell, fvar
    cdef int32_t[::1] vrep, vmult, cvstart, cvlist, cmark, cmark2, ord, tq, cstart
    cdef int32_t[::1] pos, jstamp, jfirst, jlast, jrem, jslot, jmask, icell, jbits, fr, vfix
    cdef uint8_t[::1] jinc, jdup
    cdef int32_t[::1] pstart, pslot, pmask, pnew, ptarget, pcap
    cdef double[::1] vprob
    cdef uint8_t[::1] vsafe, vmine
    cdef Py_ssize_t board_cap, front_cap, cons_cap, plan_cap
    # DP storage, grown on demand
    cdef int32_t[::1] lstate, slo, shi, trans, hval
    cdef int64_t[::1] ltrans, soff, hstamp
    cdef uint64_t[::1] skey, hkey
    cdef double[::1] F, B       # B: two halves, see _back
    cdef uint8_t[::1] Fnz, Bnz
    cdef int hbits
    cdef int64_t stamp
    # bumped whenever a DP buffer above is replaced by a bigger one, so a
    # kernel refreshes its local views only then (each refresh costs)
    cdef int64_t grown
    # bumped by every _prepare, so a fifty.Counter can tell that another
    # position was prepared over the one it keeps here
    cdef int64_t prepared
    # blocks (components, or pieces of a split component)
    cdef int32_t[::1] bb0, bb1, blayer, bscale
    cdef int nblocks
    # counters of the current call
    cdef int nl, nc, nf, nv, ni, ncomp, cols, pstamp
    # known cells of the last scan with ``known`` (see _frontier.scan): the
    # known mines, and the known cells next to a number
    cdef int kmines, kfront
    # whether the last scan with ``known`` found the position the same count as
    # the one before: only cells proven safe opened, and their numbers touch
    # only proven cells (see _frontier.scan)
    cdef bint unchanged
    # terminal weights of each block's backward pass (from _combine)
    cdef double[::1] TW
    cdef uint8_t[::1] TWnz
    cdef int64_t[::1] btw
    # pools the combination step slices its arrays from
    cdef int64_t[::1] ci
    cdef double[::1] cf
    cdef uint8_t[::1] cu
    cdef Py_ssize_t ns, ne, nt, max_layer
    cdef int64_t work, max_work, max_entries
    cdef double theta
    cdef double eth[9]
    cdef object err
    cdef int bad

    cdef void _board(self, Py_ssize_t n)
    cdef void _frontier(self, Py_ssize_t nf, Py_ssize_t nc)
    cdef void _plan(self, Py_ssize_t n)
    cdef void _layers(self, Py_ssize_t n)
    cdef void _states(self, Py_ssize_t n)
    cdef void _trans(self, Py_ssize_t n)
    cdef void _entries(self, Py_ssize_t n)
    cdef void _hash(self, Py_ssize_t n)
    cdef void _back(self, Py_ssize_t n)
    cdef void _pools(self, Py_ssize_t ni, Py_ssize_t nf)
