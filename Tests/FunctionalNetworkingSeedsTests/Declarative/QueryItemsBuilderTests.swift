import Foundation
import FunctionalNetworking
import FunctionalNetworkingSeeds
import Testing

@Suite("QueryItemsBuilder")
struct QueryItemsBuilderTests {
    enum Sort: String, CustomStringConvertible {
        case newest, cheapest
        var description: String { rawValue }
    }

    private func items(@QueryItemsBuilder _ content: () -> [URLQueryItem]) -> [URLQueryItem] {
        content()
    }

    @Test func valuesAreTheDescriptionsOfStringsNumbersBoolsAndOtherValues() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let built = items {
            Query("q", "café & crème")
            Query("page", 2)
            Query("inStock", true)
            Query("maxPrice", 9.5)
            Query("session", id)
            Query("sort", Sort.cheapest)
        }
        #expect(
            built == [
                URLQueryItem(name: "q", value: "café & crème"),
                URLQueryItem(name: "page", value: "2"),
                URLQueryItem(name: "inStock", value: "true"),
                URLQueryItem(name: "maxPrice", value: "9.5"),
                URLQueryItem(name: "session", value: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                URLQueryItem(name: "sort", value: "cheapest"),
            ])
    }

    @Test func anOptionalValueThatIsNilLeavesTheItemOut() {
        let category: String? = nil
        let page: Int? = 3
        let built = items {
            Query("category", category)
            Query("page", page)
        }
        #expect(built == [URLQueryItem(name: "page", value: "3")])
        #expect(Query("category", category) == nil)
    }

    @Test func aNameAloneIsAFlagSentWithoutAnEqualsSign() throws {
        let built = items { Query("verbose") }
        #expect(built == [URLQueryItem(name: "verbose", value: nil)])
        let endpoint = Endpoint(baseURL: URL(string: "https://example.com")!, path: "/search").queryItems {
            Query("verbose")
            Query("q", "a")
        }
        #expect(endpoint.url?.absoluteString == "https://example.com/search?verbose&q=a")
    }

    @Test func ifIfLetAndIfElseAddItemsOnlyFromTheBranchTaken() {
        func build(onlyInStock: Bool, sort: Sort?, compact: Bool) -> [URLQueryItem] {
            items {
                if onlyInStock {
                    Query("inStock", true)
                }
                if let sort {
                    Query("sort", sort)
                }
                if compact {
                    Query("fields", "id,name")
                } else {
                    Query("fields", "all")
                }
            }
        }
        #expect(build(onlyInStock: false, sort: nil, compact: true) == [URLQueryItem(name: "fields", value: "id,name")])
        #expect(
            build(onlyInStock: true, sort: .newest, compact: false) == [
                URLQueryItem(name: "inStock", value: "true"),
                URLQueryItem(name: "sort", value: "newest"),
                URLQueryItem(name: "fields", value: "all"),
            ])
    }

    @Test func forAndSwitchAddItemsInOrderAndNamesMayRepeat() {
        let tags = ["red", "blue"]
        let sort = Sort.newest
        let built = items {
            for tag in tags {
                Query("tag", tag)
            }
            switch sort {
            case .newest: Query("order", "desc")
            case .cheapest: Query("order", "asc")
            }
            URLQueryItem(name: "raw", value: nil)
        }
        #expect(
            built == [
                URLQueryItem(name: "tag", value: "red"),
                URLQueryItem(name: "tag", value: "blue"),
                URLQueryItem(name: "order", value: "desc"),
                URLQueryItem(name: "raw", value: nil),
            ])
    }

    @Test func builtItemsArePercentEncodedStrictlyInTheURL() throws {
        let endpoint = Endpoint(baseURL: URL(string: "https://example.com")!, path: "/search").queryItems {
            Query("q", "a+b & c=d")
            Query("é", "✓")
        }
        let url = try #require(endpoint.url)
        #expect(url.absoluteString == "https://example.com/search?q=a%2Bb%20%26%20c%3Dd&%C3%A9=%E2%9C%93")
        let decoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(decoded == [URLQueryItem(name: "q", value: "a+b & c=d"), URLQueryItem(name: "é", value: "✓")])
    }
}
