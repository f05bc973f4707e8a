import Foundation
import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects the value of each line of a doc-comment sample that shows values as bare
/// expressions (`headers["accept"]   // "application/json"`), in order, so that a test can check
/// the value each line's comment gives, and the compiler has no unused value to warn about.
/// Lines that give nothing (assignments, mutating calls) add nothing.
@resultBuilder
enum SampleLines {
    static func buildExpression<Value>(_ value: Value) -> [Any] { Value.self == Void.self ? [] : [value] }
    static func buildExpression(_ composer: Composer) -> [Any] { [composer] }
    static func buildBlock(_ lines: [Any]...) -> [Any] { lines.flatMap { $0 } }
}

/// The values of the lines of `sample`; see ``SampleLines``.
func sampleLines(@SampleLines _ sample: () throws -> [Any]) rethrows -> [Any] {
    try sample()
}

/// The values of the lines of `sample`, which may wait; see ``SampleLines``.
func awaitedSampleLines(@SampleLines _ sample: () async throws -> [Any]) async rethrows -> [Any] {
    try await sample()
}

/// A transport that answers every request with `status` and `body` after `delay`, and records
/// the requests it was handed.
func recordingTransport(
    status: Int = 200,
    body: String = "{}",
    headers: [String: String] = [:],
    delay: Duration = .zero,
    into requests: Collected<URLRequest> = Collected()
) -> Transport {
    { request in
        requests.append(request)
        if delay > .zero { try await Task.sleep(for: delay) }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return (Data(body.utf8), response)
    }
}
