# Frontier extraction (see _frontier.pyx).

from libc.stdint cimport int8_t, uint8_t

from ._workspace cimport Workspace

cdef enum:
    # codes of scan's ``known`` array, one per cell (row-major)
    K_NONE = 0      # nothing known (an unknown cell an earlier position left uncertain)
    K_MINE = 1      # proven a mine by an earlier position
    K_SAFE = 2      # proven safe by an earlier position
    K_OPEN = 3      # open (a number) in the last position scanned
    K_DONE = 4      # open, and every neighbour open or proven: never a constraint again
    K_FRESH = 5     # during a scan: opened since the last position (then K_OPEN or K_DONE)

cdef int scan(Workspace ws, const int8_t[:, :] view, double[::1] prob,
              uint8_t[::1] interior, uint8_t[::1] known=*) except -2
cdef int group(Workspace ws, int W) except -2
cdef int reduce_fixed(Workspace ws) except -2
cdef int tidy(Workspace ws) except -2
cdef void components(Workspace ws) noexcept
cdef str cell_name(Workspace ws, Py_ssize_t p)
