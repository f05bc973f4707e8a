import Foundation

/// An `application/x-www-form-urlencoded` body, encoded as the WHATWG URL standard says and as
/// browsers send a form: names and values in order, joined by `=` and `&`, a space written `+`,
/// and every byte of UTF-8 other than `A–Z a–z 0–9 * - . _` percent-encoded.
///
/// ```swift
/// let form: FormBody = ["grant_type": "password", "username": "ada", "password": "s3cret & more"]
/// let signIn = Endpoint(method: .post, baseURL: auth, path: "/token").with(body: form)
/// // grant_type=password&username=ada&password=s3cret+%26+more
/// ```
public struct FormBody: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The fields, in the order they are sent. A name may repeat.
    public var fields: [Field]

    /// One name and value.
    public struct Field: Sendable, Hashable {
        /// The field's name.
        public var name: String
        /// The field's value.
        public var value: String

        /// A field named `name` with `value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A body of `fields`, in order.
    public init(_ fields: [Field]) {
        self.fields = fields
    }

    /// A body of the literal's names and values, in the order written.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field($0.0, $0.1) }
    }

    /// The `Content-Type` header value.
    public static let contentType = "application/x-www-form-urlencoded"

    /// The encoded body.
    public var encoded: Data {
        Data(fields.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&").utf8)
    }

    private static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
