import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``RedirectPolicy`` decides for one ``Redirect``.
public enum RedirectDecision: Sendable {
    /// Send this request next: usually ``Redirect/proposedRequest``, or a request made from it.
    case follow(URLRequest)
    /// Follow no further: the caller receives the 3xx response itself.
    case stop
    /// Fail the request with this error.
    case fail(any Error)
}
