import Foundation

extension Endpoint {
    /// Why an endpoint could not be turned into a request. Nothing has been sent when one of
    /// these is thrown.
    ///
    /// ```swift
    /// guard let url = endpoint.url else {
    ///     promise.reject(with: Endpoint.Error.invalidURL(endpoint.urlProblem))
    ///     return
    /// }
    /// ```
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// No valid absolute URL can be made: the scheme is not a valid scheme, the host is
        /// empty or not a host name or IP address, the port is outside `0...65535`, or the base
        /// URL has no scheme or host. The problem, when known, names the part and shows the
        /// redacted URL; ``urlRequest()`` always gives it.
        ///
        /// Two `invalidURL` errors are equal whatever their problems, which are for people to
        /// read: `error == .invalidURL` and `catch Endpoint.Error.invalidURL` match them all.
        case invalidURL(URLProblem?)
        /// A header field cannot be sent: its name is not an HTTP token, or its value holds a
        /// control character such as CR, LF or NUL. Only the name is kept, since values may be
        /// secrets.
        case invalidHeader(name: String)
        /// The method is not an HTTP token (it is empty, or holds a space, CR, LF or the like).
        case invalidMethod(HTTPMethod)
        /// The timeout is zero, negative, infinite or not a number.
        case invalidTimeout

        /// An invalid URL whose problem is not known: `promise.reject(with: Endpoint.Error.invalidURL)`.
        public static var invalidURL: Error { .invalidURL(nil) }

        /// Whether two errors are the same error; `invalidURL` errors are equal whatever their
        /// problems.
        public static func == (lhs: Error, rhs: Error) -> Bool {
            switch (lhs, rhs) {
            case (.invalidURL, .invalidURL): true
            case (.invalidHeader(let left), .invalidHeader(let right)): left == right
            case (.invalidMethod(let left), .invalidMethod(let right)): left == right
            case (.invalidTimeout, .invalidTimeout): true
            default: false
            }
        }

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .invalidURL(let problem?):
                "The endpoint does not make a valid absolute URL: \(problem)."
            case .invalidURL(nil):
                "The endpoint does not make a valid absolute URL: check its scheme, host, port and base URL."
            case .invalidHeader(let name):
                "The header field \(name.debugDescription) cannot be sent: a name must be an HTTP token "
                    + "and a value must not contain control characters such as CR, LF or NUL."
            case .invalidMethod(let method):
                "The HTTP method \(method.rawValue.debugDescription) cannot be sent: a method must be an HTTP token."
            case .invalidTimeout:
                "The endpoint's timeout cannot be used: it must be a positive, finite number of seconds."
            }
        }
    }
}

extension Endpoint.Error: LocalizedError {
    /// The same words as ``description``, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
