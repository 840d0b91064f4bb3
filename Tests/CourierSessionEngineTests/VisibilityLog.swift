import CourierLocking

/// The visibilities an action was called with, in order.
final class VisibilityLog: Sendable {
    private let values = Lock<[Bool]>([])

    func record(_ visible: Bool) { values.withLock { $0.append(visible) } }

    var calls: [Bool] { values.withLock { $0 } }
}
