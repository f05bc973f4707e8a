import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// This request with a fresh copy of its body stream when the stream is one the package
    /// made (for a ``MultipartFormData`` or a file set with ``Endpoint/with(body:)-(MultipartFormData)``
    /// or ``Endpoint/with(bodyFromFileAt:contentType:)``), its files checked again; as it is
    /// otherwise. ``sendingFreshBody(_:)`` does this for a send and also ends the copy after it.
    func withFreshBodyStream() throws(BodyError) -> URLRequest {
        guard let body = StreamedBody.of(httpBodyStream) else { return self }
        try BodySegment.check(body.segments)
        var request = self
        request.httpBodyStream = body.makeStream().stream
        return request
    }

    /// Whether the request's body is a stream the package made, which each send reads afresh
    /// (``sendingFreshBody(_:)``).
    var hasStreamedBody: Bool {
        StreamedBody.of(httpBodyStream) != nil
    }

    /// Sends this request with `send`, with a fresh copy of its body stream when the stream is
    /// one the package made (its files checked again first), and as it is otherwise.
    ///
    /// A file that cannot be read while the body is sent (removed before the stream reaches
    /// it) fails the send with ``BodyError/unreadableFile(_:reason:)``, naming it, whatever
    /// error URLSession gives for the broken body, or while URLSession still waits for the
    /// rest of it: the send is then cancelled. After the send, whatever its outcome, the copy's
    /// reading is ended: its file is closed, and on Apple platforms its feeding thread ends.
    ///
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` before sending when a file is missing
    ///   or unreadable; that error, or whatever `send` throws, afterwards.
    func sendingFreshBody<Response: Sendable>(
        _ send: @escaping @Sendable (URLRequest) async throws -> Response
    ) async throws -> Response {
        guard let body = StreamedBody.of(httpBodyStream) else { return try await send(self) }
        try BodySegment.check(body.segments)
        let (stream, reading) = body.makeStream()
        var fresh = self
        fresh.httpBodyStream = stream
        let request = fresh
        defer { reading.end() }
        return try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask { try await send(request) }
            group.addTask {
                try await reading.failure()
                return nil
            }
            do {
                while let outcome = try await group.next() {
                    if let response = outcome {
                        group.cancelAll()
                        return response
                    }
                }
            } catch {
                group.cancelAll()
                throw reading.failure ?? error
            }
            // The send gives a response or throws, so the loop returns or throws first.
            throw reading.failure ?? CancellationError()
        }
    }
}
