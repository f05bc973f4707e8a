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
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` when a file part is missing or is not
    ///   a readable regular file; the request is left unchanged.
    public mutating func setBody(_ form: MultipartFormData) throws(BodyError) {
        let segments = form.segments()
        try BodySegment.check(segments)
        httpBody = nil
        httpBodyStream = ReplayableBodyStream(segments: segments, form: form)
        setValue(form.contentType, forHTTPHeaderField: "Content-Type")
    }

    /// Sets the contents of the file at `url` as the body, streamed from disk (never held in
    /// memory) and read again from the start when a retry or a 307/308 redirect sends the
    /// request again; sets `Content-Type`.
    ///
    /// - Throws: ``BodyError/unreadableFile(_:reason:)`` when the file is missing or is not a
    ///   readable regular file; the request is left unchanged.
    public mutating func setBody(contentsOf url: URL, contentType: String = "application/octet-stream") throws(BodyError) {
        let segments: [BodySegment] = [.file(url)]
        try BodySegment.check(segments)
        httpBody = nil
        httpBodyStream = ReplayableBodyStream(segments: segments)
        setValue(contentType, forHTTPHeaderField: "Content-Type")
    }

    /// Sets `form` as the body, with its `Content-Type`.
    public mutating func setBody(_ form: FormBody) {
        httpBodyStream = nil
        httpBody = form.encoded
        setValue(FormBody.contentType, forHTTPHeaderField: "Content-Type")
    }

    /// This request with a fresh copy of its body stream when the stream is one the package
    /// can read again from the start (see `setBody(_:)` for a ``MultipartFormData``), its files
    /// checked again; as it is otherwise.
    func withFreshBodyStream() throws(BodyError) -> URLRequest {
        guard let stream = httpBodyStream as? ReplayableBodyStream else { return self }
        try BodySegment.check(stream.segments)
        var request = self
        request.httpBodyStream = stream.fresh()
        return request
    }
}
