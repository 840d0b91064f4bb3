import CourierLocking
import CourierSessionEngine

/// A ``DelayScheduling`` whose time moves only when the test calls `advance(by:)`: the due actions
/// then run on the test's thread, in deadline order, before `advance` returns.
final class ManualDelayScheduler: DelayScheduling {
    private struct Pending {
        let id: Int
        let deadline: Duration
        let action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var pending: [Pending] = []
        var nextID = 0
    }

    /// When set, `cancel()` is ignored, so a test can check that a stale timer does no harm.
    let ignoresCancellation: Bool
    private let state = Lock(State())

    init(ignoresCancellation: Bool = false) {
        self.ignoresCancellation = ignoresCancellation
    }

    /// The time since the scheduler was made.
    var now: Duration { state.withLock { $0.now } }

    /// How many runs are scheduled and not cancelled.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay {
        state.withLock { state in
            state.nextID += 1
            state.pending.append(Pending(id: state.nextID, deadline: state.now + delay, action: action))
            return Handle(id: state.nextID, scheduler: self)
        }
    }

    /// Moves time forward by `duration`, running every action that falls due on the way.
    func advance(by duration: Duration) {
        let target = state.withLock { $0.now + duration }
        while true {
            let due = state.withLock { state -> Pending? in
                guard let next = state.pending.filter({ $0.deadline <= target }).min(by: { $0.deadline < $1.deadline })
                else { return nil }
                state.pending.removeAll { $0.id == next.id }
                state.now = next.deadline
                return next
            }
            guard let due else { break }
            due.action()
        }
        state.withLock { $0.now = target }
    }

    fileprivate func cancel(_ id: Int) {
        guard !ignoresCancellation else { return }
        state.withLock { $0.pending.removeAll { $0.id == id } }
    }

    private struct Handle: ScheduledDelay {
        let id: Int
        let scheduler: ManualDelayScheduler

        func cancel() { scheduler.cancel(id) }
    }
}

/// The visibilities an action was called with, in order.
final class VisibilityLog: Sendable {
    private let values = Lock<[Bool]>([])

    func record(_ visible: Bool) { values.withLock { $0.append(visible) } }

    var calls: [Bool] { values.withLock { $0 } }
}
