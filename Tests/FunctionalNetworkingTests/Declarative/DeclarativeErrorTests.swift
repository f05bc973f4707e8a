import Foundation
import FunctionalNetworking
import Testing

@Suite("DeclarativeError")
struct DeclarativeErrorTests {
    struct Failing: Encodable {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "the value refuses to be encoded" }
        }

        func encode(to encoder: any Encoder) throws {
            throw Refused()
        }
    }

    @Test func theDescriptionSaysWhichTypeAndWhy() {
        let error = DeclarativeError.bodyNotEncodable(type: "Reading", reason: "the Double value at \"celsius\" is invalid.")
        #expect(
            error.description
                == "The request body of type Reading cannot be encoded as JSON: the Double value at \"celsius\" is invalid.")
    }

    @Test func anInvalidValueAtTheTopLevelSaysSo() {
        #expect {
            _ = try Endpoint(baseURL: URL(string: "https://example.com")!, path: "/").body(json: Double.nan)
        } throws: { error in
            guard case DeclarativeError.bodyNotEncodable(let type, let reason) = error else { return false }
            return type == "Double" && reason.contains("the top level")
        }
    }

    @Test func anErrorThrownByAValuesOwnEncodeIsReportedInItsOwnWords() {
        #expect {
            try Endpoint(baseURL: URL(string: "https://example.com")!, path: "/").body(json: Failing())
        } throws: { error in
            error as? DeclarativeError
                == .bodyNotEncodable(type: "Failing", reason: "the value refuses to be encoded")
        }
    }
}
