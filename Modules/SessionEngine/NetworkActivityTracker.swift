internal import CourierLocking
public import CourierSessionCore

/// Shows network activity without flicker: AFNetworking's `AFNetworkActivityIndicatorManager`, with
/// an action closure in place of the status bar.
///
/// Callers count activity with ``incrementActivityCount()`` and ``decrementActivityCount()`` (a
/// task that starts and a task that ends or is suspended, from any source). The tracker turns the
/// count into a visibility with AFNetworking's four states:
///
/// - ``State/notActive`` and the count rises above 0: ``State/delayingStart``, and an activation
///   timer of ``activationDelay`` (1 s by default) starts. Count changes meanwhile are ignored.
/// - The activation timer fires: ``State/active`` (visible) if there is activity, else back to
///   ``State/notActive``. Activity shorter than the delay is never shown.
/// - ``State/active`` and the count falls to 0: ``State/delayingEnd``, and a completion timer of
///   ``completionDelay`` (0.17 s by default) starts.
/// - ``State/delayingEnd`` and new activity: back to ``State/active``, still visible, no action.
/// - The completion timer fires: ``State/notActive`` (hidden).
///
/// The action runs only when the visibility changes, so overlapping activity gives exactly one
/// show and one hide. Actions run in order, on the thread of the call or timer that caused them,
/// never under the tracker's lock (an action may call the tracker).
///
/// ```swift
/// let tracker = NetworkActivityTracker { visible in
///     statusIcon.setSpinning(visible)
/// }
/// tracker.incrementActivityCount()  // a transfer starts
/// // ... 1 s later, if it is still running: statusIcon spins
/// tracker.decrementActivityCount()  // it ends; 0.17 s later the icon stops
/// ```
///
/// It lives in this module, beside the image cache and the coming image downloader (AFNetworking
/// ships it with the UIKit extensions), because it needs nothing but a clock: the session layer
/// can feed it task events without the tracker knowing the session.
///
/// Differences from AFNetworking: enabled by default (it is made with its action rather than
/// shared); enabling it evaluates the current count at once instead of waiting for the next
/// change; the count is floored at 0 as in AFNetworking, so a decrement without an increment is
/// ignored.
public final class NetworkActivityTracker: Sendable {
    /// The tracker's state.
    public enum State: Sendable, Hashable {
        /// Hidden, no timer.
        case notActive
        /// Activity seen; waiting out the activation delay before showing it.
        case delayingStart
        /// Visible.
        case active
        /// Activity ended; waiting out the completion delay before hiding.
        case delayingEnd
    }

    /// How long activity must last before it is shown.
    public let activationDelay: Duration
    /// How long the indicator stays after activity ends.
    public let completionDelay: Duration

    private let scheduler: any DelayScheduling
    private let action: @Sendable (Bool) -> Void
    private let machine = Lock(Machine())

    /// Creates an enabled tracker.
    ///
    /// ```swift
    /// let tracker = NetworkActivityTracker(activationDelay: .milliseconds(500)) { visible in
    ///     print(visible ? "busy" : "idle")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - activationDelay: How long activity must last to be shown; 1 s by default.
    ///   - completionDelay: How long it stays shown after it ends; 0.17 s by default.
    ///   - scheduler: Where the delays come from; `ContinuousClock` by default.
    ///   - action: Called with the new visibility each time it changes.
    public init(
        activationDelay: Duration = .seconds(1),
        completionDelay: Duration = .milliseconds(170),
        scheduler: any DelayScheduling = ClockDelayScheduler(clock: ContinuousClock()),
        action: @escaping @Sendable (_ visible: Bool) -> Void
    ) {
        self.activationDelay = activationDelay
        self.completionDelay = completionDelay
        self.scheduler = scheduler
        self.action = action
    }

    /// Whether count changes move the state. Turning it off hides at once (running the action if
    /// the indicator was visible) and stops both timers; the count keeps counting.
    public var isEnabled: Bool {
        get { machine.withLock { $0.enabled } }
        set { update { machine in machine.setEnabled(newValue, tracker: self) } }
    }

    /// The activity count: increments minus decrements, never below 0.
    public var activityCount: Int {
        machine.withLock { $0.count }
    }

    /// Whether the indicator is shown: the last value the action was given.
    public var isActivityIndicatorVisible: Bool {
        machine.withLock { $0.visible }
    }

    /// The current state.
    public var state: State {
        machine.withLock { $0.state }
    }

    /// Counts one more activity: a task started or resumed.
    ///
    /// ```swift
    /// tracker.incrementActivityCount()
    /// ```
    public func incrementActivityCount() {
        update { machine in
            machine.count += 1
            machine.countChanged(tracker: self)
        }
    }

    /// Counts one activity less: a task ended or was suspended. Ignored at 0.
    ///
    /// ```swift
    /// tracker.decrementActivityCount()
    /// ```
    public func decrementActivityCount() {
        update { machine in
            machine.count = max(0, machine.count - 1)
            machine.countChanged(tracker: self)
        }
    }

    fileprivate func startTimer(_ kind: Machine.TimerKind, id: UInt64) -> any ScheduledDelay {
        let delay = kind == .activation ? activationDelay : completionDelay
        return scheduler.schedule(after: delay) { [weak self] in
            self?.update { machine in machine.timerFired(kind, id: id, tracker: self) }
        }
    }

    /// Changes the machine under the lock, then runs the actions it queued, in order, outside it.
    /// Whoever finds no delivery under way delivers everything queued, including what other
    /// threads queue meanwhile, so actions never overlap or reorder.
    private func update(_ change: (inout Machine) -> Void) {
        var deliver = machine.withLock { machine -> Bool in
            change(&machine)
            guard !machine.delivering, !machine.notifications.isEmpty else { return false }
            machine.delivering = true
            return true
        }
        while deliver {
            let batch = machine.withLock { machine -> [Bool] in
                defer { machine.notifications.removeAll() }
                return machine.notifications
            }
            for visible in batch { action(visible) }
            deliver = machine.withLock { machine -> Bool in
                if machine.notifications.isEmpty { machine.delivering = false }
                return machine.delivering
            }
        }
    }
}

/// The tracker's state machine, as AFNetworking's `setCurrentState:` and
/// `updateCurrentStateForNetworkActivityChange`, mutated only under the tracker's lock.
private struct Machine: Sendable {
    enum TimerKind { case activation, completion }

    var state = NetworkActivityTracker.State.notActive
    var count = 0
    var enabled = true
    var visible = false
    /// Visibility changes waiting for the action, oldest first.
    var notifications: [Bool] = []
    var delivering = false
    private var timers: [TimerKind: (id: UInt64, handle: any ScheduledDelay)] = [:]
    private var nextTimerID: UInt64 = 0

    mutating func countChanged(tracker: NetworkActivityTracker) {
        guard enabled else { return }
        switch state {
        case .notActive where count > 0: enter(.delayingStart, tracker: tracker)
        case .active where count == 0: enter(.delayingEnd, tracker: tracker)
        case .delayingEnd where count > 0: enter(.active, tracker: tracker)
        default: break  // delayingStart lets its timer decide
        }
    }

    mutating func setEnabled(_ enabled: Bool, tracker: NetworkActivityTracker) {
        self.enabled = enabled
        if enabled {
            countChanged(tracker: tracker)
        } else {
            enter(.notActive, tracker: tracker)
        }
    }

    mutating func timerFired(_ kind: TimerKind, id: UInt64, tracker: NetworkActivityTracker?) {
        // A timer cancelled or replaced after it started to fire finds another id, or none.
        guard let tracker, timers[kind]?.id == id else { return }
        timers[kind] = nil
        switch kind {
        case .activation: enter(count > 0 ? .active : .notActive, tracker: tracker)
        case .completion: enter(.notActive, tracker: tracker)
        }
    }

    private mutating func enter(_ newState: NetworkActivityTracker.State, tracker: NetworkActivityTracker) {
        guard newState != state else { return }
        state = newState
        switch newState {
        case .notActive:
            cancel(.activation)
            cancel(.completion)
            setVisible(false)
        case .delayingStart:
            start(.activation, tracker: tracker)
        case .active:
            cancel(.completion)
            setVisible(true)
        case .delayingEnd:
            start(.completion, tracker: tracker)
        }
    }

    private mutating func start(_ kind: TimerKind, tracker: NetworkActivityTracker) {
        cancel(kind)
        nextTimerID += 1
        timers[kind] = (nextTimerID, tracker.startTimer(kind, id: nextTimerID))
    }

    private mutating func cancel(_ kind: TimerKind) {
        timers.removeValue(forKey: kind)?.handle.cancel()
    }

    private mutating func setVisible(_ newValue: Bool) {
        guard newValue != visible else { return }
        visible = newValue
        notifications.append(newValue)
    }
}
