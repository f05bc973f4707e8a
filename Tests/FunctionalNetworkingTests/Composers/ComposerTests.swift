import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Composer {
    static func tracing(_ name: String, into trace: Collected<String>) -> Composer {
        Composer { next in
            { request in
                trace.append("\(name) request")
                let result = try await next(request)
                trace.append("\(name) response")
                return result
            }
        }
    }
}

@Suite("Composer")
struct ComposerTests {
    let request = URLRequest(url: URL(string: "https://shop.test/products")!)

    @Test func composersOfOnePlaceRunInTheOrderListedTheFirstOutermost() async throws {
        let trace = Collected<String>()
        let base = stubTransport { request in
            trace.append("base")
            return (Data(), stubResponse(for: request))
        }
        let transport = compose(base, with: .tracing("a", into: trace), .tracing("b", into: trace), .tracing("c", into: trace))
        _ = try await transport(request)
        #expect(trace.values == ["a request", "b request", "c request", "base", "c response", "b response", "a response"])
    }

    @Test func composeOrdersComposersByPlaceWhateverTheOrderListed() async throws {
        let trace = Collected<String>()
        let base = stubTransport(data: Data())
        let late = Composer(at: .throttling, Composer.tracing("throttling", into: trace).wrapping)
        let early = Composer(at: .numbering, Composer.tracing("numbering", into: trace).wrapping)
        let middle = Composer.tracing("custom", into: trace)
        _ = try await compose(base, with: late, middle, early)(request)
        #expect(trace.values.prefix(3) == ["numbering request", "custom request", "throttling request"])
    }

    @Test func everyBuiltInComposerKnowsItsPlace() {
        let cache = ResponseCache()
        let places: [Composer.Place] = [
            Composer.numbered(), .cancellable(in: CancellationScope()), .logged(to: { _ in }),
            .metrics(to: { _ in }), .validatingStatus(), .retry(), .timeout(after: .seconds(1)),
            .authenticated(by: Authenticator(store: CredentialStore(), allowedOrigins: [])),
            .modifyingRequest { $0 }, .cached(in: cache), .deduplicated(), .throttled(maxConcurrent: 1),
            .delayed(by: .zero),
        ].map(\.place)
        #expect(places == Composer.Place.allCases)
    }

    @Test func stackKeepsTheOrderListed() async throws {
        let trace = Collected<String>()
        let base = stubTransport(data: Data())
        let late = Composer(at: .throttling, Composer.tracing("throttling", into: trace).wrapping)
        let stacked = try Composer.stack([late, .tracing("custom", into: trace)])
        _ = try await stacked.wrapping(base)(request)
        #expect(trace.values == ["throttling request", "custom request", "custom response", "throttling response"])
    }

    @Test func stackRefusesTheCacheAboveAuthenticationInWords() throws {
        let auth = Authenticator(store: CredentialStore(), allowedOrigins: [])
        let error = #expect(throws: Composer.OrderError.self) {
            try Composer.stack([.logged(to: { _ in }), .cached(in: ResponseCache()), .authenticated(by: auth)])
        }
        #expect(error?.upper == .cache && error?.lower == .authentication)
        #expect(error?.description.contains("one user's response to another") == true)
    }

    @Test(arguments: [
        (Composer.Place.logging, Composer.Place.numbering),
        (.deduplication, .authentication),
        (.authentication, .retry),
        (.retry, .statusValidation),
        (.authentication, .statusValidation),
        (.throttling, .retry),
    ])
    func stackRefusesEachKnownBadOrder(upper: Composer.Place, lower: Composer.Place) throws {
        let error = #expect(throws: Composer.OrderError.self) {
            try Composer.stack([.init(at: upper) { $0 }, .init(at: lower) { $0 }])
        }
        #expect(error?.description.hasPrefix("\(upper) is listed above \(lower)") == true)
        #expect(try Composer.stack([.init(at: lower) { $0 }, .init(at: upper) { $0 }]).place == lower)
    }

    @Test func stackAcceptsAnUnusualOrderThatIsNotKnownToMisbehave() throws {
        // Logging below retry (one pair of records per attempt) and a time limit on all attempts.
        _ = try Composer.stack([.timeout(after: .seconds(5)), .retry(), .logged(to: { _ in })])
    }

    @Test func identityChangesNothing() async throws {
        let (data, _) = try await Composer.identity.wrapping(stubTransport(data: Data("x".utf8)))(request)
        #expect(data == Data("x".utf8))
    }

    @Test func modifyingRequestChangesWhatTheNextTransportSees() async throws {
        let echo = stubTransport { request in
            (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
        }
        let transport = compose(
            echo,
            with: .modifyingRequest { request in
                var request = request
                request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
                return request
            })
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }

    @Test func validatingStatusTurnsABadStatusIntoHTTPStatusError() async throws {
        let transport = compose(stubTransport(data: Data("busy".utf8), status: 503), with: .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) { try await transport(request) }
        #expect(error?.status == 503)
        #expect(error?.body == Data("busy".utf8))
    }

    @Test func validatingStatusTakesTheAcceptableRange() async throws {
        let transport = compose(stubTransport(status: 304), with: .validatingStatus(200..<400))
        let (_, response) = try await transport(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 304)
    }

    @Test func aSessionsTransportWithComposersReachesTheServer() async throws {
        let server = try LoopbackServer { request in .text(request.header("X-Api-Key") ?? "none") }
        defer { server.stop() }
        let transport = makeTestSession().transport(
            with: .modifyingRequest { request in
                var request = request
                request.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
                return request
            })
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/")))
        #expect(String(decoding: data, as: UTF8.self) == "k3y")
    }
}
