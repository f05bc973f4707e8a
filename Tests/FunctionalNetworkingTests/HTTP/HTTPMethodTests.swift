import FunctionalNetworking
import Testing

@Suite("HTTPMethod")
struct HTTPMethodTests {
    @Test func namesAreUpperCased() {
        #expect(HTTPMethod(rawValue: "get") == .get)
        let custom: HTTPMethod = "purge"
        #expect(custom.rawValue == "PURGE")
        #expect(custom.description == "PURGE")
    }

    @Test func idempotentMethodsAreTheOnesRFC9110Names() {
        let idempotent: [HTTPMethod] = [.get, .head, .options, .trace, .put, .delete]
        let others: [HTTPMethod] = [.post, .patch, .connect, "PURGE"]
        #expect(idempotent.allSatisfy { $0.isIdempotent })
        #expect(others.allSatisfy { !$0.isIdempotent })
    }

    @Test func safeMethodsOnlyRead() {
        #expect([HTTPMethod.get, .head, .options, .trace].allSatisfy { $0.isSafe })
        #expect([HTTPMethod.put, .delete, .post, .patch].allSatisfy { !$0.isSafe })
    }
}
