// The tour. `swift run Playgrounds` runs every page in order; `swift run Playgrounds <page>`
// runs one.
let tour = Tour(pages: [FuturesPage.page])
await tour.run(arguments: Array(CommandLine.arguments.dropFirst()))
