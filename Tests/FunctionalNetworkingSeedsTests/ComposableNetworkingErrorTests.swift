import Foundation
import FunctionalNetworkingSeeds
import Testing

@Suite("ComposableNetworkingError")
struct ComposableNetworkingErrorTests {
    @Test func noBearerTokenSaysWhatToDo() {
        #expect(ComposableNetworkingError.noBearerToken.description.contains("sign in"))
    }

    @Test func noBearerTokenEqualsItself() {
        #expect(ComposableNetworkingError.noBearerToken == .noBearerToken)
    }

    @Test func localizedDescriptionSaysTheSameWords() {
        let error: any Error = ComposableNetworkingError.noBearerToken
        #expect(error.localizedDescription == ComposableNetworkingError.noBearerToken.description)
    }
}
