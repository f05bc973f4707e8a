/// The longest wait the package schedules: a century.
///
/// Swift's clocks cannot sleep until a deadline whose seconds do not fit the system's timers
/// (`Task.sleep` on a `ContinuousClock` stops the process for a deadline `.seconds(Int64.max)`
/// away). A longer wait than this is, to any caller, the same as waiting this long, so the
/// package's timers wait at most a century, whatever they are given.
package let longestSchedulableWait = Duration.seconds(100 * 365 * 24 * 60 * 60)

/// `duration`, or ``longestSchedulableWait`` if it is longer.
package func schedulable(_ duration: Duration) -> Duration {
    min(duration, longestSchedulableWait)
}

/// `duration`, or ``longestSchedulableWait`` if it is a `Duration` longer than that; a
/// duration of another clock's kind as it is.
package func schedulable<D: DurationProtocol>(_ duration: D) -> D {
    guard let wait = duration as? Duration, wait > longestSchedulableWait, let longest = longestSchedulableWait as? D
    else { return duration }
    return longest
}
