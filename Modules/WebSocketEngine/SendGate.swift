internal import CourierLocking

/// A first-come, first-served gate for the connection's senders: one message's frames go out
/// together (RFC 6455 §5.4: the fragments of two messages may not interleave), and the compressor's
/// window sees messages in the order they go on the wire.
///
/// A waiting sender suspends (never blocking a thread); the gate is handed to the next in line.
final class SendGate: Sendable {
    private struct State {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var waiterHead = 0
    }

    private let state = Lock(State())

    /// Waits for the gate, then holds it.
    func enter() async {
        let entered = state.withLock { state in
            guard state.isHeld else {
                state.isHeld = true
                return true
            }
            return false
        }
        if entered { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.isHeld else {
                    state.isHeld = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Hands the gate to the next sender in line, or opens it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.waiterHead < state.waiters.count else {
                state.waiters.removeAll(keepingCapacity: true)
                state.waiterHead = 0
                state.isHeld = false
                return nil
            }
            defer { state.waiterHead += 1 }
            return state.waiters[state.waiterHead]
        }
        next?.resume()
    }
}
