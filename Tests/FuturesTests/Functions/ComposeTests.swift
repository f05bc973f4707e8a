import Futures
import Testing

@Suite("compose")
struct ComposeTests {
    struct Request: Equatable { var headers: [String: String] = [:] }

    func tokenRequestModifier(_ token: String) -> (Request) -> Request {
        { request in
            var request = request
            request.headers["Authorization"] = "Bearer \(token)"
            return request
        }
    }

    @Test func composeRunsTheFirstFunctionThenTheSecond() {
        let networking: (Request) -> Future<String> = { Future(value: $0.headers["Authorization"] ?? "none") }
        let authorizedNetworking = compose(tokenRequestModifier("t0k3n"), networking)
        #expect(authorizedNetworking(Request()).result?.success == "Bearer t0k3n")
    }

    @Test func composeIsAssociative() {
        let f: (Int) -> Int = { $0 + 1 }
        let g: (Int) -> Int = { $0 * 3 }
        let h: (Int) -> String = { "\($0)" }
        #expect(compose(compose(f, g), h)(2) == compose(f, compose(g, h))(2))
    }
}
