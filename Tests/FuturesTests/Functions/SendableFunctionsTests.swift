import Futures
import Testing

/// Overload resolution: Sendable inputs give Sendable functions; others still compose.
@Suite("Sendable overloads of combine, chain and compose")
struct SendableFunctionsTests {
    struct Service: Sendable {
        let load: @Sendable () -> Future<String>
        let describe: @Sendable (Int) -> Future<String>
    }

    static func endpoint(_ id: Int) -> String { "/products/\(id)" }
    static func fetch(_ path: String) -> Future<String> { Future(value: "body of \(path)") }

    @Test func sendableInputsGiveFunctionsASendableServiceCanStore() {
        let describe = chain(Self.endpoint, to: Self.fetch)
        let service = Service(load: combine(7, with: describe), describe: describe)
        #expect(service.load().result?.success == "body of /products/7")
        #expect(service.describe(8).result?.success == "body of /products/8")
    }

    @Test func sendableChainsWorkInsideCombinators() {
        let describe = chain(Self.endpoint, to: Self.fetch)
        let length = chain(describe, to: { (text: String) in Future(value: text.count) })
        let result = Future(value: 7).flatMap(length)
        #expect(result.result?.success == "body of /products/7".count)
    }

    @Test func nonSendableInputsStillCompose() {
        var prefix = "/items/"  // a captured var makes the closure non-Sendable
        prefix += ""
        let endpoint: (Int) -> String = { [prefix] in prefix + String($0) }
        let counter = NonSendableCounter()
        let fetch: (String) -> Future<String> = { path in
            counter.count += 1
            return Future(value: path)
        }
        let load = chain(endpoint, to: fetch)
        #expect(load(3).result?.success == "/items/3")
        #expect(combine(4, with: load)().result?.success == "/items/4")
        #expect(counter.count == 2)
    }
}

final class NonSendableCounter {
    var count = 0
}
