import FunctionalNetworking

/// The core's `Endpoint.Response`, under the name SwiftyNetworking's code writes, so that its
/// `Response<B>` compiles as written with `import FunctionalNetworkingSeeds`.
///
/// ```swift
/// func afterEach<B>(_ response: Response<B>) -> Response<B> where B: Codable {
///     statistics.store(response.status)
///     return response
/// }
/// ```
///
/// It is the same type: a value with its status, headers and final URL, given by
/// `responseNetworking(from:)` and its `decoded()`. The core names it `Endpoint.Response`, so
/// that it never takes the name of an app's own `Response`; new code writes that name.
public typealias Response<Value: Sendable> = Endpoint.Response<Value>
