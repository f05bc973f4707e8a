// The document of benchmark 9: a page of 100 products, as a shop's API would send it.

import Foundation

/// A product as a shop's API describes it.
struct Product: Decodable, Sendable {
    let id: Int
    let sku: String
    let name: String
    let summary: String
    let price: Double
    let currency: String
    let inStock: Bool
    let rating: Double
    let tags: [String]
}

/// The JSON array of the 100 products that benchmark 9 decodes.
enum Catalogue {
    /// The number of products in ``json``.
    static let count = 100

    /// The document, made once (about 22 kB): ids 1…100, varied names, prices and tags.
    static let json: Data = {
        let kinds = ["Laptop", "Phone", "Tablet", "Headphones", "Monitor", "Keyboard", "Camera", "Speaker"]
        let tags = ["new", "sale", "refurbished", "bestseller", "eco", "bundle"]
        let products = (1...count).map { id in
            let kind = kinds[id % kinds.count]
            let price = Double(id * 1_337 % 200_000) / 100 + 9.99
            let productTags = (0..<(1 + id % 3)).map { "\"\(tags[(id + $0) % tags.count])\"" }.joined(separator: ",")
            return """
                {"id":\(id),"sku":"SKU-\(100_000 + id)","name":"\(kind) \(id) Pro","summary":"The \(kind.lowercased()) \
                number \(id), with a two-year warranty and free delivery.","price":\(price),"currency":"EUR",\
                "inStock":\(id % 5 != 0),"rating":\(Double(id % 50) / 10),"tags":[\(productTags)]}
                """
        }
        return Data("[\(products.joined(separator: ","))]".utf8)
    }()
}
