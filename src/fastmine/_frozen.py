"""Arrays the engine hands out over its own state, that no caller can write to.

A plain read-only view (``v = a.view(); v.flags.writeable = False``) is only a
request: NumPy lets anyone set ``v.flags.writeable = True`` again while the
array it looks at is writable, and a kernel's own state arrays must stay
writable for the kernel.  A caller that did so (to hand the array to a library
that wants writable input, say) would write straight into the game, and the
kernel would then read the changed cells back -- a number overwritten with 0
made an illegal chord open cells.  :func:`frozen` makes a view through a
read-only buffer instead: NumPy refuses to make it, or any view of it,
writable, and it still shows every change the kernel makes, with no copy.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import numpy as np

__all__ = ["frozen"]

_A = TypeVar("_A", bound=np.ndarray[Any, Any])


def frozen(a: _A) -> _A:
    """A read-only array over ``a``'s memory that nobody can make writable.

    Parameters
    ----------
    a : numpy.ndarray
        A C-contiguous array (the kernel's own; it stays writable).

    Returns
    -------
    numpy.ndarray
        The same shape, type and memory; ``flags.writeable = True`` on it, or
        on any view of it, raises ValueError.

    Examples
    --------
    >>> import numpy as np
    >>> state = np.zeros(3, np.int8)
    >>> v = frozen(state)
    >>> state[0] = 5
    >>> int(v[0])
    5
    >>> v.flags.writeable = True
    Traceback (most recent call last):
    ...
    ValueError: cannot set WRITEABLE flag to True of this array
    """
    if not a.flags.c_contiguous:
        raise ValueError("frozen() needs a C-contiguous array")
    # bytes are a read-only buffer too: an empty array has no memory to share
    buffer = a.reshape(-1).view(np.uint8).data.toreadonly() if a.size else b""
    return cast(_A, np.frombuffer(buffer, dtype=a.dtype).reshape(a.shape))
