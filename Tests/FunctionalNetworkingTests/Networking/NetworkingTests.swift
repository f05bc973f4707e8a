import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("networking(from:)")
struct NetworkingTests {
    let endpoint = Endpoint(baseURL: URL(string: "https://shop.test")!, path: "/products/7")

    @Test func theStacksValidatingStatusDecidesWhichStatusesGiveTheirBody() async throws {
        let moved = stubTransport(data: Data("cached copy".utf8), status: 304)
        let send = networking(from: NetworkSession(sending: moved).transport(with: .validatingStatus(200..<400)))
        #expect(try await send(endpoint).value(within: .seconds(30)) == Data("cached copy".utf8))
    }

    @Test func withoutValidatingStatusInTheStackAnyStatusOutside2xxIsRejected() async throws {
        let send = networking(from: stubTransport(data: Data("moved".utf8), status: 304))
        let result = await send(endpoint).result(within: .seconds(30))
        #expect((result.failure as? HTTPStatusError)?.status == 304)
    }

    @Test func aStatusTheStackRefusesIsRejectedOnceWithTheStacksError() async throws {
        let send = networking(
            from: NetworkSession(sending: stubTransport(data: Data("busy".utf8), status: 503)).transport(with: .validatingStatus()))
        let result = await send(endpoint).result(within: .seconds(30))
        #expect((result.failure as? HTTPStatusError)?.body == Data("busy".utf8))
    }

    @Test func theSameFailureReachesTheCallerAsTheSameTypeWithOrWithoutRetry() async throws {
        let busy = stubTransport(data: Data("busy".utf8), status: 503)
        let plain = networking(from: NetworkSession(sending: busy).transport(with: .validatingStatus()))
        let retried = networking(
            from: NetworkSession(sending: busy).transport(
                with: .validatingStatus(), .retry(RetryPolicy(backoff: .immediate), clock: TestClock())))
        let listedTheOtherWay = networking(
            from: NetworkSession(sending: busy).transport(
                with: .retry(RetryPolicy(backoff: .immediate), clock: TestClock()), .validatingStatus()))
        for send in [plain, retried, listedTheOtherWay] {
            let result = await send(endpoint).result(within: .seconds(30))
            #expect((result.failure as? HTTPStatusError)?.status == 503)
        }
        let refused: Transport = { _ in throw URLError(.cannotConnectToHost) }
        for composers: [Composer] in [[], [.retry(RetryPolicy(backoff: .immediate), clock: TestClock())]] {
            let result = await networking(from: NetworkSession(sending: refused).transport(with: composers))(endpoint).result(
                within: .seconds(30))
            #expect((result.failure as? URLError)?.code == .cannotConnectToHost)
        }
    }

    @Test func authenticationRefreshesOnA401WhereverValidationIsListed() async throws {
        let refreshes = Counter()
        let server: Transport = { request in
            let status = request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh" ? 200 : 401
            return (Data("\(status)".utf8), stubResponse(for: request, status: status))
        }
        let auth = Authenticator(
            store: CredentialStore(.bearer("stale")),
            allowedOrigins: [Origin(url: URL(string: "https://shop.test")!)!],
            refresh: { _ in
                refreshes.increment()
                return .bearer("fresh")
            }
        )
        for composers: [Composer] in [[.authenticated(by: auth), .validatingStatus()], [.validatingStatus(), .authenticated(by: auth)]] {
            await auth.store.store(.bearer("stale"))
            let data = try await networking(from: NetworkSession(sending: server).transport(with: composers))(endpoint).value(
                within: .seconds(30))
            #expect(data == Data("200".utf8))
        }
        #expect(refreshes.value == 2)
    }
}
