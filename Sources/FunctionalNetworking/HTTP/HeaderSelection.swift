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
        includes(lowercased: name.lowercased())
    }

    /// Whether the header whose lower-cased name is `name` matters.
    private func includes(lowercased name: String) -> Bool {
        switch rule {
        case .allExcept(let ignored): ignored.isEmpty || !ignored.contains(name)
        case .only(let names): names.contains(name)
        }
    }

    /// The headers of `request` that matter, keyed by lower-cased name.
    func fields(of request: URLRequest) -> [String: String] {
        fields(of: request, leavingOut: nil)
    }

    /// The headers of `request` that matter and carry no credential (by `carriers`), keyed by
    /// lower-cased name: each name is lower-cased once.
    func fields(of request: URLRequest, leavingOut carriers: CredentialCarriers?) -> [String: String] {
        guard let all = request.allHTTPHeaderFields, !all.isEmpty else { return [:] }
        if case .only(let names) = rule, names.isEmpty {
            return [:]
        }
        var fields: [String: String] = [:]
        for (name, value) in all {
            let key = name.lowercased()
            guard includes(lowercased: key), carriers?.carriesCredential(lowercased: key) != true else { continue }
            // URLRequest holds one value per name; should two spellings survive, keep both.
            fields[key] = fields[key].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}
