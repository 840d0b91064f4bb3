internal import CourierLocking
internal import CourierSessionCore
internal import Synchronization

/// Whether anyone listens to a session's events: its monitors (fixed at creation) or event streams
/// (counted as they come and go). Shared by the session and its sinks by a strong reference, so
/// asking costs one atomic load rather than a weak load of the session on every event.
final class EventListeners: Sendable {
    let hasMonitors: Bool
    let streamCount = Atomic(0)
    /// The session the events go to, held weakly: a task kept after its session was dropped must
    /// not keep the session alive. Set once the session exists, read only when someone listens.
    private let session = Lock(WeakSession())

    private struct WeakSession: Sendable {
        weak var session: SessionManager?
    }

    init(hasMonitors: Bool) { self.hasMonitors = hasMonitors }

    var isListening: Bool { hasMonitors || streamCount.load(ordering: .relaxed) > 0 }

    /// Makes `session` the one ``deliver(_:)`` sends to.
    func attach(_ session: SessionManager) {
        self.session.withLock { $0.session = session }
    }

    /// Sends `event` to the session's monitors and streams; nothing once the session is gone.
    func deliver(_ event: SessionEvent) {
        session.withLock { $0.session }?.report(event)
    }
}

/// Where a task's runner, reader and state machine send events: it builds an event only when a
/// monitor or a stream listens, since most sessions have neither and every progress step passes here.
struct EventSink: Sendable {
    let listeners: EventListeners
    let deliver: @Sendable (SessionEvent) -> Void

    func callAsFunction(_ event: @autoclosure () -> SessionEvent) {
        if listeners.isListening { deliver(event()) }
    }
}
