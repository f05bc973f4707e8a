import Foundation

/// A redirect to another origin that dropped the request's credentials, as every redirect that
/// leaves the origin does (see ``Redirect``): an ``HTTPStatusError`` with status 401 or 403
/// from that origin carries it in ``HTTPStatusError/credentialsDroppedByRedirect`` and says so,
/// since the credentials were not missing from the request you made but removed on the way.
///
/// ```swift
/// do {
///     _ = try await send(account).value
/// } catch let error as HTTPStatusError where error.credentialsDroppedByRedirect != nil {
///     // The server redirected the request elsewhere; send it to the final URL instead.
///     movedTo = error.url
/// }
/// ```
public struct CredentialsDroppedByRedirect: Sendable, Hashable, CustomStringConvertible {
    /// The origin the request was sent to, `scheme://host[:port]`, redacted.
    public let from: String
    /// The origin the redirect led to, `scheme://host[:port]`, redacted.
    public let to: String
    /// The names of the headers that were dropped, as the request wrote them, such as
    /// `["Authorization"]`; never their values.
    public let headerNames: [String]

    /// Creates the record of a redirect from origin `from` to origin `to` that dropped
    /// `headerNames`.
    public init(from: String, to: String, headerNames: [String]) {
        self.from = from
        self.to = to
        self.headerNames = headerNames
    }

    /// A sentence saying what was dropped, where, and how to let that origin have them.
    public var description: String {
        let names = headerNames.count == 1 ? "its \(Self.list(headerNames)) header was" : "its \(Self.list(headerNames)) headers were"
        return "The request was redirected from \(from) to \(to), another origin, so \(names) not sent there "
            + "(credentials never follow a redirect to another origin). If \(to) should receive them, send the request "
            + "to it directly, or add them to Redirect.proposedRequest in a RedirectPolicy of your own."
    }

    /// `A, B and C`.
    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }
}
