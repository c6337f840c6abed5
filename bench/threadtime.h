// The figures of scenarios that time whole requests themselves (round trips, refetches): the CPU
// time the calling thread spent, and the median of repeated measurements.
#pragma once

#include <time.h>

#include <algorithm>
#include <vector>

namespace Bench {

//! CPU time of the calling thread: what it spent working, not waiting for the network.
inline double threadCpuMs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
}

inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

} // namespace Bench
