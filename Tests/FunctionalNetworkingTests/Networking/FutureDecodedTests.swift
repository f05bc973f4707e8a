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
        #expect(failure.description == #"Could not decode Catalogue: the key "name" is missing at items[2]."#)
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

    @Test func decodedAsNamesTheTypeWithTheDefaultDecoder() throws {
        let future = Future(value: Data(#"{"id":3,"name":"Lamp"}"#.utf8)).decoded(as: Product.self)
        #expect(try future.result?.get() == Product(id: 3, name: "Lamp"))
    }

    @Test func decodedAndDecodedAsGiveTheSameWordsForTheSameBody() throws {
        let body = Data(#"{"id":"seven"}"#.utf8)
        let inferred: Future<Product> = Future(value: body).decoded()
        let named = Future(value: body).decoded(as: Product.self, using: JSONDecoder())
        let first = try #require(inferred.result?.failure as? DecodingFailure)
        let second = try #require(named.result?.failure as? DecodingFailure)
        #expect(first.description == second.description)
    }

    @Test func aFailedResponseStaysAnHTTPStatusErrorWhoseBodyDecodesIntoTheErrorModel() throws {
        let status = HTTPStatusError(status: 422, body: Data(#"{"message":"Name is required"}"#.utf8))
        let future: Future<Product> = Future<Data>(error: status).decoded()
        let error = try #require(future.result?.failure as? HTTPStatusError)
        #expect(try error.decodedBody(as: Problem.self) == Problem(message: "Name is required"))
    }
}
