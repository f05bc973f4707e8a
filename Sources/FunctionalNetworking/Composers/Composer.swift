import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Wraps one ``Transport`` into another: the unit a network stack is built from.
///
/// A composer receives the transport below it and returns a transport of the same shape, so
/// whatever you compose, in the end you hold the same function,
/// `(URLRequest) async throws -> (Data, URLResponse)`. The built-in composers are static
/// factories (``retry(_:clock:)``, ``authenticated(by:)``, ``validatingStatus(_:)``…); your
/// own is one closure:
///
/// ```swift
/// extension Composer {
///     /// Adds an API key to every request.
///     static func apiKey(_ key: String) -> Composer {
///         Composer { next in
///             { request in
///                 var request = request
///                 request.setValue(key, forHTTPHeaderField: "X-Api-Key")
///                 return try await next(request)
///             }
///         }
///     }
/// }
/// ```
///
/// ## The order of a stack
///
/// Stack composers with ``compose(_:with:)-9ndyr`` or `URLSession.transport(with:)`. **The first
/// composer in the list sees each request first and its response last**; the transport you
/// start from (URLSession) is the innermost:
///
/// ```swift
/// let transport = URLSession.shared.transport(with:
///     .logged(to: log),        // sees the request first, as the caller sent it
///     .authenticated(by: auth),
///     .retry(),                // each retry is authenticated and logged once, above
///     .validatingStatus()      // turns a non-2xx response into an error for retry to see
/// )
/// ```
public struct Composer: Sendable {
    private let wrap: @Sendable (@escaping Transport) -> Transport

    /// Creates a composer from the function that wraps the next transport.
    ///
    /// - Parameter wrap: Given the transport below this composer (`next`), returns the
    ///   transport that callers above it use.
    public init(_ wrap: @escaping @Sendable (_ next: @escaping Transport) -> Transport) {
        self.wrap = wrap
    }

    /// Wraps `transport`, returning the composed transport.
    public func wrapping(_ transport: @escaping Transport) -> Transport {
        wrap(transport)
    }

    /// A composer that changes nothing.
    public static var identity: Composer {
        Composer { $0 }
    }

    /// One composer made of `composers`, the first outermost (it sees requests first).
    public static func stack(_ composers: [Composer]) -> Composer {
        Composer { next in
            // A plain loop: a generic `reduce` stores the transports through re-abstraction
            // thunks, which every request then runs through (two allocations per request for
            // eight composers, measured by the benchmark package).
            var transport = next
            for composer in composers.reversed() {
                transport = composer.wrapping(transport)
            }
            return transport
        }
    }
}

/// Wraps `base` in `composers`. The first composer sees each request first and each response
/// last; `base` sends the request.
///
/// ```swift
/// let transport = compose(URLSession.shared.transport, with: .retry(), .validatingStatus())
/// ```
public func compose(_ base: @escaping Transport, with composers: Composer...) -> Transport {
    Composer.stack(composers).wrapping(base)
}

/// Wraps `base` in `composers`, the first outermost.
public func compose(_ base: @escaping Transport, with composers: [Composer]) -> Transport {
    Composer.stack(composers).wrapping(base)
}

extension URLSession {
    /// This session's ``transport`` wrapped in `composers`, the first outermost.
    ///
    /// ```swift
    /// let networking = networking(from: URLSession.shared.transport(with: .retry(), .validatingStatus()))
    /// ```
    public func transport(with composers: Composer...) -> Transport {
        Composer.stack(composers).wrapping(transport)
    }
}

extension Composer {
    /// Changes every request before passing it on — the seed's request modifier as a composer.
    ///
    /// ```swift
    /// let transport = URLSession.shared.transport(with: .modifyingRequest(bearerTokenModifier(token)))
    /// ```
    ///
    /// - Parameter modify: Returns the request to send; throwing stops the request.
    public static func modifyingRequest(
        _ modify: @escaping @Sendable (URLRequest) throws -> URLRequest
    ) -> Composer {
        Composer { next in
            { request in try await next(modify(request)) }
        }
    }

    /// Turns a response whose status is not in `acceptable` into an ``HTTPStatusError``
    /// carrying the status, headers and body.
    ///
    /// Put it below ``retry(_:clock:)`` so that retry sees failed statuses as errors:
    ///
    /// ```swift
    /// URLSession.shared.transport(with: .retry(), .validatingStatus())
    /// ```
    ///
    /// - Parameter acceptable: The statuses that pass; 200–299 by default.
    public static func validatingStatus(_ acceptable: Range<Int> = HTTPStatusError.successStatuses) -> Composer {
        Composer { next in
            { request in
                let (data, response) = try await next(request)
                try HTTPStatusError.check(response, data: data, acceptable: acceptable)
                return (data, response)
            }
        }
    }
}
