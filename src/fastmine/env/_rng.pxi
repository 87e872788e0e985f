# Random numbers of the batch kernel (_batch.pyx includes this file).

# --------------------------------------------------------------------------
# Random numbers.  Boards: xoshiro256** seeded by splitmix64, exactly as
# fastmine._kernels.lay_mines, so an episode's board is fastmine.Game's board
# with the same seed (tests/env check it).  Episode seeds and the random-agent
# sampler: splitmix64 streams (a counter and a mix: one add per number).
# --------------------------------------------------------------------------

cdef extern from *:
    """
    /* x % d without a division, from m = floor((2**64 - 1) / d): q, the high
       word of x * m, is floor(x / d) or one less (m * d > 2**64 - 1 - d, so
       x * m / 2**64 lies in (x / d - 1, x / d]), so x - q * d is the remainder
       or the remainder plus d, and one compare settles it.  Exact for every
       64-bit x and 1 <= d <= 2**63; two multiplications where a 128-bit
       reciprocal (Lemire, Kaser and Kurz, 2019) takes four, and the board's
       draws were bound by the multiplier. */
    static inline uint64_t fmb_fastmod(uint64_t x, uint64_t m, uint64_t d) {
        uint64_t q = (uint64_t)(((__uint128_t)x * m) >> 64);
        uint64_t r = x - q * d;
        return r >= d ? r - d : r;
    }
    static inline uint64_t fmb_fastmod_m(uint64_t d) { return UINT64_MAX / d; }
    """
    uint64_t fmb_fastmod(uint64_t x, uint64_t m, uint64_t d) noexcept nogil
    uint64_t fmb_fastmod_m(uint64_t d) noexcept nogil


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
    cdef uint64_t x = rng_next(r)
    cdef uint64_t threshold
    # The threshold (2**64 mod n) is below n: only a draw below n can be
    # rejected, so the division that finds it is skipped almost always (the
    # numbers drawn are the same).
    if x < n:
        threshold = (<uint64_t>0 - n) % n
        while x < threshold:
            x = rng_next(r)
    return x % n


cdef inline uint64_t rng_below_m(Rng* r, uint64_t n, uint64_t m) noexcept nogil:
    """rng_below, the same number, with the remainder taken by multiplication
    (``m``: fmb_fastmod_m(n))."""
    cdef uint64_t x = rng_next(r)
    cdef uint64_t threshold
    if x < n:
        threshold = (<uint64_t>0 - n) % n
        while x < threshold:
            x = rng_next(r)
    return fmb_fastmod(x, m, n)


cdef inline uint64_t mix_below(uint64_t* state, uint64_t n) noexcept nogil:
    """Unbiased integer in [0, n), n >= 1, from a splitmix64 stream."""
    cdef uint64_t x = splitmix64(state)
    cdef uint64_t threshold
    if x < n:           # as rng_below
        threshold = (<uint64_t>0 - n) % n
        while x < threshold:
            x = splitmix64(state)
    return x % n


# Key that separates the sampler's stream from the episode-seed stream of the
# same reset seed.
cdef uint64_t SAMPLER_KEY = <uint64_t>0xD1B54A32D192ED03ULL
