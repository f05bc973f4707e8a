import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `form` as the body, streamed: files are read from disk as the body is sent, and read
    /// again from the start when a retry or a 307/308 redirect sends the request again. Sets
    /// `Content-Type` (with the boundary). A streamed body goes with chunked transfer coding;
    /// for a server that requires `Content-Length`, set ``MultipartFormData/encoded()`` as
    /// `httpBody` instead (which reads the files into memory).
    ///
    /// Sent through the package's transports, a file part that can no longer be read once the
    /// body is on its way fails the request with ``BodyError/unreadableFile(_:reason:)`` too.
    ///
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` when a file part is missing or is not
    ///   a readable regular file; the request is left unchanged.
    public mutating func setBody(_ form: MultipartFormData) throws(BodyError) {
        let body = StreamedBody.multipart(form)
        try BodySegment.check(body.segments)
        httpBody = nil
        httpBodyStream = body.makeStream().stream
        setValue(form.contentType, forHTTPHeaderField: "Content-Type")
    }

    /// Sets the contents of the file at `url` as the body, streamed from disk (never held in
    /// memory) and read again from the start when a retry or a 307/308 redirect sends the
    /// request again; sets `Content-Type`. Sent through the package's transports, a file that
    /// can no longer be read once the body is on its way fails the request with
    /// ``BodyError/unreadableFile(_:reason:)`` too.
    ///
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` when the file is missing or is not a
    ///   readable regular file; the request is left unchanged.
    public mutating func setBody(contentsOf url: URL, contentType: String = "application/octet-stream") throws(BodyError) {
        let body = StreamedBody.file(url)
        try BodySegment.check(body.segments)
        httpBody = nil
        httpBodyStream = body.makeStream().stream
        setValue(contentType, forHTTPHeaderField: "Content-Type")
    }

    /// Sets `form` as the body, with its `Content-Type`.
    public mutating func setBody(_ form: FormBody) {
        httpBodyStream = nil
        httpBody = form.encoded
        setValue(FormBody.contentType, forHTTPHeaderField: "Content-Type")
    }

    /// This request with a fresh copy of its body stream when the stream is one the package
    /// made (see `setBody(_:)` for a ``MultipartFormData``), its files checked again; as it is
    /// otherwise. ``sendingFreshBody(_:)`` does this for a send and also ends the copy after it.
    func withFreshBodyStream() throws(BodyError) -> URLRequest {
        guard let body = StreamedBody.of(httpBodyStream) else { return self }
        try BodySegment.check(body.segments)
        var request = self
        request.httpBodyStream = body.makeStream().stream
        return request
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
