import Futures
import Testing

@Suite("combine")
struct CombineTests {
    @Test func combineFixesTheOnlyArgument() {
        let calls = Recorder<Int>()
        let loadSeven = combine(7) { (id: Int) -> Future<String> in
            calls.append(id)
            return Future(value: "product \(id)")
        }
        #expect(calls.values.isEmpty)  // nothing runs until the function is called
        #expect(loadSeven().result?.success == "product 7")
        #expect(loadSeven().result?.success == "product 7")
        #expect(calls.values == [7, 7])
    }

    @Test func combineFixesTheFirstOfTwoArguments() {
        let greet = combine("Hello") { (greeting: String, name: String) in "\(greeting), \(name)" }
        #expect(greet("Ada") == "Hello, Ada")
    }
}
