// Clearing the CPU's upper vector state before a long stretch of our own code.
//
// On x86 CPUs with AVX, code that leaves the upper halves of the YMM/ZMM registers dirty (no
// VZEROUPPER on its way out) makes every later SSE instruction of the same thread pay a penalty
// until someone clears them. Qt 6.4's string hash with a seed (every QHash<QString, …> lookup)
// leaves them dirty on an AVX-512 machine, and our parser and store are compiled for plain
// x86-64 (SSE2): measured, the parse of todos-10k.json took 9.8 ms after one
// QHash<QString, int> insert in the same thread and 5.3 ms without. So the long loops call
// clearUpperVectorState() first: one VZEROUPPER, on CPUs that have AVX; nothing elsewhere.
#pragma once

#include <DataClient/private/jsonglobal_p.h>

namespace DataClient::detail {

//! Clears the upper vector state of this thread (VZEROUPPER) when the CPU has AVX; else nothing.
//! Cheap (a load and a branch, plus one instruction): call it at the start of a long loop of our
//! own code, after any Qt call that may have hashed a QString.
DATACLIENT_JSON_EXPORT void clearUpperVectorState();

} // namespace DataClient::detail
