import Foundation
import FunctionalNetworkingTesting

/// The tour's shop: a LoopbackServer on 127.0.0.1 serving a tiny JSON API.
///
/// - `GET /products` → the catalogue
/// - `GET /products/<id>` → one product, or 404
/// - `POST /login` with `{"user":…,"password":…}` → `{"token":"…"}`
/// - `GET /account` → the account, with `Authorization: Bearer <token>`; 401 without
enum ShopServer {
    static let token = "tour-token-42"

    static let catalogue: [(id: Int, name: String, price: Int)] = [
        (1, "iPhone", 999), (7, "iPad Pro", 1099), (8, "Apple Pencil", 129),
    ]

    static func start() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch (request.method, request.path) {
            case ("GET", "/products"):
                let items = catalogue.map { #"{"id":\#($0.id),"name":"\#($0.name)","price":\#($0.price)}"# }
                return .json("[" + items.joined(separator: ",") + "]")
            case ("GET", let path) where path.hasPrefix("/products/"):
                guard let id = Int(path.dropFirst("/products/".count)),
                    let product = catalogue.first(where: { $0.id == id })
                else {
                    return .json(#"{"message":"No product with that id"}"#, status: 404)
                }
                return .json(#"{"id":\#(product.id),"name":"\#(product.name)","price":\#(product.price)}"#)
            case ("GET", "/deals"):
                // Busy every other time: the tour's retry composer meets a 503 with Retry-After.
                return !request.sequenceNumber.isMultiple(of: 2)
                    ? .text("busy", status: 503, headers: [.init("Retry-After", "0")])
                    : .json(#"[{"id":8,"name":"Apple Pencil","price":99}]"#)
            case ("POST", "/login"):
                return .json(#"{"token":"\#(token)"}"#)
            case ("GET", "/account"):
                guard request.header("Authorization") == "Bearer \(token)" else {
                    return .json(#"{"message":"Sign in first"}"#, status: 401)
                }
                return .json(#"{"name":"Ada","orders":3}"#)
            default:
                return .json(#"{"message":"Not found"}"#, status: 404)
            }
        }
    }
}

/// The tour's models.
struct Product: Codable, Sendable, CustomStringConvertible {
    typealias ID = Int
    let id: ID
    let name: String
    let price: Int
    var description: String { "\(name) ($\(price))" }
}

struct Account: Codable, Sendable {
    let name: String
    let orders: Int
}

struct Login: Codable, Sendable {
    let token: String
}
