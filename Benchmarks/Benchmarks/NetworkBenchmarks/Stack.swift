// The composer stack of benchmarks 7 and 8, and the in-memory transport of 7.

import Foundation
import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ten composers a real app would stack (listed here in the order the library documents;
/// `compose(_:with:)` sorts them by place anyway): context first, then what observes each call,
/// checks its status, retries it, bounds it in time and authenticates it, then what answers or
/// shares it, and, innermost, what limits the calls in flight.
///
/// Every request takes each composer's common path: a fresh credential (no refresh), one
/// attempt, an answer well within the time limit, a cache miss (the in-memory transport's
/// response says nothing about its freshness, so nothing is kept, and benchmark 8 sends every
/// request to its own URL), nothing to share, a free slot, a log level that drops every record.
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
            validatingStatus(),
            retry(),
            timeout(),
            authenticated(origin),
            cached(),
            deduplicated(),
            throttled(),
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
            ("timeout", timeout()),
            ("cached", cached()),
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

    /// Non-2xx responses become errors (above retry, which sees statuses as responses).
    static func validatingStatus() -> Composer {
        .validatingStatus()
    }

    /// Each attempt within 30 s (far beyond any request here: the deadline never passes).
    static func timeout() -> Composer {
        .timeout(after: .seconds(30))
    }

    /// A response cache with the defaults: `GET` responses that say how long they are fresh.
    /// The responses here say nothing about it, so every request is a miss that goes below.
    static func cached() -> Composer {
        .cached(in: ResponseCache())
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
