extension Composer {
    /// Where a composer goes in a stack, outermost first.
    ///
    /// ``NetworkSession/transport(with:)-(Composer...)`` sorts composers by place, so a
    /// stack is in the right order whatever order you list it in. ``Composer`` gives the
    /// reason for each position. Your own composers are ``custom`` unless you say otherwise:
    ///
    /// ```swift
    /// let stamp = Composer(at: .logging) { next in
    ///     { request in try await next(request) }
    /// }
    /// ```
    public enum Place: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// ``Composer/numbered()``: gives each call its id and number.
        case numbering
        /// ``Composer/cancellable(in:)``: lets a call be cancelled by id.
        case cancellation
        /// ``Composer/logged(to:level:redaction:clock:)``: one pair of records per call.
        case logging
        /// ``Composer/metrics(to:redaction:clock:)``: one measurement per call.
        case metrics
        /// ``Composer/validatingStatus(_:)``: where a status becomes an error.
        case statusValidation
        /// ``Composer/retry(_:clock:)``: attempts again.
        case retry
        /// ``Composer/timeout(after:clock:)``: limits each attempt.
        case timeout
        /// ``Composer/authenticated(by:)`` and ``Composer/capturingCredential(into:_:)``.
        case authentication
        /// Your own composers and ``Composer/modifyingRequest(_:)``.
        case custom
        /// ``Composer/cached(in:)``: answers repeated `GET` requests.
        case cache
        /// ``Composer/deduplicated(matching:includingUnsafeMethods:)``: merges identical calls.
        case deduplication
        /// ``Composer/throttled(maxConcurrent:perHost:)``: limits the calls in flight.
        case throttling
        /// ``Composer/delayed(by:clock:)``: holds each request back, like a slow network.
        case delay

        /// Whether `lhs` goes above (outside) `rhs`.
        public static func < (lhs: Place, rhs: Place) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The place's name, as a factory call reads.
        public var description: String {
            switch self {
            case .numbering: ".numbered()"
            case .cancellation: ".cancellable(in:)"
            case .logging: ".logged(to:)"
            case .metrics: ".metrics(into:)"
            case .statusValidation: ".validatingStatus()"
            case .retry: ".retry()"
            case .timeout: ".timeout(after:)"
            case .authentication: ".authenticated(by:)"
            case .custom: "a composer of your own"
            case .cache: ".cached(in:)"
            case .deduplication: ".deduplicated()"
            case .throttling: ".throttled(maxConcurrent:)"
            case .delay: ".delayed(by:)"
            }
        }
    }
}
