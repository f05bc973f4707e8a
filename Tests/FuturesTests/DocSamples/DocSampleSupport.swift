import Futures

/// Runs `body` with a real-time limit, so that a documentation sample that waits fails its test
/// instead of hanging it.
func withDocSampleTimeLimit<T: Sendable>(
    _ limit: Duration = .seconds(30),
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await Future { try await body() }.timeout(after: limit).value
}
