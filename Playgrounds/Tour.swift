import Foundation

/// One page of the tour: a name to run it by, a title, and the code that shows something.
struct Page: Sendable {
    let name: String
    let title: String
    let run: @Sendable () async throws -> Void
}

/// Runs the pages of the tour in order, or the one named on the command line.
struct Tour {
    let pages: [Page]

    func run(arguments: [String]) async -> Int32 {
        let selected: [Page]
        if let name = arguments.first {
            guard let page = pages.first(where: { $0.name == name }) else {
                print("There is no page called \"\(name)\". The pages are:")
                for page in pages {
                    print("  \(page.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(page.title)")
                }
                return 64
            }
            selected = [page]
        } else {
            selected = pages
        }
        for (number, page) in selected.enumerated() {
            print("\n━━ \(number + 1). \(page.title) ━━")
            do {
                try await page.run()
            } catch {
                print("✗ The page stopped with an error: \(error)")
                return 1
            }
        }
        print("\nDone: \(selected.count) page(s).")
        return 0
    }
}
