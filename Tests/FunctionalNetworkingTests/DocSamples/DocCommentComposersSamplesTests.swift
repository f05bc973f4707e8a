import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Futures
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The samples in the doc comments of Sources/FunctionalNetworking/Composers (but the cache,
// deduplication and throttling ones, in DocCommentCachingSamplesTests.swift), one suite per
// source file. Stacks on `NetworkSession.shared` send to a LoopbackServer on 127.0.0.1.

extension Composer {
    /// Adds an API key to every request.
    fileprivate static func apiKey(_ key: String) -> Composer {
        Composer { next in
            { request in
                var request = request
                request.setValue(key, forHTTPHeaderField: "X-Api-Key")
                return try await next(request)
            }
        }
    }
}

/// An authenticator with `token` for the origin of `url`.
private func authenticator(for url: URL, token: String = "t0ken") -> Authenticator {
    Authenticator(store: CredentialStore(.bearer(token)), allowedOrigins: [Origin(url: url)!])
}

@Suite("Doc comment samples: Composer.swift")
struct ComposerDocCommentSamplesTests {
    @Test func anAPIKeyComposerSetsItsHeader() async throws {
        let requests = Collected<URLRequest>()
        let transport = NetworkSession(sending: recordingTransport(into: requests)).transport(with: .apiKey("k3y"))
        _ = try await transport(URLRequest(url: URL(string: "https://shop.test/a")!))
        #expect(requests.values.first?.value(forHTTPHeaderField: "X-Api-Key") == "k3y")
    }

    @Test func aStackRunsInItsOrderWhateverTheOrderWritten() async throws {
        let server = try makeShopServer()
        let auth = authenticator(for: server.baseURL)
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let transport = NetworkSession.shared.transport(
            with:
                .retry(),
            .validatingStatus(),
            .authenticated(by: auth),
            .logged(to: log)
        )
        // Runs as: logged → validatingStatus → retry → authenticated → URLSession.
        let failure = await Future { try await transport(URLRequest(url: server.url(for: "/products/99"))) }.result()
        #expect((failure.failure as? HTTPStatusError)?.status == 404)
        #expect(records.values.last?.level == .error)
        #expect(server.requestCount == 1)
        #expect(await server.takeRequest()?.header("Authorization") == "Bearer t0ken")
    }
}

@Suite("Doc comment samples: Composer.Place.swift")
struct ComposerPlaceDocCommentSamplesTests {
    @Test func aComposerOfYourOwnTakesThePlaceYouGive() {
        let stamp = Composer(at: .logging) { next in
            { request in try await next(request) }
        }
        #expect(stamp.place == .logging)
    }

    @Test func everyPlaceNamesAFactoryThatExists() {
        #expect(Composer.Place.metrics.description == ".metrics(into:)")
        #expect(Composer.Place.logging.description == ".logged(to:)")
    }
}

@Suite("Doc comment samples: Authenticator.swift")
struct AuthenticatorDocCommentSamplesTests {
    @Test func aRejectedTokenIsRenewedAndTheRequestSentAgain() async throws {
        let server = try LoopbackServer { request in
            request.header("Authorization") == "Bearer fresh" ? .json("{}") : .status(401)
        }
        let savedToken = "stale"
        let apiURL = server.baseURL
        @Sendable func renewToken() async throws -> String { "fresh" }
        let store = CredentialStore(.bearer(savedToken))
        let auth = Authenticator(
            store: store,
            allowedOrigins: [Origin(url: apiURL)!],
            refresh: { _ in .bearer(try await renewToken()) }
        )
        let transport = NetworkSession.shared.transport(with: .authenticated(by: auth), .retry())
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/me"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(await store.credential?.authorizationValue == "Bearer fresh")
    }
}

@Suite("Doc comment samples: CredentialStore.swift")
struct CredentialStoreDocCommentSamplesTests {
    @Test func theStoreHoldsTheLatestCredentialOrNone() async {
        let savedToken = "old"
        let newToken = "new"
        let store = CredentialStore(.bearer(savedToken))
        await store.store(.bearer(newToken))
        await store.store(nil)  // signed out
        #expect(await store.credential == nil)
    }
}

@Suite("Doc comment samples: Origin.swift")
struct OriginDocCommentSamplesTests {
    @Test func anHTTPSOriginImpliesPort443() {
        let api = Origin(url: URL(string: "https://api.shop.example")!)  // port 443 implied
        #expect(api == Origin(scheme: "https", host: "api.shop.example", port: 443))
    }
}

@Suite("Doc comment samples: CancellationScope.swift")
struct CancellationScopeDocCommentSamplesTests {
    @Test func aScopeListsAndCancelsTheRequestsInFlight() async throws {
        let id = UUID()
        let values = sampleLines {
            let scope = CancellationScope()
            let transport = NetworkSession.shared.transport(with: .numbered(), .cancellable(in: scope))

            scope.inFlightIDs  // the ids of the requests running now, oldest first
            scope.cancel(id: id)  // that request's caller gets CancellationError
            scope.cancelAll()  // every request running now; later requests run as usual
            _ = transport
        }
        // Nothing was sent: no id runs, so there is nothing to cancel.
        #expect((values[0] as? [UUID]) == [])
        #expect(values[1] as? Bool == false)
        #expect(values[2] as? Int == 0)
    }

    @Test func aCallGivenItsOwnIDIsCancelledByIt() async throws {
        let scope = CancellationScope()
        let transport = NetworkSession(sending: recordingTransport(delay: .milliseconds(500))).transport(with: .cancellable(in: scope))
        let request = URLRequest(url: URL(string: "https://shop.test/slow")!)
        let outcome = try await withDocSampleTimeLimit { () async throws -> (any Error)? in
            let id = UUID()
            async let data = RequestContext.withID(id) { try await transport(request) }
            scope.cancel(id: id)
            do {
                _ = try await data
                return nil
            } catch {
                return error
            }
        }
        // Cancelled when it had started; had the cancel come first, the call ran to its end.
        #expect(outcome == nil || outcome is CancellationError)
    }
}

@Suite("Doc comment samples: Composer+Cancellation.swift")
struct ComposerCancellationDocCommentSamplesTests {
    @Test func leavingTheScreenCancelsEveryDownload() async throws {
        let server = try LoopbackServer { _ in .json("{}").delayed(by: .milliseconds(500)) }
        let catalogue = (1...3).map { Endpoint(baseURL: server.baseURL, path: "/items/\($0)") }
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let scope = CancellationScope()
        let networking = networking(
            from: NetworkSession.shared.transport(
                with:
                    .numbered(),
                .logged(to: log),
                .cancellable(in: scope)
            ))
        let downloads = catalogue.map(networking)
        scope.cancelAll()  // the user left the screen
        // Each download that had started is cancelled; one not yet started runs as usual.
        for download in downloads {
            let outcome = await download.result()
            #expect(outcome.failure is CancellationError || outcome.success != nil)
        }
    }
}

@Suite("Doc comment samples: Composer+Delay.swift")
struct ComposerDelayDocCommentSamplesTests {
    @Test func aDelayedStackHoldsEachRequestBack() async throws {
        let server = try makeShopServer()
        let slowNetwork = NetworkSession.shared.transport(with: .delayed(by: .milliseconds(300)))
        let start = ContinuousClock.now
        _ = try await withDocSampleTimeLimit { try await slowNetwork(URLRequest(url: server.url(for: "/products/7"))) }
        #expect(ContinuousClock.now - start >= .milliseconds(300))
    }
}

@Suite("Doc comment samples: Composer+Logging.swift")
struct ComposerLoggingDocCommentSamplesTests {
    /// Stands in for swift-log's `Logger`, with the same shape, so that the sample compiles
    /// without the dependency.
    struct Logger: Sendable {
        enum Level: String { case trace, debug, info, notice, warning, error, critical }
        let label: String
        let written = Collected<String>()
        init(label: String) { self.label = label }
        func log(level: Level, _ message: @autoclosure () -> String) { written.append("\(level) \(message())") }
    }

    /// Stands in for the `os` module's `Logger`, with the same shape, so that the sample
    /// compiles on every platform.
    // swift-format-ignore: TypeNamesShouldBeCapitalized
    enum os {
        enum OSLogType { case info, error }
        enum Privacy { case `public`, `private` }
        struct Message: ExpressibleByStringInterpolation {
            struct StringInterpolation: StringInterpolationProtocol {
                var text = ""
                init(literalCapacity: Int, interpolationCount: Int) {}
                mutating func appendLiteral(_ literal: String) { text += literal }
                mutating func appendInterpolation(_ value: String, privacy: Privacy = .private) { text += value }
            }
            let text: String
            init(stringLiteral value: String) { text = value }
            init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }
        }
        struct Logger: Sendable {
            let written = Collected<String>()
            init(subsystem: String, category: String) {}
            func log(level: OSLogType, _ message: Message) { written.append("\(level) \(message.text)") }
        }
    }

    @Test func theInfoLevelLeavesOutTheStartRecords() async throws {
        let server = try makeShopServer()
        let transport = NetworkSession.shared.transport(
            with:
                .numbered(),
            .logged(to: { record in print(record.message) }, level: .info),
            .retry()
        )
        // → #1 3F2A9C1E GET https://shop.test/products          (debug, filtered out by .info)
        // ← #1 3F2A9C1E GET https://shop.test/products 200 in 84 ms, 512 bytes
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func recordsBridgeToSwiftLog() async throws {
        let logger = Logger(label: "shop.network")
        let logging = Composer.logged(to: { record in
            logger.log(level: Logger.Level(rawValue: record.level.name) ?? .info, "\(record.message)")
        })
        _ = try await NetworkSession(sending: recordingTransport(status: 404)).transport(with: logging)(
            URLRequest(url: URL(string: "https://shop.test/a")!))
        #expect(logger.written.values.count == 2)
        #expect(logger.written.values.first?.hasPrefix("debug → ") == true)
        #expect(logger.written.values.last?.hasPrefix("warning ← ") == true)
    }

    @Test func recordsBridgeToOSLog() async throws {
        let log = os.Logger(subsystem: "shop", category: "network")
        let logging = Composer.logged(to: { record in
            log.log(level: record.level >= .error ? .error : .info, "\(record.message, privacy: .public)")
        })
        let transport = NetworkSession(sending: recordingTransport(status: 500)).transport(with: logging, .validatingStatus())
        _ = await Future { try await transport(URLRequest(url: URL(string: "https://shop.test/a")!)) }.result()
        #expect(log.written.values.last?.hasPrefix("error ✕ ") == true)
    }

    @Test func aFourHundredIsAnErrorWithStatusValidationAndAWarningWithout() async throws {
        let records = Collected<LogRecord>()
        let log: @Sendable (LogRecord) -> Void = { records.append($0) }
        let request = URLRequest(url: URL(string: "https://shop.test/a")!)
        _ = await Future {
            try await NetworkSession(sending: recordingTransport(status: 404)).transport(with: .logged(to: log), .validatingStatus())(
                request)
        }.result()
        _ = try await NetworkSession(sending: recordingTransport(status: 404)).transport(with: .logged(to: log))(request)
        #expect(records.values.map(\.level) == [.debug, .error, .debug, .warning])
    }
}

@Suite("Doc comment samples: LogRecord.swift")
struct LogRecordDocCommentSamplesTests {
    @Test func anEndRecordHoldsTheRedactedMessageStatusAndDuration() async throws {
        let records = Collected<LogRecord>()
        let clock = TestClock()
        let transport = NetworkSession(sending: recordingTransport(body: String(repeating: "x", count: 512)))
            .transport(with: .numbered(), .logged(to: { records.append($0) }, clock: clock))
        _ = try await transport(URLRequest(url: URL(string: "https://shop.test/products?token=s3cr3t")!))
        let record = try #require(records.values.last)
        let values = sampleLines {
            record.message  // "← #1 3F2A9C1E GET https://shop.test/products?token=<redacted> 200 in 84 ms, 512 bytes"
            record.status  // 200
            record.duration  // .milliseconds(84)
        }
        #expect((values[0] as? String)?.contains("GET https://shop.test/products?token=<redacted> 200 in") == true)
        #expect((values[0] as? String)?.hasSuffix("512 bytes") == true)
        #expect(values[1] as? Int == 200)
        #expect(values[2] as? Duration == .zero)
    }
}

@Suite("Doc comment samples: Composer+Metrics.swift")
struct ComposerMetricsDocCommentSamplesTests {
    /// Stands in for a StatsD client.
    final class StatsD: Sendable {
        let timings = Collected<(String, Duration)>()
        func timing(_ name: String, _ duration: Duration) { timings.append((name, duration)) }
    }

    @Test func eachFinishedRequestSendsItsTiming() async throws {
        let server = try makeShopServer()
        let statsd = StatsD()
        let transport = NetworkSession.shared.transport(
            with: .numbered(),
            .metrics(to: { event in
                if case .finished(let metrics) = event {
                    statsd.timing("http.request", metrics.duration)
                }
            }))
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect(statsd.timings.values.map(\.0) == ["http.request"])
    }

    @Test func aRecorderSumsUpTheRequests() async throws {
        let server = try makeShopServer()
        let recorder = MetricsRecorder()
        let transport = NetworkSession.shared.transport(with: .numbered(), .metrics(into: recorder))
        // … later
        print(recorder.summary)
        // | requests | failures | in flight |    p50 |    p90 |    p99 |  bytes |
        // |      120 |        2 |         1 |  48 ms | 130 ms | 410 ms | 524288 |
        _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect(recorder.summary.count == 1)
        #expect(recorder.summary.description.contains("| requests | failures | in flight |"))
    }
}

@Suite("Doc comment samples: MetricsRecorder.swift")
struct MetricsRecorderDocCommentSamplesTests {
    @Test func theSummaryGivesPercentiles() async throws {
        let server = try makeShopServer()
        let values = try await awaitedSampleLines {
            let recorder = MetricsRecorder()
            let transport = NetworkSession.shared.transport(with: .metrics(into: recorder))
            // … later
            let summary = recorder.summary
            summary.p90  // .milliseconds(130)
            print(summary)  // a small table
            _ = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        }
        #expect((values[0] as? Duration) == nil)  // no request yet
        _ = server
    }
}

@Suite("Doc comment samples: RequestMetrics.swift")
struct RequestMetricsDocCommentSamplesTests {
    @Test func aMeasurementHoldsDurationStatusAndBytes() async throws {
        let events = Collected<MetricsEvent>()
        let transport = NetworkSession(sending: recordingTransport(body: String(repeating: "x", count: 512)))
            .transport(with: .metrics(to: { events.append($0) }, clock: TestClock()))
        _ = try await transport(URLRequest(url: URL(string: "https://shop.test/a")!))
        guard case .finished(let metrics) = events.values.last else {
            Issue.record("a finished event")
            return
        }
        let values = sampleLines {
            metrics.duration  // .milliseconds(84)
            metrics.status  // 200
            metrics.bytes  // 512
        }
        #expect(values[0] as? Duration == .zero)
        #expect(values[1] as? Int == 200)
        #expect(values[2] as? Int == 512)
    }
}

@Suite("Doc comment samples: Composer+Numbering.swift")
struct ComposerNumberingDocCommentSamplesTests {
    @Test func numberingGoesAboveLoggingWhereverItIsWritten() async throws {
        let server = try makeShopServer()
        let transport = NetworkSession.shared.transport(
            with:
                .logged(to: { record in print(record.message) }),  // → #1 3F2A9C1E GET https://…
            .retry(),
            .numbered()
        )
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}

@Suite("Doc comment samples: Composer+Retry.swift")
struct ComposerRetryDocCommentSamplesTests {
    @Test func aServiceUnavailableIsRetried() async throws {
        let server = try LoopbackServer()
        server.enqueue(.status(503))
        server.enqueue(.json("{}"))
        let transport = NetworkSession.shared.transport(with: .retry(), .validatingStatus())
        // 3 attempts of idempotent requests, backoff with jitter; a 503 is retried by its status
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/a"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(server.requestCount == 2)
    }
}

@Suite("Doc comment samples: RetryPolicy.swift")
struct RetryPolicyDocCommentSamplesTests {
    @Test func aPolicyOfYourOwn() async throws {
        let server = try LoopbackServer()
        server.enqueue(.status(503))
        server.enqueue(.json("{}"))
        var policy = RetryPolicy.default
        policy.maxAttempts = 5
        policy.backoff = .exponential(initial: .milliseconds(500), maximum: .seconds(20))
        let transport = NetworkSession.shared.transport(with: .retry(policy), .validatingStatus())
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/a"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(policy.maxAttempts == 5)
    }
}

@Suite("Doc comment samples: Composer+StatusValidation.swift")
struct ComposerStatusValidationDocCommentSamplesTests {
    @Test func aRangeOfYourOwnAcceptsRedirectStatuses() async throws {
        let server = try LoopbackServer { _ in .status(304) }
        let values = sampleLines {
            NetworkSession.shared.transport(with: .retry(), .validatingStatus(200..<400))
        }
        let transport = try #require(values[0] as? Transport)
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/a"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 304)
    }
}

@Suite("Doc comment samples: Composer+Timeout.swift")
struct ComposerTimeoutDocCommentSamplesTests {
    @Test func eachAttemptHasTenSeconds() async throws {
        let server = try makeShopServer()
        let values = sampleLines {
            NetworkSession.shared.transport(with: .retry(), .timeout(after: .seconds(10)))
        }
        let transport = try #require(values[0] as? Transport)
        let (_, response) = try await withDocSampleTimeLimit { try await transport(URLRequest(url: server.url(for: "/products/7"))) }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}
