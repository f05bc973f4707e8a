import Foundation

// The tour. `swift run Playgrounds` runs every page in order; `swift run Playgrounds <page>`
// runs one; an unknown page name lists the pages.
let tour = Tour(pages: [futuresPage, loadersPage, composablePage, composersPage, asyncPage, transfersPage, streamsPage])
exit(await tour.run(arguments: Array(CommandLine.arguments.dropFirst())))
