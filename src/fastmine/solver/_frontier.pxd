# Frontier extraction (see _frontier.pyx).

from libc.stdint cimport int8_t, uint8_t

from ._workspace cimport Workspace

cdef int scan(Workspace ws, const int8_t[:, :] view, double[::1] prob,
              uint8_t[::1] interior) except -2
cdef int group(Workspace ws, int W) except -2
cdef int reduce_fixed(Workspace ws) except -2
cdef int tidy(Workspace ws) except -2
cdef void components(Workspace ws) noexcept
cdef str cell_name(Workspace ws, Py_ssize_t p)
