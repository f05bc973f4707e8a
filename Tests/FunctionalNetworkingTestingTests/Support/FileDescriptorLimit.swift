#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raises this process's soft limit on open descriptors to at least `minimum`
/// (bounded by the hard limit). Tests that hold hundreds of connections need it
/// where the default soft limit is low (macOS defaults to 256).
func raiseOpenFileLimit(toAtLeast minimum: Int) {
    var limits = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limits) == 0, limits.rlim_cur < rlim_t(minimum) else { return }
    limits.rlim_cur = min(rlim_t(minimum), limits.rlim_max)
    _ = setrlimit(resource, &limits)
}
