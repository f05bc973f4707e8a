import FunctionalNetworking

/// The articles' name for a transport: `(URLRequest) async throws -> (Data, URLResponse)`.
///
/// The same type as `FunctionalNetworking`'s `Transport`, so a value of either passes for the
/// other:
///
/// ```swift
/// let baseFunction: NetworkClosureType = URLSession.shared.transport
/// ```
public typealias NetworkClosureType = Transport
