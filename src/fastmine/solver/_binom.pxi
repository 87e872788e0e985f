# Included by _count.pyx and _kept.pyx: the binomials of a variable's cells.
#
# A variable is a set of cells with the same numbers around them (at most 8:
# a number's neighbours); x mines among its m cells can lie in C(m, x) ways.

cdef double BINOM[9][9]     # C(m, x) for a variable of multiplicity m <= 8
cdef int _m, _x
for _m in range(9):
    for _x in range(9):
        BINOM[_m][_x] = 0.0
    BINOM[_m][0] = 1.0
    for _x in range(1, _m + 1):
        BINOM[_m][_x] = BINOM[_m - 1][_x - 1] + BINOM[_m - 1][_x]
