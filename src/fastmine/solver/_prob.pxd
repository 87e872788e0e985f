# The probability engine's steps, for the guess kernel (see _prob.pyx).

from libc.stdint cimport int8_t, int64_t, uint8_t

from ._workspace cimport Workspace

cdef object _prepare(Workspace ws, const int8_t[:, :] view, double[::1] prob,
                     uint8_t[::1] interior)
cdef object _finish(Workspace ws, int64_t mines, int64_t max_entries, bint marginals=*)
cdef object _solve(Workspace ws, const int8_t[:, :] view, int64_t mines, double[::1] prob,
                   uint8_t[::1] interior, int64_t max_entries, bint marginals=*)
cdef void _scatter(Workspace ws, int cols, double[::1] prob, uint8_t[::1] safe,
                   uint8_t[::1] mine, double p_int, bint int_safe, bint int_mine) noexcept
cdef object _analyze_known(Workspace ws, const int8_t[:, :] view, uint8_t[::1] known,
                           int64_t mines, double[::1] prob, uint8_t[:, ::1] flags,
                           int64_t max_entries, const double[::1] last)
