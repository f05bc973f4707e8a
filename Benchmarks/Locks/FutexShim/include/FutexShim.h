// The futex system call for LockContention's spin-futex lock: `syscall` is variadic, which
// Swift does not import.
#ifndef FUTEX_SHIM_H
#define FUTEX_SHIM_H

#include <stdint.h>

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Sleeps while the word at `address` holds `expected` (FUTEX_WAIT_PRIVATE).
static inline long futex_shim_wait(const void *address, uint32_t expected) {
    return syscall(SYS_futex, address, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

/// Wakes up to `count` threads sleeping on the word at `address` (FUTEX_WAKE_PRIVATE).
static inline long futex_shim_wake(const void *address, int count) {
    return syscall(SYS_futex, address, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}
#endif

#endif
