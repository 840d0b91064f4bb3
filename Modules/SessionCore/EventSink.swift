internal import Synchronization

/// Where a task's runner, reader and state machine send events: it builds an event only when a
/// monitor or a stream listens, since most sessions have neither and every progress step passes here.
struct EventSink: Sendable {
    let isListening: @Sendable () -> Bool
    let deliver: @Sendable (SessionEvent) -> Void

    func callAsFunction(_ event: @autoclosure () -> SessionEvent) {
        if isListening() { deliver(event()) }
    }

    /// Sends to `session`'s monitors and streams; nothing once the session is gone.
    static func to(_ session: SessionManager) -> EventSink {
        EventSink(
            isListening: { [weak session] in session?.hasListeners ?? false },
            deliver: { [weak session] event in session?.report(event) }
        )
    }
}
