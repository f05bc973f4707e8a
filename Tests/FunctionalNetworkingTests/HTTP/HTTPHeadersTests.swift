import FunctionalNetworking
import Testing

@Suite("HTTPHeaders")
struct HTTPHeadersTests {
    @Test func looksUpNamesIgnoringCase() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Accept"] == nil)
        #expect(headers.contains("CoNtEnT-TyPe"))
        #expect(!headers.contains("Accept"))
    }

    @Test func subscriptReadsTheFirstOfRepeatedFields() {
        let headers = HTTPHeaders([("Accept", "a"), ("accept", "b")])
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "Accept") == ["a", "b"])
    }

    @Test func settingANameReplacesEveryFieldOfItInPlaceOfTheFirst() {
        var headers = HTTPHeaders([("Accept", "a"), ("X-One", "1"), ("ACCEPT", "b"), ("X-Two", "2")])
        headers["accept"] = "c"
        #expect(headers.map(\.name) == ["accept", "X-One", "X-Two"])
        #expect(headers.map(\.value) == ["c", "1", "2"])
    }

    @Test func settingANewNameAppendsIt() {
        var headers: HTTPHeaders = ["A": "1"]
        headers["B"] = "2"
        #expect(headers.map(\.name) == ["A", "B"])
    }

    @Test func settingNilRemovesEveryFieldOfTheName() {
        var headers = HTTPHeaders([("A", "1"), ("a", "2"), ("B", "3")])
        headers["A"] = nil
        #expect(headers.count == 1)
        #expect(headers["a"] == nil)
        #expect(headers["b"] == "3")
    }

    @Test func addKeepsRepeatsInOrder() {
        var headers = HTTPHeaders()
        headers.add(name: "Accept-Language", value: "en")
        headers.add(name: "accept-language", value: "fr;q=0.5")
        #expect(headers.count == 2)
        #expect(headers.values(for: "ACCEPT-LANGUAGE") == ["en", "fr;q=0.5"])
        #expect(headers.values(for: "Missing").isEmpty)
    }

    @Test func iterationKeepsOrderAndSpelling() {
        let headers: HTTPHeaders = ["Z-Last": "z", "a-first": "a", "M": "m"]
        let fields = Array(headers)
        #expect(fields.map(\.name) == ["Z-Last", "a-first", "M"])
        #expect(fields.map(\.value) == ["z", "a", "m"])
    }

    @Test func countsAndReportsEmptiness() {
        #expect(HTTPHeaders().isEmpty)
        let empty: HTTPHeaders = [:]
        #expect(empty.isEmpty && empty.count == 0)
        #expect(HTTPHeaders([("A", "1"), ("a", "2")]).count == 2)
    }

    @Test func equalityIgnoresNameCaseAndTheOrderOfDifferentNames() {
        let one: HTTPHeaders = ["Accept": "a", "X": "1"]
        let two: HTTPHeaders = ["x": "1", "ACCEPT": "a"]
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(Set([one, two]).count == 1)
    }

    @Test func equalityKeepsTheOrderOfValuesOfOneName() {
        let one = HTTPHeaders([("Accept", "a"), ("Accept", "b")])
        let two = HTTPHeaders([("Accept", "b"), ("Accept", "a")])
        #expect(one != two)
        #expect(one != HTTPHeaders([("Accept", "a")]))
        #expect(HTTPHeaders([("A", "1")]) != HTTPHeaders([("A", "2")]))
    }

    @Test func mergingLetsLaterFieldsWinByName() {
        let defaults = HTTPHeaders([("Accept", "json"), ("User-Agent", "Shop/1"), ("accept", "xml")])
        let merged = defaults.merging(HTTPHeaders([("ACCEPT", "html"), ("X-New", "1")]))
        #expect(merged.map(\.name) == ["User-Agent", "ACCEPT", "X-New"])
        #expect(merged.values(for: "accept") == ["html"])
        #expect(merged["user-agent"] == "Shop/1")
    }

    @Test func dictionaryJoinsRepeatedValuesUnderTheFirstSpelling() {
        let headers = HTTPHeaders([("Accept", "a"), ("X", "1"), ("ACCEPT", "b")])
        #expect(headers.dictionary == ["Accept": "a, b", "X": "1"])
    }

    @Test func nonASCIINamesCompareExactlyBeyondASCIICase() {
        let headers: HTTPHeaders = ["X-Ünï": "1"]
        #expect(headers["x-Ünï"] == "1")
        #expect(headers["x-ünï"] == nil)
    }
}
