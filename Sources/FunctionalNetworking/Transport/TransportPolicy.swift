import Foundation

/// What the transport under every stack allows: which redirects it follows, how large a body it
/// keeps in memory, and which headers it treats as credentials.
///
/// ```swift
/// let secrets = Redaction.default.redactingHeaders("X-Shop-Session")
/// let policy = TransportPolicy(
///     redirects: .follow(maximumHops: 5),
///     maximumResponseSize: 8 * 1_048_576,   // 8 MiB
///     redaction: secrets
/// )
/// let session = NetworkSession(configuration: URLSession.shared.configuration, policy: policy)
/// let transport = session.transport(with: .retry())
/// ```
///
/// The defaults: follow up to 20 redirects, never from HTTPS to HTTP, and never with the
/// request's body to another origin; keep at most 64 MiB of decoded body (see
/// ``defaultMaximumResponseSize``).
public struct TransportPolicy: Sendable {
    /// 64 MiB: far above what an ordinary API sends (a JSON page of results is kilobytes, a
    /// large export a few megabytes), and low enough that an endless or decompressed-to-gigabytes
    /// body fails in well under a second on a fast link, long before it strains a phone's memory.
    public static let defaultMaximumResponseSize = 64 * 1_048_576

    /// 8 GiB, the size limit of ``download(_:to:through:maximumSize:)`` unless you pass another:
    /// above any ordinary file an app downloads (a feature film in HD, a dual-layer DVD image,
    /// an operating system's installer), and low enough that a server sending an endless body
    /// is stopped after seconds on a fast link instead of filling the disk.
    public static let defaultMaximumDownloadSize = 8 * 1_073_741_824

    /// How redirects are answered;
    /// ``RedirectPolicy/follow(maximumHops:allowingInsecureRedirects:allowingCrossOriginBodies:)``
    /// unless you say.
    public var redirects: RedirectPolicy
    /// The most bytes of a response body, after content decoding, that a request keeps in
    /// memory; past it the transfer is cancelled and fails with
    /// ``TransportError/responseTooLarge(limit:url:)``. ``Endpoint/maximumResponseSize``
    /// overrides it for one endpoint.
    public var maximumResponseSize: Int
    /// Which headers carry credentials: those of ``Redaction/defaultHeaderNames`` and those the
    /// redaction names, removed when a redirect leaves the request's origin; matched without
    /// regard to case. Name a header of your own with ``Redaction/redactingHeaders(_:)``, and
    /// pass the same redaction to the cache, the deduplicator and the logs.
    public var redaction: Redaction

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - redirects: How redirects are answered.
    ///   - maximumResponseSize: The most decoded body bytes a request keeps; at least 0.
    ///   - redaction: Which headers carry credentials, beyond ``Redaction/defaultHeaderNames``,
    ///     which always do.
    public init(
        redirects: RedirectPolicy = .follow(),
        maximumResponseSize: Int = TransportPolicy.defaultMaximumResponseSize,
        redaction: Redaction = .default
    ) {
        self.redirects = redirects
        self.maximumResponseSize = max(0, maximumResponseSize)
        self.redaction = redaction
    }

    /// Follow up to 20 redirects (never HTTPS to HTTP, never a body to another origin), keep up
    /// to 64 MiB of body.
    public static let `default` = TransportPolicy()
}
