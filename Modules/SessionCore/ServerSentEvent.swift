/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML standard's
/// EventSource dispatches it.
///
/// ```swift
/// for try await event in session.eventSource(for: HTTPRequest(url: url)) {
///     if event.type == "tick" { print(event.id ?? "-", event.data) }
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event` field, `"message"` when it had none.
    public var type: String
    /// The event's `data` fields joined by line feeds.
    public var data: String
    /// The last event ID when the event was dispatched (its own `id` field or an earlier one);
    /// `nil` while the stream has set none. It is what a reconnection sends as `Last-Event-ID`.
    public var id: String?
    /// The reconnection time the stream set with a `retry` field before this event, if any.
    public var retry: Duration?

    /// Creates an event.
    ///
    /// ```swift
    /// let event = ServerSentEvent(type: "message", data: "hello", id: "1")
    /// ```
    /// - Parameters:
    ///   - type: The type; `"message"` by default.
    ///   - data: The data.
    ///   - id: The last event ID.
    ///   - retry: The reconnection time the stream asked for.
    public init(type: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }
}
