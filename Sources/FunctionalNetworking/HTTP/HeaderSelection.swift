import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which request headers make two otherwise equal requests different, for
/// ``Composer/deduplicated(matching:includingUnsafeMethods:)`` and ``ResponseCache``.
///
/// Header names compare ignoring case.
///
/// ```swift
/// .deduplicated(matching: .all(except: ["X-Request-ID"]))      // a per-call ID does not matter
/// ResponseCache(varyingOn: .only(["Accept", "Authorization"]))  // only these matter
/// ```
public struct HeaderSelection: Sendable, Hashable {
    private enum Rule: Sendable, Hashable {
        case allExcept(Set<String>)
        case only(Set<String>)
    }

    private let rule: Rule

    private init(_ rule: Rule) {
        self.rule = rule
    }

    /// Every header matters: requests whose headers differ in any way are different.
    public static let all = HeaderSelection(.allExcept([]))

    /// Every header matters except those named, such as a per-call `X-Request-ID` or a
    /// tracing header.
    ///
    /// ```swift
    /// .deduplicated(matching: .all(except: ["X-Request-ID", "traceparent"]))
    /// ```
    ///
    /// - Parameter names: The headers to ignore, in any case.
    /// - Returns: The selection.
    public static func all(except names: Set<String>) -> HeaderSelection {
        HeaderSelection(.allExcept(Set(names.map { $0.lowercased() })))
    }

    /// Only the headers named matter; all others are ignored.
    ///
    /// ```swift
    /// ResponseCache(varyingOn: .only(["Accept", "Authorization"]))
    /// ```
    ///
    /// - Parameter names: The headers that matter, in any case; empty means none do.
    /// - Returns: The selection.
    public static func only(_ names: Set<String>) -> HeaderSelection {
        HeaderSelection(.only(Set(names.map { $0.lowercased() })))
    }

    /// Whether the header called `name` matters.
    ///
    /// - Parameter name: A header name, in any case.
    /// - Returns: `true` when the selection includes it.
    func includes(_ name: String) -> Bool {
        switch rule {
        case .allExcept(let ignored): !ignored.contains(name.lowercased())
        case .only(let names): names.contains(name.lowercased())
        }
    }

    /// The headers of `request` that matter, keyed by lower-cased name.
    func fields(of request: URLRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] where includes(name) {
            let key = name.lowercased()
            // URLRequest holds one value per name; should two spellings survive, keep both.
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}
