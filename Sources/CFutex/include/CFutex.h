// The two futex operations the Futures lock needs on Linux. Swift does not import the variadic
// `syscall`, so they are C functions; elsewhere this module is empty.
#ifndef CFUTEX_H
#define CFUTEX_H

#ifdef __linux__
#include <stdint.h>

/// Sleeps while the 32-bit word at `addr` holds `expected` (FUTEX_WAIT_PRIVATE, no time limit).
/// Returns at once when it holds another value; may also return spuriously (a signal), so
/// the caller checks its condition again.
void cfutex_wait(uint32_t *addr, uint32_t expected);

/// Wakes one thread sleeping in `cfutex_wait` on `addr`, if any (FUTEX_WAKE_PRIVATE).
void cfutex_wake_one(uint32_t *addr);
#endif

#endif
