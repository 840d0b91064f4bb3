internal import CourierSessionCore
internal import Synchronization

/// Whether anyone listens to a session's events: its monitors (fixed at creation) or event streams
/// (counted as they come and go). Shared by the session and its sinks by a strong reference, so
/// asking costs one atomic load rather than a weak load of the session on every event.
final class EventListeners: Sendable {
    let hasMonitors: Bool
    let streamCount = Atomic(0)

    init(hasMonitors: Bool) { self.hasMonitors = hasMonitors }

    var isListening: Bool { hasMonitors || streamCount.load(ordering: .relaxed) > 0 }
}

/// Where a task's runner, reader and state machine send events: it builds an event only when a
/// monitor or a stream listens, since most sessions have neither and every progress step passes here.
struct EventSink: Sendable {
    let listeners: EventListeners
    let deliver: @Sendable (SessionEvent) -> Void

    func callAsFunction(_ event: @autoclosure () -> SessionEvent) {
        if listeners.isListening { deliver(event()) }
    }

    /// Sends to `session`'s monitors and streams; nothing once the session is gone.
    static func to(_ session: SessionManager) -> EventSink {
        EventSink(listeners: session.listeners, deliver: { [weak session] event in session?.report(event) })
    }
}
