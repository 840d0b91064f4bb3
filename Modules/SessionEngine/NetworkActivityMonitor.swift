internal import CourierLocking
public import CourierSessionCore

/// Feeds a session's task events to a `NetworkActivityTracker`, as AFNetworking's activity
/// indicator manager listens to its task notifications: a task counts from its resume until it is
/// suspended or completes.
///
/// Each task is counted once however its events arrive (a task cancelled before it ever ran
/// completes without a resume and never counts), so the tracker's count cannot drift.
///
/// ```swift
/// let tracker = NetworkActivityTracker { visible in spinner.isHidden = !visible }
/// let session = SessionManager(transport: transport, eventMonitors: [NetworkActivityMonitor(tracker: tracker)])
/// ```
public final class NetworkActivityMonitor: EventMonitor {
    /// The tracker the counts go to.
    public let tracker: NetworkActivityTracker
    private let active = Lock<Set<Int>>([])

    /// Creates a monitor for `tracker`.
    ///
    /// ```swift
    /// let monitor = NetworkActivityMonitor(tracker: tracker)
    /// ```
    /// - Parameter tracker: The tracker to feed.
    public init(tracker: NetworkActivityTracker) {
        self.tracker = tracker
    }

    /// Counts the task of a resume event, and stops counting it at a suspension or completion.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - event: The event.
    public func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
        guard let task = event.taskIdentifier else { return }
        switch event.kind {
        case .taskResumed:
            if active.withLock({ $0.insert(task).inserted }) { tracker.incrementActivityCount() }
        case .taskSuspended, .taskCompleted:
            if active.withLock({ $0.remove(task) != nil }) { tracker.decrementActivityCount() }
        default:
            break
        }
    }
}
