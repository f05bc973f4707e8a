extension Composer {
    /// A stack whose order is known to misbehave, thrown by ``Composer/stack(_:)``: which two
    /// composers are the wrong way round, and what would go wrong.
    ///
    /// ```swift
    /// do {
    ///     _ = try Composer.stack([.cached(in: cache), .authenticated(by: auth)])
    /// } catch {
    ///     // ".cached(in:) is listed above .authenticated(by:): the cache would not see the
    ///     //  credential, and would serve one user's response to another. …"
    /// }
    /// ```
    public struct OrderError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The composer listed above where it may go.
        public let upper: Place
        /// The composer listed below where it may go.
        public let lower: Place
        /// What would go wrong, and what to do instead.
        public let description: String

        /// The first pair of `places` (listed outermost first) that is a known-bad order.
        static func first(in places: [Place]) -> OrderError? {
            for (index, upper) in places.enumerated() {
                for lower in places[(index + 1)...] where lower < upper {
                    if let reason = reason(upper: upper, lower: lower) {
                        return OrderError(
                            upper: upper, lower: lower,
                            description: "\(upper) is listed above \(lower): \(reason) "
                                + "List \(lower) first, or use URLSession.transport(with:), which orders the stack.")
                    }
                }
            }
            return nil
        }

        /// Why `upper` above `lower` misbehaves, or `nil` when that order is only unusual.
        private static func reason(upper: Place, lower: Place) -> String? {
            switch (upper, lower) {
            case (.cancellation, .numbering), (.logging, .numbering), (.metrics, .numbering):
                "it runs before the request is numbered, so it never sees the request's id."
            case (.cache, .authentication), (.deduplication, .authentication):
                "it would not see the credential, and would give one user's response to another."
            case (.authentication, .retry):
                "every attempt would reuse the credential read before the first one."
            case (.retry, .statusValidation), (.authentication, .statusValidation):
                "it would see a failed status as an error instead of a response."
            case (.throttling, .retry):
                "each back-off wait between attempts would hold a throttle slot."
            default:
                nil
            }
        }
    }
}
