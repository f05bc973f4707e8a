import Foundation
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct LoopbackServerScriptingTests {
    @Test func answersQueuedResponsesInOrder() async throws {
        try await HTTPClient.withServer { server, session in
            server.enqueue(.text("first"))
            server.enqueue(.json(#"{"n":2}"#, status: 201))
            server.enqueue(.status(503))

            let first = try await HTTPClient.get(server.url(for: "/a"), with: session)
            let second = try await HTTPClient.get(server.url(for: "/b"), with: session)
            let third = try await HTTPClient.get(server.url(for: "/c"), with: session)

            #expect(first.response.statusCode == 200)
            #expect(first.body.text == "first")
            #expect(first.response.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
            #expect(second.response.statusCode == 201)
            #expect(second.body.text == #"{"n":2}"#)
            #expect(second.response.value(forHTTPHeaderField: "Content-Type") == "application/json")
            #expect(third.response.statusCode == 503)
            #expect(third.body.isEmpty)
            #expect(server.queuedResponseCount == 0)
        }
    }

    @Test func answers404SayingNothingWasEnqueuedWhenQueueIsEmpty() async throws {
        try await HTTPClient.withServer { server, session in

            let result = try await HTTPClient.get(server.url(for: "/missing"), with: session)

            #expect(result.response.statusCode == 404)
            #expect(result.body.text.contains("no response enqueued"))
            #expect(result.body.text.contains("GET /missing"))
        }
    }

    @Test func routesRequestsByPathThroughTheDispatcher() async throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/users": .json(#"[{"id":1}]"#)
            case "/health": .text("ok")
            default: .status(404)
            }
        }
        defer { server.stop() }
        let session = HTTPClient.makeSession()
        defer { session.invalidateAndCancel() }

        let users = try await HTTPClient.get(server.url(for: "/users?page=1"), with: session)
        let health = try await HTTPClient.get(server.url(for: "/health"), with: session)
        let other = try await HTTPClient.get(server.url(for: "/nope"), with: session)

        #expect(users.body.text == #"[{"id":1}]"#)
        #expect(health.body.text == "ok")
        #expect(other.response.statusCode == 404)
    }

    @Test func usesADispatcherAssignedAfterStart() async throws {
        try await HTTPClient.withServer { server, session in
            server.dispatcher = { request in .text("echo \(request.method) \(request.path)") }

            let result = try await HTTPClient.get(server.url(for: "/x"), with: session)

            #expect(result.body.text == "echo GET /x")
        }
    }

    @Test func usesQueuedResponsesBeforeTheDispatcher() async throws {
        let server = try LoopbackServer { _ in .text("dispatched") }
        defer { server.stop() }
        let session = HTTPClient.makeSession()
        defer { session.invalidateAndCancel() }
        server.enqueue(.text("queued"))

        let first = try await HTTPClient.get(server.url(for: "/"), with: session)
        let second = try await HTTPClient.get(server.url(for: "/"), with: session)

        #expect(first.body.text == "queued")
        #expect(second.body.text == "dispatched")
    }

    @Test func sendsRepeatedHeadersInOrderAndAlwaysContentLength() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(
            .text("hi")
                .addingHeader("Set-Cookie", "a=1")
                .addingHeader("Set-Cookie", "b=2")
                .addingHeader("Content-Length", "999")
        )
        let connection = try RawConnection(port: server.port)

        try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try connection.readResponse()

        #expect(response.status == 200)
        #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
        #expect(response.headers.filter { $0.name == "Content-Length" }.map(\.value) == ["2"])
        #expect(response.body.text == "hi")
    }

    @Test func answersHeadRequestsWithContentLengthButNoBody() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.text("twelve bytes"))
        server.enqueue(.text("next"))
        let connection = try RawConnection(port: server.port)

        try connection.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try connection.readResponse(hasBody: false)
        #expect(head.header("Content-Length") == "12")
        // The HEAD response had no body, so the next bytes are the GET response.
        let next = try connection.readResponse()

        #expect(next.body.text == "next")
    }

    @Test func followsRedirectsToAnotherPath() async throws {
        try await HTTPClient.withServer { server, session in
            server.enqueue(.redirect(to: server.url(for: "/new")))
            server.enqueue(.text("arrived"))

            let result = try await HTTPClient.get(server.url(for: "/old"), with: session)

            #expect(result.body.text == "arrived")
            #expect(await server.takeRequest()?.path == "/old")
            #expect(await server.takeRequest()?.path == "/new")
        }
    }
}
