import Foundation

extension Endpoint {
    /// Which part of an endpoint keeps it from making a valid absolute URL, with the URL it
    /// would have made, redacted: what ``Error/invalidURL(_:)`` carries, for people to read.
    ///
    /// ```
    /// the port 70000 is outside 0...65535, in https://shop.example:70000/items
    /// ```
    public struct URLProblem: Sendable, Hashable, CustomStringConvertible {
        /// The part of a URL that is wrong.
        public enum Part: String, Sendable, Hashable {
            /// The scheme, such as `https`: empty, or not a letter followed by letters, digits,
            /// `+`, `-` or `.`.
            case scheme
            /// The host: empty, or not a host name or IP address (a space, a `/`, a `@`…).
            case host
            /// The port: outside `0...65535`.
            case port
            /// The path: the base URL and the path do not join into a URL.
            case path
        }

        /// The part that is wrong.
        public let part: Part
        /// What is wrong with it, in words, such as `the port 70000 is outside 0...65535`.
        public let reason: String
        /// The URL the endpoint would have made, without user, password or query values.
        public let redactedURL: String

        /// The reason and the redacted URL, in a sentence's words.
        public var description: String {
            "\(reason), in \(redactedURL)"
        }
    }

    /// Why ``url`` is `nil`; `nil` when it is not.
    ///
    /// ```swift
    /// if let problem = endpoint.urlProblem { log("\(problem.part): \(problem)") }
    /// ```
    public var urlProblem: URLProblem? {
        guard url == nil else { return nil }
        switch destination {
        case .server(let scheme, let host, let port):
            let written = ErrorWords.scrubbingURLs(in: "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(pathText)")
            if !URLSyntax.isValidScheme(scheme) {
                return URLProblem(part: .scheme, reason: "the scheme \(scheme.debugDescription) is not a URL scheme", redactedURL: written)
            }
            if URLSyntax.authorityHost(host) == nil {
                let reason =
                    host.isEmpty
                    ? "the host is empty"
                    : host.contains("@")
                        ? "the host holds a user name or password (before an @), which is not part of a host"
                        : "the host \(host.debugDescription) is not a host name or IP address"
                return URLProblem(part: .host, reason: reason, redactedURL: written)
            }
            if let port, !URLSyntax.validPorts.contains(port) {
                return URLProblem(part: .port, reason: "the port \(port) is outside 0...65535", redactedURL: written)
            }
            return URLProblem(part: .path, reason: "the path does not join the server into a URL", redactedURL: written)
        case .baseURL(let base):
            let written = Redaction.default.redact(base) + pathText
            return Self.problem(ofBase: base, written: written)
        }
    }

    /// The path as the URL would carry it, for messages.
    private var pathText: String {
        pathComponents.isEmpty ? "" : "/" + pathComponents.joined(separator: "/")
    }

    /// What is wrong with a base URL.
    private static func problem(ofBase base: URL, written: String) -> URLProblem {
        guard let scheme = base.scheme, URLSyntax.isValidScheme(scheme) else {
            return URLProblem(part: .scheme, reason: "the base URL has no scheme (such as https://)", redactedURL: written)
        }
        guard let host = base.host, !host.isEmpty else {
            return URLProblem(part: .host, reason: "the base URL has no host", redactedURL: written)
        }
        guard URLSyntax.authorityHost(host) != nil else {
            return URLProblem(
                part: .host, reason: "the host \(host.debugDescription) is not a host name or IP address", redactedURL: written)
        }
        if let port = base.port, !URLSyntax.validPorts.contains(port) {
            return URLProblem(part: .port, reason: "the port \(port) is outside 0...65535", redactedURL: written)
        }
        if !base.absoluteString.contains("://") {
            return URLProblem(part: .host, reason: "the base URL has no host after its scheme", redactedURL: written)
        }
        return URLProblem(part: .path, reason: "the base URL and the path do not join into a URL", redactedURL: written)
    }
}
