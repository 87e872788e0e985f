# The counting DP (see _count.pyx).

from ._workspace cimport Workspace

cdef int count_all(Workspace ws) except -2
cdef void backward(Workspace ws, int b) noexcept
