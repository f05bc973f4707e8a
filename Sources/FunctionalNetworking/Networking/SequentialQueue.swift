import Foundation
import Futures

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a list of endpoints one after another: the next starts only when the one before has
/// finished.
///
/// Either stop at the first failure, with ``run(_:)``:
///
/// ```swift
/// let queue = SequentialQueue(networking: networking(from: NetworkSession.shared.transport))
/// do {
///     let bodies = try await queue.run([.createCart, .addItem(7), .checkout]).value
///     print(bodies.count)
/// } catch let failure as SequentialQueue.Failure {
///     // failure.completed: the bodies before it; failure.index: which one failed
///     print(failure.completed.count, failure.index)
/// }
/// ```
///
/// or send every endpoint and collect each result, with ``runCollectingResults(_:)``:
///
/// ```swift
/// let results = try await queue.runCollectingResults(uploads).value   // [Result<Data, any Error>]
/// ```
///
/// Cancelling the returned future cancels the request in flight and sends no more.
public struct SequentialQueue: Sendable {
    /// Why ``SequentialQueue/run(_:)`` stopped: the endpoint at ``index`` failed with
    /// ``underlying``, after the ones before it gave ``completed``; the rest were not sent.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The bodies of the endpoints before the failed one, in order.
        public let completed: [Data]
        /// The position of the failed endpoint in the list.
        public let index: Int
        /// The error the failed endpoint gave.
        public let underlying: any Error

        /// Creates the failure of the endpoint at `index`.
        init(completed: [Data], index: Int, underlying: any Error) {
            self.completed = completed
            self.index = index
            self.underlying = underlying
        }

        /// Which endpoint failed, and why, with URLs redacted as ``Redaction`` describes them.
        public var description: String {
            "Endpoint \(index) of the queue failed after \(completed.count) succeeded: \(ErrorWords.of(underlying))"
        }
    }

    private let networking: @Sendable (Endpoint) -> Future<Data>

    /// Creates a queue that sends each endpoint with `networking`.
    ///
    /// - Parameter networking: Starts one endpoint; ``networking(from:)`` makes one from a
    ///   composed transport.
    public init(networking: @escaping @Sendable (Endpoint) -> Future<Data>) {
        self.networking = networking
    }

    /// Sends `endpoints` in order, each after the previous one succeeded, and stops at the
    /// first failure.
    ///
    /// - Returns: A future of every body, in order; it fails with ``Failure`` (carrying the
    ///   bodies so far) when an endpoint fails, and the endpoints after it are not sent. An
    ///   empty list gives an empty array.
    public func run(_ endpoints: [Endpoint]) -> Future<[Data]> {
        let networking = self.networking
        return Future {
            var bodies: [Data] = []
            for (index, endpoint) in endpoints.enumerated() {
                try Task.checkCancellation()
                do {
                    bodies.append(try await networking(endpoint).value)
                } catch {
                    try Task.checkCancellation()
                    throw Failure(completed: bodies, index: index, underlying: error)
                }
            }
            return bodies
        }
    }

    /// Sends every one of `endpoints` in order, each after the previous one finished, whether
    /// it succeeded or not.
    ///
    /// - Returns: A future of each endpoint's result, in order. It fails only when it is
    ///   cancelled (`CancellationError`).
    public func runCollectingResults(_ endpoints: [Endpoint]) -> Future<[Result<Data, any Error>]> {
        let networking = self.networking
        return Future {
            var results: [Result<Data, any Error>] = []
            for endpoint in endpoints {
                try Task.checkCancellation()
                do {
                    results.append(.success(try await networking(endpoint).value))
                } catch {
                    try Task.checkCancellation()
                    results.append(.failure(error))
                }
            }
            return results
        }
    }
}

extension SequentialQueue.Failure: CustomDebugStringConvertible, CustomReflectable {
    /// The same words as ``description``.
    public var debugDescription: String { description }

    /// What `dump` shows: the failed endpoint's position, how many bodies came before it (not
    /// their bytes, which may hold a token), and the failure in words, secrets redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["index": index, "completed": "\(completed.count) bodies", "underlying": ErrorWords.of(underlying)],
            displayStyle: .struct
        )
    }
}

extension SequentialQueue.Failure: LocalizedError {
    /// The same words as `description`, so that `localizedDescription` says them too.
    public var errorDescription: String? { description }
}
