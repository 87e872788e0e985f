# Read-only arrays over a private bytes object, for the video kernels (_records.pyx,
# _clicks.pyx include this): a kernel writes a result into a bytes object it made,
# and hands it out as arrays whose base is that object.  A bytes object exposes no
# writable buffer, so NumPy refuses to make such an array, or any view of it,
# writable again (the promise of fastmine._frozen.frozen, without a copy).  The
# including file cimports numpy as cnp and PyBytes_AS_STRING.

cdef object _over_nd(bytes data, int ndim, cnp.npy_intp* dims, Py_ssize_t offset,
                     int typenum):
    """A read-only C-ordered array of shape ``dims`` at byte ``offset`` of ``data``,
    which it keeps alive."""
    cdef cnp.ndarray arr = cnp.PyArray_SimpleNewFromData(ndim, dims, typenum,
                                                          PyBytes_AS_STRING(data) + offset)
    cnp.PyArray_CLEARFLAGS(arr, cnp.NPY_ARRAY_WRITEABLE)
    cnp.set_array_base(arr, data)
    return arr


cdef inline object _over(bytes data, Py_ssize_t offset, Py_ssize_t n, int typenum):
    """A read-only 1-D array of ``n`` items at byte ``offset`` of ``data``."""
    cdef cnp.npy_intp dim = n
    return _over_nd(data, 1, &dim, offset, typenum)
