import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Wraps one ``Transport`` into another: the unit a network stack is built from.
///
/// A composer receives the transport below it and returns a transport of the same shape, so
/// whatever you compose, in the end you hold the same function,
/// `(URLRequest) async throws -> (Data, URLResponse)`. The built-in composers are static
/// factories (``retry(_:clock:)``, ``authenticated(by:)``, ``validatingStatus(_:)``…); your
/// own is one closure:
///
/// ```swift
/// extension Composer {
///     /// Adds an API key to every request.
///     static func apiKey(_ key: String) -> Composer {
///         Composer { next in
///             { request in
///                 var request = request
///                 request.setValue(key, forHTTPHeaderField: "X-Api-Key")
///                 return try await next(request)
///             }
///         }
///     }
/// }
/// ```
///
/// ## The order of a stack
///
/// Name the parts you want; the stack puts them in order. Every composer carries its
/// ``Place``, and ``NetworkSession/transport(with:)-(Composer...)``, the one way to build a
/// stack, sorts the composers by place (a stable sort: two of the same place keep the order you
/// listed them in), so the order you list them in does not matter:
///
/// ```swift
/// let transport = NetworkSession.shared.transport(with:
///     .retry(),
///     .validatingStatus(),
///     .authenticated(by: auth),
///     .logged(to: log)
/// )
/// // Runs as: logged → validatingStatus → retry → authenticated → URLSession.
/// ```
///
/// Composers that know their place, rather than a configuration with a named field per part,
/// keep the functional form: a stack is still a list of functions from transport to
/// transport, your own composer is still one closure, and adding a part to the package adds
/// a factory, not a field.
///
/// The order, outermost (sees the request first and the response last) to innermost, and the
/// reason for each position:
///
/// 1. ``Place/numbering`` — ``numbered()`` sets the request's id and number for the duration
///    of the call below it, so everything that reads them (cancellation, logging, metrics)
///    sits below it.
/// 2. ``Place/cancellation`` — ``cancellable(in:)`` reads that id; above the rest, so that
///    cancelling a call stops its retries, back-off waits and refresh waits too.
/// 3. ``Place/logging`` — ``logged(to:level:redaction:clock:)`` writes one pair of records per
///    call, as the caller sent it and as the caller receives it (errors included).
/// 4. ``Place/metrics`` — ``metrics(to:redaction:clock:)`` measures, like logging, what the caller sees.
/// 5. ``Place/statusValidation`` — ``validatingStatus(_:)`` is the one place where a status
///    becomes an ``HTTPStatusError``. Everything below it sees statuses as responses: retry
///    decides on a 503 by its status, authentication sees a 401 as a response, the cache keeps
///    only what it may. Everything above it, and the caller, sees the same error whatever
///    happened below.
/// 6. ``Place/retry`` — ``retry(_:clock:)`` sits above authentication, so that each attempt
///    reads the credential again (a refreshed token is used at once); above the time limit,
///    so that the limit applies to each attempt; above the cache and de-duplication, so that
///    an attempt may be answered from the cache or join a call in flight; above throttling,
///    so that a back-off wait holds no slot.
/// 7. ``Place/timeout`` — ``timeout(after:clock:)`` limits each attempt, and sits above
///    authentication so that it bounds the wait for a credential refresh as well, and above
///    throttling so that time spent waiting for a slot counts.
/// 8. ``Place/authentication`` — ``authenticated(by:)`` adds the credential before the cache
///    and de-duplication look at the request, so they tell users apart and never serve one
///    user's response to another.
/// 9. ``Place/custom`` — your own composers, and ``modifyingRequest(_:)``, unless you give
///    them another place: below authentication, so that a composer that signs the request sees
///    its credential; above the cache and de-duplication, so that the headers they add
///    (an API key, say) tell requests apart there.
/// 10. ``Place/cache`` — ``cached(in:)`` answers a repeated `GET` before any work below it is
///     done; concurrent misses for one request share one call, and its answer is stored
///     before any later request can miss.
/// 11. ``Place/deduplication`` — ``deduplicated(matching:includingUnsafeMethods:)`` merges
///     concurrent identical requests below the cache, keyed per credential, so they take one
///     throttle slot.
/// 12. ``Place/throttling`` — ``throttled(maxConcurrent:perHost:)`` counts only the calls that
///     really go upstream.
/// 13. ``Place/delay`` — ``delayed(by:clock:)`` stands for a slow network, right above the
///     session, holding its throttle slot as a slow request would.
///
/// ## One order, always
///
/// The package always orders a stack: no list can put the cache or de-duplication above
/// authentication or above a composer that adds a credential (``modifyingRequest(_:)`` and your
/// own composers are ``Place/custom``, above both), nor a time limit below authentication. To
/// run a composer somewhere else — logging each attempt, say — give it another place; it then
/// goes where that place says:
///
/// ```swift
/// let perAttempt = Composer(at: .custom, Composer.logged(to: log).wrapping)
/// ```
///
/// A place at or below ``Place/cache`` is for composers that do not change who a request speaks
/// for: the cache and de-duplication tell users apart by the credentials they see.
public struct Composer: Sendable {
    private let wrap: @Sendable (@escaping Transport) -> Transport

    /// The same composer over a transport that gives futures (``DirectTransport``), for a
    /// composer that needs no task of its own: stacked over the package's session with others
    /// that have one, a request runs with no task at all.
    let direct: (@Sendable (@escaping DirectTransport) -> DirectTransport)?

    /// Where this composer goes in a stack; see ``Place``.
    public let place: Place

    /// Creates a composer from the function that wraps the next transport.
    ///
    /// - Parameters:
    ///   - place: Where it goes in a stack; ``Place/custom`` by default (below authentication,
    ///     above the cache).
    ///   - wrap: Given the transport below this composer (`next`), returns the transport that
    ///     callers above it use.
    public init(
        at place: Place = .custom,
        _ wrap: @escaping @Sendable (_ next: @escaping Transport) -> Transport
    ) {
        self.place = place
        self.wrap = wrap
        direct = nil
    }

    /// A composer with both shapes: `wrap` for a stack of transports that are awaited, `direct`
    /// for a stack of transports that give futures; the two must behave alike.
    init(
        at place: Place,
        _ wrap: @escaping @Sendable (_ next: @escaping Transport) -> Transport,
        direct: @escaping @Sendable (_ next: @escaping DirectTransport) -> DirectTransport
    ) {
        self.place = place
        self.wrap = wrap
        self.direct = direct
    }

    /// Wraps `transport`, returning the composed transport.
    public func wrapping(_ transport: @escaping Transport) -> Transport {
        wrap(transport)
    }

    /// A composer that changes nothing.
    public static var identity: Composer {
        Composer { $0 }
    }

    /// `composers` sorted by place, two of one place in the order listed: outermost first.
    static func ordered(_ composers: [Composer]) -> [Composer] {
        composers.enumerated()
            .sorted { ($0.element.place, $0.offset) < ($1.element.place, $1.offset) }
            .map(\.element)
    }

    /// `composers`, in their order, over `base` and, when there is one, its direct form: the
    /// transport callers await, and the direct transport when every composer has a direct form.
    ///
    /// From the bottom up, composers with a direct form are stacked on the direct transport
    /// while it lasts; the first without one (and every one above it) wraps the awaited form.
    static func stack(
        _ composers: [Composer], over base: @escaping Transport, direct: DirectTransport?
    ) -> (transport: Transport, direct: DirectTransport?) {
        // A plain loop: a generic `reduce` stores the transports through re-abstraction thunks,
        // which every request then runs through (two allocations per request for eight
        // composers, measured by the benchmark package).
        var transport = base
        var directTransport = direct
        for composer in ordered(composers).reversed() {
            if let below = directTransport, let wrap = composer.direct {
                directTransport = wrap(below)
                continue
            }
            if let below = directTransport {
                transport = TransportBridge.awaiting(below)
                directTransport = nil
            }
            transport = composer.wrapping(transport)
        }
        if let directTransport {
            transport = TransportBridge.awaiting(directTransport)
        }
        return (transport, directTransport)
    }
}
