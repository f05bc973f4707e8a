import FunctionalNetworkingSeeds
import Futures
import Testing

// The code of "Building networking layer using functions" (seed 003), as written: its
// `tokenRequestModifier` composed with a networking function.

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

    @Test func composeTakesNonSendableFunctions() {
        var prefix = "/items/"  // a captured var makes the closure non-Sendable
        prefix += ""
        let endpoint: (Int) -> String = { [prefix] in prefix + String($0) }
        #expect(compose(endpoint, { $0.count })(12) == 9)
    }

    @Test func composeOfSendableFunctionsIsSendable() {
        let composed: @Sendable (Int) -> String = compose({ @Sendable (id: Int) in "/products/\(id)" }, { @Sendable path in path })
        #expect(composed(7) == "/products/7")
    }
}
