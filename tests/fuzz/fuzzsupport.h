// What every fuzz target shares: quiet Qt logging and a check that fails like a crash.
#pragma once

#include <QtCore/QtGlobal>

#include <cstdio>
#include <cstdlib>

namespace FuzzSupport {

// The parsers warn on bad input by design; printing each warning would slow fuzzing ~100x.
// qFatal() still aborts after the handler returns, so an assertion stays a crash.
inline void silenceQtMessages()
{
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext &, const QString &) {});
}

// A broken invariant must stop the run with its input saved: abort() is what libFuzzer catches.
[[noreturn]] inline void fail(const char *what)
{
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

} // namespace FuzzSupport

#define FUZZ_CHECK(condition)                                                                      \
    do {                                                                                           \
        if (!(condition))                                                                          \
            FuzzSupport::fail(#condition);                                                         \
    } while (false)
