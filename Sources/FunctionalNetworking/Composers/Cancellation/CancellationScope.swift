import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The requests in flight through one or more ``Composer/cancellable(in:)`` composers, each
/// under its id, so that you can cancel one of them, or all of them, from anywhere.
///
/// ```swift
/// let scope = CancellationScope()
/// let transport = NetworkSession.shared.transport(with: .numbered(), .cancellable(in: scope))
///
/// scope.inFlightIDs        // the ids of the requests running now, oldest first
/// scope.cancel(id: id)     // that request's caller gets CancellationError
/// scope.cancelAll()        // every request running now; later requests run as usual
/// ```
///
/// Cancelling never touches the session: new requests go through as before.
///
/// - Note: `CancellationScope` owns a lock, hence `@unchecked Sendable`.
public final class CancellationScope: @unchecked Sendable {
    private struct Entry {
        let id: UUID
        let cancel: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var entries: [UInt64: Entry] = [:]
    private var lastToken: UInt64 = 0

    /// Creates an empty scope.
    public init() {}

    /// The ids of the requests in flight now, oldest first, each once.
    public var inFlightIDs: [UUID] {
        let ids = lock.withLock { entries.sorted { $0.key < $1.key }.map(\.value.id) }
        var seen = Set<UUID>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// How many requests are in flight now.
    public var inFlightCount: Int {
        lock.withLock { entries.count }
    }

    /// Cancels the request in flight with the id `id` (every one, should several share it): its
    /// caller gets `CancellationError` at once and the call below it is cancelled.
    ///
    /// ```swift
    /// let id = UUID()
    /// async let data = RequestContext.withID(id) { try await transport(request) }
    /// scope.cancel(id: id)
    /// ```
    ///
    /// - Returns: `true` if a request with that id was in flight.
    @discardableResult
    public func cancel(id: UUID) -> Bool {
        let cancelled = lock.withLock {
            let matching = entries.filter { $0.value.id == id }
            for token in matching.keys {
                entries[token] = nil
            }
            return Array(matching.values)
        }
        cancelled.forEach { $0.cancel() }
        return !cancelled.isEmpty
    }

    /// Cancels every request in flight now; requests started afterwards are not affected.
    ///
    /// - Returns: How many requests were cancelled.
    @discardableResult
    public func cancelAll() -> Int {
        let cancelled = lock.withLock {
            let all = Array(entries.values)
            entries.removeAll()
            return all
        }
        cancelled.forEach { $0.cancel() }
        return cancelled.count
    }

    /// Adds a request; `cancel` stops it. Returns the token that ``unregister(_:)`` takes.
    func register(id: UUID, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        lock.withLock {
            lastToken += 1
            entries[lastToken] = Entry(id: id, cancel: cancel)
            return lastToken
        }
    }

    /// Removes a request that ended (nothing happens if it was cancelled already).
    func unregister(_ token: UInt64) {
        _ = lock.withLock { entries.removeValue(forKey: token) }
    }
}
