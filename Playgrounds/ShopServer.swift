import Foundation
import FunctionalNetworking
import FunctionalNetworkingTesting

/// The tour's shop: a LoopbackServer on 127.0.0.1 serving a tiny JSON API.
///
/// - `GET /products` → the catalogue
/// - `GET /products/<id>` → one product, or 404
/// - `POST /login` with `{"user":…,"password":…}` → `{"token":"…"}`
/// - `GET /account` → the account, with `Authorization: Bearer <token>`; 401 without
/// - `GET /orders/<id>/log` → the order's log, streamed a line at a time
/// - `GET /prices/7/live` → Server-Sent Events of product 7's price: the first connection is cut
///   in the middle of its third event, the second (`Last-Event-ID: 2`) ends after two more, and
///   the third (`Last-Event-ID: 4`) gets 204, no more events
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
            case ("GET", let path) where path.hasPrefix("/orders/") && path.hasSuffix("/log"):
                let order = path.dropFirst("/orders/".count).dropLast("/log".count)
                return .chunks(
                    ["Order \(order) received\n", "Packed\n", "Handed to the courier\n", "Delivered\n"], every: .milliseconds(200))
            case ("GET", "/prices/7/live"):
                return livePrices(after: request.header("Last-Event-ID"))
            default:
                return .json(#"{"message":"Not found"}"#, status: 404)
            }
        }
    }
}

extension ShopServer {
    /// The live price feed of product 7, from the event after `lastEventID`: the server asks
    /// clients to reconnect after 300 ms (`retry:`), and cuts its first connection short.
    static func livePrices(after lastEventID: String?) -> LoopbackServer.Response {
        func price(_ amount: Int, id: String) -> ServerSentEvent {
            ServerSentEvent(event: "price", data: #"{"id":7,"name":"iPad Pro","price":\#(amount)}"#, id: id)
        }
        switch lastEventID {
        case nil:
            var first = price(1099, id: "1")
            first.retry = .milliseconds(300)
            return .eventStream([
                .event(first), .pause(.milliseconds(150)), .event(price(1049, id: "2")), .pause(.milliseconds(150)),
                .eventCutShort(price(999, id: "3")),
            ])
        case "2":
            return .eventStream([.event(price(999, id: "3")), .pause(.milliseconds(150)), .event(price(949, id: "4"))])
        default:
            return .status(204)
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
