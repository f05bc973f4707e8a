extension LoopbackServer {
    /// Removes and returns the oldest recorded request not taken yet, waiting for one
    /// to arrive for at most `timeout` on the calling thread.
    ///
    /// Use it from synchronous code. From `async` code the `takeRequest(timeout:)`
    /// overload that suspends is chosen instead.
    ///
    /// ```swift
    /// let request = server.takeRequest(timeout: .seconds(2))
    /// ```
    ///
    /// - Parameter timeout: The longest wait. Defaults to one second.
    /// - Returns: The request, or `nil` when none arrived in time (or the server
    ///   stopped with none left).
    public func takeRequest(timeout: Duration = .seconds(1)) -> RecordedRequest? {
        core.takeRequest(timeout: timeout)
    }

    /// Removes and returns the oldest recorded request not taken yet, suspending until
    /// one arrives for at most `timeout`.
    ///
    /// No thread is blocked while waiting. Concurrent callers are served in call order.
    ///
    /// ```swift
    /// let request = try #require(await server.takeRequest())
    /// #expect(request.method == "GET")
    /// ```
    ///
    /// - Parameter timeout: The longest wait. Defaults to one second.
    /// - Returns: The request, or `nil` when none arrived in time, the task was
    ///   cancelled, or the server stopped with none left.
    public func takeRequest(timeout: Duration = .seconds(1)) async -> RecordedRequest? {
        await core.takeRequest(timeout: timeout)
    }

    /// How many requests the server has read so far (taken or not).
    public var requestCount: Int {
        core.statistics.requests
    }

    /// How many connections the server has accepted so far.
    public var connectionCount: Int {
        core.statistics.connections
    }

    /// How many requests are in flight right now: read, and not yet fully answered.
    ///
    /// Delayed, throttled and stalled responses count as in flight.
    public var inFlightRequestCount: Int {
        core.statistics.inFlight
    }

    /// The largest number of requests that were in flight at the same moment.
    ///
    /// A request is in flight from the moment it has been read completely until its
    /// response has been written completely (or the connection was dropped). Stalled
    /// and delayed responses count, so this measures client-side concurrency:
    ///
    /// ```swift
    /// server.dispatcher = { _ in .text("ok").delayed(by: .milliseconds(200)) }
    /// try await withThrowingTaskGroup(of: Void.self) { group in
    ///     for _ in 0..<10 { group.addTask { _ = try await session.data(from: server.url(for: "/")) } }
    ///     try await group.waitForAll()
    /// }
    /// #expect(server.peakConcurrentRequests == 10)
    /// ```
    public var peakConcurrentRequests: Int {
        core.statistics.peak
    }

    /// Restarts ``peakConcurrentRequests`` from the number in flight right now.
    public func resetPeakConcurrentRequests() {
        core.resetPeak()
    }
}
