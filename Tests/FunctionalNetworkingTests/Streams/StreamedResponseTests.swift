import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StreamedResponse: a response whose body arrives as it is read")
struct StreamedResponseTests {
    static var feed: URL { URL(string: "https://shop.test/feed")! }

    @Test("The status code is the HTTP response's")
    func statusCode() throws {
        let head = try #require(HTTPURLResponse(url: Self.feed, statusCode: 206, httpVersion: "HTTP/1.1", headerFields: [:]))
        #expect(StreamedResponse(response: head, body: ResponseBody(Data())).statusCode == 206)
    }

    @Test("The headers are the HTTP response's, looked up in any case")
    func headers() throws {
        let head = try #require(
            HTTPURLResponse(
                url: Self.feed, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "text/event-stream", "X-Job": "7"]))
        let response = StreamedResponse(response: head, body: ResponseBody(Data()))

        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["content-type"] == "text/event-stream")
        #expect(response.headers["X-JOB"] == "7")
        #expect(response.headers["X-Missing"] == nil)
        #expect(response.headers.count == 2)
    }

    @Test("A response that is not HTTP has status 200 and no headers")
    func notHTTP() {
        let head = URLResponse(
            url: URL(fileURLWithPath: "/tmp/feed.txt"), mimeType: "text/plain", expectedContentLength: 3, textEncodingName: nil)
        let response = StreamedResponse(response: head, body: ResponseBody(Data("abc".utf8)))

        #expect(response.statusCode == 200)
        #expect(response.headers.isEmpty)
        #expect(response.response === head)
    }

    @Test("A ready response in a test gives its body as a stream does")
    func readyResponse() async throws {
        let head = try #require(HTTPURLResponse(url: Self.feed, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]))
        let response = StreamedResponse(response: head, body: ResponseBody(Data("one\ntwo\n".utf8)))

        var lines: [String] = []
        for try await line in response.body.lines { lines.append(line) }

        #expect(lines == ["one", "two"])
    }

    @Test("From a server, the status and headers are there before the body has arrived")
    func fromAServer() async throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        server.enqueue(.stream([.text("a"), .pause(.seconds(30))], status: 202, headers: [.init("X-Job", "7")]))

        let response = try await stream(Endpoint(baseURL: server.url(for: "/jobs/7")), through: makeTestNetworkSession().transport)

        #expect(response.statusCode == 202)
        #expect(response.headers["x-job"] == "7")
        #expect(response.headers["Transfer-Encoding"] == "chunked")
        #expect(response.response.url == server.url(for: "/jobs/7"))
    }
}
