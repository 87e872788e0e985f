# Random numbers of the batch kernel (_batch.pyx includes this file).

# --------------------------------------------------------------------------
# Random numbers.  Boards: xoshiro256** seeded by splitmix64, exactly as
# fastmine._kernels.lay_mines, so an episode's board is fastmine.Game's board
# with the same seed (tests/env check it).  Episode seeds and the random-agent
# sampler: splitmix64 streams (a counter and a mix: one add per number).
# --------------------------------------------------------------------------

cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    r.s0 = splitmix64(&seed)
    r.s1 = splitmix64(&seed)
    r.s2 = splitmix64(&seed)
    r.s3 = splitmix64(&seed)


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = rotl(r.s3, 45)
    return result


cdef inline uint64_t rng_below(Rng* r, uint64_t n) noexcept nogil:
    """Unbiased integer in [0, n), n >= 1 (rejects the short top range)."""
    cdef uint64_t threshold = (<uint64_t>0 - n) % n
    cdef uint64_t x = rng_next(r)
    while x < threshold:
        x = rng_next(r)
    return x % n


cdef inline uint64_t mix_below(uint64_t* state, uint64_t n) noexcept nogil:
    """Unbiased integer in [0, n), n >= 1, from a splitmix64 stream."""
    cdef uint64_t threshold = (<uint64_t>0 - n) % n
    cdef uint64_t x = splitmix64(state)
    while x < threshold:
        x = splitmix64(state)
    return x % n


# Key that separates the sampler's stream from the episode-seed stream of the
# same reset seed.
cdef uint64_t SAMPLER_KEY = <uint64_t>0xD1B54A32D192ED03ULL
