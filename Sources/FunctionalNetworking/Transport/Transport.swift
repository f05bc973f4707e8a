import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The function at the bottom of every network stack: a request in, data and a response out.
///
/// `URLSession.shared.data(for:)` is one; a ``NetworkSession`` gives one through the package's
/// delegate (`session.transport`), and `URLSession.shared.transport` gives the one of the
/// session that stands for `URLSession.shared`. Composers take a `Transport` and return a
/// `Transport`, so that whatever you compose, in the end you still hold this same function:
///
/// ```swift
/// let transport: Transport = NetworkSession.shared.transport(with: .retry())
/// let (data, response) = try await transport(URLRequest(url: url))
/// ```
public typealias Transport = @Sendable (URLRequest) async throws -> (Data, URLResponse)
