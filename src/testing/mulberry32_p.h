// mulberry32: a tiny seeded PRNG with the same output on every platform and standard library
// (std::uniform_*_distribution differ between implementations), as used for bench-data.
#pragma once

#include <QtCore/QtGlobal>

namespace DataClient::Testing::detail {

class Mulberry32
{
public:
    explicit Mulberry32(quint32 seed = 1) : state(seed) { }

    quint32 next()
    {
        // Unsigned 32-bit arithmetic wraps modulo 2^32, like Math.imul in the reference.
        quint32 t = (state += 0x6D2B79F5u);
        t = (t ^ (t >> 15)) * (t | 1u);
        t ^= t + (t ^ (t >> 7)) * (t | 61u);
        return t ^ (t >> 14);
    }
    //! Uniform in [0, 1).
    double nextDouble() { return next() / 4294967296.0; }
    //! Uniform in [0, bound), bound > 0.
    int nextBelow(int bound) { return int(nextDouble() * bound); }

private:
    quint32 state;
};

} // namespace DataClient::Testing::detail
