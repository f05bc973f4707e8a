import Foundation

/// The identity of one request as it passes through a stack: an id and a sequence number,
/// given by ``Composer/numbered()``.
///
/// Composers below `.numbered()`, and the logs they write, read it from ``current`` for the
/// duration of the call below. It lives in a task-local value, so nothing of it is sent on the
/// wire, and a composer *above* `.numbered()` cannot see it; that is why `.numbered()` goes
/// first:
///
/// ```swift
/// let transport = URLSession.shared.transport(with:
///     .numbered(),                          // first: every composer below sees the context
///     .logged(to: { print($0.message) }),   // "→ #1 3F2A9C1E GET https://shop.test/products"
///     .cancellable(in: scope)               // registers the request under the same id
/// )
///
/// extension Composer {
///     static var tagged: Composer {
///         Composer { next in
///             { request in
///                 let number = RequestContext.current?.number   // 1, 2, 3…
///                 return try await next(request)
///             }
///         }
///     }
/// }
/// ```
///
/// To know a request's id before sending it (to cancel it by id, say), choose it with
/// ``withID(_:_:)``.
public struct RequestContext: Sendable, Hashable, CustomStringConvertible {
    /// The request's id, unique across stacks.
    public let id: UUID
    /// The request's position among the requests that passed the same `.numbered()`: 1, 2, 3…
    public let number: Int

    /// Creates a context; ``Composer/numbered()`` does this for you.
    ///
    /// - Parameters:
    ///   - id: The request's id.
    ///   - number: The request's sequence number.
    public init(id: UUID = UUID(), number: Int) {
        self.id = id
        self.number = number
    }

    /// The context of the request the current task is sending, set by ``Composer/numbered()``
    /// for the duration of the call below it; `nil` outside.
    ///
    /// ```swift
    /// if let context = RequestContext.current {
    ///     print("request #\(context.number), id \(context.id)")
    /// }
    /// ```
    @TaskLocal public static var current: RequestContext?

    /// The id that the next request this task sends through `.numbered()` should take.
    @TaskLocal static var chosenID: UUID?

    /// Runs `operation` so that the request it sends through ``Composer/numbered()`` gets the id
    /// `id` (the number is still counted), and ``Composer/cancellable(in:)`` registers it under
    /// `id` even without `.numbered()`.
    ///
    /// Use it to cancel a request by id. A `Future` made inside `operation` (by
    /// ``networking(from:)``, say) starts its task there, so it carries the id too:
    ///
    /// ```swift
    /// let id = UUID()
    /// let download = RequestContext.withID(id) { networking(.catalogue) }
    /// scope.cancel(id: id)   // download fails with CancellationError
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id to give the request.
    ///   - operation: The work that sends the request.
    /// - Returns: What `operation` returns.
    public static func withID<Result>(_ id: UUID, _ operation: () throws -> Result) rethrows -> Result {
        try $chosenID.withValue(id, operation: operation)
    }

    /// Runs `operation` so that the request it sends through ``Composer/numbered()`` gets the id
    /// `id`.
    ///
    /// ```swift
    /// let id = UUID()
    /// let (data, _) = try await RequestContext.withID(id) { try await transport(request) }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id to give the request.
    ///   - isolation: The caller's isolation, kept for `operation`.
    ///   - operation: The work that sends the request.
    /// - Returns: What `operation` returns.
    public static func withID<Result>(
        _ id: UUID,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $chosenID.withValue(id, operation: operation, isolation: isolation)
    }

    /// `#3 3F2A9C1E`: the number and the first eight characters of the id.
    public var description: String {
        "#\(number) \(id.uuidString.prefix(8))"
    }
}
