import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Follows redirects, but never carries credentials to another origin: when a redirect leaves
/// the origin (scheme, host, port) of the request, `Authorization`, `Cookie` and
/// `Proxy-Authorization` are removed from the redirected request.
///
/// As a per-task delegate (`URLSession.transport`) Apple's URLSession consults it; Linux's
/// swift-corelibs-foundation only consults a session's own delegate, which is what
/// `URLSession.redirectGuarded(configuration:)` sets.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
    static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(Self.guarded(request, redirectedFrom: response.url ?? task.originalRequest?.url))
    }

    /// `request` without credential headers if it goes to another origin than `source`.
    static func guarded(_ request: URLRequest, redirectedFrom source: URL?) -> URLRequest {
        guard Origin(url: request.url) != Origin(url: source) else {
            return request
        }
        var request = request
        for name in credentialHeaders {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }
}
