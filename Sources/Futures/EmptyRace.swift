/// The error of ``Future/race(_:)`` given no futures: with no entrants, nothing could ever win.
public struct EmptyRace: Error, Sendable, Equatable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// A sentence saying what happened.
    public var description: String {
        "Future.race was given no futures; a race needs at least one entrant to complete."
    }
}
