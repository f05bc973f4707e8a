import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Logging")
struct LoggingTests {

    private struct LeakyError: Error, CustomStringConvertible {
        let description: String
    }

    private let request = URLRequest(url: URL(string: "https://shop.test/products")!)
    private let basicCredentials = Data("ann:pa55-s3cr3t".utf8).base64EncodedString()
    private let proxyCredentials = Data("proxy:pr0xy-s3cr3t".utf8).base64EncodedString()

    /// Every field of `record`, as text: what must not contain a secret.
    private func everything(in record: LogRecord) -> String {
        var text = record.message + "\n"
        dump(record, to: &text)
        return text
    }

    private func sending(_ url: URL, authorization: String) -> URLRequest {
        var request = URLRequest(url: url)
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        request.setValue("theme=dark; session=c00kie-s3cr3t", forHTTPHeaderField: "Cookie")
        request.setValue("Basic \(proxyCredentials)", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("k3y-s3cr3t", forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    @Test func noSecretAppearsInAnyLineOrField() async throws {
        let server = try LoopbackServer { _ in
            .text("hello").addingHeader("Set-Cookie", "session=sess-s3cr3t; Path=/; HttpOnly")
        }
        defer { server.stop() }
        let refused = try RefusingPort()  // not a stopped server: its port may go to another test's
        defer { withExtendedLifetime(refused) {} }
        let refusedURL = URL(string: "http://127.0.0.1:\(refused.port)/down?token=s3cr3t")!
        let records = Collected<LogRecord>()
        let redaction = Redaction.default.redactingHeaders("X-Api-Key").redactingQueryItems("token")
        let logging = Composer.logged(to: records.append, redaction: redaction)
        let transport = makeTestNetworkSession().transport(with: .numbered(), logging)
        let leaking = NetworkSession(
            sending: stubTransport { request in
                throw LeakyError(description: "\(request.url!.absoluteString) with \(request.allHTTPHeaderFields!)")
            }
        ).transport(with: .numbered(), logging)

        _ = try await transport(sending(server.url(for: "/account?token=s3cr3t&page=2"), authorization: "Bearer s3cr3t-bearer"))
        _ = try await transport(sending(server.url(for: "/basic?token=s3cr3t"), authorization: "Basic \(basicCredentials)"))
        await #expect(throws: (any Error).self) { try await transport(sending(refusedURL, authorization: "Bearer s3cr3t-bearer")) }
        await #expect(throws: LeakyError.self) {
            try await leaking(sending(server.url(for: "/leak?token=s3cr3t"), authorization: "Basic \(basicCredentials)"))
        }

        let all = records.values
        #expect(all.count == 8)
        #expect(all.filter { $0.event == .failed }.count == 2)
        #expect(all.first { $0.event == .finished }?.responseHeaders["Set-Cookie"] == "<redacted>")
        for record in all {
            let text = everything(in: record)
            for secret in ["s3cr3t", basicCredentials, proxyCredentials] {
                #expect(!text.contains(secret), "\(secret) leaked in \(text)")
            }
            #expect(record.requestHeaders["Authorization"] == "<redacted>")
            #expect(record.requestHeaders["X-Api-Key"] == "<redacted>")
            #expect(record.requestHeaders["Accept"] == "application/json")
            #expect(record.url.contains("token=<redacted>"))
        }
    }

    @Test func aRequestWritesAStartLineAndAnEndLineWithItsDurationOnTheClock() async throws {
        let clock = TestClock()
        let records = Collected<LogRecord>()
        let base = stubTransport { request in
            clock.advance(by: .milliseconds(250))
            return (Data("hello".utf8), stubResponse(for: request))
        }
        let transport = NetworkSession(sending: base).transport(with: .logged(to: records.append, clock: clock))
        _ = try await transport(request)

        let lines = records.values
        try #require(lines.count == 2)
        #expect(lines[0].event == .started)
        #expect(lines[0].level == .debug)
        #expect(lines[0].message == "→ GET https://shop.test/products")
        #expect(lines[0].duration == nil)
        #expect(lines[1].event == .finished)
        #expect(lines[1].level == .info)
        #expect(lines[1].message == "← GET https://shop.test/products 200 in 250 ms, 5 bytes")
        #expect(lines[1].duration == .milliseconds(250))
        #expect(lines[1].bytes == 5)
        #expect(lines[1].status == 200)
        #expect(lines[1].method == "GET")
        #expect(lines[1].requestID == nil)
    }

    @Test func linesCarryTheRequestIDAndNumberWhenNumberedIsAbove() async throws {
        let records = Collected<LogRecord>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .numbered(), .logged(to: records.append))
        _ = try await transport(request)
        _ = try await transport(request)
        let lines = records.values
        #expect(lines.map(\.requestNumber) == [1, 1, 2, 2])
        let first = try #require(lines[0].requestID)
        #expect(lines[1].requestID == first)
        #expect(lines[2].requestID != first)
        #expect(lines[0].message.hasPrefix("→ #1 \(first.uuidString.suffix(8)) GET"))
    }

    @Test func aLoggerListedAboveNumberedStillGetsTheID() async throws {
        let records = Collected<LogRecord>()
        let transport = NetworkSession(sending: stubTransport(data: Data())).transport(with: .logged(to: records.append), .numbered())
        _ = try await transport(request)
        #expect(records.values.map(\.requestNumber) == [1, 1])
    }

    @Test(arguments: [(200, LogRecord.Level.info), (302, .info), (404, .warning), (500, .error), (503, .error)])
    func theEndLevelFollowsTheStatus(status: Int, level: LogRecord.Level) async throws {
        let records = Collected<LogRecord>()
        _ = try await NetworkSession(sending: stubTransport(status: status)).transport(with: .logged(to: records.append))(request)
        #expect(records.values.last?.level == level)
        #expect(records.values.last?.status == status)
    }

    @Test func aFailedRequestIsAnErrorWithItsDurationAndError() async throws {
        let clock = TestClock()
        let records = Collected<LogRecord>()
        let base = stubTransport { _ in
            clock.advance(by: .seconds(2))
            throw URLError(.timedOut)
        }
        await #expect(throws: URLError.self) {
            try await NetworkSession(sending: base).transport(with: .logged(to: records.append, clock: clock))(request)
        }
        let end = try #require(records.values.last)
        #expect(end.event == .failed)
        #expect(end.level == .error)
        #expect(end.duration == .seconds(2))
        #expect(end.error?.hasPrefix("URLError -1001") == true)
        #expect(end.message.hasPrefix("✕ GET https://shop.test/products failed after 2.00 s: URLError -1001"))
    }

    @Test func aStatusErrorFromBelowIsAnErrorCarryingItsStatus() async throws {
        let records = Collected<LogRecord>()
        let transport = NetworkSession(sending: stubTransport(status: 404)).transport(
            with: .logged(to: records.append), .validatingStatus())
        await #expect(throws: HTTPStatusError.self) { try await transport(request) }
        #expect(records.values.last?.level == .error)
        #expect(records.values.last?.status == 404)
    }

    @Test func aCancelledRequestIsInfoNotError() async throws {
        let records = Collected<LogRecord>()
        let transport = NetworkSession(sending: stubTransport { _ in throw URLError(.cancelled) }).transport(
            with: .logged(to: records.append))
        await #expect(throws: URLError.self) { try await transport(request) }
        #expect(records.values.last?.event == .cancelled)
        #expect(records.values.last?.level == .info)
    }

    @Test func theMinimumLevelFiltersRecords() async throws {
        let records = Collected<LogRecord>()
        let quiet = Composer.logged(to: records.append, level: .warning)
        _ = try await NetworkSession(sending: stubTransport(status: 200)).transport(with: quiet)(request)
        #expect(records.values.isEmpty)
        _ = try await NetworkSession(sending: stubTransport(status: 500)).transport(with: quiet)(request)
        #expect(records.values.map(\.level) == [.error])
        #expect(LogRecord.Level.allCases.sorted() == [.debug, .info, .warning, .error])
        #expect(LogRecord.Level.warning.name == "warning")
    }

    @Test func aRecordWrittenWithoutItsStartRecordStillCarriesTheRedactedRequest() async throws {
        // Below the level nothing is built; a record that is written builds it all then.
        let records = Collected<LogRecord>()
        let url = try #require(URL(string: "https://shop.test/products?token=s3cr3t"))
        let redaction = Redaction.default.redactingHeaders("X-Api-Key").redactingQueryItems("token")
        let quiet = Composer.logged(to: records.append, level: .error, redaction: redaction)
        let transport = NetworkSession(sending: stubTransport(status: 500)).transport(with: .numbered(), quiet)
        _ = try await transport(sending(url, authorization: "Bearer t0ken-s3cr3t"))
        let record = try #require(records.values.first)
        #expect(records.values.count == 1)
        #expect(record.event == .finished)
        #expect(record.status == 500)
        #expect(record.requestNumber == 1)
        #expect(record.message.hasPrefix("← #1 "))
        #expect(record.requestHeaders["Accept"] == "application/json")
        #expect(record.requestHeaders["Authorization"] == "<redacted>")
        #expect(!everything(in: record).contains("s3cr3t"))
    }

    @Test func aFailureBelowTheLevelWritesNothingAndOneAtTheLevelIsWritten() async throws {
        let records = Collected<LogRecord>()
        let failing: Transport = { _ in throw URLError(.cannotConnectToHost) }
        let cancelled: Transport = { _ in throw CancellationError() }
        let quiet = Composer.logged(to: records.append, level: .warning)
        await #expect(throws: CancellationError.self) { try await NetworkSession(sending: cancelled).transport(with: quiet)(request) }
        #expect(records.values.isEmpty)
        await #expect(throws: URLError.self) { try await NetworkSession(sending: failing).transport(with: quiet)(request) }
        #expect(records.values.map(\.event) == [.failed])
        #expect(records.values.first?.message.contains("GET https://shop.test/products") == true)
    }

    @Test func theLoggerSeesTheRequestAsTheComposersAboveLeftIt() async throws {
        let records = Collected<LogRecord>()
        let addKey = Composer.modifyingRequest { request in
            var request = request
            request.setValue("k3y-s3cr3t", forHTTPHeaderField: "X-Api-Key")
            return request
        }
        let logging = Composer.logged(to: records.append, redaction: .default.redactingHeaders("X-Api-Key"))
        _ = try await NetworkSession(sending: stubTransport(data: Data())).transport(with: logging, addKey)(request)
        // Logging placed below the modifier sees the key it adds.
        _ = try await NetworkSession(sending: stubTransport(data: Data())).transport(with: addKey, Composer(at: .cache, logging.wrapping))(
            request)
        #expect(records.values.map { $0.requestHeaders["X-Api-Key"] } == [nil, nil, "<redacted>", "<redacted>"])
    }

    @Test func theDirectFormWritesTheSameRecordsAsTheAwaitedOne() async throws {
        let base = stubTransport { request in
            switch request.url?.path {
            case "/fails": throw URLError(.timedOut)
            case "/busy": return (Data("busy".utf8), stubResponse(for: request, status: 503))
            default: return (Data("hello".utf8), stubResponse(for: request))
            }
        }
        var messages: [[String]] = []
        for session in [NetworkSession(sending: base), directNetworkSession(sending: base)] {
            let records = Collected<LogRecord>()
            let send = session.networking(with: .logged(to: records.append, clock: TestClock()), .validatingStatus())
            for path in ["/products", "/busy", "/fails"] {
                _ = await send(Endpoint(baseURL: URL(string: "https://shop.test")!, path: path)).result(within: .seconds(30))
            }
            messages.append(records.values.map { "\($0.event) \($0.level) \($0.message)" })
        }
        #expect(messages[0].count == 6)
        #expect(messages[0] == messages[1])
    }
}
