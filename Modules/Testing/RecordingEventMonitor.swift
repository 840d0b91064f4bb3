internal import CourierLocking
public import CourierSessionCore

/// An event monitor that keeps every session event, in order, and lets a test wait for one.
///
/// The session delivers events to monitors on its own queue, after the call that caused them may
/// already have returned; ``first(_:)`` waits for an event of a kind instead of sleeping.
///
/// ```swift
/// let monitor = RecordingEventMonitor()
/// let session = SessionManager(transport: transport, interceptor: RetryPolicy(), eventMonitors: [monitor])
/// _ = await session.data(for: request)
/// let completed = await monitor.first(.taskCompleted)
/// #expect(completed?.error == nil)
/// #expect(monitor.events(of: .retryScheduled).count == 1)
/// ```
public final class RecordingEventMonitor: EventMonitor {
    private struct Waiter {
        let id: Int
        let kind: SessionEvent.Kind
        let continuation: CheckedContinuation<SessionEvent?, Never>
    }

    private struct State {
        var events: [SessionEvent] = []
        var waiters: [Waiter] = []
        var nextWaiter = 0
    }

    private let state = Lock(State())

    /// Creates a monitor with no events.
    ///
    /// ```swift
    /// let monitor = RecordingEventMonitor()
    /// ```
    public init() {}

    /// Every event received, in the order the session delivered them.
    public var events: [SessionEvent] { state.withLock { $0.events } }

    /// The kind of every event received, in order.
    public var kinds: [SessionEvent.Kind] { events.map(\.kind) }

    /// The events of one kind, in order.
    ///
    /// ```swift
    /// let hops = monitor.events(of: .redirectFollowed).compactMap(\.request?.url)
    /// ```
    /// - Parameter kind: The kind.
    /// - Returns: The events.
    public func events(of kind: SessionEvent.Kind) -> [SessionEvent] {
        events.filter { $0.kind == kind }
    }

    /// The first event of `kind`, waiting until one arrives.
    ///
    /// Returns at once when one has already arrived. Give the test a time limit
    /// (`@Test(.timeLimit(.minutes(1)))`) in case it never comes.
    ///
    /// ```swift
    /// let completed = await monitor.first(.taskCompleted)
    /// ```
    /// - Parameter kind: The kind.
    /// - Returns: The event, or `nil` when the waiting task is cancelled first.
    public func first(_ kind: SessionEvent.Kind) async -> SessionEvent? {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow: SessionEvent?? = state.withLock { state in
                    if let event = state.events.first(where: { $0.kind == kind }) { return .some(event) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters.append(Waiter(id: id, kind: kind, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: nil)
        }
    }

    /// Removes every recorded event; waiting tasks keep waiting.
    public func reset() {
        state.withLock { $0.events = [] }
    }

    /// Records the event and wakes the tasks waiting for its kind.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - event: The event.
    public func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
        let woken = state.withLock { state -> [Waiter] in
            state.events.append(event)
            let woken = state.waiters.filter { $0.kind == event.kind }
            state.waiters.removeAll { $0.kind == event.kind }
            return woken
        }
        for waiter in woken { waiter.continuation.resume(returning: event) }
    }
}
