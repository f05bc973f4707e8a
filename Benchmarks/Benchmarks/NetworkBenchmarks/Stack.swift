// The composer stack of benchmarks 7 and 8, and the in-memory transport of 7.

import Foundation
import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The eight composers a real app would stack, in the order the library documents: context
/// first, then what observes each call, what shares calls, what authenticates and retries them,
/// and, innermost, what limits them and checks their status.
///
/// None of them touches a clock or the network while requests succeed: `retry` sleeps only
/// between failed attempts, `logged` and `metrics` read `ContinuousClock.now` only. The
/// `timeout` and `cached` composers are left out: `timeout` races every request against a
/// sleeping child task (a clock is its whole job), and a cache would answer benchmark 8 without
/// the network.
enum Stack {
    /// One stack's worth of composers, each made afresh (the counters, the recorder, the
    /// deduplicator and the throttle belong to the stack).
    ///
    /// - Parameter origin: The one origin the bearer credential is sent to.
    static func composers(authenticating origin: Origin) -> [Composer] {
        [
            numbered(),
            logged(),
            metrics(),
            deduplicated(),
            authenticated(origin),
            retry(),
            throttled(),
            validatingStatus(),
        ]
    }

    /// Each composer alone, by the name its benchmark `7-composer-<name>` carries.
    static func single(authenticating origin: Origin) -> [(name: String, composer: Composer)] {
        [
            ("numbered", numbered()),
            ("logged", logged()),
            ("metrics", metrics()),
            ("deduplicated", deduplicated()),
            ("authenticated", authenticated(origin)),
            ("retry", retry()),
            ("throttled", throttled()),
            ("validatingStatus", validatingStatus()),
        ]
    }

    /// The limit of the throttle, and of the session's connections per host in benchmark 8.
    static let maxConcurrent = 8

    /// An id and a sequence number for every request.
    static func numbered() -> Composer {
        .numbered()
    }

    /// A production log: errors only, into a sink that drops them (successful requests write
    /// nothing).
    static func logged() -> Composer {
        .logged(to: { _ in }, level: .error)
    }

    /// Every request's duration, status and bytes into a running summary.
    static func metrics() -> Composer {
        .metrics(into: MetricsRecorder())
    }

    /// Concurrent identical GETs share one call.
    static func deduplicated() -> Composer {
        .deduplicated()
    }

    /// A static bearer credential, sent only to `origin`, with no refresh.
    static func authenticated(_ origin: Origin) -> Composer {
        let authenticator = Authenticator(store: CredentialStore(.bearer("benchmark-token")), allowedOrigins: [origin])
        return .authenticated(by: authenticator)
    }

    /// The default policy: 3 attempts of idempotent requests, with backoff.
    static func retry() -> Composer {
        .retry()
    }

    /// At most ``maxConcurrent`` requests in flight.
    static func throttled() -> Composer {
        .throttled(maxConcurrent: maxConcurrent)
    }

    /// Non-2xx responses become errors (below retry, so that retry sees them).
    static func validatingStatus() -> Composer {
        .validatingStatus()
    }
}

/// What benchmark 7 sends: a GET to a made-up API, built once.
enum InMemory {
    /// The origin of ``request``, which the bearer credential is sent to.
    static let origin = Origin(scheme: "https", host: "api.shop.example", port: 443)

    /// The request every operation sends.
    static let request: URLRequest = {
        var components = URLComponents()
        components.scheme = "https"
        components.host = "api.shop.example"
        components.path = "/products/7"
        guard let url = components.url else {
            preconditionFailure("The benchmark's URL is malformed.")
        }
        return URLRequest(url: url)
    }()

    /// A transport without I/O: it returns the same body and the same 200 response to every
    /// request, both made once.
    static func transport() -> Transport {
        let body = Data(#"{"id":7,"name":"iPad Pro","price":1099.0}"#.utf8)
        guard
            let url = request.url,
            let response = HTTPURLResponse(
                url: url,
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json", "Content-Length": "\(body.count)"]
            )
        else {
            preconditionFailure("Cannot make the in-memory transport's response.")
        }
        return { _ in (body, response) }
    }
}
