import Foundation
import FunctionalNetworkingTesting
import Futures
import Testing

@testable import FunctionalNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The direct path: the package's session completes each future from its delegate")
struct DirectTransportTests {
    static func makeServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/missing": .text("no such thing", status: 404)
            case "/moved": LoopbackServer.Response(status: 302, headers: [.init("Location", "/product")], body: Data())
            case "/slow": .text("late").delayed(by: .seconds(20))
            default: .text("product \(request.path)")
            }
        }
    }

    @Test func aRequestThroughTheSessionCompletesItsFutureFromItsDelegateOutsideAnyTask() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let send = makeTestNetworkSession().networking(with: .numbered(), .timeout(after: .seconds(30)), .validatingStatus())
        let witness = TaskWitness()
        let future = send(Endpoint(baseURL: server.baseURL, path: "/product"))
            .map { data in
                witness.record()
                return data
            }
        #expect(try await future.value(within: .seconds(30)) == Data("product /product".utf8))
        #expect(witness.ranOutsideTask == true)
    }

    @Test func observersOfARequestNeverRunOnTheThreadOfASessionCallback() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let send = makeTestNetworkSession().networking(with: .validatingStatus())
        let onCallbackThread = Promise<Bool>()
        send(Endpoint(baseURL: server.baseURL, path: "/product")).observe { _ in
            onCallbackThread.resolve(with: SessionCallbackThread.isRunningCallback)
        }
        #expect(try await onCallbackThread.value(within: .seconds(30)) == false)
    }

    @Test func anObserverMayStartAndCancelPlainURLSessionTasks() async throws {
        // On Linux every URLSession of the process works on one serial queue, and making,
        // resuming and cancelling a task wait for it: an observer run on that queue would wait
        // for itself, and every request of the process with it.
        let server = try Self.makeServer()
        defer { server.stop() }
        let plain = makeTestSession()
        defer { plain.invalidateAndCancel() }
        let send = makeTestNetworkSession().networking(with: .validatingStatus())
        let started = Promise<Void>()
        send(Endpoint(baseURL: server.baseURL, path: "/product")).observe { _ in
            let task = plain.dataTask(with: server.url(for: "/slow"))
            task.resume()
            task.cancel()
            started.resolve()
        }
        try await started.value(within: .seconds(30))
    }

    @Test func aCallThatAnswersAtOnceWithAnErrorIsCompletedBeforeItReturns() {
        let send = makeTestNetworkSession().networking(with: .validatingStatus())
        let future = send(Endpoint(baseURL: URL(string: "ftp://example.com")!, path: "/x"))
        #expect(future.isPending == false)
        #expect(future.result?.failure is TransportError)
    }

    @Test func theDirectPathGivesTheSameAnswersAndErrorsAsTheAwaitedOne() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        for composers in [
            [], [Composer.validatingStatus()], [.validatingStatus(200..<500), .numbered()], [.retry(), .validatingStatus()],
        ] {
            let direct = session.networking(with: composers)
            let awaited = networking(from: session.transport(with: composers))
            for path in ["/product", "/missing", "/moved"] {
                let endpoint = Endpoint(baseURL: server.baseURL, path: path)
                let one = await direct(endpoint).result(within: .seconds(30))
                let other = await awaited(endpoint).result(within: .seconds(30))
                #expect(String(describing: one) == String(describing: other), "\(path) through \(composers.map(\.place))")
            }
        }
    }

    @Test func anObserverOnTheCallbackThreadCanStartTheNextRequestOnEverySession() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        for session in [NetworkSession.shared, NetworkSession(configuration: .default), NetworkSession(configuration: .ephemeral)] {
            let send = session.networking(with: .validatingStatus())
            var chain = send(Endpoint(baseURL: server.baseURL, path: "/product"))
            for step in 1...20 {
                chain = chain.flatMap { _ in send(Endpoint(baseURL: server.baseURL, path: "/product/\(step)")) }
            }
            #expect(try await chain.value(within: .seconds(60)) == Data("product /product/20".utf8))
        }
    }

    @Test func cancellingTheFutureCancelsTheRequestAtOnce() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let send = NetworkSession(configuration: .default).networking(with: .timeout(after: .seconds(60)))
        let future = send(Endpoint(baseURL: server.baseURL, path: "/slow"))
        _ = await server.takeRequest(timeout: .seconds(30))
        future.cancel()
        #expect(await future.result(within: .seconds(5)).failure is CancellationError)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequest() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let send = NetworkSession(configuration: .default).networking()
        let task = Task { try await send(Endpoint(baseURL: server.baseURL, path: "/slow")).value }
        _ = await server.takeRequest(timeout: .seconds(30))
        task.cancel()
        #expect(await task.result.failure is CancellationError)
    }

    @Test func aCallFromACancelledTaskFailsWithCancellationErrorAndSendsNothing() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let session = makeTestNetworkSession()
        for send in [session.networking(), session.networking(with: .numbered()), networking(from: session.transport)] {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return send(Endpoint(baseURL: server.baseURL, path: "/product"))
            }
            let future = await task.value
            #expect(future.result?.failure is CancellationError)
        }
        #expect(server.requestCount == 0)
    }

    @Test func aStackWithAComposerThatNeedsATaskRunsAwaitedWithTheSameAnswer() async throws {
        let server = try Self.makeServer()
        defer { server.stop() }
        let send = makeTestNetworkSession().networking(with: .numbered(), .cached(in: ResponseCache()), .validatingStatus())
        let witness = TaskWitness()
        let future = send(Endpoint(baseURL: server.baseURL, path: "/product"))
            .map { data in
                witness.record()
                return data
            }
        #expect(try await future.value(within: .seconds(30)) == Data("product /product".utf8))
        #expect(witness.ranOutsideTask == false)  // completed by the call's task
    }

    @Test func theStackOfDirectComposersIsDirectAndAnyOtherEndsIt() {
        let base: DirectTransport = { _, _ in Future(error: CancellationError()) }
        let transport: Transport = { _ in throw CancellationError() }
        let direct: [Composer] = [
            .numbered(), .logged(to: { _ in }), .metrics(into: MetricsRecorder()), .metrics(to: { _ in }), .timeout(after: .seconds(1)),
            .validatingStatus(), .retry(), .authenticated(by: Authenticator(store: CredentialStore(.bearer("t")), allowedOrigins: [])),
            .deduplicated(), .throttled(maxConcurrent: 4),
        ]
        #expect(Composer.stack(direct, over: transport, direct: base).direct != nil)
        #expect(Composer.stack([.numbered(), Composer { $0 }], over: transport, direct: base).direct == nil)
        #expect(Composer.stack([.numbered()], over: transport, direct: nil).direct == nil)
    }
}
