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
        let transport = NetworkSession(sending: base).transport(
            with: .tracing("a", into: trace), .tracing("b", into: trace), .tracing("c", into: trace))
        _ = try await transport(request)
        #expect(trace.values == ["a request", "b request", "c request", "base", "c response", "b response", "a response"])
    }

    @Test func composeOrdersComposersByPlaceWhateverTheOrderListed() async throws {
        let trace = Collected<String>()
        let base = stubTransport(data: Data())
        let late = Composer(at: .throttling, Composer.tracing("throttling", into: trace).wrapping)
        let early = Composer(at: .numbering, Composer.tracing("numbering", into: trace).wrapping)
        let middle = Composer.tracing("custom", into: trace)
        _ = try await NetworkSession(sending: base).transport(with: late, middle, early)(request)
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

    @Test(arguments: [
        (Composer.Place.logging, Composer.Place.numbering),
        (.cache, .authentication),
        (.deduplication, .authentication),
        (.authentication, .retry),
        (.authentication, .timeout),
        (.retry, .statusValidation),
        (.authentication, .statusValidation),
        (.throttling, .retry),
        (.cache, .custom),
    ])
    func aListInAnOrderKnownToMisbehaveRunsInThePlacesOrder(listedFirst: Composer.Place, outer: Composer.Place) async throws {
        let trace = Collected<String>()
        let first = Composer(at: listedFirst, Composer.tracing("\(listedFirst)", into: trace).wrapping)
        let second = Composer(at: outer, Composer.tracing("\(outer)", into: trace).wrapping)
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: first, second)
        _ = try await transport(request)
        #expect(trace.values == ["\(outer) request", "\(listedFirst) request", "\(listedFirst) response", "\(outer) response"])
    }

    @Test func twoComposersOfOnePlaceKeepTheOrderListed() async throws {
        let trace = Collected<String>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(
            with: .tracing("first", into: trace), .tracing("second", into: trace))
        _ = try await transport(request)
        #expect(trace.values == ["first request", "second request", "second response", "first response"])
    }

    @Test func identityChangesNothing() async throws {
        let (data, _) = try await Composer.identity.wrapping(stubTransport(data: Data("x".utf8)))(request)
        #expect(data == Data("x".utf8))
    }

    @Test func modifyingRequestChangesWhatTheNextTransportSees() async throws {
        let echo = stubTransport { request in
            (Data((request.value(forHTTPHeaderField: "Authorization") ?? "none").utf8), stubResponse(for: request))
        }
        let transport = NetworkSession(sending: echo).transport(
            with: .modifyingRequest { request in
                var request = request
                request.setValue("Bearer abc", forHTTPHeaderField: "Authorization")
                return request
            })
        #expect(try await transport(request).0 == Data("Bearer abc".utf8))
    }

    @Test func validatingStatusTurnsABadStatusIntoHTTPStatusError() async throws {
        let transport = NetworkSession(sending: stubTransport(data: Data("busy".utf8), status: 503)).transport(with: .validatingStatus())
        let error = await #expect(throws: HTTPStatusError.self) { try await transport(request) }
        #expect(error?.status == 503)
        #expect(error?.body == Data("busy".utf8))
    }

    @Test func validatingStatusTakesTheAcceptableRange() async throws {
        let transport = NetworkSession(sending: stubTransport(status: 304)).transport(with: .validatingStatus(200..<400))
        let (_, response) = try await transport(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 304)
    }

    @Test func aSessionsTransportWithComposersReachesTheServer() async throws {
        let server = try LoopbackServer { request in .text(request.header("X-Api-Key") ?? "none") }
        defer { server.stop() }
        let transport = makeTestNetworkSession().transport(
            with: .modifyingRequest { request in
                var request = request
                request.setValue("k3y", forHTTPHeaderField: "X-Api-Key")
                return request
            })
        let (data, _) = try await transport(URLRequest(url: server.url(for: "/")))
        #expect(String(decoding: data, as: UTF8.self) == "k3y")
    }
}
