import Foundation
import Testing

@testable import FunctionalNetworkingTesting

@Suite struct LoopbackServerResponseTests {
    private struct User: Codable, Equatable {
        var id: Int
        var name: String
    }

    @Test func derivesTheReasonPhraseFromTheStatusCode() {
        #expect(LoopbackServer.Response.status(200).reasonPhrase == "OK")
        #expect(LoopbackServer.Response.status(404).reasonPhrase == "Not Found")
        #expect(LoopbackServer.Response.status(431).reasonPhrase == "Request Header Fields Too Large")
        #expect(LoopbackServer.Response.status(499).reasonPhrase == "Client Error")
        #expect(LoopbackServer.reasonPhrase(for: 599) == "Server Error")
    }

    @Test func reasonPhraseFollowsTheStatusUnlessOverridden() {
        var response = LoopbackServer.Response.status(200)
        response.status = 503
        #expect(response.reasonPhrase == "Service Unavailable")

        response.reasonPhrase = "Down For Lunch"
        response.status = 500
        #expect(response.reasonPhrase == "Down For Lunch")
        #expect(LoopbackServer.Response(status: 201, reasonPhrase: "Made").reasonPhrase == "Made")
    }

    @Test func jsonFromTextSetsTheBodyAndContentType() {
        let response = LoopbackServer.Response.json(#"{"a":1}"#, status: 202)

        #expect(response.status == 202)
        #expect(response.header("content-type") == "application/json")
        #expect(response.body == Data(#"{"a":1}"#.utf8))
    }

    @Test func jsonFromAnEncodableValueEncodesIt() throws {
        let response = try LoopbackServer.Response.json(User(id: 7, name: "Ada"), status: 201)

        #expect(response.status == 201)
        #expect(response.header("Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: response.body) == User(id: 7, name: "Ada"))
    }

    @Test func textSetsAUTF8BodyAndContentType() {
        let response = LoopbackServer.Response.text("héllo", status: 418)

        #expect(response.status == 418)
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.body == Data("héllo".utf8))
    }

    @Test func redirectSetsLocationAndStatus() throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/next"))

        #expect(LoopbackServer.Response.redirect(to: url).status == 302)
        #expect(LoopbackServer.Response.redirect(to: url).header("Location") == "http://127.0.0.1:1/next")
        #expect(LoopbackServer.Response.redirect(to: "/login", status: 303).header("location") == "/login")
        #expect(LoopbackServer.Response.redirect(to: "/login", status: 303).status == 303)
    }

    @Test func modifiersSetBehaviourWithoutTouchingTheRest() {
        let base = LoopbackServer.Response.text("x")
        let tuned =
            base
            .delayed(by: .milliseconds(5))
            .throttled(bytesPerPeriod: 2, period: .milliseconds(1))
            .withFault(.closeMidBody)

        #expect(tuned.delay == .milliseconds(5))
        #expect(tuned.throttle == LoopbackServer.Throttle(bytesPerPeriod: 2, period: .milliseconds(1)))
        #expect(tuned.fault == .closeMidBody)
        #expect(tuned.body == base.body)
        #expect(tuned.headers == base.headers)
        #expect(base.fault == .none)
        #expect(base.delay == .zero)
        #expect(base.throttle == nil)
    }

    @Test func headerHelpersAddRepeatedFieldsAndReplaceCaseInsensitively() {
        let response = LoopbackServer.Response.status(200)
            .addingHeader("Set-Cookie", "a=1")
            .addingHeader("Set-Cookie", "b=2")
            .addingHeader("X-Mode", "old")
            .settingHeader("x-mode", "new")

        #expect(
            response.headers == [
                .init("Set-Cookie", "a=1"),
                .init("Set-Cookie", "b=2"),
                .init("x-mode", "new"),
            ])
        #expect(response.header("X-MODE") == "new")
    }

    @Test func recordedRequestSplitsTheTargetIntoPathAndQuery() {
        let request = LoopbackServer.RecordedRequest(method: "GET", target: "/p/a%2Fb?x=1&y=%E2%9C%93&z=&w")
        let bare = LoopbackServer.RecordedRequest(method: "GET", target: "/bare")

        #expect(request.path == "/p/a%2Fb")
        #expect(request.query == "x=1&y=%E2%9C%93&z=&w")
        #expect(
            request.queryItems == [
                URLQueryItem(name: "x", value: "1"),
                URLQueryItem(name: "y", value: "✓"),
                URLQueryItem(name: "z", value: ""),
                URLQueryItem(name: "w", value: nil),
            ])
        #expect(bare.query == nil)
        #expect(bare.queryItems.isEmpty)
    }

    @Test func recordedRequestKeepsMalformedEscapesRaw() {
        let request = LoopbackServer.RecordedRequest(method: "GET", target: "/?bad=%zz|{}")

        #expect(request.queryItems == [URLQueryItem(name: "bad", value: "%zz|{}")])
    }
}
