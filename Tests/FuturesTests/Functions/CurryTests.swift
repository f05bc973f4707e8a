import Futures
import Testing

@Suite("curry")
struct CurryTests {
    @Test func curryTakesTheArgumentsOneAtATime() {
        let add = curry { (a: Int, b: Int) in a + b }
        let addTen = add(10)
        #expect(addTen(5) == 15)
    }

    @Test func curryOfThreeArguments() {
        let join = curry { (a: String, b: String, c: String) in a + b + c }
        #expect(join("a")("b")("c") == "abc")
    }

    @Test func uncurryUndoesCurry() {
        let multiply: (Int, Int) -> Int = { $0 * $1 }
        #expect(uncurry(curry(multiply))(6, 7) == 42)
    }

    @Test func curriedFunctionsPartiallyApplyByCalling() {
        let load = curry { (base: String, id: Int) in Future(value: "\(base)/\(id)") }
        let loadFromShop = load("shop")
        #expect(loadFromShop(7).result?.success == "shop/7")
    }
}
