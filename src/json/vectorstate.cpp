#include <DataClient/private/vectorstate_p.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#    define DATACLIENT_X86_VZEROUPPER 1
#    include <immintrin.h>
#endif

namespace DataClient::detail {

#ifdef DATACLIENT_X86_VZEROUPPER
namespace {

// Read once at load. __builtin_cpu_supports("avx") also checks that the OS saves the AVX state
// (XCR0), so VZEROUPPER cannot fault where it says yes.
const bool hasAvx = [] {
    __builtin_cpu_init(); // we may run before libgcc's own constructor
    return __builtin_cpu_supports("avx") != 0;
}();

__attribute__((target("avx"))) void zeroUpper()
{
    _mm256_zeroupper();
}

} // namespace

void clearUpperVectorState()
{
    if (hasAvx)
        zeroUpper();
}
#else
void clearUpperVectorState() { }
#endif

} // namespace DataClient::detail
