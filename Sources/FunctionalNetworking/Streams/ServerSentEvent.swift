import Foundation

/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML
/// standard's event-stream interpretation dispatches it.
///
/// ```swift
/// let event = ServerSentEvent(event: "update", data: "{\"price\": 42}", id: "7")
/// ```
///
/// - Note: An event is a plain `Sendable` value; two events are equal when every field is.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type: the last `event:` field of the event, or `"message"` when it had none.
    public var event: String
    /// The event's data: its `data:` lines joined with a line feed (`"\n"`), without a final one.
    public var data: String
    /// The stream's last event ID when the event was dispatched, or `nil` when it is empty.
    ///
    /// The ID persists from one event to the next until an `id:` field changes it, so an event
    /// without an `id:` field carries the ID of an earlier one. Send it back as `Last-Event-ID`
    /// when reconnecting.
    public var id: String?
    /// The reconnection delay the server asked for with a `retry:` field in this event, or `nil`.
    public var retry: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type. Defaults to `"message"`.
    ///   - data: The data; a line feed in it stands for a new `data:` line.
    ///   - id: The last event ID, or `nil` for none.
    ///   - retry: The reconnection delay the event carries, or `nil`.
    public init(event: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// The event in words, e.g. `event "update", id "7", data "{\"price\": 42}"`.
    public var description: String {
        var text = "event \(event.debugDescription)"
        if let id { text += ", id \(id.debugDescription)" }
        if let retry { text += ", retry \(retry)" }
        return text + ", data \(data.debugDescription)"
    }
}
