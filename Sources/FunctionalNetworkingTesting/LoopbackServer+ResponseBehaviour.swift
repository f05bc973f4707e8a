extension LoopbackServer {
    /// A deliberate misbehaviour of the server for one response.
    ///
    /// ```swift
    /// server.enqueue(.fault(.closeAtStart))           // connection dropped before reading
    /// server.enqueue(.text("abcdef").withFault(.closeMidBody))  // "abc", then closed
    /// ```
    public enum Fault: Sendable, Hashable {
        /// Behave normally.
        case none
        /// Close the connection right after accepting it, before reading a request.
        ///
        /// Taken from the front of the queue when a connection is accepted (or, on a
        /// kept-alive connection, when the next request's first bytes arrive), so no
        /// request is recorded. A ``LoopbackServer/Dispatcher`` only sees requests that
        /// were read, so when a dispatcher returns it, the connection is closed without
        /// an answer, exactly like ``closeAfterRequest``.
        case closeAtStart
        /// Read and record the request, then close without answering.
        case closeAfterRequest
        /// Send the head with the full `Content-Length`, then half the body, then close.
        ///
        /// Use a body of at least two bytes; with fewer there is nothing to cut.
        case closeMidBody
        /// Read and record the request and never answer.
        ///
        /// The server keeps its end of the connection open, and the request counts as
        /// in flight, until the server stops, even after the client has given up.
        case stall
    }

    /// Body pacing: write `bytesPerPeriod` bytes, sleep `period`, repeat.
    ///
    /// A throttled body is sent in several writes (the head and the first slice go
    /// together), so it exercises clients that must reassemble a slow body.
    ///
    /// ```swift
    /// server.enqueue(.text(big).throttled(bytesPerPeriod: 1024, period: .milliseconds(10)))
    /// ```
    public struct Throttle: Sendable, Hashable {
        /// How many body bytes to write per period. Values below 1 count as 1.
        public var bytesPerPeriod: Int
        /// The pause after each slice.
        public var period: Duration

        /// Creates a pacing rule.
        ///
        /// - Parameters:
        ///   - bytesPerPeriod: Body bytes per write (at least 1).
        ///   - period: The pause after each write.
        public init(bytesPerPeriod: Int, period: Duration) {
            self.bytesPerPeriod = bytesPerPeriod
            self.period = period
        }
    }
}

extension LoopbackServer {
    /// How many times the server writes a response's body, so that a test can send a large or
    /// endless body without holding it in memory.
    ///
    /// ```swift
    /// server.enqueue(LoopbackServer.Response(body: Data(count: 1_048_576)).repeated(.times(200)))   // 200 MiB
    /// server.enqueue(LoopbackServer.Response(body: Data(count: 65_536)).repeated(.forever))          // never ends
    /// ```
    public enum Repetition: Sendable, Hashable {
        /// The body once, with `Content-Length` (the default).
        case once
        /// The body `count` times over, with `Content-Length` of the whole.
        case times(Int)
        /// The body over and over, with `Transfer-Encoding: chunked`, until the client closes
        /// the connection or the server stops.
        case forever
    }
}

extension LoopbackServer.Response {
    /// A copy whose body is written as `repetition` says. Combined with
    /// ``throttled(bytesPerPeriod:period:)``, each repetition waits one period first.
    ///
    /// - Parameter repetition: How many times the body is written.
    /// - Returns: The modified response.
    public func repeated(_ repetition: LoopbackServer.Repetition) -> Self {
        var copy = self
        copy.repetition = repetition
        return copy
    }

    /// A copy that waits `delay` before sending its head.
    ///
    /// The request counts as in flight during the delay (see
    /// ``LoopbackServer/peakConcurrentRequests``). Stopping the server cuts the delay short.
    ///
    /// - Parameter delay: The pause before the status line is written.
    /// - Returns: The modified response.
    public func delayed(by delay: Duration) -> Self {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// A copy whose body is written `bytesPerPeriod` bytes at a time, `period` apart.
    ///
    /// - Parameters:
    ///   - bytesPerPeriod: Body bytes per write (at least 1).
    ///   - period: The pause after each write.
    /// - Returns: The modified response.
    public func throttled(bytesPerPeriod: Int, period: Duration) -> Self {
        var copy = self
        copy.throttle = LoopbackServer.Throttle(bytesPerPeriod: bytesPerPeriod, period: period)
        return copy
    }

    /// A copy carrying `fault`.
    ///
    /// - Parameter fault: The misbehaviour; see ``LoopbackServer/Fault``.
    /// - Returns: The modified response.
    public func withFault(_ fault: LoopbackServer.Fault) -> Self {
        var copy = self
        copy.fault = fault
        return copy
    }

    /// A copy with one more header field appended (existing fields with that name stay).
    ///
    /// ```swift
    /// .text("ok").addingHeader("Set-Cookie", "a=1").addingHeader("Set-Cookie", "b=2")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The modified response.
    public func addingHeader(_ name: String, _ value: String) -> Self {
        var copy = self
        copy.headers.append(LoopbackServer.Header(name, value))
        return copy
    }

    /// A copy where every field named `name` (case-insensitive) is replaced by one field.
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    /// - Returns: The modified response.
    public func settingHeader(_ name: String, _ value: String) -> Self {
        var copy = self
        copy.headers.removeAll { $0.hasName(name) }
        copy.headers.append(LoopbackServer.Header(name, value))
        return copy
    }
}
