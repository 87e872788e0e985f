# The random agent of the batch kernel (_batch.pyx includes this file, after
# _rng.pxi and _cells.pxi): a uniformly random valid reveal from a game's
# action mask, drawn from the game's own sampler stream.


cdef int64_t sample_reveal(const uint8_t* m, const int8_t* pc, uint64_t* state,
                           Py_ssize_t N, Py_ssize_t n_actions, Py_ssize_t cols,
                           bint safe) noexcept nogil:
    """A random valid reveal of one game (``m``: its action mask, ``n_actions``
    long, reveals first; ``pc``: its padded counts, mines marked PC_MINE), among
    the cells that are not mines when ``safe``; with no valid reveal, a random
    valid action of any kind; with none at all, 0."""
    cdef Py_ssize_t t, j, count, W = cols + 2
    cdef uint64_t x
    # Rejection first (cheap while many cells are hidden), then an exact count.
    for t in range(32):
        j = <Py_ssize_t>mix_below(state, <uint64_t>N)
        if m[j] and not (safe and pc[(j // cols + 1) * W + j % cols + 1] == PC_MINE):
            return j
    count = 0
    for j in range(N):
        if m[j] and not (safe and pc[(j // cols + 1) * W + j % cols + 1] == PC_MINE):
            count += 1
    if count:
        x = mix_below(state, <uint64_t>count)
        for j in range(N):
            if m[j] and not (safe and pc[(j // cols + 1) * W + j % cols + 1] == PC_MINE):
                if x == 0:
                    return j
                x -= 1
    count = 0
    for j in range(n_actions):
        count += m[j]
    if count == 0:
        return 0
    x = mix_below(state, <uint64_t>count)
    for j in range(n_actions):
        if m[j]:
            if x == 0:
                return j
            x -= 1
    return 0
