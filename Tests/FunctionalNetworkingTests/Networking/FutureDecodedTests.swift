import Foundation
import FunctionalNetworking
import Futures
import Testing

@Suite("Future+Decoded")
struct FutureDecodedTests {
    struct Catalogue: Decodable, Sendable { let items: [Product] }
    struct Problem: Decodable, Sendable, Equatable { let message: String }

    @Test func decodedInfersTheTypeFromTheContext() throws {
        let future: Future<Product> = Future(value: Data(#"{"id":7,"name":"iPad Pro"}"#.utf8)).decoded()
        #expect(try future.result?.get() == Product(id: 7, name: "iPad Pro"))
    }

    @Test func decodedAsUsesTheGivenDecoder() throws {
        struct Item: Decodable, Sendable { let displayName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let future = Future(value: Data(#"{"display_name":"Pencil"}"#.utf8)).decoded(as: Item.self, using: decoder)
        #expect(try future.result?.get().displayName == "Pencil")
    }

    @Test func aMissingKeyNamesTheTypeAndTheCodingPath() throws {
        let json = #"{"items":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3}]}"#
        let future: Future<Catalogue> = Future(value: Data(json.utf8)).decoded()
        let failure = try #require(future.result?.failure as? DecodingFailure)
        #expect(failure.typeName == "Catalogue")
        #expect(failure.codingPath == "items[2].name")
        #expect(failure.description == #"Could not decode Catalogue: the key "name" is missing at items[2].name."#)
    }

    @Test func aTypeMismatchNamesThePath() throws {
        let future: Future<Product> = Future(value: Data(#"{"id":"seven","name":"x"}"#.utf8)).decoded()
        let failure = try #require(future.result?.failure as? DecodingFailure)
        #expect(failure.codingPath == "id")
        #expect(failure.description.contains("Could not decode Product"))
    }

    @Test func malformedJSONSaysSo() throws {
        let future: Future<Product> = Future(value: Data("{not json".utf8)).decoded()
        let failure = try #require(future.result?.failure as? DecodingFailure)
        #expect(failure.description.contains("not valid JSON"))
        #expect(failure.bodyPreview == "{not json")
    }

    @Test func anEmptyBodySaysItIsEmpty() throws {
        let future: Future<Product> = Future(value: Data()).decoded()
        let failure = try #require(future.result?.failure as? DecodingFailure)
        #expect(failure.description.contains("the body is empty"))
    }

    @Test func aFailedResponseDecodesIntoTheErrorModel() throws {
        let status = HTTPStatusError(status: 422, body: Data(#"{"message":"Name is required"}"#.utf8))
        let future = Future<Data>(error: status).decoded(as: Product.self, errorModel: Problem.self)
        let error = try #require(future.result?.failure as? ServerError<Problem>)
        #expect(error.model == Problem(message: "Name is required"))
        #expect(error.status == 422)
        #expect(error.description.contains("422"))
    }

    @Test func aFailedResponseThatIsNotTheErrorModelKeepsItsStatusError() throws {
        let status = HTTPStatusError(status: 502, body: Data("<html>bad gateway</html>".utf8))
        let future = Future<Data>(error: status).decoded(as: Product.self, errorModel: Problem.self)
        #expect((future.result?.failure as? HTTPStatusError)?.status == 502)
    }

    @Test func aSuccessfulResponseWithAnErrorModelDecodesTheValue() throws {
        let future = Future(value: Data(#"{"id":1,"name":"a"}"#.utf8)).decoded(as: Product.self, errorModel: Problem.self)
        #expect(try future.result?.get() == Product(id: 1, name: "a"))
    }
}
