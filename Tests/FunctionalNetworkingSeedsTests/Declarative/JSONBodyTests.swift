import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

@Suite("JSONBody")
struct JSONBodyTests {
    struct Author: Encodable {
        let name: String
        let born: Int
    }

    @Test func keysWithValuesAndNestedObjectsGiveTheJSONObjectWritten() throws {
        let data = try JSONBody {
            Key("int", 42)
            Key("double", 2.5)
            Key("bool", false)
            Key("string", "Zürich \"quoted\"\n")
            Key("array", ["a", "b"])
            Key("model", Author(name: "Ada", born: 1815))
            Key("nested") {
                Key("x", 1)
                Key("deeper") {
                    Key("y", [1, 2, 3])
                }
            }
            Key("empty") {}
        }.encoded()
        let expected: JSONValue = [
            "int": 42, "double": 2.5, "bool": false, "string": "Zürich \"quoted\"\n",
            "array": ["a", "b"], "model": ["name": "Ada", "born": 1815],
            "nested": ["x": 1, "deeper": ["y": [1, 2, 3]]],
            "empty": [:],
        ]
        #expect(try JSONValue.decoding(data) == expected)
    }

    @Test func anEmptyBodyIsAnEmptyObject() throws {
        #expect(try JSONValue.decoding(JSONBody {}.encoded()) == [:])
    }

    @Test func ifIfLetIfElseSwitchAndForChooseTheKeys() throws {
        func body(note: String?, draft: Bool, extras: [String: Int], level: Int) throws -> JSONValue {
            try JSONValue.decoding(
                JSONBody {
                    Key("title", "Hi")
                    if let note {
                        Key("note", note)
                    }
                    if draft {
                        Key("status", "draft")
                    } else {
                        Key("published", true)
                    }
                    for (name, value) in extras.sorted(by: { $0.key < $1.key }) {
                        Key(name, value)
                    }
                    switch level {
                    case 0: Key("level", "none")
                    default: Key("level", "some")
                    }
                }.encoded())
        }
        #expect(
            try body(note: nil, draft: true, extras: [:], level: 0) == [
                "title": "Hi", "status": "draft", "level": "none",
            ])
        #expect(
            try body(note: "n", draft: false, extras: ["a": 1, "b": 2], level: 3) == [
                "title": "Hi", "note": "n", "published": true, "a": 1, "b": 2, "level": "some",
            ])
    }

    @Test func anOptionalValueThatIsNilIsEncodedAsNull() throws {
        let note: String? = nil
        let data = try JSONBody { Key("note", note) }.encoded()
        #expect(try JSONValue.decoding(data) == ["note": nil])
    }

    @Test func aKeyWrittenTwiceKeepsTheLaterValueInTheEarlierPlace() throws {
        let body = JSONBody {
            Key("a", 1)
            Key("b", 2)
            Key("a", 3)
        }
        let text = String(decoding: try body.encoded(using: JSONEncoder()), as: UTF8.self)
        #expect(try JSONValue.decoding(Data(text.utf8)) == ["a": 3, "b": 2])
        #expect(text.components(separatedBy: "\"a\"").count == 2)
    }

    @Test func valuesUseTheStrategiesOfTheEncoderGiven() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan"
        )
        let data = try JSONBody {
            Key("at", Date(timeIntervalSince1970: 86_400))
            Key("reading", Double.nan)
        }.encoded(using: encoder)
        #expect(try JSONValue.decoding(data) == ["at": 86_400, "reading": "nan"])
    }

    @Test func aJSONBodyIsAnEncodableValueThatNestsInOtherValues() throws {
        let items = [JSONBody { Key("id", 1) }, JSONBody { Key("id", 2) }]
        let data = try JSONBody { Key("items", items) }.encoded()
        #expect(try JSONValue.decoding(data) == ["items": [["id": 1], ["id": 2]]])
    }

    @Test func aValueTheEncoderRefusesIsAClearErrorNamingTheValueAndWhere() {
        #expect {
            try JSONBody {
                Key("ok", 1)
                Key("nested") {
                    Key("x", Double.nan)
                }
            }.encoded()
        } throws: { error in
            guard case BodyError.notEncodable(let type, let reason) = error else { return false }
            return type == "JSONBody" && reason.contains("Double") && reason.contains(#""nested.x""#)
        }
    }

    @Test func anUnencodableValueInAnArrayNamesItsIndex() {
        #expect {
            try JSONBody { Key("readings", [1.0, .infinity]) }.encoded()
        } throws: { error in
            guard case BodyError.notEncodable(_, let reason) = error else { return false }
            return reason.contains(#""readings[1]""#)
        }
    }
}

extension JSONBody {
    /// The bytes that `Endpoint.body { }` sends for this object, or the error it throws.
    fileprivate func encoded(using encoder: JSONEncoder = JSONEncoder()) throws(BodyError) -> Data {
        let endpoint = Endpoint(baseURL: URL(string: "https://example.com")!)
        return try endpoint.with(jsonBody: self, encoder: encoder).body ?? Data()
    }
}
