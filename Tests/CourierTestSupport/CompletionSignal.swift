import CourierLocking

/// A one-shot signal from a callback to an awaiting test: the test waits for the state it needs
/// instead of sleeping in the hope of reaching it.
public final class CompletionSignal: Sendable {
    private let state = Lock<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    /// Creates an unsignalled signal.
    public init() {}

    /// Wakes the waiter, now or when it comes; later calls do nothing more.
    public func signal() {
        let waiter = state.withLock { state in
            state.signalled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once ``signal()`` was called.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.signalled { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// One value handed from a completion handler to an awaiting test.
public final class DeliveredValue<Value: Sendable>: Sendable {
    private let value = Lock<Value?>(nil)
    private let delivered = CompletionSignal()

    /// Creates an empty box.
    public init() {}

    /// Stores the value and wakes the waiter.
    public func put(_ newValue: Value) {
        value.withLock { $0 = newValue }
        delivered.signal()
    }

    /// The value, once it was put.
    public func take() async -> Value {
        await delivered.wait()
        return value.withLock { $0 }!
    }
}
