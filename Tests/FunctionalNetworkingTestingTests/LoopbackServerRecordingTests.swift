import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerRecordingTests {
    @Test func takeRequestReturnsMethodPathQueryHeadersAndBodyOfAPost() async throws {
        try await HTTPClient.withServer { server, session in
            server.enqueue(.status(201))
            var request = URLRequest(url: server.url(for: "/users/7?expand=team&q=a%20b&flag"))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("trace-123", forHTTPHeaderField: "X-Trace")
            request.httpBody = Data(#"{"name":"Ada"}"#.utf8)

            let result = try await HTTPClient.send(request, with: session)
            let recorded = try #require(await server.takeRequest())

            #expect(result.response.statusCode == 201)
            #expect(recorded.method == "POST")
            #expect(recorded.path == "/users/7")
            #expect(recorded.target == "/users/7?expand=team&q=a%20b&flag")
            #expect(recorded.query == "expand=team&q=a%20b&flag")
            #expect(
                recorded.queryItems == [
                    URLQueryItem(name: "expand", value: "team"),
                    URLQueryItem(name: "q", value: "a b"),
                    URLQueryItem(name: "flag", value: nil),
                ])
            #expect(recorded.header("content-type") == "application/json")
            #expect(recorded.header("X-TRACE") == "trace-123")
            #expect(recorded.header("Content-Length") == "14")
            #expect(recorded.header("X-Absent") == nil)
            #expect(recorded.bodyText == #"{"name":"Ada"}"#)
            #expect(recorded.httpVersion == "HTTP/1.1")
        }
    }

    @Test func takeRequestReturnsRequestsInArrivalOrderWithSequenceNumbers() async throws {
        try await HTTPClient.withServer { server, session in

            for index in 0..<3 {
                _ = try await HTTPClient.get(server.url(for: "/\(index)"), with: session)
            }

            for index in 0..<3 {
                let recorded = try #require(await server.takeRequest())
                #expect(recorded.path == "/\(index)")
                #expect(recorded.sequenceNumber == index)
            }
            #expect(server.requestCount == 3)
        }
    }

    @Test func takeRequestTimesOutReturningNilWhenNothingArrives() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let clock = ContinuousClock()

        let start = clock.now
        let request = await server.takeRequest(timeout: .milliseconds(200))
        let elapsed = clock.now - start

        #expect(request == nil)
        #expect(elapsed >= .milliseconds(190))
        #expect(elapsed < .seconds(120))  // bounded; not a performance claim
    }

    @Test func blockingTakeRequestTimesOutReturningNilWhenNothingArrives() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let clock = ContinuousClock()

        let start = clock.now
        let request = server.takeRequest(timeout: .milliseconds(200))
        let elapsed = clock.now - start

        #expect(request == nil)
        #expect(elapsed >= .milliseconds(190))
        #expect(elapsed < .seconds(120))  // bounded; not a performance claim
    }

    @Test func blockingTakeRequestReturnsARequestThatArrivesWhileWaiting() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let port = server.port
        let sender = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            let connection = try? RawConnection(port: port)
            try? connection?.send("DELETE /items/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try? connection?.readResponse()
        }
        sender.start()

        let request = server.takeRequest(timeout: .seconds(30))

        #expect(request?.method == "DELETE")
        #expect(request?.path == "/items/3")
    }

    @Test func asyncTakeRequestIsResumedByARequestThatArrivesWhileWaiting() async throws {
        try await HTTPClient.withServer { server, session in

            async let taken = server.takeRequest(timeout: .seconds(30))
            try await Task.sleep(for: .milliseconds(50))
            _ = try await HTTPClient.get(server.url(for: "/late"), with: session)

            #expect(await taken?.path == "/late")
        }
    }

    @Test func asyncTakeRequestReturnsNilWhenItsTaskIsCancelled() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let clock = ContinuousClock()
        let start = clock.now

        let task = Task { await server.takeRequest(timeout: .seconds(600)) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()

        #expect(await task.value == nil)
        #expect(clock.now - start < .seconds(120))  // bounded; not a performance claim
    }

    @Test func recordsRepeatedRequestHeadersInOrder() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\nCookie: a=1\r\ncookie: b=2\r\nX-Pad:   spaced value  \r\n\r\n")
        _ = try connection.readResponse()
        let recorded = try #require(await server.takeRequest())

        #expect(recorded.headers(named: "COOKIE") == ["a=1", "b=2"])
        #expect(recorded.header("x-pad") == "spaced value")
        #expect(recorded.headers.map(\.name) == ["Host", "Cookie", "cookie", "X-Pad"])
    }
}
